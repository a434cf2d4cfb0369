from bench.critic_corpus import Case

_CKD_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(6230)
n = 720
stage = rng.choice(["3a", "3b", "4"], n, p=[0.45, 0.35, 0.2])
egfr = np.where(stage == "3a", rng.uniform(45, 60, n),
                np.where(stage == "3b", rng.uniform(30, 45, n), rng.uniform(15, 30, n)))
ckd = pd.DataFrame({
    "nhs_no": [f"{rng.integers(400, 499)} {rng.integers(100, 999)} {rng.integers(1000, 9999)}"
               for _ in range(n)],
    "ckd_stage": stage,
    "age": rng.normal(71, 11, n).round().clip(24, 98),
    "female": rng.binomial(1, 0.47, n),
    "diabetes": rng.binomial(1, 0.38, n),
    "egfr": egfr.round(),
    "sbp_mmhg": rng.normal(138, 17, n).round(),
    "bmi": rng.lognormal(np.log(29), 0.17, n).round(1),
    "uacr_mg_mmol": rng.lognormal(1.2, 1.3, n).round(1),
    "potassium": rng.normal(4.6, 0.5, n).round(1),
})
# GP system export: 999 = BP not recorded, -99 = height/weight not recorded
ckd.loc[rng.random(n) < 0.07, "sbp_mmhg"] = 999
ckd.loc[rng.random(n) < 0.11, "bmi"] = -99
'''

_HIP_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(3131)
n = 2400
age = rng.normal(83, 7, n).round().clip(65, 104)
hazard_per_yr = 0.06 * np.exp(0.075 * (age - 75))
fx = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 7 * 365, n), unit="D")
t_death = pd.to_timedelta(rng.exponential(1 / hazard_per_yr) * 365.25, unit="D")
end = pd.Timestamp("2023-12-31")
death = (fx + t_death).where(fx + t_death <= end)
hip = pd.DataFrame({
    "nhfd_id": [f"HF{880000 + i}" for i in range(n)],
    "age_at_fracture": age,
    "fracture_date": fx.strftime("%Y-%m-%d"),
    "date_of_death": death.strftime("%Y-%m-%d"),
})
'''

CASES: list[Case] = [
    Case(
        id="h23-susp-ckd-table1-placeholders",
        family="suspicious_values",
        split="holdout23",
        twin="h23-susp-ckd-table1-placeholders-ok",
        setup=_CKD_SETUP,
        note="Table 1 averages the export's placeholder codes (SBP 999, BMI -99) as real "
             "values, giving impossible mean/SD for blood pressure and BMI.",
        code='''
def mean_sd(s):
    return f"{s.mean():.1f} ({s.std():.1f})"


def n_pct(s):
    return f"{int(s.sum())} ({100 * s.mean():.1f}%)"


g = ckd.groupby("ckd_stage")
table1 = pd.DataFrame({
    "N": g.size().astype(str),
    "Age, years": g["age"].agg(mean_sd),
    "Female, n (%)": g["female"].agg(n_pct),
    "Diabetes, n (%)": g["diabetes"].agg(n_pct),
    "eGFR, mL/min/1.73m2": g["egfr"].agg(mean_sd),
    "Systolic BP, mmHg": g["sbp_mmhg"].agg(mean_sd),
    "BMI, kg/m2": g["bmi"].agg(mean_sd),
    "Potassium, mmol/L": g["potassium"].agg(mean_sd),
}).T
table1.columns = [f"CKD G{c}" for c in table1.columns]
table1
''',
    ),
    Case(
        id="h23-susp-ckd-table1-placeholders-ok",
        family=None,
        split="holdout23",
        twin="h23-susp-ckd-table1-placeholders",
        setup=_CKD_SETUP,
        note="Placeholder codes are recoded to missing first and Table 1 reports the number "
             "with a recorded value for each affected variable.",
        code='''
ckd_clean = ckd.assign(
    sbp_mmhg=ckd["sbp_mmhg"].replace(999, np.nan),
    bmi=ckd["bmi"].replace(-99, np.nan),
)


def mean_sd(s):
    return f"{s.mean():.1f} ({s.std():.1f}); n={s.notna().sum()}"


def n_pct(s):
    return f"{int(s.sum())} ({100 * s.mean():.1f}%)"


print("Not recorded (placeholder codes set to missing):",
      ckd_clean[["sbp_mmhg", "bmi"]].isna().sum().to_dict())
g = ckd_clean.groupby("ckd_stage")
table1 = pd.DataFrame({
    "N": g.size().astype(str),
    "Age, years": g["age"].agg(mean_sd),
    "Female, n (%)": g["female"].agg(n_pct),
    "Diabetes, n (%)": g["diabetes"].agg(n_pct),
    "eGFR, mL/min/1.73m2": g["egfr"].agg(mean_sd),
    "Systolic BP, mmHg": g["sbp_mmhg"].agg(mean_sd),
    "BMI, kg/m2": g["bmi"].agg(mean_sd),
    "Potassium, mmol/L": g["potassium"].agg(mean_sd),
}).T
table1.columns = [f"CKD G{c}" for c in table1.columns]
table1
''',
    ),
    Case(
        id="h23-susp-hip-cumulative-mortality",
        family="suspicious_values",
        split="holdout23",
        twin="h23-susp-hip-cumulative-mortality-ok",
        setup=_HIP_SETUP,
        note="Summing monthly d/n (a cumulative hazard) and reporting it as cumulative mortality "
             "gives a 5-year mortality above 100% in the 90+ band, reported without comment.",
        code='''
fx = pd.to_datetime(hip.fracture_date)
dod = pd.to_datetime(hip.date_of_death)
censor = pd.Timestamp("2023-12-31")
hip["died"] = dod.notna().astype(int)
hip["fu_months"] = np.ceil(((dod.fillna(censor) - fx).dt.days / 30.4375).clip(lower=1))
hip["age_band"] = pd.cut(hip.age_at_fracture, [64, 79, 89, 120], labels=["65-79", "80-89", "90+"])


def cumulative_mortality(df, horizons=(12, 36, 60)):
    at_risk, cum, out = len(df), 0.0, {}
    for m in range(1, max(horizons) + 1):
        ended = df.fu_months == m
        deaths = int((ended & (df.died == 1)).sum())
        cum += deaths / at_risk
        at_risk -= int(ended.sum())
        if m in horizons:
            out[f"{m // 12}-year"] = round(100 * cum, 1)
    return pd.Series(out)


print(f"{len(hip)} hip fractures 2016-2022, {hip.died.sum()} deaths by end of 2023")
print("Cumulative mortality (%) after hip fracture, by age band")
hip.groupby("age_band", observed=True).apply(cumulative_mortality)
''',
    ),
    Case(
        id="h23-susp-hip-cumulative-mortality-ok",
        family=None,
        split="holdout23",
        twin="h23-susp-hip-cumulative-mortality",
        setup=_HIP_SETUP,
        note="Same monthly life table, but cumulative mortality is 1 minus the Kaplan-Meier "
             "product-limit survival, so it stays within 0-100%.",
        code='''
fx = pd.to_datetime(hip.fracture_date)
dod = pd.to_datetime(hip.date_of_death)
censor = pd.Timestamp("2023-12-31")
hip["died"] = dod.notna().astype(int)
hip["fu_months"] = np.ceil(((dod.fillna(censor) - fx).dt.days / 30.4375).clip(lower=1))
hip["age_band"] = pd.cut(hip.age_at_fracture, [64, 79, 89, 120], labels=["65-79", "80-89", "90+"])


def cumulative_mortality(df, horizons=(12, 36, 60)):
    at_risk, surv, out = len(df), 1.0, {}
    for m in range(1, max(horizons) + 1):
        ended = df.fu_months == m
        deaths = int((ended & (df.died == 1)).sum())
        surv *= 1 - deaths / at_risk
        at_risk -= int(ended.sum())
        if m in horizons:
            out[f"{m // 12}-year"] = round(100 * (1 - surv), 1)
    return pd.Series(out)


print(f"{len(hip)} hip fractures 2016-2022, {hip.died.sum()} deaths by end of 2023")
print("Cumulative mortality (%) after hip fracture, by age band (1 - Kaplan-Meier)")
hip.groupby("age_band", observed=True).apply(cumulative_mortality)
''',
    ),
]
