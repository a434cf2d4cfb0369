"""`nbcritic lessons ...`, `nbcritic improvements ...`, `nbcritic reflect ...`: the
learning stores of a data directory, read and edited without a running service (SQLite WAL
lets the CLI and a service share them)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EDITABLE = ("title", "category", "severity", "what_went_wrong", "what_fixed_it")


def add_commands(sub: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", type=Path,
                        help="the service's data directory (default ./nbcritic-data)")
    lessons = sub.add_parser("lessons", help="list, search, edit, delete, export, import "
                                             "lessons learned")
    verbs = _Verbs(lessons.add_subparsers(dest="verb", required=True), common)
    listing = verbs.add_parser("list", help="lessons, newest first")
    listing.add_argument("--category", choices=("mistake", "fix", "pattern", "tip"))
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--json", action="store_true", help="print JSON")
    search = verbs.add_parser("search", help="lessons whose text or scope contains TEXT")
    search.add_argument("text")
    search.add_argument("--json", action="store_true")
    show = verbs.add_parser("show", help="one lesson in full")
    show.add_argument("id")
    edit = verbs.add_parser("edit", help="change fields of a lesson")
    edit.add_argument("id")
    for name in EDITABLE:
        edit.add_argument(f"--{name.replace('_', '-')}", dest=name)
    edit.add_argument("--scope", metavar="JSON",
                      help='scope fields to replace, e.g. \'{"libraries": ["pandas"]}\' '
                           "(the fields not named are kept)")
    delete = verbs.add_parser("delete", help="delete lessons")
    delete.add_argument("ids", nargs="+")
    export = verbs.add_parser("export", help="write lessons-learned.md or JSON")
    export.add_argument("-o", "--output", type=Path,
                        help="file (default: stdout); .json exports JSON, else Markdown")
    export.add_argument("--format", choices=("markdown", "json"))
    imp = verbs.add_parser("import", help="import a lessons-learned.md or JSON export")
    imp.add_argument("file", type=Path)

    improvements = sub.add_parser("improvements", help="the improvement-request queue")
    verbs = _Verbs(improvements.add_subparsers(dest="verb", required=True), common)
    listing = verbs.add_parser("list")
    listing.add_argument("--status", choices=("open", "acknowledged", "dismissed"))
    listing.add_argument("--json", action="store_true")
    for verb in ("ack", "dismiss"):
        action = verbs.add_parser(verb, help=f"{'acknowledge' if verb == 'ack' else verb} "
                                             "requests")
        action.add_argument("ids", nargs="+")
        action.add_argument("--note", default="")

    reflect = sub.add_parser("reflect", help="post-mortem of a served notebook's executions",
                             parents=[common])
    reflect.add_argument("notebook", help="notebook id (in DATA_DIR/notebooks)")
    reflect.add_argument("--execution", action="append", dest="executions", metavar="ID",
                         help="reflect on these executions (default: since the last "
                              "reflection; repeatable)")
    reflect.add_argument("--json", action="store_true")


class _Verbs:
    """Subcommands that all take the common options (`--data-dir` after the verb)."""

    def __init__(self, sub: Any, common: argparse.ArgumentParser) -> None:
        self.sub, self.common = sub, common

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        return self.sub.add_parser(name, parents=[self.common], **kwargs)


def _learning(args: argparse.Namespace, *, deliver: bool = False) -> Any:
    """The data directory's learning stores; improvement sinks only for a command that
    delivers requests (`reflect`), so a misconfigured sink stops nothing else."""
    from .settings import Settings

    overrides = {"data_dir": args.data_dir} if args.data_dir else {}
    return Settings(**overrides).build_learning(deliver=deliver)


def _print(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _line(lesson: Any) -> str:
    scope = lesson.scope
    where = ", ".join(scope.rule_ids + scope.error_types + scope.libraries)
    seen = f"x{lesson.times_encountered}"
    return (f"{lesson.id}  {lesson.category:<8} {lesson.severity:<8} {seen:<4} "
            f"{lesson.title}" + (f"  [{where}]" if where else ""))


def lessons(args: argparse.Namespace) -> int:
    from services.lesson_export import from_json, from_markdown, to_json, to_markdown
    from services.lessons import LessonError, LessonNotFound

    learning = _learning(args)
    store = learning.lessons
    try:
        if args.verb in ("list", "search"):
            found = store.list(category=getattr(args, "category", None),
                               text=getattr(args, "text", None),
                               limit=getattr(args, "limit", 1000))
            if args.json:
                _print(json.dumps([x.to_dict() for x in found], indent=1, ensure_ascii=False))
            else:
                _print("\n".join(_line(x) for x in found) or "no lessons")
        elif args.verb == "show":
            _print(to_markdown([store.get(args.id)]))
        elif args.verb == "edit":
            changes: dict[str, Any] = {k: getattr(args, k) for k in EDITABLE
                                       if getattr(args, k) is not None}
            if args.scope is not None:
                try:
                    changes["scope"] = json.loads(args.scope)
                except json.JSONDecodeError as exc:
                    raise LessonError("scope", f"not valid JSON ({exc})") from None
            if not changes:
                print("nbcritic lessons edit: nothing to change (give --title, --severity, ...)",
                      file=sys.stderr)
                return EXIT_USAGE
            _print(_line(store.update(args.id, changes)))
        elif args.verb == "delete":
            ids = list(dict.fromkeys(args.ids))
            for lesson_id in ids:  # all or nothing: an unknown id deletes none of them
                store.get(lesson_id)
            _print(f"deleted {store.remove(ids)} lesson(s)")
        elif args.verb == "export":
            every = store.list(limit=10**9)
            as_json = args.format == "json" or (
                args.format is None and args.output is not None and args.output.suffix == ".json")
            text = (json.dumps(to_json(every), indent=1, ensure_ascii=False) if as_json
                    else to_markdown(every))
            if args.output:
                try:
                    args.output.write_text(text if text.endswith("\n") else text + "\n",
                                           encoding="utf-8")
                except OSError as exc:
                    print(f"nbcritic lessons export: {args.output}: {exc.strerror or exc}",
                          file=sys.stderr)
                    return EXIT_USAGE
                print(f"wrote {len(every)} lesson(s) to {args.output}", file=sys.stderr)
            else:
                _print(text)
        elif args.verb == "import":
            if not args.file.is_file():
                print(f"nbcritic lessons import: {args.file}: no such file", file=sys.stderr)
                return EXIT_USAGE
            try:
                text = args.file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                print(f"nbcritic lessons import: {args.file}: not readable as UTF-8 text "
                      f"({exc})", file=sys.stderr)
                return EXIT_USAGE
            as_json = args.file.suffix.lower() == ".json" or text.lstrip().startswith(("{", "["))
            try:
                items = from_json(json.loads(text)) if as_json else from_markdown(text)
            except RecursionError:
                raise LessonError(str(args.file), "nested too deeply to read") from None
            counts = asyncio.run(learning.import_lessons(items))
            _print(f"imported {counts['created']} new, merged {counts['merged']}, updated "
                   f"{counts['updated']} (edited by id), unchanged {counts['unchanged']}")
    except LessonNotFound as exc:
        print(f"nbcritic lessons: no lesson {exc.args[0]}", file=sys.stderr)
        return EXIT_FAILED
    except (LessonError, json.JSONDecodeError) as exc:
        print(f"nbcritic lessons: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        learning.close()
    return EXIT_OK


def improvements(args: argparse.Namespace) -> int:
    from services.improvement_queue import ImprovementNotFound

    learning = _learning(args)
    queue = learning.queue
    try:
        if args.verb == "list":
            found = queue.list(status=args.status)
            if args.json:
                _print(json.dumps([r.to_dict() for r in found], indent=1, ensure_ascii=False))
            else:
                _print("\n".join(_request_lines(r) for r in found)
                       or "no improvement requests")
        else:
            act = queue.acknowledge if args.verb == "ack" else queue.dismiss
            ids = list(dict.fromkeys(args.ids))
            for request_id in ids:  # all or nothing: an unknown id changes none of them
                queue.get(request_id)
            for request_id in ids:
                act(request_id, args.note)
            _print(f"{args.verb}: {len(ids)} request(s)")
    except ImprovementNotFound as exc:
        print(f"nbcritic improvements: no request {exc.args[0]}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        learning.close()
    return EXIT_OK


def _request_lines(request: Any) -> str:
    """One line per request, then one per sink whose delivery has not succeeded (its last
    attempt failed), so an undelivered request is seen where requests are listed."""
    lines = [f"{request.id}  {request.status:<12} {request.priority:<8} "
             f"x{request.occurrences:<3} {request.title}"]
    for sink, last in failed_deliveries(request.deliveries).items():
        lines.append(f"    delivery to {sink} FAILED: {last.get('detail', '')}")
    return "\n".join(lines)


def failed_deliveries(deliveries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Sink -> its last failed delivery, for sinks that never delivered the request."""
    failed: dict[str, dict[str, Any]] = {}
    delivered = {d.get("sink") for d in deliveries if d.get("ok")}
    for delivery in deliveries:
        sink = str(delivery.get("sink"))
        if sink not in delivered and not delivery.get("ok"):
            failed[sink] = delivery
    return failed


def reflect(args: argparse.Namespace) -> int:
    from services.journal import Journal
    from services.reflection import Reflection

    learning = _learning(args, deliver=True)
    journal_path = learning.config.data_dir / "journal.sqlite3"
    if not journal_path.is_file():
        print(f"nbcritic reflect: no journal at {journal_path}", file=sys.stderr)
        learning.close()
        return EXIT_USAGE
    journal = Journal(journal_path)
    try:
        for execution_id in args.executions or []:
            record = journal.execution(execution_id)
            if record is None or record.notebook_id != args.notebook:
                print(f"nbcritic reflect: no execution {execution_id} of notebook "
                      f"{args.notebook}", file=sys.stderr)
                return EXIT_USAGE
        if not journal.executions(args.notebook, limit=1):
            print(f"nbcritic reflect: notebook {args.notebook} has no executions",
                  file=sys.stderr)
            return EXIT_USAGE
        data = asyncio.run(learning.reflect(journal, args.notebook, args.executions,
                                            record_clean=args.executions is not None))
    finally:
        journal.close()
        learning.close()
    if args.json:
        _print(json.dumps(data, indent=1, ensure_ascii=False, default=str))
    else:
        _print(render_reflection(data, Reflection))
    return EXIT_OK


def render_reflection(data: dict[str, Any], reflection_type: Any = None) -> str:
    """The reflection's own report, plus what it changed."""
    if reflection_type is None:
        from services.reflection import Reflection as reflection_type
    text = reflection_type.from_dict(data).render()
    if data.get("already_reflected"):
        text += ("\nalready reflected on earlier: lessons and improvement requests were not "
                 "changed again")
    lessons = data.get("lessons") or {}
    changed = len(lessons.get("created", [])) + len(lessons.get("merged", []))
    if changed:
        text += f"\nlessons: {len(lessons.get('created', []))} new, " \
                f"{len(lessons.get('merged', []))} merged"
    for item in data.get("improvements") or []:
        state = "queued" if item["queued"] else f"not queued ({item['reason']})"
        text += f"\nimprovement request {item['id']}: {item['title']} — {state}"
    return text
