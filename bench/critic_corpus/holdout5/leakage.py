"""Leakage, holdout5 idioms: an IterativeImputer run over the whole admissions table (the
length-of-stay label included as a predictor for the missing labs) before train_test_split, and
a numpy-only SNP screen on every patient followed by a hand-written leave-one-out
nearest-centroid classifier."""

from textwrap import dedent

from bench.critic_corpus import Case

_ADMISSIONS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 1500
adm = pd.DataFrame({
    "age": rng.integers(18, 95, n),
    "emergency": rng.integers(0, 2, n),
    "n_comorbid": rng.poisson(1.5, n),
    "albumin_g_l": rng.normal(38, 5, n).round(1),
    "crp_mg_l": rng.lognormal(2.5, 0.9, n).round(1),
    "creatinine_umol_l": rng.lognormal(4.4, 0.3, n).round(0),
})
logit = (-1.6 + 0.015 * (adm.age - 60) + 0.5 * adm.emergency + 0.2 * adm.n_comorbid
         - 0.15 * (adm.albumin_g_l - 38) + 1.2 * (np.log(adm.crp_mg_l) - 2.5))
adm["long_stay"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)   # LOS > 7 days
# the admission lab panel is only drawn for about half of the patients
no_panel = rng.random(n) < 0.55
adm.loc[no_panel, ["albumin_g_l", "crp_mg_l", "creatinine_umol_l"]] = np.nan
"""

_GENOTYPES = """\
import numpy as np

rng = np.random.default_rng(314)
n_patients, n_snps = 80, 3000
maf = rng.uniform(0.05, 0.5, n_snps)
geno = rng.binomial(2, maf, (n_patients, n_snps)).astype(float)   # 0/1/2 minor alleles
# drug response depends weakly on four SNPs; the other 2,996 are unrelated
score = geno[:, [10, 200, 1500, 2750]].sum(axis=1) - 2 * maf[[10, 200, 1500, 2750]].sum()
responder = (score + rng.normal(0, 2.0, n_patients) > 0).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="leakage-iterative-imputer-with-label-los",
        family="leakage",
        twin="leakage-iterative-imputer-with-label-los-sound",
        split="holdout5",
        setup=_ADMISSIONS,
        note="IterativeImputer is fitted on the whole table with long_stay as one of its "
        "predictors, so the imputed labs of test patients are computed from their own label.",
        code=dedent("""\
            from sklearn.experimental import enable_iterative_imputer  # noqa: F401
            from sklearn.ensemble import HistGradientBoostingClassifier
            from sklearn.impute import IterativeImputer
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            # fill the missing admission labs before modelling
            imputer = IterativeImputer(max_iter=10, random_state=0)
            adm_filled = pd.DataFrame(imputer.fit_transform(adm), columns=adm.columns)

            X = adm_filled.drop(columns="long_stay")
            y = adm_filled["long_stay"].astype(int)
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=8)
            gbm = HistGradientBoostingClassifier(max_depth=3, random_state=0).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1])
            print(f"prolonged stay (> 7 days): test ROC AUC = {auc:.3f} on {len(y_te)} admissions")
        """),
    ),
    Case(
        id="leakage-iterative-imputer-with-label-los-sound",
        family=None,
        twin="leakage-iterative-imputer-with-label-los",
        split="holdout5",
        setup=_ADMISSIONS,
        note="Split first; the imputer sees only the features and is a pipeline step fitted on "
        "the training admissions, so test labels never shape the imputed labs.",
        code=dedent("""\
            from sklearn.experimental import enable_iterative_imputer  # noqa: F401
            from sklearn.ensemble import HistGradientBoostingClassifier
            from sklearn.impute import IterativeImputer
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline

            X = adm.drop(columns="long_stay")
            y = adm["long_stay"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=8)
            model = make_pipeline(IterativeImputer(max_iter=10, random_state=0),
                                  HistGradientBoostingClassifier(max_depth=3, random_state=0))
            model.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
            print(f"prolonged stay (> 7 days): test ROC AUC = {auc:.3f} on {len(y_te)} admissions")
        """),
    ),
    Case(
        id="leakage-snp-screen-then-loo-centroid",
        family="leakage",
        twin="leakage-snp-screen-then-loo-centroid-sound",
        split="holdout5",
        setup=_GENOTYPES,
        note="The 30 SNPs with the largest responder/non-responder dosage gap are picked using "
        "all 80 patients, then leave-one-out is run on them: each held-out patient chose the SNPs.",
        code=dedent("""\
            def dosage_gap(g, lab):
                return np.abs(g[lab == 1].mean(axis=0) - g[lab == 0].mean(axis=0))


            top = np.argsort(dosage_gap(geno, responder))[::-1][:30]
            G = geno[:, top]

            hits = 0
            for i in range(n_patients):
                keep = np.arange(n_patients) != i
                c1 = G[keep & (responder == 1)].mean(axis=0)
                c0 = G[keep & (responder == 0)].mean(axis=0)
                guess = int(np.sum((G[i] - c1) ** 2) < np.sum((G[i] - c0) ** 2))
                hits += guess == responder[i]
            print(f"30-SNP signature, leave-one-out accuracy: {hits / n_patients:.2f} "
                  f"(responders: {responder.mean():.0%})")
        """),
    ),
    Case(
        id="leakage-snp-screen-then-loo-centroid-sound",
        family=None,
        twin="leakage-snp-screen-then-loo-centroid",
        split="holdout5",
        setup=_GENOTYPES,
        note="The SNP screen is redone inside the leave-one-out loop on the 79 training "
        "patients only, so the held-out patient plays no part in choosing the signature.",
        code=dedent("""\
            def dosage_gap(g, lab):
                return np.abs(g[lab == 1].mean(axis=0) - g[lab == 0].mean(axis=0))


            hits = 0
            for i in range(n_patients):
                keep = np.arange(n_patients) != i
                top = np.argsort(dosage_gap(geno[keep], responder[keep]))[::-1][:30]
                G = geno[:, top]
                c1 = G[keep & (responder == 1)].mean(axis=0)
                c0 = G[keep & (responder == 0)].mean(axis=0)
                guess = int(np.sum((G[i] - c1) ** 2) < np.sum((G[i] - c0) ** 2))
                hits += guess == responder[i]
            print(f"30-SNP signature, leave-one-out accuracy: {hits / n_patients:.2f} "
                  f"(responders: {responder.mean():.0%})")
        """),
    ),
]
