"""The web page's vendored ES modules match their manifest (app/static/vendor/manifest.json):
every file's sha256, no unlisted file, every import-map entry a listed file."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from app.static_assets import VENDOR, import_map, load_manifest, problems

ROOT = Path(__file__).resolve().parent.parent


def test_the_vendored_files_match_the_manifest() -> None:
    assert problems(load_manifest()) == []


def test_the_check_command_passes_on_the_committed_files() -> None:
    proc = subprocess.run([sys.executable, "-m", "app.static_assets", "check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_a_changed_missing_or_unlisted_file_is_reported(tmp_path: Path) -> None:
    vendor = tmp_path / "vendor"
    shutil.copytree(VENDOR, vendor)
    manifest = load_manifest()
    ansi = vendor / "ansi_up@6.0.6" / "ansi_up.js"
    ansi.write_text(ansi.read_text() + "\n// edited by hand\n")
    (vendor / "marked@18.3.0" / "lib" / "marked.esm.js").unlink()
    (vendor / "stray.js").write_text("export {};\n")
    assert sorted(problems(manifest, vendor)) == [
        "ansi_up: ansi_up.js does not match its sha256",
        "marked: lib/marked.esm.js is missing",
        "stray.js is not in the manifest",
    ]


def test_every_package_records_its_version_licence_and_registry_integrity() -> None:
    for package in load_manifest()["packages"]:
        assert package["version"] and package["license"], package["name"]
        assert package["integrity"].startswith("sha512-"), package["name"]
        assert any(name.startswith("LICEN") for name in package["files"]), package["name"]


def test_the_import_map_points_into_the_vendored_versions() -> None:
    imports = import_map(load_manifest())["imports"]
    assert imports["@codemirror/view"].startswith("/static/vendor/@codemirror/view@")
    for target in imports.values():
        assert (VENDOR / target.removeprefix("/static/vendor/")).is_file(), target
