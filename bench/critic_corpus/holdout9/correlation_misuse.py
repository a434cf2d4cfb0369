"""Correlation misuse, holdout9 idioms: a field refractometer declared interchangeable with the
winery's lab densitometer because the two Brix readings have Pearson r = 0.98 (correlation used
as agreement), and an insurance-fraud driver table built by LabelEncoder-coding every text
column and ranking DataFrame.corr() against the fraud flag."""

from textwrap import dedent

from bench.critic_corpus import Case

_BRIX = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9701)
n = 40
lab = rng.uniform(17.5, 26.5, n)
brix = pd.DataFrame({
    "block": rng.choice(["A1", "A2", "B1", "B3", "C2"], n),
    "variety": rng.choice(["Pinot noir", "Chardonnay", "Riesling"], n),
    "lab_brix": lab.round(1),
    "refract_brix": (1.09 * lab - 0.9 + rng.normal(0, 0.35, n)).round(1),
})
"""

_CLAIMS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9702)
n = 2400
claims = pd.DataFrame({
    "claim_id": np.arange(700_000, 700_000 + n),
    "incident_type": rng.choice(["Multi-vehicle", "Parked car", "Single vehicle", "Theft"], n),
    "authorities": rng.choice(["Ambulance", "Fire", "None", "Other", "Police"], n,
                              p=[0.15, 0.15, 0.2, 0.15, 0.35]),
    "severity": rng.choice(["Major Damage", "Minor Damage", "Total Loss", "Trivial Damage"], n),
    "policy_state": rng.choice(["IL", "IN", "OH"], n),
    "vehicle_age": rng.integers(0, 20, n),
    "claim_amount": rng.lognormal(8.6, 0.6, n).round(-1),
})
z = (-2.6 + 1.3 * claims.authorities.eq("None") + 1.1 * claims.severity.eq("Total Loss")
     + 0.5 * claims.incident_type.eq("Parked car") + 0.00002 * claims.claim_amount)
claims["fraud"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="correlation_misuse-h9-refractometer-agreement-by-r",
        family="correlation_misuse",
        twin="correlation_misuse-h9-refractometer-agreement-by-r-sound",
        split="holdout9",
        setup=_BRIX,
        note="A high Pearson r only shows the two instruments move together; it says nothing "
        "about agreement, and the refractometer reads about 1-1.5 Brix high (proportionally).",
        code=dedent("""\
            from scipy import stats

            r, p = stats.pearsonr(brix["lab_brix"], brix["refract_brix"])
            print(f"{len(brix)} juice samples, lab range "
                  f"{brix['lab_brix'].min():.1f}-{brix['lab_brix'].max():.1f} Brix")
            print(f"refractometer vs lab: r = {r:.3f} (p = {p:.1e}), r^2 = {r**2:.3f}")
            if r > 0.95:
                print("field refractometer agrees with the lab; "
                      "use field readings for pick decisions")
        """),
    ),
    Case(
        id="correlation_misuse-h9-refractometer-agreement-by-r-sound",
        family=None,
        twin="correlation_misuse-h9-refractometer-agreement-by-r",
        split="holdout9",
        setup=_BRIX,
        note="Agreement is assessed by a Bland-Altman analysis (mean bias, 95% limits of "
        "agreement and a check for proportional bias), not by the correlation coefficient.",
        code=dedent("""\
            from scipy import stats

            diff = brix["refract_brix"] - brix["lab_brix"]
            avg = (brix["refract_brix"] + brix["lab_brix"]) / 2
            bias, sd = diff.mean(), diff.std()
            trend = stats.linregress(avg, diff)
            print(f"{len(brix)} juice samples, lab range "
                  f"{brix['lab_brix'].min():.1f}-{brix['lab_brix'].max():.1f} Brix")
            print(f"bias (field - lab): {bias:+.2f} Brix, "
                  f"95% limits of agreement {bias - 1.96 * sd:+.2f} to {bias + 1.96 * sd:+.2f}")
            print(f"difference vs mean: slope {trend.slope:.3f} per Brix (p = {trend.pvalue:.1e})")
            if abs(bias) > 0.5:
                print("field readings are biased; correct them before pick decisions")
        """),
    ),
    Case(
        id="correlation_misuse-h9-fraud-labelencoded-corr-ranking",
        family="correlation_misuse",
        twin="correlation_misuse-h9-fraud-labelencoded-corr-ranking-sound",
        split="holdout9",
        setup=_CLAIMS,
        note="Nominal columns are turned into arbitrary alphabetical integer codes and "
        "Pearson-correlated with fraud, so strong non-monotone associations (no authorities "
        "contacted, total loss) look negligible.",
        code=dedent("""\
            from sklearn.preprocessing import LabelEncoder

            encoded = claims.drop(columns="claim_id")
            for col in encoded.select_dtypes(exclude="number").columns:
                encoded[col] = LabelEncoder().fit_transform(encoded[col])

            drivers = (encoded.corr()["fraud"].drop("fraud")
                       .sort_values(key=abs, ascending=False))
            print(f"fraud rate: {claims['fraud'].mean():.1%} of {len(claims)} claims")
            print("correlation with fraud flag:")
            print(drivers.round(3).to_string())
        """),
    ),
    Case(
        id="correlation_misuse-h9-fraud-labelencoded-corr-ranking-sound",
        family=None,
        twin="correlation_misuse-h9-fraud-labelencoded-corr-ranking",
        split="holdout9",
        setup=_CLAIMS,
        note="Nominal columns are measured against fraud with Cramer's V from the crosstab and "
        "numeric ones with the point-biserial correlation; no arbitrary codes are correlated.",
        code=dedent("""\
            from scipy.stats import chi2_contingency, pointbiserialr

            def cramers_v(x, y):
                tab = pd.crosstab(x, y)
                chi2 = chi2_contingency(tab, correction=False)[0]
                return np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))

            rows = []
            for col in claims.columns.drop(["claim_id", "fraud"]):
                if pd.api.types.is_numeric_dtype(claims[col]):
                    rows.append((col, "point-biserial r",
                                 pointbiserialr(claims["fraud"], claims[col])[0]))
                else:
                    rows.append((col, "Cramer's V", cramers_v(claims[col], claims["fraud"])))
            drivers = (pd.DataFrame(rows, columns=["column", "measure", "association"])
                       .sort_values("association", key=abs, ascending=False))
            print(f"fraud rate: {claims['fraud'].mean():.1%} of {len(claims)} claims")
            print("association with fraud flag:")
            print(drivers.round(3).to_string(index=False))
        """),
    ),
]
