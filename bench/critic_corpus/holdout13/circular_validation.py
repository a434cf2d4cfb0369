from bench.critic_corpus import Case

SPLIT = "holdout13"

HOTEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31337)
n = 1300
arrival = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 540, n), unit="D")
bookings = pd.DataFrame({
    "booking_ref": [f"HB{700000 + i}" for i in range(n)],
    "arrival_date": arrival,
    "lead_time_days": rng.gamma(1.6, 28, n).round(),
    "nights": rng.integers(1, 9, n),
    "adults": rng.choice([1, 2, 2, 2, 3, 4], n),
    "room_type": rng.choice(["STD", "DLX", "STE"], n, p=[0.62, 0.3, 0.08]),
    "channel": rng.choice(["direct", "OTA", "corporate", "wholesale"], n,
                          p=[0.3, 0.45, 0.15, 0.1]),
})
month = bookings["arrival_date"].dt.month
season = 1 + 0.22 * np.sin((month - 4) / 12 * 2 * np.pi)
room = bookings["room_type"].map({"STD": 110, "DLX": 150, "STE": 260})
chan = bookings["channel"].map({"direct": 1.0, "OTA": 0.93, "corporate": 0.85,
                                "wholesale": 0.74})
weekend = bookings["arrival_date"].dt.dayofweek.isin([4, 5]).astype(float)
bookings["adr_eur"] = (room * season * chan * (1 + 0.08 * weekend)
                       * (1 - 0.0008 * bookings["lead_time_days"])
                       * rng.lognormal(0, 0.12, n)).round(2)
'''

HOTEL_FLAWED = '''
from sklearn.compose import make_column_transformer
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

df = bookings.assign(
    month=bookings["arrival_date"].dt.month,
    dow=bookings["arrival_date"].dt.dayofweek,
)
cat_cols = ["room_type", "channel", "month", "dow"]
num_cols = ["lead_time_days", "nights", "adults"]
X, y = df[cat_cols + num_cols], df["adr_eur"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=21)

def prep():
    return make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), cat_cols),
        (StandardScaler(), num_cols),
    )

candidates = {f"ridge_a{a}": Ridge(alpha=a) for a in (0.1, 1, 10, 100)}
candidates |= {f"rf_d{d}": RandomForestRegressor(n_estimators=60, max_depth=d,
                                                 random_state=0, n_jobs=1)
               for d in (4, 8, 14)}
candidates |= {f"gbr_lr{lr}": GradientBoostingRegressor(learning_rate=lr, n_estimators=120,
                                                        max_depth=3, random_state=0)
               for lr in (0.03, 0.1)}

rows = []
for name, est in candidates.items():
    pipe = make_pipeline(prep(), est).fit(X_tr, y_tr)
    rows.append({"model": name, "test_mae": mean_absolute_error(y_te, pipe.predict(X_te))})

leaderboard = pd.DataFrame(rows).sort_values("test_mae").reset_index(drop=True)
best = leaderboard.iloc[0]
print(leaderboard.round(2).to_string(index=False))
print(f"\\nChosen model: {best['model']}")
print(f"Expected ADR error in production: EUR {best['test_mae']:.2f} per booking "
      f"({best['test_mae'] / y_te.mean():.1%} of mean ADR)")
'''

HOTEL_SOUND = '''
from sklearn.compose import make_column_transformer
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

df = bookings.assign(
    month=bookings["arrival_date"].dt.month,
    dow=bookings["arrival_date"].dt.dayofweek,
)
cat_cols = ["room_type", "channel", "month", "dow"]
num_cols = ["lead_time_days", "nights", "adults"]
X, y = df[cat_cols + num_cols], df["adr_eur"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=21)

def prep():
    return make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), cat_cols),
        (StandardScaler(), num_cols),
    )

candidates = {f"ridge_a{a}": Ridge(alpha=a) for a in (0.1, 1, 10, 100)}
candidates |= {f"rf_d{d}": RandomForestRegressor(n_estimators=60, max_depth=d,
                                                 random_state=0, n_jobs=1)
               for d in (4, 8, 14)}
candidates |= {f"gbr_lr{lr}": GradientBoostingRegressor(learning_rate=lr, n_estimators=120,
                                                        max_depth=3, random_state=0)
               for lr in (0.03, 0.1)}

cv = KFold(n_splits=3, shuffle=True, random_state=4)
rows = []
for name, est in candidates.items():
    scores = cross_val_score(make_pipeline(prep(), est), X_tr, y_tr, cv=cv,
                             scoring="neg_mean_absolute_error")
    rows.append({"model": name, "cv_mae": -scores.mean(), "cv_sd": scores.std()})

leaderboard = pd.DataFrame(rows).sort_values("cv_mae").reset_index(drop=True)
best = leaderboard.iloc[0]
final = make_pipeline(prep(), candidates[best["model"]]).fit(X_tr, y_tr)
test_mae = mean_absolute_error(y_te, final.predict(X_te))
print(leaderboard.round(2).to_string(index=False))
print(f"\\nChosen model (by CV on training data): {best['model']}")
print(f"Untouched test-set ADR error: EUR {test_mae:.2f} per booking "
      f"({test_mae / y_te.mean():.1%} of mean ADR)")
'''

STREAM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 2400
plays = pd.DataFrame({
    "play_id": np.arange(n),
    "user_tenure_days": rng.integers(1, 2000, n),
    "track_popularity": rng.beta(2, 3, n).round(3),
    "genre_match": rng.beta(3, 2, n).round(3),
    "position_in_session": rng.integers(1, 60, n),
    "is_shuffle": (rng.random(n) < 0.4).astype(int),
    "hour_local": rng.integers(0, 24, n),
    "device": rng.choice(["mobile", "desktop", "smart_speaker", "car"], n,
                         p=[0.6, 0.2, 0.1, 0.1]),
})
lin = (-1.9 + 1.4 * (1 - plays["genre_match"]) - 0.8 * plays["track_popularity"]
       + 0.015 * plays["position_in_session"] + 0.5 * plays["is_shuffle"]
       + plays["device"].map({"mobile": 0.2, "desktop": 0.0, "smart_speaker": -0.5,
                              "car": -0.3}))
plays["skipped_30s"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

STREAM_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, precision_score, recall_score
from sklearn.model_selection import train_test_split

X = pd.get_dummies(
    plays.drop(columns=["play_id", "skipped_30s"]), columns=["device"], drop_first=True,
    dtype=float,
)
X["log_tenure"] = np.log1p(X.pop("user_tenure_days"))
y = plays["skipped_30s"].to_numpy()

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=8)
mu, sd = X_tr.mean(), X_tr.std()
clf = LogisticRegression(max_iter=1000).fit((X_tr - mu) / sd, y_tr)
p_te = clf.predict_proba((X_te - mu) / sd)[:, 1]

thresholds = np.round(np.arange(0.10, 0.71, 0.02), 2)
f1s = np.array([f1_score(y_te, (p_te >= t).astype(int)) for t in thresholds])
t_best = thresholds[f1s.argmax()]
pred = (p_te >= t_best).astype(int)

print(f"Skip rate: {y.mean():.1%} over {len(y)} plays")
print("F1 by threshold (every 5th):")
print(pd.Series(f1s, index=thresholds).iloc[::5].round(3).to_string())
print(f"\\nOperating threshold: {t_best:.2f}")
print(f"Test F1        : {f1_score(y_te, pred):.3f}")
print(f"Test precision : {precision_score(y_te, pred):.3f}")
print(f"Test recall    : {recall_score(y_te, pred):.3f}")
print(f"Share of plays flagged for the skip-aware queue: {pred.mean():.1%}")
'''

STREAM_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, precision_score, recall_score
from sklearn.model_selection import train_test_split

X = pd.get_dummies(
    plays.drop(columns=["play_id", "skipped_30s"]), columns=["device"], drop_first=True,
    dtype=float,
)
X["log_tenure"] = np.log1p(X.pop("user_tenure_days"))
y = plays["skipped_30s"].to_numpy()

X_dev, X_te, y_dev, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=8)
X_tr, X_va, y_tr, y_va = train_test_split(
    X_dev, y_dev, test_size=0.25, stratify=y_dev, random_state=9
)
mu, sd = X_tr.mean(), X_tr.std()
clf = LogisticRegression(max_iter=1000).fit((X_tr - mu) / sd, y_tr)
p_va = clf.predict_proba((X_va - mu) / sd)[:, 1]
p_te = clf.predict_proba((X_te - mu) / sd)[:, 1]

thresholds = np.round(np.arange(0.10, 0.71, 0.02), 2)
f1s = np.array([f1_score(y_va, (p_va >= t).astype(int)) for t in thresholds])
t_best = thresholds[f1s.argmax()]
pred = (p_te >= t_best).astype(int)

print(f"Skip rate: {y.mean():.1%} over {len(y)} plays")
print("Validation F1 by threshold (every 5th):")
print(pd.Series(f1s, index=thresholds).iloc[::5].round(3).to_string())
print(f"\\nOperating threshold (chosen on validation): {t_best:.2f}")
print(f"Test F1        : {f1_score(y_te, pred):.3f}")
print(f"Test precision : {precision_score(y_te, pred):.3f}")
print(f"Test recall    : {recall_score(y_te, pred):.3f}")
print(f"Share of plays flagged for the skip-aware queue: {pred.mean():.1%}")
'''

CASES: list[Case] = [
    Case(
        id="h13-circular-hotel-model-picked-on-test",
        family="circular_validation",
        code=HOTEL_FLAWED,
        setup=HOTEL_SETUP,
        twin="h13-circular-hotel-model-picked-by-cv",
        note="Nine candidate models are ranked on the test set and the winner's test MAE is "
             "reported as the production error, an optimistic, selected estimate.",
        split=SPLIT,
    ),
    Case(
        id="h13-circular-hotel-model-picked-by-cv",
        family=None,
        code=HOTEL_SOUND,
        setup=HOTEL_SETUP,
        twin="h13-circular-hotel-model-picked-on-test",
        note="Model chosen by CV on the training split; the test set is used once for the "
             "chosen model.",
        split=SPLIT,
    ),
    Case(
        id="h13-circular-streaming-threshold-tuned-on-test",
        family="circular_validation",
        code=STREAM_FLAWED,
        setup=STREAM_SETUP,
        twin="h13-circular-streaming-threshold-on-validation",
        note="The decision threshold is tuned to maximise F1 on the test set and the same "
             "test F1/precision/recall are reported as performance.",
        split=SPLIT,
    ),
    Case(
        id="h13-circular-streaming-threshold-on-validation",
        family=None,
        code=STREAM_SOUND,
        setup=STREAM_SETUP,
        twin="h13-circular-streaming-threshold-tuned-on-test",
        note="Threshold tuned on a validation split carved out of training data; test metrics "
             "are computed once at that threshold.",
        split=SPLIT,
    ),
]
