"""A tool file in an API's own format, as data: a provider module declares its family's (``TOOL_FILE``), and
``tool_import`` adds the formats that are no provider's (toolchoice's own list, an MCP ``tools/list`` result,
BFCL function docs). Light on purpose: the modules import it, ``render`` loads it with them."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple


class ToolFile(NamedTuple):
    """How a tool entry of one format looks and how it reads as a neutral tool."""

    format: str  # the format's id, as `toolchoice tools` and the notes say it ("openai-chat")
    title: str  # how the notes name a file of it ("OpenAI chat tools")
    source: str  # where its field names come from (the SDK's type file)
    marks: Callable[[dict[str, Any]], bool] | None = None  # an entry carries what only this format has
    short: str = ""  # how a message names one tool of it ("OpenAI chat" tool ...)
    schema_keys: tuple[str, ...] = ("parameters",)  # where its parameters' schema is, the first found
    schema_required: bool = False  # a tool without one is refused
    schema_hint: str | None = None  # the hint given then
    wrapper: str | None = None  # the key holding the function definition ({type: function, function: {...}})
    groups: tuple[str, ...] = ()  # keys of a list of declarations ({functionDeclarations: [...]})
    type_names: frozenset[str] = frozenset()  # schema type names only it uses: an entry with one is of this format
    convert: Callable[[dict[str, Any]], tuple[dict[str, Any], Any]] | None = None  # its schema → JSON Schema, changes
    convert_note: tuple[str, str] = ("", "")  # the ledger code and words for what convert changed
    strict: bool = False  # the tool's strict flag is read
    tool_fields: bool = False  # the newer per-tool fields (cache_control, input_examples, ...) are read
