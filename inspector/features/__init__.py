"""Qt-free models the UI adapts: catalog, forms, asks, tools, content, resources, prompts, tasks."""
