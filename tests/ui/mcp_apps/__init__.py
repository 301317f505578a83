"""Tests of inspector/ui/mcp_apps."""
