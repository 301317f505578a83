"""A slice of a recorded session written as a new session file (`export-slice`, File ▸
Export Slice…): `session_slice` chooses the lines, `when` reads the times a user types."""
