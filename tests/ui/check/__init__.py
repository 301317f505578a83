"""Tests of inspector/ui/check."""
