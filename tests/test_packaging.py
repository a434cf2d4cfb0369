"""A regular (non-editable) install must carry every package of the product: the rule families
that are packages (critics/rules/<family>/) included. setuptools' own finder, run on the
pyproject configuration, must list every folder that holds an __init__.py."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]


def test_installed_packages_cover_every_source_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    include = config["packages"]["find"]["include"]
    found = set(find_packages(where=str(ROOT), include=include))
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("app", "services", "critics")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert "critics.rules.suspicious_values" in on_disk
    assert on_disk <= found
    assert not {p for p in found if p.split(".")[0] not in ("app", "services", "critics")}
