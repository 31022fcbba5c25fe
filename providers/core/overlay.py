"""Reading a capability overlay file (written by `toolchoice probe --save`) onto the built-in table."""

from __future__ import annotations

import json
from pathlib import Path

from .capabilities import Capability
from .model import ToolchoiceError
from .probe import RESULTS, apply_overlay

_RESULTS = set(RESULTS) - {"not asked"}  # what probe writes: measured answers, and the unmeasured with evidence


def load_overlay(path: Path, capabilities: dict[str, Capability]) -> dict[str, Capability]:
    """The table with the file's measured facts applied to its provider. Bad files are exit-2 errors."""
    name = str(path)
    from .bounded import TooDeep, json_value, read_file

    if not Path(path).exists():
        raise ToolchoiceError(f"{name}: no such capability file", hint="write one with toolchoice probe --save FILE")
    try:
        document = json_value(read_file(path, "capability").decode("utf-8"))
    except TooDeep:
        raise ToolchoiceError(f"{name}: not a capability overlay: the JSON nests too deeply to read",
                              hint="write one with toolchoice probe --save FILE") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ToolchoiceError(f"{name}: not a capability overlay (JSON): {exc}",
                              hint="write one with toolchoice probe --save FILE") from None
    if not isinstance(document, dict) or document.get("toolchoice_capabilities") != 1:
        raise ToolchoiceError(f"{name}: not a toolchoice capability overlay (no toolchoice_capabilities: 1)")
    provider = document.get("provider")
    if provider not in capabilities:
        raise ToolchoiceError(f"{name}: unknown provider {provider!r} in the overlay")
    features = document.get("features")
    if not isinstance(features, dict) or not all(isinstance(v, dict) and v.get("result") in _RESULTS
                                                 for v in features.values()):
        raise ToolchoiceError(f"{name}: features must map each feature to {{result: {'|'.join(sorted(_RESULTS))}}}")
    for key in ("endpoint", "measured_at"):
        if not isinstance(document.get(key), str):
            raise ToolchoiceError(f"{name}: {key} must be a string")
    table = dict(capabilities)
    table[provider] = apply_overlay(capabilities[provider], document)
    return table
