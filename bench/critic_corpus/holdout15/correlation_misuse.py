from bench.critic_corpus import Case

_BIZ = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(40)
n = 1200
cuisine = rng.choice(["American", "Chinese", "French", "Indian", "Italian", "Japanese",
                      "Mexican", "Thai", "Vietnamese"], n)
city = rng.choice(["Las Vegas", "Phoenix", "Toronto", "Charlotte", "Pittsburgh", "Madison"], n)
tier = rng.choice([1, 2, 3, 4], n, p=[.35, .42, .17, .06])
ceff = pd.Series(cuisine).map({"American": -0.25, "Chinese": -0.1, "French": 0.3,
                               "Indian": 0.25, "Italian": 0.0, "Japanese": 0.3,
                               "Mexican": 0.05, "Thai": 0.35, "Vietnamese": 0.4}).values
raw = 3.55 + ceff + 0.12 * (tier - 2) + rng.normal(0, 0.6, n)
biz = pd.DataFrame({
    "business_id": [f"b{i:05d}" for i in range(n)], "city": city, "cuisine": cuisine,
    "price_range": pd.Series(tier).map({1: "$", 2: "$$", 3: "$$$", 4: "$$$$"}).values,
    "review_count": rng.negative_binomial(1.2, 0.012, n) + 3,
    "stars": np.clip(np.round(raw * 2) / 2, 1, 5),
})
'''

_TASTE = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(77)
n = 60
true_q = rng.normal(88, 3.2, n)
flight = pd.DataFrame({
    "wine_id": [f"W{i:03d}" for i in range(n)],
    "variety": rng.choice(["Pinot Noir", "Chardonnay", "Riesling", "Syrah", "Malbec"], n),
    "taster_a": np.round(true_q + rng.normal(0, 1.0, n)).astype(int),
    "taster_b": np.round(84 + 1.35 * (true_q - 88) + rng.normal(0, 1.1, n)).astype(int),
})
'''

CASES: list[Case] = [
    Case(
        id="h15-corr-restaurant-catcodes-pearson",
        family="correlation_misuse",
        setup=_BIZ,
        code='''cols = ["city", "cuisine", "price_range"]
enc = biz[cols].apply(lambda s: s.astype("category").cat.codes)
enc = enc.join(biz[["review_count", "stars"]])

cm = enc.corr()
print(cm.round(2))
drivers = cm["stars"].drop("stars").abs().sort_values(ascending=False)
print(f"strongest driver of rating: {drivers.index[0]} (|r| = {drivers.iloc[0]:.2f})")
drivers.round(3)
''',
        twin="h15-corr-restaurant-catcodes-pearson-ok",
        note="Nominal city and cuisine are turned into arbitrary alphabetical integer codes "
             "and ranked by Pearson r with stars; the r values are meaningless.",
        split="holdout15",
    ),
    Case(
        id="h15-corr-restaurant-catcodes-pearson-ok",
        family=None,
        setup=_BIZ,
        code='''def eta2(cat, y):
    g = y.groupby(cat)
    return (g.size() * (g.mean() - y.mean()) ** 2).sum() / ((y - y.mean()) ** 2).sum()

price = biz["price_range"].str.len()
res = pd.DataFrame({
    "measure": ["eta^2", "eta^2", "spearman rho^2", "spearman rho^2"],
    "value": [eta2(biz["city"], biz["stars"]), eta2(biz["cuisine"], biz["stars"]),
              stats.spearmanr(price, biz["stars"])[0] ** 2,
              stats.spearmanr(biz["review_count"], biz["stars"])[0] ** 2],
    "p": [stats.kruskal(*[g for _, g in biz.groupby("city")["stars"]])[1],
          stats.kruskal(*[g for _, g in biz.groupby("cuisine")["stars"]])[1],
          stats.spearmanr(price, biz["stars"])[1],
          stats.spearmanr(biz["review_count"], biz["stars"])[1]],
}, index=["city", "cuisine", "price_range", "review_count"])
print(biz.groupby("cuisine")["stars"].agg(["count", "mean"]).round(2))
res.round(4)
''',
        twin="h15-corr-restaurant-catcodes-pearson",
        note="Nominal factors are measured with eta-squared and Kruskal-Wallis, the ordinal "
             "price tier and skewed counts with Spearman; no codes are correlated.",
        split="holdout15",
    ),
    Case(
        id="h15-corr-wine-tasters-agreement-pearson",
        family="correlation_misuse",
        setup=_TASTE,
        code='''r, p = stats.pearsonr(flight["taster_a"], flight["taster_b"])
print(flight[["taster_a", "taster_b"]].describe().round(1))
print(f"Pearson r = {r:.3f} (p = {p:.1e})")
print("Inter-rater agreement is excellent -> taster B can replace taster A on the panel.")
{"r": round(r, 3), "r2": round(r ** 2, 3), "n": len(flight)}
''',
        twin="h15-corr-wine-tasters-agreement-pearson-ok",
        note="Pearson r is used as agreement between two tasters; it ignores B's systematic "
             "4-point offset and wider scale, so 'interchangeable' is unsupported.",
        split="holdout15",
    ),
    Case(
        id="h15-corr-wine-tasters-agreement-pearson-ok",
        family=None,
        setup=_TASTE,
        code='''a, b = flight["taster_a"].astype(float), flight["taster_b"].astype(float)
d = b - a
bias, sd = d.mean(), d.std(ddof=1)
loa = (bias - 1.96 * sd, bias + 1.96 * sd)
ccc = 2 * np.cov(a, b)[0, 1] / (a.var(ddof=1) + b.var(ddof=1) + (a.mean() - b.mean()) ** 2)
slope = stats.linregress((a + b) / 2, d).slope
print(flight[["taster_a", "taster_b"]].describe().round(1))
print(f"mean difference B - A = {bias:.2f} pts, limits of agreement "
      f"[{loa[0]:.2f}, {loa[1]:.2f}], Lin's CCC = {ccc:.3f}, slope of diff on mean = {slope:.2f}")
{"bias": round(bias, 2), "loa_low": round(loa[0], 2), "loa_high": round(loa[1], 2),
 "ccc": round(ccc, 3)}
''',
        twin="h15-corr-wine-tasters-agreement-pearson",
        note="Agreement is assessed with Bland-Altman bias and limits plus Lin's concordance, "
             "which expose the offset and scale difference between tasters.",
        split="holdout15",
    ),
]
