"""Tests of inspector/ui/collections."""
