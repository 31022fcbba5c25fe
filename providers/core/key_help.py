"""What someone without a provider's key variable does, as the provider's own module says it (its ``KEY_HELP``:
variable -> words), reached through the provider's row: Bedrock's short-term API key made from IAM credentials,
since toolchoice does not sign SigV4. ``transport.no_key`` adds the words to the missing key's error. And why a key
that is set cannot travel in a header (``key_problem``: send refuses it, doctor says so).
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


def key_problem(name: str, value: str) -> tuple[str, str] | None:
    """Why a variable's value cannot travel in an HTTP header, and what to do (send refuses it; doctor says so);
    the words say where the problem is, never what the value is."""
    if value.isascii() and value.isprintable() and value == value.strip():  # the usual key: three looks in C
        return None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        return f"${name} holds a control character (a line ending from a .env file?)", f"set {name} to the key alone"
    if value != value.strip():
        end = "start" if value[:1].isspace() else "end"
        return (f"${name} has a space at its {end}, which no HTTP header can carry",
                f"set {name} to the key alone, without spaces")
    bad = next((i for i, ch in enumerate(value) if ord(ch) > 126), None)
    if bad is not None:
        return (f"${name} holds a non-ASCII character (character {bad + 1} of {len(value)}), which no HTTP header "
                "can carry", f"check {name}: a key copied with a typographic quote or dash?")
    return None
