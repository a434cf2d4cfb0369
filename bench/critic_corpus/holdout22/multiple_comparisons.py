from bench.critic_corpus import Case

_INLINE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1719)
n = 150
specs = {
    "cd_poly_nm": (45.0, 1.1), "cd_m1_nm": (32.0, 0.9), "ox_thk_a": (18.5, 0.4),
    "nit_thk_a": (610, 9), "ovl_x_nm": (0.0, 2.2), "ovl_y_nm": (0.0, 2.4),
    "sti_depth_nm": (300, 6), "w_plug_rs": (2.10, 0.06), "cmp_dish_nm": (22, 4),
    "cu_thk_nm": (450, 12), "ild_thk_nm": (820, 15), "gate_sw_nm": (12.0, 0.5),
    "imp_dose_rs": (410, 11), "anneal_rs": (95, 2.5), "litho_focus_nm": (0, 18),
    "litho_dose_mj": (32.0, 0.5), "etch_bias_nm": (3.0, 0.6), "particles_cnt": (14, 4),
    "bow_um": (18, 5), "edge_excl_mm": (2.0, 0.15), "sil_rs": (7.8, 0.3),
    "contact_rc_ohm": (55, 4), "via_rc_ohm": (2.4, 0.2), "liner_thk_a": (45, 2),
    "spacer_h_nm": (38, 1.5), "fin_h_nm": (46, 1.2), "epi_thk_nm": (28, 0.8),
    "hm_thk_nm": (60, 2), "resist_thk_nm": (90, 3), "pre_clean_loss_a": (8, 1.2),
}
df_inl = pd.DataFrame({k: rng.normal(mu, sd, n) for k, (mu, sd) in specs.items()}).round(3)
df_inl.insert(0, "wafer_id", [f"W{8100 + i}" for i in range(n)])
# wafers with +X overlay shift fail at sort more often
p_fail = 1 / (1 + np.exp(-(-0.6 + 0.3 * df_inl.ovl_x_nm)))
df_inl["sort_result"] = np.where(rng.random(n) < p_fail, "FAIL", "PASS")
'''

_INLINE_FLAWED = '''
from scipy import stats

params = [c for c in df_inl.columns if c not in ("wafer_id", "sort_result")]
g_pass = df_inl[df_inl.sort_result == "PASS"]
g_fail = df_inl[df_inl.sort_result == "FAIL"]
print(f"PASS wafers: {len(g_pass)}, FAIL wafers: {len(g_fail)}")

rows = []
for p in params:
    t, pv = stats.ttest_ind(g_fail[p], g_pass[p], equal_var=False)
    rows.append({"param": p, "delta": g_fail[p].mean() - g_pass[p].mean(), "t": t, "p": pv})
res = pd.DataFrame(rows).set_index("param")

drivers = res[res.p < 0.05].sort_values("p")
print(f"inline params that differ between FAIL and PASS wafers (p<0.05): {len(drivers)}")
drivers.round(4)
'''

_INLINE_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

params = [c for c in df_inl.columns if c not in ("wafer_id", "sort_result")]
g_pass = df_inl[df_inl.sort_result == "PASS"]
g_fail = df_inl[df_inl.sort_result == "FAIL"]
print(f"PASS wafers: {len(g_pass)}, FAIL wafers: {len(g_fail)}")

rows = []
for p in params:
    t, pv = stats.ttest_ind(g_fail[p], g_pass[p], equal_var=False)
    rows.append({"param": p, "delta": g_fail[p].mean() - g_pass[p].mean(), "t": t, "p": pv})
res = pd.DataFrame(rows).set_index("param")
# 30 params screened at once -> control the false discovery rate
res["q_bh"] = multipletests(res.p, method="fdr_bh")[1]

drivers = res[res.q_bh < 0.05].sort_values("p")
print(f"inline params that differ between FAIL and PASS wafers (BH q<0.05): {len(drivers)}")
drivers.round(4)
'''

_SHIFT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(605)
days = pd.date_range("2023-01-02", "2023-12-29", freq="B")
rows = []
for d in days:
    for sh in ("DAY", "NIGHT"):
        built = int(rng.poisson(820 if sh == "DAY" else 760))
        rows.append((d, sh, built, int(rng.binomial(built, 0.021))))
df_sc = pd.DataFrame(rows, columns=["prod_date", "shift", "units_built", "units_scrap"])
df_sc = df_sc.set_index("prod_date")
'''

_SHIFT_FLAWED = '''
from statsmodels.stats.proportion import proportions_ztest

m = (df_sc.groupby([pd.Grouper(freq="MS"), "shift"])[["units_scrap", "units_built"]]
     .sum().unstack("shift"))
out = {}
for month, r in m.iterrows():
    cnt = [r["units_scrap", "NIGHT"], r["units_scrap", "DAY"]]
    nob = [r["units_built", "NIGHT"], r["units_built", "DAY"]]
    z, p = proportions_ztest(cnt, nob)
    out[month.strftime("%b")] = {"night_%": 100 * cnt[0] / nob[0], "day_%": 100 * cnt[1] / nob[1],
                                  "z": z, "p": p}
tab = pd.DataFrame(out).T
flag = tab.index[tab.p < 0.05].tolist()
print("months where night-shift scrap differs from day shift (p<0.05):", flag)
tab.round(3)
'''

_SHIFT_SOUND = '''
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

m = (df_sc.groupby([pd.Grouper(freq="MS"), "shift"])[["units_scrap", "units_built"]]
     .sum().unstack("shift"))
out = {}
for month, r in m.iterrows():
    cnt = [r["units_scrap", "NIGHT"], r["units_scrap", "DAY"]]
    nob = [r["units_built", "NIGHT"], r["units_built", "DAY"]]
    z, p = proportions_ztest(cnt, nob)
    out[month.strftime("%b")] = {"night_%": 100 * cnt[0] / nob[0], "day_%": 100 * cnt[1] / nob[1],
                                  "z": z, "p": p}
tab = pd.DataFrame(out).T
# 12 monthly tests -> Holm adjustment before flagging any month
tab["p_holm"] = multipletests(tab.p, method="holm")[1]
flag = tab.index[tab.p_holm < 0.05].tolist()
print("months where night-shift scrap differs from day shift (Holm p<0.05):", flag)
tab.round(3)
'''

CASES: list[Case] = [
    Case(
        id="h22-multcomp-inline-params-sort-fail",
        family="multiple_comparisons",
        code=_INLINE_FLAWED,
        setup=_INLINE_SETUP,
        twin="h22-multcomp-inline-params-sort-fail-sound",
        note="30 inline metrology params t-tested FAIL vs PASS and every p<0.05 listed as a "
             "sort-fail driver with no multiplicity correction",
        split="holdout22",
    ),
    Case(
        id="h22-multcomp-inline-params-sort-fail-sound",
        family=None,
        code=_INLINE_SOUND,
        setup=_INLINE_SETUP,
        twin="h22-multcomp-inline-params-sort-fail",
        note="same 30 Welch t-tests, drivers declared only at Benjamini-Hochberg q<0.05",
        split="holdout22",
    ),
    Case(
        id="h22-multcomp-monthly-night-shift-scrap",
        family="multiple_comparisons",
        code=_SHIFT_FLAWED,
        setup=_SHIFT_SETUP,
        twin="h22-multcomp-monthly-night-shift-scrap-sound",
        note="12 monthly night-vs-day scrap z-tests, months with p<0.05 flagged as night-shift "
             "problems without correcting for the 12 tests",
        split="holdout22",
    ),
    Case(
        id="h22-multcomp-monthly-night-shift-scrap-sound",
        family=None,
        code=_SHIFT_SOUND,
        setup=_SHIFT_SETUP,
        twin="h22-multcomp-monthly-night-shift-scrap",
        note="same 12 monthly z-tests with Holm-adjusted p-values before flagging months",
        split="holdout22",
    ),
]
