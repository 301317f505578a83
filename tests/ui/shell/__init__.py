"""Tests of inspector/ui/shell."""
