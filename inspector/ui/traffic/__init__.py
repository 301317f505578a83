"""The traffic log on screen: table model, filters, detail pane, statistics, raw composer."""
