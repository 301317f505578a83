"""Check and lint on screen: the `check` dialog and the Lint panel over a connection's findings."""
