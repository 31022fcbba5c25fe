"""Reading what the user gave on the command line: the scenario, a --tool-choice override, the
provider list and a capability overlay."""

from __future__ import annotations

from pathlib import Path

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS, Capability
from toolchoice.providers.core.choice import parse_cli_value, parse_tool_choice
from toolchoice.providers.core.model import Scenario, ToolchoiceError
from toolchoice.providers.core.registry import check_provider
from toolchoice.providers.core.scenario import load_scenario


def scenario_with_override(path: Path, tool_choice: str | None) -> Scenario:
    """Load the scenario; ``--tool-choice VALUE`` replaces the file's tool_choice (same spellings)."""
    scenario = load_scenario(path)
    if tool_choice is None:
        return scenario
    value = parse_cli_value(tool_choice)

    def fail(message: str, hint: str | None = None) -> ToolchoiceError:
        return ToolchoiceError(f"--tool-choice: {message}", hint=hint)

    return scenario._replace(tool_choice=parse_tool_choice(value, scenario.tool_names, fail))


def selected_providers(requested: list[str] | None, scenario: Scenario) -> list[str]:
    """--provider values (repeatable, comma lists, 'all'); default: the scenario's providers, else all."""
    names: list[str] = []
    for item in requested or []:
        names.extend(part.strip() for part in item.split(",") if part.strip())
    if not names:
        return list(scenario.providers) or list(PROVIDER_IDS)
    if "all" in names:
        return list(PROVIDER_IDS)
    out: list[str] = []
    for name in names:
        check_provider(name)
        if name not in out:
            out.append(name)
    return out


def capabilities_from(path: Path | None) -> dict[str, Capability] | None:
    """The built-in table, with a probe overlay file applied when one is given."""
    if path is None:
        return None
    from toolchoice.providers.core.overlay import load_overlay

    return load_overlay(path, CAPABILITIES)
