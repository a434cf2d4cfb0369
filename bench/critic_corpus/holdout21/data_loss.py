from bench.critic_corpus import Case

_PANEL_SETUP = """\
import numpy as np
import pandas as pd

# first-year wellbeing panel: WEMWBS (14-70) in Oct, Dec, Mar, Jun
rng = np.random.default_rng(0)
n = 420
person = rng.normal(0, 7, n)
rows = []
for i in range(n):
    responding = True
    for wave in range(1, 5):
        score = np.clip(np.round(47 + person[i] - 0.6 * (wave - 1) + rng.normal(0, 4.5)),
                        14, 70)
        rows.append({"pid": f"FY{1000 + i}", "wave": wave,
                     "wemwbs": score if responding else np.nan})
        if responding and wave < 4:
            # students who are struggling are less likely to answer the next wave
            responding = rng.random() > 1 / (1 + np.exp(2.0 + 0.12 * (score - 47)))
panel = pd.DataFrame(rows)
panel.head(8)
"""

_CLEAN_SETUP = """\
import numpy as np
import pandas as pd

# cleanliness-priming replication; sites upload their own exports
rng = np.random.default_rng(4242)
site_info = {"Leeds": ".", "Boston": ".", "Utrecht": ".", "Leipzig": ",", "Wien": ",",
             "Lyon": ","}
rows = []
for site, dec in site_info.items():
    effect = -0.5 if dec == "," else -0.2
    for i in range(int(rng.integers(38, 52))):
        cond = "clean" if i % 2 else "control"
        rating = np.clip(rng.normal(5.0 + effect * (cond == "clean"), 1.1), 1, 7)
        txt = f"{rating:.2f}".replace(".", dec)
        if rng.random() < 0.02:
            txt = ""                                        # skipped the DV page
        rows.append({"site": site, "pid": f"{site[:3].upper()}{i:03d}",
                     "condition": cond, "moral_rating": txt})
rep = pd.DataFrame(rows)
print(len(rep), "participants")
rep.sample(6, random_state=1)
"""

CASES: list[Case] = [
    Case(
        id="h21-data-loss-wellbeing-waves-dropna-completers",
        family="data_loss",
        setup=_PANEL_SETUP,
        code="""\
from scipy import stats

wide = panel.pivot(index="pid", columns="wave", values="wemwbs").dropna()
wide.columns = [f"w{w}" for w in wide.columns]

means = wide.agg(["mean", "std"]).T.round(2)
t, p = stats.ttest_rel(wide["w4"], wide["w1"])
change = wide["w4"] - wide["w1"]
dz = change.mean() / change.std()

print(f"Wellbeing fell from M = {wide.w1.mean():.1f} in October to M = {wide.w4.mean():.1f} "
      f"in June, t({len(wide) - 1}) = {t:.2f}, p = {p:.3g}, dz = {dz:.2f}")
means
""",
        twin="h21-data-loss-wellbeing-waves-mixedlm-all",
        note="dropna() after pivoting keeps only students who answered all four waves (about "
             "40% are silently dropped, mostly the least well), biasing levels and change.",
        split="holdout21",
    ),
    Case(
        id="h21-data-loss-wellbeing-waves-mixedlm-all",
        family=None,
        setup=_PANEL_SETUP,
        code="""\
import statsmodels.formula.api as smf
from scipy import stats

wide = panel.pivot(index="pid", columns="wave", values="wemwbs")
n_wave = wide.notna().sum()
completers = wide.notna().all(axis=1)
print("Responses per wave:", n_wave.to_dict(), f"of {len(wide)} students")
print(f"Answered all four waves: {completers.sum()} ({completers.mean():.0%})")

# do later non-responders differ at baseline?
t0, p0 = stats.ttest_ind(wide.loc[completers, 1], wide.loc[~completers, 1], equal_var=False)
print(f"Baseline WEMWBS: completers {wide.loc[completers, 1].mean():.1f} vs "
      f"non-completers {wide.loc[~completers, 1].mean():.1f} (t = {t0:.2f}, p = {p0:.3g})")

# all available responses; valid if drop-out depends on earlier observed wellbeing (MAR)
m = smf.mixedlm("wemwbs ~ C(wave)", data=panel.dropna(subset=["wemwbs"]),
                groups="pid").fit(reml=True)
ci = m.conf_int().loc["C(wave)[T.4]"]
print(f"Change Oct -> Jun (mixed model, {int(m.nobs)} responses): "
      f"b = {m.params['C(wave)[T.4]']:.2f} [{ci[0]:.2f}, {ci[1]:.2f}], "
      f"p = {m.pvalues['C(wave)[T.4]']:.3g}")
m.fe_params.round(2)
""",
        twin="h21-data-loss-wellbeing-waves-dropna-completers",
        note="Response counts per wave and completer numbers are reported, drop-outs are "
             "compared at baseline, and change is estimated from all responses with a mixed model.",
        split="holdout21",
    ),
    Case(
        id="h21-data-loss-manylabs-comma-decimals-coerced",
        family="data_loss",
        setup=_CLEAN_SETUP,
        code="""\
from scipy import stats

rep["rating"] = pd.to_numeric(rep["moral_rating"], errors="coerce")
clean = rep.dropna(subset=["rating"])

c = clean.loc[clean.condition == "clean", "rating"]
k = clean.loc[clean.condition == "control", "rating"]
t, p = stats.ttest_ind(c, k)
d = (c.mean() - k.mean()) / np.sqrt((c.var() + k.var()) / 2)

print(f"Clean: M = {c.mean():.2f} (SD = {c.std():.2f}); "
      f"control: M = {k.mean():.2f} (SD = {k.std():.2f})")
print(f"t({len(c) + len(k) - 2}) = {t:.2f}, p = {p:.3f}, d = {d:.2f}")
clean.groupby(["site", "condition"])["rating"].mean().unstack().round(2)
""",
        twin="h21-data-loss-manylabs-decimals-normalised",
        note="to_numeric(errors='coerce') turns every comma-decimal rating from Leipzig, Wien and "
             "Lyon into NaN; half the sample (three whole sites) vanishes without a word.",
        split="holdout21",
    ),
    Case(
        id="h21-data-loss-manylabs-decimals-normalised",
        family=None,
        setup=_CLEAN_SETUP,
        code="""\
from scipy import stats

# continental sites export "4,25"; normalise the decimal mark before converting
txt = rep["moral_rating"].str.strip().str.replace(",", ".", regex=False)
rep["rating"] = pd.to_numeric(txt.replace("", np.nan), errors="raise")
missing = rep["rating"].isna()
print(f"No rating recorded: {missing.sum()} of {len(rep)} participants")
print(rep[missing].groupby("site").size().to_dict())
clean = rep[~missing]

c = clean.loc[clean.condition == "clean", "rating"]
k = clean.loc[clean.condition == "control", "rating"]
t, p = stats.ttest_ind(c, k)
d = (c.mean() - k.mean()) / np.sqrt((c.var() + k.var()) / 2)

print(f"Clean: M = {c.mean():.2f} (SD = {c.std():.2f}); "
      f"control: M = {k.mean():.2f} (SD = {k.std():.2f})")
print(f"t({len(c) + len(k) - 2}) = {t:.2f}, p = {p:.3f}, d = {d:.2f}")
clean.groupby(["site", "condition"])["rating"].mean().unstack().round(2)
""",
        twin="h21-data-loss-manylabs-comma-decimals-coerced",
        note="Comma decimals are normalised before conversion (which would raise on anything "
             "else), and the few skipped ratings are counted and listed by site.",
        split="holdout21",
    ),
]
