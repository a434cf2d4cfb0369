"""Leakage, holdout9 idioms: gut-microbiome marker taxa ranked by a CLR log-fold-change screen
over every sample before a leave-one-out logistic classifier, and recursive feature elimination
over aircraft health-monitoring channels fitted on the whole fleet before cross_validate."""

from textwrap import dedent

from bench.critic_corpus import Case

_MICROBIOME = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9101)
n_samples, n_taxa = 72, 1200
ibd = rng.permutation(np.r_[np.ones(36, int), np.zeros(36, int)])
base = rng.dirichlet(np.full(n_taxa, 0.25))
rows = []
for status in ibd:
    alpha = base * 300 + 1e-3
    if status:
        alpha[:4] *= 1.6  # a few taxa mildly enriched in IBD
    depth = int(rng.integers(8_000, 40_000))
    rows.append(rng.multinomial(depth, rng.dirichlet(alpha)))
sample_ids = [f"S{i:03d}" for i in range(n_samples)]
otu = pd.DataFrame(rows, columns=[f"ASV_{i:04d}" for i in range(n_taxa)], index=sample_ids)
meta = pd.DataFrame({"ibd": ibd, "age": rng.integers(18, 70, n_samples)}, index=sample_ids)
"""

_FLEET = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9102)
n_obs = 240
systems = ["egt", "n1vib", "n2vib", "oil_p", "oil_t", "ff", "bleed", "pack", "hyd", "apu"]
stats_ = ["mean", "sd", "max", "slope", "p95", "n_exc"]
cols = {f"{s}_{st}_{w}": rng.normal(size=n_obs)
        for s in systems for st in stats_ for w in ("7d", "30d", "90d")}
fleet = pd.DataFrame(cols)
fleet.insert(0, "tail", [f"G-{chr(65 + i % 26)}{chr(65 + i // 26)}XZ" for i in range(n_obs)])
risk = (-1.3 + 0.6 * fleet["egt_slope_30d"] + 0.5 * fleet["oil_t_max_7d"]
        + 0.4 * fleet["n2vib_p95_30d"])
fleet["removal_90d"] = (rng.random(n_obs) < 1 / (1 + np.exp(-risk))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="leakage-h9-microbiome-lfc-screen-before-loo",
        family="leakage",
        twin="leakage-h9-microbiome-lfc-screen-before-loo-sound",
        split="holdout9",
        setup=_MICROBIOME,
        note="The 25 marker taxa are chosen by their IBD-vs-control log fold change computed on "
        "all 72 samples, including each held-out sample, so the LOO AUC is inflated.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import LeaveOneOut, cross_val_predict

            # centred log-ratio with a pseudocount, per sample
            logc = np.log(otu + 0.5)
            clr = logc.sub(logc.mean(axis=1), axis=0)
            prevalent = clr.columns[(otu > 0).mean() >= 0.25]
            clr = clr[prevalent]

            is_ibd = meta["ibd"].eq(1)
            lfc = clr[is_ibd].mean() - clr[~is_ibd].mean()
            markers = lfc.abs().nlargest(25).index

            clf = LogisticRegression(C=0.5, solver="liblinear")
            probs = cross_val_predict(clf, clr[markers], meta["ibd"], cv=LeaveOneOut(),
                                      method="predict_proba")[:, 1]
            print(f"{len(prevalent)} prevalent taxa -> {len(markers)} marker taxa")
            print(f"leave-one-out AUC, IBD vs control: {roc_auc_score(meta['ibd'], probs):.3f}")
        """),
    ),
    Case(
        id="leakage-h9-microbiome-lfc-screen-before-loo-sound",
        family=None,
        twin="leakage-h9-microbiome-lfc-screen-before-loo",
        split="holdout9",
        setup=_MICROBIOME,
        note="The fold-change screen is recomputed inside every leave-one-out fold from the "
        "training samples only; the held-out sample never influences which taxa are used.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import LeaveOneOut

            # centred log-ratio with a pseudocount, per sample
            logc = np.log(otu + 0.5)
            clr = logc.sub(logc.mean(axis=1), axis=0)
            prevalent = clr.columns[(otu > 0).mean() >= 0.25]
            clr = clr[prevalent]
            y = meta["ibd"]

            clf = LogisticRegression(C=0.5, solver="liblinear")
            probs = np.empty(len(clr))
            for train_idx, test_idx in LeaveOneOut().split(clr):
                tr, y_tr = clr.iloc[train_idx], y.iloc[train_idx]
                lfc = tr[y_tr.eq(1)].mean() - tr[y_tr.eq(0)].mean()
                markers = lfc.abs().nlargest(25).index
                clf.fit(tr[markers], y_tr)
                probs[test_idx] = clf.predict_proba(clr.iloc[test_idx][markers])[:, 1]

            print(f"{len(prevalent)} prevalent taxa -> 25 marker taxa per fold")
            print(f"leave-one-out AUC, IBD vs control: {roc_auc_score(y, probs):.3f}")
        """),
    ),
    Case(
        id="leakage-h9-aircraft-rfe-before-cross-validate",
        family="leakage",
        twin="leakage-h9-aircraft-rfe-before-cross-validate-sound",
        split="holdout9",
        setup=_FLEET,
        note="RFE picks 12 of 180 health-monitoring channels using the removal labels of the "
        "whole fleet, then the model is cross-validated on those channels: optimistic AUC.",
        code=dedent("""\
            from sklearn.feature_selection import RFE
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = fleet.drop(columns=["tail", "removal_90d"])
            y = fleet["removal_90d"]

            selector = RFE(LogisticRegression(C=0.5, solver="liblinear"),
                           n_features_to_select=12, step=15)
            selector.fit(StandardScaler().fit_transform(X), y)
            channels = X.columns[selector.support_]

            model = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, solver="liblinear"))
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
            res = cross_validate(model, X[channels], y, cv=cv,
                                 scoring=["roc_auc", "average_precision"])
            print(f"removal rate: {y.mean():.1%}; channels kept: {len(channels)}")
            print(f"CV ROC AUC: {res['test_roc_auc'].mean():.3f} "
                  f"(+/- {res['test_roc_auc'].std():.3f})")
            print(f"CV average precision: {res['test_average_precision'].mean():.3f}")
        """),
    ),
    Case(
        id="leakage-h9-aircraft-rfe-before-cross-validate-sound",
        family=None,
        twin="leakage-h9-aircraft-rfe-before-cross-validate",
        split="holdout9",
        setup=_FLEET,
        note="RFE is a step of the pipeline, so cross_validate refits the channel selection on "
        "each training fold and the held-out aircraft are scored honestly.",
        code=dedent("""\
            from sklearn.feature_selection import RFE
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = fleet.drop(columns=["tail", "removal_90d"])
            y = fleet["removal_90d"]

            model = make_pipeline(
                StandardScaler(),
                RFE(LogisticRegression(C=0.5, solver="liblinear"),
                    n_features_to_select=12, step=15),
                LogisticRegression(C=0.5, solver="liblinear"),
            )
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
            res = cross_validate(model, X, y, cv=cv, scoring=["roc_auc", "average_precision"])
            print(f"removal rate: {y.mean():.1%}; channels kept per fold: 12")
            print(f"CV ROC AUC: {res['test_roc_auc'].mean():.3f} "
                  f"(+/- {res['test_roc_auc'].std():.3f})")
            print(f"CV average precision: {res['test_average_precision'].mean():.3f}")
        """),
    ),
]
