"""The learning commands: `nbcritic run` learning across runs (lessons and improvement
requests kept in the data directory, reflection printed, `--no-learn`), `nbcritic lessons`
(list, search, show, edit, delete, export, import), `nbcritic improvements` (list, ack,
dismiss) and `nbcritic reflect` over a served notebook's journal."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from app.cli import main
from services.notebook_service import ExecuteOptions, NotebookService

from .conftest import make_settings

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "NBCRITIC_"))}
    return subprocess.run([sys.executable, "-m", "app.cli", *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _repeated_key_errors(path: Path) -> Path:
    cells = [new_code_cell(f"table_{i} = {{}}\ntable_{i}['missing_{i}']") for i in range(3)]
    nbformat.write(new_notebook(cells=cells), path)
    return path


def test_run_learns_across_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    source = _repeated_key_errors(tmp_path / "keys.ipynb")
    first = _run("run", str(source), "-o", str(tmp_path / "o1.ipynb"), "--continue-on-error",
                 data_dir=data)
    assert first.returncode == 1, first.stderr
    assert "[high] KeyError in 3 cells" in first.stderr
    assert "lessons: 1 new" in first.stderr and "— queued" in first.stderr
    code, out, _ = _cli(capsys, "lessons", "list", "--json", "--data-dir", str(data))
    lessons = json.loads(out)
    assert code == 0 and len(lessons) == 1
    assert lessons[0]["scope"]["error_types"] == ["KeyError"]
    code, out, _ = _cli(capsys, "improvements", "list", "--json", "--data-dir", str(data))
    (request,) = json.loads(out)
    assert request["status"] == "open"
    second = _run("run", str(source), "-o", str(tmp_path / "o2.ipynb"), "--continue-on-error",
                  data_dir=data)
    assert second.returncode == 1
    assert "not queued" in second.stderr  # the cooldown absorbed the same pattern
    _, out, _ = _cli(capsys, "lessons", "list", "--json", "--data-dir", str(data))
    assert [x["times_encountered"] for x in json.loads(out)] == [2]
    _, out, _ = _cli(capsys, "improvements", "list", "--json", "--data-dir", str(data))
    assert [r["occurrences"] for r in json.loads(out)] == [2]
    code, out, _ = _cli(capsys, "improvements", "ack", request["id"], "--note", "seen",
                        "--data-dir", str(data))
    assert code == 0
    _, out, _ = _cli(capsys, "improvements", "list", "--status", "acknowledged",
                     "--data-dir", str(data))
    assert request["id"] in out
    code, _, err = _cli(capsys, "improvements", "dismiss", "nope", "--data-dir", str(data))
    assert code == 1 and "nope" in err


def test_no_learn_leaves_nothing_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    source = _repeated_key_errors(tmp_path / "keys.ipynb")
    proc = _run("run", str(source), "-o", str(tmp_path / "o.ipynb"), "--continue-on-error",
                "--no-learn", data_dir=data)
    assert proc.returncode == 1
    assert "KeyError in 3 cells" not in proc.stderr
    assert not (data / "learning.sqlite3").exists()


def test_lessons_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    exported = tmp_path / "lessons-learned.md"
    handmade = {"format": "nbcritic-lessons", "version": 1, "lessons": [{
        "title": "Fit the scaler on the training rows only", "category": "fix",
        "severity": "critical", "what_went_wrong": "StandardScaler fit before the split",
        "what_fixed_it": "a Pipeline inside cross_val_score",
        "scope": {"rule_ids": ["leakage.fit_saw_heldout_rows"],
                  "libraries": ["sklearn"]}}]}
    source = tmp_path / "in.json"
    source.write_text(json.dumps(handmade))
    code, out, _ = _cli(capsys, "lessons", "import", str(source), *data)
    assert code == 0 and "imported 1 new" in out
    _, out, _ = _cli(capsys, "lessons", "search", "pipeline", "--json", *data)
    (lesson,) = json.loads(out)
    code, out, _ = _cli(capsys, "lessons", "edit", lesson["id"], "--severity", "high", *data)
    assert code == 0 and "high" in out
    code, _, _ = _cli(capsys, "lessons", "export", "-o", str(exported), *data)
    assert code == 0 and "Fit the scaler on the training rows only" in exported.read_text()
    code, _, err = _cli(capsys, "lessons", "edit", lesson["id"], "--severity", "dire", *data)
    assert code == 2 and "severity" in err
    code, _, err = _cli(capsys, "lessons", "edit", lesson["id"], *data)
    assert code == 2 and "nothing to change" in err
    code, out, _ = _cli(capsys, "lessons", "edit", lesson["id"], "--scope",
                        '{"libraries": ["scikit-learn", "pandas"]}', *data)
    assert code == 0 and "pandas" in out
    _, out, _ = _cli(capsys, "lessons", "search", "pipeline", "--json", *data)
    assert json.loads(out)[0]["scope"] == {**lesson["scope"], "libraries": ["pandas", "sklearn"]}
    for bad, field in (("{oops", "scope: not valid JSON"), ('{"owners": []}', "scope.owners"),
                       ('{"libraries": "pandas"}', "scope.libraries")):
        code, _, err = _cli(capsys, "lessons", "edit", lesson["id"], "--scope", bad, *data)
        assert code == 2 and field in err, err
    code, out, _ = _cli(capsys, "lessons", "show", lesson["id"], *data)
    assert code == 0 and "a Pipeline inside cross_val_score" in out
    # an unknown id among several deletes none of them
    code, _, err = _cli(capsys, "lessons", "delete", lesson["id"], "no-such-lesson", *data)
    assert code == 1 and "no-such-lesson" in err
    code, out, _ = _cli(capsys, "lessons", "show", lesson["id"], *data)
    assert code == 0
    code, out, _ = _cli(capsys, "lessons", "delete", lesson["id"], lesson["id"], *data)
    assert code == 0 and "deleted 1 lesson" in out
    code, _, err = _cli(capsys, "lessons", "show", lesson["id"], *data)
    assert code == 1 and lesson["id"] in err
    # the Markdown export brings it back, edits included
    code, out, _ = _cli(capsys, "lessons", "import", str(exported), *data)
    assert code == 0 and "imported 1 new" in out
    _, out, _ = _cli(capsys, "lessons", "list", "--json", *data)
    (back,) = json.loads(out)
    assert back["title"] == lesson["title"] and back["severity"] == "high"
    code, _, err = _cli(capsys, "lessons", "import", str(tmp_path / "missing.md"), *data)
    assert code == 2 and "no such file" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "nbcritic-lessons", "version": 1, "lessons": [{"title": 1}]}')
    code, _, err = _cli(capsys, "lessons", "import", str(broken), *data)
    assert code == 2 and "lessons[0]" in err
    # a wrong file is an error naming what is wrong, never a traceback or a silent no-op
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    code, _, err = _cli(capsys, "lessons", "import", str(listed), *data)
    assert code == 2 and "must be an object" in err
    prose = tmp_path / "notes.md"
    prose.write_text("just some notes\n")
    code, _, err = _cli(capsys, "lessons", "import", str(prose), *data)
    assert code == 2 and "no category section" in err
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = _cli(capsys, "lessons", "import", str(binary), *data)
    assert code == 2 and "UTF-8" in err
    code, _, err = _cli(capsys, "lessons", "export", "-o", str(tmp_path / "no" / "dir.md"),
                        *data)
    assert code == 2 and "dir.md" in err


async def _serve_and_run(data_dir: Path) -> None:
    service = NotebookService(make_settings(data_dir, reflection_auto=False))
    await service.start()
    try:
        nb = await service.create_notebook("survey")
        for i in range(2):
            await service.add_cell(nb, source=f"int('x{i}')")
        await service.run_all(nb, ExecuteOptions(stop_on_error=False))
    finally:
        await service.stop()


def test_reflect_on_a_served_notebook(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_serve_and_run(tmp_path / "data"))
    data = ["--data-dir", str(tmp_path / "data")]
    code, out, _ = _cli(capsys, "reflect", "survey", "--json", *data)
    reflection = json.loads(out)
    assert code == 0 and reflection["patterns"][0]["key"] == "repeated_error:ValueError"
    code, out, _ = _cli(capsys, "reflect", "survey", *data)
    assert code == 0 and "(0 executions): clean" in out  # each execution counts once
    (execution,) = reflection["execution_ids"]
    code, out, _ = _cli(capsys, "reflect", "survey", "--execution", execution, *data)
    assert code == 0 and "ValueError" in out and "already reflected" in out
    code, _, err = _cli(capsys, "reflect", "survey", "--execution", "nope", *data)
    assert code == 2 and "nope" in err
    code, _, err = _cli(capsys, "reflect", "other", *data)
    assert code == 2 and "no executions" in err
