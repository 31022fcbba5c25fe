"""A tool file in an API's own format, as data: a provider module declares its family's (``TOOL_FILE``), and
``tool_import_formats`` adds the formats that are no provider's (toolchoice's own list, an MCP ``tools/list`` result,
BFCL function docs). Light on purpose: the modules import it, ``render`` loads it with them."""

from __future__ import annotations

from typing import Any, Callable


class ToolFile:
    """How a tool entry of one format looks and how it reads as a neutral tool.
    (A plain class: a NamedTuple class costs ~0.2 ms of every command's start-up to create.)"""

    __slots__ = ('format', 'title', 'source', 'marks', 'short', 'schema_keys', 'schema_required', 'schema_hint',
                 'wrapper', 'groups', 'type_names', 'convert', 'convert_note', 'strict', 'tool_fields',
                 'field_spellings',)

    def __init__(self, format: str, title: str, source: str, *,
                 marks: Callable[[dict[str, Any]], bool] | None = None, short: str = "",
                 schema_keys: tuple[str, ...] = ("parameters",), schema_required: bool = False,
                 schema_hint: str | None = None, wrapper: str | None = None, groups: tuple[str, ...] = (),
                 type_names: frozenset[str] = frozenset(), convert: Callable[[dict[str, Any]],
                 tuple[dict[str, Any], Any]] | None = None, convert_note: tuple[str, str] = ("", ""),
                 strict: bool = False, tool_fields: bool = False,
                 field_spellings: dict[str, str] | None = None) -> None:
        self.format = format  # the format's id, as `toolchoice tools` and the notes say it ("openai-chat")
        self.title = title  # how the notes name a file of it ("OpenAI chat tools")
        self.source = source  # where its field names come from (the SDK's type file)
        self.marks = marks  # an entry carries what only this format has
        self.short = short  # how a message names one tool of it ("OpenAI chat" tool ...)
        self.schema_keys = schema_keys  # where its parameters' schema is, the first found
        self.schema_required = schema_required  # a tool without one is refused
        self.schema_hint = schema_hint  # the hint given then
        self.wrapper = wrapper  # the key holding the function definition ({type: function, function: {...}})
        self.groups = groups  # keys of a list of declarations ({functionDeclarations: [...]})
        self.type_names = type_names  # schema type names only it uses: an entry with one is of this format
        self.convert = convert  # its schema → JSON Schema, changes
        self.convert_note = convert_note  # the ledger code and words for what convert changed
        self.strict = strict  # the tool's strict flag is read
        self.tool_fields = tool_fields  # the newer per-tool fields (cache_control, input_examples, ...) are read
        self.field_spellings = field_spellings or {}  # its own spelling of a per-tool field -> the scenario's key
