"""Watch mode on screen: the mode itself on a tab, its settings dialogs and its strip."""
