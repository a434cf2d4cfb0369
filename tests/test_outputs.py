"""OutputCollector unit tests: hand-made IOPub messages -> nbformat v4 outputs, no kernel."""

from __future__ import annotations

import re
import uuid
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from services.outputs import OutputCollector

PARENT = {"msg_id": "execute-request-1", "msg_type": "execute_request"}
MARKER = re.compile(r"\[nbcritic\] output truncated: ([\d,]+) bytes omitted")


def _msg(msg_type: str, **content: Any) -> dict[str, Any]:
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type},
        "msg_type": msg_type,
        "parent_header": dict(PARENT),
        "metadata": {},
        "content": content,
    }


def stream(text: str, name: str = "stdout") -> dict[str, Any]:
    return _msg("stream", name=name, text=text)


def display(data: dict[str, Any], metadata: dict[str, Any] | None = None,
            display_id: str | None = None, msg_type: str = "display_data") -> dict[str, Any]:
    transient = {"display_id": display_id} if display_id else {}
    return _msg(msg_type, data=data, metadata=metadata or {}, transient=transient)


def update(data: dict[str, Any], display_id: str,
           metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    return display(data, metadata, display_id, msg_type="update_display_data")


def clear(wait: bool) -> dict[str, Any]:
    return _msg("clear_output", wait=wait)


def html(text: str) -> dict[str, str]:
    return {"text/html": text, "text/plain": "<IPython.core.display.HTML object>"}


def _feed(collector: OutputCollector, *messages: dict[str, Any]) -> list[Any]:
    return [collector.handle(m) for m in messages]


def _outputs(collector: OutputCollector) -> list[dict[str, Any]]:
    """The outputs as plain dicts, after checking they form a valid nbformat v4 cell."""
    outputs = collector.outputs()
    nb = new_notebook(cells=[new_code_cell("pass", outputs=outputs, execution_count=1)])
    nbformat.validate(nb)
    return [dict(o) for o in outputs]


def _stream_texts(outputs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(o["name"], o["text"]) for o in outputs if o["output_type"] == "stream"]


def _marker(outputs: list[dict[str, Any]]) -> tuple[int, int]:
    """(index of the truncation marker, the omitted byte count it names)."""
    hits = [(i, MARKER.search(o.get("text", ""))) for i, o in enumerate(outputs)]
    hits = [(i, m) for i, m in hits if m]
    assert len(hits) == 1, outputs
    index, match = hits[0]
    assert outputs[index]["output_type"] == "stream"
    assert outputs[index]["name"] == "stderr"
    return index, int(match.group(1).replace(",", ""))


# -- streams ----------------------------------------------------------------------------------


def test_chunks_of_one_stream_merge_into_one_output() -> None:
    c = OutputCollector(10_000)
    events = _feed(c, stream("a"), stream("b\n"), stream("c\n"))
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "ab\nc\n"}]
    # each event carries only its own chunk (the live delta), not the merged text
    assert events == [("stream", {"name": "stdout", "text": t}) for t in ("a", "b\n", "c\n")]
    assert c.head_bytes == len("ab\nc\n")
    assert not c.truncated


def test_different_streams_and_interleaved_outputs_stay_separate() -> None:
    c = OutputCollector(10_000)
    _feed(c, stream("out 1\n"), stream("err 1\n", "stderr"), stream("err 2\n", "stderr"),
          stream("out 2\n"), display(html("<b>x</b>")), stream("out 3\n"), stream("out 4\n"))
    outputs = _outputs(c)
    assert [o["output_type"] for o in outputs] == [
        "stream", "stream", "stream", "display_data", "stream"]
    assert _stream_texts(outputs) == [
        ("stdout", "out 1\n"), ("stderr", "err 1\nerr 2\n"), ("stdout", "out 2\n"),
        ("stdout", "out 3\nout 4\n"),
    ]


def test_messages_that_are_not_outputs_change_nothing() -> None:
    c = OutputCollector(10_000)
    events = _feed(
        c,
        _msg("status", execution_state="busy"),
        _msg("execute_input", code="1 + 1", execution_count=7),
        _msg("comm_open", comm_id="x", target_name="t", data={}),
        _msg("status", execution_state="idle"),
    )
    assert events == [None, None, None, None]
    assert c.outputs() == []
    assert c.execution_count == 7  # execute_input carries the prompt number
    assert c.error is None


# -- rich outputs -------------------------------------------------------------------------


def test_display_data_is_an_exact_nbformat_output_without_transient() -> None:
    c = OutputCollector(10_000)
    data = {"image/png": "iVBORw0KGgo=", "text/plain": "<IPython.core.display.Image object>"}
    metadata = {"image/png": {"width": 30}}
    event = c.handle(display(data, metadata, display_id="abc"))
    expected = {"output_type": "display_data", "data": data, "metadata": metadata}
    assert _outputs(c) == [expected]
    # the live event names the display, as Jupyter's message does (a page applies updates)
    assert event == ("display_data", {**expected, "transient": {"display_id": "abc"}})
    assert c.display_positions() == {"abc": [0]}


def test_execute_result_is_exact_and_sets_the_execution_count() -> None:
    c = OutputCollector(10_000)
    data = {"text/plain": "42", "text/html": "<i>42</i>"}
    event = c.handle(_msg("execute_result", data=data, metadata={}, execution_count=3))
    expected = {"output_type": "execute_result", "data": data, "metadata": {},
                "execution_count": 3}
    assert _outputs(c) == [expected]
    assert event == ("execute_result", expected)
    assert c.execution_count == 3


def test_error_is_exact_and_recorded() -> None:
    c = OutputCollector(10_000)
    traceback = ["\x1b[0;31mZeroDivisionError\x1b[0m", "division by zero"]
    c.handle(stream("before\n"))
    event = c.handle(_msg("error", ename="ZeroDivisionError", evalue="division by zero",
                          traceback=traceback))
    expected = {"output_type": "error", "ename": "ZeroDivisionError",
                "evalue": "division by zero", "traceback": traceback}
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "before\n"},
                           expected]
    assert event == ("error", expected)
    assert c.error == {"ename": "ZeroDivisionError", "evalue": "division by zero",
                       "traceback": traceback}


def test_add_error_appends_a_service_error() -> None:
    c = OutputCollector(10_000)
    c.handle(stream("partial\n"))
    error = {"ename": "CellTimeoutError", "evalue": "cell exceeded its 1 s timeout",
             "traceback": []}
    c.add_error(error)
    assert _outputs(c)[-1] == {"output_type": "error", **error}
    assert c.error == error


# -- clear_output ----------------------------------------------------------------------------


def test_clear_output_without_wait_clears_at_once() -> None:
    c = OutputCollector(10_000)
    _feed(c, stream("old\n"), display(html("<b>old</b>"), display_id="d"))
    assert c.handle(clear(wait=False)) == ("clear_output", {"wait": False})
    assert c.outputs() == []
    assert c.display_positions() == {}
    c.handle(stream("new\n"))
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "new\n"}]


def test_clear_output_with_wait_clears_when_the_next_output_arrives() -> None:
    c = OutputCollector(10_000)
    _feed(c, stream("old\n"), display(html("<b>old</b>")))
    assert c.handle(clear(wait=True)) == ("clear_output", {"wait": True})
    assert len(c.outputs()) == 2  # still visible until something replaces it
    c.handle(clear(wait=True))  # two deferred clears are one clear
    assert len(c.outputs()) == 2
    c.handle(display(html("<b>new</b>")))
    assert _outputs(c) == [{"output_type": "display_data", "data": html("<b>new</b>"),
                            "metadata": {}}]
    c.handle(stream("more\n"))  # the pending clear was used up
    assert len(c.outputs()) == 2


def test_pending_clear_is_not_triggered_by_update_display_data() -> None:
    # nbclient applies a deferred clear only before a new output, not on a display update
    c = OutputCollector(10_000)
    _feed(c, display(html("v1"), display_id="d"), clear(wait=True), update(html("v2"), "d"))
    assert _outputs(c) == [{"output_type": "display_data", "data": html("v2"), "metadata": {}}]
    c.handle(stream("after\n"))
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "after\n"}]


def test_clear_output_resets_truncation() -> None:
    c = OutputCollector(2000)
    for _ in range(100):
        c.handle(stream("x" * 99 + "\n"))
    assert c.truncated
    c.handle(clear(wait=False))
    assert (c.head_bytes, c.tail_bytes, c.dropped_bytes) == (0, 0, 0)
    assert not c.truncated
    c.handle(stream("fresh\n"))
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "fresh\n"}]


# -- display ids ---------------------------------------------------------------------------


def test_update_display_data_replaces_data_and_metadata_of_its_display() -> None:
    c = OutputCollector(10_000)
    _feed(c, display(html("v1"), display_id="p"), stream("between\n"),
          display(html("other"), display_id="q"))
    event = c.handle(update({"text/plain": "v2"}, "p", metadata={"isolated": True}))
    assert event == ("update_display_data", {"display_id": "p", "data": {"text/plain": "v2"},
                                             "metadata": {"isolated": True}})
    assert _outputs(c) == [
        {"output_type": "display_data", "data": {"text/plain": "v2"},
         "metadata": {"isolated": True}},
        {"output_type": "stream", "name": "stdout", "text": "between\n"},
        {"output_type": "display_data", "data": html("other"), "metadata": {}},
    ]
    # every display id's newest bundle is kept for earlier cells that show it (nbclient does)
    assert c.foreign_updates == {
        "p": {"data": {"text/plain": "v2"}, "metadata": {"isolated": True}},
        "q": {"data": html("other"), "metadata": {}},
    }


def test_update_display_data_updates_every_output_with_the_id() -> None:
    c = OutputCollector(10_000)
    _feed(c, display(html("a"), display_id="p"), display(html("b"), display_id="p"),
          update(html("c"), "p"))
    assert [o["data"] for o in _outputs(c)] == [html("c"), html("c")]
    assert c.display_positions() == {"p": [0, 1]}


def test_display_data_with_a_known_id_updates_earlier_outputs_and_is_appended() -> None:
    # nbclient: a display_data with an existing display_id updates those outputs too
    c = OutputCollector(10_000)
    _feed(c, display(html("first"), display_id="p"), display(html("second"), display_id="p"))
    assert [o["data"] for o in _outputs(c)] == [html("second"), html("second")]
    assert c.foreign_updates == {"p": {"data": html("second"), "metadata": {}}}


def test_update_of_a_display_not_in_this_cell_is_a_foreign_update() -> None:
    c = OutputCollector(10_000)
    _feed(c, display(html("mine"), display_id="mine"), stream("text\n"))
    event = c.handle(update(html("theirs v2"), "elsewhere", metadata={"m": 1}))
    assert event == ("update_display_data", {"display_id": "elsewhere",
                                             "data": html("theirs v2"), "metadata": {"m": 1}})
    assert c.foreign_updates["elsewhere"] == {"data": html("theirs v2"), "metadata": {"m": 1}}
    # nothing in this cell changed
    assert [o.get("data") for o in _outputs(c)] == [html("mine"), None]


def test_update_after_a_clear_is_foreign() -> None:
    c = OutputCollector(10_000)
    _feed(c, display(html("v1"), display_id="p"), clear(wait=False), update(html("v2"), "p"))
    assert c.outputs() == []
    assert c.foreign_updates == {"p": {"data": html("v2"), "metadata": {}}}


# -- the byte budget ----------------------------------------------------------------------


def test_flood_keeps_head_and_tail_with_a_marker_and_stays_within_budget() -> None:
    budget, chunks, width = 2000, 10_000, 100
    c = OutputCollector(budget)
    half_head, half_tail = budget // 2, budget - budget // 2
    texts = [f"line {i:06d} ".ljust(width - 1, ".") + "\n" for i in range(chunks)]
    streamed = []
    for text in texts:
        event = c.handle(stream(text))
        if event is not None:
            streamed.append(event[1]["text"])
        # memory stays bounded at every step, and the counters match what is held
        assert c.head_bytes <= half_head
        assert c.tail_bytes <= half_tail
        assert c.head_bytes == sum(len(s.output.text) for s in c.head)
        assert c.tail_bytes == sum(len(s.output.text) for s in c.tail)
    everything = "".join(texts)
    outputs = _outputs(c)
    assert c.truncated
    index, omitted = _marker(outputs)
    kept = [o for i, o in enumerate(outputs) if i != index]
    head_text = "".join(o["text"] for o in outputs[:index])
    tail_text = "".join(o["text"] for o in outputs[index + 1:])
    assert all(o["output_type"] == "stream" and o["name"] == "stdout" for o in kept)
    assert head_text == everything[:half_head]
    assert tail_text == everything[-half_tail:]
    assert omitted == len(everything) - half_head - half_tail == c.dropped_bytes
    total = sum(len(o["text"]) for o in outputs)
    assert total <= budget + len(outputs[index]["text"])
    # chunks are streamed live up to the budget, then no more (the journal stays bounded)
    assert "".join(streamed) == everything[:budget]


def test_single_huge_chunk_is_split_into_head_and_tail() -> None:
    c = OutputCollector(2000)
    text = "".join(chr(ord("a") + i % 26) for i in range(50_000))
    c.handle(stream(text, "stderr"))
    outputs = _outputs(c)
    index, omitted = _marker(outputs)
    assert index == 1
    assert outputs[0] == {"output_type": "stream", "name": "stderr", "text": text[:1000]}
    assert outputs[2] == {"output_type": "stream", "name": "stderr", "text": text[-1000:]}
    assert omitted == 48_000
    assert (c.head_bytes, c.tail_bytes) == (1000, 1000)


def test_rich_outputs_past_the_head_go_to_the_tail_and_old_ones_are_dropped() -> None:
    c = OutputCollector(2000)
    c.handle(stream("h" * 1000))  # fills the head exactly
    for i in range(30):
        c.handle(display({"text/plain": f"display {i:02d}"}))
    outputs = _outputs(c)
    index, omitted = _marker(outputs)
    assert outputs[:index] == [{"output_type": "stream", "name": "stdout", "text": "h" * 1000}]
    tail = outputs[index + 1:]
    assert tail, "the most recent displays are kept"
    shown = [o["data"]["text/plain"] for o in tail]
    assert shown == [f"display {i:02d}" for i in range(30 - len(tail), 30)]
    assert c.tail_bytes <= 1000
    assert omitted == c.dropped_bytes > 0


def test_display_positions_match_output_indices_with_truncation() -> None:
    c = OutputCollector(2000)
    _feed(c, display(html("A"), display_id="a"), stream("x" * 5000),
          display(html("B"), display_id="b"), display(html("A2"), display_id="a"),
          stream("end\n"))
    outputs = _outputs(c)
    index, _ = _marker(outputs)
    positions = c.display_positions()
    assert set(positions) == {"a", "b"}
    assert positions["a"][0] < index < positions["b"][0] < positions["a"][1]
    assert outputs[positions["b"][0]]["data"] == html("B")
    assert [outputs[i]["data"] for i in positions["a"]] == [html("A2"), html("A2")]
    # an update reaches the displays at exactly those positions
    c.handle(update({"text/plain": "B2"}, "b"))
    assert c.outputs()[positions["b"][0]]["data"] == {"text/plain": "B2"}


def test_display_positions_without_truncation() -> None:
    c = OutputCollector(10_000)
    _feed(c, stream("a\n"), display(html("1"), display_id="one"), stream("b\n"),
          display(html("2")), display(html("3"), display_id="three"))
    outputs = c.outputs()
    positions = c.display_positions()
    assert positions == {"one": [1], "three": [4]}
    assert outputs[1]["data"] == html("1")
    assert outputs[4]["data"] == html("3")


# -- regressions (found by review; fixed) ----------------------------------------------


def test_output_within_budget_is_not_truncated() -> None:
    c = OutputCollector(2000)
    c.handle(stream("x" * 1500))  # 1,500 of 2,000 bytes
    assert not c.truncated
    assert _outputs(c) == [{"output_type": "stream", "name": "stdout", "text": "x" * 1500}]


def test_single_rich_output_within_budget_is_kept() -> None:
    c = OutputCollector(2000)
    data = {"text/html": "<p>" + "y" * 1200 + "</p>", "text/plain": "<HTML>"}
    c.handle(display(data))  # counted as ~1,300 of 2,000 bytes
    assert _outputs(c) == [{"output_type": "display_data", "data": data, "metadata": {}}]


def test_streamed_text_is_the_first_budget_bytes_when_a_chunk_straddles_it() -> None:
    c = OutputCollector(2000)
    streamed = ""
    for _ in range(20):
        event = c.handle(stream("z" * 299 + "\n"))
        if event is not None:
            streamed += event[1]["text"]
    head_text = c.outputs()[0]["text"]
    assert len(head_text) == 1000
    assert streamed == ("z" * 299 + "\n") * 6 + "z" * 200  # exactly the first 2,000 bytes
    assert streamed.startswith(head_text)


def test_service_error_after_truncation_is_the_last_output() -> None:
    c = OutputCollector(2000)
    for _ in range(100):
        c.handle(stream("x" * 99 + "\n"))
    error = {"ename": "DeadKernelError", "evalue": "the kernel died", "traceback": []}
    c.add_error(error)
    outputs = _outputs(c)
    assert outputs[-1] == {"output_type": "error", **error}


def test_display_update_stays_within_budget() -> None:
    c = OutputCollector(2000)
    _feed(c, display(html("small"), display_id="p"), update(html("u" * 100_000), "p"))
    size = sum(len(str(o.get("data", ""))) + len(o.get("text", "")) for o in c.outputs())
    assert size <= 2000 + 200


def test_budget_counts_utf8_bytes() -> None:
    c = OutputCollector(2000)
    c.handle(stream("\N{GRINNING FACE}" * 900))  # 900 characters, 3,600 UTF-8 bytes
    assert c.truncated
    kept = sum(len(o["text"].encode()) for o in _outputs(c) if not MARKER.search(o["text"]))
    assert kept <= 2000
