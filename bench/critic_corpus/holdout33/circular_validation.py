from bench.critic_corpus import Case

_MIR_SETUP = '''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(3308)
n = 90
wn = np.linspace(950, 1200, 260)          # cm-1, C-O stretch region
etoh = rng.uniform(0.5, 12.0, n)          # % v/v by GC reference
glucose = rng.uniform(0, 60, n)           # g/L residual sugar
glycerol = rng.uniform(2, 9, n)           # g/L
acetic = rng.uniform(0, 3, n)             # g/L
band = lambda c, w: np.exp(-0.5 * ((wn - c) / w) ** 2)
X = (0.030 * etoh[:, None] * (band(1045, 9) + 0.6 * band(1087, 8))
     + 0.0040 * glucose[:, None] * (band(1035, 14) + band(1080, 18))
     + 0.012 * glycerol[:, None] * band(1110, 10)
     + 0.020 * acetic[:, None] * band(1015, 12)
     + rng.normal(0, 0.03, (n, 1)) * (wn - 950) / 250
     + rng.normal(0, 0.012, (n, wn.size)))
y = (etoh + rng.normal(0, 0.15, n)).round(2)
X_cal, X_test, y_cal, y_test = train_test_split(X, y, test_size=0.3, random_state=3)
print(X_cal.shape, X_test.shape)
'''

_ORIGIN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3306)
elements = ["Li", "B", "Mg", "K", "Ca", "Mn", "Fe", "Cu", "Zn", "Rb", "Sr", "Ba", "Pb", "U"]
regions = {"Rioja": 32, "Douro": 30, "Mendoza": 28}
rows = []
for k, (reg, m) in enumerate(regions.items()):
    centre = rng.normal(0, 1, len(elements)) * 0.35
    for i in range(m):
        logc = centre + rng.normal(0, 1, len(elements))
        rows.append({"sample": f"{reg[:3].upper()}-{i + 1:02d}", "region": reg,
                     **{el: round(float(np.exp(1.5 + 0.8 * v)), 3)
                        for el, v in zip(elements, logc)}})
wine = pd.DataFrame(rows)
wine.head()
'''

CASES: list[Case] = [
    Case(
        id="h33-circular-validation-pls-lv-picked-on-test",
        family="circular_validation",
        setup=_MIR_SETUP,
        code='''
from sklearn.cross_decomposition import PLSRegression

rmsep = {}
for n_lv in range(1, 16):
    pls = PLSRegression(n_components=n_lv, scale=False).fit(X_cal, y_cal)
    y_pred = pls.predict(X_test).ravel()
    rmsep[n_lv] = np.sqrt(np.mean((y_pred - y_test) ** 2))

best_lv = min(rmsep, key=rmsep.get)
print(pd.Series(rmsep, name="RMSEP").round(3).to_string())
print(f"-> optimum {best_lv} LVs, RMSEP = {rmsep[best_lv]:.3f} % v/v ethanol "
      f"(n test = {len(y_test)})")
''',
        twin="h33-circular-validation-pls-lv-by-rmsecv-sound",
        note="The number of PLS latent variables is chosen by minimising RMSEP on the test set "
             "and that minimum is then reported as the test-set RMSEP.",
        split="holdout33",
    ),
    Case(
        id="h33-circular-validation-pls-lv-by-rmsecv-sound",
        family=None,
        setup=_MIR_SETUP,
        code='''
from sklearn.cross_decomposition import PLSRegression
from sklearn.model_selection import KFold, cross_val_predict

cv = KFold(n_splits=10, shuffle=True, random_state=0)
rmsecv = {}
for n_lv in range(1, 16):
    pls = PLSRegression(n_components=n_lv, scale=False)
    y_cv = cross_val_predict(pls, X_cal, y_cal, cv=cv).ravel()
    rmsecv[n_lv] = np.sqrt(np.mean((y_cv - y_cal) ** 2))

best_lv = min(rmsecv, key=rmsecv.get)
print(pd.Series(rmsecv, name="RMSECV").round(3).to_string())

# test set used once, for the model chosen on the calibration set
final = PLSRegression(n_components=best_lv, scale=False).fit(X_cal, y_cal)
rmsep = np.sqrt(np.mean((final.predict(X_test).ravel() - y_test) ** 2))
print(f"-> {best_lv} LVs by RMSECV; RMSEP = {rmsep:.3f} % v/v ethanol (n test = {len(y_test)})")
''',
        twin="h33-circular-validation-pls-lv-picked-on-test",
        note="Latent variables are chosen by 10-fold RMSECV on the calibration set; the test set "
             "is predicted once with the chosen model.",
        split="holdout33",
    ),
    Case(
        id="h33-circular-validation-wine-origin-lda-resubstitution",
        family="circular_validation",
        setup=_ORIGIN_SETUP,
        code='''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA

X = np.log10(wine[elements])
lda = LDA().fit(X, wine["region"])
pred = lda.predict(X)

print(pd.crosstab(wine["region"], pred, rownames=["true"], colnames=["assigned"]))
print(f"\\ncorrect classification: {np.mean(pred == wine['region']):.1%} of {len(wine)} wines")
print("-> ICP-MS fingerprint (14 elements) authenticates geographical origin")
''',
        twin="h33-circular-validation-wine-origin-lda-cv-sound",
        note="LDA is fit on all 90 wines and the classification rate is computed on the same "
             "wines (resubstitution) and presented as the method's authentication accuracy.",
        split="holdout33",
    ),
    Case(
        id="h33-circular-validation-wine-origin-lda-cv-sound",
        family=None,
        setup=_ORIGIN_SETUP,
        code='''
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA
from sklearn.model_selection import StratifiedKFold, cross_val_predict

X = np.log10(wine[elements])
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
pred = cross_val_predict(LDA(), X, wine["region"], cv=cv)

print(pd.crosstab(wine["region"], pred, rownames=["true"], colnames=["assigned"]))
print(f"\\ncorrect classification (5-fold CV): {np.mean(pred == wine['region']):.1%} "
      f"of {len(wine)} wines")
''',
        twin="h33-circular-validation-wine-origin-lda-resubstitution",
        note="Classification rate for the ICP-MS origin model comes from cross-validated "
             "predictions, each wine assigned by a model that did not see it.",
        split="holdout33",
    ),
]
