from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h38-sg-endpoint-percentiles",
        family=None,
        split="holdout38",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3821)
eps = {"GET /home": (60, 0.4), "GET /search": (140, 0.6), "POST /checkout": (320, 0.5),
       "GET /product": (90, 0.45), "POST /login": (110, 0.35)}
parts = [pd.DataFrame({"endpoint": ep,
                       "latency_ms": rng.lognormal(np.log(med), s, rng.integers(800, 4000))})
         for ep, (med, s) in eps.items()]
access = pd.concat(parts, ignore_index=True).round(2)
''',
        code='''
pct = (access.groupby("endpoint")["latency_ms"]
       .quantile([0.5, 0.95, 0.99])
       .unstack()
       .rename(columns={0.5: "p50_ms", 0.95: "p95_ms", 0.99: "p99_ms"}))
pct.insert(0, "requests", access.groupby("endpoint").size())
pct["tail_ratio_p99_p50"] = pct["p99_ms"] / pct["p50_ms"]
pct.sort_values("p99_ms", ascending=False).round(1)
''',
        note="Descriptive per-endpoint latency percentiles with request counts; no inference, "
             "quantiles suit skewed latencies.",
    ),
    Case(
        id="h38-sg-error-rate-plot",
        family=None,
        split="holdout38",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3822)
idx = pd.date_range("2024-06-03", periods=7 * 288, freq="5min")
requests = rng.poisson(4000 * (1 + 0.4 * np.sin(2 * np.pi * np.arange(len(idx)) / 288)))
p_err = np.full(len(idx), 0.0008)
p_err[1500:1530] = 0.006
errors = rng.binomial(requests, p_err)
win = pd.DataFrame({"requests": requests, "errors_5xx": errors}, index=idx)
''',
        code='''
import matplotlib.pyplot as plt

win["err_pct"] = 100 * win["errors_5xx"] / win["requests"]
win["err_pct_1h_median"] = win["err_pct"].rolling("1h").median()
SLO_ERR_PCT = 0.25

fig, ax = plt.subplots(figsize=(10, 3.5))
ax.plot(win.index, win["err_pct"], lw=0.5, alpha=0.5, label="5-min error %")
ax.plot(win.index, win["err_pct_1h_median"], lw=1.5, label="1-h rolling median")
ax.axhline(SLO_ERR_PCT, color="red", ls="--", label="SLO threshold")
ax.set_ylabel("5xx %")
ax.legend(loc="upper left")
fig.tight_layout()

over = win["err_pct"] > SLO_ERR_PCT
print(f"{over.sum()} of {len(win)} five-minute windows above {SLO_ERR_PCT}% "
      f"(first {over.idxmax() if over.any() else None})")
print(f"week error rate: {100 * win.errors_5xx.sum() / win.requests.sum():.4f}%")
''',
        note="Plots the error-rate series with a rolling median and SLO line and counts windows "
             "above threshold from all windows; purely descriptive.",
    ),
    Case(
        id="h38-sg-capacity-ols",
        family=None,
        split="holdout38",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3823)
steps = np.repeat(np.arange(500, 6001, 250), 3)
cpu = 8 + 0.0115 * steps + rng.normal(0, 2.0, len(steps))
load = pd.DataFrame({"target_rps": steps, "cpu_pct": cpu.round(2)})
''',
        code='''
import statsmodels.formula.api as smf

fit = smf.ols("cpu_pct ~ target_rps", data=load).fit()
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} load-test steps, R^2 = {fit.rsquared:.3f}, "
      f"residual sd {np.sqrt(fit.scale):.2f} pp")
# projected peak (4,800 rps) lies inside the tested range, so this is not an extrapolation
pred = fit.get_prediction(pd.DataFrame({"target_rps": [4800]})).summary_frame(alpha=0.05)
print(pred[["mean", "obs_ci_lower", "obs_ci_upper"]].round(1))
print(f"headroom at projected peak: {100 - pred['obs_ci_upper'].iloc[0]:.1f} pp of CPU "
      f"(upper 95% prediction bound)")
''',
        note="Linear CPU-vs-RPS fit on a load test with a prediction interval at a peak inside "
             "the tested range; residuals are homoscedastic normal.",
    ),
    Case(
        id="h38-sg-oncall-groupby",
        family=None,
        split="holdout38",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3824)
n = 900
pages = pd.DataFrame({
    "team": rng.choice(["payments", "platform", "search", "identity"], n, p=[.3, .35, .2, .15]),
    "fired_at": pd.Timestamp("2024-04-01") + pd.to_timedelta(rng.uniform(0, 56, n), unit="D"),
    "urgency": rng.choice(["high", "low"], n, p=[0.4, 0.6]),
})
pages["ack_min"] = rng.lognormal(np.log(4), 0.8, n).round(1)
''',
        code='''
pages["week"] = pages["fired_at"].dt.to_period("W-SUN")
weekly = pages.groupby(["team", "week"]).size().unstack("team", fill_value=0)
print("pages per week (8 weeks):")
print(weekly.describe().loc[["mean", "50%", "max"]].round(1))

ack = pages.groupby(["team", "urgency"])["ack_min"].agg(
    pages="size", median_ack_min="median",
    acked_within_5min=lambda s: (s <= 5).mean())
ack.round(2)
''',
        note="Counts pages per team-week (zero-filled) and summarises ack times with medians and "
             "within-5-min shares; descriptive, nothing dropped.",
    ),
    Case(
        id="h38-sg-burn-rate",
        family=None,
        split="holdout38",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3825)
idx = pd.date_range("2024-05-01", periods=30 * 24 * 12, freq="5min")
reqs = rng.poisson(3000, len(idx))
p_bad = np.full(len(idx), 0.0004)
p_bad[4000:4060] = 0.02
p_bad[6000:6600] = 0.0025
bad = rng.binomial(reqs, p_bad)
sli = pd.DataFrame({"requests": reqs, "bad": bad}, index=idx)
''',
        code='''
SLO = 0.999
budget = 1 - SLO

def burn_rate(df, window):
    r = df.rolling(window).sum()
    return (r["bad"] / r["requests"]) / budget

burn = pd.DataFrame({w: burn_rate(sli, w) for w in ["5min", "30min", "1h", "6h"]})
# Google SRE multiwindow rule: page when both the long and short window burn fast
page_fast = (burn["1h"] > 14.4) & (burn["5min"] > 14.4)
page_slow = (burn["6h"] > 6) & (burn["30min"] > 6)
print(f"30-day budget used: {100 * sli.bad.sum() / sli.requests.sum() / budget:.1f}%")
print(f"fast-burn page windows: {page_fast.sum()}, first at "
      f"{page_fast.idxmax() if page_fast.any() else None}")
print(f"slow-burn page windows: {page_slow.sum()}, first at "
      f"{page_slow.idxmax() if page_slow.any() else None}")
burn.max().round(2)
''',
        note="Deterministic multiwindow SLO burn-rate computation on a month of request counts; "
             "ratios of sums, no inference.",
    ),
]
