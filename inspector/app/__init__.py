"""The connection floor and the application model, Qt-free: `ServerConnection`, the one way
to reach a server (server_connection.py), and the composition root that owns every store and
the connections, is built in one place, and is handed to the window (or any other front end)."""
