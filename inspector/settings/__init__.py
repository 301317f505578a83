"""Connection settings: profiles, their auth options, config import, and connect."""
