from bench.critic_corpus import Case

_SEPSIS_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(2718)
n = 1850
severity = rng.normal(0, 1, n)
admit = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 365 * 24 * 60, n), "min")
adm = pd.DataFrame({
    "hadm_id": np.arange(2_100_001, 2_100_001 + n),
    "patient_id": [f"P{rng.integers(100000, 999999)}" for _ in range(n)],
    "admit_time": admit.strftime("%Y-%m-%d %H:%M"),
    "age": rng.normal(69, 15, n).round().clip(18, 101),
    "source": rng.choice(["ED", "ward", "transfer"], n, p=[0.72, 0.2, 0.08]),
    "died_in_hospital": rng.binomial(1, 1 / (1 + np.exp(-(-2.0 + 1.1 * severity)))),
})
# first lactate: ordered mostly for the sicker patients
has_lac = rng.random(n) < 1 / (1 + np.exp(-(0.2 + 1.6 * severity)))
lactate = pd.DataFrame({
    "hadm_id": adm.hadm_id[has_lac].values,
    "lactate_mmol_l": np.exp(rng.normal(0.6 + 0.35 * severity[has_lac], 0.45)).round(1),
})
# first IV antibiotic from the eMAR; missing when given before arrival or not charted
has_abx = rng.random(n) < 0.83
delay_h = rng.gamma(2.0, 1.6, n) * np.exp(-0.25 * severity)
abx = pd.DataFrame({
    "hadm_id": adm.hadm_id[has_abx].values,
    "first_abx_time": (admit + pd.to_timedelta(delay_h * 60, "min"))[has_abx]
    .strftime("%Y-%m-%d %H:%M"),
})
'''

_CANCER_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(6262)
n = 1300
trust = rng.choice(["Northgate", "Riverside"], n, p=[0.58, 0.42])
trust[0] = "Northgate"
site = rng.choice(["breast", "colorectal", "lung", "prostate", "upper GI"], n,
                  p=[0.28, 0.2, 0.18, 0.22, 0.12])
dx = pd.Timestamp("2022-01-04") + pd.to_timedelta(rng.integers(0, 700, n), "D")
wait = rng.gamma(3, 7.5, n) + np.where(trust == "Riverside", 12, 0)
tx = dx + pd.to_timedelta(wait.round(), "D")
iso = trust == "Northgate"   # Northgate exports ISO dates, Riverside dd/mm/yyyy
cwt = pd.DataFrame({
    "pathway_id": [f"CWT{rng.integers(10**6, 10**7)}" for _ in range(n)],
    "trust": trust,
    "tumour_site": site,
    "diagnosis_date": np.where(iso, dx.strftime("%Y-%m-%d"), dx.strftime("%d/%m/%Y")),
    "first_treatment_date": np.where(iso, tx.strftime("%Y-%m-%d"), tx.strftime("%d/%m/%Y")),
})
cwt.loc[rng.random(n) < 0.02, "first_treatment_date"] = "unknown"
'''

CASES: list[Case] = [
    Case(
        id="h23-dl-sepsis-inner-merge",
        family="data_loss",
        split="holdout23",
        twin="h23-dl-sepsis-inner-merge-ok",
        setup=_SEPSIS_SETUP,
        note="Inner joins to the lactate and antibiotic tables silently drop more than half of the "
             "sepsis admissions (mostly less sick ones) before mortality is summarised.",
        code='''
cohort = (adm.merge(lactate, on="hadm_id")
             .merge(abx, on="hadm_id"))
cohort["door_to_abx_h"] = (pd.to_datetime(cohort.first_abx_time)
                           - pd.to_datetime(cohort.admit_time)).dt.total_seconds() / 3600
cohort["lactate_band"] = pd.cut(cohort.lactate_mmol_l, [0, 2, 4, np.inf],
                                labels=["<2", "2-3.9", ">=4"], right=False)

print(f"Sepsis 2022: in-hospital mortality {cohort.died_in_hospital.mean():.1%}, "
      f"median door-to-antibiotic {cohort.door_to_abx_h.median():.1f} h")
print(f"Antibiotics within 1 h: {(cohort.door_to_abx_h <= 1).mean():.1%}")
cohort.groupby("lactate_band", observed=True).agg(
    admissions=("hadm_id", "size"),
    mortality=("died_in_hospital", "mean"),
    median_abx_h=("door_to_abx_h", "median"),
).round(3)
''',
    ),
    Case(
        id="h23-dl-sepsis-inner-merge-ok",
        family=None,
        split="holdout23",
        twin="h23-dl-sepsis-inner-merge",
        setup=_SEPSIS_SETUP,
        note="Left joins keep every admission; missing lactate and antibiotic times are "
             "counted, shown as their own category, and mortality uses the full cohort.",
        code='''
cohort = (adm.merge(lactate, on="hadm_id", how="left", validate="1:1")
             .merge(abx, on="hadm_id", how="left", validate="1:1"))
cohort["door_to_abx_h"] = (pd.to_datetime(cohort.first_abx_time)
                           - pd.to_datetime(cohort.admit_time)).dt.total_seconds() / 3600
cohort["lactate_band"] = (pd.cut(cohort.lactate_mmol_l, [0, 2, 4, np.inf],
                                 labels=["<2", "2-3.9", ">=4"], right=False)
                          .cat.add_categories("not measured").fillna("not measured"))

n_abx = cohort.door_to_abx_h.notna().sum()
print(f"{len(cohort)} sepsis admissions; no lactate: {cohort.lactate_mmol_l.isna().sum()}, "
      f"no charted antibiotic time: {len(cohort) - n_abx}")
print(f"Sepsis 2022: in-hospital mortality {cohort.died_in_hospital.mean():.1%} (all admissions)")
print(f"Median door-to-antibiotic {cohort.door_to_abx_h.median():.1f} h, within 1 h "
      f"{(cohort.door_to_abx_h <= 1).sum() / n_abx:.1%} (n = {n_abx} with a charted time)")
cohort.groupby("lactate_band", observed=True).agg(
    admissions=("hadm_id", "size"),
    mortality=("died_in_hospital", "mean"),
    median_abx_h=("door_to_abx_h", "median"),
).round(3)
''',
    ),
    Case(
        id="h23-dl-cancer-wait-date-coerce",
        family="data_loss",
        split="holdout23",
        twin="h23-dl-cancer-wait-date-coerce-ok",
        setup=_CANCER_SETUP,
        note="to_datetime(errors='coerce') turns Riverside's dd/mm/yyyy dates into NaT and "
             "dropna removes that whole trust from the 31-day waiting-time figures, unreported.",
        code='''
crt = cwt.copy()
crt["dx_date"] = pd.to_datetime(crt.diagnosis_date, errors="coerce")
crt["tx_date"] = pd.to_datetime(crt.first_treatment_date, errors="coerce")
crt = crt.dropna(subset=["dx_date", "tx_date"])
crt["wait_days"] = (crt.tx_date - crt.dx_date).dt.days


def q1(s):
    return s.quantile(0.25)


def q3(s):
    return s.quantile(0.75)


perf = crt.groupby("tumour_site")["wait_days"].agg(["median", q1, q3])
perf["met_31_day_%"] = (crt.wait_days <= 31).groupby(crt.tumour_site).mean() * 100
print(f"Decision-to-treat within 31 days, all sites: {100 * (crt.wait_days <= 31).mean():.1f}%")
perf.round(1)
''',
    ),
    Case(
        id="h23-dl-cancer-wait-date-coerce-ok",
        family=None,
        split="holdout23",
        twin="h23-dl-cancer-wait-date-coerce",
        setup=_CANCER_SETUP,
        note="Both trusts' date formats are parsed explicitly; the few genuinely unknown dates "
             "are counted by trust before being excluded.",
        code='''
def parse_dates(s):
    """Northgate exports ISO dates, Riverside dd/mm/yyyy."""
    iso = pd.to_datetime(s, format="%Y-%m-%d", errors="coerce")
    return iso.fillna(pd.to_datetime(s, format="%d/%m/%Y", errors="coerce"))


crt = cwt.copy()
crt["dx_date"] = parse_dates(crt.diagnosis_date)
crt["tx_date"] = parse_dates(crt.first_treatment_date)
unparsed = crt.dx_date.isna() | crt.tx_date.isna()
print("Excluded, date not recorded:", unparsed.groupby(crt.trust).sum().to_dict(),
      f"of {len(crt)} pathways")
crt = crt[~unparsed].copy()
crt["wait_days"] = (crt.tx_date - crt.dx_date).dt.days


def q1(s):
    return s.quantile(0.25)


def q3(s):
    return s.quantile(0.75)


perf = crt.groupby("tumour_site")["wait_days"].agg(["median", q1, q3])
perf["met_31_day_%"] = (crt.wait_days <= 31).groupby(crt.tumour_site).mean() * 100
print(f"Decision-to-treat within 31 days, all sites: {100 * (crt.wait_days <= 31).mean():.1f}% "
      f"(n = {len(crt)})")
perf.round(1)
''',
    ),
]
