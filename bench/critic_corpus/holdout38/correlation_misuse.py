from bench.critic_corpus import Case

_OPS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3813)
weeks = pd.date_range("2023-01-02", periods=78, freq="W-MON")
n_services = 40 + np.cumsum(rng.poisson(0.8, 78))
traffic = np.linspace(1.0, 2.3, 78)
pages = rng.poisson(6 * traffic * rng.lognormal(0, 0.15, 78))
ops = pd.DataFrame({"week": weeks, "n_services": n_services, "pages": pages})
'''

_TIMING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3814)
n = 600
true_ms = rng.lognormal(np.log(120), 0.6, n)
timings = pd.DataFrame({
    "request_id": [f"req-{i:05d}" for i in range(n)],
    "legacy_ms": (true_ms + rng.normal(0, 4, n)).round(1),
    "otel_ms": (1.12 * true_ms + 9 + rng.normal(0, 5, n)).round(1),
})
'''

CASES: list[Case] = [
    Case(
        id="h38-cm-services-vs-pages",
        family="correlation_misuse",
        split="holdout38",
        twin="h38-cm-services-vs-pages-ok",
        setup=_OPS_SETUP,
        code='''
from scipy.stats import pearsonr

r, p = pearsonr(ops["n_services"], ops["pages"])
slope, intercept = np.polyfit(ops["n_services"], ops["pages"], 1)
print(f"{len(ops)} weeks: services {ops.n_services.iloc[0]} -> {ops.n_services.iloc[-1]}, "
      f"pages/week {ops.pages.iloc[:4].mean():.1f} -> {ops.pages.iloc[-4:].mean():.1f}")
print(f"Pearson r(services, weekly pages) = {r:.2f}, p = {p:.1g}")
print(f"each new microservice adds ~{slope:.2f} pages/week; "
      f"+20 services planned -> +{20 * slope:.1f} pages/week")
''',
        note="Two upward-trending weekly series are correlated in levels and the slope is read "
             "as the causal effect of each new service on pages.",
    ),
    Case(
        id="h38-cm-services-vs-pages-ok",
        family=None,
        split="holdout38",
        twin="h38-cm-services-vs-pages",
        setup=_OPS_SETUP,
        code='''
from scipy.stats import spearmanr

# both series trend with time, so compare week-over-week changes, not levels
d = ops[["n_services", "pages"]].diff().iloc[1:]
rho, p = spearmanr(d["n_services"], d["pages"])
print(f"{len(d)} week-over-week changes")
print(f"Spearman rho(new services that week, change in pages) = {rho:.2f}, p = {p:.2f}")
print("association only: no evidence here that adding services drives the page volume")
''',
        note="Correlates first differences of the two trending series and reports it as an "
             "association, with no causal reading.",
    ),
    Case(
        id="h38-cm-otel-agreement",
        family="correlation_misuse",
        split="holdout38",
        twin="h38-cm-otel-agreement-ok",
        setup=_TIMING_SETUP,
        code='''
r = timings["legacy_ms"].corr(timings["otel_ms"])
display_tbl = timings[["legacy_ms", "otel_ms"]].describe().round(1)
print(display_tbl)
print(f"Pearson r between legacy timer and OTel span durations: {r:.3f}")
print("=> the two instruments agree; switching the latency SLO to OTel spans is safe")
''',
        note="Agreement between two latency instruments is judged by Pearson r, which ignores "
             "the constant and proportional bias between them.",
    ),
    Case(
        id="h38-cm-otel-agreement-ok",
        family=None,
        split="holdout38",
        twin="h38-cm-otel-agreement",
        setup=_TIMING_SETUP,
        code='''
import statsmodels.api as sm

# Bland-Altman: agreement is about the differences, not the correlation
diff = timings["otel_ms"] - timings["legacy_ms"]
mean = (timings["otel_ms"] + timings["legacy_ms"]) / 2
bias, sd = diff.mean(), diff.std(ddof=1)
print(f"mean difference (OTel - legacy): {bias:.1f} ms, "
      f"95% limits of agreement [{bias - 1.96 * sd:.1f}, {bias + 1.96 * sd:.1f}] ms")
prop = sm.OLS(diff, sm.add_constant(mean)).fit()
print(f"proportional bias: {prop.params.iloc[1]:.3f} ms per ms of latency "
      f"(95% CI {prop.conf_int().iloc[1, 0]:.3f} to {prop.conf_int().iloc[1, 1]:.3f})")
print("=> not interchangeable without recalibrating the SLO threshold")
''',
        note="Bland-Altman bias, limits of agreement and a proportional-bias check assess "
             "agreement of the two instruments properly.",
    ),
]
