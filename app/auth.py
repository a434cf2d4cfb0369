"""Bearer-token auth for everything but /health (constant-time comparison)."""

from __future__ import annotations

import secrets

from fastapi import Request

from .errors import ApiError


async def require_token(request: Request) -> None:
    _check(request, allow_query=False)


async def require_token_or_query(request: Request) -> None:
    """For pages a browser opens (/docs): `?token=` works as well as the header."""
    _check(request, allow_query=True)


def _check(request: Request, allow_query: bool) -> None:
    expected: str = request.app.state.token
    header = request.headers.get("authorization", "")
    scheme, _, supplied = header.partition(" ")
    if allow_query and not header and request.query_params.get("token"):
        scheme, supplied = "bearer", request.query_params["token"]
    if scheme.lower() != "bearer" or not supplied:
        raise ApiError(401, "missing bearer token (Authorization: Bearer <token>)",
                       "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    if not secrets.compare_digest(supplied.strip().encode(), expected.encode()):
        raise ApiError(401, "invalid token", "unauthorized",
                       headers={"WWW-Authenticate": "Bearer"})
