"""Qt adapters that drive a connection for the widgets, and answer server asks with dialogs."""
