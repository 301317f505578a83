"""The sans-IO connection machine: `ClientConnection` (a state table and its composed parts:
handshake, pending table, outbox, responses, server side, MRTR rounds, version retry) and the
events it emits."""
