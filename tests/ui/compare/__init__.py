"""Tests of inspector/ui/compare."""
