"""Where the app keeps things on disk and in the keyring: paths, secrets."""
