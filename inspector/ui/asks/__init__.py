"""What a server asks of the user, on screen: the sampling, elicitation and roots dialogs, model
drafts and providers, and the GUI responder that opens them."""
