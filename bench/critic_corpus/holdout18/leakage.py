from bench.critic_corpus import Case

_TRIAL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(14)
screens = ["home", "editor", "export", "share", "settings",
           "billing", "templates", "search", "inbox", "calendar"]
actions = ["view", "click", "error", "open", "dwell"]
usage_cols = [f"d3_{s}_{a}" for s in screens for a in actions]

n_users = 220
rates = rng.gamma(2.0, 1.5, size=len(usage_cols))
counts = rng.poisson(rates * rng.gamma(3.0, 1 / 3.0, size=(n_users, 1)))
trial_users = pd.DataFrame(counts, columns=usage_cols)
trial_users.insert(0, "user_id", [f"u{100000 + i}" for i in range(n_users)])
trial_users.insert(1, "trial_days", rng.choice([7, 14], size=n_users))
logit = -0.4 + 0.5 * (np.log1p(trial_users["d3_editor_click"]) - 1.5)
trial_users["converted"] = (rng.random(n_users) < 1 / (1 + np.exp(-logit))).astype(int)
'''

_ADS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4410)
n_imp = 2600
app_ids = [f"app_{i:04d}" for i in range(420)]
app_pop = rng.dirichlet(np.full(len(app_ids), 0.9))
impressions = pd.DataFrame({
    "impression_id": np.arange(n_imp),
    "app_id": rng.choice(app_ids, size=n_imp, p=app_pop),
    "ad_format": rng.choice(["banner", "interstitial", "rewarded"], size=n_imp,
                            p=[0.6, 0.25, 0.15]),
    "hour": rng.integers(0, 24, size=n_imp),
    "os": rng.choice(["ios", "android"], size=n_imp, p=[0.45, 0.55]),
})
fmt_lift = impressions["ad_format"].map({"banner": -0.6, "interstitial": 0.2, "rewarded": 0.9})
app_effect = pd.Series(rng.normal(0, 0.25, len(app_ids)), index=app_ids)
lin = -2.3 + fmt_lift + impressions["app_id"].map(app_effect)
impressions["clicked"] = (rng.random(n_imp) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h18-leakage-trial-usage-selectkbest",
        family="leakage",
        setup=_TRIAL_SETUP,
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

X = np.log1p(trial_users[usage_cols].to_numpy(dtype=float))
y = trial_users["converted"].to_numpy()

X_std = StandardScaler().fit_transform(X)
selector = SelectKBest(f_classif, k=8).fit(X_std, y)
X_top = selector.transform(X_std)
top_events = [usage_cols[i] for i in selector.get_support(indices=True)]

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(LogisticRegression(max_iter=1000), X_top, y, cv=cv, scoring="roc_auc")
print("day-3 events kept:", ", ".join(top_events))
print(f"trial -> paid model, 5-fold AUC: {auc.mean():.3f} (sd {auc.std():.3f})")
''',
        twin="h18-leakage-trial-usage-selectkbest-ok",
        note="Scaling and SelectKBest are fit on all users before cross-validation, so the "
             "selected events are chosen with the held-out folds' labels and the AUC is inflated.",
        split="holdout18",
    ),
    Case(
        id="h18-leakage-trial-usage-selectkbest-ok",
        family=None,
        setup=_TRIAL_SETUP,
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = np.log1p(trial_users[usage_cols].to_numpy(dtype=float))
y = trial_users["converted"].to_numpy()

model = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=8),
                      LogisticRegression(max_iter=1000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")

model.fit(X, y)
kept = model.named_steps["selectkbest"].get_support(indices=True)
print("day-3 events kept:", ", ".join(usage_cols[i] for i in kept))
print(f"trial -> paid model, 5-fold AUC: {auc.mean():.3f} (sd {auc.std():.3f})")
''',
        twin="h18-leakage-trial-usage-selectkbest",
        note="Scaler and feature selection sit inside the pipeline, so they are refit on the "
             "training folds only; the final fit on all data is used only to list the events.",
        split="holdout18",
    ),
    Case(
        id="h18-leakage-ads-app-ctr-encoding",
        family="leakage",
        setup=_ADS_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

imp = impressions.copy()
imp["app_ctr"] = imp.groupby("app_id")["clicked"].transform("mean")
imp["app_volume"] = np.log1p(imp.groupby("app_id")["clicked"].transform("size"))
X_all = pd.get_dummies(imp[["app_ctr", "app_volume", "ad_format", "os"]],
                       columns=["ad_format", "os"], drop_first=True, dtype=float)
X_all["night"] = imp["hour"].isin(range(0, 6)).astype(float)

train = imp.sample(frac=0.75, random_state=7)
test = imp.drop(train.index)
clf = LogisticRegression(max_iter=1000).fit(X_all.loc[train.index], train["clicked"])
p_test = clf.predict_proba(X_all.loc[test.index])[:, 1]

print(f"holdout impressions: {len(test):,}  base CTR {test['clicked'].mean():.2%}")
print(f"holdout AUC {roc_auc_score(test['clicked'], p_test):.3f}, "
      f"log loss {log_loss(test['clicked'], p_test):.4f}")
''',
        twin="h18-leakage-ads-app-ctr-encoding-ok",
        note="The per-app CTR feature is a target encoding computed over all impressions, "
             "including the holdout rows' own clicks, before the train/test split.",
        split="holdout18",
    ),
    Case(
        id="h18-leakage-ads-app-ctr-encoding-ok",
        family=None,
        setup=_ADS_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

imp = impressions.copy()
train = imp.sample(frac=0.75, random_state=7)
test = imp.drop(train.index)

prior, k = train["clicked"].mean(), 20
app_stats = train.groupby("app_id")["clicked"].agg(["sum", "size"])
app_ctr = (app_stats["sum"] + k * prior) / (app_stats["size"] + k)
app_volume = np.log1p(app_stats["size"])


def features(df):
    out = pd.DataFrame(index=df.index)
    out["app_ctr"] = df["app_id"].map(app_ctr).fillna(prior)
    out["app_volume"] = df["app_id"].map(app_volume).fillna(0.0)
    out["fmt_interstitial"] = (df["ad_format"] == "interstitial").astype(float)
    out["fmt_rewarded"] = (df["ad_format"] == "rewarded").astype(float)
    out["os_ios"] = (df["os"] == "ios").astype(float)
    out["night"] = df["hour"].isin(range(0, 6)).astype(float)
    return out


clf = LogisticRegression(max_iter=1000).fit(features(train), train["clicked"])
p_test = clf.predict_proba(features(test))[:, 1]

print(f"holdout impressions: {len(test):,}  base CTR {test['clicked'].mean():.2%}")
print(f"holdout AUC {roc_auc_score(test['clicked'], p_test):.3f}, "
      f"log loss {log_loss(test['clicked'], p_test):.4f}")
''',
        twin="h18-leakage-ads-app-ctr-encoding",
        note="The smoothed per-app CTR encoding is estimated on the training impressions only "
             "and mapped onto the holdout, with unseen apps falling back to the training prior.",
        split="holdout18",
    ),
]
