"""Tests of inspector/ui/tap."""
