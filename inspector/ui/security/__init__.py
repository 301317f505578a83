"""The Security view: findings of the security review over the open tabs (issue 29)."""
