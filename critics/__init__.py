"""Review of one executed cell: Evidence -> Critique.

Pure and fast: no kernel, no web framework, no storage. `services` gathers the evidence and
injects an Anthropic client into the optional Claude critic.
"""

from .critic import AnalysisCritic
from .evidence import Evidence, ObjectFacts, SampleFacts
from .findings import CriticError, Critique, Finding, Severity
from .rule import Rule, rule

__all__ = [
    "AnalysisCritic",
    "CriticError",
    "Critique",
    "Evidence",
    "Finding",
    "ObjectFacts",
    "Rule",
    "SampleFacts",
    "Severity",
    "rule",
]
