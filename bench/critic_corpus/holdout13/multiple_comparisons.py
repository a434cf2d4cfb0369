from bench.critic_corpus import Case

SPLIT = "holdout13"

FOOD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
neighbourhoods = [
    "Ashford", "Bramley", "Castleton", "Dunmore", "Eastgate", "Fairview", "Glenwood",
    "Harbourside", "Ironbridge", "Junction", "Kingsmead", "Longacre", "Millbank",
    "Northfield", "Oakridge", "Parkside", "Queensway", "Riverside", "Southbank",
    "Thornbury", "Upton", "Victoria", "Westholme", "Yardley",
]
n = 4200
inspections = pd.DataFrame({
    "inspection_id": [f"FSI-{40000 + i}" for i in range(n)],
    "neighbourhood": rng.choice(neighbourhoods, n),
    "premises_type": rng.choice(["restaurant", "takeaway", "cafe", "retail", "mobile"], n,
                                p=[0.38, 0.25, 0.17, 0.15, 0.05]),
    "inspector": rng.choice([f"INS{k:02d}" for k in range(1, 15)], n),
    "inspection_date": pd.Timestamp("2024-01-02")
    + pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
})
base = inspections["premises_type"].map({"restaurant": 0.21, "takeaway": 0.27, "cafe": 0.15,
                                         "retail": 0.10, "mobile": 0.24})
inspections["critical_violation"] = (rng.random(n) < base).astype(int)
'''

FOOD_FLAWED = '''
from scipy.stats import chi2_contingency

city_rate = inspections["critical_violation"].mean()
print(f"{len(inspections)} inspections, city-wide critical violation rate {city_rate:.1%}\\n")

rows = []
for hood, grp in inspections.groupby("neighbourhood"):
    rest = inspections[inspections["neighbourhood"] != hood]
    table = np.array([
        [grp["critical_violation"].sum(), (1 - grp["critical_violation"]).sum()],
        [rest["critical_violation"].sum(), (1 - rest["critical_violation"]).sum()],
    ])
    chi2, p, dof, _ = chi2_contingency(table, correction=False)
    rate = grp["critical_violation"].mean()
    rows.append({
        "neighbourhood": hood,
        "inspections": len(grp),
        "violation_rate": rate,
        "rate_ratio": rate / rest["critical_violation"].mean(),
        "chi2": chi2,
        "p_value": p,
    })

res = pd.DataFrame(rows).sort_values("p_value").reset_index(drop=True)
res["flag"] = np.where(res["p_value"] < 0.05,
                       np.where(res["rate_ratio"] > 1, "WORSE", "BETTER"), "")

print(res.head(10).round({"violation_rate": 3, "rate_ratio": 2, "chi2": 2, "p_value": 4})
      .to_string(index=False))

worse = res.loc[res["flag"] == "WORSE", "neighbourhood"].tolist()
better = res.loc[res["flag"] == "BETTER", "neighbourhood"].tolist()
print(f"\\nNeighbourhoods significantly worse than the rest of the city: {worse or 'none'}")
print(f"Neighbourhoods significantly better: {better or 'none'}")
print("-> recommend adding worse-performing areas to the Q3 targeted inspection round")
'''

FOOD_SOUND = '''
from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

city_rate = inspections["critical_violation"].mean()
print(f"{len(inspections)} inspections, city-wide critical violation rate {city_rate:.1%}\\n")

rows = []
for hood, grp in inspections.groupby("neighbourhood"):
    rest = inspections[inspections["neighbourhood"] != hood]
    table = np.array([
        [grp["critical_violation"].sum(), (1 - grp["critical_violation"]).sum()],
        [rest["critical_violation"].sum(), (1 - rest["critical_violation"]).sum()],
    ])
    chi2, p, dof, _ = chi2_contingency(table, correction=False)
    rate = grp["critical_violation"].mean()
    rows.append({
        "neighbourhood": hood,
        "inspections": len(grp),
        "violation_rate": rate,
        "rate_ratio": rate / rest["critical_violation"].mean(),
        "chi2": chi2,
        "p_value": p,
    })

res = pd.DataFrame(rows).sort_values("p_value").reset_index(drop=True)
reject, p_holm, _, _ = multipletests(res["p_value"], alpha=0.05, method="holm")
res["p_holm"] = p_holm
res["flag"] = np.where(reject, np.where(res["rate_ratio"] > 1, "WORSE", "BETTER"), "")

print(res.head(10).round({"violation_rate": 3, "rate_ratio": 2, "chi2": 2, "p_value": 4,
                          "p_holm": 4}).to_string(index=False))

worse = res.loc[res["flag"] == "WORSE", "neighbourhood"].tolist()
better = res.loc[res["flag"] == "BETTER", "neighbourhood"].tolist()
print(f"\\n{len(res)} tests, Holm-adjusted at family-wise alpha 0.05")
print(f"Neighbourhoods significantly worse than the rest of the city: {worse or 'none'}")
print(f"Neighbourhoods significantly better: {better or 'none'}")
'''

RAIL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
stations = ["York", "Darlington", "Durham", "Newcastle", "Morpeth", "Alnmouth", "Berwick",
            "Dunbar", "Edinburgh", "Doncaster", "Retford", "Newark", "Grantham",
            "Peterborough", "Stevenage", "Wakefield", "Leeds", "Harrogate"]
days = pd.date_range("2024-03-04", "2024-06-30", freq="D")
change_date = pd.Timestamp("2024-05-13")
rows = []
for st in stations:
    base = rng.uniform(2.0, 6.5)
    for d in days:
        wkday = 0.6 if d.dayofweek < 5 else -0.4
        rows.append((st, d, base + wkday + rng.gamma(2.0, 1.1) - 2.2))
daily = pd.DataFrame(rows, columns=["station", "service_date", "mean_arrival_delay_min"])
daily["mean_arrival_delay_min"] = daily["mean_arrival_delay_min"].round(2)
daily["period"] = np.where(daily["service_date"] >= change_date, "after", "before")
'''

RAIL_FLAWED = '''
from scipy import stats

def before_after(g):
    b = g.loc[g["period"] == "before", "mean_arrival_delay_min"]
    a = g.loc[g["period"] == "after", "mean_arrival_delay_min"]
    u, p = stats.mannwhitneyu(a, b, alternative="two-sided")
    return pd.Series({
        "days_before": len(b), "days_after": len(a),
        "median_before": b.median(), "median_after": a.median(),
        "shift_min": a.median() - b.median(), "p": p,
    })

summary = (
    daily.groupby("station")[["period", "mean_arrival_delay_min"]]
    .apply(before_after)
    .sort_values("p")
)
summary["verdict"] = np.select(
    [(summary["p"] < 0.05) & (summary["shift_min"] < 0),
     (summary["p"] < 0.05) & (summary["shift_min"] > 0)],
    ["improved", "worse"], default="no change",
)

print("Arrival delay, daily station means, before vs after the 13 May timetable")
print(summary.round(3).to_string())
counts = summary["verdict"].value_counts()
print(f"\\nImproved: {counts.get('improved', 0)}, worse: {counts.get('worse', 0)}, "
      f"no change: {counts.get('no change', 0)} of {len(summary)} stations")
for st, r in summary[summary["verdict"] != "no change"].iterrows():
    print(f"  {st:13s} {r['verdict']:9s} median shift {r['shift_min']:+.2f} min (p={r['p']:.3f})")
'''

RAIL_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

def before_after(g):
    b = g.loc[g["period"] == "before", "mean_arrival_delay_min"]
    a = g.loc[g["period"] == "after", "mean_arrival_delay_min"]
    u, p = stats.mannwhitneyu(a, b, alternative="two-sided")
    return pd.Series({
        "days_before": len(b), "days_after": len(a),
        "median_before": b.median(), "median_after": a.median(),
        "shift_min": a.median() - b.median(), "p": p,
    })

summary = (
    daily.groupby("station")[["period", "mean_arrival_delay_min"]]
    .apply(before_after)
    .sort_values("p")
)
reject, q, _, _ = multipletests(summary["p"], alpha=0.05, method="fdr_bh")
summary["q_bh"] = q
summary["verdict"] = np.select(
    [reject & (summary["shift_min"] < 0), reject & (summary["shift_min"] > 0)],
    ["improved", "worse"], default="no change",
)

print("Arrival delay, daily station means, before vs after the 13 May timetable")
print(summary.round(3).to_string())
counts = summary["verdict"].value_counts()
print(f"\\n{len(summary)} stations tested, Benjamini-Hochberg FDR 5%")
print(f"Improved: {counts.get('improved', 0)}, worse: {counts.get('worse', 0)}, "
      f"no change: {counts.get('no change', 0)} of {len(summary)} stations")
for st, r in summary[summary["verdict"] != "no change"].iterrows():
    print(f"  {st:13s} {r['verdict']:9s} median shift {r['shift_min']:+.2f} min "
          f"(q={r['q_bh']:.3f})")
'''

CASES: list[Case] = [
    Case(
        id="h13-multcomp-food-safety-24-neighbourhoods",
        family="multiple_comparisons",
        code=FOOD_FLAWED,
        setup=FOOD_SETUP,
        twin="h13-multcomp-food-safety-holm",
        note="24 one-vs-rest chi-square tests are each judged at p<0.05 with no multiplicity "
             "correction, and the flagged neighbourhoods are recommended for targeting.",
        split=SPLIT,
    ),
    Case(
        id="h13-multcomp-food-safety-holm",
        family=None,
        code=FOOD_SOUND,
        setup=FOOD_SETUP,
        twin="h13-multcomp-food-safety-24-neighbourhoods",
        note="Same 24 neighbourhood tests with Holm family-wise correction before flagging.",
        split=SPLIT,
    ),
    Case(
        id="h13-multcomp-rail-stations-before-after",
        family="multiple_comparisons",
        code=RAIL_FLAWED,
        setup=RAIL_SETUP,
        twin="h13-multcomp-rail-stations-fdr",
        note="18 per-station Mann-Whitney tests of the timetable change, each called improved "
             "or worse at raw p<0.05 with no correction for testing 18 stations.",
        split=SPLIT,
    ),
    Case(
        id="h13-multcomp-rail-stations-fdr",
        family=None,
        code=RAIL_SOUND,
        setup=RAIL_SETUP,
        twin="h13-multcomp-rail-stations-before-after",
        note="Same per-station tests with Benjamini-Hochberg FDR control before any verdict.",
        split=SPLIT,
    ),
]
