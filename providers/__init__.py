"""toolchoice's core: scenario model, tool_choice parsing, provider translators and parsers.

Public entry points: ``load_scenario``, ``translate``, ``parse_reply``, the data classes in ``model`` and the
errors the library raises; ``SendSettings``, ``LoopOptions`` and ``running_mock``, the settings of the jobs
(``core.jobs``) and the mock server, are loaded when first asked for. Importing this package imports no provider
module and no HTTP client."""

from typing import TYPE_CHECKING, Any

from .core.version import __version__
from .core.errors import (ArgumentError, BadReply, MissingKey, NothingToSend, OutOfRange, ToolchoiceError,
                          WrongArgument)
from .core.model import (Ledger, LedgerEntry, Message, ProviderError, ProviderSettings, RenderOptions, Reply, Request,
                         Scenario, Tool, ToolCall, ToolChoice, Translation)
from .core.registry import parse_reply, translate
from .core.scenario import load_scenario, load_scenario_text
from .core.scenario_dict import load_scenario_dict

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ below loads each when asked
    from .core.loop import LoopOptions
    from .core.mock.server import running_mock
    from .core.runner import SendSettings

# name -> the module that holds it: loaded on first use, so `toolchoice render` loads none of them
_LATER = {"SendSettings": "runner", "LoopOptions": "loop", "running_mock": "mock.server"}


def __getattr__(name: str) -> Any:
    if name in _LATER:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.core.{_LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:  # a REPL's completion and dir() list the names loaded later too
    return sorted(set(globals()) | set(_LATER))


__all__ = [
    "__version__",
    "ArgumentError", "BadReply", "Ledger", "LedgerEntry", "LoopOptions", "Message", "MissingKey", "NothingToSend",
    "OutOfRange", "ProviderError", "ProviderSettings", "RenderOptions", "Reply", "Request", "Scenario", "SendSettings", "Tool", "ToolCall", "ToolChoice",
    "ToolchoiceError", "Translation", "WrongArgument", "load_scenario", "load_scenario_dict", "load_scenario_text",
    "parse_reply", "running_mock", "translate",
]
