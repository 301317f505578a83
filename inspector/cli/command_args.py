"""The words of the subcommands beside `cli` and the auth options: argparse only.

Building the parser must not load what runs the commands (OAuth, httpx, the replay
machinery): `cli` against a stdio server imports none of it. Each command's module
imports its own machinery when it runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any, Final

from inspector.features.providers.names import DEFAULT_BASE_URL, INSTALL_HINT, KEY_ENV
from inspector.protocol.wire.versions import EraSetting
from inspector.recording.diff import DEFAULT_IGNORES

__all__ = [
    "BEARER_ENV",
    "ERA_CHOICES",
    "add_auth_arguments",
    "add_export_otlp_parser",
    "add_export_parser",
    "add_launch_arguments",
    "add_logout_parser",
    "add_replay_parser",
    "add_server_arguments",
    "add_test_parser",
    "add_watch_parser",
    "exit_codes_text",
    "split_server_command",
]

# inspector.auth.bearer.DEFAULT_BEARER_ENV, spelled here so that the help text does not
# load the auth package (tests/cli/test_cli_imports.py checks that they agree).
BEARER_ENV: Final = "MCP_BEARER_TOKEN"
ERA_CHOICES: Final = tuple(e.value for e in EraSetting)  # --era
TRANSPORT_CHOICES: Final = ("auto", "stdio", "streamable-http", "sse")  # --transport


def exit_codes_text(codes: Mapping[int, str]) -> str:
    """A command's exit codes as its epilog lists them (for RawDescriptionHelpFormatter)."""
    return "exit codes:\n" + "\n".join(f"  {k}  {v}" for k, v in codes.items())


def add_launch_arguments(into: argparse._ActionsContainer, *, cwd_help: str | None = None) -> None:
    """How a stdio server is launched: --env K=V (repeatable), --full-env, --cwd."""
    into.add_argument("--env", action="append", default=[], metavar="K=V")
    into.add_argument("--full-env", action="store_true", help="pass the whole environment")
    into.add_argument("--cwd", help=cwd_help)


def add_server_arguments(
    parser: argparse.ArgumentParser,
    into: argparse._ActionsContainer | None = None,
    *,
    url_help: str,
) -> None:
    """The server to connect to, `into` a group of `parser` (else `parser` itself): --url with
    --transport and --header, the auth options (their own group of `parser`), and how a
    stdio command after `--` is launched."""
    target = parser if into is None else into
    target.add_argument("--url", help=url_help)
    target.add_argument("--transport", choices=TRANSPORT_CHOICES, default="auto")
    target.add_argument("--header", action="append", default=[], metavar="'K: V'")
    add_auth_arguments(parser)
    add_launch_arguments(target)


def add_auth_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "authorization (HTTP servers)",
        "Tokens and dynamic client registrations are kept in the system keyring (or in memory "
        "for this run when there is none), never in a file.",
    )
    group.add_argument(
        "--auth",
        choices=("none", "bearer", "oauth"),
        default="none",
        help="none (default); bearer: a fixed token from the env or the keyring; oauth: MCP "
        "OAuth 2.1 (discovery, registration, browser login, refresh)",
    )
    group.add_argument(
        "--bearer-env",
        metavar="NAME",
        help=f"--auth bearer: the env variable holding the token (default {BEARER_ENV}, "
        "else the keyring entry for the URL)",
    )
    group.add_argument("--client-id", help="--auth oauth: a pre-registered client id")
    group.add_argument(
        "--client-secret-env",
        metavar="NAME",
        help="--auth oauth: the env variable holding the pre-registered client's secret",
    )
    group.add_argument(
        "--scope",
        help="--auth oauth: the scopes to ask for (default: the spec's "
        "selection: the server's challenge, else its scopes_supported)",
    )
    group.add_argument(
        "--registration",
        choices=("auto", "preregistered", "cimd", "dcr"),
        default="auto",
        help="--auth oauth: how to get a client id (auto: pre-registered, then CIMD, then "
        "Dynamic Client Registration)",
    )
    group.add_argument(
        "--cimd-url",
        metavar="URL",
        help="--auth oauth: this client's metadata "
        "document URL (HTTPS), used as the client id where supported",
    )
    group.add_argument(
        "--grant",
        choices=("authorization_code", "client_credentials"),
        default="authorization_code",
        help="--auth oauth: authorization_code (a browser login) or client_credentials "
        "(machine to machine; needs --client-id and --client-secret-env)",
    )
    group.add_argument(
        "--login",
        choices=("browser", "print", "headless"),
        default="browser",
        help="--auth oauth: browser (print the URL and open a browser), print (only print it), "
        "headless (follow it without a browser: for servers that approve at once)",
    )
    group.add_argument(
        "--login-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="--auth oauth: how long to wait for the browser to come back (default 300)",
    )


def add_logout_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    logout = sub.add_parser(
        "logout",
        help="forget the OAuth tokens and client registration stored for a server",
    )
    logout.add_argument("--url", required=True, help="the server URL")


def add_export_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "export-har",
        help="export the HTTP exchanges of a recorded session as HAR 1.2",
        usage="mcp-inspector-qt export-har FILE [-o out.har]",
        epilog="exit codes: 0 written, 2 usage or unreadable session file. Secrets were "
        "redacted when the session was recorded; they are not in the HAR either.",
    )
    parser.add_argument("file", metavar="FILE", help="a session file (JSON Lines)")
    parser.add_argument(
        "-o", "--output", metavar="OUT", default="-", help="the HAR file to write (default: stdout)"
    )


def add_export_slice_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "export-slice",
        help="write part of a recorded session (a time range, some methods) as a new session file",
        usage="mcp-inspector-qt export-slice FILE -o OUT.jsonl [--from T] [--to T] "
        "[--method M ...]",
        description="Write part of a recorded session as a new session file that opens, "
        "replays and exports like any other. The header and the ready line are always kept; "
        "a request and its response or error stay together; lint findings follow their lines. "
        "Times T: seconds since the recording started (90, 1.5), a duration (1:30, 1:02:03) "
        "or a date and time (2026-12-01T10:05:00, local unless it names its zone).",
        epilog="exit codes: 0 written, 2 usage, unreadable session file or unwritable OUT. "
        "FILE may be gzip- or zstd-compressed, or any part of a rotated recording. The "
        "format: docs/session-format.md",
    )
    parser.add_argument("file", metavar="FILE", help="a session file (JSON Lines)")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.jsonl",
        help="the new session file (compressed if it ends in .gz or .zst)",
    )
    parser.add_argument(
        "--from", dest="start", metavar="T", help="keep what happened at or after T"
    )
    parser.add_argument("--to", dest="end", metavar="T", help="keep what happened at or before T")
    parser.add_argument(
        "--method",
        action="append",
        default=[],
        metavar="M",
        help="keep only frames of this method (repeatable; a glob such as 'tools/*'); "
        "a request's answer comes with it",
    )


def add_export_otlp_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "export-otlp",
        help="export a recorded session as OpenTelemetry traces (OTLP), a span per request",
        usage="mcp-inspector-qt export-otlp FILE [--endpoint URL | --output OUT.json]",
        epilog="exit codes: 0 sent or written, 2 usage, unreadable session file or the "
        "'otel' extra not installed, 3 the endpoint did not take the spans. The format: "
        "docs/otlp.md",
    )
    parser.add_argument("file", metavar="FILE", help="a session file (JSON Lines)")
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--endpoint",
        metavar="URL",
        help="an OTLP/HTTP endpoint; the spans go to URL/v1/traces (e.g. http://localhost:4318)",
    )
    target.add_argument(
        "--output", "-o", metavar="OUT.json", help="write an OTLP JSON file instead"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="--endpoint: how long one export request may take (default 10)",
    )


def add_replay_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "replay",
        help="replay a recorded session against a server and diff the answers",
        usage="mcp-inspector-qt replay FILE [--use-recorded-command | --url URL | "
        "-- COMMAND [ARGS...]] [--ignore POINTER]... [--report report.json]",
        epilog="exit codes: 0 no drift, 1 drift, 2 usage or unreadable file, 3 connection "
        "failure. Ignore paths are JSON Pointers into each result; '*' matches one segment "
        "and '**' any number. Ignored by default: "
        + ", ".join(DEFAULT_IGNORES)
        + ". The format and the rules: docs/session-format.md",
    )
    parser.add_argument("file", metavar="FILE")
    target = parser.add_mutually_exclusive_group()
    target.add_argument(
        "--use-recorded-command",
        action="store_true",
        help="launch the command stored in the file (only for files you trust)",
    )
    target.add_argument("--url", help="replay against this HTTP server")
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'K: V'",
        help="an HTTP header (values are never recorded, e.g. Authorization)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="POINTER",
        help="do not compare this JSON Pointer, e.g. /content/*/text or /**/id",
    )
    parser.add_argument(
        "--no-default-ignores", action="store_true", help="compare the volatile fields too"
    )
    parser.add_argument("--report", metavar="FILE", help="write the full diff as JSON")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    add_sampling_arguments(parser)
    # The command after `--` is split off before parsing (split_server_command): a
    # REMAINDER positional after FILE would swallow every option that follows FILE.
    parser.set_defaults(server_command=[])


def split_server_command(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """`replay FILE [options] -- COMMAND ARGS...` (and `test`, `watch`, `chat`, `eval`): (the
    arguments to parse, the COMMAND words, or None for other subcommands and when there is no
    `--`)."""
    argv = list(argv)
    if not argv or argv[0] not in ("replay", "test", "watch", "chat", "eval") or "--" not in argv:
        return argv, None
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def add_sampling_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "sampling through a model",
        "Answer the server's sampling requests with a model (the flags are the consent). "
        f"The API key is read from ${KEY_ENV['openai']} or ${KEY_ENV['anthropic']}, else "
        "from the keyring entry of a provider saved in the app with the same URL; a local "
        f"server needs none. Needs the SDKs: {INSTALL_HINT}",
    )
    group.add_argument("--sampling-provider", choices=("openai", "anthropic"))
    group.add_argument(
        "--sampling-base-url",
        metavar="URL",
        help="the API's base URL, e.g. http://localhost:11434/v1 for Ollama "
        f"(default: {DEFAULT_BASE_URL['openai']} or {DEFAULT_BASE_URL['anthropic']})",
    )
    group.add_argument("--sampling-model", metavar="NAME", help="the model to ask")
    group.add_argument(
        "--sampling-max-tokens",
        type=int,
        metavar="N",
        help="the model's output-token limit: a larger maxTokens is cut to it (and said so)",
    )


EXIT_CODES = {
    0: "every check passed",
    1: "a check failed",
    2: "usage error",
    3: "the server could not be reached",
}


def _add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """The server to run against: a saved profile, --url (with its auth), or a command."""
    parser.add_argument("--profile", metavar="NAME", help="a saved profile (name or id)")
    add_server_arguments(parser, url_help="an HTTP server URL")


def add_check_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    epilog = exit_codes_text(EXIT_CODES)
    check = sub.add_parser(
        "check",
        help="run a battery of spec checks against a server and report",
        usage="mcp-inspector-qt check [--json] [--junit OUT.xml] [--era E] [--call-read-only]"
        " (-- COMMAND ... | --url URL | --profile NAME)",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--junit", metavar="OUT.xml", help="also write a JUnit XML report")
    check.add_argument("--era", choices=ERA_CHOICES, default=None)
    check.add_argument(
        "--call-read-only",
        action="store_true",
        help="call tools annotated readOnlyHint: true that need no arguments",
    )
    _add_server_arguments(check)
    check.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="per request (each check is bounded at 3x this)",
    )
    check.add_argument("-v", "--verbose", action="store_true", help="print each check as it ends")
    check.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")


TEST_EXIT_CODES = {
    0: "every call passed",
    1: "an assertion failed",
    2: "usage error, or an invalid collection (its file, line and what is wrong)",
    3: "the server could not be reached (or the connection was lost)",
    5: "a timeout (connecting, or a call no assertion expected to time out)",
}


def add_test_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    epilog = exit_codes_text(TEST_EXIT_CODES)
    test = sub.add_parser(
        "test",
        help="run a collection of saved calls against a server and check their assertions",
        usage="mcp-inspector-qt test COLLECTION [--junit OUT.xml] [--json] [--update-snapshots]"
        " [--era E] (-- COMMAND ... | --url URL | --profile NAME)\n"
        "       mcp-inspector-qt test --from-session SESSION.jsonl --write COLLECTION",
        description="The collection format: docs/collections.md.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    test.add_argument("collection", nargs="?", metavar="COLLECTION", help="a collection file")
    test.add_argument("--json", action="store_true", help="print the results as JSON")
    test.add_argument("--junit", metavar="OUT.xml", help="also write a JUnit XML report")
    test.add_argument(
        "--update-snapshots",
        action="store_true",
        help="write the results that differ from their snapshots into the collection",
    )
    test.add_argument(
        "--era",
        choices=ERA_CHOICES,
        default=None,
        help="default: the collection's own era, else legacy",
    )
    test.add_argument(
        "--from-session",
        metavar="SESSION.jsonl",
        help="make a collection from a recorded session (app, cli --record or tap): each "
        "call with its recorded result as the snapshot",
    )
    test.add_argument("--write", metavar="COLLECTION", help="with --from-session: where to write")
    test.add_argument("--force", action="store_true", help="with --write: replace an existing file")
    _add_server_arguments(test)
    test.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="per call, unless the call sets its own timeoutMs (default 30)",
    )
    test.add_argument("-v", "--verbose", action="store_true", help="print every assertion")
    # The command after `--` is split off before parsing (split_server_command).
    test.set_defaults(server_command=[])


def add_watch_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    watch = sub.add_parser(
        "watch",
        help="restart a stdio server when its files change; print what changed and re-run a "
        "collection",
        usage="mcp-inspector-qt watch [--path P]... [--collection FILE] [--json] "
        "[--debounce SECONDS] -- COMMAND [ARGS...]",
        epilog="Watches the server's folder (--cwd, else the folder of its script, else the "
        "current folder) unless --path names "
        "files, folders or globs (relative to it, e.g. 'src/**/*.py'). .git, __pycache__, "
        "node_modules, virtualenvs, editor swap files and its own output never count. Runs "
        "until Ctrl+C or "
        "SIGTERM (exit 0, the server stopped); exit 2 for usage or an invalid collection. "
        "See docs/watch.md.",
    )
    watch.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="P",
        help="a file, folder or glob to watch (repeatable; default: the server's folder)",
    )
    watch.add_argument(
        "--collection", metavar="FILE", help="a collection to re-run after every restart"
    )
    watch.add_argument("--json", action="store_true", help="one JSON line per restart")
    watch.add_argument(
        "--debounce",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="quiet time after a change before restarting, and the least time between two "
        "restarts (default 0.5)",
    )
    watch.add_argument("--era", choices=ERA_CHOICES, default="legacy")
    add_launch_arguments(watch, cwd_help="the server's working folder (and what is watched)")
    watch.add_argument(
        "--timeout", type=float, default=30.0, metavar="SECONDS", help="per request (default 30)"
    )
    watch.add_argument("-v", "--verbose", action="store_true", help="also print the details")
    watch.set_defaults(server_command=[])


DIFF_EXIT_CODES = {
    0: "the catalogs are the same (--write-baseline: the baseline is written)",
    1: "the catalogs differ",
    2: "usage error, or a saved side that cannot be read (the message says why)",
    3: "a side could not be reached, or died while listing (the message says which)",
    5: "timeout",
}


def add_diff_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    epilog = (
        "TARGET: an http(s):// URL, a shell-quoted stdio command line\n"
        '(--left "node dist/index.js stdio"), or profile:NAME (a saved profile: its\n'
        "headers, env, cwd, era and auth).\n\n"
        "HTTP headers for a URL side (or a profile:NAME side over HTTP, added to its own):\n"
        "  --header 'Name: value' for both sides, --left-header/--right-header for one\n"
        "  (repeatable; a side's own header wins over --header of the same name). A stdio\n"
        "  side takes no headers (exit 2).\n\n"
        "A saved side: either TARGET may be a catalog baseline (written by\n"
        "--write-baseline) or a session file (.jsonl) the app or `cli --record` wrote:\n"
        "  mcp-inspector-qt diff --write-baseline surface.json --left 'python server.py'\n"
        "  mcp-inspector-qt diff --left surface.json --right 'python server.py'\n\n"
        + exit_codes_text(DIFF_EXIT_CODES)
    )
    diff = sub.add_parser(
        "diff",
        help="compare two servers' catalogs (tools, resources, templates, prompts, server info)",
        usage="mcp-inspector-qt diff [--json] [--ignore JSON_POINTER]... [--era E]"
        " [--header 'K: V']... [--left-header 'K: V']... [--right-header 'K: V']..."
        " --left TARGET --right TARGET\n"
        "       mcp-inspector-qt diff --write-baseline FILE --left TARGET",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    diff.add_argument(
        "--left", required=True, metavar="TARGET", help="the first server, or a saved side"
    )
    diff.add_argument("--right", metavar="TARGET", help="the second server, or a saved side")
    diff.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="list the --left server and write its catalog to FILE (a baseline for a later "
        "--left FILE or --right FILE); no --right",
    )
    diff.add_argument("--json", action="store_true", help="print a JSON report")
    diff.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="JSON_POINTER",
        help="leave this path out (repeatable; * one segment, ** any): /serverInfo/version, "
        "/tools/*/description, /**/_meta",
    )
    eras = ERA_CHOICES
    diff.add_argument("--era", choices=eras, default=None, help="the era of both sides")
    diff.add_argument("--left-era", choices=eras, default=None, help="the left side's era")
    diff.add_argument("--right-era", choices=eras, default=None, help="the right side's era")
    for flag, whose in (("--header", "both sides"), ("--left-header", "the left side"),
                        ("--right-header", "the right side")):  # fmt: skip
        diff.add_argument(
            flag,
            action="append",
            default=[],
            metavar="'NAME: VALUE'",
            help=f"an HTTP header sent to {whose} (repeatable; HTTP sides only)",
        )
    diff.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="per side: connecting and listing everything (default 30)",
    )
    diff.add_argument("-v", "--verbose", action="store_true", help="log what each side does")
