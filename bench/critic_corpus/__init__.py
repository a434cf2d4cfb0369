"""Labelled corpus of notebook cells for measuring the nbcritic analysis critic.

Each `Case` is one cell under review. Flawed cells carry the id of their flaw family in
`family`; sound cells carry `family=None`. Most flawed cells have a matched sound `twin` (the
same analysis done right), so a benchmark can measure recall on flawed cells and the
false-positive rate on sound ones that look almost the same.

Cases live in `dev/<family>.py` and `holdout/<family>.py` (each module defines
`CASES: list[Case]`), plus `dev/sound_general.py` and `holdout/sound_general.py` for ordinary
sound analyses. Holdout cases use different idioms from the dev cases of the same family: tune
the critic on `dev`, measure generalisation on `holdout`. `holdout2/` is a second, fresh
generalisation split written after the critic's rules were tuned, again with idioms, libraries
and domains that appear in neither `dev` nor `holdout`. `holdout3/` is a third fresh split,
written after holdout2's misses were fixed, by an author who did not read the critic's rules, in
domains and idioms used by none of the earlier splits. `holdout4/` is a fourth fresh split,
written after holdout3's misses were fixed, again by an author who did not read the rules.
`holdout5/` is a fifth fresh split, written after holdout4 by an author who did not read the
rules, in new domains and idioms (helper functions, comprehension-built results, numpy-only code,
sklearn utilities used wrongly). `holdout6/` is a sixth fresh split, written after holdout5 by an
author who did not read the rules, in ten further domains (ecology, marketing attribution, HR
analytics, climate, retail pricing, web A/B tests, pharmacology, seismology, real estate,
public-health surveys). `holdout7/` is a seventh fresh split, written after holdout6's misses
were fixed, by an author who did not read the rules, in further new domains (linguistics corpora
and psycholinguistics, manufacturing QA, agronomy, dairy herd health, hospital operations, motor
insurance, astronomy catalogues, sports science, psychology experiments, education testing,
logistics, energy markets). `holdout8/` is an eighth fresh split, written after holdout7's
misses were fixed, by an author who did not read the rules, in further new domains (credit risk,
wind-farm maintenance, ornithology surveys, retail footfall, clinical pharmacokinetics, forestry,
oceanography, call-centre operations, e-sports, speech therapy, apiculture, water utilities).
`holdout9/` is a ninth fresh split, written outside the repository (NBCRITIC_CORPUS_STAGED) while
holdout8's misses were being fixed, by an author who did not read the rules, and registered
after its first look was measured. `holdout10/` is a tenth, written the same way while
holdout9's misses were being fixed, and `holdout11/` an eleventh, while holdout10's were.
`holdout12/` is a twelfth, written after holdout11's first look by an author who read neither
the rules nor any earlier split. `holdout13/` to `holdout18/` were written the same way (outside
the repository, by authors who read neither the rules nor any earlier split), each in its own
voice so the shapes of the flaws differ: a company data analyst's long weekly-notebook cells
(13), a research scientist's numpy/scipy analyses for a paper (14), Kaggle-style notebooks (15),
an applied economist's statsmodels formula work (16), a bioinformatician's matrices (17), and a
product analyst's event logs and A/B readouts (18). `holdout19/` (a field ecologist) and
`holdout20/` (a risk / quant analyst) were written after those six splits' misses were fixed.
`holdout21/` to `holdout24/` were written after holdout19/20's misses were fixed, in four more
voices: an experimental psychologist / education researcher (21), a manufacturing and
reliability engineer (22), a clinical epidemiologist (23) and a data journalist working with
open government data (24). `holdout25/` (a marketing / growth analyst) and `holdout26/` (a
sports performance scientist) were written after those four splits' misses were fixed, and
`holdout27/` (an agronomist), `holdout28/` (an energy / utilities data scientist),
`holdout29/` (an HR / people-analytics analyst) and `holdout30/` (a systems neuroscientist)
after theirs, and `holdout31/` (a survey statistician / pollster), `holdout32/` (a fraud /
fintech machine-learning engineer), `holdout33/` (an analytical chemist / materials-lab
scientist) and `holdout34/` (a climate / atmospheric scientist) after those, and `holdout35/`
(an insurance actuary / pricing analyst), `holdout36/` (a transport / urban mobility planner),
`holdout37/` (a veterinary / animal-science researcher) and `holdout38/` (a software
performance / site-reliability engineer) after theirs. Each was measured
once, at its first look, before its misses were fixed (bench/README.md).

The corpus was written independently of the critic's rules. Check it with
`.venv/bin/python bench/critic_corpus/check_corpus.py`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from dataclasses import dataclass
from pathlib import Path

FAMILIES: tuple[str, ...] = (
    "leakage",
    "target_leakage",
    "circular_validation",
    "multiple_comparisons",
    "parametric_assumptions",
    "pseudoreplication",
    "correlation_misuse",
    "suspicious_values",
    "data_loss",
    "unseeded_randomness",
)

REGISTERED_SPLITS: tuple[str, ...] = (
    "dev", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
    "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14",
    "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20", "holdout21",
    "holdout22", "holdout23", "holdout24", "holdout25", "holdout26", "holdout27",
    "holdout28", "holdout29", "holdout30", "holdout31", "holdout32", "holdout33",
    "holdout34", "holdout35", "holdout36", "holdout37", "holdout38",
)

# A fresh split is written outside the repository, so nobody tuning rules sees it before its
# first look is measured: NBCRITIC_CORPUS_STAGED=/path/to/holdoutN (os.pathsep-separated) adds
# each folder as a split named after it.
STAGED_DIRS: tuple[Path, ...] = tuple(
    Path(p) for p in os.environ.get("NBCRITIC_CORPUS_STAGED", "").split(os.pathsep) if p
)
for _folder in STAGED_DIRS:
    if not _folder.is_dir():
        raise ValueError(f"NBCRITIC_CORPUS_STAGED: {_folder} is not a folder")
    if _folder.name in REGISTERED_SPLITS:
        raise ValueError(f"NBCRITIC_CORPUS_STAGED: {_folder} is named like the registered "
                         f"split {_folder.name!r}; name the folder after the new split")
SPLITS: tuple[str, ...] = REGISTERED_SPLITS + tuple(d.name for d in STAGED_DIRS)


@dataclass(frozen=True)
class Case:
    id: str  # unique, e.g. "leakage-scaler-housing"
    family: str | None  # the flaw family for flawed cells, None for sound cells
    code: str  # the cell under review (self-contained unless `setup` is used)
    twin: str | None = None  # id of the matched sound/flawed counterpart, if any
    setup: str = ""  # optional earlier cell run first in the same kernel (not reviewed)
    note: str = ""  # one line: what the flaw is, or why the cell is sound
    split: str = "dev"  # one of SPLITS

    @property
    def flawed(self) -> bool:
        return self.family is not None


def iter_modules() -> list[tuple[str, object]]:
    """(split, module) for every case module under each split folder, in a stable order."""
    found = []
    for split in REGISTERED_SPLITS:
        pkg = importlib.import_module(f"{__name__}.{split}")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            found.append((split, importlib.import_module(f"{pkg.__name__}.{info.name}")))
    for folder in STAGED_DIRS:
        for path in sorted(folder.glob("[!_]*.py")):
            name = f"_staged_{folder.name}_{path.stem}"
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot load staged corpus module {path}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            found.append((folder.name, module))
    return found


def all_cases(split: str | None = None) -> list[Case]:
    """Every case of every module, or only those of one split (one of SPLITS)."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    cases = [case for _, module in iter_modules() for case in module.CASES]
    return [c for c in cases if split is None or c.split == split]


def by_id(split: str | None = None) -> dict[str, Case]:
    return {c.id: c for c in all_cases(split)}
