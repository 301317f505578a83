"""The argument pieces the subcommands share (command_args.add_server_arguments,
add_launch_arguments, exit_codes_text, ERA_CHOICES): one definition, the same options and
defaults in `cli`, `check`, `test` and `watch`."""

from __future__ import annotations

import argparse

import pytest

from inspector.cli.command_args import (
    ERA_CHOICES,
    add_launch_arguments,
    add_server_arguments,
    exit_codes_text,
)
from inspector.cli.parser import build_parser
from inspector.protocol.wire.versions import EraSetting


def test_exit_codes_text_lists_each_code_on_its_own_line() -> None:
    assert exit_codes_text({0: "ok", 3: "no server"}) == "exit codes:\n  0  ok\n  3  no server"


def test_era_choices_are_every_era_setting() -> None:
    assert tuple(e.value for e in EraSetting) == ERA_CHOICES


def test_server_arguments_in_a_group_with_auth_beside_it() -> None:
    parser = argparse.ArgumentParser()
    group = parser.add_argument_group("server")
    add_server_arguments(parser, group, url_help="the URL")
    flags = {flag for action in group._group_actions for flag in action.option_strings}
    assert flags == {"--url", "--transport", "--header", "--env", "--full-env", "--cwd"}
    target = ["--url", "http://h/mcp", "--transport", "sse", "--header", "A: 1", "--header", "B: 2"]
    ns = parser.parse_args(
        [*target, "--env", "K=V", "--full-env", "--cwd", "/tmp", "--auth", "bearer"]
    )
    assert ns.url == "http://h/mcp" and ns.transport == "sse"
    assert ns.header == ["A: 1", "B: 2"] and ns.env == ["K=V"]
    assert ns.full_env and ns.cwd == "/tmp" and ns.auth == "bearer"


def test_server_arguments_defaults_and_a_wrong_transport() -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_server_arguments(parser, url_help="the URL")
    ns = parser.parse_args([])
    assert (ns.url, ns.transport, ns.header, ns.env, ns.full_env, ns.cwd) == (
        None,
        "auto",
        [],
        [],
        False,
        None,
    )
    with pytest.raises(argparse.ArgumentError):
        parser.parse_args(["--transport", "carrier-pigeon"])


def test_launch_arguments_take_their_own_cwd_help() -> None:
    parser = argparse.ArgumentParser()
    add_launch_arguments(parser, cwd_help="where it runs")
    assert "where it runs" in parser.format_help()
    assert "pass the whole environment" in parser.format_help()


@pytest.mark.parametrize("command", ["cli", "check", "test", "watch"])
def test_every_server_command_launches_alike(command: str) -> None:
    ns = build_parser().parse_args(
        [
            command,
            *(["--method", "tools/list"] if command == "cli" else []),
            *("--env", "A=1", "--env", "B=2", "--full-env", "--cwd", "/srv"),
        ]
    )
    assert (ns.env, ns.full_env, ns.cwd) == (["A=1", "B=2"], True, "/srv")


@pytest.mark.parametrize("command", ["cli", "check", "test"])
def test_every_connecting_command_takes_the_same_transports(command: str) -> None:
    extra = ["--method", "tools/list"] if command == "cli" else []
    for transport in ("auto", "stdio", "streamable-http", "sse"):
        ns = build_parser().parse_args([command, "--transport", transport, *extra])
        assert ns.transport == transport
