"""Tests of the shipped app: the wheel installed into a fresh venv, the frozen app, and the
desktop integration files in packaging/."""
