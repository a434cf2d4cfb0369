"""Prepare the public notebooks of `bench/real_notebooks.toml` once, outside the repository.

Nothing fetched is committed: the list names each source (repository, commit, path, the git
blob id of the file there, and how it becomes cells); this script reads those exact files
from local git snapshots of the repositories and writes one .ipynb per source into a folder
outside the repository (default /work/realnb), plus a manifest.json. The check
(`bench/real_notebooks_check.py`) then runs them with nothing fetched at run time.

    .venv/bin/python bench/real_notebooks_prepare.py GIT_DIR [GIT_DIR ...] [--out /work/realnb]

GIT_DIR: a git directory (bare or not) holding a source's commit, e.g. a clone of
statsmodels/statsmodels. With none given, every `/work/.mirror/*/repo` is tried. A source's
file is taken from the first GIT_DIR that has its commit; its blob id must match the list's.

How a source becomes cells (`cells` in the list):
- "ipynb": the notebook file as it is at that commit (byte for byte).
- "py-percent": a sphinx-gallery script. Its `# %%` lines split it into blocks; in each block
  the leading comment lines (the gallery's text) become a markdown cell and the rest a code
  cell (sphinx-gallery's own notebook conversion does the same). The module docstring at the
  top becomes a markdown cell. The check executes only code cells.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "bench" / "real_notebooks.toml"
DEFAULT_OUT = Path("/work/realnb")
SEPARATOR = re.compile(r"^# ?%%")


def load_list(path: Path = LIST) -> list[dict[str, Any]]:
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    sources = data["notebook"]
    names = [s["name"] for s in sources]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise SystemExit(f"duplicate names in {path}: {sorted(dupes)}")
    for s in sources:
        missing = {"name", "repository", "commit", "path", "blob", "cells"} - s.keys()
        if missing:
            raise SystemExit(f"{s.get('name', s)}: missing {sorted(missing)}")
        if s["cells"] not in ("ipynb", "py-percent"):
            raise SystemExit(f"{s['name']}: unknown cells kind {s['cells']!r}")
    return sources


def _git(git_dir: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True,
                          check=False)


def _git_dir_of(path: str) -> str:
    """A work tree's .git or a bare/mirror git dir."""
    p = Path(path)
    return str(p / ".git") if (p / ".git").exists() else str(p)


def blob_of(git_dir: str, commit: str, path: str) -> str | None:
    out = _git(git_dir, "rev-parse", "--verify", "--quiet", f"{commit}:{path}")
    return out.stdout.decode().strip() if out.returncode == 0 else None


def read_blob(git_dir: str, blob: str) -> bytes:
    out = _git(git_dir, "cat-file", "blob", blob)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.decode())
    return out.stdout


def _cell(kind: str, text: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": text}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def percent_to_cells(text: str) -> list[dict[str, Any]]:
    """A sphinx-gallery `# %%` script as notebook cells (markdown text, code)."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if SEPARATOR.match(line):
            blocks.append([])
        else:
            blocks[-1].append(line)
    cells: list[dict[str, Any]] = []
    first = blocks[0]
    body = "\n".join(first).lstrip()
    doc = re.match(r'^[rRuU]?("""|\'\'\')(.*?)\1[ \t]*\n?', body, re.S)
    if doc:
        cells.append(_cell("markdown", doc.group(2).strip()))
        blocks[0] = body[doc.end():].splitlines()
    for block in blocks:
        i = 0
        while i < len(block) and (not block[i].strip() or block[i].lstrip().startswith("#")):
            i += 1
        prose = [re.sub(r"^\s*# ?", "", ln) for ln in block[:i]]
        prose_text = "\n".join(prose).strip()
        code = "\n".join(block[i:]).strip("\n").rstrip()
        if prose_text:
            cells.append(_cell("markdown", prose_text))
        if code.strip():
            cells.append(_cell("code", code))
    return cells


def to_notebook(cells: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"},
                     "language_info": {"name": "python"}},
    }


def prepare(sources: list[dict[str, Any]], git_dirs: list[str], out: Path) -> list[dict]:
    out = out.resolve()
    if out == ROOT or ROOT in out.parents:
        raise SystemExit(f"{out} is inside the repository; prepare outside it")
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for s in sources:
        found = None
        for gd in git_dirs:
            blob = blob_of(gd, s["commit"], s["path"])
            if blob is not None:
                found = (gd, blob)
                break
        if found is None:
            raise SystemExit(f"{s['name']}: no git dir given has {s['commit']}:{s['path']} "
                             f"({s['repository']})")
        gd, blob = found
        if blob != s["blob"]:
            raise SystemExit(f"{s['name']}: blob {blob} at {s['commit'][:10]}:{s['path']}, "
                             f"the list says {s['blob']}")
        raw = read_blob(gd, blob)
        if s["cells"] == "ipynb":
            data = raw
            nb = json.loads(raw)
        else:
            nb = to_notebook(percent_to_cells(raw.decode("utf-8")))
            data = (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode()
        target = out / f"{s['name']}.ipynb"
        target.write_bytes(data)
        code = [c for c in nb["cells"] if c["cell_type"] == "code"
                and "".join(c.get("source", "")).strip()]  # the check skips empty cells
        manifest.append({
            "name": s["name"], "repository": s["repository"], "commit": s["commit"],
            "path": s["path"], "blob": blob, "cells": s["cells"], "file": target.name,
            "code_cells": len(code), "sha256": hashlib.sha256(data).hexdigest(),
        })
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("git_dirs", nargs="*", help="git dirs of the fetched repositories")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--list", type=Path, default=LIST)
    args = parser.parse_args()
    git_dirs = [_git_dir_of(g) for g in args.git_dirs] or sorted(
        glob.glob("/work/.mirror/*/repo"))
    if not git_dirs:
        parser.error("no git dirs given and none under /work/.mirror/*/repo")
    manifest = prepare(load_list(args.list), git_dirs, args.out)
    cells = sum(m["code_cells"] for m in manifest)
    print(f"{len(manifest)} notebooks, {cells} code cells -> {args.out.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
