"""The stdio line splitter: every byte read comes out, in order, however the pipe cuts it."""

from __future__ import annotations

import random

from inspector.transports.base import FrameReceived, FramesReceived, TransportEvent
from inspector.transports.lines import HEAD_BYTES, LineSplitter


def frames(events: list[TransportEvent]) -> list[tuple[str | bytes, int, bool]]:
    """(raw, size, truncated) of every frame, batches flattened."""
    out: list[tuple[str | bytes, int, bool]] = []
    for event in events:
        if isinstance(event, FramesReceived):
            out.extend(
                (raw, size, False) for raw, size in zip(event.raws, event.sizes, strict=True)
            )
        else:
            assert isinstance(event, FrameReceived)
            out.append((event.raw, event.size, event.truncated))
    return out


def split(data: bytes, cuts: list[int], limit: int = 1 << 20) -> list[TransportEvent]:
    splitter = LineSplitter(limit)
    events: list[TransportEvent] = []
    last = 0
    for cut in [*cuts, len(data)]:
        events += splitter.feed(data[last:cut])
        last = cut
    return events + splitter.end()


def test_the_complete_lines_of_one_read_come_as_one_batch() -> None:
    events = LineSplitter(1000).feed(b'{"a":1}\n{"b":2}\n{"c"')
    assert len(events) == 1 and isinstance(events[0], FramesReceived)
    assert events[0].raws == ['{"a":1}', '{"b":2}']
    assert events[0].sizes == [7, 7]


def test_crlf_non_ascii_empty_lines_and_a_last_line_without_newline() -> None:
    data = b'{"x":1}\r\n\n{"t":"\xc3\xa9"}\nlast'
    assert frames(split(data, [])) == [
        ('{"x":1}', 8, False),  # the CR is dropped, but counted
        ("", 0, False),  # an empty line is a frame too (shown as invalid)
        ('{"t":"é"}', 10, False),  # sizes are bytes, not characters
        ("last", 4, False),
    ]


def test_a_line_that_is_not_utf8_stays_bytes_and_its_neighbours_text() -> None:
    data = b'{"a":1}\n\xff\xfe bad\n{"b":2}\n'
    assert frames(split(data, [])) == [
        ('{"a":1}', 7, False),
        (b"\xff\xfe bad", 6, False),
        ('{"b":2}', 7, False),
    ]


def test_a_line_over_the_limit_keeps_its_head_and_full_size_even_split_across_reads() -> None:
    big = b"x" * (HEAD_BYTES * 3)
    data = b'{"a":1}\n' + big + b'\n{"b":2}\n'
    for cuts in ([], [5, 100, 70_000, 150_000], list(range(1000, len(data), 4096))):
        got = frames(split(data, cuts, limit=HEAD_BYTES * 2))
        assert got == [
            ('{"a":1}', 7, False),
            ("x" * HEAD_BYTES, len(big), True),
            ('{"b":2}', 7, False),
        ], cuts


def test_an_unfinished_line_over_the_limit_is_cut_at_the_end() -> None:
    got = frames(split(b"y" * 5000, [1000, 2000], limit=3000))
    assert got == [("y" * 5000 if HEAD_BYTES >= 5000 else "", 5000, True)]


def test_any_cutting_of_the_pipe_gives_the_same_frames() -> None:
    rng = random.Random(7)
    lines = [
        b'{"jsonrpc":"2.0","method":"n","params":{"i":%d}}' % i
        if i % 7
        else b"\xc3\xa9\xff" * (i % 5) + b"\r"
        for i in range(300)
    ]
    lines.insert(50, b"z" * 5000)  # over the limit below
    data = b"\n".join(lines) + b"\ntail"
    expected = frames(split(data, [], limit=4000))
    assert len(expected) == len(lines) + 1
    for _ in range(50):
        cuts = sorted(rng.sample(range(1, len(data)), rng.randint(1, 200)))
        assert frames(split(data, cuts, limit=4000)) == expected
