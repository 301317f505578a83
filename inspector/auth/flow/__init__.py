"""The steps of one server's OAuth 2.1 flow (discovery, registration, grants, the token endpoint,
PKCE, the redirect listener, DPoP, enterprise assertions) and what they share;
`inspector.auth.oauth` composes them into an `httpx.Auth`."""
