"""Showing content: content blocks, resource contents, images, JSON trees."""
