"""The names a user types or sets for model providers (kinds, key variables, default URLs,
the install hint), kept apart so the CLI's argument definitions read them without loading
the providers' settings, the keyring or an SDK."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["DEFAULT_BASE_URL", "INSTALL_HINT", "KEY_ENV", "PROVIDER_KINDS", "ProviderKind"]

ProviderKind = Literal["openai", "anthropic"]
PROVIDER_KINDS: Final = ("openai", "anthropic")
# The environment variables the headless run reads a key from (named in `cli --help`).
KEY_ENV: Final[dict[str, str]] = {
    "openai": "MCP_INSPECTOR_OPENAI_API_KEY",
    "anthropic": "MCP_INSPECTOR_ANTHROPIC_API_KEY",
}
DEFAULT_BASE_URL: Final[dict[str, str]] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
INSTALL_HINT: Final = "pip install 'mcp-inspector-qt[models]'"
