from bench.critic_corpus import Case

_SURVEY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3601)
n = 2200
zones = np.arange(1, 281)
zone_effect = rng.normal(0, 0.9, zones.size)
trips = pd.DataFrame({
    "trip_id": np.arange(n),
    "origin_zone": rng.choice(zones, n),
    "dist_km": np.round(rng.lognormal(1.6, 0.7, n), 1),
    "car_avail": rng.binomial(1, 0.68, n),
    "hh_size": rng.integers(1, 6, n),
    "age": rng.integers(18, 80, n),
})
lin = (-0.4 + 0.05 * trips["dist_km"] - 1.3 * trips["car_avail"]
       - 0.1 * trips["hh_size"] + zone_effect[trips["origin_zone"] - 1])
trips["transit"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_SEGMENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3602)
n_seg, n_feat = 240, 400
gis = pd.DataFrame(
    rng.normal(size=(n_seg, n_feat)),
    columns=[f"buf{r}m_{v}" for r in (50, 100, 250, 500)
             for v in [f"lu{i:02d}" for i in range(100)]],
)
gis.insert(0, "aadt_k", np.round(rng.lognormal(2.3, 0.5, n_seg), 1))
gis.insert(1, "lanes", rng.integers(1, 5, n_seg))
risk = -1.2 + 0.06 * gis["aadt_k"] + 0.2 * gis["lanes"] + rng.normal(0, 1, n_seg)
segments = gis.assign(high_crash=(risk > np.quantile(risk, 0.7)).astype(int))
segments.index = [f"SEG{i:04d}" for i in range(n_seg)]
'''

CASES = [
    Case(
        id="h36-leak-zone-target-encoding",
        family="leakage",
        twin="h36-leak-zone-target-encoding-ok",
        setup=_SURVEY_SETUP,
        code='''
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

# zone-level transit propensity as a feature (origin zones are too many for dummies)
zone_share = trips.groupby("origin_zone")["transit"].mean()
trips["zone_transit_share"] = trips["origin_zone"].map(zone_share)

feats = ["dist_km", "car_avail", "hh_size", "age", "zone_transit_share"]
X_tr, X_te, y_tr, y_te = train_test_split(
    trips[feats], trips["transit"], test_size=0.3, random_state=11, stratify=trips["transit"]
)
mnl = LogisticRegression(max_iter=2000).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, mnl.predict_proba(X_te)[:, 1])
print(f"transit choice model, hold-out AUC = {auc:.3f}")
pd.Series(mnl.coef_[0], index=feats).round(3)
''',
        note="Zone transit-share target encoding is computed on all trips (test outcomes "
             "included) before the train/test split, inflating the hold-out AUC.",
        split="holdout36",
    ),
    Case(
        id="h36-leak-zone-target-encoding-ok",
        family=None,
        twin="h36-leak-zone-target-encoding",
        setup=_SURVEY_SETUP,
        code='''
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

base = ["dist_km", "car_avail", "hh_size", "age"]
tr, te = train_test_split(trips, test_size=0.3, random_state=11, stratify=trips["transit"])

# zone propensity learned from the training trips only, shrunk toward the training mean;
# zones with no training trips fall back to that mean
prior, k = tr["transit"].mean(), 10
z = tr.groupby("origin_zone")["transit"].agg(["sum", "count"])
zone_share = (z["sum"] + k * prior) / (z["count"] + k)
X_tr = tr[base].assign(zone_transit_share=tr["origin_zone"].map(zone_share))
X_te = te[base].assign(zone_transit_share=te["origin_zone"].map(zone_share).fillna(prior))

mnl = LogisticRegression(max_iter=2000).fit(X_tr, tr["transit"])
auc = roc_auc_score(te["transit"], mnl.predict_proba(X_te)[:, 1])
print(f"transit choice model, hold-out AUC = {auc:.3f}")
pd.Series(mnl.coef_[0], index=X_tr.columns).round(3)
''',
        note="Zone target encoding is fitted on training trips only (smoothed, unseen zones "
             "get the training prior), so the hold-out AUC is honest.",
        split="holdout36",
    ),
    Case(
        id="h36-leak-crash-selectkbest",
        family="leakage",
        twin="h36-leak-crash-selectkbest-ok",
        setup=_SEGMENT_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline

X = segments.drop(columns="high_crash")
y = segments["high_crash"]

sel = SelectKBest(f_classif, k=20).fit(X, y)
keep = X.columns[sel.get_support()]
print("screened GIS variables:", ", ".join(keep[:8]), "...")

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=4)
sppm = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
auc = cross_val_score(sppm, X[keep], y, cv=cv, scoring="roc_auc")
print(f"high-crash segment screening model: CV AUC {auc.mean():.3f} (+/- {auc.std():.3f})")
''',
        note="SelectKBest screens 400 GIS variables on all segments before cross-validation, "
             "so the CV AUC is optimistic (selection saw every fold's labels).",
        split="holdout36",
    ),
    Case(
        id="h36-leak-crash-selectkbest-ok",
        family=None,
        twin="h36-leak-crash-selectkbest",
        setup=_SEGMENT_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline

X = segments.drop(columns="high_crash")
y = segments["high_crash"]

# screening sits inside the pipeline, so it is refit on the training folds of each split
sppm = make_pipeline(SelectKBest(f_classif, k=20), StandardScaler(),
                     LogisticRegression(C=1.0, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=4)
auc = cross_val_score(sppm, X, y, cv=cv, scoring="roc_auc")
print(f"high-crash segment screening model: CV AUC {auc.mean():.3f} (+/- {auc.std():.3f})")
''',
        note="Feature screening is inside the pipeline evaluated by cross_val_score, so each "
             "fold selects variables from its own training segments only.",
        split="holdout36",
    ),
]
