"""Which module translates and parses each provider id; modules are imported only when used,
so rendering one provider loads one translator."""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any, Iterator

from .call_args import render_options, scenario_arg  # a caller's wrong type: one error naming it (imported here,
# not in translate: a relative import in a function costs ~1.5 us a call, ModuleSpec.parent read in Python)
from .capabilities import CAPABILITIES, FEATURES, PROVIDER_IDS, Capability, provider_hint
from .error_keys import says_no_key
from .model import LedgerEntry, RenderOptions, Reply, Scenario, ToolchoiceError, Translation

def check_provider(provider: str) -> str:
    if not isinstance(provider, str):
        from .model import WrongArgument

        raise WrongArgument(f"provider: give a provider id (str), not {'None' if provider is None else type(provider).__name__}",
                            hint=f"providers: {', '.join(PROVIDER_IDS)}")
    if provider not in CAPABILITIES:
        hint = provider_hint(provider)
        if provider == "all":  # the command line's word (-p all), not an id: the Python API takes the ids
            hint = ("'all' is the command line's word; in Python pass toolchoice.providers.core.capabilities."
                    "PROVIDER_IDS (every provider id)")
        raise ToolchoiceError(f"unknown provider '{provider}'", hint=hint)
    return provider


@functools.lru_cache(maxsize=None)
def module_for(provider: str) -> ModuleType:
    """The provider's module, named by its capability row (imported on first use; remembered, since
    import_module's lookup would otherwise run on every translation)."""
    return importlib.import_module(f"toolchoice.providers.{CAPABILITIES[check_provider(provider)].module}")


def family_modules() -> Iterator[ModuleType]:
    """Every provider module, in the order the rows first name them, each imported when reached (a
    caller that stops early imports only the modules it asked)."""
    for name in dict.fromkeys(cap.module for cap in CAPABILITIES.values()):
        yield importlib.import_module(f"toolchoice.providers.{name}")


def reasoning_families() -> tuple[str, ...]:
    """The reasoning families a scenario may name (each provider module's ``REASONING_FAMILY``)."""
    return tuple(dict.fromkeys(module.REASONING_FAMILY for module in family_modules()))


def reasoning_text_keys() -> dict[str, str]:
    """Assistant-message keys a scenario may write a family's reasoning text under, as that API returns it (each
    module's ``REASONING_TEXT_KEYS``) → the family (``REASONING_FAMILY``)."""
    return {key: module.REASONING_FAMILY for module in family_modules()
            for key in getattr(module, "REASONING_TEXT_KEYS", ())}


def tool_files() -> list[Any]:
    """The tool-file formats the provider families declare (each module's ``TOOL_FILE``, ``tool_file.ToolFile``),
    for ``tool_import``."""
    return [module.TOOL_FILE for module in family_modules() if getattr(module, "TOOL_FILE", None) is not None]


def custom_tool_takers() -> list[tuple[str, str]]:
    """(provider id, how to say it) for every provider whose module takes custom (free-text) tools."""
    return [(pid, words) for module in family_modules() for pid, words in getattr(module, "CUSTOM_TOOLS", {}).items()]


def tool_field_takers(key: str, kind: str = "function") -> list[str]:
    """The provider ids whose tool type of this ``kind`` has the per-tool field ``key`` (their module's
    ``TOOL_FIELDS``; for a custom tool, ``CUSTOM_TOOL_FIELDS`` of the providers in its ``CUSTOM_TOOLS``)."""
    if kind == "custom":
        return sorted(pid for module in family_modules() for pid in getattr(module, "CUSTOM_TOOLS", {})
                      if key in getattr(module, "CUSTOM_TOOL_FIELDS", ()))
    return sorted(pid for pid in PROVIDER_IDS if key in getattr(module_for(pid), "TOOL_FIELDS", ()))


def native_tool_takers(kind: str) -> list[str]:
    """The provider ids whose module renders the hosted tool ``kind`` (its ``NATIVE_TOOLS``; core/native_tools.py)."""
    return sorted(pid for pid in PROVIDER_IDS if kind in getattr(module_for(pid), "NATIVE_TOOLS", {}))


def error_envelopes() -> list[Any]:
    """Every provider module's error body forms (``ERROR_ENVELOPES``, ``error_envelope.ErrorEnvelope``), in the
    order the rows first name the modules: ``reply.py`` reads each form whoever answered."""
    return [envelope for module in family_modules() for envelope in getattr(module, "ERROR_ENVELOPES", ())]


def call_signatures() -> dict[str, str]:
    """The reasoning families whose API signs its function calls (``ToolCall.signature``) → what the signatures are
    called (each module's ``CALL_SIGNATURES``: Gemini's thought signatures)."""
    return {module.REASONING_FAMILY: module.CALL_SIGNATURES for module in family_modules()
            if getattr(module, "CALL_SIGNATURES", None)}


def tool_change_ways() -> list[str]:
    """How the APIs whose module lets a loop's tools change without breaking the thinking's prefix do it (each
    module's ``TOOL_CHANGES_WAY``: Anthropic's beta), for ``loop_lint``'s way out."""
    return [module.TOOL_CHANGES_WAY for module in family_modules() if getattr(module, "TOOL_CHANGES_WAY", None)]


def empty_turn_content(provider: str) -> tuple[str, str] | None:
    """What an assistant turn with tool calls and no text carries back in the history for this provider, and
    the ledger's words for it (its module's ``EMPTY_TURN_CONTENT``); None: the turn goes back as the reply was."""
    return getattr(module_for(provider), "EMPTY_TURN_CONTENT", None) if provider in CAPABILITIES else None


def traced_name_note(provider: str, recorded: str) -> str:
    """Why a trace's provider name ``recorded`` is ``provider``'s API, where its module says (``TRACED_NAMES``: a
    part of the name, and the words), or ""; for trace_scenario's ``trace.provider_mapped``."""
    names = getattr(module_for(provider), "TRACED_NAMES", ()) if provider in CAPABILITIES else ()
    return next((why for part, why in names if part in recorded), "")


@says_no_key  # a key pasted where the provider id or a tool name goes is named by its placeholder (docs/python.md)
def translate(provider: str, scenario: Scenario, options: RenderOptions = RenderOptions(),
              capabilities: dict[str, Capability] | None = None) -> Translation:
    """Scenario → request + ledger for one provider. ``capabilities`` may overlay measured facts;
    an overlay measured at another endpoint than this request's is not applied (the ledger says so)."""
    module = module_for(check_provider(provider))
    scenario, options = scenario_arg(scenario), render_options(options, sendable=False)
    cap = (capabilities or CAPABILITIES).get(provider, CAPABILITIES[provider])
    choice = scenario.tool_choice
    if choice is not None and choice.native is not None:
        refused = _native_refused(provider, scenario, options, module, cap, choice)
        if refused is not None:
            return refused
        return module.translate(provider, scenario, options, cap)
    if not cap.measured_endpoint:
        translation = module.translate(provider, scenario, options, cap)
        others = [p for p, c in capabilities.items() if c.measured_endpoint] if capabilities else []
        if others:  # an overlay given for another provider: this request used the built-in facts
            translation.ledger.append(LedgerEntry("info", "capabilities.overlay_skipped",
                                                  f"the capability overlay is {', '.join(others)}'s, not {provider}'s: "
                                                  "built-in facts used"))
        return translation
    built_in = module.translate(provider, scenario, options, CAPABILITIES[provider])
    url = built_in.request.url.split("?")[0] if built_in.request else None
    measured = _scheme_host_folded(cap.measured_endpoint.split("?")[0])
    if options.stream and built_in.request:  # an overlay is measured non-streamed: compare that endpoint
        plain = module.translate(provider, scenario, options._replace(stream=False), CAPABILITIES[provider]).request
        url = plain.url.split("?")[0] if plain else url
    if url is not None and _scheme_host_folded(url) == measured:
        return module.translate(provider, scenario, options, cap)
    built_in.ledger.append(LedgerEntry("info", "capabilities.overlay_skipped",
                                       f"the capability overlay was measured at {cap.measured_endpoint}, not at "
                                       f"{url or 'this endpoint'}: built-in facts used"))
    return built_in


def _scheme_host_folded(url: str) -> str:
    """The URL with its scheme and host in lower case (RFC 3986 6.2.2.1: they are case-insensitive; a path is not),
    so an overlay applies to its endpoint however the base URL spells them."""
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{authority.lower()}{slash}{path}" if sep else url


def _native_refused(provider: str, scenario: Scenario, options: RenderOptions, module: Any, cap: Capability,
                    choice: Any) -> Translation | None:
    """A provider-native tool_choice (``choice.NATIVE_FORMS``) goes only where the module takes it
    (``NATIVE_CHOICES``); anywhere else the request is refused with the reason, and the rest of the ledger is
    that of the scenario without the choice: nothing is planned for a choice that is not sent (no forcing
    notes, no model rules about forced tool use)."""
    from .choice import native_refusal

    why = native_refusal(choice, getattr(module, "NATIVE_CHOICES", ()), cap.title)
    if why is None:
        return None
    translation = module.translate(provider, scenario._replace(tool_choice=None), options, cap)
    ledger = [e for e in translation.ledger if e.code != "tool_choice.unset"]
    ledger.append(LedgerEntry("error", "tool_choice.unsupported", why))
    return translation._replace(requested_tool_choice=choice.to_json(), request=None, effective_tool_choice=None,
                                ledger=ledger)


@says_no_key
def parse_reply(provider: str, body: Any) -> Reply:
    """A provider's success response body → normalized Reply."""
    return module_for(check_provider(provider)).parse_reply(provider, body)


def matrix_rows() -> list[dict[str, object]]:
    """The support matrix as plain rows (for `toolchoice providers --format json` and the README); each row
    also lists the ledger codes its module writes beyond the shared ones, with what each means (the
    module's ``LEDGER_CODES``; the module's tests trigger every code it declares)."""
    from .facts import facts_for  # only `providers` and the stale-facts report read the dated facts
    from .model_rules import RULES  # facts per model family, matched on the model id

    rows = []
    for cap in CAPABILITIES.values():
        row: dict[str, object] = {"provider": cap.provider, "title": cap.title}
        for feature in FEATURES:
            s = cap.feature(feature)
            row[feature] = {"level": s.level.value, "wire": s.wire, "note": s.note}
        row["arguments"] = cap.arguments
        row["sources"] = list(cap.sources)
        row["verified"] = cap.verified
        if cap.measured:
            row["measured"] = cap.measured
        row["facts"] = [f.to_json() for f in facts_for(cap.provider)]
        row["model_rules"] = [r.to_json() for r in RULES if cap.provider in r.providers]
        row["module"] = cap.module
        row["ledger_codes"] = dict(module_for(cap.provider).LEDGER_CODES)  # beyond the shared tool_choice.* codes
        rows.append(row)
    return rows


@functools.lru_cache(maxsize=None)
def mock_family(provider: str) -> ModuleType:
    """The family's mock module (``providers/<module>_mock.py``), for ``toolchoice mock`` / ``proxy``: it reads the
    API's request bodies back and writes its replies (``MOCK_BASE_PATH``, ``mock_route``, ``mock_read``,
    ``mock_reply``, ``mock_events``, ``mock_error``). Beside the translator, so `render` never loads it."""
    name = f"toolchoice.providers.{CAPABILITIES[check_provider(provider)].module}_mock"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise ToolchoiceError(f"toolchoice mock does not serve {provider}'s API yet", hint=f"no module {name}") from None
