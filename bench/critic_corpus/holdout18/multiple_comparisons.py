from bench.critic_corpus import Case

_PUSH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(22)
variants = ["control"] + [f"copy_{c}" for c in "ABCDEFGHIJKL"]
n_per = 1800
rows = []
for v in variants:
    sent = n_per + int(rng.integers(-60, 60))
    opened = rng.binomial(1, 0.088 if v == "copy_K" else 0.071, size=sent)
    rows.append(pd.DataFrame({"variant": v, "opened": opened}))
push_log = pd.concat(rows, ignore_index=True)
push_log["user_id"] = rng.permutation(len(push_log)) + 700000
'''

_DARK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(17)
n = 900
users = pd.DataFrame({
    "user_id": np.arange(n) + 31000,
    "arm": rng.choice(["light_default", "dark_default"], size=n),
})
metrics = {
    "sessions_14d": lambda k: rng.poisson(9, k),
    "minutes_14d": lambda k: np.round(rng.lognormal(4.2, 0.8, k), 1),
    "screens_per_session": lambda k: np.round(rng.gamma(4, 1.6, k), 2),
    "night_sessions_14d": lambda k: rng.poisson(2.2, k),
    "messages_sent_14d": lambda k: rng.poisson(14, k),
    "settings_visits_14d": lambda k: rng.poisson(0.7, k),
    "crash_events_14d": lambda k: rng.poisson(0.15, k),
    "battery_complaints": lambda k: rng.poisson(0.05, k),
    "content_shares_14d": lambda k: rng.poisson(1.3, k),
    "search_queries_14d": lambda k: rng.poisson(5.5, k),
    "notifications_opened_14d": lambda k: rng.poisson(3.1, k),
    "avg_session_len_s": lambda k: np.round(rng.lognormal(5.1, 0.6, k)),
}
for name, draw in metrics.items():
    users[name] = draw(n)
users.loc[users["arm"] == "dark_default", "avg_session_len_s"] *= 1.08
metric_cols = list(metrics)
'''

_PUSH_FLAWED = '''from statsmodels.stats.proportion import proportions_ztest

agg = push_log.groupby("variant")["opened"].agg(opens="sum", sent="size")
agg["open_rate"] = agg["opens"] / agg["sent"]
ctrl = agg.loc["control"]

readout = []
for variant, row in agg.drop(index="control").iterrows():
    z, p = proportions_ztest([row.opens, ctrl.opens], [row.sent, ctrl.sent])
    readout.append({"variant": variant, "open_rate": f"{row.open_rate:.2%}",
                    "lift_vs_ctrl": f"{row.open_rate / ctrl.open_rate - 1:+.1%}",
                    "p_value": round(p, 4), "beats_ctrl": row.open_rate > ctrl.open_rate})
readout = pd.DataFrame(readout).set_index("variant")
winners = readout[(readout["p_value"] < 0.05) & readout["beats_ctrl"]]
print(f"control open rate {ctrl.open_rate:.2%}; winning copies: {', '.join(winners.index)}")
readout
'''

_PUSH_SOUND = '''from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

agg = push_log.groupby("variant")["opened"].agg(opens="sum", sent="size")
agg["open_rate"] = agg["opens"] / agg["sent"]
ctrl = agg.loc["control"]

readout = []
for variant, row in agg.drop(index="control").iterrows():
    z, p = proportions_ztest([row.opens, ctrl.opens], [row.sent, ctrl.sent])
    readout.append({"variant": variant, "open_rate": f"{row.open_rate:.2%}",
                    "lift_vs_ctrl": f"{row.open_rate / ctrl.open_rate - 1:+.1%}",
                    "p_value": round(p, 4), "beats_ctrl": row.open_rate > ctrl.open_rate})
readout = pd.DataFrame(readout).set_index("variant")
reject, p_holm, _, _ = multipletests(readout["p_value"], alpha=0.05, method="holm")
readout["p_holm"] = p_holm.round(4)
winners = readout.index[reject & readout["beats_ctrl"]]
print(f"control open rate {ctrl.open_rate:.2%}; copies beating control after Holm "
      f"(12 comparisons): {', '.join(winners) if len(winners) else 'none'}")
readout
'''

_DARK_FLAWED = '''from scipy.stats import mannwhitneyu

dark = users[users["arm"] == "dark_default"]
light = users[users["arm"] == "light_default"]

table = pd.DataFrame({
    "dark_mean": dark[metric_cols].mean(),
    "light_mean": light[metric_cols].mean(),
    "p": [mannwhitneyu(dark[m], light[m]).pvalue for m in metric_cols],
})
table["delta"] = (table["dark_mean"] / table["light_mean"] - 1).map("{:+.1%}".format)
table["sig"] = np.where(table["p"] < 0.05, "yes", "")
print("dark-by-default moved:", ", ".join(table.index[table["p"] < 0.05]))
table.round(3)
'''

_DARK_SOUND = '''from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

dark = users[users["arm"] == "dark_default"]
light = users[users["arm"] == "light_default"]

table = pd.DataFrame({
    "dark_mean": dark[metric_cols].mean(),
    "light_mean": light[metric_cols].mean(),
    "p": [mannwhitneyu(dark[m], light[m]).pvalue for m in metric_cols],
})
table["delta"] = (table["dark_mean"] / table["light_mean"] - 1).map("{:+.1%}".format)
table["q_bh"] = multipletests(table["p"], method="fdr_bh")[1]
table["sig"] = np.where(table["q_bh"] < 0.05, "yes", "")
moved = table.index[table["q_bh"] < 0.05]
print(f"dark-by-default moved (BH q<0.05 across {len(metric_cols)} metrics):",
      ", ".join(moved) if len(moved) else "nothing")
table.round(3)
'''

CASES: list[Case] = [
    Case(
        id="h18-multiple_comparisons-push-copy-variants",
        family="multiple_comparisons",
        setup=_PUSH_SETUP,
        code=_PUSH_FLAWED,
        twin="h18-multiple_comparisons-push-copy-variants-ok",
        note="Twelve push-copy variants are each z-tested against control at 0.05 and the "
             "nominally significant ones are declared winners with no multiplicity correction.",
        split="holdout18",
    ),
    Case(
        id="h18-multiple_comparisons-push-copy-variants-ok",
        family=None,
        setup=_PUSH_SETUP,
        code=_PUSH_SOUND,
        twin="h18-multiple_comparisons-push-copy-variants",
        note="Same twelve comparisons, but winners are declared only after a Holm correction "
             "for the family of tests against control.",
        split="holdout18",
    ),
    Case(
        id="h18-multiple_comparisons-darkmode-metric-scan",
        family="multiple_comparisons",
        setup=_DARK_SETUP,
        code=_DARK_FLAWED,
        twin="h18-multiple_comparisons-darkmode-metric-scan-ok",
        note="Twelve engagement metrics are each tested at 0.05 and any with p<0.05 is reported "
             "as moved by dark mode, without correcting for the twelve tests.",
        split="holdout18",
    ),
    Case(
        id="h18-multiple_comparisons-darkmode-metric-scan-ok",
        family=None,
        setup=_DARK_SETUP,
        code=_DARK_SOUND,
        twin="h18-multiple_comparisons-darkmode-metric-scan",
        note="Same metric scan, but significance is judged on Benjamini-Hochberg q-values "
             "across the twelve metrics.",
        split="holdout18",
    ),
]
