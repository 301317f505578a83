"""Evals: cases of prompts and the tool calls a model is expected to make, run against servers
(issue 28).
"""
