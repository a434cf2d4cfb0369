from bench.critic_corpus import Case

SPLIT = "holdout25"

_PUSH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(97)
rows = []
for country in ["DE", "FR", "ES", "IT", "NL", "PL"]:
    for platform in ["ios", "android"]:
        base = rng.uniform(0.035, 0.06)
        for arm in ["control", "rich_push"]:
            n = int(rng.integers(2500, 4000))
            rows.append({"country": country, "platform": platform, "arm": arm,
                         "recipients": n, "reactivated": int(rng.binomial(n, base))})
push = pd.DataFrame(rows)
'''

_SURVEY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2735)
items = ["ease_of_checkout", "search_quality", "delivery_speed", "product_photos",
         "price_fairness", "app_speed", "notifications", "returns_process", "loyalty_program",
         "customer_support", "wishlist", "recommendations", "payment_options", "tracking"]
n = 420
survey = pd.DataFrame({
    "resp_id": np.arange(n),
    "app_version": rng.choice(["4.x", "5.0"], n, p=[0.55, 0.45]),
    "nps_0_10": rng.choice(np.arange(11), n, p=[.02, .02, .03, .04, .05, .08, .1, .16, .2,
                                                    .15, .15]),
})
for it in items:
    survey[it] = rng.choice([1, 2, 3, 4, 5], n, p=[0.06, 0.12, 0.27, 0.35, 0.20])
'''

CASES = [
    Case(
        id="h25-mc-push-segment-ztests",
        family="multiple_comparisons",
        setup=_PUSH_SETUP,
        code='''
from statsmodels.stats.proportion import proportions_ztest

def readout(g):
    g = g.set_index("arm")
    cnt = g.loc[["rich_push", "control"], "reactivated"].to_numpy()
    nobs = g.loc[["rich_push", "control"], "recipients"].to_numpy()
    z, p = proportions_ztest(cnt, nobs)
    cr_t, cr_c = cnt / nobs
    return pd.Series({"cr_control": cr_c, "cr_rich": cr_t,
                      "lift_pct": 100 * (cr_t / cr_c - 1), "p_value": p})

seg = push.groupby(["country", "platform"]).apply(readout, include_groups=False)
seg["winner"] = np.where(seg.p_value < 0.05,
                         np.where(seg.lift_pct > 0, "rich_push", "control"), "-")
print(seg.round({"cr_control": 4, "cr_rich": 4, "lift_pct": 1, "p_value": 4}).to_string())
wins = seg[seg.winner == "rich_push"].index.tolist()
print(f"\\nrich push wins in {len(wins)} segment(s): {wins} -> roll out there first")
''',
        twin="h25-mc-push-segment-ztests-ok",
        note="12 country x platform z-tests are each judged at p<0.05 and the 'winning' segments "
             "are rolled out with no multiplicity correction",
        split=SPLIT,
    ),
    Case(
        id="h25-mc-push-segment-ztests-ok",
        family=None,
        setup=_PUSH_SETUP,
        code='''
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

def readout(g):
    g = g.set_index("arm")
    cnt = g.loc[["rich_push", "control"], "reactivated"].to_numpy()
    nobs = g.loc[["rich_push", "control"], "recipients"].to_numpy()
    z, p = proportions_ztest(cnt, nobs)
    cr_t, cr_c = cnt / nobs
    return pd.Series({"cr_control": cr_c, "cr_rich": cr_t,
                      "lift_pct": 100 * (cr_t / cr_c - 1), "p_value": p})

seg = push.groupby(["country", "platform"]).apply(readout, include_groups=False)
# 12 segment readouts -> control the false discovery rate across them
seg["p_bh"] = multipletests(seg.p_value, method="fdr_bh")[1]
seg["winner"] = np.where(seg.p_bh < 0.05,
                         np.where(seg.lift_pct > 0, "rich_push", "control"), "-")
print(seg.round({"cr_control": 4, "cr_rich": 4, "lift_pct": 1, "p_value": 4,
                 "p_bh": 4}).to_string())
wins = seg[seg.winner == "rich_push"].index.tolist()
print(f"\\nrich push wins after BH correction in {len(wins)} segment(s): {wins}")
''',
        twin="h25-mc-push-segment-ztests",
        note="the 12 segment z-tests are Benjamini-Hochberg adjusted before any segment is "
             "called a winner",
        split=SPLIT,
    ),
    Case(
        id="h25-mc-csat-items-mannwhitney",
        family="multiple_comparisons",
        setup=_SURVEY_SETUP,
        code='''
from scipy.stats import mannwhitneyu

old, new = survey[survey.app_version == "4.x"], survey[survey.app_version == "5.0"]
items = [c for c in survey.columns if c not in ("resp_id", "app_version", "nps_0_10")]

tests = {it: mannwhitneyu(new[it], old[it], alternative="two-sided").pvalue for it in items}
delta = {it: new[it].mean() - old[it].mean() for it in items}

print(f"respondents: 4.x={len(old)}  5.0={len(new)}")
for it in sorted(items, key=tests.get):
    flag = "  <-- significant" if tests[it] < 0.05 else ""
    print(f"{it:18s} d_mean={delta[it]:+.2f}  p={tests[it]:.3f}{flag}")
moved = [it for it in items if tests[it] < 0.05]
print(f"\\nv5.0 moved CSAT on: {moved}")
''',
        twin="h25-mc-csat-items-mannwhitney-ok",
        note="14 CSAT items are each tested at 0.05 between app versions and the significant "
             "ones reported as moved, with no correction for the 14 tests",
        split=SPLIT,
    ),
    Case(
        id="h25-mc-csat-items-mannwhitney-ok",
        family=None,
        setup=_SURVEY_SETUP,
        code='''
from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

old, new = survey[survey.app_version == "4.x"], survey[survey.app_version == "5.0"]
items = [c for c in survey.columns if c not in ("resp_id", "app_version", "nps_0_10")]

raw = {it: mannwhitneyu(new[it], old[it], alternative="two-sided").pvalue for it in items}
delta = {it: new[it].mean() - old[it].mean() for it in items}
# Holm adjustment across the 14 items
adj = dict(zip(items, multipletests([raw[it] for it in items], method="holm")[1]))

print(f"respondents: 4.x={len(old)}  5.0={len(new)}")
for it in sorted(items, key=raw.get):
    flag = "  <-- significant (Holm)" if adj[it] < 0.05 else ""
    print(f"{it:18s} d_mean={delta[it]:+.2f}  p={raw[it]:.3f}  p_holm={adj[it]:.3f}{flag}")
moved = [it for it in items if adj[it] < 0.05]
print(f"\\nv5.0 moved CSAT (family-wise 5%): {moved}")
''',
        twin="h25-mc-csat-items-mannwhitney",
        note="the 14 item-level tests are Holm-adjusted before any CSAT item is called moved",
        split=SPLIT,
    ),
]
