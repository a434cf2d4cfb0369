"""A rule: a stable id, a family, a title, and a pure check over Evidence.

    @rule("leakage.scaler_before_split", family="leakage",
          title="Preprocessing fit before the train/test split")
    def scaler_before_split(ev: Evidence) -> Iterator[Finding]:
        ...
        yield Finding(explanation=..., severity="critical", confidence=0.9,
                      evidence={"lines": [3, 5]}, suggestion=...)

The rule fills in `rule_id`, `title` and `family` of the findings it yields (a finding may
override the title to be more specific).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from .evidence import Evidence
from .findings import Finding

CheckFn = Callable[[Evidence], Iterable[Finding] | None]


@dataclass(frozen=True)
class Rule:
    id: str
    family: str
    title: str
    check_fn: CheckFn
    description: str = ""

    def check(self, evidence: Evidence) -> list[Finding]:
        found = self.check_fn(evidence) or ()
        return [replace(f, rule_id=f.rule_id or self.id, title=f.title or self.title,
                        family=f.family or self.family) for f in found]

    def describe(self) -> dict[str, str]:
        return {"id": self.id, "family": self.family, "title": self.title,
                "description": self.description}


def rule(rule_id: str, *, family: str | None = None, title: str,
         description: str = "") -> Callable[[CheckFn], Rule]:
    """Decorate a check function into a Rule. The family defaults to the id's prefix."""

    def wrap(fn: CheckFn) -> Rule:
        return Rule(rule_id, family or rule_id.split(".", 1)[0], title, fn,
                    description or (fn.__doc__ or "").strip())

    return wrap
