"""Small widgets and primitives every other ui folder may use."""
