"""The headless command line: one module per subcommand."""
