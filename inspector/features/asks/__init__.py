"""What a server asks of the user, read for the dialogs: sampling, elicitation, canned replies."""
