"""`RetryAfterCap`, the Anthropic client's middleware bounding `retry-after` waits; a module
of its own because it subclasses the SDK's, and the SDK is imported only when a client is
built (`services.anthropic_client.make_async_client`)."""

from __future__ import annotations

import email.utils
import time
from typing import Any

import anthropic

from .anthropic_client import DEFAULT_MAX_RETRY_WAIT


class RetryAfterCap(anthropic.Middleware):
    """Bound the wait a server can impose through `retry-after` / `retry-after-ms`.

    The SDK (2.x) sleeps for whatever positive `retry-after` a 408/409/429/5xx response
    carries, with no upper bound but ~49 days; this rewrites a longer wait on an error
    response to `max_wait` seconds before the SDK's retry loop reads it. Runs once per HTTP
    attempt, inside that loop."""

    def __init__(self, max_wait: float = DEFAULT_MAX_RETRY_WAIT) -> None:
        self.max_wait = max_wait

    async def handle_async(self, request: anthropic.APIRequest, call_next: Any) -> Any:
        response = await call_next(request)
        http_response = getattr(response, "http_response", None)
        if http_response is not None and not http_response.is_success:
            headers = http_response.headers
            wait = _requested_wait(headers)
            if wait is not None and wait > self.max_wait:
                for name in ("retry-after", "retry-after-ms"):
                    if name in headers:
                        del headers[name]
                headers["retry-after-ms"] = str(int(self.max_wait * 1000))
        return response


def _requested_wait(headers: Any) -> float | None:
    """Seconds asked for, read the way the SDK reads them (ms header first, then seconds,
    then an HTTP date)."""
    try:
        return float(headers.get("retry-after-ms")) / 1000
    except (TypeError, ValueError):
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(value)
    return None if parsed is None else email.utils.mktime_tz(parsed) - time.time()
