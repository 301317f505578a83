"""Tap mode on screen: taps in a host's config (Profiles) and File ▸ Live Taps."""
