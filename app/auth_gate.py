"""Refuse a request that carries a body to /api without the right bearer token before the
body is read: a 20 MB upload without a token costs a header, not 20 MB of reading and
parsing. The routes' own token dependency still decides every other request."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from .auth import token_problem


class TokenGateMiddleware:
    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _guarded(scope):
            problem = token_problem(_header(scope, b"authorization"), self.token)
            if problem:
                await _refuse(send, problem)
                return
        await self.app(scope, receive, send)


def _guarded(scope: Scope) -> bool:
    has_body = bool(_header(scope, b"content-length").strip("0 ")
                    or _header(scope, b"transfer-encoding"))
    return has_body and scope["path"].startswith("/api/")


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


async def _refuse(send: Send, problem: str) -> None:
    body = json.dumps({"detail": problem, "code": "unauthorized"}).encode()
    await send({"type": "http.response.start", "status": 401,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"www-authenticate", b"Bearer"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
