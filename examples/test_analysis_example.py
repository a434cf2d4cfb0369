"""Testing your own critic rules and analyses with nbcritic's pytest plugin.

Copy this file next to your tests and run it: `pytest test_analysis_example.py`.
The plugin comes with nbcritic (the `pytest11` entry point) and needs pytest-asyncio.
Each test gets its own service on a temporary directory and one real kernel.
"""

import re

import pytest

from critics import Evidence, Finding, rule

pytestmark = pytest.mark.asyncio  # not needed with pytest-asyncio's asyncio_mode = "auto"


# 1. Your own rule: a p-value printed as "p = 0.000" must be reported as "p < 0.001".
@rule("acme.p_value_rounded_to_zero", title="p-value reported as zero")
def p_value_rounded_to_zero(ev: Evidence):
    if re.search(r"\bp\s*=\s*0\.0+(?!\d)", ev.stdout):
        yield Finding(explanation="a p-value is never 0; it was rounded away",
                      severity="critical", confidence=0.95,
                      suggestion='report it as "p < 0.001"')


@pytest.mark.nbcritic(rules=[p_value_rounded_to_zero], builtin_rules=False, auto_fix=False)
async def test_my_rule_blocks_a_p_value_rounded_to_zero(nbcritic):
    result = await nbcritic.run("""
        from scipy import stats
        t, p = stats.ttest_ind([5.1, 4.9, 5.3, 5.0, 5.2], [6.8, 7.1, 6.9, 7.3, 7.0])
        print(f"t = {t:.2f}, p = {p:.3f}")
    """)
    nbcritic.assert_blocked(result, rule_id="acme.p_value_rounded_to_zero")
    nbcritic.assert_escalated(result, pattern="no_code_generator")  # auto_fix=False: no retry


# 2. The built-in rules catch leakage; the retry loop fixes it with the code you queue.
SETUP = """
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    X, y = load_diabetes(return_X_y=True)
"""
LEAKY = """
    X_scaled = StandardScaler().fit_transform(X)  # fit on all rows, test rows included
    X_train, X_test, y_train, y_test = train_test_split(X_scaled, y, random_state=0)
    model = Ridge().fit(X_train, y_train)
    print(f"test R2 = {model.score(X_test, y_test):.3f}")
"""
SOUND = """
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    scaler = StandardScaler().fit(X_train)
    model = Ridge().fit(scaler.transform(X_train), y_train)
    print(f"test R2 = {model.score(scaler.transform(X_test), y_test):.3f}")
"""


async def test_leakage_is_blocked_then_fixed_on_retry(nbcritic, nbcritic_generator):
    nbcritic.queue(SOUND)  # what the code generator answers to the first fix request
    result = await nbcritic.run(LEAKY, setup=SETUP)
    nbcritic.assert_status(result, "ok")
    nbcritic.assert_attempts(result, 2, statuses=["scientific_validity_error", "ok"])
    nbcritic.assert_findings(result, attempt=1, includes=["leakage.fit_saw_heldout_rows"])
    assert "fit_saw_heldout_rows" in nbcritic_generator.calls[0].feedback
    assert nbcritic.cell(result).source == result.code  # the notebook keeps the fixed code


# 3. A sound analysis passes: one attempt, nothing serious found.
async def test_a_sound_analysis_passes(nbcritic):
    result = await nbcritic.run(SOUND, setup=SETUP)
    nbcritic.assert_status(result, "ok")
    nbcritic.assert_attempts(result, 1)
    nbcritic.assert_no_findings(result, severity_at_least="high")


# 4. A runtime error is fixed on retry, with the error analysis sent as feedback.
async def test_a_runtime_error_is_fixed_on_retry(nbcritic, nbcritic_generator):
    nbcritic.queue('print(df["response"].mean())')
    result = await nbcritic.run('print(df["respons"].mean())', setup="""
        import pandas as pd
        df = pd.DataFrame({"dose": [1, 2, 3], "response": [2.0, 4.0, 6.0]})
    """)
    nbcritic.assert_attempts(result, 2, statuses=["error", "ok"])
    assert result.attempts[0]["error"]["ename"] == "KeyError"
    assert "response" in nbcritic_generator.calls[0].feedback  # the close match, as a hint
    assert result.outputs[0]["text"] == "4.0\n"
