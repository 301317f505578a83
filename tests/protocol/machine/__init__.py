"""Tests of inspector/protocol/machine."""
