"""The README stays a front door and the docs keep naming files that exist.

The site itself is built by `make docs` (`mkdocs build --strict`, run by `make test`), which
fails on a broken link between pages; these checks cover what MkDocs does not see: the README
(not part of the site) and file paths written as code in any page.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))

# `services/kernel_facts.py`, `critics/calibration.json`, `bench/README.md`: a path in the
# repository written as code; placeholders (`<split>`) and globs are not paths
REPO_PATH = re.compile(
    r"`((?:app|services|critics|bench|tests|notebooks|examples|docs)/[A-Za-z0-9_./-]*"
    r"\.(?:py|json|jsonl|toml|md|ipynb))`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text) < 8000, f"README.md is {len(text)} characters; move detail into docs/"
    first_block = text.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block
    assert not re.search(r"\bissue[s]? #?\d", text, re.IGNORECASE), "no issue numbers"


def test_the_readme_commands_are_make_targets() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("run", "test", "docs"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), target
    test_recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "docs" in test_recipe, "`make test` builds the docs"
    assert "mkdocs build --strict" in makefile


def test_readme_links_resolve() -> None:
    text = README.read_text(encoding="utf-8")
    links = [t for t in LINK.findall(text) if "://" not in t]
    assert links
    missing = [t for t in links if not (ROOT / t).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_paths_named_in_the_docs_exist() -> None:
    missing = [f"{page.relative_to(ROOT)}: {path}"
               for page in [README, *PAGES]
               for path in REPO_PATH.findall(page.read_text(encoding="utf-8"))
               if not (ROOT / path).exists()]
    assert not missing, "pages name files that do not exist:\n" + "\n".join(missing)


# `critics.rule`, `services.cell_evidence.gather_in_process`, `app.magics.critic_magics()`
DOTTED = re.compile(r"`((?:app|services|critics)\.[A-Za-z_][\w.]*)(?:\(\))?`")


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_python_names_in_the_docs_exist() -> None:
    missing = [f"{page.relative_to(ROOT)}: {name}"
               for page in [README, *PAGES]
               for name in DOTTED.findall(page.read_text(encoding="utf-8"))
               if not _resolves(name)]
    assert not missing, "pages name Python objects that do not exist:\n" + "\n".join(missing)
