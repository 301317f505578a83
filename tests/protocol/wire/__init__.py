"""Tests of inspector/protocol/wire."""
