from bench.critic_corpus import Case

_FURN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(850)
idx = pd.date_range("2024-06-10", periods=24 * 60, freq="min")   # one day, 1-min PLC log
frames = []
for f, (mu, sd, drop) in {"FN-1": (850.4, 1.1, 0.000), "FN-2": (849.6, 1.3, 0.004),
                          "FN-3": (850.9, 1.0, 0.012), "FN-4": (850.1, 1.2, 0.002)}.items():
    temp = rng.normal(mu, sd, len(idx))
    temp[rng.random(len(idx)) < drop] = -999.0       # PLC writes -999 when the TC link drops
    frames.append(pd.DataFrame({"furnace": f, "zone3_temp_c": temp.round(2)}, index=idx))
df_fn = pd.concat(frames)
LSL, USL = 845.0, 855.0
'''

_FURN_FLAWED = '''
def cpk(x, lsl, usl):
    mu, s = np.mean(x), np.std(x, ddof=1)
    return min(usl - mu, mu - lsl) / (3 * s)

res = {}
for f, x in df_fn.groupby("furnace").zone3_temp_c:
    v = x.to_numpy()
    res[f] = {"n": v.size, "mean_c": v.mean(), "sd_c": v.std(ddof=1), "min_c": v.min(),
              "cpk": cpk(v, LSL, USL)}
tab = pd.DataFrame(res).T
print(f"zone-3 anneal temperature, spec {LSL:.0f}-{USL:.0f} C, 24 h at 1-min")
print("furnaces below Cpk 1.33:", tab.index[tab.cpk < 1.33].tolist())
tab.round(2)
'''

_FURN_SOUND = '''
def cpk(x, lsl, usl):
    mu, s = np.mean(x), np.std(x, ddof=1)
    return min(usl - mu, mu - lsl) / (3 * s)

res = {}
for f, x in df_fn.groupby("furnace").zone3_temp_c:
    v = x.to_numpy()
    bad = v == -999.0                                # PLC placeholder for a lost TC link
    v = v[~bad]
    res[f] = {"n": v.size, "n_dropout": int(bad.sum()), "mean_c": v.mean(),
              "sd_c": v.std(ddof=1), "min_c": v.min(), "cpk": cpk(v, LSL, USL)}
tab = pd.DataFrame(res).T
print(f"zone-3 anneal temperature, spec {LSL:.0f}-{USL:.0f} C, 24 h at 1-min")
print(f"-999 dropouts excluded: {int(tab.n_dropout.sum())} of {len(df_fn)} readings")
print("furnaces below Cpk 1.33:", tab.index[tab.cpk < 1.33].tolist())
tab.round(2)
'''

_FPY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(311)
n = 180
lots = pd.DataFrame({
    "lot_id": [f"A{24000 + i}" for i in range(n)],
    "line": rng.choice(["SMT-1", "SMT-2", "SMT-3"], n),
    "qty_start": rng.choice([200, 250, 400], n),
})
p_good = lots.line.map({"SMT-1": 0.965, "SMT-2": 0.95, "SMT-3": 0.93})
good = rng.binomial(lots.qty_start, p_good)
# reworked boards from other lots re-enter at final test and are logged against this lot
rew_in = np.where(rng.random(n) < 0.25, rng.integers(5, 40, n), 0)
moves = pd.DataFrame({"lot_id": lots.lot_id, "oper": "FINAL_TEST",
                      "qty_out": good + rew_in, "rework_in": rew_in})
'''

_FPY_FLAWED = '''
df = lots.merge(moves, on="lot_id", how="left", validate="1:1")
df["fpy_pct"] = 100 * df.qty_out / df.qty_start
summ = df.groupby("line").fpy_pct.agg(["count", "mean", "min", "max"])
print("first-pass yield by SMT line (%), final test:")
print(summ.round(2))
best = summ["mean"].idxmax()
print(f"best line: {best} at {summ.loc[best, 'mean']:.1f}% FPY")
'''

_FPY_SOUND = '''
df = lots.merge(moves, on="lot_id", how="left", validate="1:1")
# boards that came back from rework are not first-pass output of this lot
df["fpy_pct"] = 100 * (df.qty_out - df.rework_in) / df.qty_start
assert df.fpy_pct.between(0, 100).all(), "FPY outside 0-100 %"
summ = df.groupby("line").fpy_pct.agg(["count", "mean", "min", "max"])
print("first-pass yield by SMT line (%), final test:")
print(summ.round(2))
best = summ["mean"].idxmax()
print(f"best line: {best} at {summ.loc[best, 'mean']:.1f}% FPY")
'''

CASES: list[Case] = [
    Case(
        id="h22-suspicious-furnace-minus999-cpk",
        family="suspicious_values",
        code=_FURN_FLAWED,
        setup=_FURN_SETUP,
        twin="h22-suspicious-furnace-minus999-cpk-sound",
        note="-999 PLC dropout codes are averaged into furnace mean, sd and Cpk (min -999 C is "
             "printed) and the resulting capability verdict is reported as real",
        split="holdout22",
    ),
    Case(
        id="h22-suspicious-furnace-minus999-cpk-sound",
        family=None,
        code=_FURN_SOUND,
        setup=_FURN_SETUP,
        twin="h22-suspicious-furnace-minus999-cpk",
        note="-999 dropout placeholders are counted, reported and excluded before Cpk",
        split="holdout22",
    ),
    Case(
        id="h22-suspicious-smt-fpy-over-100",
        family="suspicious_values",
        code=_FPY_FLAWED,
        setup=_FPY_SETUP,
        twin="h22-suspicious-smt-fpy-over-100-sound",
        note="first-pass yield counts re-entered rework boards, so many lots show FPY > 100% "
             "(max printed) and the line means are inflated without comment",
        split="holdout22",
    ),
    Case(
        id="h22-suspicious-smt-fpy-over-100-sound",
        family=None,
        code=_FPY_SOUND,
        setup=_FPY_SETUP,
        twin="h22-suspicious-smt-fpy-over-100",
        note="rework re-entries subtracted and FPY asserted to lie in [0, 1]",
        split="holdout22",
    ),
]
