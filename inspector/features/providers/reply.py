"""What both wire formats do with a provider's answer: read it as the API's shape or call it
`garbage`, and make the MCP reply (stopReason mapped, an empty answer as one empty text)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from inspector.features.providers.types import ModelError, ModelReply, Usage

__all__ = ["model_reply", "shape_of"]


@contextmanager
def shape_of(what: str) -> Iterator[None]:
    """Read a provider's JSON inside this: a missing key, a short list, a wrong type (the
    answer is not `what`) ends as ModelError("garbage") saying what was wrong."""
    try:
        yield
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ModelError(
            "garbage", f"the answer is not {what} ({type(exc).__name__}: {exc})"
        ) from exc


def model_reply(
    data: Any,
    blocks: list[dict[str, Any]],
    stop: str,
    stop_reasons: Mapping[str, str],
    usage_keys: tuple[str, str],
) -> ModelReply:
    """The reply from the answer `data` and the content `blocks` read from it: `stop` as MCP's
    stopReason (an open string: a reason not in `stop_reasons` passes through as it is), the
    model the answer names, the token counts under `usage_keys` (in, out)."""
    usage = data.get("usage") or {}
    return ModelReply(
        blocks=blocks or [{"type": "text", "text": ""}],
        stop_reason=stop_reasons.get(stop, stop),
        model=str(data.get("model") or ""),
        usage=Usage(usage.get(usage_keys[0]), usage.get(usage_keys[1])),
    )
