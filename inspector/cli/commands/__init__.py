"""The subcommands of `mcp-inspector-qt`, one module per subcommand, named after it (a dash
becomes an underscore: `export-har` is `export_har.py`; the `cli` subcommand is `cli.py`).

Every module has the same entry, `run(ns, parser) -> int`: the parsed command line and the
parser (for its usage), the exit code back. Each runs its body through the one error path
(`inspector.cli.errors.guarded`); the commands that judge a server write their output and
report files through the one report writer (`inspector.cli.reports`). `inspector.__main__`
imports a command's module only when it is asked for; `tap` parses its own words
(`tap.parse`), before anything heavy is imported. The desktop app (`gui`) is not here: it
lives in the ui floor (`inspector.ui.shell.gui_command`).

What several commands share stays one level up, in `inspector.cli`: the parser and its
argument groups, the ad-hoc profile, the diagnostics, the error path and the report writer.
Nothing is imported here: a command loads only its own machinery.
"""
