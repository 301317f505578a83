"""Tests of inspector/ui/traffic."""
