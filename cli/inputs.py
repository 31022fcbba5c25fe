"""Reading what the user gave on the command line: the scenario(s), a --tool-choice override, the
provider list, per-provider models and a capability overlay."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS, Capability
from toolchoice.providers.core.choice import parse_cli_value, parse_tool_choice
from toolchoice.providers.core.model import Scenario, ToolchoiceError
from toolchoice.providers.core.registry import check_provider
from toolchoice.providers.core.scenario import load_scenario, load_scenario_text

STDIN = "-"


def load_path(path: Path | str, *, live: bool = False, allow_env: Sequence[str] | None = None,
              command: str = "") -> Scenario:
    """A scenario file, or ``-``: the scenario read from stdin (named ``<stdin>`` in messages).
    ``live``: whether a ``from:`` may reach a live MCP server (a dry run: only with --live-mcp);
    ``allow_env``: the --allow-env values as given (names its MCP headers may read)."""
    from toolchoice.providers.core import source_policy
    from toolchoice.providers.core.bounded import read_stdin_text

    from .options import allowed_env

    with source_policy.policy(live, allowed_env(allow_env), command):
        if str(path) == STDIN:
            return load_scenario_text(read_stdin_text("<stdin>"), "<stdin>")
        refuse_provider_paths([path])
        return load_scenario(path)


def options_need(given: Sequence[str], needed: str) -> str:
    """``--a needs --b``, ``--a and --c need --b``: the options given without the one they go with (the verb agrees
    with them: parse said "--tool-choice, --model needs --scenario")."""
    if len(given) == 1:
        return f"{given[0]} needs {needed}"
    return f"{', '.join(given[:-1])} and {given[-1]} need {needed}"


def refuse_provider_paths(paths: Sequence[Path | str]) -> None:
    """``compare s.yaml -p openai anthropic``: the second provider id was taken for a scenario file; said before the
    first scenario is drawn."""
    for path in paths:
        ids = [part for part in str(path).split(",") if part]
        if ids and all(part in PROVIDER_IDS for part in ids) and not Path(path).exists():
            raise ToolchoiceError(f"{path}: no such file; {'it is a provider id' if len(ids) == 1 else 'provider ids'}, "
                                  "taken for a scenario file", hint=f"name a provider with -p {ids[0]}; several, where a command "
                                  "takes them: -p openai,anthropic or -p openai -p anthropic")


def scenario_with_override(path: Path | str, tool_choice: str | None, *, live: bool = False,
                           allow_env: Sequence[str] | None = None, command: str = "") -> Scenario:
    """Load the scenario; ``--tool-choice VALUE`` replaces the file's tool_choice (same spellings)."""
    return with_tool_choice(load_path(path, live=live, allow_env=allow_env, command=command), tool_choice)


def with_tool_choice(scenario: Scenario, tool_choice: str | None) -> Scenario:
    if tool_choice is None:
        return scenario
    value = parse_cli_value(tool_choice)

    def fail(message: str, hint: str | None = None) -> ToolchoiceError:
        return ToolchoiceError(f"--tool-choice: {message}", hint=hint)

    return scenario._replace(tool_choice=parse_tool_choice(value, scenario.tool_names, fail))


def provider_names(requested: Sequence[str] | None) -> list[str]:
    """--provider values split on commas (repeatable), blanks dropped, in the order given."""
    names: list[str] = []
    for item in requested or []:
        names.extend(part.strip() for part in item.split(",") if part.strip())
    return names


def selected_providers(requested: Sequence[str] | None, scenario: Scenario) -> list[str]:
    """--provider values (repeatable, comma lists, 'all'); default: the scenario's providers, else all."""
    names = provider_names(requested)
    if not names:
        if requested:  # -p "$PROVIDER" with the variable unset ran every provider, as -p left out does
            raise empty_providers()
        return list(scenario.providers) or list(PROVIDER_IDS)
    if "all" in names:  # every other name given is still checked: a typo beside 'all' is not dropped unsaid
        for name in names:
            if name != "all":
                check_provider(name)
        return list(PROVIDER_IDS)
    out: list[str] = []
    for name in names:
        check_provider(name)
        if name not in out:
            out.append(name)
    return out


def scenario_chose(requested: Sequence[str] | None, scenario: Scenario) -> str:
    """A title's part when -p was left out and the scenario's providers: section chose fewer than every provider
    (`init`'s starter names two: `compare scenario.yaml` showed openai and anthropic, and said nothing of why)."""
    if requested or not scenario.providers or len(scenario.providers) >= len(PROVIDER_IDS):
        return ""
    count = len(scenario.providers)  # "1 providers from its providers:" for a scenario naming one
    return f" · {count} provider{'' if count == 1 else 's'} from its providers: (-p all: all {len(PROVIDER_IDS)})"


def empty_providers(one: bool = False) -> ToolchoiceError:
    """-p given and holding no id (blank, or commas alone), as --model "" is refused."""
    return ToolchoiceError("-p is empty (an unset variable?)", hint="name the provider (-p openai)" if one else
                           "name a provider (-p openai), -p all for every one, or leave -p out")


def one_provider(requested: str, command: str, hint: str | None = None) -> str:
    """The single provider a command talks to; a comma list points to `compare`."""
    names = provider_names([requested])
    if len(names) > 1 or names == ["all"]:
        raise ToolchoiceError(f"{command} takes one provider, got '{requested}'",
                              hint=hint or f"use `toolchoice compare SCENARIO -p {requested} --send` for several")
    if not names:
        raise empty_providers(one=True)
    return check_provider(names[0])


def models_for(values: Sequence[str] | str | None, providers: Sequence[str]) -> dict[str, str | None]:
    """--model values -> provider -> model. ``PROVIDER=MODEL`` gives one provider its model; a bare
    value goes to every selected provider without one (a warning on stderr when that is several)."""
    if isinstance(values, str):
        values = [values]
    bare: list[str] = []
    per: dict[str, str] = {}
    for value in values or []:
        head, sep, tail = value.partition("=")
        if not value.strip() or (sep and head in CAPABILITIES and not tail.strip()):  # `--model "$MODEL"` unset: the
            # default model went out, said only by the ledger's info line (providers --model "" is refused so)
            raise ToolchoiceError(f"--model {value.strip() or repr(value)} names no model (an unset variable?)",
                                  hint="give a model id (--model ID or --model PROVIDER=ID), or leave --model out for "
                                       "each provider's default")
        if sep and not head.strip():
            raise ToolchoiceError(f"--model {value}: no provider before '='",
                                  hint="write --model MODEL for every selected provider, or --model PROVIDER=MODEL")
        if sep and head in CAPABILITIES:
            per[head] = tail
        elif sep and head and "/" not in head and ":" not in head:
            check_provider(head)  # an unknown id before '=': say so, with a suggestion
        else:
            bare.append(value)
            named, colon, model = value.partition(":")
            if colon and named in CAPABILITIES and model.strip():  # pydantic-ai's "anthropic:claude-..." spelling
                from .exits import warning_line

                warning_line(f"--model {value} is one model id here, '{named}:' and all; for {named}'s {model} write "
                             f"--model {named}={model}")
    if len(bare) > 1:
        raise ToolchoiceError(f"--model given {len(bare)} models without a provider ({', '.join(bare)})",
                              hint="write --model PROVIDER=MODEL for each provider")
    out: dict[str, str | None] = {p: per.get(p) for p in providers}
    unused = [f"{p}={m}" for p, m in per.items() if p not in providers]
    if unused:  # a model for a provider not selected goes nowhere: said, as a bare model given to several is
        from .exits import warning_line

        warning_line(f"--model {', '.join(unused)}: {'that provider is' if len(unused) == 1 else 'those are'} not "
                     f"selected (-p {','.join(providers)}): not used")
    if bare:
        rest = [p for p in providers if p not in per]
        for p in rest:
            out[p] = bare[0]
        if len(rest) > 1:
            from .exits import warning_line

            warning_line(f"--model {bare[0]} goes to {len(rest)} providers ({', '.join(rest)}); "
                         f"give each its own with --model PROVIDER=MODEL")
    return out


def check_base_url(base_url: str | None) -> None:
    """--base-url as the scenario's providers.<id>.base_url is checked (core/scenario.py): a URL no client can
    send to is bad input before anything is drawn, not a request rendered to it (or a refusal at send time)."""
    if base_url is None:
        return
    from toolchoice.providers.core.request_parts import http_url_fault

    fault = (f"{base_url}: {base_url!r} is an option's name, taken as the URL; write the URL right after "
             "--base-url", True) if base_url.startswith("-") else http_url_fault(base_url)  # as endpoint() says
    if fault:
        raise ToolchoiceError(f"--base-url {fault[0]}", hint="give scheme://host[:port]/path only" if fault[1]
                              else "write scheme://host[:port]/path, e.g. http://127.0.0.1:8000/v1")


def send_settings(timeout: float, retries: int, concurrency: int) -> Any:
    """--timeout, --retries and --concurrency as the jobs take them (``runner.SendSettings``). --timeout nan passes
    the option's range (it compares false with both ends): refused here in the option's own words, before the
    library's check of the settings would name them as a Python caller's (``settings.timeout``)."""
    from toolchoice.providers.core import runner
    from toolchoice.providers.core.transport import check_seconds

    check_seconds(timeout)
    return runner.SendSettings(timeout=timeout, retries=retries, concurrency=concurrency)


def warn_shared_base_url(base_url: str | None, providers: Sequence[str]) -> None:
    """One --base-url goes to every selected provider (a proxy that speaks them all takes that); when they are
    several, say so on stderr, as --model does: two local servers need providers.<id>.base_url each."""
    if base_url is not None and len(providers) > 1:
        from .exits import warning_line

        warning_line(f"--base-url goes to {len(providers)} providers ({', '.join(providers)}); to send each to its "
                     "own server, set providers.<id>.base_url in the scenario instead")


def capabilities_from(path: Path | None) -> dict[str, Capability] | None:
    """The built-in table, with a probe overlay file applied when one is given."""
    if path is None:
        return None
    from toolchoice.providers.core.overlay import load_overlay

    return load_overlay(path, CAPABILITIES)
