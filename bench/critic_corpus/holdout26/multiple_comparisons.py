from bench.critic_corpus import Case

_SETUP_GPS = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(913)
metrics = ["total_dist_m", "hsr_m", "vhsr_m", "sprint_m", "max_speed_kmh", "accels_3ms2",
           "decels_3ms2", "player_load_au", "load_per_min", "dist_per_min", "hmld_m",
           "impacts_g5", "cod_count", "jumps", "time_above_85hr_min", "trimp"]
base = [5400, 520, 180, 95, 30.5, 14, 16, 560, 7.1, 78, 1100, 40, 85, 12, 11, 110]
rows = []
for i in range(34):
    starter = i < 16
    row = {"player": f"P{i + 1:02d}", "squad_status": "starter" if starter else "rotation"}
    for met, b in zip(metrics, base):
        row[met] = round(float(b * rng.lognormal(0, 0.15)), 1)
    rows.append(row)
md3 = pd.DataFrame(rows)   # season mean of each player's MD-3 session
'''

_SETUP_REF = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
refs = [f"Ref_{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWX"]
rows = []
for r in refs:
    for g in range(rng.integers(12, 22)):
        n_fouls = rng.poisson(22)
        home_fouls = rng.binomial(n_fouls, 0.47)
        rows.append({"referee": r, "game": g, "fouls_total": n_fouls,
                     "fouls_vs_home": home_fouls})
fouls = pd.DataFrame(rows)
'''

CASES = [
    Case(
        id="h26-multiple-comparisons-gps-starters",
        family="multiple_comparisons",
        setup=_SETUP_GPS,
        code='''from scipy import stats

print("MD-3 session: starters vs rotation players")
flagged = []
for met in metrics:
    a = md3.loc[md3["squad_status"] == "starter", met]
    b = md3.loc[md3["squad_status"] == "rotation", met]
    t, p = stats.ttest_ind(a, b)
    pct = 100 * (a.mean() - b.mean()) / b.mean()
    mark = " *" if p < 0.05 else ""
    print(f"  {met:22s} {pct:+6.1f}%  p={p:.3f}{mark}")
    if p < 0.05:
        flagged.append(met)
print(f"\\nStarters differ significantly on: {', '.join(flagged) or 'nothing'}")
''',
        twin="h26-multiple-comparisons-gps-starters-ok",
        note="16 GPS metrics t-tested; raw p<0.05 reported as real differences, no correction.",
        split="holdout26",
    ),
    Case(
        id="h26-multiple-comparisons-gps-starters-ok",
        family=None,
        setup=_SETUP_GPS,
        code='''from scipy import stats
from statsmodels.stats.multitest import multipletests

print("MD-3 session: starters vs rotation players (Holm-adjusted over 16 metrics)")
res = []
for met in metrics:
    a = md3.loc[md3["squad_status"] == "starter", met]
    b = md3.loc[md3["squad_status"] == "rotation", met]
    t, p = stats.ttest_ind(a, b)
    pct = 100 * (a.mean() - b.mean()) / b.mean()
    res.append((met, pct, p))
p_adj = multipletests([r[2] for r in res], method="holm")[1]
flagged = []
for (met, pct, p), pa in zip(res, p_adj):
    mark = " *" if pa < 0.05 else ""
    print(f"  {met:22s} {pct:+6.1f}%  p={p:.3f}  p_holm={pa:.3f}{mark}")
    if pa < 0.05:
        flagged.append(met)
print(f"\\nStarters differ after correction on: {', '.join(flagged) or 'nothing'}")
''',
        twin="h26-multiple-comparisons-gps-starters",
        note="Same 16 tests, but Holm-adjusted p-values decide what is reported as different.",
        split="holdout26",
    ),
    Case(
        id="h26-multiple-comparisons-referee-bias",
        family="multiple_comparisons",
        setup=_SETUP_REF,
        code='''from scipy.stats import binomtest

league_rate = fouls["fouls_vs_home"].sum() / fouls["fouls_total"].sum()
per_ref = fouls.groupby("referee")[["fouls_vs_home", "fouls_total"]].sum()
per_ref["home_share"] = per_ref["fouls_vs_home"] / per_ref["fouls_total"]
per_ref["p"] = [binomtest(int(k), int(n), league_rate).pvalue
                for k, n in zip(per_ref["fouls_vs_home"], per_ref["fouls_total"])]
biased = per_ref[per_ref["p"] < 0.05].sort_values("p")
print(f"League share of fouls given against the home side: {league_rate:.1%}")
print(f"Referees with a significant home/away bias: {len(biased)} of {len(per_ref)}")
biased.round(3)
''',
        twin="h26-multiple-comparisons-referee-bias-ok",
        note="24 referees each tested against the league rate; raw p<0.05 labelled 'biased'.",
        split="holdout26",
    ),
    Case(
        id="h26-multiple-comparisons-referee-bias-ok",
        family=None,
        setup=_SETUP_REF,
        code='''from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

league_rate = fouls["fouls_vs_home"].sum() / fouls["fouls_total"].sum()
per_ref = fouls.groupby("referee")[["fouls_vs_home", "fouls_total"]].sum()
per_ref["home_share"] = per_ref["fouls_vs_home"] / per_ref["fouls_total"]
per_ref["p"] = [binomtest(int(k), int(n), league_rate).pvalue
                for k, n in zip(per_ref["fouls_vs_home"], per_ref["fouls_total"])]
per_ref["q_bh"] = multipletests(per_ref["p"], method="fdr_bh")[1]
biased = per_ref[per_ref["q_bh"] < 0.05].sort_values("p")
print(f"League share of fouls given against the home side: {league_rate:.1%}")
print(f"Referees flagged at 5% FDR (BH over {len(per_ref)} referees): {len(biased)}")
per_ref.sort_values("p").head(5).round(3)
''',
        twin="h26-multiple-comparisons-referee-bias",
        note="Per-referee tests controlled with Benjamini-Hochberg FDR before flagging anyone.",
        split="holdout26",
    ),
]
