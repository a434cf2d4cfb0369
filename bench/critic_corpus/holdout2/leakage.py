"""Leakage, holdout2 idioms: a pandas corrwith/nlargest feature screen on all rows before
cross_validate, and a supervised LDA projection fitted on every row before cross-validation."""

from textwrap import dedent

from bench.critic_corpus import Case

_PANEL = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, cross_validate

rng = np.random.default_rng(5150)
n, p = 160, 600
proteome = pd.DataFrame(rng.normal(0, 1, (n, p)), columns=[f"prot_{j:03d}" for j in range(p)])
# only three proteins carry a weak signal for the inflammation score
crp_score = pd.Series(
    0.4 * proteome.prot_000 - 0.3 * proteome.prot_001 + 0.3 * proteome.prot_002
    + rng.normal(0, 1.2, n),
    name="crp_score",
)
kf = KFold(n_splits=5, shuffle=True, random_state=11)
"""

_EEG = """\
import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate

rng = np.random.default_rng(3032)
n_trials, n_channels = 100, 128
band_power = rng.normal(0, 1, (n_trials, n_channels))   # EEG alpha-band power per channel
condition = np.repeat([0, 1], n_trials // 2)             # eyes-open vs imagery: no real effect
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=4)
"""

CASES: list[Case] = [
    Case(
        id="leakage-corrwith-screen-proteome",
        family="leakage",
        twin="leakage-corrwith-screen-proteome-sound",
        split="holdout2",
        note="Top 20 proteins picked by |corrwith| against the outcome on all 160 samples, "
        "then cross_validate on that subset: the screen saw every test fold.",
        code=_PANEL + dedent("""\

            screen = proteome.corrwith(crp_score).abs().nlargest(20)
            panel = proteome[screen.index]
            res = cross_validate(Ridge(alpha=1.0), panel, crp_score, cv=kf,
                                 scoring=("r2", "neg_mean_absolute_error"))
            print(f"{panel.shape[1]} screened proteins, e.g. {list(screen.index[:5])}")
            print(f"CV R^2 = {res['test_r2'].mean():.3f}, "
                  f"MAE = {-res['test_neg_mean_absolute_error'].mean():.3f}")
        """),
    ),
    Case(
        id="leakage-corrwith-screen-proteome-sound",
        family=None,
        twin="leakage-corrwith-screen-proteome",
        split="holdout2",
        note="The correlation screen is a pipeline step (SelectKBest with r_regression "
        "magnitudes), so it is redone on each training fold.",
        code=_PANEL + dedent("""\
            from sklearn.feature_selection import SelectKBest, r_regression
            from sklearn.pipeline import Pipeline


            def abs_r(X, y):
                return np.abs(r_regression(X, y))


            model = Pipeline([("screen", SelectKBest(abs_r, k=20)), ("ridge", Ridge(alpha=1.0))])
            res = cross_validate(model, proteome, crp_score, cv=kf,
                                 scoring=("r2", "neg_mean_absolute_error"))
            print("20 proteins screened inside each training fold")
            print(f"CV R^2 = {res['test_r2'].mean():.3f}, "
                  f"MAE = {-res['test_neg_mean_absolute_error'].mean():.3f}")
        """),
    ),
    Case(
        id="leakage-lda-projection-eeg",
        family="leakage",
        twin="leakage-lda-projection-eeg-sound",
        split="holdout2",
        note="LinearDiscriminantAnalysis.fit_transform(X, y) on all trials (a supervised "
        "projection using every label), then the classifier is cross-validated on it.",
        code=_EEG + dedent("""\

            lda_axis = LinearDiscriminantAnalysis(n_components=1).fit_transform(
                band_power, condition)
            scores = cross_validate(LogisticRegression(), lda_axis, condition, cv=cv,
                                    scoring=["accuracy", "roc_auc"])
            print(f"decoding accuracy {scores['test_accuracy'].mean():.3f}, "
                  f"AUC {scores['test_roc_auc'].mean():.3f} over {cv.get_n_splits()} folds")
        """),
    ),
    Case(
        id="leakage-lda-projection-eeg-sound",
        family=None,
        twin="leakage-lda-projection-eeg",
        split="holdout2",
        note="LDA projection and classifier chained in a pipeline, so the projection is "
        "learned from the training folds only (chance-level decoding, as it should be).",
        code=_EEG + dedent("""\
            from sklearn.pipeline import make_pipeline

            decoder = make_pipeline(LinearDiscriminantAnalysis(n_components=1),
                                    LogisticRegression())
            scores = cross_validate(decoder, band_power, condition, cv=cv,
                                    scoring=["accuracy", "roc_auc"])
            print(f"decoding accuracy {scores['test_accuracy'].mean():.3f}, "
                  f"AUC {scores['test_roc_auc'].mean():.3f} over {cv.get_n_splits()} folds")
        """),
    ),
]
