from bench.critic_corpus import Case

CASES = [
    Case(
        id="h26-sound-acwr-ewm-flags",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(601)
dates = pd.date_range("2024-07-01", periods=70, freq="D")
rows = []
for i in range(1, 21):
    base = rng.normal(420, 60)
    for d in dates:
        rest = d.dayofweek in (0, 4) or rng.random() < 0.05
        spike = 1.6 if (i in (3, 11, 17) and d >= dates[-7]) else 1.0
        load = 0 if rest else max(0, rng.normal(base, 110)) * spike
        rows.append({"player": f"P{i:02d}", "date": d, "srpe_au": round(load, 0)})
daily = pd.DataFrame(rows)
''',
        code='''daily = daily.sort_values(["player", "date"])
g = daily.groupby("player")["srpe_au"]
daily["acute_ewma"] = g.transform(lambda s: s.ewm(alpha=2 / (7 + 1), adjust=False).mean())
daily["chronic_ewma"] = g.transform(lambda s: s.ewm(alpha=2 / (28 + 1), adjust=False).mean())
daily["acwr_ewma"] = daily["acute_ewma"] / daily["chronic_ewma"]
daily["load_7d"] = g.transform(lambda s: s.rolling(7, min_periods=7).sum())

latest = daily[daily["date"] == daily["date"].max()].set_index("player")
top5 = latest.sort_values("acwr_ewma", ascending=False).head(5)
print(f"Load status on {latest['date'].iloc[0]:%d %b %Y} (EWMA acute 7 d / chronic 28 d)")
for player, r in top5.iterrows():
    flag = "  <- above 1.5, review" if r["acwr_ewma"] > 1.5 else ""
    print(f"  {player}: ACWR {r['acwr_ewma']:.2f}, 7-day sRPE {r['load_7d']:.0f} AU{flag}")
''',
        note="Per-player EWMA acute:chronic ratio on ordered daily loads; a descriptive flag list.",
        split="holdout26",
    ),
    Case(
        id="h26-sound-paired-sprint-preseason",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 24
pre = rng.normal(1.78, 0.06, n)
tests = pd.DataFrame({
    "player": [f"P{i:02d}" for i in range(1, n + 1)],
    "split10_pre_s": pre.round(3),
    "split10_post_s": (pre - 0.025 + rng.normal(0, 0.03, n)).round(3),
})
''',
        code='''from scipy import stats

d = tests["split10_post_s"] - tests["split10_pre_s"]
w, p_norm = stats.shapiro(d)
t, p = stats.ttest_rel(tests["split10_post_s"], tests["split10_pre_s"])
ci = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
dz = d.mean() / d.std(ddof=1)
pct = 100 * d.mean() / tests["split10_pre_s"].mean()
print(f"10 m split, pre vs post pre-season (n = {len(d)} players)")
print(f"Shapiro-Wilk on the differences: p = {p_norm:.2f}")
print(f"Mean change {1000 * d.mean():+.0f} ms ({pct:+.1f}%), "
      f"95% CI {1000 * ci[0]:+.0f} to {1000 * ci[1]:+.0f} ms")
print(f"Paired t = {t:.2f}, p = {p:.4f}, effect size dz = {dz:.2f}")
print(f"Players faster by more than 20 ms: {(d < -0.020).sum()} of {len(d)}")
''',
        note="Paired t-test on roughly normal within-player differences, with CI and dz.",
        split="holdout26",
    ),
    Case(
        id="h26-sound-poisson-goals-home",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
n = 380
games = pd.DataFrame({
    "venue": rng.choice(["home", "away"], n),
    "opp_elo_diff": rng.normal(0, 120, n).round(0),
})
mu = np.exp(0.25 + 0.22 * (games["venue"] == "home") - 0.0025 * games["opp_elo_diff"])
games["goals"] = rng.poisson(mu)
''',
        code='''import numpy as np
import statsmodels.formula.api as smf

fit = smf.poisson("goals ~ C(venue, Treatment('away')) + opp_elo_diff", data=games).fit(disp=0)
irr = np.exp(fit.params)
ci = np.exp(fit.conf_int())
home = "C(venue, Treatment('away'))[T.home]"
disp = (fit.resid_pearson ** 2).sum() / fit.df_resid
print(f"Goals per match, {int(fit.nobs)} matches (Pearson dispersion = {disp:.2f})")
print(f"Home vs away: rate ratio {irr[home]:.2f} (95% CI {ci.loc[home, 0]:.2f}-"
      f"{ci.loc[home, 1]:.2f}), p = {fit.pvalues[home]:.4f}")
print(f"Per +100 Elo of opponent: x{np.exp(100 * fit.params['opp_elo_diff']):.2f} goals")
''',
        note="Poisson GLM for goal counts with a dispersion check and rate-ratio CIs.",
        split="holdout26",
    ),
    Case(
        id="h26-sound-relative-age-chisq",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1999)
academy = pd.DataFrame({
    "player_id": [f"AC{i:03d}" for i in range(1, 185)],
    "birth_quarter": rng.choice(["Q1", "Q2", "Q3", "Q4"], 184, p=[0.36, 0.29, 0.21, 0.14]),
    "age_group": rng.choice(["U12", "U14", "U16", "U18"], 184),
})
national_births = pd.Series({"Q1": 0.245, "Q2": 0.248, "Q3": 0.258, "Q4": 0.249})
''',
        code='''from scipy.stats import chisquare

obs = academy["birth_quarter"].value_counts().reindex(national_births.index)
exp = national_births / national_births.sum() * obs.sum()
chi2, p = chisquare(obs, exp)
table = pd.DataFrame({"academy_n": obs, "expected_n": exp.round(1),
                      "academy_%": (100 * obs / obs.sum()).round(1),
                      "national_%": (100 * national_births).round(1)})
print(f"Relative age effect, whole academy (n = {obs.sum()})")
print(f"Chi-square goodness of fit: chi2 = {chi2:.1f}, df = 3, p = {p:.2g}")
print(f"Q1:Q4 odds ratio vs national births: "
      f"{(obs['Q1'] / obs['Q4']) / (national_births['Q1'] / national_births['Q4']):.2f}")
table
''',
        note="One goodness-of-fit test of birth quarters against national birth shares.",
        split="holdout26",
    ),
    Case(
        id="h26-sound-cards-logit-cv",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4444)
n = 900
fouls = pd.DataFrame({
    "minute": rng.integers(1, 95, n),
    "tackle_from_behind": rng.binomial(1, 0.2, n),
    "studs_up": rng.binomial(1, 0.1, n),
    "attack_stopped": rng.binomial(1, 0.3, n),
    "x_pitch_m": rng.uniform(0, 105, n).round(1),
    "fouler_prior_fouls": rng.poisson(1.1, n),
})
lp = (-2.3 + 1.1 * fouls["tackle_from_behind"] + 2.0 * fouls["studs_up"]
      + 1.2 * fouls["attack_stopped"] + 0.3 * fouls["fouler_prior_fouls"])
fouls["yellow"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
''',
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

feats = ["minute", "tackle_from_behind", "studs_up", "attack_stopped", "x_pitch_m",
         "fouler_prior_fouls"]
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
res = cross_validate(model, fouls[feats], fouls["yellow"], cv=cv,
                     scoring=["roc_auc", "neg_brier_score"])
print(f"Yellow-card model for referee review, {len(fouls)} fouls, "
      f"card rate {fouls['yellow'].mean():.1%}")
print(f"5-fold CV AUC {res['test_roc_auc'].mean():.3f} +/- {res['test_roc_auc'].std():.3f}")
print(f"5-fold CV Brier {-res['test_neg_brier_score'].mean():.3f}")
coefs = model.fit(fouls[feats], fouls["yellow"])[-1].coef_[0]
print("Standardised log-odds (final fit on all fouls):")
print(pd.Series(coefs, index=feats).round(2).to_string())
''',
        note="Scaler inside a pipeline, seeded stratified CV; coefficients from a final refit.",
        split="holdout26",
    ),
]
