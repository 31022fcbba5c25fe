"""The dialects of ``render`` and ``compare`` (``--dialect``): what a client library would put on each provider's
wire instead of the API request toolchoice builds. One row per dialect, its module loaded only when the dialect is
asked for, so the command line reaches every dialect the same way and ``render`` loads none by default.

A dialect's module has ``apply(translation, scenario, settings, rebuild) -> view`` (``rebuild(scenario, provider)``:
the API translation of a changed scenario with the command line's options, or None: the scenario's own); the view has ``translation`` (the
library's request, or none where it raises; the API ledger with the dialect's entries), ``api`` (the API
translation), ``label`` (the wrapper or route described, or None) and ``to_json()``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .error_keys import says_no_key
from .model import Scenario, ToolchoiceError, Translation
from .sent_choice import ABSENT, at

API = "api"  # no dialect: the API requests as toolchoice builds them

# Every command's options read NAMES (cli/options.py), so this module is part of every start-up: its records are
# plain slotted classes, not NamedTuples (each compiles its __new__ at import), and the Protocol is for type checkers
# only: a cold `render -f json` counts 0.38M instructions fewer (bench/README.md "Range 993dd89..main").
if TYPE_CHECKING:
    from typing import Protocol

    class DialectView(Protocol):
        translation: Translation
        api: Translation

        @property
        def label(self) -> str | None: ...

        def to_json(self) -> dict[str, Any]: ...


class Setting:
    """A library setting a scenario's dialect may need, and the command-line flag that gives it."""

    __slots__ = ("name", "flag")

    def __init__(self, name: str, flag: str) -> None:
        self.name, self.flag = name, flag


class Dialect:
    """One row of the table."""

    __slots__ = ("name", "module", "library", "label_column", "missing_label", "sends", "settings")

    def __init__(self, name: str, module: str, library: str, label_column: str, missing_label: str, sends: str,
                 settings: tuple[str, ...] = ()) -> None:
        self.name = name
        self.module = module  # under toolchoice.providers; imported when the dialect is used
        self.library = library  # the library's name in messages ("LangChain")
        self.label_column = label_column  # compare's column naming the wrapper or route
        self.missing_label = missing_label  # the pretty title's words when no wrapper or route is described
        self.sends = sends  # compare's title: "as LangChain's bind_tools sends it"
        self.settings = settings  # the Setting names it takes


SETTINGS: dict[str, Setting] = {"drop_params": Setting("drop_params", "--drop-params"),
                                "active_tools": Setting("active_tools", "--active-tools")}

DIALECTS: dict[str, Dialect] = {
    "langchain": Dialect("langchain", "langchain_dialect", "LangChain", "langchain wrapper", "(no wrapper)",
                         "as LangChain's bind_tools sends it"),
    "litellm": Dialect("litellm", "litellm_dialect", "LiteLLM", "litellm route", "(no route)",
                       "as litellm.completion sends it", ("drop_params",)),
    "openai-agents": Dialect("openai-agents", "openai_agents_dialect", "openai-agents", "openai-agents model",
                             "(no route)", "as the openai-agents Runner sends it first"),
    "vercel": Dialect("vercel", "vercel_dialect", "the AI SDK", "ai-sdk model", "(no package)",
                      "as the AI SDK's generateText sends it", ("active_tools",)),
    "pydantic-ai": Dialect("pydantic-ai", "pydantic_ai_dialect", "pydantic-ai", "pydantic-ai model", "(no model class)",
                           "as a pydantic-ai Agent sends it first"),
}
NAMES: tuple[str, ...] = (API, *DIALECTS)


def dialect(name: str) -> Dialect | None:
    """The dialect called ``name`` (None for ``api``); an unknown name is bad input."""
    if name == API:
        return None
    found = DIALECTS.get(name)
    if found is None:
        raise _unknown(name, "not a dialect", NAMES)
    return found


def _unknown(name: Any, said: str, names: Sequence[str]) -> ToolchoiceError:
    """``name`` is no dialect: the command line's words name --dialect, a Python caller's the dialect
    (``dialects.apply``'s ``name``)."""
    from .errors import named

    return named(("", f" {name!r}: {said}"), "one of " + ", ".join(names), names=("dialect",))


def check_settings(name: str, settings: Mapping[str, Any]) -> None:
    """A setting given for a dialect that does not take it is bad input, named by its flag."""
    from .errors import named

    taken = DIALECTS[name].settings if name in DIALECTS else ()
    for key in settings:
        if key not in SETTINGS:  # a Python caller's key (the command line's options are these)
            raise named((f"settings[{key!r}]: not a dialect setting",), "one of " + ", ".join(SETTINGS), names=())
        if key not in taken:
            takers = [d.name for d in DIALECTS.values() if key in d.settings]
            # the command line says --drop-params and --dialect; a Python caller the settings key and the dialect
            raise named(("", " is a setting of ", f" {' / '.join(takers)}"), "add ", f" {takers[0]}, or drop ", "",
                        names=(key, "dialect", "dialect", key), spelling={key: f"settings[{key!r}]"})


Rebuild = Callable[[Scenario, str], Translation]


@says_no_key
def apply(name: str, translations: Sequence[Translation], scenario: Scenario,
          settings: Mapping[str, Any] | None = None, rebuild: Rebuild | None = None) -> list[DialectView]:
    """Each API translation redone in the dialect ``name`` (not ``api``): what the client library would send instead
    (docs/python.md, "Dialects"). ``settings``: the dialect's settings by name (``{"drop_params": True}``)."""
    from . import call_args

    if not isinstance(name, str):
        raise call_args.wrong("name", "a dialect's name (str)", name, "one of " + ", ".join(DIALECTS))
    if name not in DIALECTS:  # "api" too: the translations are the API's requests already
        raise _unknown(name, "the API requests themselves" if name == API else "not a dialect", list(DIALECTS))
    translations, scenario = call_args.translation_list(translations), call_args.scenario_arg(scenario)
    if settings is not None and not isinstance(settings, Mapping):
        raise call_args.wrong("settings", "a mapping of dialect settings (e.g. {\"drop_params\": True}) or None",
                              settings)
    settings = dict(settings or {})
    check_settings(name, settings)
    for key, value in settings.items():  # each of its type, as a Python caller may get one wrong
        call_args.dialect_setting(key, value)
    row = DIALECTS[name]
    module = import_module(f"toolchoice.providers.{row.module}")
    return [extra_choice(module.apply(t, scenario, settings, rebuild), scenario, row, module.extra_route)
            for t in translations]


def rendered(name: str, scenario: Scenario, providers: Sequence[str] | None = None, options: Any = None, *,
             models: Mapping[str, str | None] | None = None, capabilities: Mapping[str, Any] | None = None,
             settings: Mapping[str, Any] | None = None, shown: bool = True,
             rebuild: Rebuild | None = None) -> tuple[list[Translation], list[DialectView] | None]:
    """`render`'s job, dialect or not: the scenario's requests for display (``jobs.render``; ``shown`` False:
    ``jobs.translations``, as ``--snapshot`` keeps them) and, for a dialect (not ``api``), each redone in it
    (``apply``), with the views: (the translations, the views or None). ``rebuild``: how a changed scenario is
    translated for one provider (default: the same job with the same options, models and overlay)."""
    from . import jobs
    from .model import RenderOptions

    options = options if options is not None else RenderOptions()
    job = jobs.render if shown else jobs.translations
    translations = job(scenario, providers, options, models=models, capabilities=capabilities)
    if name == API:
        return translations, None
    views = apply(name, translations, scenario, settings,
                  rebuild or rebuilder(options, models=models, capabilities=capabilities, shown=shown))
    return [v.translation for v in views], views


def rebuilder(options: Any, *, models: Mapping[str, str | None] | None = None,
              capabilities: Mapping[str, Any] | None = None, shown: bool = True) -> Rebuild:
    """How a dialect translates a changed scenario for one provider (``apply``'s ``rebuild``): the same job with the
    same options, models and overlay as the translations it redoes."""
    def rebuild(scenario: Scenario, provider: str) -> Translation:
        from . import jobs

        return (jobs.render if shown else jobs.translations)(scenario, [provider], options, models=models,
                                                             capabilities=capabilities)[0]

    return rebuild


# ---- the tool choice providers.<id>.extra writes --------------------------------------------------------------

def _text(value: Any) -> str:
    from .model import compact

    return "nothing" if value is ABSENT else compact(value)[:160]


def extra_choice(view: Any, scenario: Scenario, row: Dialect, route: Callable[[Any], tuple[bool | None, str]]) -> Any:
    """``view`` with the tool choice ``providers.<id>.extra`` writes where the library's own stands: the API
    request sends extra's (core/sent_choice.py, ledger ``tool_choice.from_extra``), and so does the library where
    its way of passing extra (``route(view)``: (replaces, how), from the dialect's module, run against the real
    library on the mock where it says so) merges it over the body it builds; where that way puts it elsewhere or
    drops it, the library's choice stays and the ledger says so (``dialect.extra_choice`` either way)."""
    t = view.translation
    extra = scenario.settings_for(t.provider).extra
    if not extra or t.request is None:
        return view
    from .model import LedgerEntry

    path = t.choice_path  # where the translator put the choice (core/translation.finish's choice_path)
    written, own = at(extra, path), at(t.request.body, path)
    if written is ABSENT or written == own:
        return view
    replaces, how = route(view)
    field, where = ".".join(path), f"providers.{t.provider}.extra"
    if replaces is False:
        entry = LedgerEntry("warning", "dialect.extra_choice",
                            f"{field}: {where} writes {_text(written)}, the API request's choice; {how}: "
                            f"{row.library} sends its own {_text(own)}")
        return view._replace(translation=t._replace(ledger=[*t.ledger, entry], sent_choice=None))
    body = _copy(t.request.body)
    node = body
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    node[path[-1]] = written
    api_body = view.api.request.body if view.api.request is not None else None
    ledger = [e for e in t.ledger if not _settled(e, path, body, api_body)]
    said = (f"{field}: {row.library} sends {_text(written)}, as {where} writes it, in place of its own {_text(own)} "
            f"({how})")
    if replaces is None:
        said += "; not run against the library for this route: shown as the API request merges extra"
    ledger.append(LedgerEntry("info" if replaces else "warning", "dialect.extra_choice", said))
    return view._replace(translation=t._replace(request=t.request._replace(body=body), effective_tool_choice=written,
                                                ledger=ledger, sent_choice=view.api.sent_choice))


def _copy(body: dict[str, Any]) -> dict[str, Any]:
    import json

    return json.loads(json.dumps(body))  # JSON data only


def _settled(entry: Any, path: tuple[str, ...], body: dict[str, Any], api_body: dict[str, Any] | None) -> bool:
    """A dialect.differs entry about a field on the choice's ``path`` (the field itself or one that holds it) that
    the body now sends as the API request does."""
    if entry.code != "dialect.differs" or api_body is None:
        return False
    parts = tuple(entry.message.split(":", 1)[0].split("."))
    if not parts or path[:len(parts)] != parts:
        return False
    return at(body, parts) == at(api_body, parts)
