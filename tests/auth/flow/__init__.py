"""Tests of inspector/auth/flow: the OAuth flow's steps."""
