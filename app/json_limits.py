"""Limits on the shape of JSON a client sends: nesting depth (a notebook nested hundreds of
levels deep is accepted by the parser, then breaks validation and copying for good)."""

from __future__ import annotations

import json
from typing import Any

from .errors import ApiError

MAX_JSON_DEPTH = 64


def json_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """Nesting depth of `value`, counted without recursion and only up to `limit` + 1."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list):
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children)
    return deepest


def shallow_json(value: Any) -> Any:
    """A pydantic validator: refuse JSON nested deeper than MAX_JSON_DEPTH (422)."""
    if json_depth(value) > MAX_JSON_DEPTH:
        raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
    return value


def check_upload_depth(data: bytes) -> None:
    """An uploaded .ipynb nested too deeply is a 422 naming the file (not JSON: the notebook
    parser reports it)."""
    try:
        parsed = json.loads(data)
    except RecursionError:
        parsed = None
    except ValueError:
        return
    if parsed is None or json_depth(parsed) > MAX_JSON_DEPTH:
        raise ApiError(422, f"file: JSON nested deeper than {MAX_JSON_DEPTH} levels",
                       "validation_error")
