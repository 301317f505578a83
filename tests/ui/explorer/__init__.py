"""Tests of inspector/ui/explorer."""
