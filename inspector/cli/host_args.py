"""The words of `chat` and `eval` (a model that calls the server's tools): argparse only.

The model options (`--base-url`, `--model`, `--provider`, `--api-key-env`), the approval
flags (`--approve`, `--allow-destructive`, `--send-invalid`, `--max-steps`) and the server
(`--profile`, `--url`, or the command after `--`), as `test` names it. Nothing that runs the
commands is imported here.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector.cli.command_args import ERA_CHOICES, add_server_arguments, exit_codes_text
from inspector.features.providers.names import DEFAULT_BASE_URL, KEY_ENV, PROVIDER_KINDS

__all__ = ["CHAT_EXIT_CODES", "EVAL_EXIT_CODES", "add_chat_parser", "add_eval_parser"]

CHAT_EXIT_CODES: Final = {
    0: "the model answered (tool errors along the way are the model's to handle)",
    1: "the turn reached the step limit before the model answered",
    2: "usage error",
    3: "the server could not be reached (or the connection was lost)",
    4: "the model provider failed (unreachable, an error status, or not its API's answer)",
    5: "a timeout (connecting to the server, or the model request)",
    130: "interrupted (Ctrl+C): the turn was stopped, what ran is printed",
}

EVAL_EXIT_CODES: Final = {
    0: "every case met its pass rate",
    1: "a case did not meet its pass rate",
    2: "usage error, or an invalid evals file (what is wrong)",
    3: "the server could not be reached, or the connection was lost during the runs",
}


def _add_model_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "model",
        "The model that calls the server's tools: an OpenAI-compatible endpoint (OpenAI, "
        "Ollama, llama.cpp, vLLM, ...) or Anthropic. The key is read from --api-key-env NAME, "
        f"else ${KEY_ENV['openai']} or ${KEY_ENV['anthropic']}; a local server needs none.",
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        help=f"the API's base URL (default: {DEFAULT_BASE_URL['openai']} or "
        f"{DEFAULT_BASE_URL['anthropic']})",
    )
    group.add_argument("--model", metavar="M", help="the model to use (required)")
    group.add_argument("--provider", choices=PROVIDER_KINDS, default="openai")
    group.add_argument("--api-key-env", metavar="NAME", help="the env variable with the key")
    group.add_argument(
        "--model-timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="per model request (default 120)",
    )
    group.add_argument("--system", metavar="TEXT", default="", help="the system prompt")
    group.add_argument(
        "--no-instructions",
        action="store_true",
        help="leave the server's instructions out of the system prompt",
    )
    calls = parser.add_argument_group(
        "tool calls",
        "Headless, no one is asked: the flags are the consent. Annotations (read-only, "
        "destructive) are hints from the server, not guarantees.",
    )
    calls.add_argument(
        "--approve",
        choices=("all", "read-only", "none"),
        default="all",
        help="which calls go out: all (default), only tools annotated read-only, or none "
        "(every call refused, and the model told so)",
    )
    calls.add_argument(
        "--allow-destructive",
        action="store_true",
        help="also call tools annotated destructive (refused by default)",
    )
    calls.add_argument(
        "--send-invalid",
        action="store_true",
        help="send arguments that break the tool's inputSchema anyway (default: refuse and "
        "tell the model the problems)",
    )
    calls.add_argument(
        "--max-steps",
        type=int,
        default=10,
        metavar="N",
        help="model requests per turn before it is stopped (default 10)",
    )


def _add_server(parser: argparse.ArgumentParser, timeout: float) -> None:
    group = parser.add_argument_group("server")
    group.add_argument("--profile", metavar="NAME", help="a saved profile (name or id)")
    add_server_arguments(parser, group, url_help="an HTTP server URL")
    group.add_argument("--era", choices=ERA_CHOICES, default=None)
    group.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        metavar="SECONDS",
        help=f"connecting, and each tool call (default {timeout:g})",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="also the model exchanges")
    # The command after `--` is split off before parsing (split_server_command).
    parser.set_defaults(server_command=[])


def add_chat_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chat = sub.add_parser(
        "chat",
        help="let a model use the server's tools for one user turn; print the transcript",
        usage="mcp-inspector-qt chat --model M [--base-url URL] [--provider openai|anthropic] "
        "[--api-key-env NAME] --prompt TEXT [--system TEXT] [--approve all|read-only|none] "
        "[--max-steps N] [--json] (-- COMMAND ... | --url URL | --profile NAME)",
        description="See docs/host.md (chat).",
        epilog=exit_codes_text(CHAT_EXIT_CODES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chat.add_argument("--prompt", metavar="TEXT", help="the user's message (required)")
    chat.add_argument(
        "--json",
        action="store_true",
        help="print the conversation as JSON: each tool call (name, arguments, result, "
        "timing), then the model's final text",
    )
    _add_model_arguments(chat)
    _add_server(chat, 60.0)


def add_eval_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    evals = sub.add_parser(
        "eval",
        help="run evals files (prompts and the tool calls expected) against a server with a "
        "model; print pass rates",
        usage="mcp-inspector-qt eval FILE... [--json] [--junit OUT.xml] [--concurrency N] "
        "--model M [--base-url URL] [model options] (-- COMMAND ... | --url URL | "
        "--profile NAME)",
        description="The evals file format: docs/evals.md.",
        epilog=exit_codes_text(EVAL_EXIT_CODES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    evals.add_argument("files", nargs="*", metavar="FILE", help="evals files")
    evals.add_argument("--json", action="store_true", help="print the report as JSON")
    evals.add_argument("--junit", metavar="OUT.xml", help="also write a JUnit XML report")
    evals.add_argument(
        "--concurrency",
        type=int,
        default=4,
        metavar="N",
        help="runs at the same time (default 4)",
    )
    _add_model_arguments(evals)
    _add_server(evals, 60.0)
