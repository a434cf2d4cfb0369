from bench.critic_corpus import Case

SCENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(921)
records = []
for panelist in range(1, 11):
    base = rng.normal(6.0, 0.4)
    taste = rng.normal(0.35, 0.7)
    for scent in ["Vetiver No.4", "Iris Pallida"]:
        for rep in range(8):
            shift = taste if scent == "Iris Pallida" else 0.0
            records.append({"panelist": f"P{panelist:02d}", "scent": scent, "rep": rep,
                            "liking": base + shift + rng.normal(0, 0.6)})
sniffs = pd.DataFrame(records)
'''

SCENT_FLAWED = '''
from scipy import stats

vet = sniffs.loc[sniffs.scent == "Vetiver No.4", "liking"]
iris = sniffs.loc[sniffs.scent == "Iris Pallida", "liking"]
t, p = stats.ttest_ind(iris, vet)
print(f"ratings: {len(iris)} vs {len(vet)}")
print(f"mean liking difference (Iris - Vetiver): {iris.mean() - vet.mean():+.2f}")
print(f"t = {t:.2f}, p = {p:.4f}")
'''

SCENT_SOUND = '''
from scipy import stats

per_panelist = sniffs.pivot_table(index="panelist", columns="scent", values="liking")
vet, iris = per_panelist["Vetiver No.4"], per_panelist["Iris Pallida"]
t, p = stats.ttest_rel(iris, vet)
print(f"panelists: {len(per_panelist)}")
print(f"mean liking difference (Iris - Vetiver): {iris.mean() - vet.mean():+.2f}")
print(f"t = {t:.2f}, p = {p:.4f}")
'''

BIND_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1455)
glue_means = {"PVA": 42.0, "wheat_paste": 40.0, "EVA_hotmelt": 43.0}
rows = []
for glue, mu in glue_means.items():
    for b in range(5):
        book_effect = rng.normal(0, 4.0)
        for page in range(12):
            rows.append({"glue": glue, "book": f"{glue}-{b}",
                         "pull_N": mu + book_effect + rng.normal(0, 1.5)})
pulls = pd.DataFrame(rows)
'''

BIND_FLAWED = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

fit = smf.ols("pull_N ~ C(glue)", data=pulls).fit()
table = sm.stats.anova_lm(fit, typ=2)
print(pulls.groupby("glue").pull_N.agg(["count", "mean", "std"]).round(2))
print(table.round(4))
print(f"glue effect on page pull-out strength: p = {table.loc['C(glue)', 'PR(>F)']:.4g}")
'''

BIND_SOUND = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

books = pulls.groupby(["glue", "book"], as_index=False).pull_N.mean()
fit = smf.ols("pull_N ~ C(glue)", data=books).fit()
table = sm.stats.anova_lm(fit, typ=2)
print(books.groupby("glue").pull_N.agg(["count", "mean", "std"]).round(2))
print(table.round(4))
print(f"glue effect on page pull-out strength: p = {table.loc['C(glue)', 'PR(>F)']:.4g}")
'''

CASES: list[Case] = [
    Case(
        id="pseudoreplication-h12-perfume-panel-sniffs",
        family="pseudoreplication",
        code=SCENT_FLAWED,
        setup=SCENT_SETUP,
        twin="pseudoreplication-h12-perfume-panel-sniffs-sound",
        note="8 repeat sniffs per panelist per scent treated as 80 independent ratings per arm",
        split="holdout12",
    ),
    Case(
        id="pseudoreplication-h12-perfume-panel-sniffs-sound",
        family=None,
        code=SCENT_SOUND,
        setup=SCENT_SETUP,
        twin="pseudoreplication-h12-perfume-panel-sniffs",
        note="repeats averaged within panelist, then paired t-test across the 10 panelists",
        split="holdout12",
    ),
    Case(
        id="pseudoreplication-h12-bookbinding-pages",
        family="pseudoreplication",
        code=BIND_FLAWED,
        setup=BIND_SETUP,
        twin="pseudoreplication-h12-bookbinding-pages-sound",
        note="12 page pulls per book analysed as independent units; the book is the replicate",
        split="holdout12",
    ),
    Case(
        id="pseudoreplication-h12-bookbinding-pages-sound",
        family=None,
        code=BIND_SOUND,
        setup=BIND_SETUP,
        twin="pseudoreplication-h12-bookbinding-pages",
        note="pulls averaged per book so the ANOVA uses the 5 books per glue as replicates",
        split="holdout12",
    ),
]
