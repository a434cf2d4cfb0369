"""The labeled corpus as a regression gate: recall and false-positive targets over every
case (facts collected in-process, the same `kernel_facts.collect` the kernel runs), and one
flawed cell and its sound twin per family through NotebookService and a real kernel. Also the
corpus loader: cases.jsonl lines, the errors for malformed ones, staged splits and the split
records (splits.json).

bench/critic_eval.py is the measurement of record (every case in a fresh kernel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.critic_corpus import (
    CASE_FIELDS,
    FAMILIES,
    REGISTERED_SPLITS,
    SPLITS,
    Case,
    CorpusError,
    all_cases,
    by_id,
    case_files,
    load_cases,
    split_records,
)
from bench.critic_eval import Scored, run_in_process
from services.notebook_service import NotebookService

from .conftest import make_settings

RECALL_TARGET, FP_TARGET = 0.9, 0.05


# The splits the rules were tuned on. `holdout2` was written after tuning to measure
# generalisation honestly; bench/critic_eval.py reports it and it is not gated here.
GATED_SPLITS = ("dev", "holdout")


@pytest.fixture(scope="module")
def scored() -> list[Scored]:
    return run_in_process([c for c in all_cases() if c.split in GATED_SPLITS])


def test_recall_and_false_positive_rate_meet_the_targets(scored: list[Scored]) -> None:
    flawed = [s for s in scored if s.case.flawed]
    sound = [s for s in scored if not s.case.flawed]
    assert len(flawed) >= 40 and len(sound) >= 40
    recall = sum(s.caught() for s in flawed) / len(flawed)
    fp_rate = sum(s.false_positive for s in sound) / len(sound)
    missed = [s.case.id for s in flawed if not s.caught()]
    false_pos = [s.case.id for s in sound if s.false_positive]
    assert recall >= RECALL_TARGET, f"recall {recall:.2f}; missed {missed}"
    assert fp_rate <= FP_TARGET, f"false-positive rate {fp_rate:.2f}: {false_pos}"
    assert not [s.errors for s in scored if s.errors]  # no rule crashed on any case


def _families_with_cases() -> list[str]:
    """FAMILIES in order, less a family registered before any case of it was written."""
    present = {c.family for c in all_cases()}
    return [f for f in FAMILIES if f in present]


# Dev cases the critic is known to miss, each with why (a gap, not a pass): the list can only
# shrink; a case caught again must leave it.
KNOWN_DEV_MISSES: set[str] = set()


def test_every_family_catches_its_dev_cases(scored: list[Scored]) -> None:
    for family in _families_with_cases():
        dev = [s for s in scored if s.case.family == family and s.case.split == "dev"]
        missed = {s.case.id for s in dev if not s.caught()}
        assert dev and missed <= KNOWN_DEV_MISSES, (family, sorted(missed))
    caught_again = {s.case.id for s in scored if s.case.id in KNOWN_DEV_MISSES and s.caught()}
    assert not caught_again, f"caught now, take them off KNOWN_DEV_MISSES: {caught_again}"


def _pairs() -> list[tuple[str, str]]:
    cases = by_id("dev")
    pairs = []
    for family in _families_with_cases():
        flawed = next(c for c in cases.values() if c.family == family and c.twin)
        pairs.append((flawed.id, flawed.twin or ""))
    return pairs


async def test_one_pair_per_family_through_a_real_kernel(tmp_path: Path) -> None:
    service = NotebookService(make_settings(tmp_path, pool_size=2, critic_llm=False,
                                            cell_timeout=60.0))
    await service.start()
    cases = by_id("dev")
    try:
        for flawed_id, sound_id in _pairs():
            for case_id in (flawed_id, sound_id):
                case = cases[case_id]
                nb = await service.create_notebook()
                if case.setup:
                    setup = await service.add_cell(nb, source=case.setup)
                    await service.execute_cell(nb, setup.id)
                cell = await service.add_cell(nb, source=case.code)
                result = await service.execute_cell(nb, cell.id)
                # a flawed cell may be blocked (scientific_validity_error); a sound one not
                allowed = ("ok", "scientific_validity_error") if case.flawed else ("ok",)
                assert result.status.value in allowed, (case_id, result.error)
                score = Scored(case, "ok", result.critique["findings"])
                if case.flawed:
                    assert score.caught(), (case_id, result.critique["findings"])
                else:
                    assert not score.false_positive, (case_id, result.critique["findings"])
                assert result.critique["errors"] == []
                await service.delete_notebook(nb)
    finally:
        await service.stop()


def _import_corpus(staged: str) -> subprocess.CompletedProcess[str]:
    code = ("from bench.critic_corpus import SPLITS, all_cases\n"
            "print(SPLITS[-1], [c.id for c in all_cases(SPLITS[-1])])")
    env = {**os.environ, "NBCRITIC_CORPUS_STAGED": staged}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[1], timeout=120)


def test_a_staged_split_is_loaded_from_outside_the_repository(tmp_path: Path) -> None:
    folder = tmp_path / "holdout99"
    folder.mkdir()
    _write_jsonl(folder / "cases.jsonl", [_line("h99-a", split="holdout99"),
                                          _line("h99-b", split="holdout99")])
    done = _import_corpus(str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "holdout99 ['h99-a', 'h99-b']"


def test_a_staged_case_may_not_reuse_a_registered_id(tmp_path: Path) -> None:
    folder = tmp_path / "holdout99"
    folder.mkdir()
    taken = all_cases("dev")[0].id
    _write_jsonl(folder / "cases.jsonl", [_line(taken, split="holdout99")])
    done = _import_corpus(str(folder))
    assert done.returncode != 0
    assert f"{folder / 'cases.jsonl'}:1: field 'id': duplicate id {taken!r}" in done.stderr
    assert f"dev{os.sep}cases.jsonl:" in done.stderr  # where the id was first


@pytest.mark.parametrize("name, message", [
    ("missing", "is not a folder"),
    ("dev", "named like the registered split 'dev'"),
    ("empty", "has no cases.jsonl"),
    ("modules", "has no cases.jsonl (it holds .py case modules"),
])
def test_a_bad_staged_folder_is_refused_by_name(tmp_path: Path, name: str,
                                                message: str) -> None:
    folder = tmp_path / name
    if name != "missing":
        folder.mkdir()
    if name == "dev":
        _write_jsonl(folder / "cases.jsonl", [_line("x", split="dev")])
    if name == "modules":
        (folder / "leakage.py").write_text("CASES = []\n")
    done = _import_corpus(str(folder))
    assert done.returncode != 0
    assert "NBCRITIC_CORPUS_STAGED" in done.stderr and message in done.stderr
    assert str(folder) in done.stderr


def test_hidden_setup_keeps_only_imports_from_the_rules_view() -> None:
    # the corpus simulates its data in `setup`; --setup-hidden measures the critic the way a
    # notebook that reads files would show it: the setup runs, the rules see only its imports
    from bench.critic_eval import _imports_only

    cases = [c for c in all_cases() if c.family == "correlation_misuse" and c.setup][:12]
    seen = run_in_process(cases)
    hidden = run_in_process(cases, setup_hidden=True)
    assert all(s.status == h.status == "ok" for s, h in zip(seen, hidden, strict=True))
    # some detections read how the setup simulated the outcome; hidden, they are gone
    assert any(s.findings != h.findings for s, h in zip(seen, hidden, strict=True))
    lines = _imports_only(cases[0].setup).splitlines()
    assert lines and all(ln.lstrip().startswith(("import ", "from ")) for ln in lines)
    assert len(lines) < len(cases[0].setup.splitlines())


def test_hidden_setup_needs_in_process() -> None:
    run = subprocess.run([sys.executable, "bench/critic_eval.py", "--setup-hidden",
                          "--split", "dev"], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 2 and "--setup-hidden needs --in-process" in run.stderr


# --- the loader: cases.jsonl lines ------------------------------------------------------------

def _line(case_id: str, **fields: object) -> dict[str, object]:
    return {"id": case_id, "family": None, "split": "holdout99", "twin": None, "setup": "",
            "code": "x = 1\nx", "note": "a sound cell", **fields}


def _write_jsonl(path: Path, lines: list[object]) -> Path:
    path.write_text("".join(
        (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n"
        for line in lines), encoding="utf-8")
    return path


def test_every_split_has_cases_in_one_file_in_its_folder() -> None:
    cases = all_cases()
    assert [split for split, _ in case_files()] == list(SPLITS)
    assert len(cases) == len(by_id()) >= 1797  # unique ids; the corpus only grows
    for split in REGISTERED_SPLITS:
        part = all_cases(split)
        assert part and all(c.split == split for c in part)
    # the order of the corpus is the order of the files, split after split
    assert cases == [c for split in SPLITS for c in all_cases(split)]
    assert {c.family for c in cases if c.family} <= set(FAMILIES)
    assert FAMILIES[-1] == "selection_on_outcome"


def test_the_case_files_are_written_canonically() -> None:
    # one json.dumps(..., ensure_ascii=False) object per line, with the fields in this order:
    # an edit that reformats a file shows up here, not as a noisy diff
    for split, path in case_files():
        cases = iter(load_cases(path, split))
        for line in path.read_text(encoding="utf-8").splitlines():
            case = next(cases)
            expected = json.dumps({f: getattr(case, f) for f in CASE_FIELDS},
                                  ensure_ascii=False)
            assert line == expected, (path, case.id)


def test_a_good_file_loads_as_cases(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "cases.jsonl", [
        _line("h99-flawed", family="leakage", twin="h99-sound", setup="import numpy as np",
              note="scaler fitted on all rows"),
        "",  # a blank line is skipped
        _line("h99-sound", twin="h99-flawed", code="print('é')"),
    ])
    cases = load_cases(path, "holdout99")
    assert cases == [
        Case(id="h99-flawed", family="leakage", code="x = 1\nx", twin="h99-sound",
             setup="import numpy as np", note="scaler fitted on all rows", split="holdout99"),
        Case(id="h99-sound", family=None, code="print('é')", twin="h99-flawed",
             note="a sound cell", split="holdout99"),
    ]
    assert cases[0].flawed and not cases[1].flawed


@pytest.mark.parametrize("bad, message", [
    (_line("h99-x", family="leakge"), "field 'family': unknown family 'leakge'"),
    ({k: v for k, v in _line("h99-x").items() if k != "note"}, "field 'note' is missing"),
    (_line("h99-x", split="holdout98"),
     "field 'split' is 'holdout98' but the file belongs to split 'holdout99'"),
    (_line("h99-ok"), "field 'id': duplicate id 'h99-ok' (first at "),
    (_line("h99-x", colour="red"), "field 'colour' is not a Case field"),
    (_line("h99-x", code=None), "field 'code' must be a string, got None"),
    (_line("h99-x", twin=3), "field 'twin' must be a string or null, got 3"),
    (_line(""), "field 'id' is empty"),
    ('{"id": "h99-x",', "not valid JSON"),
    (["h99-x"], "expected a JSON object, got list"),
])
def test_a_malformed_line_is_refused_naming_file_line_and_field(tmp_path: Path, bad: object,
                                                                message: str) -> None:
    path = _write_jsonl(tmp_path / "cases.jsonl", [_line("h99-ok"), bad, _line("h99-z")])
    with pytest.raises(CorpusError) as err:
        load_cases(path, "holdout99")
    assert str(err.value).startswith(f"{path}:2: ")
    assert message in str(err.value)


def test_a_duplicate_id_across_files_names_both_places(tmp_path: Path) -> None:
    first = _write_jsonl(tmp_path / "a.jsonl", [_line("h99-a"), _line("h99-b")])
    second = _write_jsonl(tmp_path / "b.jsonl", [_line("h99-c"), _line("h99-b")])
    seen: dict[str, str] = {}
    load_cases(first, "holdout99", seen)
    with pytest.raises(CorpusError, match="duplicate id 'h99-b'") as err:
        load_cases(second, "holdout99", seen)
    assert str(err.value) == (f"{second}:2: field 'id': duplicate id 'h99-b' "
                              f"(first at {first}:2)")


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "cases.jsonl", [_line("h99-a")])
    assert [c.id for c in load_cases(path, "holdout99")] == ["h99-a"]
    _write_jsonl(path, [_line("h99-a"), _line("h99-bb")])
    assert [c.id for c in load_cases(path, "holdout99")] == ["h99-a", "h99-bb"]


# --- the split records (splits.json) ---------------------------------------------------------

def test_every_registered_split_has_a_record() -> None:
    records = split_records()
    assert list(records) == list(REGISTERED_SPLITS)
    for split, record in records.items():
        assert record["split"] == split
        assert record["kind"] == ("dev" if split == "dev" else "holdout")
        assert isinstance(record["first_look_recorded"], bool)
        assert record["first_look_recorded"] == (record["first_look"] is not None)
        assert record["written"] and record["description"]
        assert set(record["family_notes"]) <= {*FAMILIES, "sound_general"}
    assert not records["dev"]["first_look_recorded"]  # dev was tuned on, never a first look
    assert records["holdout38"]["voice"] == "a software performance / site-reliability engineer"


def test_the_first_looks_are_numbers_or_null() -> None:
    for split, record in split_records().items():
        look = record["first_look"]
        if look is None:
            continue
        assert split != "dev" and record["first_look_recorded"]
        assert look["recall"] is not None and look["fp_rate"] is not None, split
        for rate in ("recall", "strict_recall", "fp_rate"):
            assert look[rate] is None or 0 <= look[rate] <= 1, (split, rate)
        for rate, count in (("recall", "recall_count"), ("fp_rate", "fp_count")):
            if look[count] is not None:  # "n/N" agrees with the rate to two decimals
                n, total = map(int, look[count].split("/"))
                assert abs(n / total - look[rate]) < 0.006, (split, count)
        assert set(look["from_docstring"]) <= set(look)
    h13 = split_records()["holdout13"]["first_look"]
    assert (h13["commit"], h13["recall"], h13["fp_rate"]) == ("6fbd51c", 0.95, 0.04)
