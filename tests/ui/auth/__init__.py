"""Tests of inspector/ui/auth."""
