"""Tests of inspector/ui/tabs."""
