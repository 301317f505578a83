"""Tests of inspector/ui/profiles."""
