"""``Context``: one request while a provider module builds it (the row, the scenario, the ledger, the
planned choice, the settings), made by ``translation.start``."""

from __future__ import annotations

from typing import Any, Mapping

from .capabilities import Capability
from .choice_plan import ChoicePlan
from .model import Ledger, ProviderSettings, RenderOptions, Scenario


class Context:
    """Everything a provider module needs while it builds one request. Mutable: a module may
    replace ``plan`` (Bedrock keeps the tools declared for a tool history)."""

    __slots__ = ("provider", "cap", "scenario", "options", "ledger", "model", "plan", "settings", "requested",
                 "key_env", "developer_sent", "requested_text", "special_tools", "history_calls", "history_reasoning",
                 "built_choice", "facts", "body_env", "other_host")

    def __init__(self, provider: str, cap: Capability, scenario: Scenario, options: RenderOptions, ledger: Ledger,
                 model: str, plan: ChoicePlan, settings: ProviderSettings, requested: Any = None,
                 requested_text: str | None = None, special_tools: bool = True, history_calls: bool = True,
                 history_reasoning: bool = True) -> None:
        self.provider = provider
        self.cap = cap
        self.scenario = scenario
        self.options = options
        self.ledger = ledger
        self.model = model
        self.plan = plan
        self.settings = settings  # providers.<id> of the scenario
        self.requested = requested  # the neutral tool_choice as JSON (ToolChoice.to_json), None when unset
        # the variables that can hold the key, first wins: providers.<id>.api_key_env, else the provider's own
        self.key_env: tuple[str, ...] = (settings.api_key_env,) if settings.api_key_env else cap.key_env
        # a developer prompt went out as the API's developer role (else finish() records it became system)
        self.developer_sent = False
        # requested as ledger messages quote it (a word as is, an object as compact JSON); start() makes it
        self.requested_text = requested_text
        # some planned tool is custom or carries newer per-tool fields (False: all are plain function tools)
        self.special_tools = special_tools
        # some history message makes tool calls / carries reasoning items (False: the lints have nothing to look at)
        self.history_calls = history_calls
        self.history_reasoning = history_reasoning
        # the last value choice_value built from a template, with its compact text (mapped quotes it)
        self.built_choice: tuple[Any, str] | None = None
        self.facts: Mapping[str, Any] | None = None  # model_facts(ctx), read once
        # paths of body strings holding $ENV placeholders resolved at send time (an MCP server's headers)
        self.body_env: list[tuple[Any, ...]] = []
        # the base URL that replaces a hosted API's own host (core/host_rules.py): its refusals are then warnings
        self.other_host: str | None = None
