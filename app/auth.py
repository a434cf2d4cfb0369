"""Bearer-token auth for everything but /health (constant-time comparison)."""

from __future__ import annotations

import secrets

from fastapi import Request

from .errors import ApiError


def require_token(request: Request) -> None:
    expected: str = request.app.state.token
    header = request.headers.get("authorization", "")
    scheme, _, supplied = header.partition(" ")
    if scheme.lower() != "bearer" or not supplied:
        raise ApiError(401, "missing bearer token (Authorization: Bearer <token>)",
                       "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    if not secrets.compare_digest(supplied.strip().encode(), expected.encode()):
        raise ApiError(401, "invalid token", "unauthorized",
                       headers={"WWW-Authenticate": "Bearer"})
