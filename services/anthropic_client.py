"""The one place the service builds its Anthropic client (the Claude critic and the code
generator share it). `critics` never imports `anthropic`: it gets this client injected."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import anthropic

DEFAULT_MAX_RETRY_WAIT = 10.0


def make_async_client(api_key: str, *, base_url: str | None = None, timeout: float = 60.0,
                      max_retries: int = 2,
                      max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT) -> anthropic.AsyncAnthropic:
    """An `AsyncAnthropic` for the service.

    - `base_url`: any Anthropic-compatible endpoint; None falls back to the SDK's own
      resolution (`ANTHROPIC_BASE_URL`, then https://api.anthropic.com).
    - `timeout`: seconds for each HTTP attempt (connect, read, write and pool each), not
      for the whole call: a timed-out attempt is retried like a connection error.
    - `max_retries`: retries after the first attempt, so at most `max_retries + 1` requests.
      The SDK retries connection errors, timeouts, 408, 409, 429 and 5xx (a server may veto
      with `x-should-retry: false`). Before each retry it sleeps for the server's positive
      `retry-after-ms` / `retry-after`, capped here at `max_retry_wait` seconds (RetryAfterCap),
      else for an exponential backoff 0.5 s * 2**n (n = retries done), at most 8 s, with up to
      -25 % jitter: 0.375-0.5 s, then 0.75-1 s, ... (`retry-after: 0` means "no hint", so
      it gets the backoff too, not an immediate retry).

    Worst case for one call: `(max_retries + 1) * timeout + max_retries * max(max_retry_wait, 8)`
    seconds, e.g. 3 * 60 + 2 * 10 = 200 s with the defaults; pass a shorter `timeout` where a
    cell waits on the call.
    """
    import anthropic  # only with a key: the SDK takes ~1 s and ~60 MiB to import

    from .anthropic_retry import RetryAfterCap

    return anthropic.AsyncAnthropic(
        api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries,
        middleware=[RetryAfterCap(max_retry_wait)],
    )


# -- reading a forced-tool reply (the generator, the planner, the lesson pruner) ------------

def field_of(obj: Any, key: str) -> Any:
    """A reply field, from the SDK's objects or from plain dicts (tests, raw JSON)."""
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def forced_tool_input(response: Any, tool: str, who: str, error: type[Exception], *,
                      max_tokens: int | None = None, cut_off: str = "") -> dict[str, Any]:
    """The input of the reply's `tool` call as a dict, or `error` saying why not: cut off
    at max_tokens, refused, no such call, or an input that is not an object."""
    stop = field_of(response, "stop_reason")
    content = field_of(response, "content")
    blocks = content if isinstance(content, list) else []
    kinds = [str(field_of(b, "type")) for b in blocks]
    if stop == "max_tokens":
        raise error(f"{who}: the reply was cut off at max_tokens={max_tokens} "
                    f"(content={kinds}){'; ' + cut_off if cut_off else ''}")
    if stop == "refusal":
        raise error(f"{who}: the model refused (content={kinds})")
    call = next((b for b in blocks
                 if field_of(b, "type") == "tool_use" and field_of(b, "name") == tool), None)
    if call is None:
        names = [str(field_of(b, "name")) for b in blocks if field_of(b, "type") == "tool_use"]
        detail = f", tools called={names}" if names else ""
        raise error(f"{who}: the reply has no {tool} tool call "
                    f"(stop_reason={stop!r}, content={kinds}{detail})")
    data = field_of(call, "input")
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            data = None
    if not isinstance(data, dict):
        raise error(f"{who}: {tool} input is not an object (got {type(data).__name__})")
    return data
