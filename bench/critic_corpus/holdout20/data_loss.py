from bench.critic_corpus import Case

_SETUP_TRI = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(2121)
n_cl = 900
acc_dt = pd.Timestamp("2018-01-01") + pd.to_timedelta(rng.integers(0, 6 * 365, n_cl), "D")
legacy = rng.random(n_cl) < 0.3
acc_str = np.where(legacy, acc_dt.strftime("%d/%m/%Y"), acc_dt.strftime("%Y-%m-%d"))
rows = []
for cid, a, s in zip(range(n_cl), acc_dt, acc_str):
    k = rng.integers(1, 5)
    lags = np.sort(rng.exponential(500, k)).astype(int)
    for lag in lags:
        pay = a + pd.Timedelta(days=int(lag))
        if pay <= pd.Timestamp("2023-12-31"):
            rows.append((f"CLM{cid:05d}", s, pay, round(float(rng.lognormal(7, 1)), 2)))
payments = pd.DataFrame(rows, columns=["claim_id", "accident_date", "paid_date", "paid_gbp"])
'''

_FLAW_TRI = '''
pay = payments.copy()
pay["accident_date"] = pd.to_datetime(pay["accident_date"], format="%Y-%m-%d", errors="coerce")
pay = pay.dropna(subset=["accident_date"])
pay["ay"] = pay["accident_date"].dt.year
pay["dev"] = pay["paid_date"].dt.year - pay["ay"] + 1
tri = pay.pivot_table(index="ay", columns="dev", values="paid_gbp", aggfunc="sum").cumsum(axis=1)
tri = tri.where(tri.index.values[:, None] + tri.columns.values[None, :] - 1 <= 2023)
f = [tri[c + 1].sum() / tri.loc[tri[c + 1].notna(), c].sum() for c in tri.columns[:-1]]
latest = tri.ffill(axis=1).iloc[:, -1]
cdf = pd.Series(np.cumprod(f[::-1])[::-1].tolist() + [1.0], index=tri.columns)
last_dev = tri.notna().sum(axis=1)
ultimate = latest * cdf.loc[last_dev].to_numpy()
res = pd.DataFrame({"paid_to_date": latest, "ultimate": ultimate, "ibnr": ultimate - latest})
print(f"total IBNR: GBP {res['ibnr'].sum() / 1e6:.2f}m")
res.round(0)
'''

_SOUND_TRI = '''
pay = payments.copy()
iso = pd.to_datetime(pay["accident_date"], format="%Y-%m-%d", errors="coerce")
uk = pd.to_datetime(pay["accident_date"], format="%d/%m/%Y", errors="coerce")
pay["accident_date"] = iso.fillna(uk)
print(f"{len(pay)} payments: {iso.notna().sum()} ISO dates, "
      f"{(iso.isna() & uk.notna()).sum()} legacy dd/mm/yyyy, "
      f"{pay['accident_date'].isna().sum()} unparsed")
assert pay["accident_date"].notna().all()
pay["ay"] = pay["accident_date"].dt.year
pay["dev"] = pay["paid_date"].dt.year - pay["ay"] + 1
tri = pay.pivot_table(index="ay", columns="dev", values="paid_gbp", aggfunc="sum").cumsum(axis=1)
tri = tri.where(tri.index.values[:, None] + tri.columns.values[None, :] - 1 <= 2023)
f = [tri[c + 1].sum() / tri.loc[tri[c + 1].notna(), c].sum() for c in tri.columns[:-1]]
latest = tri.ffill(axis=1).iloc[:, -1]
cdf = pd.Series(np.cumprod(f[::-1])[::-1].tolist() + [1.0], index=tri.columns)
last_dev = tri.notna().sum(axis=1)
ultimate = latest * cdf.loc[last_dev].to_numpy()
res = pd.DataFrame({"paid_to_date": latest, "ultimate": ultimate, "ibnr": ultimate - latest})
print(f"total IBNR: GBP {res['ibnr'].sum() / 1e6:.2f}m")
res.round(0)
'''

_SETUP_SIG = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(9090)
days = pd.bdate_range("2020-01-02", periods=1000)
stress = rng.random(1000) < 0.12
vol = np.where(stress, 0.028, 0.009)
drift = np.where(stress, -0.007, 0.0011)
rets = pd.DataFrame({"date": days, "ret": drift + rng.normal(0, 1, 1000) * vol})
sig = pd.DataFrame({"date": days, "position": np.sign(rng.normal(0.5, 1, 1000))})
sig = sig[(vol < 0.02) | (rng.random(1000) < 0.2)].reset_index(drop=True)
'''

_FLAW_SIG = '''
bt = rets.merge(sig, on="date")
bt["pnl"] = bt["position"] * bt["ret"]
sharpe = np.sqrt(252) * bt["pnl"].mean() / bt["pnl"].std()
hit = (bt["pnl"] > 0).mean()
max_dd = (bt["pnl"].cumsum() - bt["pnl"].cumsum().cummax()).min()
print(f"{bt['date'].min().date()} to {bt['date'].max().date()}: Sharpe {sharpe:.2f}, "
      f"hit rate {hit:.1%}, max drawdown {max_dd:.1%}")
'''

_SOUND_SIG = '''
bt = rets.merge(sig, on="date", how="left", validate="one_to_one")
missing = bt["position"].isna()
print(f"{missing.sum()} of {len(bt)} trading days have no vendor signal; "
      f"holding the previous position on those days")
bt["position"] = bt["position"].ffill().fillna(0)
bt["pnl"] = bt["position"] * bt["ret"]
sharpe = np.sqrt(252) * bt["pnl"].mean() / bt["pnl"].std()
hit = (bt["pnl"] > 0).mean()
max_dd = (bt["pnl"].cumsum() - bt["pnl"].cumsum().cummax()).min()
print(f"{bt['date'].min().date()} to {bt['date'].max().date()}: Sharpe {sharpe:.2f}, "
      f"hit rate {hit:.1%}, max drawdown {max_dd:.1%}")
'''

CASES: list[Case] = [
    Case(id="h20-dataloss-triangle-date-coerce", family="data_loss",
         code=_FLAW_TRI, setup=_SETUP_TRI, twin="h20-dataloss-triangle-both-formats",
         note="legacy dd/mm/yyyy accident dates coerce to NaT and ~30% of payments are "
              "silently dropped before the chain-ladder IBNR",
         split="holdout20"),
    Case(id="h20-dataloss-triangle-both-formats", family=None, code=_SOUND_TRI,
         setup=_SETUP_TRI, twin="h20-dataloss-triangle-date-coerce",
         note="both date formats parsed explicitly, counts printed and no unparsed rows "
              "asserted before building the triangle",
         split="holdout20"),
    Case(id="h20-dataloss-backtest-inner-merge", family="data_loss",
         code=_FLAW_SIG, setup=_SETUP_SIG, twin="h20-dataloss-backtest-left-merge",
         note="inner merge with the signal file silently drops the (mostly high-volatility) "
              "days with no vendor signal, flattering Sharpe and drawdown",
         split="holdout20"),
    Case(id="h20-dataloss-backtest-left-merge", family=None, code=_SOUND_SIG,
         setup=_SETUP_SIG, twin="h20-dataloss-backtest-inner-merge",
         note="left merge keeps every trading day, reports the signal gaps and carries the "
              "held position through them",
         split="holdout20"),
]
