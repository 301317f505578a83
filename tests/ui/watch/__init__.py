"""Tests of inspector/ui/watch."""
