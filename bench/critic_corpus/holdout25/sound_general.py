from bench.critic_corpus import Case

SPLIT = "holdout25"

CASES = [
    Case(
        id="h25-sound-weekly-cohort-retention",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7007)
n = 2400
installs = pd.DataFrame({
    "user_id": np.arange(n),
    "install_ts": pd.Timestamp("2024-08-05") + pd.to_timedelta(rng.integers(0, 56 * 24, n),
                                                               unit="h"),
})
ev = []
for uid, ts in zip(installs.user_id, installs.install_ts):
    life = rng.exponential(20)
    for d in range(0, int(min(life, 60)) + 1, int(rng.integers(1, 5))):
        ev.append((uid, ts + pd.Timedelta(days=d, hours=int(rng.integers(0, 20)))))
events = pd.DataFrame(ev, columns=["user_id", "event_ts"])
''',
        code='''
snapshot = events.event_ts.max()
ev = events.merge(installs, on="user_id", how="left", validate="many_to_one")
ev["week_n"] = (ev.event_ts - ev.install_ts).dt.days // 7

# weekly install cohorts; W0 = everyone in the cohort
cohort_of = installs.set_index("user_id").install_ts.dt.to_period("W-SUN")
ev["cohort"] = ev.user_id.map(cohort_of)
active = ev.pivot_table(index="cohort", columns="week_n", values="user_id",
                        aggfunc="nunique").reindex(columns=range(0, 5))
sizes = installs.groupby(pd.Grouper(key="install_ts", freq="W-SUN")).size()
sizes.index = sizes.index.to_period("W-SUN")
retention = active.div(sizes, axis=0)

# blank out cells that the snapshot has not fully observed yet
for cohort in retention.index:
    for wk in retention.columns:
        if cohort.end_time + pd.Timedelta(weeks=wk + 1) > snapshot:
            retention.loc[cohort, wk] = np.nan
print("cohort sizes:", sizes.to_dict())
print(retention.round(3).to_string())
print(f"\\nW1 retention (fully observed cohorts): {retention[1].mean():.1%}")
print(f"W4 retention (fully observed cohorts): {retention[4].mean():.1%}")
''',
        note="weekly cohorts use the full cohort size as denominator and blank out "
             "not-yet-observed (right-censored) cells before averaging retention",
        split=SPLIT,
    ),
    Case(
        id="h25-sound-merge-asof-install-attribution",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n_i, n_c = 3000, 5200
t0 = pd.Timestamp("2024-11-01")
inst = pd.DataFrame({
    "device_id": rng.integers(0, 4000, n_i),
    "install_ts": t0 + pd.to_timedelta(rng.integers(0, 30 * 86400, n_i), unit="s"),
})
clicks = pd.DataFrame({
    "device_id": rng.integers(0, 4000, n_c),
    "click_ts": t0 + pd.to_timedelta(rng.integers(-7 * 86400, 30 * 86400, n_c), unit="s"),
    "network": rng.choice(["meta", "google_uac", "tiktok", "applovin"], n_c,
                          p=[0.35, 0.35, 0.2, 0.1]),
})
''',
        code='''
inst_s = inst.sort_values("install_ts")
clicks_s = clicks.sort_values("click_ts")
# last click on the same device within the 7-day lookback window before the install
att = pd.merge_asof(inst_s, clicks_s, left_on="install_ts", right_on="click_ts",
                    by="device_id", direction="backward", tolerance=pd.Timedelta(days=7))
assert len(att) == len(inst)
att["network"] = att.network.fillna("organic")

summary = att.groupby("network").agg(installs=("device_id", "size"))
summary["share"] = summary.installs / summary.installs.sum()
lag_h = (att.install_ts - att.click_ts).dt.total_seconds() / 3600
print(summary.sort_values("installs", ascending=False).round(3).to_string())
print(f"\\ninstalls total      : {len(att):,}")
print(f"attributed to paid  : {(att.network != 'organic').sum():,} "
      f"({(att.network != 'organic').mean():.1%})")
print(f"median click->install lag: {lag_h.median():.1f} h")
''',
        note="merge_asof last-click attribution with a 7-day lookback keeps every install, labels "
             "unmatched ones organic and reports the shares",
        split=SPLIT,
    ),
    Case(
        id="h25-sound-pricing-test-primary-ztest",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1999)
n = 24000
pt = pd.DataFrame({
    "visitor_id": np.arange(n),
    "price_arm": rng.choice(["9.99", "12.99"], n),
})
conv_p = np.where(pt.price_arm == "9.99", 0.052, 0.045)
pt["subscribed"] = (rng.random(n) < conv_p).astype(int)
pt["price"] = pt.price_arm.astype(float)
pt["revenue_m1"] = pt.subscribed * pt.price
''',
        code='''
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

# pre-registered primary metric: trial-to-paid conversion; revenue per visitor is descriptive
g = pt.groupby("price_arm").agg(visitors=("visitor_id", "size"),
                                subs=("subscribed", "sum"),
                                rpv=("revenue_m1", "mean"))
g["conv"] = g.subs / g.visitors
print(g.round(4).to_string())

hi, lo = g.loc["12.99"], g.loc["9.99"]
z, p = proportions_ztest([hi.subs, lo.subs], [hi.visitors, lo.visitors])
ci = confint_proportions_2indep(hi.subs, hi.visitors, lo.subs, lo.visitors, compare="diff")
print(f"\\nconversion diff (12.99 - 9.99): {hi.conv - lo.conv:+.4f} "
      f"95% CI [{ci[0]:+.4f}, {ci[1]:+.4f}], z={z:.2f}, p={p:.2g}")
print(f"revenue per visitor: 12.99 -> EUR {hi.rpv:.3f}, 9.99 -> EUR {lo.rpv:.3f} "
      f"({hi.rpv / lo.rpv - 1:+.1%})")
''',
        note="a single pre-registered proportion test with a CI on the difference, revenue per "
             "visitor shown descriptively; large randomised samples",
        split=SPLIT,
    ),
    Case(
        id="h25-sound-basket-pair-lift",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5555)
cats = ["coffee", "milk", "pastry", "cereal", "bananas", "yogurt", "bread", "eggs"]
base = np.array([0.35, 0.3, 0.18, 0.12, 0.25, 0.15, 0.3, 0.2])
rows = []
for b in range(4000):
    has = rng.random(len(cats)) < base
    if has[0] and rng.random() < 0.35:
        has[2] = True                                    # coffee + pastry bundle effect
    if has[3] and rng.random() < 0.5:
        has[1] = True                                    # cereal pulls milk
    rows += [(b, c) for c, h in zip(cats, has) if h]
lines = pd.DataFrame(rows, columns=["basket_id", "category"])
''',
        code='''
from itertools import combinations

basket = pd.crosstab(lines.basket_id, lines.category).clip(upper=1).astype(bool)
n_b = len(basket)
support = basket.mean()

pairs = []
for a, b in combinations(basket.columns, 2):
    both = (basket[a] & basket[b]).mean()
    if both * n_b < 50:                      # ignore pairs seen in fewer than 50 baskets
        continue
    pairs.append({"pair": f"{a}+{b}", "baskets": int(both * n_b), "support": both,
                  "conf_a_to_b": both / support[a], "lift": both / (support[a] * support[b])})
rules = pd.DataFrame(pairs).sort_values("lift", ascending=False)
print(f"baskets analysed: {n_b:,} (only baskets with >=1 tracked category)")
print(rules.head(6).round(3).to_string(index=False))
print("\\ncandidate bundles (lift > 1.3):", rules.loc[rules.lift > 1.3, "pair"].tolist())
''',
        note="descriptive basket analysis: support, confidence and lift with a minimum-count "
             "filter; no inferential claims",
        split=SPLIT,
    ),
    Case(
        id="h25-sound-app-store-one-star-binomtest",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8118)
hist = pd.DataFrame({
    "review_date": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 300, 6000),
                                                                unit="D"),
    "stars": rng.choice([1, 2, 3, 4, 5], 6000, p=[0.08, 0.05, 0.1, 0.27, 0.5]),
})
post = pd.DataFrame({
    "review_date": pd.Timestamp("2024-10-28") + pd.to_timedelta(rng.integers(0, 14, 520),
                                                                unit="D"),
    "stars": rng.choice([1, 2, 3, 4, 5], 520, p=[0.13, 0.06, 0.1, 0.24, 0.47]),
})
reviews = pd.concat([hist, post], ignore_index=True)
''',
        code='''
from scipy.stats import binomtest

release = pd.Timestamp("2024-10-28")
before = reviews[reviews.review_date < release]
after = reviews[reviews.review_date >= release]

weekly = (reviews.set_index("review_date").resample("W")["stars"]
          .agg(["size", "mean", lambda s: (s == 1).mean()]))
weekly.columns = ["reviews", "avg_stars", "one_star_share"]
print(weekly.tail(6).round(3).to_string())

baseline = (before.stars == 1).mean()
k, n = int((after.stars == 1).sum()), len(after)
res = binomtest(k, n, baseline, alternative="two-sided")
ci = res.proportion_ci()
print(f"\\n1-star share before v8.0 release: {baseline:.1%} ({len(before):,} reviews)")
print(f"1-star share after  v8.0 release: {k / n:.1%} ({n} reviews) "
      f"95% CI [{ci.low:.1%}, {ci.high:.1%}], p={res.pvalue:.2g}")
''',
        note="one pre-specified exact binomial test of the post-release 1-star share against the "
             "long-run baseline, with an exact CI and review counts",
        split=SPLIT,
    ),
]
