"""Editing connection profiles: the dialog, the editor, the auth section."""
