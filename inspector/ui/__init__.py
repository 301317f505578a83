"""The Qt layer. Only modules in this package may import PySide6 or qasync."""
