"""Correlation misuse, holdout10: a Pearson correlation matrix over nominal exit-poll codes
(elections, DataFrame.corr), and Pearson r with its p-value between two drifting telemetry
channels (satellite housekeeping data, scipy.stats.pearsonr on trending series)."""

from textwrap import dedent

from bench.critic_corpus import Case

_POLL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_061)
n = 2400
parties = {1: "Labour", 2: "Conservative", 3: "Lib Dem", 4: "Green", 5: "Reform", 6: "SNP"}
regions = {1: "North East", 2: "North West", 3: "Yorkshire", 4: "Midlands", 5: "London",
           6: "South East", 7: "South West", 8: "Wales", 9: "Scotland"}
poll = pd.DataFrame({
    "region": rng.integers(1, 10, n),
    "age_band": rng.integers(1, 7, n),
    "education": rng.integers(1, 5, n),
    "tenure": rng.choice([1, 2, 3], n, p=[0.6, 0.2, 0.2]),
})
vote = []
for reg, age, edu in poll[["region", "age_band", "education"]].itertuples(index=False):
    w = np.array([3.0, 2.5, 1.2, 0.8, 1.0, 0.05])
    w[0] += 0.5 * (reg in (1, 2, 8)) - 0.3 * (age - 3.5)
    w[1] += 0.4 * (age - 3.5) + 0.6 * (reg in (6, 7))
    w[3] += 0.5 * (edu - 2.5)
    w[5] = 3.0 if reg == 9 else 0.05
    w = np.clip(w, 0.05, None)
    vote.append(rng.choice(list(parties), p=w / w.sum()))
poll["vote"] = vote
"""

_TELEMETRY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_062)
days = pd.date_range("2024-03-01", periods=120, freq="D")
t = np.arange(len(days))
hk = pd.DataFrame({
    "batt_temp_c": 18 + 0.045 * t + np.cumsum(rng.normal(0, 0.25, len(t))),
    "rw2_current_ma": 210 + 0.30 * t + np.cumsum(rng.normal(0, 1.6, len(t))),
    "sa_voltage_v": 31.5 - 0.004 * t + rng.normal(0, 0.05, len(t)),
}, index=days)
hk.index.name = "date"
"""

CASES: list[Case] = [
    Case(
        id="correlation_misuse-h10-exitpoll-code-corr",
        family="correlation_misuse",
        twin="correlation_misuse-h10-exitpoll-code-corr-sound",
        split="holdout10",
        setup=_POLL,
        note="vote, region and tenure are nominal codes (1=Labour, 2=Conservative, ...); a "
        "Pearson matrix over them measures nothing meaningful and ranks associations wrongly.",
        code=dedent("""\
            cols = ["vote", "region", "age_band", "education", "tenure"]
            corr = poll[cols].corr()
            with_vote = corr["vote"].drop("vote").sort_values(key=abs, ascending=False)
            print("association with vote choice (r):")
            print(with_vote.round(3).to_string())
            print(f"strongest driver of vote: {with_vote.index[0]}")
        """),
    ),
    Case(
        id="correlation_misuse-h10-exitpoll-code-corr-sound",
        family=None,
        twin="correlation_misuse-h10-exitpoll-code-corr",
        split="holdout10",
        setup=_POLL,
        note="Association of each categorical variable with the nominal vote choice is measured "
        "with Cramer's V from a contingency table, which does not depend on the code order.",
        code=dedent("""\
            from scipy.stats import chi2_contingency

            def cramers_v(x, y):
                tab = pd.crosstab(x, y)
                chi2 = chi2_contingency(tab, correction=False)[0]
                return np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))

            cols = ["region", "age_band", "education", "tenure"]
            with_vote = pd.Series({c: cramers_v(poll[c], poll["vote"]) for c in cols})
            with_vote = with_vote.sort_values(ascending=False)
            print("association with vote choice (Cramer's V):")
            print(with_vote.round(3).to_string())
            print(f"strongest driver of vote: {with_vote.index[0]}")
        """),
    ),
    Case(
        id="correlation_misuse-h10-telemetry-trend-corr",
        family="correlation_misuse",
        twin="correlation_misuse-h10-telemetry-trend-corr-sound",
        split="holdout10",
        setup=_TELEMETRY,
        note="Both channels drift over the 120 days (trend plus random walk); Pearson r and its "
        "iid p-value on the raw levels reflect the shared trend, not a coupling between them.",
        code=dedent("""\
            from scipy.stats import pearsonr

            r, p = pearsonr(hk["batt_temp_c"], hk["rw2_current_ma"])
            print(hk.describe().round(2).loc[["mean", "std", "min", "max"]])
            print(f"\\nbattery temperature vs reaction-wheel 2 current: r = {r:.3f}, p = {p:.2g}"
                  f" over {len(hk)} days")
        """),
    ),
    Case(
        id="correlation_misuse-h10-telemetry-trend-corr-sound",
        family=None,
        twin="correlation_misuse-h10-telemetry-trend-corr",
        split="holdout10",
        setup=_TELEMETRY,
        note="The channels are differenced day to day before correlating, so the common drift "
        "does not masquerade as coupling between temperature and wheel current.",
        code=dedent("""\
            from scipy.stats import pearsonr

            daily = hk[["batt_temp_c", "rw2_current_ma"]].diff().dropna()
            r, p = pearsonr(daily["batt_temp_c"], daily["rw2_current_ma"])
            print(hk.describe().round(2).loc[["mean", "std", "min", "max"]])
            print(f"\\nday-to-day change, battery temperature vs reaction-wheel 2 current: "
                  f"r = {r:.3f}, p = {p:.2g} over {len(daily)} differences")
        """),
    ),
]
