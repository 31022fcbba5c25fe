"""What someone without a provider's key variable does, as the provider's own module says it (its ``KEY_HELP``:
variable -> words), reached through the provider's row: Bedrock's short-term API key made from IAM credentials,
since toolchoice does not sign SigV4. ``transport.no_key`` adds the words to the missing key's error.
"""

from __future__ import annotations

import importlib

from .capabilities import CAPABILITIES


def key_help(provider: str, variable: str) -> str:
    """The words the module of ``provider``'s row declares for a missing ``variable``, or "" (none declared)."""
    row = CAPABILITIES.get(provider)
    if row is None:
        return ""
    module = importlib.import_module(f"toolchoice.providers.{row.module}")  # as registry.module_for reaches it
    return getattr(module, "KEY_HELP", {}).get(variable, "")
