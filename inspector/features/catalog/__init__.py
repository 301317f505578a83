"""The catalog of what a server offers: the model, its loader, display text and pins."""
