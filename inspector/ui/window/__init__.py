"""The main window, the `gui` command, and the wiring of the app's parts on screen."""
