"""The web page's vendored third-party ES modules (app/static/vendor/manifest.json).

The page has no build step: each library's ES module files are committed as they come in the
npm package, and the manifest records the package, its version, the npm tarball's integrity,
each file's sha256 and the import-map entries the page uses.

    python -m app.static_assets check   # every vendored file matches its sha256 (CI, a test)
    python -m app.static_assets fetch   # re-vendor from the registry with `npm pack` (needs npm)
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"
VENDOR = STATIC / "vendor"
MANIFEST = VENDOR / "manifest.json"
LICENSE_NAMES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE")


def load_manifest(path: Path = MANIFEST) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def package_dir(package: dict[str, Any], vendor: Path = VENDOR) -> Path:
    return vendor / f"{package['name']}@{package['version']}"


def import_map(manifest: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The page's import map: bare specifiers -> /static/vendor/<name>@<version>/<file>."""
    imports = {}
    for package in manifest["packages"]:
        base = f"/static/vendor/{package['name']}@{package['version']}"
        for specifier, file in package["imports"].items():
            imports[specifier] = f"{base}/{file}"
    return {"imports": imports}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def problems(manifest: dict[str, Any], vendor: Path = VENDOR) -> list[str]:
    """What differs between the manifest and the vendored files (empty: they match)."""
    found: list[str] = []
    listed: set[Path] = {vendor / MANIFEST.name}
    for package in manifest["packages"]:
        root = package_dir(package, vendor)
        for file, digest in package["files"].items():
            path = root / file
            listed.add(path)
            if not path.is_file():
                found.append(f"{package['name']}: {file} is missing")
            elif sha256(path) != digest:
                found.append(f"{package['name']}: {file} does not match its sha256")
        found += [f"{package['name']}: import {spec!r} names an unlisted file {file}"
                  for spec, file in package["imports"].items() if file not in package["files"]]
    found += [f"{path.relative_to(vendor)} is not in the manifest"
              for path in vendor.rglob("*") if path.is_file() and path not in listed]
    return found


def fetch(manifest: dict[str, Any], vendor: Path = VENDOR) -> dict[str, Any]:
    """Download each package with `npm pack`, copy its files (and its licence), record
    hashes and the tarball's integrity. Returns the updated manifest."""
    for package in manifest["packages"]:
        with tempfile.TemporaryDirectory() as tmp:
            spec = f"{package['name']}@{package['version']}"
            out = subprocess.run(["npm", "pack", spec, "--json", "--pack-destination", tmp],
                                 check=True, capture_output=True, text=True, cwd=tmp)
            (packed,) = json.loads(out.stdout)
            with tarfile.open(Path(tmp) / packed["filename"]) as tar:
                tar.extractall(tmp, filter="data")
            source = Path(tmp) / "package"
            files = [f for f in package["files"] if not f.startswith("LICEN")]
            files += [name for name in LICENSE_NAMES if (source / name).is_file()][:1]
            root = package_dir(package, vendor)
            shutil.rmtree(root, ignore_errors=True)
            for file in files:
                (root / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source / file, root / file)
            package["files"] = {file: sha256(root / file) for file in files}
            package["integrity"] = packed["integrity"]
            package["license"] = json.loads((source / "package.json").read_text())["license"]
    return manifest


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    manifest = load_manifest()
    if command == "fetch":
        updated = fetch(manifest)
        MANIFEST.write_text(json.dumps(updated, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    elif command != "check":
        print("usage: python -m app.static_assets [check|fetch]", file=sys.stderr)
        return 2
    found = problems(load_manifest())
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
