from bench.critic_corpus import Case

_PP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3521)
n = 7000
hh = pd.DataFrame({
    "exposure": np.round(rng.uniform(0.1, 1.0, n), 3),
    "sum_insured_k": np.round(rng.lognormal(5.6, 0.5, n), 0),
    "building_age": rng.integers(0, 120, n),
    "flood_zone": rng.integers(1, 6, n),
    "alarm": rng.binomial(1, 0.4, n),
    "bedrooms": rng.integers(1, 7, n),
    "prior_claims": rng.poisson(0.2, n),
})
freq = 0.06 * np.exp(0.004 * hh.building_age + 0.12 * hh.flood_zone - 0.25 * hh.alarm
                     + 0.3 * hh.prior_claims)
sev_mean = 2200 * (hh.sum_insured_k / 270) ** 0.4
counts = rng.poisson(freq * hh.exposure)
hh["loss"] = [np.round(rng.gamma(1.5, m / 1.5, k).sum(), 2) for k, m in zip(counts, sev_mean)]
hh["loss_cost"] = hh.loss / hh.exposure
'''

_SIU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3522)
n = 5000
hc = pd.DataFrame({
    "days_since_inception": rng.integers(1, 1500, n),
    "claim_amount": np.round(rng.lognormal(7.7, 1.0, n), 2),
    "contents_only": rng.binomial(1, 0.4, n),
    "prior_claims_3y": rng.poisson(0.3, n),
    "receipts_provided": rng.binomial(1, 0.7, n),
    "cover_increased_90d": rng.binomial(1, 0.06, n),
    "theft": rng.binomial(1, 0.25, n),
})
eta = (-3.0 - 0.0015 * hc.days_since_inception + 0.35 * (np.log(hc.claim_amount) - 7.7)
       + 0.5 * hc.contents_only + 0.4 * hc.prior_claims_3y - 0.9 * hc.receipts_provided
       + 1.2 * hc.cover_increased_90d + 0.6 * hc.theft)
hc["siu_fraud"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
hc["log_amount"] = np.log(hc.claim_amount)
'''

CASES = [
    Case(
        id="h35-circ-tweedie-power-picked-on-test",
        family="circular_validation",
        twin="h35-circ-tweedie-power-cv-on-train",
        split="holdout35",
        setup=_PP_SETUP,
        code='''
from sklearn.linear_model import TweedieRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.model_selection import train_test_split

def gini(loss, pred_lc, expo):
    order = np.argsort(pred_lc)
    x = np.concatenate([[0], np.cumsum(expo[order]) / expo.sum()])
    y = np.concatenate([[0], np.cumsum(loss[order]) / loss.sum()])
    return 1 - 2 * np.sum((y[1:] + y[:-1]) / 2 * np.diff(x))

feats = ["building_age", "flood_zone", "alarm", "bedrooms", "prior_claims"]
X = hh[feats].assign(log_si=np.log(hh.sum_insured_k)).values
tr, te = train_test_split(np.arange(len(hh)), test_size=0.3, random_state=21)

grid = {}
for p in [1.2, 1.4, 1.6, 1.8]:
    for alpha in [0.001, 0.01, 0.1]:
        m = make_pipeline(StandardScaler(), TweedieRegressor(power=p, alpha=alpha, link="log",
                                                             solver="newton-cholesky"))
        m.fit(X[tr], hh.loss_cost.values[tr],
              tweedieregressor__sample_weight=hh.exposure.values[tr])
        grid[(p, alpha)] = gini(hh.loss.values[te], m.predict(X[te]), hh.exposure.values[te])

res = pd.Series(grid).unstack().round(4)
print(res)
best_p, best_alpha = res.stack().idxmax()
print(f"chosen Tweedie power p={best_p}, alpha={best_alpha}")
print(f"pure premium model, holdout Gini = {res.loc[best_p, best_alpha]:.3f}")
''',
        note="Tweedie power and penalty are chosen by their Gini on the test set and that same "
             "best test Gini is reported as holdout performance (optimistic selection).",
    ),
    Case(
        id="h35-circ-tweedie-power-cv-on-train",
        family=None,
        twin="h35-circ-tweedie-power-picked-on-test",
        split="holdout35",
        setup=_PP_SETUP,
        code='''
from sklearn.linear_model import TweedieRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.model_selection import train_test_split, KFold

def gini(loss, pred_lc, expo):
    order = np.argsort(pred_lc)
    x = np.concatenate([[0], np.cumsum(expo[order]) / expo.sum()])
    y = np.concatenate([[0], np.cumsum(loss[order]) / loss.sum()])
    return 1 - 2 * np.sum((y[1:] + y[:-1]) / 2 * np.diff(x))

feats = ["building_age", "flood_zone", "alarm", "bedrooms", "prior_claims"]
X = hh[feats].assign(log_si=np.log(hh.sum_insured_k)).values
lc, loss, expo = hh.loss_cost.values, hh.loss.values, hh.exposure.values
tr, te = train_test_split(np.arange(len(hh)), test_size=0.3, random_state=21)

# tune power / alpha by 3-fold CV inside the training policies; the test set is used once
kf = KFold(n_splits=3, shuffle=True, random_state=21)
grid = {}
for p in [1.2, 1.4, 1.6, 1.8]:
    for alpha in [0.001, 0.01, 0.1]:
        scores = []
        for fit_i, val_i in kf.split(tr):
            a, b = tr[fit_i], tr[val_i]
            m = make_pipeline(StandardScaler(),
                              TweedieRegressor(power=p, alpha=alpha, link="log",
                                               solver="newton-cholesky"))
            m.fit(X[a], lc[a], tweedieregressor__sample_weight=expo[a])
            scores.append(gini(loss[b], m.predict(X[b]), expo[b]))
        grid[(p, alpha)] = np.mean(scores)

res = pd.Series(grid).unstack().round(4)
print("CV Gini on training policies:")
print(res)
best_p, best_alpha = res.stack().idxmax()
final = make_pipeline(StandardScaler(), TweedieRegressor(power=best_p, alpha=best_alpha,
                                                         link="log", solver="newton-cholesky"))
final.fit(X[tr], lc[tr], tweedieregressor__sample_weight=expo[tr])
print(f"chosen Tweedie power p={best_p}, alpha={best_alpha}")
print(f"pure premium model, holdout Gini = {gini(loss[te], final.predict(X[te]), expo[te]):.3f}")
''',
        note="Tweedie power and penalty are tuned by K-fold CV within the training policies and "
             "the refit model is scored once on the untouched test set.",
    ),
    Case(
        id="h35-circ-siu-threshold-tuned-on-test",
        family="circular_validation",
        twin="h35-circ-siu-threshold-tuned-on-valid",
        split="holdout35",
        setup=_SIU_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import precision_recall_curve

feats = ["days_since_inception", "log_amount", "contents_only", "prior_claims_3y",
         "receipts_provided", "cover_increased_90d", "theft"]
train, test = train_test_split(hc, test_size=0.3, stratify=hc.siu_fraud, random_state=4)

siu = LogisticRegression(max_iter=2000).fit(train[feats], train.siu_fraud)
test_score = siu.predict_proba(test[feats])[:, 1]

prec, rec, thr = precision_recall_curve(test.siu_fraud, test_score)
f1 = 2 * prec[:-1] * rec[:-1] / np.clip(prec[:-1] + rec[:-1], 1e-12, None)
k = int(np.argmax(f1))
referral_cut = thr[k]

referred = test_score >= referral_cut
print(f"SIU referral threshold: {referral_cut:.3f}")
print(f"referral rate        : {referred.mean():.1%}")
print(f"precision / recall   : {prec[k]:.3f} / {rec[k]:.3f}")
print(f"F1 at threshold      : {f1[k]:.3f}")
''',
        note="The referral threshold is chosen to maximise F1 on the test claims and the "
             "precision/recall/F1 at that threshold are reported from the same test set.",
    ),
    Case(
        id="h35-circ-siu-threshold-tuned-on-valid",
        family=None,
        twin="h35-circ-siu-threshold-tuned-on-test",
        split="holdout35",
        setup=_SIU_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import precision_recall_curve, precision_score, recall_score, f1_score

feats = ["days_since_inception", "log_amount", "contents_only", "prior_claims_3y",
         "receipts_provided", "cover_increased_90d", "theft"]
# three-way split: fit on train, pick the referral cut on valid, report on test
train, rest = train_test_split(hc, test_size=0.4, stratify=hc.siu_fraud, random_state=4)
valid, test = train_test_split(rest, test_size=0.5, stratify=rest.siu_fraud, random_state=4)

siu = LogisticRegression(max_iter=2000).fit(train[feats], train.siu_fraud)
val_score = siu.predict_proba(valid[feats])[:, 1]
prec, rec, thr = precision_recall_curve(valid.siu_fraud, val_score)
f1 = 2 * prec[:-1] * rec[:-1] / np.clip(prec[:-1] + rec[:-1], 1e-12, None)
referral_cut = thr[int(np.argmax(f1))]

test_score = siu.predict_proba(test[feats])[:, 1]
referred = (test_score >= referral_cut).astype(int)
print(f"SIU referral threshold (from validation): {referral_cut:.3f}")
print(f"test referral rate   : {referred.mean():.1%}")
print(f"test precision/recall: {precision_score(test.siu_fraud, referred):.3f} / "
      f"{recall_score(test.siu_fraud, referred):.3f}")
print(f"test F1              : {f1_score(test.siu_fraud, referred):.3f}")
''',
        note="The referral threshold is tuned on a separate validation split and precision, "
             "recall and F1 are reported on an untouched test split.",
    ),
]
