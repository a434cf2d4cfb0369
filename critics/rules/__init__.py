"""Built-in rules, one family per module. Each module exposes its rules as module-level
`Rule` objects; `builtin_rules()` collects them in a stable order."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..rule import Rule

FAMILY_MODULES = (
    "leakage",
    "target_leakage",
    "circular_validation",
    "multiple_comparisons",
    "parametric_assumptions",
    "test_samples",
    "pseudoreplication",
    "paired_rows",
    "correlation_misuse",
    "suspicious_values",
    "data_loss",
    "unseeded_randomness",
    "selection_on_outcome",
)


def rules_of(module: ModuleType) -> list[Rule]:
    explicit = getattr(module, "RULES", None)
    if explicit is not None:
        return list(explicit)
    return [v for v in vars(module).values() if isinstance(v, Rule)]


def builtin_rules() -> list[Rule]:
    rules: list[Rule] = []
    for name in FAMILY_MODULES:
        rules += rules_of(importlib.import_module(f"{__name__}.{name}"))
    return rules
