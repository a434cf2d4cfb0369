"""Data loss, holdout7 idioms: a motor book's Tweedie pure-premium GLM fitted with the
statsmodels formula API, whose default missing='drop' quietly keeps only the policies that
opted in to telematics (the safer ones) before the book-wide average premium is printed; and
torque-audit strings parsed with str.extract and a dot-decimal pattern, which turns the German
plant's comma-decimal readings into NaN that groupby means and the out-of-spec share skip."""

from textwrap import dedent

from bench.critic_corpus import Case

_BOOK = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7901)
n = 2000
book = pd.DataFrame({"driver_age": rng.integers(18, 80, n),
                     "vehicle_value_k": rng.gamma(3.0, 6.0, n).round(1)})
opted_in = rng.random(n) < 0.45
# telematics driving score (0-100) exists only for policyholders who installed the box
book["telematics_score"] = np.where(opted_in, rng.normal(72, 10, n).round(), np.nan)
freq = np.exp(-2.0 + 0.6 * (book.driver_age < 25) - 0.5 * opted_in)
n_claims = rng.poisson(freq)
book["claim_cost"] = [rng.gamma(2.0, 1100.0, k).sum().round(2) for k in n_claims]
"""

_TORQUE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7902)
plants = {"Leeds": 12.30, "Toledo": 12.35, "Stuttgart": 12.95}
frames = []
for plant, mu in plants.items():
    nm = rng.normal(mu, 0.35, 200).round(2)
    if plant == "Stuttgart":      # older audit stations export with a decimal comma
        comma = rng.random(200) < 0.85
        text = [f"{v:.2f}".replace(".", ",") if c else f"{v:.2f}" for v, c in zip(nm, comma)]
    else:
        text = [f"{v:.2f}" for v in nm]
    frames.append(pd.DataFrame({"plant": plant, "reading": [f"{t} Nm" for t in text]}))
audit = pd.concat(frames, ignore_index=True)
lsl, usl = 11.5, 13.5
"""

CASES: list[Case] = [
    Case(
        id="dataloss-h7-tweedie-formula-drops-non-telematics",
        family="data_loss",
        twin="dataloss-h7-tweedie-formula-drops-non-telematics-sound",
        split="holdout7",
        setup=_BOOK,
        note="smf.glm drops every row with a NaN telematics score (55% of the book, the riskier "
        "drivers) without a word; the 'book-wide' average premium covers opted-in policies only.",
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            tweedie = sm.families.Tweedie(var_power=1.5, link=sm.families.links.Log())
            glm = smf.glm("claim_cost ~ driver_age + vehicle_value_k + telematics_score",
                          data=book, family=tweedie).fit()
            print(glm.params.round(4).to_string())
            print(f"average pure premium across the book: {glm.fittedvalues.mean():.0f} per policy")
        """),
    ),
    Case(
        id="dataloss-h7-tweedie-formula-drops-non-telematics-sound",
        family=None,
        twin="dataloss-h7-tweedie-formula-drops-non-telematics",
        split="holdout7",
        setup=_BOOK,
        note="Missing telematics scores are encoded (opted-in flag plus a centred score that is "
        "0 when absent), so all policies are fitted; nobs is printed against the book size.",
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            centre = book.telematics_score.mean()
            model_df = book.assign(
                opted_in=book.telematics_score.notna().astype(int),
                telematics_c=(book.telematics_score - centre).fillna(0.0))
            tweedie = sm.families.Tweedie(var_power=1.5, link=sm.families.links.Log())
            glm = smf.glm("claim_cost ~ driver_age + vehicle_value_k + opted_in + telematics_c",
                          data=model_df, family=tweedie).fit()
            print(f"fitted on {int(glm.nobs)} of {len(book)} policies")
            print(glm.params.round(4).to_string())
            print(f"average pure premium across the book: {glm.fittedvalues.mean():.0f} per policy")
        """),
    ),
    Case(
        id="dataloss-h7-str-extract-decimal-comma-torque",
        family="data_loss",
        twin="dataloss-h7-str-extract-decimal-comma-torque-sound",
        split="holdout7",
        setup=_TORQUE,
        note="The dot-decimal regex fails on Stuttgart's '12,95 Nm' readings; 85% of that plant "
        "becomes NaN, silently skipped by mean/std and counted as in spec.",
        code=dedent("""\
            audit["torque_nm"] = (audit["reading"]
                                  .str.extract(r"(\\d+\\.\\d+)", expand=False)
                                  .astype(float))
            summary = audit.groupby("plant")["torque_nm"].agg(["mean", "std", "min", "max"])
            print(summary.round(3).to_string())
            out = (audit.torque_nm < lsl) | (audit.torque_nm > usl)
            print(f"out-of-spec share, all plants: {out.mean():.2%}")
        """),
    ),
    Case(
        id="dataloss-h7-str-extract-decimal-comma-torque-sound",
        family=None,
        twin="dataloss-h7-str-extract-decimal-comma-torque",
        split="holdout7",
        setup=_TORQUE,
        note="Decimal commas are normalised before parsing, the parse is checked to leave no "
        "NaN, and the per-plant counts are shown with the means.",
        code=dedent("""\
            audit["torque_nm"] = (audit["reading"]
                                  .str.replace(",", ".", regex=False)
                                  .str.extract(r"(\\d+\\.\\d+)", expand=False)
                                  .astype(float))
            assert audit.torque_nm.notna().all(), "unparsed torque readings"
            summary = audit.groupby("plant")["torque_nm"].agg(["count", "mean", "std", "min",
                                                               "max"])
            print(summary.round(3).to_string())
            out = (audit.torque_nm < lsl) | (audit.torque_nm > usl)
            print(f"out-of-spec share, all plants: {out.mean():.2%}")
        """),
    ),
]
