"""The family's vocabulary: which quantity a name, a call or a label stands for
(p-value, R², accuracy, correlation, variance…), the tokens that say train / test or
rule a name out, and the small helpers that split and format names and numbers."""

from __future__ import annotations

import itertools
import re

# -- vocabulary -------------------------------------------------------------------------------

# Quantities: pvalue | r2 | adj_r2 | accuracy | auc | f1 | bounded | probability |
# correlation | variance | error | score (generic: R² for regressors, accuracy for classifiers)
# | reliability (Cronbach's alpha, KR-20, McDonald's omega)
PERFECT_QUANTITIES = {"r2", "accuracy", "auc", "f1", "score"}
METRIC_QUANTITIES = PERFECT_QUANTITIES | {"bounded", "error", "adj_r2", "pct_error"}

_METRIC_CALLS = {
    "r2_score": "r2", "accuracy_score": "accuracy", "balanced_accuracy_score": "accuracy",
    "roc_auc_score": "auc", "auc": "auc", "average_precision_score": "auc",
    "f1_score": "f1", "fbeta_score": "f1", "precision_score": "bounded",
    "recall_score": "bounded", "jaccard_score": "bounded", "matthews_corrcoef": "correlation",
    "corr": "correlation", "corrcoef": "correlation", "pearsonr": "correlation",
    "spearmanr": "correlation", "kendalltau": "correlation", "pointbiserialr": "correlation",
    "var": "variance", "std": "variance", "sem": "variance", "nanvar": "variance",
    "nanstd": "variance", "variance": "variance", "stdev": "variance", "pvariance": "variance",
    "pstdev": "variance", "predict_proba": "probability", "cdf": "probability",
    "sf": "probability", "expit": "probability", "softmax": "probability",
    "mean_squared_error": "error", "mean_absolute_error": "error",
    "root_mean_squared_error": "error", "multipletests": "pvalue_clipped",
    "mean_absolute_percentage_error": "pct_error",
    "fdrcorrection": "pvalue_clipped", "false_discovery_control": "pvalue_clipped",
}
_STAT_TESTS = {
    "ttest_ind", "ttest_rel", "ttest_1samp", "mannwhitneyu", "wilcoxon", "ranksums",
    "kruskal", "f_oneway", "chi2_contingency", "chisquare", "fisher_exact", "ks_2samp",
    "kstest", "shapiro", "normaltest", "levene", "bartlett", "friedmanchisquare",
    "brunnermunzel", "binomtest", "binom_test", "pearsonr", "spearmanr", "kendalltau",
    "pointbiserialr", "anderson_ksamp", "permutation_test", "ztest", "proportions_ztest",
}
_CORR_TESTS = {"pearsonr", "spearmanr", "kendalltau", "pointbiserialr"}
# Origins that name a test's result object rather than a number.
_NOT_A_VALUE = {None, "test_result", "test_result_corr"}
# Calls that pass their input's meaning through: mean of cv scores, round(acc, 3)…
_TRANSPARENT = {"mean", "median", "nanmean", "nanmedian", "float", "round", "item", "squeeze",
                "abs", "max", "min", "amax", "amin", "average", "nanmax", "nanmin", "tolist",
                "to_numpy", "asarray", "array", "values", "sort_values", "sorted", "list"}
_CLIP_CALLS = {"min", "minimum", "clip", "fmin"}

_EXCLUDE_TOKENS = {
    "diff", "delta", "change", "gain", "improvement", "log", "logp", "log10", "neglog", "neg",
    "gap", "drop", "shift", "lift", "loss", "threshold", "thresh", "alpha", "level", "cutoff",
    "n", "num", "count", "counts", "idx", "index", "rank", "z", "zscore", "resid", "residual",
    "residuals", "explained", "scaled", "scaler", "standardized", "normalized", "norm",
    "logit", "logits", "odds", "ratio", "density", "pdf", "likelihood", "ll", "total", "sum",
    "cum", "cumsum", "expected", "dof", "df", "nobs", "size", "weight", "weights", "std_err",
}
# an internal-consistency reliability coefficient: at most 1, and below 0 only when items
# are keyed in opposite directions (`cronbach_alpha`, `alpha_cronbach`, `kr20`)
_RELIABILITY_TOKENS = {"cronbach", "cronbachs", "kr20", "kr21", "mcdonald"}
_TRAIN_TOKENS = {"train", "training", "trn", "tr", "insample", "fit", "fitted"}
_TEST_TOKENS = {"test", "testing", "tst", "te", "val", "valid", "validation", "holdout", "hold",
                "heldout", "oos", "cv", "oof", "fold", "folds", "eval", "dev"}
_PVALUE_MODIFIERS = {"adj", "adjusted", "corr", "corrected", "bonf", "bonferroni", "holm",
                     "fdr", "bh", "val", "value", "values", "vals", "raw", "sidak", "sided",
                     "tailed", "twosided", "onesided", "perm", "exact", "boot"}

_NAME_QUANTITY = {
    "r2": "r2", "rsq": "r2", "rsquared": "r2", "r2s": "r2", "r2score": "r2",
    "pval": "pvalue", "pvals": "pvalue", "pvalue": "pvalue", "pvalues": "pvalue",
    "padj": "pvalue", "pcorr": "pvalue", "qval": "pvalue", "qvals": "pvalue",
    "qvalue": "pvalue", "qvalues": "pvalue", "fdr": "pvalue", "pbonf": "pvalue",
    "pv": "pvalue", "pvs": "pvalue", "pvalue_adj": "pvalue",
    "acc": "accuracy", "accuracy": "accuracy", "accs": "accuracy", "accuracies": "accuracy",
    "auc": "auc", "aucs": "auc", "auroc": "auc", "rocauc": "auc",
    "f1": "f1", "f1s": "f1",
    "precision": "bounded", "recall": "bounded", "sensitivity": "bounded",
    "specificity": "bounded", "tpr": "bounded", "fpr": "bounded", "ppv": "bounded",
    "npv": "bounded",
    "corr": "correlation", "correlation": "correlation", "correlations": "correlation",
    "corrs": "correlation", "rho": "correlation", "pearson": "correlation",
    "spearman": "correlation", "kendall": "correlation", "rval": "correlation",
    "rvalue": "correlation",
    "var": "variance", "variance": "variance", "variances": "variance", "vars": "variance",
    "std": "variance", "stds": "variance", "sd": "variance", "sds": "variance",
    "stdev": "variance", "sigma": "variance", "sigmas": "variance", "sem": "variance",
    "stderr": "variance",
    "mse": "error", "rmse": "error", "mae": "error",
    "mape": "pct_error", "smape": "pct_error", "mdape": "pct_error", "mapes": "pct_error",
    "prob": "probability", "probs": "probability", "proba": "probability",
    "probas": "probability", "probability": "probability", "probabilities": "probability",
    "phat": "probability",
}
# tokens that make "pearson" a goodness-of-fit statistic (Pearson's chi-square, the Pearson
# dispersion chi2 / df, Pearson residuals) rather than a correlation coefficient
_PEARSON_STAT_TOKENS = {"chi", "chi2", "chisq", "chisquare", "x2", "dispersion", "disp", "resid",
                        "residual", "residuals", "gof", "goodness", "stat", "statistic"}
_PLURAL_VARIANCE = {"variances", "vars", "stds", "sds", "sigmas"}

_CLASSIFIER_RE = re.compile(
    r"(Classifier|LogisticRegression\w*|SVC|NB|DiscriminantAnalysis|Perceptron)$")
_REGRESSOR_RE = re.compile(
    r"(Regressor|(?<!Logistic)Regression|Ridge|RidgeCV|Lasso\w*|ElasticNet\w*|SVR|Lars\w*|"
    r"BayesianRidge|KernelRidge|ARDRegression)$")

# -- small helpers ----------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


_TOKEN_SEP = re.compile(r"[_\W]+")


def _tokens(name: str) -> list[str]:
    return [t for t in _TOKEN_SEP.split(_CAMEL.sub("_", name).lower()) if t]


# `std` / `sd` in front of these nouns means "standardised" (a standardised coefficient,
# effect size or score, signed by nature), not "standard deviation of"; after them it is the
# spread of the quantity (`coef_std`, `std_test_score` keep their meaning)
_STANDARDISED_HEADS = {"coef", "coefs", "coeff", "coeffs", "coefficient", "coefficients",
                       "beta", "betas", "b", "effect", "effects", "es", "score", "scores",
                       "estimate", "estimates", "loading", "loadings", "resid", "residual",
                       "residuals", "diff", "difference", "differences", "slope", "slopes"}


def _standardised(toks: list[str]) -> bool:
    """`std_coef`, `sd_beta`, `stdBeta`, `std_effect`: a standardised (signed) quantity."""
    return any(t in ("std", "sd", "stdz") and nxt in _STANDARDISED_HEADS
               for t, nxt in itertools.pairwise(toks))


def _name_quantity(name: str) -> tuple[str, bool] | None:
    """(quantity, strong) from an identifier or a column name; None when it says nothing
    or says something that may legitimately leave the range (a difference, a log, a count,
    a standardised coefficient `std_coef`)."""
    toks = _tokens(name)
    if toks and set(toks) & _RELIABILITY_TOKENS and not any(
            t in _EXCLUDE_TOKENS and t != "alpha" for t in toks):
        return "reliability", True  # `cronbach_alpha`, `alpha_cronbach`, `kr20`
    if not toks or any(t in _EXCLUDE_TOKENS for t in toks) or _standardised(toks):
        return None
    joined = "".join(toks)
    if joined in _NAME_QUANTITY:
        return _NAME_QUANTITY[joined], True
    if "r" in toks and ("squared" in toks or "sq" in toks):
        return ("adj_r2" if "adj" in toks or "adjusted" in toks else "r2"), True
    found: tuple[str, bool] | None = None
    pearson_stat = bool(set(toks) & _PEARSON_STAT_TOKENS)
    for t in toks:
        if t == "pearson" and pearson_stat:
            continue  # `pearson_chi2`, `pearson_dispersion`: a fit statistic, not r
        q = _NAME_QUANTITY.get(t)
        if q is None and t.rstrip("s") in _NAME_QUANTITY and len(t) > 3:
            q = _NAME_QUANTITY[t.rstrip("s")]
        if q:
            if q == "r2" and ("adj" in toks or "adjusted" in toks):
                q = "adj_r2"
            found = (q, True)
    if found:
        return found
    if "p" in toks or "q" in toks:
        if any(t in _PVALUE_MODIFIERS for t in toks):
            return "pvalue", True
        return ("pvalue", False) if "p" in toks else None
    if "r" in toks:
        return "correlation", "value" in toks
    if "score" in toks or "scores" in toks:
        return "score", False
    return None


_SHORT_TRAIN = {"xtr", "ytr", "xtrain", "ytrain", "xtrn", "ytrn", "dtrain"}
_SHORT_TEST = {"xte", "yte", "xtest", "ytest", "xval", "yval", "xts", "yts", "dtest", "dval"}


def _context_of_tokens(toks: list[str]) -> str | None:
    if any(t in _TRAIN_TOKENS or t in _SHORT_TRAIN or t.endswith("train") for t in toks):
        return "train"
    if any(t in _TEST_TOKENS or t in _SHORT_TEST or t.endswith("test") for t in toks):
        return "test"
    return None


def _fmt(v: float) -> str:
    return f"{v:.4g}"
