from bench.critic_corpus import Case

_POSTCODE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1066)
sectors = [f"{a}{d} {s}" for a in ["LS", "M", "B", "NE", "BS", "CF", "G", "SO"]
           for d in range(1, 6) for s in range(1, 5)]
region_of = {"LS": "Yorkshire", "M": "North West", "B": "West Midlands", "NE": "North East",
             "BS": "South West", "CF": "Wales", "G": "Scotland", "SO": "South East"}
lookup = pd.DataFrame({"pc_sector": sectors})
lookup["region"] = lookup["pc_sector"].str.extract(r"^([A-Z]+)")[0].map(region_of)

n = 2400
vi = pd.DataFrame({
    "respid": np.arange(1, n + 1),
    "mode": rng.choice(["web", "phone"], n, p=[0.6, 0.4]),
    "pc_sector": rng.choice(sectors, n),
    "wt": rng.lognormal(0, 0.35, n).round(4),
})
vi["age"] = np.where(vi["mode"] == "web", rng.integers(18, 66, n), rng.integers(35, 91, n))
# web respondents type their own postcode: lower case / no space for many of them
web = (vi["mode"] == "web").to_numpy() & (rng.random(n) < 0.45)
vi.loc[web, "pc_sector"] = vi.loc[web, "pc_sector"].str.lower().str.replace(" ", "")
vi.loc[rng.choice(n, 18, replace=False), "pc_sector"] = "REFUSED"
p_lab = np.clip(0.62 - 0.006 * (vi["age"] - 18), 0.15, 0.8)
vi["vote"] = np.where(rng.random(n) < p_lab, "Labour",
                      rng.choice(["Conservative", "Lib Dem", "Reform", "Green"], n,
                                 p=[0.45, 0.2, 0.25, 0.1]))
'''

_MEDIA_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2112)
n = 1800
media = pd.DataFrame({
    "id": np.arange(1, n + 1),
    "age_band": rng.choice(["18-34", "35-54", "55+"], n, p=[0.3, 0.35, 0.35]),
    "weight": rng.lognormal(0, 0.3, n).round(3),
})
young = (media["age_band"] == "18-34").to_numpy()
old = (media["age_band"] == "55+").to_numpy()
media["main_news_source"] = np.where(
    young, rng.choice(["TV", "Online", "Social media", "Radio", "Newspaper"], n,
                      p=[0.20, 0.32, 0.38, 0.05, 0.05]),
    np.where(old, rng.choice(["TV", "Online", "Social media", "Radio", "Newspaper"], n,
                             p=[0.52, 0.14, 0.04, 0.12, 0.18]),
             rng.choice(["TV", "Online", "Social media", "Radio", "Newspaper"], n,
                        p=[0.38, 0.30, 0.14, 0.10, 0.08])))
# Q7 used social media for news in the past week; Q7b "Which platform?" routed to Q7 = yes
media["q7_social_news"] = rng.binomial(1, np.where(young, 0.75, np.where(old, 0.2, 0.45)))
media["q7b_platform"] = np.where(media["q7_social_news"] == 1,
                                 rng.choice(["Facebook", "X", "TikTok", "Instagram"], n),
                                 None)
# income band 1-7, 22% refused
media["hh_income_band"] = np.where(rng.random(n) < 0.22, np.nan, rng.integers(1, 8, n))
media["trust_news"] = rng.integers(0, 11, n).astype(float)
media.loc[rng.random(n) < 0.03, "trust_news"] = np.nan
'''

CASES: list[Case] = [
    Case(
        id="h31-data-loss-inner-merge-postcode-lookup",
        family="data_loss",
        setup=_POSTCODE_SETUP,
        code='''vi_geo = vi.merge(lookup, on="pc_sector")

topline = vi_geo.groupby("vote")["wt"].sum() / vi_geo["wt"].sum() * 100
print("Vote intention, GB (weighted %):")
print(topline.round(1).sort_values(ascending=False).to_string())
(100 * pd.crosstab(vi_geo["region"], vi_geo["vote"], values=vi_geo["wt"], aggfunc="sum",
                   normalize="index")).round(1)
''',
        twin="h31-data-loss-inner-merge-postcode-lookup-ok",
        note="Inner merge on raw postcode text drops every web respondent who typed a "
             "lower-case/no-space postcode (a quarter of the sample, all web, younger) silently.",
        split="holdout31",
    ),
    Case(
        id="h31-data-loss-inner-merge-postcode-lookup-ok",
        family=None,
        setup=_POSTCODE_SETUP,
        code='''# normalise self-typed postcodes ("ls34" -> "LS3 4") before matching to the lookup
pc = vi["pc_sector"].str.upper().str.replace(" ", "", regex=False)
vi["pc_sector_clean"] = pc.str[:-1] + " " + pc.str[-1]
vi_geo = vi.merge(lookup, left_on="pc_sector_clean", right_on="pc_sector",
                  how="left", suffixes=("", "_lkp"), indicator=True)
unmatched = (vi_geo["_merge"] == "left_only").sum()
print(f"postcode match: {len(vi_geo) - unmatched} of {len(vi)} matched, {unmatched} unmatched")
vi_geo["region"] = vi_geo["region"].fillna("Unmatched")

topline = vi_geo.groupby("vote")["wt"].sum() / vi_geo["wt"].sum() * 100
print("Vote intention, GB (weighted %):")
print(topline.round(1).sort_values(ascending=False).to_string())
(100 * pd.crosstab(vi_geo["region"], vi_geo["vote"], values=vi_geo["wt"], aggfunc="sum",
                   normalize="index")).round(1)
''',
        twin="h31-data-loss-inner-merge-postcode-lookup",
        note="Postcodes are normalised, the merge is a left join with an indicator, and matched/"
             "unmatched counts are printed; nobody is silently dropped from the topline.",
        split="holdout31",
    ),
    Case(
        id="h31-data-loss-dropna-routed-question",
        family="data_loss",
        setup=_MEDIA_SETUP,
        code='''clean = media.dropna()
top = (clean.groupby("main_news_source")["weight"].sum() / clean["weight"].sum() * 100)
print("Main source of news (weighted %)")
print(top.sort_values(ascending=False).round(1).to_string())
trust = np.average(clean["trust_news"], weights=clean["weight"])
print(f"\\nmean trust in news (0-10): {trust:.2f}")
''',
        twin="h31-data-loss-dropna-routed-question-ok",
        note="dropna() on the whole file removes everyone not routed to Q7b (no social-media "
             "news, mostly older) and income refusers before the topline; no count shown.",
        split="holdout31",
    ),
    Case(
        id="h31-data-loss-dropna-routed-question-ok",
        family=None,
        setup=_MEDIA_SETUP,
        code='''# Q7b is routed and income is not needed here: only require the variables used
base = media.dropna(subset=["main_news_source"])
top = (base.groupby("main_news_source")["weight"].sum() / base["weight"].sum() * 100)
print(f"Main source of news (weighted %), base = {len(base)} of {len(media)}")
print(top.sort_values(ascending=False).round(1).to_string())
tr = media.dropna(subset=["trust_news"])
print(f"\\nmean trust in news (0-10): {np.average(tr['trust_news'], weights=tr['weight']):.2f} "
      f"(base = {len(tr)}; {len(media) - len(tr)} did not answer)")
''',
        twin="h31-data-loss-dropna-routed-question",
        note="Each estimate drops only rows missing the variable it uses and prints its base.",
        split="holdout31",
    ),
]
