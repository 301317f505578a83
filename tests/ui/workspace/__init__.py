"""Tests of inspector/ui/workspace."""
