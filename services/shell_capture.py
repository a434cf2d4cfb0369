"""What the in-process shell shows while an attempt runs, captured as nbformat v4 outputs
for the critic (stream writes, published displays, the displayed result), without changing
what the user sees. Duck-typed on IPython's shell: `display_pub.publish`,
`displayhook.write_format_data`, `sys.stdout`/`sys.stderr`."""

from __future__ import annotations

import base64
import sys
from collections.abc import Callable
from typing import Any


class OutputCapture:
    """Record stdout/stderr writes, published displays and the displayed result of code run
    by the shell, as nbformat v4 outputs, without changing what the user sees."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.outputs: list[dict[str, Any]] = []
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> OutputCapture:
        for name in ("stdout", "stderr"):
            self._wrap(getattr(sys, name), "write", self._stream_writer(name))
        self._wrap(self.shell.display_pub, "publish", self._publisher)
        self._wrap(self.shell.displayhook, "write_format_data", self._result_writer)
        return self

    def __exit__(self, *exc: object) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _wrap(self, obj: Any, attr: str, make: Callable[[Callable[..., Any]], Any]) -> None:
        had_own = attr in getattr(obj, "__dict__", {})
        original = getattr(obj, attr)
        try:
            setattr(obj, attr, make(original))
        except (AttributeError, TypeError):  # a stream that refuses patching: not captured
            return

        def undo() -> None:
            if had_own:
                setattr(obj, attr, original)
            else:
                try:
                    delattr(obj, attr)
                except AttributeError:
                    setattr(obj, attr, original)

        self._undo.append(undo)

    def _stream_writer(self, name: str) -> Callable[[Callable[..., Any]], Any]:
        def make(original: Callable[..., Any]) -> Callable[..., Any]:
            def write(data: Any, *args: Any, **kwargs: Any) -> Any:
                result = original(data, *args, **kwargs)
                if data and not getattr(self.shell.displayhook, "is_active", False):
                    self._add_stream(name, data if isinstance(data, str) else str(data))
                return result
            return write
        return make

    def _add_stream(self, name: str, text: str) -> None:
        last = self.outputs[-1] if self.outputs else None
        if last and last["output_type"] == "stream" and last["name"] == name:
            last["text"] += text
        else:
            self.outputs.append({"output_type": "stream", "name": name, "text": text})

    def _publisher(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def publish(data: dict[str, Any], metadata: dict[str, Any] | None = None,
                    *args: Any, **kwargs: Any) -> Any:
            if not kwargs.get("update"):
                self.outputs.append({"output_type": "display_data", "data": _jsonable(data),
                                     "metadata": dict(metadata or {})})
            return original(data, metadata, *args, **kwargs)
        return publish

    def _result_writer(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def write_format_data(format_dict: dict[str, Any],
                              md_dict: dict[str, Any] | None = None) -> Any:
            self.outputs.append({"output_type": "execute_result",
                                 "data": _jsonable(format_dict),
                                 "metadata": dict(md_dict or {}),
                                 "execution_count": getattr(self.shell.displayhook,
                                                            "prompt_count", None)})
            return original(format_dict, md_dict)
        return write_format_data


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (data or {}).items():
        if isinstance(value, bytes):
            out[key] = base64.b64encode(value).decode("ascii")
        else:
            out[key] = value
    return out
