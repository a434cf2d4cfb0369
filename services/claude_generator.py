"""The Claude code generator: one Messages API call per `generate`/`fix`, structured output
through a forced `submit_code` tool.

The client (an `anthropic.AsyncAnthropic` from `services.anthropic_client.make_async_client`,
which bounds the SDK's retries and the `retry-after` waits) is injected and used duck-typed:
`await client.messages.create(...)`. Everything that goes wrong - an API error after those
retries, a timeout, a reply without a usable `submit_code` call, a reply cut off at
`max_tokens`, a refusal - raises `GeneratorError`, so the retry loop escalates.

    gen = ClaudeCodeGenerator(make_async_client(key), model="claude-...")
    generation = await gen.fix(prompt, code, feedback, history, context)
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from critics.claude_critic import middle_out, numbered_lines

from .anthropic_client import field_of, forced_tool_input
from .code_generator import (
    AttemptSummary,
    Generation,
    GenerationContext,
    GeneratorError,
    TokenUsage,
)

if TYPE_CHECKING:
    import anthropic

TOOL_NAME = "submit_code"
CACHED = {"type": "ephemeral"}  # a prompt-cache breakpoint

SYSTEM_PROMPT = """\
You write the code of one Jupyter notebook cell in Python. The cell runs in a live kernel \
right after the earlier cells of the notebook: their imports, data and variables already \
exist.

Rules:
- Write one complete, runnable cell: the full source, not a diff, not a fragment, no \
line numbers, no Markdown.
- Reuse the kernel's existing variables and imports. Do not re-import libraries or \
re-load or re-compute data that already exists unless the cell really needs a fresh copy.
- Keep the cell's intent: compute and show the result the task asks for. Do not narrow \
the task, drop the analysis or replace it with something easier.
- When fixing a runtime error, fix its cause (wrong name, column, dtype, shape, API \
usage). A failed attempt may have partly run, so variables it assigned before failing can \
already exist or be modified; write code that is correct either way.
- When fixing a methodological finding, change the method so that the result becomes \
valid: for example fit scalers, imputers, encoders and feature selection on the training \
split only (or inside a Pipeline) after the split, keep the target and its proxies out of \
the features, select models on validation data or by cross-validation rather than on the \
test set, correct p-values for multiple comparisons, use a test whose assumptions hold, \
account for repeated measures, seed randomness behind a reported number.
- Never hide the result or the problem: do not suppress warnings, do not wrap code in \
try/except blocks that swallow errors to silence them, do not delete the output, do not \
special-case or mention the reviewer or its checks in the code.
- Prefer small, clear code; short comments only where the method changed.

Submit the cell by calling the submit_code tool exactly once: `code` is the complete cell \
source, `explanation` one or two sentences on what you wrote or changed and why."""

SUBMIT_TOOL: dict[str, Any] = {
    "name": TOOL_NAME,
    "description": "Submit the complete source of the notebook cell.",
    "input_schema": {
        "type": "object",
        "properties": {
            "code": {"type": "string",
                     "description": "The complete cell source (Python), without line numbers "
                                    "or Markdown fences."},
            "explanation": {"type": "string",
                            "description": "One or two sentences: what changed and why."},
        },
        "required": ["code"],
    },
}

# prompt budgets (characters)
MAX_CODE_CHARS = 12_000  # the failing attempt's code
MAX_FEEDBACK_CHARS = 6_000  # the feedback on it
MAX_HISTORY_CHARS = 8_000  # all earlier attempts together
ATTEMPT_CODE_CHARS = 1_200  # code excerpt of one earlier attempt
ATTEMPT_FEEDBACK_CHARS = 1_200  # feedback of one earlier attempt
MAX_PLAN_CHARS = 4_000  # the cell's plan


class ClaudeCodeGenerator:
    """`CodeGenerator` on the Anthropic Messages API.

    `temperature` is sent through `extra_body` (the installed SDK's `messages.create` has no
    `temperature` argument); None leaves it out, for models that reject it. `system_prompt`
    replaces `SYSTEM_PROMPT`. `last_request` holds the keyword arguments of the last call,
    `last_stop_reason` its reply's stop reason."""

    def __init__(self, client: Any, *, model: str, max_tokens: int = 4096,
                 temperature: float | None = 0.0, system_prompt: str | None = None) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.system_prompt = system_prompt or SYSTEM_PROMPT
        self.last_request: dict[str, Any] | None = None
        self.last_stop_reason: str | None = None

    # -- the interface ----------------------------------------------------------------------

    async def generate(self, prompt: str, context: GenerationContext) -> Generation:
        return await self._call(generate_message(prompt, context), context)

    async def fix(self, prompt: str | None, code: str, feedback: str,
                  history: list[AttemptSummary], context: GenerationContext) -> Generation:
        return await self._call(fix_message(prompt, code, feedback, history, context), context)

    # -- the call ---------------------------------------------------------------------------

    def request(self, user_text: str, earlier_cells: str = "") -> dict[str, Any]:
        """The keyword arguments of the `messages.create` call. Stable first, marked for
        prompt caching: the tools and system prompt (one breakpoint covers both), then the
        notebook's earlier cells; what changes per call (task, code, feedback) last."""
        content: list[dict[str, Any]] = []
        if earlier_cells:
            content.append({"type": "text", "text": earlier_cells, "cache_control": CACHED})
        content.append({"type": "text", "text": user_text})
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "tools": [SUBMIT_TOOL],
            "system": [{"type": "text", "text": self.system_prompt, "cache_control": CACHED}],
            "messages": [{"role": "user", "content": content}],
            "tool_choice": {"type": "tool", "name": TOOL_NAME},
        }
        if self.temperature is not None:
            kwargs["extra_body"] = {"temperature": self.temperature}
        return kwargs

    async def _call(self, user_text: str, context: GenerationContext) -> Generation:
        import anthropic  # loaded with the client; not imported without a key

        kwargs = self.request(user_text, earlier_cells_block(context))
        self.last_request = kwargs
        self.last_stop_reason = None
        try:
            response = await self.client.messages.create(**kwargs)
        except anthropic.APIError as exc:  # status, connection and timeout errors
            raise GeneratorError(_api_error_text(exc)) from exc
        except json.JSONDecodeError as exc:  # the SDK parses the body with json.loads
            raise GeneratorError(
                f"Claude code generator: the API reply is not valid JSON ({exc})") from exc
        self.last_stop_reason = field_of(response, "stop_reason")
        code, explanation = parse_reply(response, max_tokens=self.max_tokens)
        return Generation(code=code, explanation=explanation,
                          usage=usage_of(field_of(response, "usage")),
                          model=field_of(response, "model") or self.model)


# -- the user message ---------------------------------------------------------------------------


def generate_message(prompt: str, context: GenerationContext) -> str:
    """The user message of `generate`: the task, then the notebook context."""
    parts = ["Write the code of a new notebook cell for this task.",
             f"<task>\n{prompt.strip()}\n</task>",
             *_plan_section(context),
             _context_section(context),
             "Call submit_code with the complete cell source."]
    return "\n\n".join(parts)


FAILED_INTRO = ("The notebook cell below failed. Rewrite it so that it runs and its result "
                "is methodologically sound, keeping what the cell is meant to do.")
GENERATED_CODE = ("This code was written by the code generator (you) in an earlier attempt "
                  "of this cell, not by the user.")
USER_CODE = "This code was written by the user."
BLOCKED_INTRO = ("The notebook cell below ran without error, but the reviewer blocked its "
                 "result as methodologically invalid. Rewrite it so that its result is "
                 "sound, keeping what the cell is meant to do.")


def fix_message(prompt: str | None, code: str, feedback: str, history: list[AttemptSummary],
                context: GenerationContext) -> str:
    """The user message of `fix`: the task (when any), the failing code (numbered), the
    feedback on it, the earlier attempts (bounded), then the notebook context."""
    blocked = context.status == "scientific_validity_error"
    tag = "blocked_code" if blocked else "failing_code"
    parts = [BLOCKED_INTRO if blocked else FAILED_INTRO,
             GENERATED_CODE if context.generated else USER_CODE]
    if prompt and prompt.strip():
        parts.append(f"<task>\n{prompt.strip()}\n</task>")
    parts.extend(_plan_section(context))
    parts.append(f"<{tag}>\n{numbered_lines(code, MAX_CODE_CHARS)}\n</{tag}>")
    parts.append(f"<feedback note=\"what went wrong with the {tag.replace('_', ' ')}: the "
                 "error or the reviewer's findings\">\n"
                 f"{middle_out(feedback.strip() or '(no details)', MAX_FEEDBACK_CHARS)}\n"
                 "</feedback>")
    earlier = _history(history, MAX_HISTORY_CHARS)
    if earlier:
        parts.append("<earlier_attempts note=\"oldest first; do not repeat what already "
                     f"failed\">\n{earlier}\n</earlier_attempts>")
    parts.append(_context_section(context))
    parts.append("Call submit_code with the complete corrected cell source (without the "
                 "line numbers).")
    return "\n\n".join(parts)


def _plan_section(context: GenerationContext) -> list[str]:
    """The cell's plan, right after the task: the code is to carry it out."""
    if not context.plan.strip():
        return []
    return ["<plan note=\"made before the code was written; follow its approach, guard "
            "against its risks and meet its success criteria\">\n"
            f"{middle_out(context.plan.strip(), MAX_PLAN_CHARS)}\n</plan>"]


def earlier_cells_block(context: GenerationContext) -> str:
    """The first, cached block of the user message: the notebook's earlier cells."""
    cells = context.sections()[0].strip()
    return f"<earlier_cells>\n{cells}\n</earlier_cells>" if cells else ""


def _context_section(context: GenerationContext) -> str:
    cells, rest = (part.strip() for part in context.sections())
    if not rest:
        rest = ("(no variables in the kernel)" if cells
                else "(no earlier cells, no variables in the kernel)")
    return f"<notebook_context>\n{rest}\n</notebook_context>"


def usage_of(usage: Any) -> TokenUsage:
    """The SDK's usage, prompt-cache counts included."""
    return TokenUsage(*(_int(field_of(usage, key)) for key in (
        "input_tokens", "output_tokens", "cache_read_input_tokens",
        "cache_creation_input_tokens")))


def _history(history: list[AttemptSummary], budget: int) -> str:
    """Earlier attempts, oldest first. The newest get the budget first, in full (code
    excerpt and feedback) within three quarters of it; older ones shrink to one line each
    (attempt, status, the feedback's first line), then to a count."""
    blocks: list[str] = []
    omitted = 0
    room = budget
    reserve = budget // 4  # for the one-line summaries of older attempts
    full = True
    for item in reversed(history):
        if full:
            block = _attempt_block(item)
            if len(block) + 2 <= room - reserve:
                blocks.append(block)
                room -= len(block) + 2
                continue
            full = False
        line = _attempt_line(item)
        if len(line) + 1 <= room:
            blocks.append(line)
            room -= len(line) + 1
        else:
            omitted += 1
    blocks.reverse()
    if omitted:
        blocks.insert(0, f"({omitted} older attempt(s) not shown)")
    return "\n\n".join(blocks)


def _attempt_block(item: AttemptSummary) -> str:
    code = _head_lines(item.code.strip(), ATTEMPT_CODE_CHARS) or "(empty)"
    feedback = middle_out(item.feedback.strip() or "(no details)", ATTEMPT_FEEDBACK_CHARS)
    return (f"### Attempt {item.attempt} ({_status(item)})\n"
            f"Code:\n```python\n{code}\n```\nWhat went wrong:\n{feedback}")


def _attempt_line(item: AttemptSummary) -> str:
    first = next((line.strip() for line in item.feedback.splitlines() if line.strip()), "")
    if len(first) > 160:
        first = first[:159] + "…"
    return f"### Attempt {item.attempt} ({_status(item)}): {first or '(no details)'}"


def _status(item: AttemptSummary) -> str:
    """The attempt's status, and who wrote it when it was the generator."""
    return f"status: {item.status}" + (", written by the code generator" if item.generated
                                       else "")


# -- parsing -----------------------------------------------------------------------------------


def parse_reply(response: Any, *, max_tokens: int | None = None) -> tuple[str, str]:
    """`(code, explanation)` from the reply's submit_code call, or `GeneratorError`."""
    data = forced_tool_input(response, TOOL_NAME, "Claude code generator", GeneratorError,
                             max_tokens=max_tokens, cut_off="the code would be incomplete")
    code = data.get("code")
    if code is None:
        raise GeneratorError(f"Claude code generator: {TOOL_NAME} input has no 'code' "
                             f"(keys={sorted(data)})")
    if not isinstance(code, str):
        raise GeneratorError(f"Claude code generator: {TOOL_NAME} 'code' is not a string "
                             f"(got {type(code).__name__})")
    code = clean_code(code)
    if not code.strip():
        raise GeneratorError(f"Claude code generator: {TOOL_NAME} 'code' is empty")
    explanation = data.get("explanation")
    # the explanation is informative only: a missing or odd one does not fail the cell
    explanation = explanation.strip() if isinstance(explanation, str) else ""
    return code, explanation


_FENCE = re.compile(r"\A\s*```[\w+.-]*[^\S\n]*\n(?P<body>.*?)\n?[^\S\n]*```\s*\Z", re.DOTALL)
_NUMBERED = re.compile(r"^\s*\d+ \| ?")


def clean_code(code: str) -> str:
    """The cell source: a surrounding Markdown fence unwrapped, the `N | ` prefixes of the
    prompt's numbered listing removed when every non-blank line carries one, trailing
    whitespace trimmed."""
    match = _FENCE.match(code)
    if match:
        code = match.group("body")
    lines = code.splitlines()
    if lines and all(_NUMBERED.match(line) for line in lines if line.strip()):
        code = "\n".join(_NUMBERED.sub("", line, count=1) for line in lines)
    return code.strip("\n").rstrip()


# -- small helpers ---------------------------------------------------------------------------


def _api_error_text(exc: anthropic.APIError) -> str:
    import anthropic  # loaded with the client; not imported without a key

    status = getattr(exc, "status_code", None)
    kind = type(exc).__name__
    if isinstance(exc, anthropic.APITimeoutError):
        what = "the request timed out"
    elif isinstance(exc, anthropic.APIConnectionError):
        what = "could not connect to the API"
    elif status is not None:
        what = f"API error {status}"
    else:
        what = "API error"
    message = str(getattr(exc, "message", "") or exc)
    if len(message) > 500:
        message = message[:499] + "…"
    return f"Claude code generator: {what} ({kind}): {message}"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _head_lines(text: str, budget: int) -> str:
    """The first whole lines of `text` within `budget` characters."""
    if len(text) <= budget:
        return text
    lines = text.splitlines()
    out: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > budget:
            break
        out.append(line)
        used += len(line) + 1
    if not out:  # one very long first line
        return text[:budget] + "…"
    return "\n".join(out) + f"\n# … ({len(lines) - len(out)} more lines)"
