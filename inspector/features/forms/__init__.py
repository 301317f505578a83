"""Forms from JSON Schema, Qt-free: field model, validation, JSON trees, remembered arguments."""
