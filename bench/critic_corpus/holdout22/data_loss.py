from bench.critic_corpus import Case

_MES_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7070)
n = 300
lots = pd.DataFrame({
    "lot_id": [f"M{31000 + i}" for i in range(n)],
    "product": rng.choice(["GX-12", "GX-20", "HX-7"], n, p=[0.45, 0.35, 0.2]),
    "units_start": rng.choice([500, 1000], n),
    "status": rng.choice(["CLOSED", "SCRAPPED", "ON_HOLD"], n, p=[0.86, 0.09, 0.05]),
})
done = lots[lots.status == "CLOSED"]
p_good = done["product"].map({"GX-12": 0.94, "GX-20": 0.91, "HX-7": 0.86})
ft = pd.DataFrame({
    "lot_id": done.lot_id.to_numpy(),
    "units_tested": done.units_start.to_numpy(),
    "units_pass": rng.binomial(done.units_start.to_numpy(), p_good.to_numpy()),
    "tester": rng.choice(["T-01", "T-02"], len(done)),
})
# scrapped lots never reach final test; on-hold lots are still in WIP
'''

_MES_FLAWED = '''
df = lots.merge(ft, on="lot_id")
df["yield_pct"] = 100 * df.units_pass / df.units_start
out = df.groupby("product").agg(lots=("lot_id", "count"), units=("units_start", "sum"),
                                good=("units_pass", "sum"))
out["line_yield_pct"] = 100 * out.good / out.units
print("end-to-end line yield by product (start -> final-test pass)")
out.round(2)
'''

_MES_SOUND = '''
df = lots.merge(ft, on="lot_id", how="left", indicator=True)
print("lots without a final-test record, by status:")
print(df.loc[df._merge == "left_only", "status"].value_counts().to_string())
# on-hold lots are still in WIP -> leave out (and say so); scrapped lots count as 0 good units
wip = df.status == "ON_HOLD"
print(f"excluded {wip.sum()} on-hold lots ({df.loc[wip, 'units_start'].sum()} units in WIP)")
df = df[~wip].copy()
df["units_pass"] = df.units_pass.where(df.status != "SCRAPPED", 0)
assert df.units_pass.notna().all()
df["units_pass"] = df.units_pass.astype(int)
out = df.groupby("product").agg(lots=("lot_id", "count"), units=("units_start", "sum"),
                                good=("units_pass", "sum"))
out["line_yield_pct"] = 100 * out.good / out.units
print("end-to-end line yield by product (start -> final-test pass)")
out.round(2)
'''

_METER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
idx = pd.date_range("2024-01-01", "2024-03-31 23:00", freq="h")
frames = []
for m, base in {"EM-PRESS-01": 780, "EM-PRESS-02": 910, "EM-OVEN-01": 1150}.items():
    kwh = base * (1 + 0.25 * np.sin(2 * np.pi * idx.hour / 24)) + rng.normal(0, 90, len(idx))
    # SCADA csv export: thousands separator on values >= 1000, "OL" on meter overload
    txt = np.where(kwh >= 1000, [f"{v:,.1f}" for v in kwh], [f"{v:.1f}" for v in kwh])
    txt[rng.random(len(idx)) < 0.002] = "OL"
    frames.append(pd.DataFrame({"meter": m, "kwh_raw": txt}, index=idx))
df_em = pd.concat(frames)
df_em.index.name = "ts"
'''

_METER_FLAWED = '''
df_em["kwh"] = pd.to_numeric(df_em.kwh_raw, errors="coerce")
wk = df_em.groupby("meter").kwh.resample("W").mean().unstack("meter")
print("mean hourly energy per meter (kWh/h), Q1 2024:")
print(df_em.groupby("meter").kwh.mean().round(1).to_string())
wk.round(1).tail(6)
'''

_METER_SOUND = '''
clean = df_em.kwh_raw.str.replace(",", "", regex=False)
df_em["kwh"] = pd.to_numeric(clean.where(clean != "OL"), errors="coerce")
n_ol = (df_em.kwh_raw == "OL").groupby(df_em.meter).sum()
n_bad = df_em.kwh.isna().groupby(df_em.meter).sum()
print("readings per meter: total / overload 'OL' / still unparsed")
print(pd.DataFrame({"total": df_em.groupby("meter").size(), "OL": n_ol,
                    "unparsed": n_bad - n_ol}).to_string())
assert (n_bad == n_ol).all()
wk = df_em.groupby("meter").kwh.resample("W").mean().unstack("meter")
print("mean hourly energy per meter (kWh/h), Q1 2024, OL hours excluded:")
print(df_em.groupby("meter").kwh.mean().round(1).to_string())
wk.round(1).tail(6)
'''

CASES: list[Case] = [
    Case(
        id="h22-dataloss-mes-inner-join-scrapped-lots",
        family="data_loss",
        code=_MES_FLAWED,
        setup=_MES_SETUP,
        twin="h22-dataloss-mes-inner-join-scrapped-lots-sound",
        note="inner merge with final-test records silently drops scrapped and on-hold lots, so "
             "the start-to-pass line yield omits every scrapped unit",
        split="holdout22",
    ),
    Case(
        id="h22-dataloss-mes-inner-join-scrapped-lots-sound",
        family=None,
        code=_MES_SOUND,
        setup=_MES_SETUP,
        twin="h22-dataloss-mes-inner-join-scrapped-lots",
        note="left merge with indicator; unmatched lots counted by status, scrapped lots kept as "
             "zero good units, on-hold WIP excluded and reported",
        split="holdout22",
    ),
    Case(
        id="h22-dataloss-meter-coerce-thousands",
        family="data_loss",
        code=_METER_FLAWED,
        setup=_METER_SETUP,
        twin="h22-dataloss-meter-coerce-thousands-sound",
        note="to_numeric(errors='coerce') turns every '1,234.5' reading (all hours >= 1000 kWh) "
             "into NaN and the means silently skip them, biasing energy use low",
        split="holdout22",
    ),
    Case(
        id="h22-dataloss-meter-coerce-thousands-sound",
        family=None,
        code=_METER_SOUND,
        setup=_METER_SETUP,
        twin="h22-dataloss-meter-coerce-thousands",
        note="thousands separators stripped, the few 'OL' overload readings counted and reported "
             "before averaging",
        split="holdout22",
    ),
]
