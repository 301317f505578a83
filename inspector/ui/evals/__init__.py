"""The Evals view: run an evals file against the open tabs and read per-case pass rates (issue
28).
"""
