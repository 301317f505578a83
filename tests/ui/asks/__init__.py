"""Tests of inspector/ui/asks."""
