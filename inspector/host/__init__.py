"""The inspector as a host: a model that calls the tools of one or several connections, with a
person in the loop (issue 28).
"""
