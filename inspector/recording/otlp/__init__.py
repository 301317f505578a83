"""A session as OpenTelemetry traces: the mapping of recorded or live traffic to spans
(`spans`, `live`), and sending or writing them with the optional `otel` extra (`sdk`)."""
