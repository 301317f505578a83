"""The application model: the one Qt-free composition root. It owns every store and the
connections, is built in one place, and is handed to the window (or any other front end)."""
