"""Dialogs for what the server asks of the user (sampling, elicitation) and the roots editor."""
