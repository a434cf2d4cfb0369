from bench.critic_corpus import Case

SPLIT = "holdout13"

MUSEUM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1851)
n = 1500
# codebook: visitor_type 1=member 2=family 3=school group 4=overseas tourist 5=local adult
#           entry_gallery 1=Egypt 2=Dinosaurs 3=Modern Art 4=Maritime 5=Textiles 6=Science
survey = pd.DataFrame({
    "response_id": np.arange(1, n + 1),
    "visitor_type": rng.choice([1, 2, 3, 4, 5], n, p=[0.18, 0.18, 0.14, 0.26, 0.24]),
    "entry_gallery": rng.choice([1, 2, 3, 4, 5, 6], n),
    "age_band": rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.1, 0.2, 0.22, 0.2, 0.16, 0.12]),
    "visit_minutes": rng.gamma(4, 28, n).round(),
    "galleries_visited": rng.integers(1, 12, n),
    "shop_spend_gbp": np.round(rng.exponential(9, n) * (rng.random(n) < 0.45), 2),
})
type_effect = survey["visitor_type"].map({1: 0.6, 2: -0.5, 3: -1.0, 4: 0.7, 5: 0.0})
gallery_effect = survey["entry_gallery"].map({1: 0.3, 2: 0.2, 3: -0.4, 4: 0.0, 5: -0.2, 6: 0.1})
latent = (type_effect + gallery_effect + 0.004 * survey["visit_minutes"]
          + rng.normal(0, 0.9, n))
survey["satisfaction"] = pd.cut(latent, [-np.inf, -1.2, -0.3, 0.5, 1.3, np.inf],
                                labels=[1, 2, 3, 4, 5]).astype(int)
'''

MUSEUM_FLAWED = '''
drivers = ["visitor_type", "entry_gallery", "age_band", "visit_minutes",
           "galleries_visited", "shop_spend_gbp"]
print(f"{len(survey)} exit-survey responses; mean satisfaction "
      f"{survey['satisfaction'].mean():.2f} / 5")
print(survey["satisfaction"].value_counts().sort_index().to_string())

corr = survey[drivers + ["satisfaction"]].corr()
sat_corr = (corr["satisfaction"].drop("satisfaction")
            .to_frame("r")
            .assign(abs_r=lambda d: d["r"].abs())
            .sort_values("abs_r", ascending=False))

n = len(survey)
sat_corr["t"] = sat_corr["r"] * np.sqrt((n - 2) / (1 - sat_corr["r"] ** 2))
from scipy import stats
sat_corr["p"] = 2 * stats.t.sf(sat_corr["t"].abs(), n - 2)
sat_corr["driver?"] = np.where((sat_corr["abs_r"] >= 0.1) & (sat_corr["p"] < 0.01),
                               "yes", "no")
print("\\nCorrelation of each factor with overall satisfaction")
print(sat_corr.round(3).to_string())

key = sat_corr.index[sat_corr["driver?"] == "yes"].tolist()
weak = sat_corr.index[sat_corr["driver?"] == "no"].tolist()
print(f"\\nKey drivers of satisfaction: {', '.join(key) or 'none'}")
print(f"Not related to satisfaction: {', '.join(weak)}")
print("-> segmenting the visitor experience by visitor type is not a priority")
'''

MUSEUM_SOUND = '''
from scipy import stats

numeric = ["age_band", "visit_minutes", "galleries_visited", "shop_spend_gbp"]
nominal = ["visitor_type", "entry_gallery"]
print(f"{len(survey)} exit-survey responses; mean satisfaction "
      f"{survey['satisfaction'].mean():.2f} / 5")
print(survey["satisfaction"].value_counts().sort_index().to_string())

rows = []
for col in numeric:
    rho, p = stats.spearmanr(survey[col], survey["satisfaction"])
    rows.append({"factor": col, "measure": "Spearman rho", "effect": rho, "p": p})
for col in nominal:
    groups = [g["satisfaction"].to_numpy() for _, g in survey.groupby(col)]
    h, p = stats.kruskal(*groups)
    eps2 = (h - len(groups) + 1) / (len(survey) - len(groups))
    rows.append({"factor": col, "measure": "Kruskal eps^2", "effect": eps2, "p": p})

assoc = pd.DataFrame(rows).set_index("factor").sort_values("p")
assoc["driver?"] = np.where(assoc["p"] < 0.01, "yes", "no")
print("\\nAssociation of each factor with satisfaction (ordinal 1-5)")
print(assoc.round(4).to_string())

labels = {1: "member", 2: "family", 3: "school group", 4: "overseas tourist",
          5: "local adult"}
by_type = (survey.groupby(survey["visitor_type"].map(labels))["satisfaction"]
           .agg(n="count", median="median", mean="mean",
                pct_top2=lambda s: (s >= 4).mean() * 100)
           .sort_values("mean"))
print("\\nSatisfaction by visitor type")
print(by_type.round(2).to_string())
key = assoc.index[assoc["driver?"] == "yes"].tolist()
print(f"\\nFactors associated with satisfaction: {', '.join(key) or 'none'}")
'''

SOLAR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
sites = [f"PV-{s:03d}" for s in range(1, 31)]
days = pd.date_range("2024-04-01", "2024-06-29", freq="D")
size_kwp = dict(zip(sites, rng.choice([30, 50, 80, 120, 250], len(sites))))
rows = []
for s in sites:
    clear = 4.6 + 0.8 * np.sin((days.dayofyear - 80) / 365 * 2 * np.pi)
    cloud = rng.beta(4, 2, len(days))
    inverter = size_kwp[s] * clear * cloud * rng.normal(0.82, 0.03)
    loss = rng.normal(0.955, 0.006)
    meter = inverter * loss - rng.normal(0.4, 0.15, len(days)) + rng.normal(0, 0.012,
                                                                            len(days)) * inverter
    rows.append(pd.DataFrame({"site_id": s, "date": days, "kwp": size_kwp[s],
                              "inverter_kwh": inverter.round(2), "meter_kwh": meter.round(2)}))
energy = pd.concat(rows, ignore_index=True)
'''

SOLAR_FLAWED = '''
from scipy import stats

r_all, p_all = stats.pearsonr(energy["inverter_kwh"], energy["meter_kwh"])
per_site = (
    energy.groupby("site_id")
    .apply(lambda g: pd.Series({
        "kwp": g["kwp"].iloc[0],
        "days": len(g),
        "r": np.corrcoef(g["inverter_kwh"], g["meter_kwh"])[0, 1],
        "inv_total_mwh": g["inverter_kwh"].sum() / 1000,
        "meter_total_mwh": g["meter_kwh"].sum() / 1000,
    }), include_groups=False)
    .sort_values("r")
)

print(f"Daily energy pairs: {len(energy):,} ({energy['site_id'].nunique()} sites, "
      f"{energy['date'].min():%d %b} - {energy['date'].max():%d %b %Y})")
print(f"Pooled Pearson r (inverter vs revenue meter): {r_all:.4f}, p = {p_all:.1e}")
print(f"Per-site r: min {per_site['r'].min():.4f}, median {per_site['r'].median():.4f}")
print("\\nLowest-correlation sites")
print(per_site.head(5).round(4).to_string())

threshold = 0.98
ok = (per_site["r"] >= threshold).mean()
print(f"\\n{ok:.0%} of sites have r >= {threshold}")
if r_all > threshold and ok > 0.9:
    print("Inverter telemetry agrees with the revenue meters; approve using inverter kWh "
          "for monthly settlement where meter reads are missing.")
else:
    print("Agreement not good enough for settlement use.")
'''

SOLAR_SOUND = '''
from scipy import stats

diff = energy["inverter_kwh"] - energy["meter_kwh"]
mean_pair = (energy["inverter_kwh"] + energy["meter_kwh"]) / 2
pct = 100 * diff / mean_pair
bias, sd = pct.mean(), pct.std(ddof=1)
loa = (bias - 1.96 * sd, bias + 1.96 * sd)
slope, intercept, *_ = stats.linregress(mean_pair, pct)

per_site = (
    energy.assign(pct_diff=pct)
    .groupby("site_id")
    .agg(kwp=("kwp", "first"), days=("date", "size"),
         bias_pct=("pct_diff", "mean"), sd_pct=("pct_diff", "std"),
         inv_total_mwh=("inverter_kwh", lambda s: s.sum() / 1000),
         meter_total_mwh=("meter_kwh", lambda s: s.sum() / 1000))
    .sort_values("bias_pct", ascending=False)
)

print(f"Daily energy pairs: {len(energy):,} ({energy['site_id'].nunique()} sites, "
      f"{energy['date'].min():%d %b} - {energy['date'].max():%d %b %Y})")
print("Bland-Altman, inverter minus meter, % of pair mean")
print(f"  mean bias        : {bias:+.2f}%")
print(f"  limits of agreement: {loa[0]:+.2f}% to {loa[1]:+.2f}%")
print(f"  trend of diff vs size: {slope:+.4f} %/kWh (intercept {intercept:+.2f}%)")
print("\\nSites with the largest bias")
print(per_site.head(5).round(3).to_string())

tolerance = 1.0
if abs(bias) <= tolerance and max(abs(loa[0]), abs(loa[1])) <= 3 * tolerance:
    print("Inverter kWh within tolerance; can substitute for missing meter reads.")
else:
    print(f"Inverter kWh overstates metered export by ~{bias:.1f}% on average; not usable "
          "for settlement without a site-level correction.")
'''

CASES: list[Case] = [
    Case(
        id="h13-corr-museum-nominal-codes-pearson",
        family="correlation_misuse",
        code=MUSEUM_FLAWED,
        setup=MUSEUM_SETUP,
        twin="h13-corr-museum-spearman-and-kruskal",
        note="Pearson correlation on nominal codes (visitor_type, entry_gallery); the near-zero "
             "r is used to conclude visitor type does not matter, though it strongly does.",
        split=SPLIT,
    ),
    Case(
        id="h13-corr-museum-spearman-and-kruskal",
        family=None,
        code=MUSEUM_SOUND,
        setup=MUSEUM_SETUP,
        twin="h13-corr-museum-nominal-codes-pearson",
        note="Spearman for ordered factors and Kruskal-Wallis effect size for the nominal "
             "visitor type and gallery codes.",
        split=SPLIT,
    ),
    Case(
        id="h13-corr-solar-inverter-meter-agreement",
        family="correlation_misuse",
        code=SOLAR_FLAWED,
        setup=SOLAR_SETUP,
        twin="h13-corr-solar-bland-altman",
        note="High Pearson r between inverter and meter kWh is taken as agreement for "
             "settlement, though inverter readings are systematically ~5% high.",
        split=SPLIT,
    ),
    Case(
        id="h13-corr-solar-bland-altman",
        family=None,
        code=SOLAR_SOUND,
        setup=SOLAR_SETUP,
        twin="h13-corr-solar-inverter-meter-agreement",
        note="Agreement assessed with Bland-Altman bias and limits of agreement in percent.",
        split=SPLIT,
    ),
]
