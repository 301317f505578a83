"""Sampling answered by a real model: providers, the model chosen from modelPreferences,
each provider's wire format, the call through its official SDK, and the draft a person
approves (or, headless, the flags that are the consent)."""
