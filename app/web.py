"""The web page at `/`: one HTML document, ES modules from app/static (no build step).

The page and its assets need no token (they hold no data); everything they show comes from
the REST API with the token the person types into the page's login form (kept in the tab's
sessionStorage, never in a URL). The import map is made from the vendored-modules manifest
and allowed by its hash in the Content-Security-Policy: no other inline script runs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
from functools import cache

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from .static_assets import STATIC, import_map, load_manifest

mimetypes.add_type("text/javascript", ".mjs")  # module scripts need a JavaScript type
router = APIRouter(include_in_schema=False)


@cache
def _page() -> tuple[str, str]:
    """The HTML with its import map, and the CSP that allows exactly that inline script."""
    script = json.dumps(import_map(load_manifest()), indent=1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace("<!-- importmap -->", f'<script type="importmap">{script}</script>')
    csp = ("default-src 'self'; "
           f"script-src 'self' 'sha256-{digest}'; "
           "style-src 'self' 'unsafe-inline'; "  # CodeMirror injects its theme as <style>
           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    return html, csp


@router.get("/", response_class=HTMLResponse)
async def index() -> HTMLResponse:
    html, csp = _page()
    return HTMLResponse(html, headers={"Content-Security-Policy": csp,
                                       "X-Content-Type-Options": "nosniff",
                                       "Referrer-Policy": "no-referrer"})


def install(app: FastAPI) -> None:
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
