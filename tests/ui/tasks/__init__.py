"""Tests of inspector/ui/tasks."""
