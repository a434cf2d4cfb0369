from bench.critic_corpus import Case

SPLIT = "holdout13"

PICK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6060)
n = 5200
zones = {"A-ambient": 38, "B-bulk": 71, "C-chilled": 46, "D-small parts": 29, "E-mezzanine": 55}
picks = pd.DataFrame({
    "pick_id": np.arange(900000, 900000 + n),
    "picker_id": rng.choice([f"P{k:03d}" for k in range(1, 41)], n),
    "zone": rng.choice(list(zones), n, p=[0.3, 0.15, 0.2, 0.2, 0.15]),
    "shift": rng.choice(["early", "late", "night"], n, p=[0.4, 0.4, 0.2]),
    "lines_on_order": rng.integers(1, 9, n),
})
picks["pick_seconds"] = (picks["zone"].map(zones) * rng.lognormal(0, 0.35, n)
                         * np.where(picks["shift"] == "night", 1.12, 1.0)).round(1)
# handheld scanner writes 9999 when the confirm scan times out
timeout = rng.random(n) < np.where(picks["zone"] == "C-chilled", 0.07, 0.015)
picks.loc[timeout, "pick_seconds"] = 9999.0
'''

PICK_FLAWED = '''
target_s = {"A-ambient": 40, "B-bulk": 75, "C-chilled": 45, "D-small parts": 30,
            "E-mezzanine": 55}

zone_kpi = (
    picks.groupby("zone")
    .agg(picks=("pick_id", "count"),
         mean_s=("pick_seconds", "mean"),
         p90_s=("pick_seconds", lambda s: s.quantile(0.9)),
         lines=("lines_on_order", "sum"))
    .assign(target_s=lambda d: d.index.map(target_s),
            picks_per_hour=lambda d: 3600 / d["mean_s"])
)
zone_kpi["vs_target_pct"] = 100 * (zone_kpi["mean_s"] / zone_kpi["target_s"] - 1)
zone_kpi["status"] = np.where(zone_kpi["vs_target_pct"] > 10, "RED",
                              np.where(zone_kpi["vs_target_pct"] > 0, "AMBER", "GREEN"))
print("Pick time by zone, week 37")
print(zone_kpi.round(1).to_string())

shift_kpi = picks.pivot_table(index="zone", columns="shift", values="pick_seconds",
                              aggfunc="mean").round(1)
print("\\nMean seconds per pick, zone x shift")
print(shift_kpi.to_string())

picker = (picks.groupby("picker_id")["pick_seconds"].mean()
          .sort_values(ascending=False))
print(f"\\nSite mean: {picks['pick_seconds'].mean():.1f} s per pick")
print(f"Slowest pickers: {', '.join(f'{p} ({s:.0f}s)' for p, s in picker.head(3).items())}")
red = zone_kpi.index[zone_kpi["status"] == "RED"].tolist()
print(f"Zones needing a labour review: {red}")
'''

PICK_SOUND = '''
target_s = {"A-ambient": 40, "B-bulk": 75, "C-chilled": 45, "D-small parts": 30,
            "E-mezzanine": 55}

timed_out = picks["pick_seconds"] >= 9999
clean = picks.assign(pick_seconds=picks["pick_seconds"].mask(timed_out))
print(f"{timed_out.sum()} of {len(picks)} picks have the 9999 scanner-timeout code; "
      "treated as missing")
print(timed_out.groupby(picks["zone"]).mean().mul(100).round(1)
      .rename("timeout_pct").to_string())

zone_kpi = (
    clean.groupby("zone")
    .agg(picks=("pick_id", "count"),
         timed=("pick_seconds", "count"),
         mean_s=("pick_seconds", "mean"),
         p90_s=("pick_seconds", lambda s: s.quantile(0.9)),
         lines=("lines_on_order", "sum"))
    .assign(target_s=lambda d: d.index.map(target_s),
            picks_per_hour=lambda d: 3600 / d["mean_s"])
)
zone_kpi["vs_target_pct"] = 100 * (zone_kpi["mean_s"] / zone_kpi["target_s"] - 1)
zone_kpi["status"] = np.where(zone_kpi["vs_target_pct"] > 10, "RED",
                              np.where(zone_kpi["vs_target_pct"] > 0, "AMBER", "GREEN"))
print("\\nPick time by zone, week 37 (timed picks only)")
print(zone_kpi.round(1).to_string())

shift_kpi = clean.pivot_table(index="zone", columns="shift", values="pick_seconds",
                              aggfunc="mean").round(1)
print("\\nMean seconds per pick, zone x shift")
print(shift_kpi.to_string())

picker = (clean.groupby("picker_id")["pick_seconds"].mean()
          .sort_values(ascending=False))
print(f"\\nSite mean: {clean['pick_seconds'].mean():.1f} s per pick")
print(f"Slowest pickers: {', '.join(f'{p} ({s:.0f}s)' for p, s in picker.head(3).items())}")
red = zone_kpi.index[zone_kpi["status"] == "RED"].tolist()
print(f"Zones needing a labour review: {red}")
'''

DENTAL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
n = 2600
appts = pd.DataFrame({
    "appt_id": [f"D{80000 + i}" for i in range(n)],
    "practice": rng.choice(["Kingsway", "Old Town", "Parkgate", "Sandhill"], n),
    "lead_days": rng.gamma(1.3, 12, n).round(),
    "age": rng.integers(4, 90, n),
    "nhs_band": rng.choice(["exempt", "band1", "band2", "band3", "private"], n,
                           p=[0.2, 0.35, 0.25, 0.1, 0.1]),
    "prior_dna": rng.poisson(0.35, n),
    "sms_reminder": (rng.random(n) < 0.7).astype(int),
    "slot": rng.choice(["am", "lunch", "pm"], n, p=[0.45, 0.15, 0.4]),
})
lin = (-3.0 + 0.03 * appts["lead_days"] + 1.1 * appts["prior_dna"]
       - 0.8 * appts["sms_reminder"] - 0.012 * (appts["age"] - 40)
       + appts["nhs_band"].map({"exempt": 0.5, "band1": 0.2, "band2": 0, "band3": -0.2,
                                "private": -0.6}))
appts["did_not_attend"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

DENTAL_FLAWED = '''
import statsmodels.formula.api as smf

formula = ("did_not_attend ~ lead_days + prior_dna + sms_reminder + age"
           " + C(nhs_band, Treatment('band2')) + C(slot) + C(practice)")
model = smf.ols(formula, data=appts).fit(cov_type="HC1")

appts["dna_risk"] = model.predict(appts)
print(f"{len(appts)} appointments, DNA rate {appts['did_not_attend'].mean():.1%}")
print(f"Risk model: n={int(model.nobs)}, R^2={model.rsquared:.3f}")
print(model.params.filter(regex="lead|prior|sms|age").round(4).to_string())

bands = pd.cut(appts["dna_risk"], [-np.inf, 0.05, 0.15, 0.3, np.inf],
               labels=["low", "medium", "high", "very high"])
calib = (appts.groupby(bands, observed=True)
         .agg(appointments=("appt_id", "count"),
              mean_predicted=("dna_risk", "mean"),
              observed_dna=("did_not_attend", "mean")))
print("\\nIn-sample fit by risk band")
print(calib.round(3).to_string())

print(f"\\nPredicted DNA probability: min {appts['dna_risk'].min():.3f}, "
      f"median {appts['dna_risk'].median():.3f}, max {appts['dna_risk'].max():.3f}")
top = (appts.nlargest(8, "dna_risk")
       [["appt_id", "practice", "lead_days", "prior_dna", "sms_reminder", "dna_risk"]])
print("\\nHighest-risk appointments for a confirmation call")
print(top.round(3).to_string(index=False))
'''

DENTAL_SOUND = '''
import statsmodels.formula.api as smf

formula = ("did_not_attend ~ lead_days + prior_dna + sms_reminder + age"
           " + C(nhs_band, Treatment('band2')) + C(slot) + C(practice)")
model = smf.logit(formula, data=appts).fit(disp=False)

appts["dna_risk"] = model.predict(appts)
print(f"{len(appts)} appointments, DNA rate {appts['did_not_attend'].mean():.1%}")
print(f"Risk model: n={int(model.nobs)}, McFadden R^2={model.prsquared:.3f}")
print(model.params.filter(regex="lead|prior|sms|age").round(4).to_string())

bands = pd.cut(appts["dna_risk"], [-np.inf, 0.05, 0.15, 0.3, np.inf],
               labels=["low", "medium", "high", "very high"])
calib = (appts.groupby(bands, observed=True)
         .agg(appointments=("appt_id", "count"),
              mean_predicted=("dna_risk", "mean"),
              observed_dna=("did_not_attend", "mean")))
print("\\nIn-sample fit by risk band")
print(calib.round(3).to_string())

print(f"\\nPredicted DNA probability: min {appts['dna_risk'].min():.3f}, "
      f"median {appts['dna_risk'].median():.3f}, max {appts['dna_risk'].max():.3f}")
top = (appts.nlargest(8, "dna_risk")
       [["appt_id", "practice", "lead_days", "prior_dna", "sms_reminder", "dna_risk"]])
print("\\nHighest-risk appointments for a confirmation call")
print(top.round(3).to_string(index=False))
'''

CASES: list[Case] = [
    Case(
        id="h13-suspicious-warehouse-9999-timeouts-averaged",
        family="suspicious_values",
        code=PICK_FLAWED,
        setup=PICK_SETUP,
        twin="h13-suspicious-warehouse-timeouts-masked",
        note="The 9999 scanner-timeout code is averaged into pick-time KPIs, inflating zone "
             "means (chilled zone turns RED) and picker rankings.",
        split=SPLIT,
    ),
    Case(
        id="h13-suspicious-warehouse-timeouts-masked",
        family=None,
        code=PICK_SOUND,
        setup=PICK_SETUP,
        twin="h13-suspicious-warehouse-9999-timeouts-averaged",
        note="The 9999 timeout code is counted, reported by zone and masked as missing before "
             "the pick-time KPIs are computed.",
        split=SPLIT,
    ),
    Case(
        id="h13-suspicious-dental-lpm-probabilities",
        family="suspicious_values",
        code=DENTAL_FLAWED,
        setup=DENTAL_SETUP,
        twin="h13-suspicious-dental-logit-probabilities",
        note="A linear probability model gives 'DNA probabilities' below 0 and above 1, which "
             "are reported and used to rank patients without comment.",
        split=SPLIT,
    ),
    Case(
        id="h13-suspicious-dental-logit-probabilities",
        family=None,
        code=DENTAL_SOUND,
        setup=DENTAL_SETUP,
        twin="h13-suspicious-dental-lpm-probabilities",
        note="Logistic regression keeps predicted DNA probabilities within [0, 1].",
        split=SPLIT,
    ),
]
