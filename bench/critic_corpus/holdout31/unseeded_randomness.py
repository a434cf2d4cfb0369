from bench.critic_corpus import Case

_SMOKING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1954)
n = 1350
hs = pd.DataFrame({
    "pid": np.arange(1, n + 1),
    "sex": rng.choice(["M", "F"], n),
    "age_grp": rng.choice(["16-24", "25-44", "45-64", "65+"], n, p=[0.12, 0.33, 0.32, 0.23]),
    "design_wt": rng.lognormal(0, 0.5, n),
})
hs["design_wt"] = (hs["design_wt"] / hs["design_wt"].mean()).round(4)
p_smoke = hs["age_grp"].map({"16-24": 0.14, "25-44": 0.17, "45-64": 0.13, "65+": 0.08})
hs["current_smoker"] = rng.binomial(1, p_smoke.to_numpy())
'''

_WORDING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2006)
n = 420
# split ballot: form A "welfare", form B "assistance to the poor"; 1 = too little spent
sb = pd.DataFrame({"caseid": np.arange(1, n + 1), "form": rng.choice(["A", "B"], n)})
p_too_little = np.where(sb["form"] == "A", 0.24, 0.33)
sb["too_little"] = rng.binomial(1, p_too_little)
'''

CASES: list[Case] = [
    Case(
        id="h31-unseeded-randomness-bootstrap-moe-smoking",
        family="unseeded_randomness",
        setup=_SMOKING_SETUP,
        code='''y = hs["current_smoker"].to_numpy()
w = hs["design_wt"].to_numpy()
est = np.average(y, weights=w)

B = 400
boot = np.empty(B)
for b in range(B):
    idx = np.random.choice(len(y), len(y), replace=True)
    boot[b] = np.average(y[idx], weights=w[idx])

moe = 1.96 * boot.std(ddof=1)
print(f"current smoking prevalence: {100 * est:.2f}%  (n = {len(y)})")
print(f"bootstrap margin of error: +/- {100 * moe:.3f} pts  "
      f"[{100 * (est - moe):.2f}, {100 * (est + moe):.2f}]")
''',
        twin="h31-unseeded-randomness-bootstrap-moe-smoking-ok",
        note="The reported bootstrap margin of error comes from np.random.choice with no seed, "
             "so the published MOE and interval change every time the cell is run.",
        split="holdout31",
    ),
    Case(
        id="h31-unseeded-randomness-bootstrap-moe-smoking-ok",
        family=None,
        setup=_SMOKING_SETUP,
        code='''y = hs["current_smoker"].to_numpy()
w = hs["design_wt"].to_numpy()
est = np.average(y, weights=w)

boot_rng = np.random.default_rng(20240917)  # fixed seed: MOE reproducible in the report
B = 400
boot = np.empty(B)
for b in range(B):
    idx = boot_rng.choice(len(y), len(y), replace=True)
    boot[b] = np.average(y[idx], weights=w[idx])

moe = 1.96 * boot.std(ddof=1)
print(f"current smoking prevalence: {100 * est:.2f}%  (n = {len(y)})")
print(f"bootstrap margin of error: +/- {100 * moe:.3f} pts  "
      f"[{100 * (est - moe):.2f}, {100 * (est + moe):.2f}]")
''',
        twin="h31-unseeded-randomness-bootstrap-moe-smoking",
        note="Same weighted bootstrap MOE, drawn from a seeded Generator so it reproduces.",
        split="holdout31",
    ),
    Case(
        id="h31-unseeded-randomness-split-ballot-permutation",
        family="unseeded_randomness",
        setup=_WORDING_SETUP,
        code='''import random

a = sb.loc[sb["form"] == "A", "too_little"].tolist()
b = sb.loc[sb["form"] == "B", "too_little"].tolist()
obs = sum(b) / len(b) - sum(a) / len(a)

pooled = a + b
n_perm, hits = 2000, 0
for _ in range(n_perm):
    random.shuffle(pooled)
    pa, pb = pooled[:len(a)], pooled[len(a):]
    if abs(sum(pb) / len(pb) - sum(pa) / len(pa)) >= abs(obs):
        hits += 1
p_perm = hits / n_perm
print(f"'too little' spent: form A (welfare) {sum(a) / len(a):.1%}, "
      f"form B (assistance to the poor) {sum(b) / len(b):.1%}")
print(f"wording effect = {100 * obs:.1f} pts, permutation p = {p_perm:.4f}")
''',
        twin="h31-unseeded-randomness-split-ballot-permutation-ok",
        note="Permutation p-value uses the global random module unseeded; the reported p (near "
             "0.05) changes from run to run.",
        split="holdout31",
    ),
    Case(
        id="h31-unseeded-randomness-split-ballot-permutation-ok",
        family=None,
        setup=_WORDING_SETUP,
        code='''import random

a = sb.loc[sb["form"] == "A", "too_little"].tolist()
b = sb.loc[sb["form"] == "B", "too_little"].tolist()
obs = sum(b) / len(b) - sum(a) / len(a)

perm_rng = random.Random(1990)  # own seeded generator, so the p-value is reproducible
pooled = a + b
n_perm, hits = 2000, 0
for _ in range(n_perm):
    perm_rng.shuffle(pooled)
    pa, pb = pooled[:len(a)], pooled[len(a):]
    if abs(sum(pb) / len(pb) - sum(pa) / len(pa)) >= abs(obs):
        hits += 1
p_perm = (hits + 1) / (n_perm + 1)
print(f"'too little' spent: form A (welfare) {sum(a) / len(a):.1%}, "
      f"form B (assistance to the poor) {sum(b) / len(b):.1%}")
print(f"wording effect = {100 * obs:.1f} pts, permutation p = {p_perm:.4f}")
''',
        twin="h31-unseeded-randomness-split-ballot-permutation",
        note="Same permutation test with a seeded random.Random instance.",
        split="holdout31",
    ),
]
