"""Tests of inspector/ui/forms."""
