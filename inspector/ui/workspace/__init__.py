"""The centre workspace: the view of the item selected in the explorer (call, read, get)."""
