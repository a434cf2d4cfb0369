from bench.critic_corpus import Case

_REFERRAL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 2600
platform = rng.choice(["web", "android", "ios"], n, p=[0.45, 0.3, 0.25])
ts = pd.Timestamp("2024-04-01") + pd.to_timedelta(rng.integers(0, 56 * 86400, n), "s")
ref_p = pd.Series(platform).map({"web": 0.12, "android": 0.18, "ios": 0.34}).to_numpy()
signups = pd.DataFrame({
    "user_id": rng.integers(10**6, 10**7, n),
    "platform": platform,
    # the iOS client logs local-format timestamps
    "signup_ts": np.where(platform == "ios", ts.strftime("%d/%m/%Y %H:%M"),
                          ts.strftime("%Y-%m-%d %H:%M:%S")),
    "acquisition": np.where(rng.random(n) < ref_p, "referral",
                            rng.choice(["organic", "paid", "social"], n)),
})
'''

_SEARCH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3131)
n = 4000
searches = pd.DataFrame({
    "search_id": np.arange(n) + 5_000_000,
    "ranker": rng.choice(["bm25_baseline", "ltr_v3"], n),
    "query_len": rng.integers(1, 7, n),
})
no_click_p = np.where(searches["ranker"] == "ltr_v3", 0.46, 0.34)
has_click = rng.random(n) > no_click_p
clicked = searches.loc[has_click, ["search_id", "ranker"]]
clicks = clicked.loc[clicked.index.repeat(1 + rng.poisson(0.6, len(clicked)))]
top = np.where(clicks["ranker"] == "ltr_v3", 0.55, 0.45)
clicks = pd.DataFrame({
    "search_id": clicks["search_id"].to_numpy(),
    "position": np.where(rng.random(len(clicks)) < top, 1, rng.integers(2, 11, len(clicks))),
})
clicks["dwell_s"] = np.round(rng.lognormal(3, 1, len(clicks)), 1)
'''

CASES: list[Case] = [
    Case(
        id="h18-data_loss-referral-signup-parse",
        family="data_loss",
        setup=_REFERRAL_SETUP,
        code='''df = signups.copy()
df["signup_at"] = pd.to_datetime(df["signup_ts"], format="%Y-%m-%d %H:%M:%S", errors="coerce")
df = df.dropna(subset=["signup_at"])

weekly = (df.assign(is_referral=df["acquisition"].eq("referral"))
            .set_index("signup_at")
            .resample("W-SUN")["is_referral"].agg(["size", "mean"])
            .rename(columns={"size": "signups", "mean": "referral_share"}))
weekly["referral_share"] = weekly["referral_share"].map("{:.1%}".format)
print(f"referral programme share of sign-ups, overall "
      f"{df['acquisition'].eq('referral').mean():.1%}")
weekly
''',
        twin="h18-data_loss-referral-signup-parse-ok",
        note="Coercing timestamps with a single format turns every iOS (day-first) timestamp "
             "into NaT, and dropna silently removes them, the platform with most referrals.",
        split="holdout18",
    ),
    Case(
        id="h18-data_loss-referral-signup-parse-ok",
        family=None,
        setup=_REFERRAL_SETUP,
        code='''df = signups.copy()
iso = pd.to_datetime(df["signup_ts"], format="%Y-%m-%d %H:%M:%S", errors="coerce")
dayfirst = pd.to_datetime(df["signup_ts"], format="%d/%m/%Y %H:%M", errors="coerce")
df["signup_at"] = iso.fillna(dayfirst)
unparsed = df["signup_at"].isna()
print(f"parsed {(~unparsed).sum():,} of {len(df):,} sign-ups; unparsed: {unparsed.sum()}")
assert not unparsed.any()

weekly = (df.assign(is_referral=df["acquisition"].eq("referral"))
            .set_index("signup_at")
            .resample("W-SUN")["is_referral"].agg(["size", "mean"])
            .rename(columns={"size": "signups", "mean": "referral_share"}))
weekly["referral_share"] = weekly["referral_share"].map("{:.1%}".format)
print(f"referral programme share of sign-ups, overall "
      f"{df['acquisition'].eq('referral').mean():.1%}")
weekly
''',
        twin="h18-data_loss-referral-signup-parse",
        note="Parses both timestamp formats, reports and asserts that no sign-up is left "
             "unparsed, so all platforms are in the weekly referral share.",
        split="holdout18",
    ),
    Case(
        id="h18-data_loss-search-mrr-inner-join",
        family="data_loss",
        setup=_SEARCH_SETUP,
        code='''first_click = clicks.groupby("search_id", as_index=False)["position"].min()
sc = searches.merge(first_click, on="search_id")
sc["rr"] = 1.0 / sc["position"]

report = sc.groupby("ranker").agg(MRR=("rr", "mean"),
                                   top1_share=("position", lambda s: (s == 1).mean()),
                                   avg_first_click_pos=("position", "mean"))
lift = report.loc["ltr_v3", "MRR"] / report.loc["bm25_baseline", "MRR"] - 1
print(f"MRR lift, ltr_v3 vs baseline: {lift:+.1%}")
report.round(3)
''',
        twin="h18-data_loss-search-mrr-inner-join-ok",
        note="The default inner merge drops every search with no click (far more of them under "
             "ltr_v3), so MRR is computed on clicked searches only and the lift is reversed.",
        split="holdout18",
    ),
    Case(
        id="h18-data_loss-search-mrr-inner-join-ok",
        family=None,
        setup=_SEARCH_SETUP,
        code='''first_click = clicks.groupby("search_id", as_index=False)["position"].min()
sc = searches.merge(first_click, on="search_id", how="left")
sc["rr"] = (1.0 / sc["position"]).fillna(0.0)
print(f"{len(sc):,} searches, {sc['position'].isna().sum():,} without a click (RR = 0)")

report = sc.groupby("ranker").agg(searches=("search_id", "size"),
                                   MRR=("rr", "mean"),
                                   zero_click_rate=("position", lambda s: s.isna().mean()),
                                   top1_share=("position", lambda s: (s == 1).mean()))
lift = report.loc["ltr_v3", "MRR"] / report.loc["bm25_baseline", "MRR"] - 1
print(f"MRR lift, ltr_v3 vs baseline: {lift:+.1%}")
report.round(3)
''',
        twin="h18-data_loss-search-mrr-inner-join",
        note="Left-joins clicks onto every search, scores no-click searches as reciprocal rank "
             "0 and reports the zero-click rate alongside MRR.",
        split="holdout18",
    ),
]
