"""Tests of inspector/ui/content."""
