"""The explorer: the catalog's trees (tools, resources, templates, prompts) on the left."""

from inspector.ui.explorer.panel import ExplorerPanel

__all__ = ["ExplorerPanel"]
