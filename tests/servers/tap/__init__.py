"""Hosts and servers for tap tests: a paced host that talks to a server through a tap."""
