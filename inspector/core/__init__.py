"""The Qt-free core: the composition root (`InspectorModel`, every store and the
connections, built in one place and handed to the window or any other front end) and one
`ConnectionModel` per server."""
