"""The bottom panels: console, notifications, errors, tasks, auth, session controls."""
