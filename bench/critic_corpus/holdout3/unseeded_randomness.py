"""Unseeded randomness, holdout3 idioms: a Monte Carlo flood risk from a frozen scipy
distribution's .rvs() without random_state, an IsolationForest without random_state whose
flag count is reported, and the classic np.random.rand(len(df)) < 0.8 train/test mask before a
statsmodels logit."""

from textwrap import dedent

from bench.critic_corpus import Case

_RIVER = """\
import numpy as np
import pandas as pd
from scipy import stats

# 62 years of annual maximum discharge at the gauge (m3/s)
obs_rng = np.random.default_rng(1962)
annual_max = pd.Series(stats.genextreme(c=-0.1, loc=420, scale=110).rvs(62, random_state=obs_rng),
                       index=range(1962, 2024), name="q_max")
shape, loc, scale = stats.genextreme.fit(annual_max)
peaks = stats.genextreme(shape, loc=loc, scale=scale)
"""

_LOGINS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8443)
n = 3000
logins = pd.DataFrame({
    "account": [f"u{i:05d}" for i in rng.integers(0, 20000, n)],
    "hour": rng.integers(0, 24, n),
    "failed_before": rng.poisson(0.3, n),
    "geo_km": rng.exponential(40, n).round(1),
    "new_device": rng.random(n) < 0.08,
    "mb_down": rng.lognormal(2, 0.7, n).round(1),
})
features = ["hour", "failed_before", "geo_km", "new_device", "mb_down"]
"""

_SWITCHING = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(3344)
n = 2000
customers = pd.DataFrame({
    "tenure_m": rng.integers(1, 120, n),
    "tariff": rng.choice(["fixed", "variable", "green"], n),
    "bill_rise_pct": rng.normal(8, 6, n).round(1),
    "complaints": rng.poisson(0.4, n),
})
lp = (-1.0 - 0.015 * customers.tenure_m + 0.09 * customers.bill_rise_pct
      + 0.5 * customers.complaints + (customers.tariff == "variable") * 0.4)
customers["switched"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="unseeded-scipy-rvs-flood-risk",
        family="unseeded_randomness",
        twin="unseeded-scipy-rvs-flood-risk-sound",
        split="holdout3",
        setup=_RIVER,
        note="The 30-year flood risk is a Monte Carlo estimate from peaks.rvs() with no "
        "random_state (numpy's global state), so the printed probability changes every run.",
        code=dedent("""\
            horizons = peaks.rvs(size=(4000, 30))          # 4000 synthetic 30-year futures
            design_flood = 1100.0
            p_exceed = (horizons.max(axis=1) > design_flood).mean()
            print(f"GEV fit: shape {shape:.3f}, loc {loc:.0f}, scale {scale:.0f}")
            print(f"P(design flood of {design_flood:.0f} m3/s exceeded within 30 years) "
                  f"= {p_exceed:.4f}")
        """),
    ),
    Case(
        id="unseeded-scipy-rvs-flood-risk-sound",
        family=None,
        twin="unseeded-scipy-rvs-flood-risk",
        split="holdout3",
        setup=_RIVER,
        note="The Monte Carlo draws come from a seeded Generator passed as random_state, so "
        "the flood probability is reproducible.",
        code=dedent("""\
            mc_rng = np.random.default_rng(30)
            horizons = peaks.rvs(size=(4000, 30), random_state=mc_rng)   # 4000 30-year futures
            design_flood = 1100.0
            p_exceed = (horizons.max(axis=1) > design_flood).mean()
            print(f"GEV fit: shape {shape:.3f}, loc {loc:.0f}, scale {scale:.0f}")
            print(f"P(design flood of {design_flood:.0f} m3/s exceeded within 30 years) "
                  f"= {p_exceed:.4f}")
        """),
    ),
    Case(
        id="unseeded-isolation-forest-logins",
        family="unseeded_randomness",
        twin="unseeded-isolation-forest-logins-sound",
        split="holdout3",
        setup=_LOGINS,
        note="IsolationForest without random_state: the trees' random splits, and so the "
        "number of flagged logins and their ranking, change every run.",
        code=dedent("""\
            from sklearn.ensemble import IsolationForest

            iso = IsolationForest(n_estimators=100, contamination="auto")
            logins["score"] = -iso.fit(logins[features]).score_samples(logins[features])
            flagged = logins[iso.predict(logins[features]) == -1]
            print(f"{len(flagged)} of {len(logins)} logins flagged as anomalous "
                  f"({len(flagged) / len(logins):.1%})")
            flagged.nlargest(5, "score")[["account", "geo_km", "failed_before", "score"]].round(3)
        """),
    ),
    Case(
        id="unseeded-isolation-forest-logins-sound",
        family=None,
        twin="unseeded-isolation-forest-logins",
        split="holdout3",
        setup=_LOGINS,
        note="IsolationForest with random_state fixed, so the flagged logins and scores are "
        "reproducible.",
        code=dedent("""\
            from sklearn.ensemble import IsolationForest

            iso = IsolationForest(n_estimators=100, contamination="auto", random_state=0)
            logins["score"] = -iso.fit(logins[features]).score_samples(logins[features])
            flagged = logins[iso.predict(logins[features]) == -1]
            print(f"{len(flagged)} of {len(logins)} logins flagged as anomalous "
                  f"({len(flagged) / len(logins):.1%})")
            flagged.nlargest(5, "score")[["account", "geo_km", "failed_before", "score"]].round(3)
        """),
    ),
    Case(
        id="unseeded-rand-mask-split-switching",
        family="unseeded_randomness",
        twin="unseeded-rand-mask-split-switching-sound",
        split="holdout3",
        setup=_SWITCHING,
        note="Train/test mask from np.random.rand with no seed: which customers are held out, "
        "and so the printed hold-out accuracy and AUC, change every run.",
        code=dedent("""\
            from sklearn.metrics import roc_auc_score

            msk = np.random.rand(len(customers)) < 0.8
            train, test = customers[msk], customers[~msk]
            fit = smf.logit("switched ~ tenure_m + bill_rise_pct + complaints + C(tariff)",
                            data=train).fit(disp=0)
            prob = fit.predict(test)
            print(f"train {len(train)}, test {len(test)} customers")
            print(f"hold-out accuracy {((prob > 0.5) == test.switched).mean():.3f}, "
                  f"AUC {roc_auc_score(test.switched, prob):.3f}")
        """),
    ),
    Case(
        id="unseeded-rand-mask-split-switching-sound",
        family=None,
        twin="unseeded-rand-mask-split-switching",
        split="holdout3",
        setup=_SWITCHING,
        note="The train/test mask is drawn from a seeded Generator, so the split and the "
        "hold-out scores are reproducible.",
        code=dedent("""\
            from sklearn.metrics import roc_auc_score

            msk = np.random.default_rng(17).random(len(customers)) < 0.8
            train, test = customers[msk], customers[~msk]
            fit = smf.logit("switched ~ tenure_m + bill_rise_pct + complaints + C(tariff)",
                            data=train).fit(disp=0)
            prob = fit.predict(test)
            print(f"train {len(train)}, test {len(test)} customers")
            print(f"hold-out accuracy {((prob > 0.5) == test.switched).mean():.3f}, "
                  f"AUC {roc_auc_score(test.switched, prob):.3f}")
        """),
    ),
]
