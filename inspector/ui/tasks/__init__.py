"""Tasks on screen: the Tasks panel and Run as task."""
