from bench.critic_corpus import Case

_PARTY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1789)
n = 1400
# codebook: partyid 1=Labour 2=Conservative 3=Lib Dem 4=Green 5=Reform 6=SNP/PC 7=None/DK
party_labels = {1: "Labour", 2: "Conservative", 3: "Lib Dem", 4: "Green", 5: "Reform",
                6: "SNP/PC", 7: "None/DK"}
w = pd.DataFrame({"partyid": rng.choice(np.arange(1, 8), n,
                                        p=[0.30, 0.22, 0.10, 0.07, 0.12, 0.05, 0.14])})
# govt approval, 1 = strongly approve ... 4 = strongly disapprove
appr_probs = {1: [0.30, 0.42, 0.18, 0.10], 2: [0.05, 0.15, 0.35, 0.45],
              3: [0.10, 0.35, 0.35, 0.20], 4: [0.08, 0.30, 0.37, 0.25],
              5: [0.03, 0.07, 0.30, 0.60], 6: [0.10, 0.30, 0.35, 0.25],
              7: [0.08, 0.25, 0.37, 0.30]}
w["govt_approval"] = [rng.choice([1, 2, 3, 4], p=appr_probs[k]) for k in w["partyid"]]
w["weight"] = rng.lognormal(0, 0.3, n).round(3)
'''

_TRACKER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2008)
months = pd.period_range("2021-01", "2024-12", freq="M")
t = np.arange(len(months))
# two monthly tracker series that both drift upward through the recovery
confidence = -28 + 0.45 * t + np.cumsum(rng.normal(0, 0.7, len(t)))
approval = 31 + 0.22 * t + np.cumsum(rng.normal(0, 0.45, len(t)))
tracker = pd.DataFrame({"gfk_style_confidence": confidence.round(1),
                        "govt_approval_pct": approval.round(1),
                        "n_interviews": rng.integers(950, 1100, len(t))}, index=months)
'''

CASES: list[Case] = [
    Case(
        id="h31-correlation-misuse-pearson-party-codes",
        family="correlation_misuse",
        setup=_PARTY_SETUP,
        code='''from scipy.stats import pearsonr

r, p = pearsonr(w["partyid"], w["govt_approval"])
print(f"party ID vs government approval: r = {r:.3f} (p = {p:.2g}, n = {len(w)})")
print(f"party explains {r ** 2:.1%} of the variation in approval")
''',
        twin="h31-correlation-misuse-pearson-party-codes-ok",
        note="Pearson r between the nominal party codes 1-7 (arbitrary order) and approval; the "
             "coefficient and r-squared depend on how parties happen to be numbered.",
        split="holdout31",
    ),
    Case(
        id="h31-correlation-misuse-pearson-party-codes-ok",
        family=None,
        setup=_PARTY_SETUP,
        code='''from scipy.stats import chi2_contingency

xt = pd.crosstab(w["partyid"].map(party_labels), w["govt_approval"])
chi2, p, dof, _ = chi2_contingency(xt)
cramers_v = np.sqrt(chi2 / (xt.to_numpy().sum() * (min(xt.shape) - 1)))
print(f"party ID x government approval: chi2({dof}) = {chi2:.1f}, p = {p:.2g}, "
      f"Cramer's V = {cramers_v:.3f} (unweighted, n = {len(w)})")
(100 * pd.crosstab(w["partyid"].map(party_labels), w["govt_approval"],
                   normalize="index")).round(1)
''',
        twin="h31-correlation-misuse-pearson-party-codes",
        note="Nominal party ID vs ordinal approval summarised with a crosstab, chi-square and "
             "Cramer's V instead of a Pearson r on codes.",
        split="holdout31",
    ),
    Case(
        id="h31-correlation-misuse-trending-tracker-series",
        family="correlation_misuse",
        setup=_TRACKER_SETUP,
        code='''r = tracker["gfk_style_confidence"].corr(tracker["govt_approval_pct"])
print(f"{len(tracker)} monthly waves, {tracker.index[0]} to {tracker.index[-1]}")
print(f"correlation, consumer confidence vs govt approval: r = {r:.2f}")
print(f"=> confidence accounts for {r ** 2:.0%} of the month-to-month movement in approval")
tracker.tail(6)
''',
        twin="h31-correlation-misuse-trending-tracker-series-ok",
        note="Correlates the levels of two trending monthly series; the high r reflects shared "
             "drift over time, not that confidence moves approval month to month.",
        split="holdout31",
    ),
    Case(
        id="h31-correlation-misuse-trending-tracker-series-ok",
        family=None,
        setup=_TRACKER_SETUP,
        code='''# both series trend over the period, so compare month-on-month changes, not levels
chg = tracker[["gfk_style_confidence", "govt_approval_pct"]].diff().dropna()
r = chg["gfk_style_confidence"].corr(chg["govt_approval_pct"])
print(f"{len(tracker)} monthly waves, {tracker.index[0]} to {tracker.index[-1]} "
      f"({len(chg)} monthly changes)")
print(f"correlation of monthly changes, confidence vs approval: r = {r:.2f}")
tracker.tail(6)
''',
        twin="h31-correlation-misuse-trending-tracker-series",
        note="Correlates first differences of the two trending series, so shared drift does not "
             "masquerade as co-movement.",
        split="holdout31",
    ),
]
