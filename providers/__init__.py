"""toolchoice's core: scenario model, tool_choice parsing, provider translators and parsers.

Public entry points: ``load_scenario``, ``translate``, ``parse_reply`` and the data classes in
``model``. Importing this package imports no provider module and no HTTP client."""

from .core.version import __version__
from .core.model import (Ledger, LedgerEntry, Message, ProviderError, ProviderSettings, RenderOptions, Reply,
                    Request, Scenario, Tool, ToolCall, ToolChoice, ToolchoiceError, Translation, WrongArgument)
from .core.registry import parse_reply, translate
from .core.scenario import load_scenario, load_scenario_text
from .core.scenario_dict import load_scenario_dict

__all__ = [
    "__version__",
    "Ledger", "LedgerEntry", "Message", "ProviderError", "ProviderSettings", "RenderOptions", "Reply", "Request",
    "Scenario", "Tool", "ToolCall", "ToolChoice", "ToolchoiceError", "Translation", "WrongArgument", "load_scenario",
    "load_scenario_dict", "load_scenario_text", "parse_reply", "translate",
]
