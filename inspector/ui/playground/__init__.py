"""The Playground: a conversation with a model that calls the tools of the open tabs (issue 28)."""
