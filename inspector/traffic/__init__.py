"""The traffic floor: the Qt-free log of every frame, its formatting, rounds and notices."""
