"""A model exchange as rows of the traffic log: the request out and the answer in, each its
own kind ("model", never an MCP frame), the text a JSON object a person can read (URL,
headers with the key redacted, the body as sent or received, status, latency). Only a
failed exchange has a note (a note flags the row, as for frames)."""

from __future__ import annotations

import json
import time
from typing import Any

from inspector.features.providers.types import ModelExchange
from inspector.traffic.record import TrafficRecord

__all__ = ["exchange_records"]


def _body(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text  # garbage is kept as it came


def exchange_records(exchange: ModelExchange, *, mono: float | None = None) -> list[TrafficRecord]:
    """Two rows (or one, when nothing came back). `mono`: the clock of the session's log
    when the answer arrived (time.monotonic() by default)."""
    end = time.monotonic() if mono is None else mono
    wall = time.time()
    where = f"{exchange.provider} {exchange.model}"
    sent = json.dumps(
        {
            "url": exchange.url,
            "headers": exchange.request_headers,
            "body": _body(exchange.request_body),
        },
        ensure_ascii=False,
        indent=2,
    )
    rows = [
        TrafficRecord(
            direction="out",
            kind="model",
            raw=sent,
            mono=end - exchange.latency,
            wall=wall - exchange.latency,
            transport="model",
        )
    ]
    latency = f"{exchange.latency * 1000:.0f} ms"
    if exchange.status is None:
        rows.append(
            TrafficRecord(
                direction="in",
                kind="model",
                raw=json.dumps({"error": exchange.error}, ensure_ascii=False, indent=2),
                mono=end,
                wall=wall,
                transport="model",
                note=f"{where}: no answer after {latency}: {exchange.error}",
            )
        )
        return rows
    got = json.dumps(
        {
            "status": exchange.status,
            "headers": exchange.response_headers,
            "body": _body(exchange.response_body),
            "latencyMs": round(exchange.latency * 1000, 1),
            **({"error": exchange.error} if exchange.error else {}),
        },
        ensure_ascii=False,
        indent=2,
    )
    rows.append(
        TrafficRecord(
            direction="in",
            kind="model",
            raw=got,
            mono=end,
            wall=wall,
            transport="model",
            note=exchange.error or None,  # a note flags the row: only a failure has one
        )
    )
    return rows
