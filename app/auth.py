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
    header = request.headers.get("authorization", "")
    if allow_query and not header and request.query_params.get("token"):
        header = "Bearer " + request.query_params["token"]
    problem = token_problem(header, request.app.state.token)
    if problem:
        raise ApiError(401, problem, "unauthorized", headers={"WWW-Authenticate": "Bearer"})


def token_problem(header: str, expected: str) -> str | None:
    """What is wrong with an Authorization header value (None: the right bearer token)."""
    scheme, _, supplied = header.partition(" ")
    if scheme.lower() != "bearer" or not supplied:
        return "missing bearer token (Authorization: Bearer <token>)"
    if not secrets.compare_digest(supplied.strip().encode(), expected.encode()):
        return "invalid token"
    return None
