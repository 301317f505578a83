"""Tests of inspector/ui/recording."""
