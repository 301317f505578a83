"""The bounded SSE decoder: chunking anywhere, the WHATWG field rules, caps, bad bytes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.transports.sse import SseDecoder, SseEvent

STREAM = (
    b": welcome\r\n"
    b"id: 1\r\n"
    b"retry: 250\r\n"
    b"data: \r\n"
    b"\r\n"
    b'data: {"jsonrpc":"2.0","method":"notifications/progress"}\r\n'
    b"id: 2\r\n"
    b"\r\n"
    b"event: message\r\n"
    b"data: line one\r\n"
    b"data: line two \xc3\xa9\r\n"
    b"id: 3\r\n"
    b"\r\n"
)
EXPECTED = [
    ('{"jsonrpc":"2.0","method":"notifications/progress"}', "message", "2"),
    ("line one\nline two é", "message", "3"),
]


def feed_all(decoder: SseDecoder, chunks: list[bytes]) -> list[SseEvent]:
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    return events


def summary(events: list[SseEvent]) -> list[tuple[str | bytes, str, str | None]]:
    return [(e.data, e.event, e.id) for e in events]


def test_a_whole_stream_at_once() -> None:
    decoder = SseDecoder()
    events = decoder.feed(STREAM)
    assert summary(events) == EXPECTED
    assert decoder.last_event_id == "3"
    assert decoder.retry_ms == 250
    assert all(e.retry == 250 for e in events)


@pytest.mark.parametrize("cut", range(1, len(STREAM)))
def test_one_cut_anywhere_including_inside_crlf_and_utf8(cut: int) -> None:
    decoder = SseDecoder()
    events = feed_all(decoder, [STREAM[:cut], STREAM[cut:]])
    assert summary(events) == EXPECTED


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=len(STREAM) - 1), max_size=12, unique=True))
def test_any_set_of_cuts(cuts: list[int]) -> None:
    bounds = [0, *sorted(cuts), len(STREAM)]
    chunks = [STREAM[a:b] for a, b in itertools.pairwise(bounds)]
    assert summary(feed_all(SseDecoder(), chunks)) == EXPECTED


def test_slow_drip_one_byte_per_chunk() -> None:
    decoder = SseDecoder()
    events = feed_all(decoder, [STREAM[i : i + 1] for i in range(len(STREAM))])
    assert summary(events) == EXPECTED


def test_slow_drip_of_a_large_event_stays_linear() -> None:
    """Each byte must not rescan what is buffered (a quadratic decoder would take minutes)."""
    payload = b"data: " + b"x" * 200_000 + b"\n\n"
    decoder = SseDecoder()
    events: list[SseEvent] = []
    for i in range(len(payload)):
        events.extend(decoder.feed(payload[i : i + 1]))
    assert len(events) == 1 and len(events[0].data) == 200_000


@pytest.mark.parametrize("eol", [b"\n", b"\r", b"\r\n"])
def test_every_line_ending(eol: bytes) -> None:
    text = eol.join([b"id: 7", b"data: a", b"data: b", b"", b"data: c", b"", b""])
    events = SseDecoder().feed(text)
    assert summary(events) == [("a\nb", "message", "7"), ("c", "message", None)]


def test_cr_line_endings_dispatch_without_waiting_for_the_next_byte() -> None:
    """A CR ends a line at once; a following LF (in a later chunk) is part of it."""
    decoder = SseDecoder()
    assert summary(decoder.feed(b"data: x\r\r")) == [("x", "message", None)]
    assert decoder.feed(b"\n") == []  # the LF of the CR LF, not an empty line
    assert summary(decoder.feed(b"data: y\r\n\r\n")) == [("y", "message", None)]


def test_comments_and_keep_alives_are_ignored() -> None:
    decoder = SseDecoder()
    events = decoder.feed(b":\r\n: keep-alive\n:ping\n\ndata: a\n: inside\n\n")
    assert summary(events) == [("a", "message", None)]


def test_a_bom_opens_the_stream_only() -> None:
    bom = b"\xef\xbb\xbf"
    decoder = SseDecoder()
    events = feed_all(decoder, [bom[:1], bom[1:2], bom[2:] + b"data: a\n\n"])
    assert summary(events) == [("a", "message", None)]
    # A second BOM is not a BOM any more: the line's field name is then not "data".
    assert decoder.feed(bom + b"data: b\n\n") == []


def test_a_bom_after_reset_starts_a_new_stream() -> None:
    decoder = SseDecoder()
    decoder.feed(b"data: a\n\n")
    decoder.reset()
    assert summary(decoder.feed(b"\xef\xbb\xbfdata: b\n\n")) == [("b", "message", None)]


def test_field_parsing_rules() -> None:
    decoder = SseDecoder()
    events = decoder.feed(
        b"data:no space\n"
        b"data:  two spaces\n"
        b"data\n"  # a field with no colon: the whole line is the name, the value empty
        b"unknown: ignored\n"
        b"event: custom\n"
        b"\n"
    )
    assert summary(events) == [("no space\n two spaces\n", "custom", None)]


def test_id_and_retry_rules() -> None:
    decoder = SseDecoder()
    decoder.feed(b"retry: 1500\nid: first\ndata: a\n\n")
    assert (decoder.retry_ms, decoder.last_event_id) == (1500, "first")
    decoder.feed(b"retry: soon\nid: bad\x00id\ndata: b\n\n")  # both ignored
    assert (decoder.retry_ms, decoder.last_event_id) == (1500, "first")
    events = decoder.feed(b"id\ndata: c\n\n")  # an empty id resets the last event id
    assert decoder.last_event_id == ""
    assert events[0].id == ""


def test_priming_events_with_empty_data_are_not_dispatched_but_their_id_counts() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b"id: prime-1\ndata:\n\n") == []
    assert decoder.feed(b"id: prime-2\ndata: \n\n") == []
    assert decoder.feed(b"id: prime-3\n\n") == []
    assert decoder.last_event_id == "prime-3"
    # The next event does not inherit the priming event's id.
    assert summary(decoder.feed(b"data: x\n\n")) == [("x", "message", None)]


def test_an_event_name_does_not_leak_into_the_next_event() -> None:
    events = SseDecoder().feed(b"event: endpoint\ndata: /m?s=1\n\ndata: {}\n\n")
    assert [(e.event, e.data) for e in events] == [("endpoint", "/m?s=1"), ("message", "{}")]


def test_multi_line_data_is_joined_with_lf() -> None:
    events = SseDecoder().feed(b'data: {"a":\ndata:  1,\ndata: "b": 2}\n\n')
    assert events[0].data == '{"a":\n 1,\n"b": 2}'


def test_an_unfinished_event_is_dropped_at_the_end_of_its_stream() -> None:
    decoder = SseDecoder()
    decoder.feed(b"id: 4\ndata: whole\n\n")
    assert decoder.feed(b'id: 5\ndata: {"jsonrpc":"2.0","id":1,"res') == []
    # The id of the half event is not claimed as received: resume after event 4.
    assert decoder.last_event_id == "4"
    assert decoder.close() == []
    # What follows on a new stream (a resumption) is not glued to the half event.
    assert summary(decoder.feed(b'data: {"ok":1}\n\n')) == [('{"ok":1}', "message", None)]
    assert decoder.last_event_id == "4"


def test_an_id_counts_once_its_event_is_complete() -> None:
    decoder = SseDecoder()
    decoder.feed(b"id: 1\ndata: a\n")
    assert decoder.last_event_id is None
    decoder.feed(b"\n")
    assert decoder.last_event_id == "1"
    # An event without an id line keeps the last id (the id buffer is not reset).
    events = decoder.feed(b"data: b\n\n")
    assert decoder.last_event_id == "1" and events[0].id is None


def test_an_endless_event_is_capped_and_the_stream_goes_on() -> None:
    cap = 1024
    decoder = SseDecoder(max_event_bytes=cap)
    events = decoder.feed(b"id: big\ndata: ")
    total = 0
    for _ in range(200):  # 200 KiB of one line, in 1 KiB chunks
        events += decoder.feed(b"y" * 1024)
        total += 1024
        assert len(decoder._buf) <= cap + 64 + 1024  # memory stays bounded
        assert len(decoder._data) <= cap
    events += decoder.feed(b"\n\ndata: after\n\n")
    assert len(events) == 2
    big, after = events
    assert big.truncated and len(big.data) <= cap and big.id == "big"
    assert big.size == total
    assert set(big.text) == {"y"}
    assert (after.data, after.truncated) == ("after", False)


def test_many_data_lines_are_capped_too() -> None:
    decoder = SseDecoder(max_event_bytes=100)
    events = decoder.feed(b"data: 0123456789\n" * 50 + b"\n")
    assert len(events) == 1
    assert events[0].truncated and len(events[0].data) == 100
    assert events[0].size == 549  # 50 lines of 10 bytes, joined by 49 LFs


def test_an_endless_comment_is_dropped_without_flagging_the_next_event() -> None:
    decoder = SseDecoder(max_event_bytes=64)
    events = decoder.feed(b":" + b"z" * 1000 + b"\ndata: fine\n\n")
    assert summary(events) == [("fine", "message", None)]


def test_an_endless_id_line_is_not_believed() -> None:
    decoder = SseDecoder(max_event_bytes=10)
    events = decoder.feed(b"id: " + b"9" * 1000 + b"\ndata: x\n\n")
    assert decoder.last_event_id is None
    assert events[0].truncated  # the event lost a line: say so


def test_invalid_utf8_in_data_is_kept_as_bytes() -> None:
    events = SseDecoder().feed(b'data: {"jsonrpc":"2.0","id":1,"result":{"t":"\xff\xfe"}}\n\n')
    assert isinstance(events[0].data, bytes)
    assert events[0].data.endswith(b'"\xff\xfe"}}')
    assert "\ufffd" in events[0].text


def test_invalid_utf8_in_other_fields_is_replaced() -> None:
    decoder = SseDecoder()
    events = decoder.feed(b"event: m\xffx\nid: i\xfe\ndata: ok\n\n")
    assert events[0].event == "m\ufffdx"
    assert decoder.last_event_id == "i\ufffd"


def test_a_cap_that_splits_a_character_is_not_invalid_utf8() -> None:
    decoder = SseDecoder(max_event_bytes=5)  # the kept data ends inside "é"
    events = decoder.feed("data: abcdé€\n\n".encode())
    assert events[0].truncated
    assert events[0].data == "abcd"
    # The same, when the cut falls on the event's data cap over several lines.
    events = SseDecoder(max_event_bytes=6).feed("data: ab\ndata: cdé\n\n".encode())
    assert events[0].truncated and events[0].data == "ab\ncd"


def test_empty_chunks_are_harmless() -> None:
    decoder = SseDecoder()
    assert decoder.feed(b"") == []
    assert summary(feed_all(decoder, [b"data: a", b"", b"\n", b"", b"\n"])) == [
        ("a", "message", None)
    ]


def test_an_endless_data_line_is_not_buffered_past_the_limit() -> None:
    """200 MiB of one data line with an 8 MiB limit: memory stays near the limit (the
    line's head is kept, the event flagged, the next event read)."""
    import tracemalloc

    limit = 8 * 1024 * 1024
    decoder = SseDecoder(limit)
    block = b"x" * (1024 * 1024)
    tracemalloc.start()
    try:
        events = decoder.feed(b'data: {"jsonrpc":"2.0","id":7,"result":{"x":"')
        for _ in range(200):
            events += decoder.feed(block)
        events += decoder.feed(b'"}}\n\ndata: {"next":1}\n\n')
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2.5 * limit, f"peak {peak / 2**20:.0f} MiB for a {limit / 2**20:.0f} MiB limit"
    big, after = events
    assert big.truncated and big.size > 200 * len(block)
    assert isinstance(big.data, str) and big.data.startswith('{"jsonrpc":"2.0","id":7')
    assert len(big.data) <= 64 * 1024
    assert (after.data, after.truncated) == ('{"next":1}', False)
