"""Start-up imports: without an API key the Anthropic SDK is never imported, and the command
line skips the IRI grammar jsonschema would build, while notebooks still validate."""

from __future__ import annotations

import json
import os
import subprocess
import sys

NO_KEY = """
import json, sys, tempfile
import app.main
from app.settings import Settings
settings = Settings(data_dir=tempfile.mkdtemp(), token="t")
app.main.create_app(settings)
settings.build_reviewer(); settings.build_generator(); settings.build_planner()
settings.build_learning()
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "anthropic")))
"""

CLI = """
import json, sys
import app.cli, app.main
from nbformat.v4 import new_notebook, new_code_cell
from services.notebook_store import InvalidNotebook, parse_notebook
nb = parse_notebook(json.dumps(new_notebook(cells=[new_code_cell("1+1")])))
try:
    parse_notebook('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [1]}')
    refused = False
except InvalidNotebook:
    refused = True
print(json.dumps([sys.modules.get("rfc3987_syntax", "absent") is None, len(nb.cells), refused,
                  "anthropic" in sys.modules]))
"""


def _python(code: str) -> list:  # type: ignore[type-arg]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=180, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_no_key_no_anthropic_sdk() -> None:
    assert _python(NO_KEY) == []


def test_the_command_line_skips_the_iri_grammar_and_still_validates() -> None:
    skipped, cells, refused, anthropic = _python(CLI)
    assert skipped and cells == 1 and refused and not anthropic
