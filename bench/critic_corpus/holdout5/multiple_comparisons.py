"""Multiple comparisons, holdout5 idioms: a weekend-effect screen of 8 operational metrics in 6
hospital wards built by a nested list comprehension of Mann-Whitney tests, and a lag scan of a
news-sentiment index against CDS spread changes at 30 lags, every lag with p < 0.05 reported as a
lead."""

from textwrap import dedent

from bench.critic_corpus import Case

_EPISODES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1248)
wards = ["cardiology", "respiratory", "general surgery", "orthopaedics", "stroke", "elderly care"]
n = 2400
episodes = pd.DataFrame({
    "ward": rng.choice(wards, n),
    "weekend": rng.random(n) < 2 / 7,
})
episodes["los_days"] = rng.lognormal(1.6, 0.6, n).round(1)
episodes["hrs_to_consultant"] = rng.gamma(2.0, 5.0, n).round(1)
# the only real weekend effect: CT is run by a skeleton crew on Saturdays and Sundays
episodes["hrs_to_ct"] = (rng.gamma(2.0, 2.0, n) * np.where(episodes.weekend, 1.8, 1.0)).round(1)
episodes["lab_tat_min"] = rng.gamma(4.0, 15.0, n).round(0)
episodes["med_delay_min"] = rng.exponential(35, n).round(0)
episodes["discharge_hour"] = rng.normal(14.5, 2.5, n).clip(8, 22).round(1)
episodes["nurse_ratio"] = rng.normal(6.5, 1.0, n).round(2)
episodes["pain_score"] = rng.normal(3.5, 1.8, n).clip(0, 10).round(1)
metrics = ["los_days", "hrs_to_consultant", "hrs_to_ct", "lab_tat_min", "med_delay_min",
           "discharge_hour", "nurse_ratio", "pain_score"]
"""

_CDS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(3030)
n_days = 760
market = pd.DataFrame({
    "date": pd.bdate_range("2021-01-04", periods=n_days),
    "sentiment": rng.normal(0, 1, n_days).round(3),               # daily news-sentiment index
    "cds_chg_bp": (rng.standard_t(5, n_days) * 2.4).round(2),     # 5y CDS spread change, bp
})
"""

CASES: list[Case] = [
    Case(
        id="multcomp-weekend-effect-ward-metric-grid",
        family="multiple_comparisons",
        twin="multcomp-weekend-effect-ward-metric-grid-sound",
        split="holdout5",
        setup=_EPISODES,
        note="48 Mann-Whitney tests (6 wards x 8 metrics) each judged at p < 0.05 with no "
        "correction; about 2-3 of the 'weekend effects' are expected by chance alone.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            tests = pd.DataFrame([
                {"ward": ward, "metric": m,
                 "weekend_median": grp.loc[grp.weekend, m].median(),
                 "weekday_median": grp.loc[~grp.weekend, m].median(),
                 "p": mannwhitneyu(grp.loc[grp.weekend, m], grp.loc[~grp.weekend, m]).pvalue}
                for ward, grp in episodes.groupby("ward")
                for m in metrics
            ])
            weekend_effects = tests[tests.p < 0.05].sort_values("p")
            print(f"{len(tests)} ward x metric comparisons, "
                  f"{len(weekend_effects)} with a weekend effect:")
            print(weekend_effects.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-weekend-effect-ward-metric-grid-sound",
        family=None,
        twin="multcomp-weekend-effect-ward-metric-grid",
        split="holdout5",
        setup=_EPISODES,
        note="Same 48 Mann-Whitney tests, but weekend effects are declared on "
        "Benjamini-Hochberg adjusted p-values across the whole grid.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu
            from statsmodels.stats.multitest import multipletests

            tests = pd.DataFrame([
                {"ward": ward, "metric": m,
                 "weekend_median": grp.loc[grp.weekend, m].median(),
                 "weekday_median": grp.loc[~grp.weekend, m].median(),
                 "p": mannwhitneyu(grp.loc[grp.weekend, m], grp.loc[~grp.weekend, m]).pvalue}
                for ward, grp in episodes.groupby("ward")
                for m in metrics
            ])
            tests["p_fdr"] = multipletests(tests.p, alpha=0.05, method="fdr_bh")[1]
            weekend_effects = tests[tests.p_fdr < 0.05].sort_values("p_fdr")
            print(f"{len(tests)} ward x metric comparisons, "
                  f"{len(weekend_effects)} with a weekend effect at FDR 5%:")
            print(weekend_effects.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-sentiment-lag-scan-cds",
        family="multiple_comparisons",
        twin="multcomp-sentiment-lag-scan-cds-sound",
        split="holdout5",
        setup=_CDS,
        note="Pearson tests at 30 lags, and every lag with p < 0.05 is reported as a lead of "
        "sentiment over spreads, with no correction for scanning 30 lags.",
        code=dedent("""\
            from scipy.stats import pearsonr


            def lagged_test(k):
                pair = pd.concat([market.sentiment.shift(k), market.cds_chg_bp], axis=1).dropna()
                r, p = pearsonr(pair.iloc[:, 0], pair.iloc[:, 1])
                return {"lag_days": k, "r": r, "p": p}


            scan = pd.DataFrame([lagged_test(k) for k in range(1, 31)])
            leads = scan[scan.p < 0.05]
            print("sentiment leads CDS spread changes at lags:", leads.lag_days.tolist())
            print(leads.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-sentiment-lag-scan-cds-sound",
        family=None,
        twin="multcomp-sentiment-lag-scan-cds",
        split="holdout5",
        setup=_CDS,
        note="Same 30-lag scan, with Holm-adjusted p-values across the lags deciding which "
        "leads are reported.",
        code=dedent("""\
            from scipy.stats import pearsonr
            from statsmodels.stats.multitest import multipletests


            def lagged_test(k):
                pair = pd.concat([market.sentiment.shift(k), market.cds_chg_bp], axis=1).dropna()
                r, p = pearsonr(pair.iloc[:, 0], pair.iloc[:, 1])
                return {"lag_days": k, "r": r, "p": p}


            scan = pd.DataFrame([lagged_test(k) for k in range(1, 31)])
            scan["p_holm"] = multipletests(scan.p, method="holm")[1]
            leads = scan[scan.p_holm < 0.05]
            print("sentiment leads CDS spread changes at lags:", leads.lag_days.tolist())
            print(f"smallest Holm-adjusted p over 30 lags: {scan.p_holm.min():.3f} "
                  f"(raw p {scan.p.min():.4f} at lag {int(scan.lag_days[scan.p.idxmin()])})")
        """),
    ),
]
