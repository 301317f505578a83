"""Tests of inspector/ui/widgets."""
