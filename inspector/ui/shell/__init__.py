"""The window shell: the main window and its menus, window state, the `gui` command (where the
composition root is built), the qasync loop and start-up checks."""
