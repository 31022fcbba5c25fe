"""What one row of the support table is (core/capabilities.py holds the rows): the levels of support, a choice's
support and wire template, what an API does with a tool_choice and no tools, its tool-count limit, the row itself.
"""

from enum import Enum
from typing import Any, NamedTuple

from .body_limits import BodyLimit
from .family_marks import NONE, Marks

class Level(str, Enum):
    NATIVE = "native"  # the provider has this, under the same name
    RENAMED = "renamed"  # same meaning, the provider's own word (e.g. required -> "any")
    EMULATED = "emulated"  # approximated (filtered tools, dropped field, other mode); lossy
    UNSUPPORTED = "unsupported"  # cannot be expressed; sent without it (warning) or refused

    @property
    def mark(self) -> str:
        return {"native": "✔", "renamed": "→", "emulated": "≈", "unsupported": "✘"}[self.value]


class Support(NamedTuple):
    level: Level
    wire: str = ""  # the wire template (see the module's docstring): what translators send and people read
    note: str = ""

    @property
    def usable(self) -> bool:
        return self.level in (Level.NATIVE, Level.RENAMED)


def _n(wire: str, note: str = "") -> Support:
    return Support(Level.NATIVE, wire, note)


def _r(wire: str, note: str = "") -> Support:
    return Support(Level.RENAMED, wire, note)


def _e(wire: str, note: str = "") -> Support:
    return Support(Level.EMULATED, wire, note)


def _u(wire: str = "", note: str = "") -> Support:
    return Support(Level.UNSUPPORTED, wire, note)


class WithoutTools(NamedTuple):
    """What an API's own source says it does with a tool_choice sent while no tools are declared: the choices
    (plan modes: auto, none, required, named, allowed) it refuses, with its words, or what it does instead
    (``takes``); the dated fact (core/facts.py) quotes the source. A row without one: no source was found, and
    the choice is sent as written."""

    fact: str
    refused: frozenset[str] = frozenset()
    words: str = ""  # the API's error message, when it refuses
    takes: str = ""  # what the source says happens instead, when it takes the choice
    param: str | None = None  # the field the recorded 400's envelope names (its "param"), where the fact quotes it
    # the words are this API's own 400, recorded from it for this case (its fact quotes the body): the mock's 400
    # carries them (core/refusal_words.api_refusal), the translator's line stays a finding. False: the words were
    # recorded elsewhere (Anthropic's through Bedrock) or for another case (Bedrock's for an empty list), or the
    # family answers in its own module (openai_chat_mock.WITHOUT_TOOLS)
    recorded: bool = False


class ToolLimit(NamedTuple):
    """The most entries an API's own source says one request's tool array may hold (a recorded 400 quoting it, or
    the API's documents): past it the API refuses the request, so render and send refuse it first and the mock
    answers with ``words``. ``path`` walks the wire body to the array: a key, ``*`` for every member of a list
    (its index fills ``{index}``), ``a|b`` for either spelling. A row without one: no source states a limit."""

    fact: str
    most: int
    path: tuple[str, ...]
    words: str  # the API's error message; {count} (the array's length) and {index} filled in

    def over(self, body: Any) -> tuple[int, str] | None:
        """(the array's length, the API's words) for the first array in ``body`` longer than ``most``; else None."""
        for index, array in _arrays(body, self.path, 0):
            if len(array) > self.most:
                return len(array), self.words.format(count=len(array), index=index)
        return None


def _arrays(value: Any, path: tuple[str, ...], index: int, found: list[tuple[int, list[Any]]] | None = None
            ) -> list[tuple[int, list[Any]]]:
    """The lists at ``path`` under ``value`` with the index of the last ``*`` passed (ToolLimit.path), in order
    (a list: no generator per step, on every request of a provider with a limit)."""
    if found is None:
        found = []
    if not path:
        if isinstance(value, list):
            found.append((index, value))
        return found
    step, rest = path[0], path[1:]
    if step == "*":
        if isinstance(value, list):
            for i, member in enumerate(value):
                _arrays(member, rest, i, found)
        return found
    if isinstance(value, dict):
        for key in step.split("|"):
            if key in value:
                _arrays(value[key], rest, index, found)
                break
    return found


FEATURES: tuple[str, ...] = ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict")


class Capability(NamedTuple):
    provider: str
    title: str
    endpoint: str  # default URL (may contain {model} / {deployment} / {region})
    key_env: tuple[str, ...]  # env vars for the key, first wins; () = no key
    default_model: str
    auto: Support
    none: Support
    required: Support
    any: Support
    named: Support
    allowed: Support
    parallel: Support
    strict: Support
    arguments: str  # how replies encode tool-call arguments: "string" (JSON text) or "object"
    sources: tuple[str, ...]
    verified: str = ""  # ISO date the row was last checked against its sources (tests require one)
    measured: str = ""  # set when a probe overlay replaced built-in facts: where and when
    measured_endpoint: str = ""  # the URL the overlay was measured at; it applies to that endpoint only
    module: str = "openai_chat"  # the provider's module in toolchoice.providers: everything else it needs is there
    # a named tool_choice yields exactly one call (no parallel extras) whatever else is sent: no row has a source for
    # it (Anthropic's {type: tool} gives 'exactly one tool use' only with disable_parallel_tool_use: true, anthropic
    # types/tool_choice_tool_param.py; Gemini's ANY limits 'the predicted function calls'); the three rows that
    # set it until 2026-11-26 no longer do
    named_single_call: bool = False
    without_tools: WithoutTools | None = None  # what a source says the API does with tool_choice and no tools
    tool_limit: ToolLimit | None = None  # the most tools a source says one request may declare
    # what a source says the API takes in one tool's fields and in strict schemas (core/body_limits.py)
    body_limits: tuple[BodyLimit, ...] = ()
    # the model ids' family words (`gpt` in gpt-4o; the letters and one digit before the first '-': o1, o3): a model
    # id given as the provider (-p gpt-4o) is hinted `-p <this row> -m gpt-4o` (provider_hint); one row each
    model_prefixes: tuple[str, ...] = ()
    # other names people give this API (-p claude, -p hf, -p azure-openai), in letters and digits only: "did you mean"
    other_names: tuple[str, ...] = ()
    marks: Marks = NONE  # what the shared path reads of this provider without importing it (core/family_marks.py)

    def feature(self, name: str) -> Support:
        return getattr(self, name)

    def with_feature(self, name: str, support: Support) -> "Capability":
        return self._replace(**{name: support})
