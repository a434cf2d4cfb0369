"""pseudoreplication: paired measurements tested as independent, and repeated measurements
of the same units counted as independent rows."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules.pseudoreplication import paired_as_independent as PAIRED
from critics.rules.pseudoreplication import repeated_units as REPEATED
from tests.rule_helpers import code_only, one, only, run, silent

WIDE = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(4)
n = 24
wide = pd.DataFrame({"subject": range(n), "pre": rng.normal(50, 10, n)})
wide["post"] = wide.pre + rng.normal(3, 4, n)
"""

CELLS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(5)
rows = []
for mouse in range(10):
    geno = "ko" if mouse % 2 else "wt"
    m_eff = rng.normal(0, 2)
    for cell in range(15):
        rows.append({"mouse_id": mouse, "genotype": geno, "amp": 10 + m_eff + rng.normal(0, 1)})
cells = pd.DataFrame(rows)
"""

SESSIONS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(19)
users = pd.DataFrame({"user_id": np.arange(400), "variant": np.repeat(["A", "B"], 200),
                      "propensity": rng.beta(0.6, 6, 400), "n_sessions": rng.poisson(3, 400) + 1})
sessions = users.loc[users.index.repeat(users.n_sessions)].reset_index(drop=True)
sessions["converted"] = (rng.random(len(sessions)) < sessions.propensity).astype(int)
"""


RULES = [PAIRED, REPEATED]


def findings(code: str, setup: str) -> list[Finding]:
    return run(RULES, code, setup)


def single(found: list[Finding], rule_id: str) -> Finding:
    """The one finding, of `rule_id`."""
    only(found)
    return one(found, rule_id)


def paired(code: str, setup: str = WIDE) -> Finding:
    return single(findings(code, setup), "pseudoreplication.paired_as_independent")


def repeated(code: str, setup: str = CELLS) -> Finding:
    return single(findings(code, setup), "pseudoreplication.repeated_units")


# -- paired data tested as independent ----------------------------------------------------------

def test_ttest_ind_on_pre_and_post_columns():
    f = paired("""
        t, p = stats.ttest_ind(wide["pre"], wide["post"])
        print(f"t={t:.2f}, p={p:.3f}")
    """)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert f.evidence["values"]["columns"] == ["pre", "post"]
    assert "ttest_rel" in f.suggestion


def test_mann_whitney_on_attribute_columns():
    f = paired("print(stats.mannwhitneyu(wide.pre, wide.post))")
    assert f.severity == "critical"
    assert "wilcoxon" in f.suggestion


def test_arrays_taken_from_the_columns():
    f = paired("""
        before = wide.pre.to_numpy(); after = wide["post"].values
        print(stats.ttest_ind(before, after))
    """)
    assert f.severity == "critical"


def test_anova_over_three_visits():
    f = paired("""
        wide["week12"] = wide.post + rng.normal(1, 3, n)
        wide2 = wide.rename(columns={"pre": "week0", "post": "week6"})
        print(stats.f_oneway(wide2.week0, wide2.week6, wide2.week12))
    """)
    assert f.severity == "critical"


def test_long_frame_filtered_on_time_with_repeated_subjects():
    f = paired("""
        long = wide.melt(id_vars="subject", value_vars=["pre", "post"], var_name="time",
                         value_name="score")
        res = stats.ttest_ind(long[long.time == "pre"].score, long[long.time == "post"].score)
        print(res.pvalue)
    """)
    assert f.severity == "critical" and f.evidence["values"]["units"] == 24


def test_query_on_a_time_column():
    f = paired("""
        long = wide.melt(id_vars="subject", value_vars=["pre", "post"], var_name="time",
                         value_name="score")
        print(stats.ttest_ind(long.query("time == 'pre'").score,
                              long.query("time == 'post'").score))
    """)
    assert f.severity == "critical"


def test_left_and_right_eye_columns():
    f = paired("""
        eyes = pd.DataFrame({"patient_id": range(30), "left_iop": rng.normal(16, 3, 30)})
        eyes["right_iop"] = eyes.left_iop + rng.normal(0, 1, 30)
        print(stats.mannwhitneyu(eyes["left_iop"], eyes["right_iop"]))
    """)
    assert f.severity == "critical"


def test_columns_of_a_frame_pivoted_to_one_row_per_subject():
    f = paired("""
        trials = pd.DataFrame({"subject": np.repeat(range(20), 2),
                               "condition": np.tile(["congruent", "incongruent"], 20),
                               "rt": rng.normal(500, 50, 40)})
        w = trials.pivot_table(index="subject", columns="condition", values="rt")
        print(stats.ttest_ind(w["congruent"], w["incongruent"]))
    """)
    assert f.severity == "critical" and "one row per `subject`" in f.explanation


def test_variables_named_like_time_points_with_equal_length():
    f = paired("""
        baseline = np.array([5.1, 6.2, 4.8, 5.9, 6.5, 5.0, 5.7, 6.1])
        followup = np.array([4.2, 5.1, 4.9, 5.0, 5.2, 4.4, 5.3, 5.0])
        print(stats.ttest_ind(baseline, followup))
    """)
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_code_only_pre_post_columns():
    f = single(code_only([PAIRED], """
        from scipy import stats
        stats.ttest_ind(df["score_pre"], df["score_post"])
    """), "pseudoreplication.paired_as_independent")
    assert f.severity == "critical"


def test_sound_ttest_rel_on_pre_and_post():
    silent(findings("print(stats.ttest_rel(wide['pre'], wide['post']))", WIDE))


def test_sound_wilcoxon():
    silent(findings("print(stats.wilcoxon(wide.pre, wide.post))", WIDE))


def test_sound_pivot_then_paired_test():
    silent(findings("""
        long = wide.melt(id_vars="subject", value_vars=["pre", "post"], var_name="time",
                         value_name="score")
        w = long.pivot(index="subject", columns="time", values="score")
        print(stats.ttest_rel(w["pre"], w["post"]))
    """, WIDE))


def test_sound_independent_groups_side_by_side():
    silent(findings("""
        groups = pd.DataFrame({"control": rng.normal(50, 10, 30),
                               "treated": rng.normal(55, 10, 30)})
        print(stats.ttest_ind(groups["control"], groups["treated"]))
    """, WIDE))


def test_sound_before_after_of_different_lengths():
    silent(findings("""
        before = rng.normal(size=20); after = rng.normal(size=26)
        print(stats.ttest_ind(before, after))
    """, WIDE))


def test_sound_before_and_after_a_date_are_different_rows():
    silent(findings("""
        daily = pd.DataFrame({"day": np.arange(60), "sales": rng.normal(100, 10, 60)})
        before = daily[daily.day < 30].sales
        after = daily[daily.day >= 30].sales
        print(stats.ttest_ind(before, after))
    """, WIDE))


def test_sound_pingouin_paired_flag():
    silent(code_only([PAIRED], """
        import pingouin as pg
        pg.ttest(df["pre"], df["post"], paired=True)
    """))


# -- repeated measurements of the same units -----------------------------------------------------

def test_cells_from_few_mice_compared_as_independent():
    f = repeated("""
        ko = cells[cells.genotype == "ko"].amp
        wt = cells[cells.genotype == "wt"].amp
        print(stats.ttest_ind(ko, wt))
    """)
    assert f.severity == "critical" and f.is_blocking(0.8)
    v = f.evidence["values"]
    assert v["rows"] == 150 and v["units"] == 10 and v["unit_column"] == "mouse_id"
    assert "mixedlm" in f.suggestion


def test_loc_selection_and_mann_whitney():
    f = repeated("""
        print(stats.mannwhitneyu(cells.loc[cells.genotype == "ko", "amp"],
                                 cells.loc[cells.genotype == "wt", "amp"]))
    """)
    assert f.severity == "critical"


def test_ols_on_rows_with_p_values_read():
    f = repeated("""
        fit = smf.ols("amp ~ genotype", data=cells).fit()
        print(fit.pvalues)
    """)
    assert f.severity == "critical"


def test_melted_groupby_comprehension_anova():
    f = repeated("""
        long = wide.melt(id_vars="subject", value_vars=["pre", "post"], var_name="time",
                         value_name="score")
        print(stats.f_oneway(*[g.score.values for _, g in long.groupby("time")]))
    """, WIDE)
    assert f.severity == "critical"


def test_chi_square_on_sessions_of_the_same_users():
    f = repeated("""
        table = pd.crosstab(sessions.variant, sessions.converted)
        chi2, p, dof, _ = stats.chi2_contingency(table)
        print(table, p)
    """, SESSIONS)
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] == "user_id"


def test_code_only_melted_frame():
    f = single(code_only([REPEATED], """
        from scipy import stats
        long = df.melt(id_vars=["patient_id"], var_name="visit", value_name="hb")
        stats.kruskal(*[g.hb for _, g in long.groupby("visit")])
    """), "pseudoreplication.repeated_units")
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_sound_aggregated_per_mouse():
    silent(findings("""
        per_mouse = cells.groupby(["mouse_id", "genotype"], as_index=False).amp.mean()
        print(stats.ttest_ind(per_mouse[per_mouse.genotype == "ko"].amp,
                              per_mouse[per_mouse.genotype == "wt"].amp))
    """, CELLS))


def test_sound_mixed_model():
    silent(findings("""
        fit = smf.mixedlm("amp ~ genotype", cells, groups=cells["mouse_id"]).fit()
        print(fit.summary())
    """, CELLS))


def test_sound_cluster_robust_ols():
    silent(findings("""
        fit = smf.ols("amp ~ genotype", data=cells).fit(cov_type="cluster",
                                                        cov_kwds={"groups": cells["mouse_id"]})
        print(fit.pvalues)
    """, CELLS))


def test_sound_one_row_per_subject():
    silent(findings("""
        df = pd.DataFrame({"patient_id": range(60), "arm": np.repeat(["drug", "placebo"], 30),
                           "bp": rng.normal(130, 12, 60)})
        print(stats.ttest_ind(df[df.arm == "drug"].bp, df[df.arm == "placebo"].bp))
    """, WIDE))


def test_sound_one_time_point_of_a_long_frame():
    silent(findings("""
        long = wide.assign(arm=np.where(wide.subject % 2, "a", "b")).melt(
            id_vars=["subject", "arm"], value_vars=["pre", "post"], var_name="time")
        post = long[long.time == "post"]
        print(stats.ttest_ind(post[post.arm == "a"].value, post[post.arm == "b"].value))
    """, WIDE))


def test_sound_chi_square_per_user():
    silent(findings("""
        per_user = sessions.groupby(["user_id", "variant"], as_index=False)["converted"].max()
        table = pd.crosstab(per_user.variant, per_user.converted)
        print(stats.chi2_contingency(table).pvalue)
    """, SESSIONS))


@pytest.mark.parametrize("code", ["", "stats.ttest_ind(", "ttest_ind(*x)", "smf.ols('y ~')"])
def test_odd_code_never_raises(code):
    silent(code_only(RULES, code))


# -- bootstrap / permutation over rows nested in clusters ---------------------------------------

from critics.rules.pseudoreplication import row_bootstrap_over_clusters as BOOT  # noqa: E402

LITTERS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(8)
litter = np.repeat(np.arange(12), 8)               # 12 litters of 8 pups, diet by litter
diet = np.where(litter < 6, "high_fat", "chow")
pups = pd.DataFrame({"litter": litter, "diet": diet})
pups["weight_g"] = 20 + 1.5 * (pups.diet == "high_fat") + rng.normal(0, 2, 12)[litter] \\
    + rng.normal(0, 1, len(pups))
"""


def test_scipy_bootstrap_over_pups_when_litters_were_assigned():
    f = one(run([BOOT], """
        hf = pups[pups.diet == "high_fat"].weight_g.to_numpy()
        ch = pups[pups.diet == "chow"].weight_g.to_numpy()
        res = stats.bootstrap((hf, ch), lambda a, b: a.mean() - b.mean(), n_resamples=999,
                              random_state=1, vectorized=False)
        print(res.confidence_interval)
    """, LITTERS), "pseudoreplication.row_bootstrap_over_clusters")
    assert f.severity == "high" and f.evidence["values"]["clusters"] == 12


def test_dataframe_sample_with_replacement_loop():
    f = one(run([BOOT], """
        boot = []
        for i in range(300):
            draw = pups.sample(frac=1, replace=True, random_state=i)
            g = draw.groupby("diet").weight_g.mean()
            boot.append(g["high_fat"] - g["chow"])
        print(np.percentile(boot, [2.5, 97.5]))
    """, LITTERS), "pseudoreplication.row_bootstrap_over_clusters")
    assert f.severity in ("medium", "high")


def test_cluster_bootstrap_drawing_litters_is_silent():
    silent(run([BOOT], """
        ids = pups.litter.unique()
        boot = []
        for i in range(300):
            drawn = rng.choice(ids, ids.size)
            draw = pd.concat([pups[pups.litter == d] for d in drawn])
            g = draw.groupby("diet").weight_g.mean()
            boot.append(g["high_fat"] - g["chow"])
        print(np.percentile(boot, [2.5, 97.5]))
    """, LITTERS))


def test_bootstrap_of_litter_means_is_silent():
    silent(run([BOOT], """
        means = pups.groupby(["litter", "diet"], as_index=False).weight_g.mean()
        hf = means[means.diet == "high_fat"].weight_g.to_numpy()
        ch = means[means.diet == "chow"].weight_g.to_numpy()
        diffs = [rng.choice(hf, hf.size).mean() - rng.choice(ch, ch.size).mean()
                 for _ in range(1000)]
        print(np.percentile(diffs, [2.5, 97.5]))
    """, LITTERS))


def test_bootstrap_of_independent_rows_without_clusters_is_silent():
    silent(run([BOOT], """
        x = wide.post.to_numpy() - wide.pre.to_numpy()
        boots = [rng.choice(x, x.size).mean() for _ in range(1000)]
        print(np.percentile(boots, [2.5, 97.5]))
    """, WIDE))


# -- a cluster-level predictor analysed over rows (holdout4 round) -------------------------------

from critics.rules.pseudoreplication import (  # noqa: E402
    cluster_level_predictor as CLUSTER,
)

CLUSTER_ID = "pseudoreplication.cluster_level_predictor"
SCHOOLS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(33)
schools = pd.DataFrame({"school": [f"sch{s}" for s in range(15)],
                        "spend_k": rng.uniform(6, 14, 15).round(2),
                        "policy": np.tile([0, 1], 8)[:15],
                        "effect": rng.normal(0, 6, 15)})
pupils = schools.loc[schools.index.repeat(40)].reset_index(drop=True)
pupils["score"] = 60 + pupils.effect + rng.normal(0, 9, len(pupils))
pupils["hours"] = rng.gamma(3, 2, len(pupils))
pupils = pupils.drop(columns=["effect", "policy"])
roster = pupils[["school"]].copy()
roster["passed"] = (rng.random(len(roster)) < 0.6).astype(int)
"""


def test_pearsonr_of_pupils_on_school_spending_is_flagged() -> None:
    f = one(run([CLUSTER], """
r, p = stats.pearsonr(pupils.spend_k, pupils.score)
print(f"r = {r:.2f}, p = {p:.2g}, n = {len(pupils)}")
""", SCHOOLS), CLUSTER_ID)
    assert f.severity == "high" and f.evidence["values"]["group_column"] == "school"


def test_ols_formula_with_school_level_predictor_is_flagged() -> None:
    f = one(run([CLUSTER], """
fit = smf.ols("score ~ spend_k + hours", data=pupils).fit()
print(fit.pvalues.round(4))
""", SCHOOLS), CLUSTER_ID)
    assert f.severity == "high" and f.evidence["values"]["predictor"] == "spend_k"


def test_logit_on_a_policy_merged_from_the_school_table_is_flagged() -> None:
    code = """
df = roster.merge(schools[["school", "policy"]], on="school")
fit = smf.logit("passed ~ policy", data=df).fit(disp=0)
print(fit.summary())
"""
    # read from the kernel's nesting facts (policy constant within school) by
    # cluster_assigned_model; cluster_level_predictor defers to it on the same call
    from critics.rules.pseudoreplication import cluster_assigned_model

    found = run([CLUSTER, cluster_assigned_model], code, SCHOOLS)
    f = one(found, "pseudoreplication.cluster_assigned_model")
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "school"
    assert not [x for x in found if x.rule_id == CLUSTER_ID]


def test_school_means_mixed_models_clustered_errors_and_row_predictors_stay_quiet() -> None:
    silent(run([CLUSTER], """
means = pupils.groupby("school").agg(spend_k=("spend_k", "first"), score=("score", "mean"))
print(stats.pearsonr(means.spend_k, means.score))
""", SCHOOLS))
    silent(run([CLUSTER], """
fit = smf.mixedlm("score ~ spend_k", data=pupils, groups=pupils["school"]).fit()
print(fit.pvalues)
""", SCHOOLS))
    silent(run([CLUSTER], """
fit = smf.ols("score ~ spend_k", data=pupils).fit(cov_type="cluster",
                                                   cov_kwds={"groups": pupils["school"]})
print(fit.pvalues)
""", SCHOOLS))
    silent(run([CLUSTER], """
print(stats.pearsonr(pupils.hours, pupils.score))
""", SCHOOLS))


SEGMENTS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(9)
n = 4000
ab = pd.DataFrame({"device": rng.choice(["desktop", "mobile", "tablet"], n),
                   "variant": rng.choice(["control", "new"], n)})
ab["converted"] = (rng.random(n) < 0.05).astype(int)
"""


def test_a_category_named_like_an_object_is_not_a_unit() -> None:
    # `device` here is desktop/mobile/tablet: a category of users, not a device measured
    # again and again; neither the whole frame nor one group of a groupby loop is clustered
    found = run([REPEATED], """
        import statsmodels.formula.api as smf
        whole = smf.logit("converted ~ C(variant)", data=ab).fit(disp=0)
        print(whole.pvalues)
        for device, seg in ab.groupby("device"):
            fit = smf.logit("converted ~ C(variant)", data=seg).fit(disp=0)
            print(device, fit.pvalues.iloc[1])
    """, SEGMENTS)
    silent(found)


def test_a_device_id_with_many_readings_is_a_unit() -> None:
    found = run([REPEATED], """
        import statsmodels.formula.api as smf
        fit = smf.ols("kwh ~ C(arm)", data=readings).fit()
        print(fit.pvalues)
    """, """
        import numpy as np
        import pandas as pd
        rng = np.random.default_rng(2)
        readings = pd.DataFrame({"device": np.repeat([f"M{i:02d}" for i in range(12)], 50),
                                 "arm": np.repeat(["a", "b"] * 6, 50)})
        readings["kwh"] = rng.normal(3, 1, len(readings))
    """)
    f = one(found, REPEATED.id)
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] == "device"


# -- autocorrelated time-series rows counted as independent (holdout6 round) ----------------------

from critics.rules.pseudoreplication import autocorrelated_rows as AUTOCORR  # noqa: E402

AUTOCORR_ID = "pseudoreplication.autocorrelated_rows"

# daily river discharge over 20 years; a dam regime ("open"/"closed") fixed for whole years;
# each year has its own level and days follow a slow AR(1) around it. `iid` is the same
# design with independent days (a well-mixed process measured daily).
RIVER = """
import numpy as np
import pandas as pd
from scipy import stats
from scipy.signal import lfilter
rng = np.random.default_rng(31)
years = np.arange(2000, 2020)
regime = rng.permutation(np.repeat(["open", "closed"], 10))
days = pd.date_range("2000-01-01", periods=20 * 120, freq="D")
level = np.repeat(rng.normal(0, 2, 20), 120)
ar = lfilter([1], [1, -0.92], rng.normal(0, 1, (20, 120)), axis=1).ravel()
river = pd.DataFrame({"flow": 50 + level + ar, "regime": np.repeat(regime, 120),
                      "year": np.repeat(years, 120)}, index=days)
iid = river.assign(flow=rng.normal(50, 3, len(river)))
"""


def test_ttest_on_daily_rows_grouped_by_a_yearly_regime_is_flagged() -> None:
    code = """
opened = river.loc[river.regime == "open", "flow"]
closed = river.loc[river.regime == "closed", "flow"]
res = stats.ttest_ind(opened, closed)
print(len(opened), len(closed), res.pvalue)
"""
    f = one(run([AUTOCORR], code, RIVER), AUTOCORR_ID)
    assert f.severity == "high" and f.confidence >= 0.8
    assert min(f.evidence["values"]["lag1"]) > 0.5
    silent(run([AUTOCORR], code.replace("river", "iid"), RIVER))
    yearly = """
per_year = river.groupby(["year", "regime"], as_index=False).flow.mean()
res = stats.ttest_ind(per_year.flow[per_year.regime == "open"],
                      per_year.flow[per_year.regime == "closed"])
print(res.pvalue)
"""
    silent(run([AUTOCORR], yearly, RIVER))


def test_mann_whitney_on_numpy_arrays_of_hourly_readings_is_flagged() -> None:
    # arrays have no row labels: the strong lag-1 correlation and the timestamp column speak
    setup = RIVER + """
hours = pd.DataFrame({"timestamp": pd.date_range("2023-01-02", periods=24 * 7 * 12, freq="h"),
                      "shift_plan": np.repeat(rng.permutation(["A", "B"] * 6), 24 * 7)})
hours["temp_c"] = 20 + lfilter([1], [1, -0.95], rng.normal(0, 0.4, len(hours)))
hours_iid = hours.assign(temp_c=rng.normal(20, 1, len(hours)))
"""
    code = """
plan_a = hours[hours.shift_plan == "A"].temp_c.to_numpy()
plan_b = hours[hours.shift_plan == "B"].temp_c.to_numpy()
u, p = stats.mannwhitneyu(plan_a, plan_b)
print(p)
"""
    f = one(run([AUTOCORR], code, setup), AUTOCORR_ID)
    assert f.severity == "high"
    assert "timestamp" in (f.evidence["values"]["time_column"] or "")
    silent(run([AUTOCORR], code.replace("hours[hours.", "hours_iid[hours_iid."), setup))


def test_anova_over_phases_from_a_named_groupby_is_flagged() -> None:
    code = """
by = river.groupby("regime").flow
stat, p = stats.f_oneway(by.get_group("open"), by.get_group("closed"))
print(p)
"""
    one(run([AUTOCORR], code, RIVER), AUTOCORR_ID)
    silent(run([AUTOCORR], code.replace("river", "iid"), RIVER))


def test_statsmodels_ttest_on_a_frame_with_integer_index_is_flagged() -> None:
    code = """
from statsmodels.stats.weightstats import ttest_ind
flat = river.reset_index(drop=True)
t, p, dof = ttest_ind(flat.flow[flat.regime == "open"], flat.flow[flat.regime == "closed"])
print(p)
"""
    f = one(run([AUTOCORR], code, RIVER), AUTOCORR_ID)
    assert all(r and r <= 10 for r in f.evidence["values"]["runs"])


def test_rows_sorted_by_a_covariate_stay_silent() -> None:
    # independent people sorted by height: neighbours' weights are alike because of the sort,
    # not because the rows are a time series
    setup = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(5)
people = pd.DataFrame({"height": rng.normal(170, 10, 600), "sex": rng.choice(["f", "m"], 600)})
people["weight"] = 0.9 * people.height - 85 + rng.normal(0, 2, 600)
people = people.sort_values("height").reset_index(drop=True)
"""
    code = """
print(stats.ttest_ind(people.weight[people.sex == "f"], people.weight[people.sex == "m"]))
"""
    silent(run([AUTOCORR], code, setup))


def test_a_unit_column_is_left_to_repeated_units() -> None:
    setup = RIVER + "river['sensor_id'] = np.repeat(np.arange(20), 120)\n"
    code = """
print(stats.ttest_ind(river.flow[river.regime == "open"], river.flow[river.regime == "closed"]))
"""
    silent(run([AUTOCORR], code, setup))


def test_formula_ols_on_daily_rows_with_autocorrelated_residuals_is_flagged() -> None:
    setup = RIVER + "import statsmodels.formula.api as smf\n" \
        "river_t = river.reset_index(names='date')\niid_t = iid.reset_index(names='date')\n"
    code = """
fit = smf.ols("flow ~ C(regime)", data=river_t).fit()
print(fit.pvalues)
"""
    f = one(run([AUTOCORR], code, setup), AUTOCORR_ID)
    assert f.severity == "high" and f.evidence["values"]["resid_lag1"] > 0.6
    assert "date" in f.evidence["values"]["time_column"]
    silent(run([AUTOCORR], code.replace("river_t", "iid_t"), setup))
    hac = code.replace(".fit()", ".fit(cov_type='HAC', cov_kwds={'maxlags': 30})")
    silent(run([AUTOCORR], hac, setup))
    silent(run([AUTOCORR], code.replace("print(fit.pvalues)", "print(fit.params)"), setup))


# -- a by-items analysis: rows reduced to one mean per item (not per subject) -------------------
# Each of 25 judges rates every one of 30 wines; the region varies between wines, so the wine is
# the unit that carries the factor and its mean over judges is one observation.

TASTING = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(23)
wines = pd.DataFrame({"wine": [f"w{i:02d}" for i in range(30)],
                      "region": np.repeat(["coastal", "inland"], 15),
                      "quality": rng.normal(0, 1, 30)})
ratings = wines.merge(pd.DataFrame({"participant_id": range(25),
                                    "severity": rng.normal(0, 1, 25)}), how="cross")
ratings["score"] = 70 + 3 * ratings.quality + 2 * ratings.severity + rng.normal(0, 2, len(ratings))
ratings["liked"] = (ratings.score > 70).astype(int)
"""


def test_every_rating_of_a_judge_panel_compared_as_independent_is_flagged():
    f = repeated("""
        coastal = ratings.loc[ratings.region == "coastal", "score"]
        inland = ratings.loc[ratings.region == "inland", "score"]
        print(stats.ttest_ind(coastal, inland))
    """, TASTING)
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] == "participant_id"


def test_wine_means_over_judges_compared_between_regions_are_silent():
    silent(findings("""
        by_wine = ratings.groupby(["wine", "region"], as_index=False)["score"].mean()
        coastal = by_wine.loc[by_wine.region == "coastal", "score"]
        inland = by_wine.loc[by_wine.region == "inland", "score"]
        print(stats.ttest_ind(coastal, inland, equal_var=False))
    """, TASTING))


def test_pivot_table_of_wine_medians_then_rank_test_is_silent():
    silent(findings("""
        med = ratings.pivot_table(index=["wine", "region"], values="score", aggfunc="median")
        med = med.reset_index()
        u = stats.mannwhitneyu(med[med.region == "coastal"].score,
                               med[med.region == "inland"].score)
        print(f"U = {u.statistic:.0f}, p = {u.pvalue:.3f}")
    """, TASTING))


def test_ols_on_wine_level_aggregates_with_p_values_is_silent():
    silent(findings("""
        per_wine = (ratings.groupby("wine")
                    .agg(score=("score", "mean"), region=("region", "first"))
                    .reset_index())
        fit = smf.ols("score ~ C(region)", data=per_wine).fit()
        print(fit.pvalues)
    """, TASTING))


def test_reduced_inline_in_the_test_call_is_silent():
    silent(findings("""
        means = ratings.groupby(["wine", "region"]).score.mean().reset_index()
        print(stats.f_oneway(*[g.score for _, g in means.groupby("region")]))
    """, TASTING))


def test_a_count_table_of_every_rating_still_counts_rows():
    f = repeated("""
        table = ratings.pivot_table(index="region", columns="liked", values="score",
                                    aggfunc="size")
        print(stats.chi2_contingency(table).pvalue)
    """, TASTING)
    assert f.evidence["values"]["unit_column"] == "participant_id"


def test_one_row_per_patient_in_a_large_table_is_not_repeated_units() -> None:
    # more rows than the probe's row sample: the identifier must still read as unique per row
    found = run([REPEATED], """
        from scipy import stats
        res = stats.ttest_ind(trial.loc[trial.arm == "a", "sbp"],
                              trial.loc[trial.arm == "b", "sbp"])
        print(res.pvalue)
    """, """
        import numpy as np
        import pandas as pd
        rng = np.random.default_rng(0)
        n = 150_000
        trial = pd.DataFrame({"patient_id": np.arange(n), "arm": rng.choice(["a", "b"], n),
                              "sbp": rng.normal(130, 15, n)})
    """)
    silent(found)


# -- a treatment assigned to whole clusters, compared over the clusters' members ---------------

from critics.rules.pseudoreplication import cluster_assigned_treatment as CLUSTERED  # noqa: E402
from tests.rule_helpers import LOUD, quiet  # noqa: E402

PONDS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(31)
rows = []
for i in range(12):                       # 12 ponds, each fed one diet; fish weighed in each
    diet = ["pellet", "algae", "insect"][i % 3]
    pond_eff = rng.normal(0, 25)
    for _ in range(int(rng.integers(25, 40))):
        rows.append((f"PD{i:02d}", diet, 300 + pond_eff + rng.normal(0, 20)))
fish = pd.DataFrame(rows, columns=["pond", "diet", "weight_g"])
"""

CLASSES = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(32)
k, m = 8, 30                               # 8 classrooms of 30 pupils, method per classroom
pupils = pd.DataFrame({"classroom_id": np.repeat(np.arange(k), m),
                       "method": np.repeat(["new", "old"] * (k // 2), m)})
pupils["score"] = 60 + np.repeat(rng.normal(0, 6, k), m) + rng.normal(0, 10, k * m)
"""


def clustered(code: str, setup: str) -> Finding:
    return one(run([CLUSTERED, REPEATED], code, setup),
               "pseudoreplication.cluster_assigned_treatment")


def test_diet_per_pond_compared_over_fish_with_loc_filters_is_critical():
    f = clustered("""
        pellet = fish.loc[fish.diet == "pellet", "weight_g"]
        algae = fish.loc[fish["diet"] == "algae", "weight_g"]
        print(stats.ttest_ind(pellet, algae, equal_var=False))
    """, PONDS)
    assert f.severity == "critical" and f.is_blocking(0.8)
    v = f.evidence["values"]
    assert v["cluster_column"] == "pond" and v["compared_column"] == "diet"
    assert v["clusters"] == 12 and "groupby(['pond', 'diet']" in f.suggestion


def test_pond_means_compared_between_diets_are_silent():
    silent(run([CLUSTERED, REPEATED], """
        per_pond = fish.groupby(["pond", "diet"], as_index=False)["weight_g"].mean()
        pellet = per_pond.loc[per_pond.diet == "pellet", "weight_g"]
        algae = per_pond.loc[per_pond["diet"] == "algae", "weight_g"]
        print(stats.ttest_ind(pellet, algae, equal_var=False))
    """, PONDS))


def test_anova_over_groupby_comprehension_of_fish_is_critical():
    f = clustered("""
        groups = [g["weight_g"].to_numpy() for _, g in fish.groupby("diet")]
        print(stats.f_oneway(*groups))
    """, PONDS)
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "pond"


def test_anova_on_pond_means_from_a_groupby_comprehension_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        means = fish.groupby(["pond", "diet"]).weight_g.mean().reset_index()
        print(stats.f_oneway(*[g.weight_g for _, g in means.groupby("diet")]))
    """, PONDS))


def test_numpy_masks_over_pupils_of_classrooms_is_critical():
    f = clustered("""
        score = pupils["score"].to_numpy()
        method = pupils.method.to_numpy()
        u = stats.mannwhitneyu(score[method == "new"], score[method == "old"])
        print(f"U = {u.statistic:.0f}, p = {u.pvalue:.2g}")
    """, CLASSES)
    assert f.severity == "critical" and f.evidence["values"]["clusters"] == 8


def test_classroom_means_with_numpy_masks_are_silent():
    silent(run([CLUSTERED, REPEATED], """
        per_class = pupils.groupby(["classroom_id", "method"], as_index=False).score.mean()
        score = per_class["score"].to_numpy()
        method = per_class.method.to_numpy()
        print(stats.mannwhitneyu(score[method == "new"], score[method == "old"]))
    """, CLASSES))


def test_samples_appended_in_a_loop_over_groups_is_critical():
    f = clustered("""
        samples = []
        for name, g in pupils.groupby("method"):
            samples.append(g.score.values)
        res = stats.ttest_ind(*samples)
        print(res.pvalue)
    """, CLASSES)
    assert f.severity == "critical"


def test_a_cluster_crossed_with_the_treatment_is_silent():
    # every classroom taught with both methods: the comparison is within classrooms
    silent(run([CLUSTERED], """
        crossed = pupils.assign(method=np.tile(["new", "old"], len(pupils) // 2))
        print(stats.ttest_ind(crossed.loc[crossed.method == "new", "score"],
                              crossed.loc[crossed.method == "old", "score"]))
    """, CLASSES))


def test_a_finer_attribute_nested_in_its_bins_is_not_a_cluster():
    # age (integer) is nested in its bins, but ages are attributes, not units
    silent(run([CLUSTERED], """
        people = pd.DataFrame({"age": rng.integers(20, 80, 600)})
        people["age_group"] = np.where(people.age >= 50, "older", "younger")
        people["sbp"] = 110 + 0.5 * people.age + rng.normal(0, 10, 600)
        print(stats.ttest_ind(people.loc[people.age_group == "older", "sbp"],
                              people.loc[people.age_group == "younger", "sbp"]))
    """, CLASSES))


def test_unnamed_column_with_unit_id_labels_is_high_not_critical():
    setup = PONDS + "kilns = fish.rename(columns={'pond': 'src'})\n"
    f = clustered("""
        print(stats.ttest_ind(kilns.loc[kilns.diet == "pellet", "weight_g"],
                              kilns.loc[kilns.diet == "insect", "weight_g"]))
    """, setup)
    assert f.severity == "high" and not f.is_blocking(0.8)
    quiet(run([CLUSTERED], """
        per_src = kilns.groupby(["src", "diet"]).mean().reset_index()
        print(stats.ttest_ind(per_src.loc[per_src.diet == "pellet", "weight_g"],
                              per_src.loc[per_src.diet == "insect", "weight_g"]))
    """, setup))


# -- crossed designs: raters / judges / annotators score many items -----------------------------

ESSAYS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(41)
# 10 raters each grade 30 essays: 15 typed, 15 handwritten; raters differ in leniency
essays = pd.DataFrame({"item_id": range(30), "format": np.repeat(["typed", "hand"], 15)})
grades = essays.merge(pd.DataFrame({"rater": [f"r{i}" for i in range(10)],
                                    "leniency": rng.normal(0, 4, 10)}), how="cross")
grades["grade"] = 70 + grades.leniency + rng.normal(0, 5, len(grades))
grades = grades.rename(columns={"rater": "{unit}"})
"""


@pytest.mark.parametrize("unit", ["rater", "judge_id", "annotator", "assessor"])
def test_every_grade_of_a_rater_panel_counted_as_independent_is_critical(unit: str):
    f = repeated("""
        typed = grades.loc[grades.format == "typed", "grade"]
        hand = grades.loc[grades.format == "hand", "grade"]
        print(stats.ttest_ind(typed, hand))
    """, ESSAYS.replace("{unit}", unit))
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] in (unit,
                                                                                  "item_id")


def test_numpy_masks_over_a_judge_panel_are_critical():
    f = repeated("""
        g = grades.grade.to_numpy(); fmt = grades["format"].to_numpy()
        print(stats.mannwhitneyu(g[fmt == "typed"], g[fmt == "hand"]))
    """, ESSAYS.replace("{unit}", "judge"))
    assert f.severity == "critical"


def test_formula_fit_over_annotations_with_p_values_is_critical():
    f = repeated("""
        fit = smf.ols("grade ~ C(format)", data=grades).fit()
        print(fit.pvalues)
    """, ESSAYS.replace("{unit}", "annotator"))
    assert f.severity == "critical"


def test_per_rater_means_compared_with_a_paired_test_are_silent():
    silent(findings("""
        per = grades.groupby(["rater", "format"]).grade.mean().unstack()
        print(stats.ttest_rel(per["typed"], per["hand"]))
    """, ESSAYS.replace("{unit}", "rater")))


def test_per_item_means_compared_between_formats_are_silent():
    silent(findings("""
        per_item = grades.groupby(["item_id", "format"], as_index=False).grade.mean()
        print(stats.ttest_ind(per_item.loc[per_item.format == "typed", "grade"],
                              per_item.loc[per_item.format == "hand", "grade"]))
    """, ESSAYS.replace("{unit}", "annotator")))


def test_crossed_random_effects_model_is_silent():
    silent(findings("""
        fit = smf.mixedlm("grade ~ C(format)", grades, groups=grades["assessor"],
                          vc_formula={"item": "0 + C(item_id)"}).fit()
        print(fit.pvalues)
    """, ESSAYS.replace("{unit}", "assessor")))


def test_a_bare_item_column_of_products_is_not_a_unit():
    silent(findings("""
        sales = pd.DataFrame({"item": rng.choice(["tea", "coffee", "cake"], 300),
                              "store": np.repeat(["north", "south"], 150),
                              "price": rng.normal(4, 1, 300)})
        print(stats.ttest_ind(sales.loc[sales.store == "north", "price"],
                              sales.loc[sales.store == "south", "price"]))
    """, ESSAYS.replace("{unit}", "rater")))


# -- a factor constant within clusters, modelled over the clusters' rows -----------------------

from critics.rules.pseudoreplication import cluster_assigned_model as CLUSTER_MODEL  # noqa: E402
from critics.rules.pseudoreplication import cluster_level_predictor as LEVEL  # noqa: E402

ALL_PSEUDO = [PAIRED, REPEATED, CLUSTERED, CLUSTER_MODEL, LEVEL]

PLATES = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from scipy import stats
rng = np.random.default_rng(61)
rows = []
for p in range(10):                     # 10 culture plates, one medium per plate, 6 wells read
    medium = ["rich", "minimal"][p % 2]
    plate_eff = rng.normal(0, 0.12)
    for w in range(6):
        rows.append({"plate": f"P{p + 1:02d}", "medium": medium, "well": w + 1,
                     "od600": 0.8 + 0.05 * (medium == "rich") + plate_eff
                     + rng.normal(0, 0.02)})
assay = pd.DataFrame(rows)
"""

FARMS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(62)
k = 9                                   # 9 farms, one fertiliser each, 8 soil cores per farm
soil = pd.DataFrame({"farm": np.repeat([f"F{i}" for i in range(k)], 8),
                     "fertiliser": np.repeat(["urea", "manure", "none"] * 3, 8),
                     "depth_cm": np.tile([5, 10, 15, 20] * 2, k)})
soil["nitrate"] = (12 + np.repeat(rng.normal(0, 3, k), 8)
                   + 2 * (soil.fertiliser == "urea") + rng.normal(0, 0.8, len(soil)))
"""

SITES = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from scipy import stats
rng = np.random.default_rng(63)
rows = []
for s in range(12):                     # 12 river sites in 3 land-use zones, 5 kick samples each
    zone = ["forest", "farmland", "urban"][s % 3]
    site_eff = rng.normal(0, 4)
    for _ in range(5):
        rows.append((f"site{s:02d}", zone, 30 + site_eff + rng.normal(0, 1.5)))
inverts = pd.DataFrame(rows, columns=["site", "zone", "taxa"])
"""


def modelled(code: str, setup: str) -> Finding:
    return one(run(ALL_PSEUDO, code, setup), "pseudoreplication.cluster_assigned_model")


def test_formula_ols_of_a_plate_level_medium_over_wells_is_critical():
    f = modelled("""
        fit = smf.ols("od600 ~ C(medium, Treatment('minimal'))", data=assay).fit()
        print(fit.summary())
    """, PLATES)
    assert f.severity == "critical" and f.is_blocking(0.8)
    v = f.evidence["values"]
    assert v["cluster_column"] == "plate" and v["compared_column"] == "medium"
    assert v["clusters"] == 10 and v["rows"] == 60
    assert "groupby(['plate', 'medium']" in f.suggestion


def test_plate_means_fitted_with_the_same_formula_are_quiet():
    quiet(run(ALL_PSEUDO, """
        per_plate = assay.groupby(["plate", "medium"], as_index=False)["od600"].mean()
        fit = smf.ols("od600 ~ C(medium, Treatment('minimal'))", data=per_plate).fit()
        print(fit.summary())
    """, PLATES))


def test_cluster_robust_errors_by_plate_are_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.ols("od600 ~ C(medium)", data=assay).fit(
            cov_type="cluster", cov_kwds={"groups": assay["plate"]})
        print(fit.pvalues)
    """, PLATES))


def test_mixed_model_with_a_random_intercept_per_plate_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.mixedlm("od600 ~ C(medium)", assay, groups=assay["plate"]).fit()
        print(fit.summary())
    """, PLATES))


def test_a_predictor_that_varies_within_plates_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.ols("od600 ~ well", data=assay).fit()
        print(fit.pvalues)
    """, PLATES))


def test_plate_as_a_term_of_the_model_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.ols("od600 ~ C(plate) + well", data=assay).fit()
        print(fit.pvalues)
    """, PLATES))


def test_sm_ols_on_fertiliser_dummies_over_soil_cores_is_critical():
    f = modelled("""
        X = sm.add_constant(pd.get_dummies(soil["fertiliser"], drop_first=True, dtype=float))
        res = sm.OLS(soil["nitrate"], X).fit()
        print(res.pvalues.round(4))
    """, FARMS)
    assert f.severity == "critical"
    assert f.evidence["values"]["cluster_column"] == "farm"
    assert f.evidence["values"]["compared_column"] == "fertiliser"


def test_sm_ols_on_numpy_indicator_with_a_within_farm_covariate_is_reported():
    f = modelled("""
        urea = (soil.fertiliser.to_numpy() == "urea").astype(float)
        X = np.column_stack([np.ones(len(soil)), urea, soil["depth_cm"].to_numpy()])
        res = sm.OLS(soil.nitrate.to_numpy(), X).fit()
        print(f"urea effect p = {res.pvalues[1]:.4f}")
    """, FARMS)
    assert f.severity in ("high", "critical")
    assert f.evidence["values"]["compared_column"] == "fertiliser"


def test_sm_ols_with_cluster_robust_errors_by_farm_is_quiet():
    quiet(run(ALL_PSEUDO, """
        X = sm.add_constant(pd.get_dummies(soil["fertiliser"], drop_first=True, dtype=float))
        res = sm.OLS(soil["nitrate"], X).fit(cov_type="cluster",
                                             cov_kwds={"groups": soil["farm"].factorize()[0]})
        print(res.pvalues.round(4))
    """, FARMS))


def test_sm_ols_on_farm_means_is_quiet():
    quiet(run(ALL_PSEUDO, """
        farms = soil.groupby(["farm", "fertiliser"], as_index=False)["nitrate"].mean()
        X = sm.add_constant(pd.get_dummies(farms["fertiliser"], drop_first=True, dtype=float))
        res = sm.OLS(farms["nitrate"], X).fit()
        print(res.pvalues.round(4))
    """, FARMS))


def test_anova_lm_of_zone_over_kick_samples_is_critical():
    f = modelled("""
        table = anova_lm(smf.ols("taxa ~ C(zone)", data=inverts).fit(), typ=2)
        print(table)
    """, SITES)
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "site"


def test_f_oneway_over_kick_samples_is_reported_by_the_test_rule():
    found = run(ALL_PSEUDO, """
        print(stats.f_oneway(*[g.taxa for _, g in inverts.groupby("zone")]))
    """, SITES)
    assert one(found, "pseudoreplication.cluster_assigned_treatment").severity in LOUD


def test_anova_lm_on_site_means_is_quiet():
    quiet(run(ALL_PSEUDO, """
        means = inverts.groupby(["site", "zone"], as_index=False).taxa.mean()
        print(anova_lm(smf.ols("taxa ~ C(zone)", data=means).fit(), typ=2))
    """, SITES))


def test_fit_without_any_inference_read_is_medium_only():
    f = modelled("""
        fit = smf.ols("taxa ~ C(zone)", data=inverts).fit()
        print(fit.params.round(2))
    """, SITES)
    assert f.severity == "medium"


def test_a_nested_control_beside_a_within_farm_predictor_of_interest_is_medium_only():
    f = modelled("""
        fit = smf.ols("nitrate ~ depth_cm + C(fertiliser)", data=soil).fit()
        print(f"nitrate per cm depth: p = {fit.pvalues['depth_cm']:.3g}")
    """, FARMS)
    assert f.severity == "medium"


# -- crossed panels: every rater scores every product several times ------------------------------

PANEL = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(77)
rows = []
for t in range(1, 13):
    base = rng.normal(5.5, 0.5)
    for wine in ["Rioja", "Barolo", "Syrah"]:
        bump = rng.normal(0.3, 0.6) if wine == "Barolo" else 0.0
        for pour in range(6):
            rows.append({"{unit}": {ident}, "wine": wine, "pour": pour,
                         "score": base + bump + rng.normal(0, 0.5)})
tasting = pd.DataFrame(rows)
"""


def panel(unit: str, ident: str = 'f"T{t:02d}"') -> str:
    return PANEL.replace("{unit}", unit).replace("{ident}", ident)


def test_ttest_ind_over_repeat_pours_of_the_same_tasters_is_critical():
    f = one(run(ALL_PSEUDO, """
        barolo = tasting[tasting["wine"] == "Barolo"]["score"]
        rioja = tasting[tasting["wine"] == "Rioja"]["score"]
        print(stats.ttest_ind(barolo, rioja))
    """, panel("taster")), "pseudoreplication.repeated_units")
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] == "taster"


def test_taster_means_compared_with_a_paired_test_are_quiet():
    silent(run(ALL_PSEUDO, """
        means = tasting.groupby(["taster", "wine"]).score.mean().unstack()
        print(stats.ttest_rel(means["Barolo"], means["Rioja"]))
    """, panel("taster")))


def test_mannwhitney_over_samples_gathered_in_a_loop_of_listener_ratings_is_critical():
    found = run(ALL_PSEUDO, """
        samples = []
        for wine, g in tasting[tasting.wine != "Syrah"].groupby("wine"):
            samples.append(g.score.to_numpy())
        print(stats.mannwhitneyu(samples[0], samples[1]))
    """, panel("listener", "t"))  # integer listener ids
    assert one(found, "pseudoreplication.repeated_units").severity == "critical"


def test_listener_means_compared_with_wilcoxon_are_quiet():
    silent(run(ALL_PSEUDO, """
        per = tasting.pivot_table(index="listener", columns="wine", values="score")
        print(stats.wilcoxon(per["Barolo"], per["Rioja"]))
    """, panel("listener")))


def test_f_oneway_over_panelist_rows_is_critical_and_panel_means_rm_anova_quiet():
    found = run(ALL_PSEUDO, """
        print(stats.f_oneway(*[g["score"].values for _, g in tasting.groupby("wine")]))
    """, panel("panelist"))
    assert one(found, "pseudoreplication.repeated_units").severity == "critical"
    silent(run(ALL_PSEUDO, """
        from statsmodels.stats.anova import AnovaRM
        means = tasting.groupby(["panelist", "wine"], as_index=False).score.mean()
        print(AnovaRM(means, "score", "panelist", within=["wine"]).fit())
    """, panel("panelist")))


def test_unit_ids_crossed_with_the_compared_column_under_an_unknown_name_are_medium():
    # `sheet` is no unit word: the ids (T01…T12, 18 rows each) and the kernel's finding that
    # they are not nested in `wine` carry it; a site holding distinct people reads the same,
    # so it stays below high
    f = one(run(ALL_PSEUDO, """
        a = tasting.loc[tasting.wine == "Barolo", "score"].to_numpy()
        b = tasting.loc[tasting.wine == "Syrah", "score"].to_numpy()
        t, p = stats.ttest_ind(a, b)
        print(f"p = {p:.4f}")
    """, panel("sheet")), "pseudoreplication.repeated_units")
    assert f.severity == "medium" and f.evidence["values"]["unit_column"] == "sheet"


def test_crossed_unit_ids_averaged_first_are_silent():
    silent(run(ALL_PSEUDO, """
        m = tasting.groupby(["sheet", "wine"]).score.mean().unstack()
        t, p = stats.ttest_rel(m["Barolo"], m["Syrah"])
        print(f"p = {p:.4f}")
    """, panel("sheet")))


def test_site_ids_crossed_with_arm_beside_a_patient_id_per_row_are_silent():
    # individually randomised patients in 8 clinics: the rows are the units
    silent(run(ALL_PSEUDO, """
        a = trial.loc[trial.arm == "drug", "sbp"]
        b = trial.loc[trial.arm == "placebo", "sbp"]
        print(stats.ttest_ind(a, b))
    """, """
        import numpy as np
        import pandas as pd
        from scipy import stats
        rng = np.random.default_rng(3)
        n = 240
        trial = pd.DataFrame({"record": np.arange(n), "centre": [f"C{i % 8 + 1}" for i in range(n)],
                              "arm": rng.permutation(["drug", "placebo"] * (n // 2)),
                              "sbp": rng.normal(140, 12, n)})
    """))


# -- unit ids built from the treatment they were given (`brine-1`, `dry-3`) ----------------------

WHEELS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
rng = np.random.default_rng(19)
rows = []
for salting in ["brine", "dry", "injected"]:
    for w in range(1, 6):
        eff = rng.normal(0, 2.5)
        for plug in range(10):
            rows.append({"salting": salting, "wheel": f"{salting}-{w}",
                         "moisture": 38 + eff + rng.normal(0, 0.8)})
cheese = pd.DataFrame(rows)
"""


def test_anova_lm_over_plugs_of_wheels_numbered_within_salting_is_high():
    f = one(run(ALL_PSEUDO, """
        table = anova_lm(smf.ols("moisture ~ C(salting)", data=cheese).fit(), typ=2)
        print(table["PR(>F)"])
    """, WHEELS), "pseudoreplication.cluster_assigned_model")
    assert f.severity == "high" and f.evidence["values"]["cluster_column"] == "wheel"


def test_anova_lm_on_wheel_means_is_quiet():
    silent(run(ALL_PSEUDO, """
        wheels = cheese.groupby(["wheel", "salting"], as_index=False)["moisture"].mean()
        table = anova_lm(smf.ols("moisture ~ C(salting)", data=wheels).fit(), typ=2)
        print(table["PR(>F)"])
    """, WHEELS))


def test_ttest_over_plugs_of_wheels_numbered_within_salting_is_reported():
    found = run(ALL_PSEUDO, """
        dry = cheese.query("salting == 'dry'").moisture
        brine = cheese.query("salting == 'brine'").moisture
        print(stats.ttest_ind(dry, brine, equal_var=False))
    """, WHEELS)
    assert one(found, "pseudoreplication.cluster_assigned_treatment").severity in LOUD


def test_ttest_on_wheel_means_is_quiet():
    silent(run(ALL_PSEUDO, """
        per = cheese.groupby(["salting", "wheel"]).moisture.mean().reset_index()
        print(stats.ttest_ind(per[per.salting == "dry"].moisture,
                              per[per.salting == "brine"].moisture, equal_var=False))
    """, WHEELS))


def test_ids_with_prefixes_unrelated_to_the_predictor_are_not_read_as_units():
    # `c-1`, `e-1`…: many prefixes that are not the salting levels, no unit name
    found = run(ALL_PSEUDO, """
        table = anova_lm(smf.ols("moisture ~ C(salting)", data=cheese).fit(), typ=2)
        print(table["PR(>F)"])
    """, WHEELS.replace('f"{salting}-{w}"', 'f"{chr(ord(salting[0]) + w)}-{w}"'))
    assert not [f for f in found if f.rule_id == "pseudoreplication.cluster_assigned_model"]


# -- panels: units observed once per period, whatever the unit column is called -----------------

LOCATIONS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(41)
weeks = pd.date_range("2022-01-03", periods=12, freq="W-MON")
rows = []
for i in range(24):                   # 24 locations (plain numbers), loyalty scheme per location
    loc, scheme, base = 3100 + 7 * i, int(i % 3 == 0), rng.normal(200, 30)
    for w in weeks:
        rows.append((loc, w, scheme, base + 4 * scheme + rng.normal(0, 8)))
sales = pd.DataFrame(rows, columns=["loc_code", "week", "scheme", "revenue"])
"""

PROVIDERS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(42)
quarters = pd.period_range("2019Q1", "2022Q4", freq="Q")
rows = []
for h in range(30):                   # 30 hospitals by CMS number, 16 quarters each
    ccn, program, lvl = f"{140000 + 11 * h}", ["none", "bundled"][h % 2], rng.normal(12, 2)
    for q in quarters:
        rows.append((ccn, q, program, lvl + rng.normal(0, 0.8)))
stays = pd.DataFrame(rows, columns=["ccn", "quarter", "program", "los_days"])
"""

BASINS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(43)
rows = []
for b in range(27):                   # 27 basins with 4-digit codes, one land use each
    code, use, lvl = f"07{b:02d}", ["forest", "farm", "urban"][b % 3], rng.normal(2, 0.5)
    for y in range(2010, 2020):
        for mth in range(1, 13, 3):
            rows.append((code, f"{y}-{mth:02d}", use, lvl + rng.normal(0, 0.3)))
flows = pd.DataFrame(rows, columns=["basin", "yyyymm", "land_use", "nitrate"])
"""


def test_numpy_masks_over_plain_location_codes_of_a_panel_are_a_medium_note():
    # `loc_code` is a plain number: only the 24 x 12 location-week grid says it is a unit
    f = clustered("""
        y = sales["revenue"].to_numpy()
        on = sales["scheme"].to_numpy() == 1
        print(stats.mannwhitneyu(y[on], y[~on]))
    """, LOCATIONS)
    v = f.evidence["values"]
    assert f.severity == "medium" and v["cluster_column"] == "loc_code"
    assert v["clusters"] == 24 and "once per `week`" in f.explanation


def test_numpy_masks_over_tract_months_keyed_by_geoid_are_critical():
    f = clustered("""
        s = sales.rename(columns={"loc_code": "tract_geoid"})
        y = s["revenue"].to_numpy()
        on = s["scheme"].to_numpy() == 1
        print(stats.mannwhitneyu(y[on], y[~on]))
    """, LOCATIONS)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert f.evidence["values"]["cluster_column"] == "tract_geoid"


def test_numpy_masks_over_tract_means_keyed_by_geoid_are_silent():
    silent(run([CLUSTERED, REPEATED], """
        s = sales.rename(columns={"loc_code": "tract_geoid"})
        per = s.groupby("tract_geoid").agg(scheme=("scheme", "first"), y=("revenue", "mean"))
        on = per["scheme"].to_numpy() == 1
        print(stats.mannwhitneyu(per.y.to_numpy()[on], per.y.to_numpy()[~on]))
    """, LOCATIONS))


def test_numpy_masks_over_location_means_are_silent():
    silent(run([CLUSTERED, REPEATED], """
        per = sales.groupby("loc_code")[["scheme", "revenue"]].mean()
        y = per["revenue"].to_numpy()
        on = per["scheme"].to_numpy() == 1
        print(stats.mannwhitneyu(y[on], y[~on]))
    """, LOCATIONS))


def test_one_week_of_the_panel_is_one_row_per_location_and_quiet():
    quiet(run([CLUSTERED, REPEATED], """
        y = sales.loc[sales.week == sales.week.max(), ["scheme", "revenue"]]
        print(stats.ttest_ind(y.revenue[y.scheme == 1], y.revenue[y.scheme == 0]))
    """, LOCATIONS))


def test_helper_function_over_hospital_quarters_is_reported():
    f = clustered("""
        def arm(frame, name):
            return frame.loc[frame["program"] == name, "los_days"]

        t, p = stats.ttest_ind(arm(stays, "bundled"), arm(stays, "none"), equal_var=False)
        print(f"t = {t:.2f}, p = {p:.2g}")
    """, PROVIDERS)
    assert f.severity in LOUD and f.evidence["values"]["cluster_column"] == "ccn"


def test_helper_function_over_a_pivot_per_hospital_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        per = stays.pivot_table(index=["ccn", "program"], values="los_days").reset_index()

        def arm(frame, name):
            return frame.loc[frame["program"] == name, "los_days"]

        t, p = stats.ttest_ind(arm(per, "bundled"), arm(per, "none"), equal_var=False)
        print(f"t = {t:.2f}, p = {p:.2g}")
    """, PROVIDERS))


def test_anova_comprehension_over_basin_months_with_date_labels_is_reported():
    f = clustered("""
        groups = [g.nitrate.values for _, g in flows.groupby("land_use")]
        print(stats.f_oneway(*groups))
    """, BASINS)
    assert f.severity == "medium" and f.evidence["values"]["cluster_column"] == "basin"


def test_anova_comprehension_over_basin_means_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        means = flows.groupby(["basin", "land_use"], as_index=False).nitrate.mean()
        groups = [g.nitrate.values for _, g in means.groupby("land_use")]
        print(stats.f_oneway(*groups))
    """, BASINS))


def test_ols_over_hospital_quarters_with_clustered_errors_is_quiet():
    quiet(run(ALL_PSEUDO, """
        import statsmodels.formula.api as smf
        fit = smf.ols("los_days ~ C(program)", data=stays).fit(
            cov_type="cluster", cov_kwds={"groups": stays["ccn"]})
        print(fit.pvalues)
    """, PROVIDERS))


def test_mixed_model_over_location_weeks_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.mixedlm("revenue ~ scheme", sales, groups=sales["loc_code"]).fit()
        print(fit.pvalues)
    """, LOCATIONS))


def test_a_column_without_a_time_axis_is_not_read_as_a_panel_unit():
    # the same rows without the week column: `loc_code` is just a number, not known as a unit
    quiet(run([CLUSTERED], """
        s = sales.drop(columns="week")
        y = s["revenue"].to_numpy()
        on = s["scheme"].to_numpy() == 1
        print(stats.mannwhitneyu(y[on], y[~on]))
    """, LOCATIONS))


# -- tests of counts (chi-square, Fisher, proportions z-test) over cluster-assigned rows ---------

READING = """
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportions_ztest
rng = np.random.default_rng(61)
rows = []
for c in range(16):                   # 16 classrooms, the reading method assigned per classroom
    method, lvl = ["phonics", "whole_language"][c % 2], rng.normal(0, 0.8)
    for _ in range(int(rng.integers(20, 30))):
        rows.append((f"R{c:02d}", method, bool(rng.random() < 1 / (1 + np.exp(-lvl)))))
pupils = pd.DataFrame(rows, columns=["classroom", "method", "passed"])
pupils["pupil_no"] = np.arange(len(pupils))
"""

# the same pupils, the method drawn for each pupil: the rows are the randomised units
PUPILS_RANDOMISED = READING + """
pupils["method"] = rng.choice(["phonics", "whole_language"], len(pupils))
"""


def test_chi2_of_a_crosstab_over_pupils_of_method_classrooms_is_critical():
    f = clustered("""
        table = pd.crosstab(pupils.method, pupils.passed)
        chi2, p, dof, expected = stats.chi2_contingency(table)
        print(f"chi2={chi2:.2f} p={p:.4f}")
    """, READING)
    v = f.evidence["values"]
    assert f.severity == "critical" and v["cluster_column"] == "classroom"
    assert v["clusters"] == 16 and "counts of its" in f.explanation


def test_chi2_of_classroom_pass_rates_is_silent():
    # one pass rate per classroom, compared across the 16 classrooms
    found = run([CLUSTERED, REPEATED], """
        rates = pupils.groupby(["classroom", "method"], as_index=False)["passed"].mean()
        table = pd.crosstab(rates.method, rates.passed > 0.5)
        print(stats.fisher_exact(table))
    """, READING)
    silent(found)


def test_chi2_when_each_pupil_was_randomised_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        table = pd.crosstab(pupils.method, pupils.passed)
        chi2, p, dof, expected = stats.chi2_contingency(table)
        print(f"chi2={chi2:.2f} p={p:.4f}")
    """, PUPILS_RANDOMISED))


WARDS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(62)
rows = []
for c in range(10):                   # 10 wards of 8 patients
    for m in range(8):
        protocol = PROTOCOL
        rows.append((f"W{c}", protocol, bool(rng.random() < 0.3 + 0.1 * (c % 3))))
stays = pd.DataFrame(rows, columns=["ward", "protocol", "infection"])
"""
FISHER = """
    counts = stays.groupby(["protocol", "infection"]).size().unstack(fill_value=0)
    odds, p = stats.fisher_exact(counts.to_numpy())
    print(f"OR={odds:.2f} p={p:.4f}")
"""


def test_fisher_on_groupby_size_unstack_over_ward_patients_is_reported():
    # the infection-control protocol adopted per ward
    f = clustered(FISHER, WARDS.replace("PROTOCOL", '["usual", "bundle"][c % 2]'))
    assert f.severity in LOUD and f.evidence["values"]["cluster_column"] == "ward"


def test_fisher_when_the_protocol_was_drawn_per_patient_is_silent():
    # each patient randomised within the wards: the patients are the units
    silent(run([CLUSTERED, REPEATED], FISHER,
               WARDS.replace("PROTOCOL", '["usual", "bundle"][m % 2]')))


def test_proportions_ztest_of_counts_summed_from_pupils_is_reported():
    f = clustered("""
        arms = ["phonics", "whole_language"]
        passes = np.array([pupils.loc[pupils.method == a, "passed"].sum() for a in arms])
        sizes = np.array([(pupils.method == a).sum() for a in arms])
        z, p = proportions_ztest(passes, sizes)
        print(f"z={z:.2f} p={p:.4f}")
    """, READING)
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "classroom"


def test_proportions_ztest_when_each_pupil_was_randomised_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        arms = ["phonics", "whole_language"]
        passes = np.array([pupils.loc[pupils.method == a, "passed"].sum() for a in arms])
        sizes = np.array([(pupils.method == a).sum() for a in arms])
        z, p = proportions_ztest(passes, sizes)
        print(f"z={z:.2f} p={p:.4f}")
    """, PUPILS_RANDOMISED))


def test_pivot_table_size_in_a_helper_over_pupils_is_reported():
    f = clustered("""
        def pass_table(frame):
            return frame.pivot_table(index="method", columns="passed", aggfunc="size",
                                     fill_value=0)

        tab = pass_table(pupils)
        print(stats.chi2_contingency(tab).pvalue)
    """, READING)
    assert f.severity in LOUD and f.evidence["values"]["cluster_column"] == "classroom"


def test_pivot_table_of_classroom_majorities_is_silent():
    silent(run([CLUSTERED, REPEATED], """
        per_class = pupils.groupby("classroom").agg(method=("method", "first"),
                                                    rate=("passed", "mean"))
        per_class["majority"] = per_class.rate > 0.5
        tab = per_class.pivot_table(index="method", columns="majority", aggfunc="size",
                                    fill_value=0)
        print(stats.chi2_contingency(tab).pvalue)
    """, READING))


# -- fits and tests per subset of a crossing column: one row per cluster in each subset ------

CROP_FARMS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(11)
crops = ["wheat", "barley", "oats", "rye", "maize", "sorghum", "millet", "rice", "canola",
         "flax", "peas", "beans"]
rows = []
for f in range(40):                   # irrigation chosen per farm; every farm grows each crop
    irr, eff = ["rainfed", "drip"][f % 2], rng.normal(0, 1)
    for c in crops:
        for _ in range(PLOTS):        # plots of that crop on that farm
            rows.append({"farm": f"F{f:02d}", "irrigation": irr, "crop": c,
                         "yield_t": 5 + eff + 0.3 * (irr == "drip") + rng.normal(0, 0.5)})
fields = pd.DataFrame(rows)
"""
ONE_PLOT = CROP_FARMS.replace("PLOTS", "1")
FOUR_PLOTS = CROP_FARMS.replace("PLOTS", "4")
PER_CROP_GLM = """
    out = []
    for crop, d in fields.groupby("crop"):
        fit = smf.ols("yield_t ~ irrigation", data=d).fit()
        out.append((crop, fit.pvalues["irrigation[T.rainfed]"]))
    print(out)
"""
PER_CROP_TTEST = """
    for c in fields.crop.unique():
        sub = fields[fields.crop == c]
        res = stats.ttest_ind(sub.loc[sub.irrigation == "drip", "yield_t"],
                              sub.loc[sub.irrigation == "rainfed", "yield_t"])
        print(c, res.pvalue)
"""
PER_CROP_COMPREHENSION = """
    pvals = {c: smf.ols("yield_t ~ C(irrigation)", data=fields[fields["crop"] == c]).fit()
             .pvalues.iloc[1] for c in crops}
    print(pvals)
"""


@pytest.mark.parametrize("code", [PER_CROP_GLM, PER_CROP_TTEST, PER_CROP_COMPREHENSION])
def test_per_crop_analyses_with_one_plot_per_farm_and_crop_are_quiet(code):
    # within each crop the farms are the rows: one row per farm, no pseudoreplication
    found = run(ALL_PSEUDO, code, ONE_PLOT)
    assert not [f for f in found if f.rule_id.startswith("pseudoreplication.cluster_assigned")]
    quiet(found)


@pytest.mark.parametrize("code", [PER_CROP_GLM, PER_CROP_TTEST, PER_CROP_COMPREHENSION])
def test_per_crop_analyses_over_several_plots_per_farm_are_reported(code):
    # four plots per farm within each crop: the farm-level irrigation is pseudoreplicated
    found = run(ALL_PSEUDO, code, FOUR_PLOTS)
    hits = [f for f in found if f.rule_id.startswith("pseudoreplication.cluster_assigned")]
    assert hits and all(f.evidence["values"]["cluster_column"] == "farm" for f in hits)
    assert max(f.severity for f in hits) in LOUD


def test_pooled_fit_over_every_crop_of_the_farms_is_still_reported():
    f = one(run(ALL_PSEUDO, """
        fit = smf.ols("yield_t ~ irrigation", data=fields).fit()
        print(fit.pvalues)
    """, ONE_PLOT), "pseudoreplication.cluster_assigned_model")
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "farm"


# -- cluster ids that abbreviate the level of the treatment they carry (ORG-1, CON-1) ----------

BEDS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
rows = []
for mgmt in ["organic", "conventional"]:
    for b in range(1, 7):             # six beds per management, 20 soil cores per bed
        eff = rng.normal(0, 0.6)
        for core in range(20):
            m = MGMT
            rows.append({"bed": f"{m[:3].upper()}-{b}", "management": m, "core": core,
                         "soil_c": 2.0 + eff + 0.2 * (m == "organic") + rng.normal(0, 0.3)})
plots = pd.DataFrame(rows)
"""
BY_BED = BEDS.replace("MGMT", "mgmt")
# management drawn per core: the beds hold both, the cores are the randomised units
PER_CORE = BEDS.replace("MGMT", '["organic", "conventional"][core % 2]').replace(
    '"bed": f"{m[:3].upper()}-{b}"', '"bed": f"{mgmt[:3].upper()}-{b}"')


def test_ttest_over_cores_of_beds_named_after_their_management_is_reported():
    f = one(run(ALL_PSEUDO, """
        org = plots.loc[plots["management"] == "organic", "soil_c"]
        con = plots.loc[plots["management"] == "conventional", "soil_c"]
        print(stats.ttest_ind(org, con))
    """, BY_BED), "pseudoreplication.cluster_assigned_treatment")
    assert f.severity == "medium" and f.evidence["values"]["cluster_column"] == "bed"


def test_ttest_of_bed_means_is_quiet():
    silent(run(ALL_PSEUDO, """
        beds = plots.groupby(["bed", "management"], as_index=False)["soil_c"].mean()
        print(stats.ttest_ind(beds.soil_c[beds.management == "organic"],
                              beds.soil_c[beds.management == "conventional"]))
    """, BY_BED))


def test_ols_over_cores_of_abbreviated_beds_is_reported():
    f = one(run(ALL_PSEUDO, """
        fit = smf.ols("soil_c ~ management", data=plots).fit()
        print(fit.pvalues)
    """, BY_BED), "pseudoreplication.cluster_assigned_model")
    # only the ids' spelling says the beds are units, but the residuals of neighbouring cores
    # correlate strongly (bed SD 0.6 vs core SD 0.3): high, never blocking
    assert f.severity == "high" and not f.is_blocking(0.8)
    assert f.evidence["values"]["cluster_column"] == "bed"
    assert f.evidence["values"]["resid_lag1"] >= 0.5


def test_mixed_model_over_beds_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.mixedlm("soil_c ~ management", plots, groups=plots["bed"]).fit()
        print(fit.pvalues)
    """, BY_BED))


MWU_BY_GROUP = """
    a, b = [g["soil_c"].to_numpy() for _, g in plots.groupby("management")]
    print(stats.mannwhitneyu(a, b))
"""


def test_mann_whitney_over_grouped_cores_of_beds_is_reported():
    # only the ids' spelling says the beds are units: medium, never blocking
    f = one(run(ALL_PSEUDO, MWU_BY_GROUP, BY_BED), "pseudoreplication.cluster_assigned_treatment")
    assert f.severity == "medium"


def test_mann_whitney_when_management_was_drawn_per_core_is_silent():
    silent(run(ALL_PSEUDO, MWU_BY_GROUP, PER_CORE))


def test_transects_are_named_units():
    f = one(run(ALL_PSEUDO, """
        lines = plots.rename(columns={"bed": "transect"})
        print(stats.ttest_ind(lines.soil_c[lines.management == "organic"],
                              lines.soil_c[lines.management == "conventional"]))
    """, BY_BED), "pseudoreplication.cluster_assigned_treatment")
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == "transect"


# -- tests of counts over the weeks of customers assigned as a whole ---------------------------

NEWSLETTER = """
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportions_ztest
rng = np.random.default_rng(31)
cust = pd.DataFrame({"customer_id": np.arange(9000, 9150),
                     "layout": rng.permutation(np.repeat(["short", "long"], 75))})
cust["p"] = rng.beta(2, 5, len(cust))
weeks = pd.DataFrame({"week": np.arange(1, 11)})
mail = cust.merge(weeks, how="cross")
mail["opened"] = rng.binomial(1, mail["p"])
mail = mail.drop(columns="p")
"""


def test_ztest_of_summed_and_counted_weeks_is_reported():
    f = one(run(ALL_PSEUDO, """
        tab = mail.groupby("layout")["opened"].agg(["sum", "count"])
        z, p = proportions_ztest(tab["sum"].to_numpy(), tab["count"].to_numpy())
        print(z, p)
    """, NEWSLETTER), "pseudoreplication.repeated_units")
    assert f.severity == "critical" and f.evidence["values"]["unit_column"] == "customer_id"


def test_welch_test_of_per_customer_open_rates_is_silent():
    silent(run(ALL_PSEUDO, """
        rates = mail.groupby(["customer_id", "layout"], as_index=False)["opened"].mean()
        print(stats.ttest_ind(rates.opened[rates.layout == "short"],
                              rates.opened[rates.layout == "long"], equal_var=False))
    """, NEWSLETTER))


def test_ztest_of_series_of_sums_and_sizes_is_reported():
    f = one(run(ALL_PSEUDO, """
        opens = mail.groupby("layout").opened.sum()
        sent = mail.groupby("layout").size()
        print(proportions_ztest(opens, sent))
    """, NEWSLETTER), "pseudoreplication.repeated_units")
    assert f.severity in LOUD


def test_ztest_of_a_single_week_is_silent():
    silent(run(ALL_PSEUDO, """
        wk = mail[mail.week == 1]
        opens = wk.groupby("layout").opened.sum()
        sent = wk.groupby("layout").size()
        print(proportions_ztest(opens, sent))
    """, NEWSLETTER))


def test_ztest_with_keyword_counts_of_masked_arrays_is_reported():
    f = one(run(ALL_PSEUDO, """
        short = mail.opened.to_numpy()[mail.layout.to_numpy() == "short"]
        long_ = mail.opened.to_numpy()[mail.layout.to_numpy() == "long"]
        print(proportions_ztest(count=[short.sum(), long_.sum()], nobs=[len(short), len(long_)]))
    """, NEWSLETTER), "pseudoreplication.repeated_units")
    assert f.severity in LOUD


def test_ztest_over_first_week_per_customer_is_silent():
    silent(run(ALL_PSEUDO, """
        first = mail.sort_values("week").groupby("customer_id", as_index=False).first()
        counts = first.groupby("layout")["opened"].agg(["sum", "count"])
        print(proportions_ztest(counts["sum"], counts["count"]))
    """, NEWSLETTER))


# -- a cluster column named by its official code (`farm_cph`, `hospital_ods`) -----------------

CODED = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(64)
k = 20                                  # 20 farms, half in an agri-environment scheme
codes = rng.choice(np.arange(40000, 90000), k, replace=False)
ods = [f"RX{i:02d}" for i in range(k)]
scheme = np.repeat([1, 0], k // 2)
per = 15                                # 15 fields per farm
fields = pd.DataFrame({"farm_cph": np.repeat(codes, per), "scheme": np.repeat(scheme, per),
                       "slope": rng.normal(5, 2, k * per).round(1)})
fields["yield_t"] = (7 + 0.3 * fields.scheme + np.repeat(rng.normal(0, 0.8, k), per)
                     - 0.05 * fields.slope + rng.normal(0, 0.4, k * per))
wards = pd.DataFrame({"hospital_ods": np.repeat(ods, per),   # one discharge bundle per trust
                      "bundle": np.repeat(scheme, per)})
wards["readmit"] = (rng.random(k * per) < 0.2 + 0.05 * wards.bundle).astype(int)
"""

CODED_CASES = [
    # formula OLS, coefficient read by name; the twin clusters the errors by the code
    ("""
        fit = smf.ols("yield_t ~ scheme + slope", data=fields).fit(FIT)
        print(fit.params["scheme"], fit.pvalues["scheme"], fit.conf_int().loc["scheme"])
    """, "cov_type='cluster', cov_kwds={'groups': fields['farm_cph']}", "farm_cph"),
    # array OLS on a design matrix built from the frame
    ("""
        X = sm.add_constant(fields[["scheme", "slope"]])
        res = sm.OLS(fields["yield_t"], X).fit(FIT)
        print(res.summary())
    """, "cov_type='cluster', cov_kwds={'groups': fields.farm_cph}", "farm_cph"),
    # logistic formula with text codes for the clusters
    ("""
        m = smf.logit("readmit ~ C(bundle)", data=wards).fit(disp=0FIT)
        print(m.pvalues, m.conf_int())
    """, ", cov_type='cluster', cov_kwds={'groups': pd.factorize(wards.hospital_ods)[0]}",
     "hospital_ods"),
]


@pytest.mark.parametrize(("code", "fix", "cluster"), CODED_CASES)
def test_factor_constant_within_coded_clusters_is_found(code: str, fix: str, cluster: str):
    f = modelled(code.replace("FIT", ""), CODED)
    assert f.severity == "critical" and f.evidence["values"]["cluster_column"] == cluster


@pytest.mark.parametrize(("code", "fix", "cluster"), CODED_CASES)
def test_factor_with_errors_clustered_by_the_code_is_quiet(code: str, fix: str, cluster: str):
    found = run(ALL_PSEUDO, code.replace("FIT", fix), CODED)
    assert not [f for f in found if f.severity in LOUD], [f.explanation for f in found]


def test_a_group_attribute_is_not_a_coded_cluster():
    from critics.evidence import ObjectFacts
    from critics.rules.pseudoreplication import _coded_group
    f = ObjectFacts(name="d", type="pandas.DataFrame", kind="dataframe", shape=[300, 4],
                    dtypes={"school_size": "int64", "school_urn": "int64",
                            "school_rank": "int64", "site_no": "int64"},
                    unique={"school_size": 20, "school_urn": 20, "school_rank": 20,
                            "site_no": 20},
                    ranges={"school_size": [150.0, 1400.0], "school_urn": [100012.0, 149870.0],
                            "school_rank": [1.0, 20.0], "site_no": [1.0, 20.0]})
    assert _coded_group(f, "school_urn")
    assert not _coded_group(f, "school_size")  # an attribute of the school
    assert not _coded_group(f, "school_rank")


# -- difference in differences with the clusters as fixed effects and i.i.d. errors ------------

DID = """
import numpy as np, pandas as pd
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
rows = []
for s in range(24):
    reform = int(s < 12)
    shock = rng.normal(0, 2)
    for w in range(30):
        after = int(w >= 15)
        rows.append({"school": f"SCH{s:02d}", "week": w, "reform": reform, "after": after,
                     "absences": 20 + s % 5 + after * (shock - reform) + rng.normal(0, 1)})
attend = pd.DataFrame(rows)
visits = pd.DataFrame({
    "county": np.repeat([f"C{i:02d}" for i in range(16)], 24),
    "month": np.tile(pd.period_range("2022-01", periods=24, freq="M").astype(str), 16),
    "policy": np.repeat(rng.permutation([0, 1] * 8), 24),
})
visits["phase"] = (visits.month >= "2023-01").astype(int)
visits["er_visits"] = rng.poisson(30 + 3 * visits.policy * visits.phase)
plots = pd.DataFrame({"plot": np.repeat([f"P{i}" for i in range(12)], 4),
                      "irrigation": np.repeat(["drip", "flood"] * 6, 4),
                      "variety": np.tile(["a", "b", "c", "d"], 12)})
plots["yield_t"] = rng.normal(5, 1, 48)
"""


def _did_one(code: str) -> Finding:
    f = one(run(ALL_PSEUDO, code, DID), "pseudoreplication.cluster_assigned_model")
    assert f.evidence["values"]["interaction"]
    return f


def test_did_with_unit_fixed_effects_and_iid_errors_formula_star():
    f = _did_one("""
        fit = smf.ols("absences ~ reform * after + C(school) + C(week)", data=attend).fit()
        print("reform effect", fit.params["reform:after"], "p =", fit.pvalues["reform:after"])
    """)
    assert f.severity == "high" and f.evidence["values"]["clusters"] == 24


def test_did_poisson_glm_with_colon_interaction():
    f = _did_one("""
        import statsmodels.api as sm
        m = smf.glm("er_visits ~ policy + phase + policy:phase + C(county)", data=visits,
                    family=sm.families.Poisson()).fit()
        b, p = m.params["policy:phase"], m.pvalues["policy:phase"]
        print(f"policy rate ratio {np.exp(b):.3f}, p = {p:.3g}")
    """)
    assert f.evidence["values"]["cluster_column"] == "county"


def test_did_with_categorical_interaction_and_summary():
    f = _did_one("""
        res = smf.ols("er_visits ~ C(policy) * C(phase) + C(county) + C(month)",
                      data=visits).fit()
        print(res.summary().tables[1])
    """)
    assert f.evidence["values"]["clusters"] == 16


def test_sound_did_with_cluster_robust_errors():
    silent(run(ALL_PSEUDO, """
        fit = smf.ols("absences ~ reform * after + C(school) + C(week)", data=attend).fit(
            cov_type="cluster", cov_kwds={"groups": pd.factorize(attend.school)[0]})
        print("reform effect", fit.params["reform:after"], "p =", fit.pvalues["reform:after"])
    """, DID))


def test_sound_did_collapsed_to_unit_period_means():
    silent(run(ALL_PSEUDO, """
        cells = visits.groupby(["county", "policy", "phase"], as_index=False).er_visits.mean()
        m = smf.ols("er_visits ~ policy * phase + C(county)", data=cells).fit()
        print(m.params["policy:phase"], m.pvalues["policy:phase"])
    """, DID))


def test_sound_did_with_gee_in_the_cell():
    silent(run(ALL_PSEUDO, """
        import statsmodels.api as sm
        m = smf.gee("absences ~ reform * after", groups="school", data=attend,
                    cov_struct=sm.cov_struct.Exchangeable()).fit()
        print(m.params["reform:after"], m.pvalues["reform:after"])
    """, DID))


def test_sound_split_plot_interaction_with_plot_fixed_effects():
    silent(run(ALL_PSEUDO, """
        fit = smf.ols("yield_t ~ irrigation * variety + C(plot)", data=plots).fit()
        print(fit.pvalues.filter(like=":"))
    """, DID))


# -- difference in differences with a hand-built interaction column, or fitted in a helper -----

CLINICS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
rows = []
for c in range(30):                      # 30 clinics x 10 months; 15 adopt e-prescribing
    adopter = int(c < 15)
    clinic_eff = rng.normal(0, 2.5)
    for month in range(10):
        after = int(month >= 5)
        rows.append({"clinic": c, "month": month, "adopter": adopter, "after": after,
                     "errors": 12 + clinic_eff - 1.5 * adopter * after + rng.normal(0, 1)})
rx = pd.DataFrame(rows)
"""


@pytest.mark.parametrize("flawed, sound", [
    # a precomputed interaction column in a formula
    ('rx["adopt_after"] = rx.adopter * rx.after\n'
     'fit = smf.ols("errors ~ adopter + after + adopt_after", data=rx).fit(FIT)\n'
     'print(fit.params["adopt_after"], fit.pvalues["adopt_after"])\n', None),
    # two-way fixed effects on a hand-built indicator (`&` of two flags, .assign)
    ('rx = rx.assign(treated_post=((rx["adopter"] == 1) & (rx["after"] == 1)).astype(int))\n'
     'twfe = smf.ols("errors ~ treated_post + C(clinic) + C(month)", rx).fit(FIT)\n'
     'print(twfe.pvalues["treated_post"])\n', None),
    # the DiD formula fitted inside a helper on its parameter
    ('def did_fit(panel, outcome):\n'
     '    return smf.ols(f"{outcome} ~ adopter * after", data=panel).fit(FIT)\n'
     'res = did_fit(rx, "errors")\n'
     'print(res.pvalues["adopter:after"])\n', None),
])
def test_did_with_hand_built_interaction_or_helper_fit_is_reported(flawed, sound):
    f = modelled(flawed.replace("(FIT)", "()"), CLINICS)
    assert f.severity in ("high", "critical") and "clinic" in f.explanation
    # cluster-robust errors by clinic: quiet
    clustered = flawed.replace(
        "(FIT)", '(cov_type="cluster", cov_kwds={"groups": CL["clinic"]})'.replace(
            "CL", "panel" if "def did_fit" in flawed else "rx"))
    found = run(ALL_PSEUDO, clustered, CLINICS)
    assert not [g for g in found if g.rule_id == "pseudoreplication.cluster_assigned_model"]


def test_did_on_one_row_per_clinic_and_period_is_quiet():
    found = run(ALL_PSEUDO, """
        agg = rx.groupby(["clinic", "after"], as_index=False).agg(
            errors=("errors", "mean"), adopter=("adopter", "first"))
        agg["adopt_after"] = agg.adopter * agg.after
        fit = smf.ols("errors ~ adopter + after + adopt_after", data=agg).fit()
        print(fit.pvalues["adopt_after"])
    """, CLINICS)
    assert not [g for g in found if g.rule_id == "pseudoreplication.cluster_assigned_model"]


def test_product_of_two_row_level_covariates_is_not_a_did():
    # dose x age measured per visit, varying within clinics: no factor constant within them
    found = run(ALL_PSEUDO, """
        rx["load"] = rx.month * rx.errors
        fit = smf.ols("errors ~ month + load", data=rx).fit()
        print(fit.pvalues["load"])
    """, CLINICS)
    assert not [g for g in found if g.rule_id == "pseudoreplication.cluster_assigned_model"]


# -- a factor constant within a generic entity id (`agent_id`, `courierId`), over its rows ------

CALLS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(91)
agents = pd.DataFrame({"agent_id": [f"A{300 + i}" for i in range(40)],
                       "new_script": rng.permutation(np.repeat([1, 0], 20)),
                       "skill": rng.normal(0, 0.5, 40),
                       "calls": rng.integers(10, 30, 40)})
log = agents.loc[agents.index.repeat(agents.calls)].reset_index(drop=True)
log["call_no"] = np.arange(len(log))
log["queue"] = rng.choice(["billing", "tech", "sales"], len(log))
log["csat"] = 3.5 + 0.1 * log.new_script + log.skill + rng.normal(0, 0.7, len(log))
log = log.drop(columns=["skill", "calls"])
"""

PARCELS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
rng = np.random.default_rng(92)
rows = []
for c in range(24):                     # 24 couriers, e-bike or van, 15-30 drops each
    ebike = c % 2
    c_eff = rng.normal(0, 3)
    for _ in range(rng.integers(15, 31)):
        km = rng.uniform(1, 12)
        rows.append({"courierId": 5000 + c, "ebike": ebike, "km": km,
                     "minutes": 20 + 2 * km - 1.5 * ebike + c_eff + rng.normal(0, 2)})
drops = pd.DataFrame(rows)
"""

ASSAYS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
rng = np.random.default_rng(93)
lots = pd.DataFrame({"supplier_no": np.arange(101, 131),
                     "coated": np.tile([0, 1], 15),
                     "lot_eff": rng.normal(0, 1.5, 30)})
tests = lots.loc[lots.index.repeat(8)].reset_index(drop=True)
tests["humidity"] = rng.uniform(30, 70, len(tests))
tests["tensile"] = 50 + 0.8 * tests.coated + tests.lot_eff + rng.normal(0, 1, len(tests))
tests = tests.drop(columns=["lot_eff"])
"""


def test_formula_ols_of_an_agent_level_script_over_calls_is_high():
    f = modelled("""
        fit = smf.ols("csat ~ new_script + C(queue)", data=log).fit()
        print(f"script effect {fit.params['new_script']:.2f}, p = {fit.pvalues['new_script']:.2g}")
    """, CALLS)
    assert f.severity == "high" and not f.is_blocking(0.8)
    v = f.evidence["values"]
    assert v["cluster_column"] == "agent_id" and v["compared_column"] == "new_script"
    assert v["clusters"] == 40


def test_formula_ols_with_errors_clustered_by_agent_is_quiet():
    quiet(run(ALL_PSEUDO, """
        fit = smf.ols("csat ~ new_script + C(queue)", data=log).fit(
            cov_type="cluster", cov_kwds={"groups": log["agent_id"]})
        print(f"script effect {fit.params['new_script']:.2f}, p = {fit.pvalues['new_script']:.2g}")
    """, CALLS))


def test_array_ols_of_a_courier_level_vehicle_over_drops_is_high():
    f = modelled("""
        X = sm.add_constant(drops[["ebike", "km"]])
        res = sm.OLS(drops["minutes"], X).fit()
        print(res.summary())
        print("e-bike p-value:", res.pvalues["ebike"])
    """, PARCELS)
    assert f.severity == "high"
    assert f.evidence["values"]["cluster_column"] == "courierId"


def test_array_ols_on_courier_means_is_quiet():
    quiet(run(ALL_PSEUDO, """
        per = drops.groupby(["courierId", "ebike"], as_index=False)[["km", "minutes"]].mean()
        res = sm.OLS(per["minutes"], sm.add_constant(per[["ebike", "km"]])).fit()
        print(res.summary())
        print("e-bike p-value:", res.pvalues["ebike"])
    """, PARCELS))


def test_helper_fit_over_outcomes_of_a_supplier_level_coating_is_high():
    f = modelled("""
        def effect(d, y):
            m = smf.ols(f"{y} ~ coated + humidity", data=d).fit()
            return m.params["coated"], m.pvalues["coated"]

        for y in ["tensile"]:
            b, p = effect(tests, y)
            print(y, round(b, 2), p)
    """, ASSAYS)
    assert f.severity == "high" and "supplier_no" in f.explanation


def test_helper_fit_with_a_mixed_model_by_supplier_is_quiet():
    quiet(run(ALL_PSEUDO, """
        def effect(d, y):
            m = smf.mixedlm(f"{y} ~ coated + humidity", data=d, groups=d["supplier_no"]).fit()
            return m.params["coated"], m.pvalues["coated"]

        for y in ["tensile"]:
            b, p = effect(tests, y)
            print(y, round(b, 2), p)
    """, ASSAYS))


TRIAL_ARMS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
rng = np.random.default_rng(94)
n = 240                                 # 8 treatment codes = 2 drugs x 4 doses, 30 patients each
trial = pd.DataFrame({"treatment_id": np.repeat(np.arange(1, 9), 30),
                      "year_id": np.tile(np.repeat([2019, 2020, 2021, 2022, 2023, 2024], 5), 8)})
trial["drug"] = np.where(trial.treatment_id <= 4, "A", "B")
trial["response"] = rng.normal(10, 2, n) + (trial.drug == "B")
"""


def test_a_factor_nested_in_a_treatment_code_is_not_a_cluster():
    # the treatment codes are the arms' cells, their rows the independent patients
    found = run(ALL_PSEUDO, """
        fit = smf.ols("response ~ C(drug)", data=trial).fit()
        print(fit.pvalues)
    """, TRIAL_ARMS)
    quiet(found)
    assert not [g for g in found if g.rule_id == "pseudoreplication.cluster_assigned_model"]


# -- hierarchical ids numbered within the compared level (`L2305-A/P1`…`P6`): the units -----

PREPS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(95)
rows = []
for lot, mu in [("B-101", 99.5), ("B-117", 99.1)]:
    for prep in range(1, 7):            # 6 sample preparations per lot, 3 injections each
        p_mu = mu + rng.normal(0, 0.5)
        for inj in range(1, 4):
            rows.append({"lot": lot, "prep": f"{lot}/P{prep}", "inj": inj,
                         "assay": p_mu + rng.normal(0, 0.1)})
hplc = pd.DataFrame(rows)
"""

PREP_CASES = [
    # scipy t-test on the rows of each lot; the twin averages the injections per preparation
    ("""
        a = hplc.loc[hplc.lot == "B-101", "assay"]
        b = hplc.loc[hplc.lot == "B-117", "assay"]
        print(stats.ttest_ind(a, b))
    """, """
        prep = hplc.groupby(["lot", "prep"], as_index=False)["assay"].mean()
        a = prep.loc[prep.lot == "B-101", "assay"]
        b = prep.loc[prep.lot == "B-117", "assay"]
        print(stats.ttest_ind(a, b))
    """, "pseudoreplication.cluster_assigned_treatment"),
    # groupby, then a test on each group's rows; the twin a mixed model by preparation
    ("""
        a, b = [g["assay"].to_numpy() for _, g in hplc.groupby("lot")]
        print(stats.mannwhitneyu(a, b))
    """, """
        fit = smf.mixedlm("assay ~ C(lot)", hplc, groups=hplc["prep"]).fit()
        print(fit.pvalues)
    """, "pseudoreplication.cluster_assigned_treatment"),
    # formula OLS; the twin clusters the errors on the preparation
    ("""
        fit = smf.ols("assay ~ C(lot)", data=hplc).fit()
        print(fit.pvalues)
    """, """
        fit = smf.ols("assay ~ C(lot)", data=hplc).fit(
            cov_type="cluster", cov_kwds={"groups": pd.factorize(hplc["prep"])[0]})
        print(fit.pvalues)
    """, "pseudoreplication.cluster_assigned_model"),
]


@pytest.mark.parametrize(("flawed", "sound", "rule_id"), PREP_CASES)
def test_injections_of_preparations_numbered_within_lots_are_reported(
        flawed: str, sound: str, rule_id: str) -> None:
    f = one(run(ALL_PSEUDO, flawed, PREPS), rule_id)
    # the ids say the preparations are units; how alike their injections are is not read
    # for a test of rows: high, never blocking
    assert f.severity == "high" and not f.is_blocking(0.8)
    assert f.evidence["values"]["cluster_column"] == "prep"


@pytest.mark.parametrize(("flawed", "sound", "rule_id"), PREP_CASES)
def test_preparation_means_mixed_model_or_clustered_errors_are_quiet(
        flawed: str, sound: str, rule_id: str) -> None:
    quiet(run(ALL_PSEUDO, sound, PREPS))


def test_design_cells_named_after_a_factor_are_not_numbered_units() -> None:
    from critics.evidence import ObjectFacts
    from critics.rules.pseudoreplication import _numbered_within
    f = ObjectFacts(name="d", type="pandas.DataFrame", kind="dataframe", shape=[120, 3],
                    dtypes={"drug": "str", "cell": "str", "rep": "str"},
                    levels={"drug": {"A": 60, "B": 60}})
    doses = ["A_10", "A_20", "A_50", "B_10", "B_20", "B_50"]   # doses, not counted from 1
    assert not _numbered_within(f, doses, "drug")
    assert not _numbered_within(f, ["A/P1", "A/P2", "B/R1", "B/R2"], "drug")  # two tags
    assert _numbered_within(f, ["A-rep1", "A-rep2", "A-rep3", "B-rep1", "B-rep2"], "drug")
    assert _numbered_within(f, ["A_0", "A_1", "B_0", "B_1"], "drug")


# -- a balanced panel: a person-level factor fitted over the persons' waves --------------------

WAVES = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(96)
n = 300                                 # 300 respondents (more than 200 ids), 4 waves each
people = pd.DataFrame({"caseid": [f"R{k:05d}" for k in range(n)],
                       "urban": rng.binomial(1, 0.4, n), "u": rng.normal(0, 1.5, n)})
panel = people.loc[people.index.repeat(4)].reset_index(drop=True)
panel["wave"] = np.tile([1, 2, 3, 4], n)
panel["score"] = 5 + 0.2 * panel.urban + panel.u + rng.normal(0, 0.7, len(panel))
panel["agree"] = (panel.score > 5.2).astype(int)
panel = panel.drop(columns="u")
"""

PANEL_CASES = [
    # formula OLS with wave dummies; the twin clusters the errors on the respondent
    ("""
        fit = smf.ols("score ~ urban + C(wave)", data=panel).fit()
        print(fit.params["urban"], fit.pvalues["urban"])
    """, """
        fit = smf.ols("score ~ urban + C(wave)", data=panel).fit(
            cov_type="cluster", cov_kwds={"groups": pd.factorize(panel["caseid"])[0]})
        print(fit.params["urban"], fit.pvalues["urban"])
    """, "pseudoreplication.cluster_assigned_model"),
    # formula logit; the twin a GEE with exchangeable correlation within the respondent
    ("""
        fit = smf.logit("agree ~ urban + C(wave)", data=panel).fit(disp=0)
        print(fit.params["urban"], fit.pvalues["urban"])
    """, """
        import statsmodels.api as sm
        fit = smf.gee("agree ~ urban + C(wave)", groups="caseid", data=panel,
                      family=sm.families.Binomial(),
                      cov_struct=sm.cov_struct.Exchangeable()).fit()
        print(fit.params["urban"], fit.pvalues["urban"])
    """, "pseudoreplication.cluster_assigned_model"),
    # scipy t-test on the rows; the twin averages each respondent's waves first
    ("""
        print(stats.ttest_ind(panel.loc[panel.urban == 1, "score"],
                              panel.loc[panel.urban == 0, "score"]))
    """, """
        per = panel.groupby(["caseid", "urban"], as_index=False)["score"].mean()
        print(stats.ttest_ind(per.loc[per.urban == 1, "score"],
                              per.loc[per.urban == 0, "score"]))
    """, "pseudoreplication.cluster_assigned_treatment"),
]


@pytest.mark.parametrize(("flawed", "sound", "rule_id"), PANEL_CASES)
def test_person_level_factor_over_panel_waves_is_reported(
        flawed: str, sound: str, rule_id: str) -> None:
    f = one(run(ALL_PSEUDO, flawed, WAVES), rule_id)
    assert f.severity in ("medium", "high") and not f.is_blocking(0.8)
    assert f.evidence["values"]["cluster_column"] == "caseid"


@pytest.mark.parametrize(("flawed", "sound", "rule_id"), PANEL_CASES)
def test_panel_with_clustered_errors_gee_or_person_means_is_quiet(
        flawed: str, sound: str, rule_id: str) -> None:
    quiet(run(ALL_PSEUDO, sound, WAVES))


def test_panel_ols_is_high_only_when_the_residuals_show_the_waves_alike() -> None:
    # stored person by person, the residuals of neighbouring rows correlate: high
    f = modelled(PANEL_CASES[0][0], WAVES)
    assert f.severity == "high" and f.evidence["values"]["resid_lag1"] >= 0.5
    # stored wave by wave, neighbours are different people and nothing shows how alike
    # a person's waves are: only the panel's shape says the ids are units (medium)
    g = modelled(PANEL_CASES[0][0], WAVES + "panel = panel.sort_values(['wave', 'caseid'])\n")
    assert g.severity == "medium"


# -- technical replicates stored in blocks of a bare array ------------------------------------

from critics.rules.pseudoreplication import replicate_blocks as BLOCKS  # noqa: E402

WELLS = """
import numpy as np
from scipy import stats
import statsmodels.formula.api as smf
import pandas as pd
rng = np.random.default_rng(97)
per = 6                                 # 4 cultures per arm, each pipetted into 6 wells
ko = np.repeat(rng.normal(24.0, 0.7, 4), per) + rng.normal(0, 0.12, 4 * per)
wt = np.repeat(rng.normal(23.2, 0.7, 4), per) + rng.normal(0, 0.12, 4 * per)
culture = np.repeat(np.arange(4), per)
"""

BLOCK_CASES = [
    # Welch t by hand; the twin averages each culture's wells first
    ("""
        a, b = ko, wt
        se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        t = (a.mean() - b.mean()) / se
        p = 2 * stats.t.sf(abs(t), a.size + b.size - 2)
        print(t, p)
    """, """
        a = np.array([ko[culture == c].mean() for c in range(4)])
        b = np.array([wt[culture == c].mean() for c in range(4)])
        se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        t = (a.mean() - b.mean()) / se
        p = 2 * stats.t.sf(abs(t), a.size + b.size - 2)
        print(t, p)
    """),
    # scipy t-test on the arrays; the twin averages by reshaping to cultures x wells
    ("""
        print(stats.ttest_ind(ko, wt, equal_var=False))
    """, """
        ko_c, wt_c = ko.reshape(4, per).mean(axis=1), wt.reshape(4, per).mean(axis=1)
        print(stats.ttest_ind(ko_c, wt_c, equal_var=False))
    """),
    # Mann-Whitney on lists; the twin a mixed model with a random intercept per culture
    ("""
        x, y = ko.tolist(), wt.tolist()
        print(stats.mannwhitneyu(x, y))
    """, """
        d = pd.DataFrame({"ct": np.r_[ko, wt], "ko": np.repeat([1, 0], ko.size),
                          "culture": np.r_[culture, culture + 4]})
        print(smf.mixedlm("ct ~ ko", d, groups=d["culture"]).fit().pvalues)
    """),
]


@pytest.mark.parametrize(("flawed", "sound"), BLOCK_CASES)
def test_blocks_of_technical_wells_tested_as_values_are_reported(flawed: str, sound: str):
    f = one(run([BLOCKS], flawed, WELLS), "pseudoreplication.replicate_blocks")
    v = f.evidence["values"]
    assert f.severity == "high" and (v["blocks"], v["per_block"]) == (4, 6)
    assert v["icc"] >= 0.9


@pytest.mark.parametrize(("flawed", "sound"), BLOCK_CASES)
def test_culture_means_or_a_mixed_model_are_quiet(flawed: str, sound: str):
    silent(run([BLOCKS], sound, WELLS))


@pytest.mark.parametrize("data", [
    "np.sort(rng.normal(0, 1, 24))",               # sorted: every split has alike blocks
    "np.cumsum(rng.normal(0, 1, 24))",             # a random walk drifts within blocks
    "rng.normal(0, 1, 24)",                        # independent values
    "np.repeat([1.0, 5.0], 12) + rng.normal(0, 0.1, 24)",  # two levels: < 3 blocks
])
def test_sorted_drifting_or_independent_values_are_not_blocks(data: str):
    silent(run([BLOCKS], f"""
        x = {data}
        y = rng.normal(0, 1, 24)
        print(stats.ttest_ind(x, y))
    """, WELLS))


def test_arrays_taken_from_a_frame_are_left_to_the_frame_rules():
    silent(run([BLOCKS], """
        d = pd.DataFrame({"ct": np.r_[ko, wt], "g": np.repeat(["ko", "wt"], ko.size)})
        x = d.loc[d.g == "ko", "ct"].to_numpy()
        y = d.loc[d.g == "wt", "ct"].to_numpy()
        print(stats.ttest_ind(x, y))
    """, WELLS))
