"""Content blocks made ready to show (Qt-free): kinds, headers, problems, previews."""

from __future__ import annotations

import base64
import json
import struct

from inspector.features.content_blocks import (
    annotations_text,
    describe_blocks,
    json_pretty,
    looks_like_markdown,
    wav_info,
)


def wav(seconds: float = 0.5, rate: int = 8000) -> bytes:
    frames = b"\x00\x00" * int(rate * seconds)
    fmt = struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    body = b"WAVEfmt " + fmt + b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def test_every_kind_is_described() -> None:
    blocks = [
        {"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}},
        {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
        {"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "size": 2048},
        {"type": "resource", "resource": {"uri": "x://t", "mimeType": "text/plain", "text": "t"}},
        {"type": "resource", "resource": {"uri": "x://b", "blob": "AAEC"}},
        {"type": "hologram", "data": 1},
        "not an object",
    ]
    infos, problems = describe_blocks(blocks)
    assert problems == []
    assert [i.kind for i in infos] == [
        "text",
        "image",
        "audio",
        "resource_link",
        "resource",
        "resource",
        "unknown",
        "unknown",
    ]
    assert infos[0].header() == "text · 2 characters"
    assert infos[0].annotations == "for user · priority 0.5"
    assert infos[1].header().startswith("image · image/png · about")
    assert infos[3].header() == "resource link · 2.0 KiB"
    assert infos[4].part is not None and infos[4].part.kind == "text"
    assert infos[5].part is not None and infos[5].part.decode() == b"\x00\x01\x02"
    assert "unknown content type 'hologram'" in infos[6].problems[0]
    assert "not an object" in infos[7].problems[0]


def test_problems_are_sentences() -> None:
    infos, _ = describe_blocks(
        [
            {"type": "text"},
            {"type": "image", "data": 5},
            {"type": "audio", "mimeType": "video/mp4", "data": ""},
            {"type": "resource_link", "name": "no uri"},
            {"type": "resource"},
        ]
    )
    assert infos[0].problems == ["'text' is missing"]
    assert infos[1].problems == ["'data' is not a string", "'mimeType' is missing"]
    assert infos[2].problems == ["mimeType 'video/mp4' is not an audio type"]
    assert "cannot be read" in infos[3].problems[0]
    assert infos[4].problems[0] == "'resource' is missing or not an object"
    _, problems = describe_blocks({"type": "text"})
    assert problems == ["content is a dict, not a list"]


def test_json_pretty_and_markdown_hints() -> None:
    assert json_pretty('{"a":[1,2]}') == json.dumps({"a": [1, 2]}, indent=2)
    assert json_pretty("plain words") is None
    assert json_pretty('"just a string"') is None  # only objects and arrays get a JSON view
    assert json_pretty("{broken") is None
    assert json_pretty("[" + "1," * 100 + "1]", limit=50) is None
    assert looks_like_markdown("# Title\n\ntext")
    assert looks_like_markdown("see [docs](https://x.y)")
    assert not looks_like_markdown("just a sentence.")


def test_annotations_text() -> None:
    assert annotations_text(None) == ""
    assert annotations_text({"lastModified": "2025-01-01T00:00:00Z", "x": 1}) == (
        "modified 2025-01-01T00:00:00Z · also x"
    )


def test_wav_info() -> None:
    assert wav_info(wav(0.5)) == "1 channel, 8,000 Hz, 16-bit, 0.50 s"
    assert wav_info(b"ID3 not a wav") is None
    assert base64.b64encode(wav())  # the fixture itself is bytes
