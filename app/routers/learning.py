"""Learning across runs: lessons, post-mortem reflections, improvement requests."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response

from app.deps import Service
from app.errors import ApiError
from app.schemas import ImprovementNote, LessonCreate, LessonUpdate, ReflectRequest
from services.lesson_export import from_json, from_markdown, to_json, to_markdown
from services.lessons import Category, Lesson, LessonQuery

router = APIRouter(prefix="/api", tags=["learning"])

MARKDOWN_TYPES = ("text/markdown", "text/plain", "text/x-markdown")
MAX_IMPORT = 5000  # each newcomer is compared with the stored lessons of its scope


@router.get("/lessons")
async def list_lessons(
    service: Service,
    category: Category | None = None,
    q: Annotated[str | None, Query(max_length=500, description="Text search.")] = None,
    rule_id: Annotated[list[str] | None, Query()] = None,
    error_type: Annotated[list[str] | None, Query()] = None,
    library: Annotated[list[str] | None, Query()] = None,
    column: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """All lessons (newest first), a text search, or — given rule ids, error types,
    libraries or columns — the relevant ones in the order the code generator gets them."""
    store = service.learning.lessons
    if rule_id or error_type or library or column:
        query = LessonQuery(rule_ids=rule_id or [], error_types=error_type or [],
                            libraries=library or [], columns=column or [])
        lessons = store.relevant(query, limit=limit, max_chars=10**9)
    else:
        lessons = store.list(category=category, text=q, limit=limit, offset=offset)
    return {"lessons": [lesson.to_dict() for lesson in lessons], "counts": store.counts()}


@router.post("/lessons", status_code=201)
async def create_lesson(body: LessonCreate, service: Service,
                        response: Response) -> dict[str, Any]:
    """Add a lesson by hand (a near-duplicate of an existing one is merged into it: 200)."""
    lesson = Lesson.from_dict({**body.model_dump(), "source": {"by": "api"}})
    recorded = await _record(service, lesson)
    if not recorded["created"]:
        response.status_code = 200
    return recorded


async def _record(service: Service, lesson: Lesson) -> dict[str, Any]:
    learned = await service.learning.record([lesson.to_dict()])
    lesson_id = (learned.created or learned.merged)[0]
    return {"lesson": service.learning.lessons.get(lesson_id).to_dict(),
            "created": bool(learned.created), "pruned": learned.pruned}


@router.get("/lessons/export")
async def export_lessons(service: Service,
                         format: Literal["json", "markdown"] = "json") -> Response:
    """Every lesson, as JSON or as a readable `lessons-learned.md`."""
    lessons = service.learning.lessons.list(limit=10**9)
    if format == "markdown":
        return Response(to_markdown(lessons), media_type="text/markdown; charset=utf-8",
                        headers={"Content-Disposition":
                                 'attachment; filename="lessons-learned.md"'})
    return Response(json.dumps(to_json(lessons), ensure_ascii=False, indent=1),
                    media_type="application/json")


@router.post("/lessons/import")
async def import_lessons(request: Request, service: Service) -> dict[str, Any]:
    """Import an export: JSON (`application/json`) or Markdown (`text/markdown`). Lessons
    that match existing ones are merged into them."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(422, "body: not UTF-8 text", "validation_error") from None
    if kind in MARKDOWN_TYPES:
        lessons = from_markdown(text)
    elif kind in ("application/json", ""):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ApiError(422, f"body: invalid JSON ({exc})", "validation_error") from None
        except RecursionError:
            raise ApiError(422, "body: JSON nested too deeply", "validation_error") from None
        lessons = from_json(data)
    else:
        raise ApiError(415, f"content-type {kind}: send application/json or text/markdown",
                       "unsupported_media_type")
    if len(lessons) > MAX_IMPORT:
        raise ApiError(422, f"lessons: at most {MAX_IMPORT} per import (got {len(lessons)}); "
                       "split the file", "validation_error")
    counts = await service.learning.import_lessons(lessons)
    return {**counts, "counts": service.learning.lessons.counts()}


@router.get("/lessons/{lesson_id}")
async def get_lesson(lesson_id: str, service: Service) -> dict[str, Any]:
    return service.learning.lessons.get(lesson_id).to_dict()


@router.patch("/lessons/{lesson_id}")
async def edit_lesson(lesson_id: str, body: LessonUpdate, service: Service) -> dict[str, Any]:
    changes = body.changes()
    if not changes:
        raise ApiError(422, "body: no field to change", "validation_error")
    return service.learning.lessons.update(lesson_id, changes).to_dict()


@router.delete("/lessons/{lesson_id}", status_code=204)
async def delete_lesson(lesson_id: str, service: Service) -> Response:
    service.learning.lessons.delete(lesson_id)
    return Response(status_code=204)


# -- reflection --------------------------------------------------------------------------

@router.post("/notebooks/{notebook_id}/reflection")
async def reflect(notebook_id: str, service: Service,
                  body: ReflectRequest | None = None) -> dict[str, Any]:
    """A post-mortem of the notebook's executions (default: those since its last
    reflection): patterns with severity and count, metrics, suggestions, the lessons it
    wrote and the improvement requests it queued. A clean run changes nothing."""
    ids = body.execution_ids if body else None
    return await service.reflect(notebook_id, ids)


@router.get("/notebooks/{notebook_id}/reflections")
async def list_reflections(notebook_id: str, service: Service,
                           limit: Annotated[int, Query(ge=1, le=200)] = 20) -> dict[str, Any]:
    return {"reflections": service.reflections(notebook_id, limit)}


# -- improvement requests -----------------------------------------------------------------

@router.get("/improvements")
async def list_improvements(
    service: Service,
    status: Literal["open", "acknowledged", "dismissed"] | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    return {"improvements": [r.to_dict() for r in
                             service.learning.queue.list(status=status, limit=limit)]}


@router.get("/improvements/{request_id}")
async def get_improvement(request_id: str, service: Service) -> dict[str, Any]:
    return service.learning.queue.get(request_id).to_dict()


@router.post("/improvements/{request_id}/acknowledge")
async def acknowledge(request_id: str, service: Service,
                      body: ImprovementNote | None = None) -> dict[str, Any]:
    note = body.note if body else ""
    return service.learning.queue.acknowledge(request_id, note).to_dict()


@router.post("/improvements/{request_id}/dismiss")
async def dismiss(request_id: str, service: Service,
                  body: ImprovementNote | None = None) -> dict[str, Any]:
    note = body.note if body else ""
    return service.learning.queue.dismiss(request_id, note).to_dict()

