"""Tests of tap mode (inspector/tap, the `tap` command)."""
