"""`nbcritic serve` (the service), `nbcritic run` (headless execution, like papermill), and
the learning stores: `nbcritic lessons`, `nbcritic improvements`, `nbcritic reflect`."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .lean_start import skip_unused_imports

skip_unused_imports()  # before nbformat: it would load an IRI grammar nbcritic never uses

from nbformat.v4 import nbjson  # noqa: E402

from . import cli_learning  # noqa: E402

EXIT_OK, EXIT_CELL_FAILED, EXIT_USAGE, EXIT_FINDINGS = 0, 1, 2, 3
FAIL_ON = ("critical", "high", "medium", "never")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nbcritic", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the REST service")
    serve.add_argument("--host", help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8765)")
    serve.add_argument("--data-dir", type=Path,
                       help="notebooks and journal (default ./nbcritic-data)")
    serve.add_argument("--token", help="bearer token (default: generated and printed)")
    serve.add_argument("--pool-size", type=int, help="warm kernels kept ready (default 2)")
    serve.add_argument("--gateway-url", help="run kernels on this Jupyter Kernel/Enterprise "
                       "Gateway (NBCRITIC_GATEWAY_URL; its token: NBCRITIC_GATEWAY_TOKEN)")
    serve.add_argument("--log-level", default="info")

    run = sub.add_parser("run", help="execute a notebook headless and write the executed copy")
    run.add_argument("notebook", type=Path, help="the .ipynb to execute")
    run.add_argument("-o", "--output", type=Path,
                     help="where to write the executed notebook (default NAME.nbcritic.ipynb)")
    run.add_argument("--timeout", type=float, help="seconds per cell (default 120)")
    run.add_argument("--continue-on-error", action="store_true",
                     help="run the remaining cells after a failure")
    run.add_argument("--fail-on", choices=FAIL_ON, default="high",
                     help="exit 3 when the critic reports a finding this severe or worse "
                          "(default high; `never` only lists them)")
    run.add_argument("--no-critic", action="store_true", help="do not review the cells")
    run.add_argument("--disable-rule", action="append", default=[], metavar="ID",
                     help="skip a rule id, family or prefix (repeatable)")
    run.add_argument("--data-dir", type=Path,
                     help="where lessons and improvement requests are kept across runs "
                          "(default ./nbcritic-data, shared with `nbcritic serve`)")
    run.add_argument("--no-learn", action="store_true",
                     help="no lessons, no reflection: leave nothing behind")
    cli_learning.add_commands(sub)
    return parser


def _settings(**overrides: Any) -> Any:
    from .settings import Settings

    return Settings(**{k: v for k, v in overrides.items() if v is not None})


def serve(args: argparse.Namespace) -> int:
    from .main import create_app
    from .server import serve as serve_app

    settings = _settings(host=args.host, port=args.port, data_dir=args.data_dir,
                         token=args.token, pool_size=args.pool_size,
                         gateway_url=args.gateway_url)
    if settings.database_url_text:  # reach (and migrate) it now: one clear line, no traceback
        from services.postgres_store import open_database

        open_database(settings.database_url_text).close()
    generated = settings.token is None
    token = settings.ensure_token()
    app = create_app(settings)
    where = f"http://{settings.host}:{settings.port}"
    print(f"nbcritic serving {settings.data_dir.resolve()} at {where}  (API docs: {where}/docs)",
          file=sys.stderr)
    shown = token if generated else "as configured (not shown)"  # never echo a user's secret
    print(f"token{' (generated)' if generated else ''}: {shown}", file=sys.stderr, flush=True)
    serve_app(app, settings, args.log_level)
    return EXIT_OK


async def _run_notebook(source: Path, output: Path, args: argparse.Namespace) -> int:
    from services.notebook_service import ExecuteOptions, NotebookService
    from services.notebook_store import InvalidNotebook

    from .gc_policy import freeze_startup_heap

    data_dir = Path(tempfile.mkdtemp(prefix="nbcritic-run-"))
    # the notebook and its journal are this run's; lessons and requests persist across runs
    keep = _settings(data_dir=args.data_dir)
    settings = _settings(data_dir=data_dir, pool_size=0,
                         learning_db=data_dir / "learning.sqlite3" if args.no_learn
                         else keep.learning_path,
                         lessons_enabled=False if args.no_learn else None,
                         reflection_auto=False if args.no_learn else None)
    service = NotebookService(settings, reviewer=settings.build_reviewer(),
                              generator=settings.build_generator(),
                              planner=settings.build_planner(),
                              learning=settings.build_learning())
    await service.start()
    freeze_startup_heap()  # what start-up built lives as long as the run
    try:
        try:
            notebook_id = await service.create_notebook("run", source.read_bytes())
        except InvalidNotebook as exc:
            print(f"nbcritic run: {source}: invalid notebook: {exc}", file=sys.stderr)
            return EXIT_USAGE
        for warning in _load_warnings(service.get_notebook(notebook_id)):
            print(f"nbcritic run: {source}: loaded leniently: {warning}", file=sys.stderr)
        execution_id = service.start_execution(notebook_id, None, ExecuteOptions(
            timeout=args.timeout, stop_on_error=not args.continue_on_error,
            critic=not args.no_critic, disabled_rules=tuple(args.disable_rule)))
        results = await service.wait(execution_id)
        record = service.journal.execution(execution_id)
        summary = (record.result if record else None) or {}
        output.write_text(nbjson.writes(service.get_notebook(notebook_id)) + "\n",
                          encoding="utf-8")
        reflection = service.last_reflection.get(notebook_id)
    finally:
        await service.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
    failed = [r for r in results if r.stops_a_run]  # blocked cells count as findings
    ran = {r.cell_id for r in results}
    incomplete = _incomplete(summary, stopped_at_failure=bool(failed))
    for index, result in enumerate(results, 1):
        mark = "skipped" if result.skipped else result.status.value
        if result.expected_error:
            mark += " (expected: raises-exception)"
        line = f"  [{index}] cell {result.cell_id}: {mark}"
        if result.error and not result.acceptable:
            first = result.error["evalue"].splitlines()[0] if result.error["evalue"] else ""
            line += f" - {result.error['ename']}: {first}"
        if result.escalation:
            line += f"\n      escalated ({result.escalation['pattern']}): " \
                    f"{result.escalation['question']}"
        print(line, file=sys.stderr)
        for finding in (result.critique or {}).get("findings", []):
            lines = ",".join(str(n) for n in finding.get("evidence", {}).get("lines", []))
            print(f"      {finding['severity'].upper()} ({finding['confidence']:.2f}) "
                  f"{finding['rule_id']}{f' line {lines}' if lines else ''}: "
                  f"{finding['title']}\n        {finding['explanation']}", file=sys.stderr)
    if reflection is not None and not reflection.get("clean", True):
        print(cli_learning.render_reflection(reflection), file=sys.stderr)
    gating = _gating_findings(results, args.fail_on)
    blocked = summary.get("blocked") or []
    print(f"nbcritic run: {len(ran)} cell(s) run, {len(failed)} not ok, "
          f"{len(blocked)} blocked, {_count_findings(results)} finding(s), {gating} at or "
          f"above --fail-on {args.fail_on}; wrote {output}", file=sys.stderr)
    if incomplete:
        print(f"nbcritic run: {incomplete}", file=sys.stderr)
    if failed or incomplete:
        return EXIT_CELL_FAILED
    return EXIT_FINDINGS if gating else EXIT_OK


def _load_warnings(nb: Any) -> list[str]:
    """What lenient loading filled in (kept in the executed notebook's metadata too)."""
    own = nb.metadata.get("nbcritic")
    warnings = own.get("load_warnings") if isinstance(own, dict) else None
    return [str(w) for w in warnings] if isinstance(warnings, list) else []


def _incomplete(summary: dict[str, Any], *, stopped_at_failure: bool) -> str:
    """Why the run could not run every cell it should have ('' when it could, or when it
    stopped at a failing cell as asked): a run that stopped short never exits 0."""
    if not summary:
        return "the run left no result"
    if summary.get("status") == "aborted":
        return f"the run was aborted ({summary.get('reason', 'no reason given')})"
    not_run = summary.get("not_run") or []
    if not_run and not stopped_at_failure:
        return f"{len(not_run)} cell(s) were not run"
    return ""


def _count_findings(results: list[Any]) -> int:
    return sum(len((r.critique or {}).get("findings", [])) for r in results)


def _gating_findings(results: list[Any], fail_on: str) -> int:
    if fail_on == "never":
        return 0
    from critics import Severity

    floor = Severity(fail_on)
    return sum(1 for r in results for f in (r.critique or {}).get("findings", [])
               if Severity(f["severity"]) >= floor)


def run(args: argparse.Namespace) -> int:
    if not args.notebook.is_file():
        print(f"nbcritic run: {args.notebook}: no such file", file=sys.stderr)
        return EXIT_USAGE
    output = args.output or args.notebook.with_suffix(".nbcritic.ipynb")
    return asyncio.run(_run_notebook(args.notebook, output, args))


def main(argv: list[str] | None = None) -> int:
    from pydantic import ValidationError

    args = _parser().parse_args(argv)
    command = {"serve": serve, "run": run, "lessons": cli_learning.lessons,
               "improvements": cli_learning.improvements,
               "reflect": cli_learning.reflect}[args.command]
    from services.improvement_sinks import SinkConfigError
    from services.postgres_store import DatabaseUnavailable

    try:
        return command(args)
    except SinkConfigError as exc:  # only commands that deliver improvement requests
        print(f"nbcritic {args.command}: invalid settings: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DatabaseUnavailable as exc:  # NBCRITIC_DATABASE_URL names a server not there
        print(f"nbcritic {args.command}: {exc}", file=sys.stderr)
        return 1
    except ValidationError as exc:  # NBCRITIC_* variables or the TOML file
        problems = "; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "")
            + e["msg"].removeprefix("Value error, ") for e in exc.errors())
        print(f"nbcritic {args.command}: invalid settings: {problems}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
