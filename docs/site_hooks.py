"""MkDocs hooks (mkdocs.yml `hooks:`): the parts of the site that are generated from the code.

- `<!-- nbcritic:settings -->` in a page becomes the table of every `Settings` field (name,
  environment variable, default, description), read from the settings model.
- `<!-- nbcritic:rules -->` becomes the rule catalogue, read from the rule registry, with each
  rule's measured precision from `critics/calibration.json`.
- A page in `docs/` that mkdocs.yml's nav does not list yet is added to the nav under "More
  topics" (titled by its first heading), so a new page is on the site from its first commit and
  the strict build checks its links; move it to its place in the nav when convenient.
- `bench/README.md` (outside `docs/`) is brought into the site as `benchmark-results.md`, and
  links to `../bench/README.md` in pages (which work when the files are read in the repository)
  are pointed at it, so the strict build checks them like any other link.

Not a page: mkdocs.yml excludes `*.py` from the site.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
BENCH_README = ROOT / "bench" / "README.md"
BENCH_PAGE = "benchmark-results.md"
SETTINGS_MARKER = "<!-- nbcritic:settings -->"
RULES_MARKER = "<!-- nbcritic:rules -->"


def _listed(nav: Any) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, dict):
        return set().union(*(_listed(v) for v in nav.values()))
    if isinstance(nav, list):
        return set().union(*(_listed(v) for v in nav)) if nav else set()
    return set()


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip().strip("`")
    return path.stem.replace("-", " ").capitalize()


def on_config(config: Any) -> Any:
    nav = config.get("nav")
    if nav is None:
        return config
    listed = _listed(nav) | {BENCH_PAGE}
    docs_dir = Path(config["docs_dir"])
    extra = [{_title(p): p.relative_to(docs_dir).as_posix()}
             for p in sorted(docs_dir.rglob("*.md"))
             if p.relative_to(docs_dir).as_posix() not in listed]
    if extra:
        nav.append({"More topics": extra})
    return config


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, BENCH_PAGE, abs_src_path=str(BENCH_README)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    markdown = re.sub(r"\]\((?:\.\./)+bench/README\.md(#[^)]*)?\)",
                      lambda m: f"]({BENCH_PAGE}{m.group(1) or ''})", markdown)
    if SETTINGS_MARKER in markdown:
        markdown = markdown.replace(SETTINGS_MARKER, settings_table())
    if RULES_MARKER in markdown:
        markdown = markdown.replace(RULES_MARKER, rules_catalogue())
    return markdown


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default(field: Any) -> str:
    from pydantic_core import PydanticUndefined

    value = field.default
    if value is PydanticUndefined and field.default_factory is not None:
        value = field.default_factory()
    if value is None:
        return "unset"
    if isinstance(value, Path):
        value = str(value)
    return f"`{value!r}`" if not isinstance(value, str) else f"`{value}`"


def _env_names(name: str, field: Any) -> str:
    alias = field.validation_alias
    choices = getattr(alias, "choices", None)
    if choices:
        return ", ".join(f"`{c}`" for c in choices if isinstance(c, str))
    return f"`NBCRITIC_{name.upper()}`"


# fields the model leaves without a description (better: give them one in the model)
UNDESCRIBED = {
    "port": "Port the service listens on.",
    "kernel_start_timeout": "Seconds a kernel may take to start and answer before it fails.",
    "anthropic_api_key": "Anthropic API key: enables the code generator and the Claude critic; "
                         "without it neither is used (nor imported).",
    "anthropic_base_url": "Any Anthropic-compatible endpoint instead of Anthropic's API.",
}


def settings_table() -> str:
    from app.settings import Settings

    rows = ["| setting | environment variable | default | what it does |",
            "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        rows.append(f"| `{name}` | {_env_names(name, field)} | {_default(field)} | "
                    f"{_cell(field.description or UNDESCRIBED.get(name, ''))} |")
    return "\n".join(rows)


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    return match.group(1) if match else text


def rules_catalogue() -> str:
    from critics import AnalysisCritic
    from critics.calibration import table

    measured = table()
    by_family: dict[str, list[Any]] = {}
    for r in AnalysisCritic(load_plugins=False, llm=None).rules:
        by_family.setdefault(r.family, []).append(r)
    out = [f"{sum(len(v) for v in by_family.values())} built-in rules in "
           f"{len(by_family)} families.", ""]
    for family, rules in by_family.items():
        out += [f"### `{family}`", "",
                "| rule | title | measured confidence (tp/fp) | what it looks for |",
                "|---|---|---|---|"]
        for r in rules:
            m = measured.get(r.id)
            conf = (f"{m['confidence']:.2f} ({int(m['tp'])}/{int(m['fp'])})" if m
                    else "not measured")
            out.append(f"| `{r.id}` | {_cell(r.title)} | {conf} | "
                       f"{_cell(_first_sentence(r.description))} |")
        out.append("")
    return "\n".join(out)
