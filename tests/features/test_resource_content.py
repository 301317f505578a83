"""Read results -> display model (Qt-free): text vs blob, sizes, lazy and strict base64."""

from __future__ import annotations

import base64

import pytest

from inspector.features.resource_content import (
    LONG_LINE,
    BlobDecodeError,
    break_long_lines,
    decode_base64,
    display_chunks,
    format_size,
    has_long_lines,
    hex_dump,
    parse_read_result,
    sniff_image,
    suggested_filename,
)

PNG_HEAD = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24


def test_text_and_blob_parts() -> None:
    blob = base64.b64encode(PNG_HEAD).decode()
    result = parse_read_result(
        {
            "contents": [
                {"uri": "demo://readme", "mimeType": "text/markdown", "text": "# hi"},
                {"uri": "demo://logo.png", "mimeType": "image/png", "blob": blob},
            ]
        },
        "demo://readme",
    )
    text, image = result.parts
    assert (text.kind, text.mime_type, text.size) == ("text", "text/markdown", 4)
    assert image.kind == "blob" and not image.decoded
    assert image.size == len(PNG_HEAD)  # known from the base64 length, before decoding
    assert image.image_format() == "png"  # sniffed from the first bytes only
    assert not image.decoded
    assert image.decode() == PNG_HEAD and image.decoded
    assert result.summary() == "2 parts (1 text, 1 blob)"
    assert result.all_problems == []


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        (None, "not an object"),
        ({}, "no 'contents'"),
        ({"contents": "x"}, "not a list"),
        ({"contents": []}, "'contents' is empty"),
        ({"contents": [5]}, "contents[0]: not an object"),
        ({"contents": [{"uri": "u"}]}, "neither 'text' nor 'blob'"),
        ({"contents": [{"uri": "u", "text": 3}]}, "not a string"),
        ({"contents": [{"text": "t"}]}, "'uri' is missing"),
        ({"contents": [{"uri": "u", "text": "t", "blob": "AA=="}]}, "both 'text' and 'blob'"),
        ({"contents": [{"uri": "u", "mimeType": 7, "text": "t"}]}, "'mimeType' is not a string"),
    ],
)
def test_bad_shapes_become_problems(result: object, problem: str) -> None:
    parsed = parse_read_result(result, "u")
    assert any(problem in p for p in parsed.all_problems), parsed.all_problems


def test_both_text_and_blob_shows_the_text() -> None:
    (part,) = parse_read_result(
        {"contents": [{"uri": "u", "text": "t", "blob": "AA=="}]}, "u"
    ).parts
    assert part.kind == "text" and part.text == "t"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("AAA", "not a multiple of 4"),
        ("AA*A", "character '*' at offset 2"),
        ("AA-_", "URL-safe alphabet"),
        ("A===", "invalid base64"),
    ],
)
def test_strict_base64_says_what_is_wrong(data: str, message: str) -> None:
    with pytest.raises(BlobDecodeError) as info:
        decode_base64(data)
    assert message in str(info.value)


def test_base64_tolerates_line_wrapping() -> None:
    wrapped = base64.encodebytes(bytes(range(256)) * 4).decode()  # 76-column lines
    assert "\n" in wrapped
    assert decode_base64(wrapped) == bytes(range(256)) * 4


def test_decode_error_is_kept_and_not_retried() -> None:
    (part,) = parse_read_result({"contents": [{"uri": "u", "blob": "@@@@"}]}, "u").parts
    with pytest.raises(BlobDecodeError):
        part.decode()
    assert part.decode_error is not None and "'@'" in part.decode_error
    with pytest.raises(BlobDecodeError):
        part.decode()


def test_head_truncates_huge_text() -> None:
    text = "x" * 1_000_000
    (part,) = parse_read_result({"contents": [{"uri": "u", "text": text}]}, "u").parts
    head, more = part.head(1000)
    assert len(head) == 1000 and more
    assert part.head(2_000_000) == (text, False)
    assert part.size_text == "1,000,000 characters"


def test_display_chunks_cover_the_text_and_break_long_lines() -> None:
    text = ("line\n" * 100_000) + ("y" * (LONG_LINE * 3))
    pairs = list(display_chunks(text, 0, chunk=64 * 1024))
    assert pairs[-1][0] == len(text)
    assert [end for end, _ in pairs] == sorted(end for end, _ in pairs)
    chunks = [piece for _, piece in pairs]
    joined = "".join(chunks)
    assert joined.replace("\n", "") == text.replace("\n", "")
    assert all(len(line) <= LONG_LINE for line in joined.split("\n"))
    # chunks end at line breaks where one is near, so no short line is split
    assert all(c.endswith("\n") for c in chunks[:-1])


def test_long_line_detection() -> None:
    assert not has_long_lines("a\n" * 10)
    assert has_long_lines("a\n" + "b" * (LONG_LINE + 1))
    assert break_long_lines("short") == "short"


def test_hex_dump() -> None:
    dump = hex_dump(b"MCP\x00\x01" + bytes(range(20)))
    first = dump.splitlines()[0]
    assert first.startswith("00000000  4d 43 50 00 01")
    assert first.endswith("MCP.............")
    assert len(hex_dump(bytes(1000), limit=64).splitlines()) == 4


def test_sniff_and_sizes() -> None:
    assert sniff_image(b"\xff\xd8\xff\xe0") == "jpeg"
    assert sniff_image(b"GIF89a") == "gif"
    assert sniff_image(b"RIFF\x00\x00\x00\x00WEBP") == "webp"
    assert sniff_image(b"hello") is None
    assert format_size(10) == "10 bytes"
    assert format_size(20 * 1024 * 1024) == "20.0 MiB"


def test_image_by_mime_type_when_bytes_do_not_say() -> None:
    blob = base64.b64encode(b"not really an image").decode()
    (part,) = parse_read_result(
        {"contents": [{"uri": "u", "mimeType": "image/x-icon", "blob": blob}]}, "u"
    ).parts
    assert part.image_format() == "x-icon"
    (svg,) = parse_read_result(
        {"contents": [{"uri": "u", "mimeType": "image/svg+xml", "blob": blob}]}, "u"
    ).parts
    assert svg.image_format() is None  # never rendered: shown as text/hex


@pytest.mark.parametrize(
    ("uri", "mime", "blob", "name"),
    [
        ("demo://logo.png", "image/png", True, "logo.png"),
        ("demo://readme", "text/markdown", False, "readme.md"),
        ("file:///etc/../../passwd", None, False, "passwd.txt"),
        ("demo://x/", None, True, "x.bin"),
        (None, "application/json", False, "resource.json"),
        ("demo://a b?c", None, False, "c.txt"),
        ("demo://..", None, False, "resource.txt"),
    ],
)
def test_suggested_filename_is_never_a_path(
    uri: str | None, mime: str | None, blob: bool, name: str
) -> None:
    assert suggested_filename(uri, mime, blob) == name
