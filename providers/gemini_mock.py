"""Gemini generateContent: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

import re
from typing import Any

from .core.model import HistoryCall, LedgerEntry, Message, ProviderSettings, ReasoningItem, ThinkingSetting


MOCK_BASE_PATH = ""  # google-genai's http_options base_url: it adds /v1beta (or /v1) itself
_MOCK_ROUTE = re.compile(r"/(v1|v1beta|v1alpha)/models/([^/:]+):(generateContent|streamGenerateContent)")
# The headers the client hands an MCP server (google-genai 3.6.1 types.McpServer.streamable_http_transport,
# StreamableHttpTransport.headers: dict[str, str]), in the JSON spelling and the proto field spelling the API also
# reads: never kept (core/mock/body_secrets.py)
MOCK_SECRETS = tuple(("tools", "*", servers, "*", transport, *where) for servers in ("mcpServers", "mcp_servers")
                     for transport in ("streamableHttpTransport", "streamable_http_transport")
                     for where in (("headers", "*"), ("url", "@url")))  # @url: a URL's user info, query, fragment
_MOCK_KNOWN = frozenset({"contents", "tools", "toolConfig", "tool_config", "systemInstruction", "system_instruction",
                         "generationConfig", "generation_config", "model"})
# GenerateContentRequest's fields and its messages' (gemini/request_fields.py; fact gemini.unknown_field_words): a
# field a message has not is the API's 400 on /v1beta and /v1; on /v1alpha, whose field list no source read gives,
# it passes unjudged
_FIELDS_READ = ("v1beta", "v1")
# a line of the protobuf JSON parser's refusal of a field: its google.rpc.BadRequest fieldViolation (mock_error)
# one line of the refusal of unknown fields; the name is as sent (a '"' or a newline in it too), so a line ends where
# ': Cannot find field.' is followed by the next line or the end
_UNKNOWN_LINE = re.compile(r"Invalid JSON payload received\. Unknown name \"(.*?)\"(?: at '(?P<field>[^'\n]*)')?: "
                           r"(?:Cannot find field|Proto field is not repeating, cannot start list)\.(?=\n|\Z)",
                           re.DOTALL)
# a value the field's proto type cannot hold (request_fields._values): 'Invalid value at 'PLACE' (PROTO), VALUE', its
# fieldViolation's field PLACE (zereight/gitlab-mcp#166: the whole body with its details)
_VALUE_LINE = re.compile(r"Invalid value at '(?P<field>[^'\n]*)' \((?:TYPE_STRING|type\.googleapis\.com/google\.ai\."
                         r"generativelanguage\.v1beta\.Type)\), [^\n]*(?=\n|\Z)")
_MOCK_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
                504: "DEADLINE_EXCEEDED"}


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    """POST /v1beta/models/M:generateContent (google-genai 3.x also posts to /v1/...), :streamGenerateContent."""
    match = _MOCK_ROUTE.fullmatch(path)
    if method != "POST" or match is None:
        return None
    return {"model": match.group(2), "stream": match.group(3) == "streamGenerateContent", "version": match.group(1)}


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """A generateContent body → MockRead: function declarations, functionCallingConfig, the contents (calls with
    their thoughtSignature, responses, thought parts) and thinkingConfig."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.read_prefix import read_on
    from .core.mock.reading import blocks_text, read_tools, unjudged

    contents = body.get("contents")
    if not isinstance(contents, list):  # an OpenAI body (messages, tool_choice): its fields are what the API names
        raise MockMalformed(_unknown_fields(body, route)[0] or "* GenerateContentRequest.contents: contents is not "
                            "specified")
    groups = body.get("tools") or []
    if not isinstance(groups, list):
        raise MockMalformed("Invalid JSON payload received. Unknown name \"tools\": expected a list.")
    declarations, other, servers = [], [], []
    for index, group in enumerate(groups):
        if isinstance(group, dict):
            found = group.get("functionDeclarations", group.get("function_declarations"))
            if isinstance(found, list):
                declarations.extend(found)
            servers.extend(_checked_servers(group.get("mcpServers", group.get("mcp_servers")), f"tools[{index}]"))
            other.extend(f"tools[].{key}" for key in group if key not in _MOCK_READ_TOOL_KEYS)
    tools, read_notes = read_tools([{"functionDeclarations": declarations}] if declarations else None, "gemini")
    config = body.get("toolConfig", body.get("tool_config"))
    calling = config.get("functionCallingConfig", config.get("function_calling_config")) \
        if isinstance(config, dict) else None
    value = calling
    if isinstance(calling, dict):
        mode = str(calling.get("mode", "")).upper()
        names_value = calling.get("allowedFunctionNames", calling.get("allowed_function_names"))
        if mode in ("VALIDATED", "MODE_UNSPECIFIED", ""):  # VALIDATED: auto that validates calls
            value = {"mode": "AUTO", "allowedFunctionNames": names_value} if names_value else {"mode": "AUTO"}
        else:
            value = {"mode": mode, **({"allowedFunctionNames": names_value} if names_value is not None else {})}

    unknown: str | None = None
    notes: tuple[LedgerEntry, ...] = ()

    def read(state: _ContentsRead, contents: list[Any], start: int) -> None:
        nonlocal unknown, notes  # the fields no message has, the contents' walked on from the earlier ones'
        unknown, found, state.fields = _unknown_fields(body, route, start, state.fields)
        notes = (*found, *read_notes)
        state.read(contents, start, lambda history: MockRead(calling, tools, tuple(history), choice_value=value,
                                                             notes=notes, model=route.get("model")))

    state = read_on(("gemini", route.get("model"), route.get("version")), contents, _ContentsRead, read)
    history = state.history
    generation = body.get("generationConfig", body.get("generation_config"))
    generation = generation if isinstance(generation, dict) else {}
    thinking = generation.get("thinkingConfig", generation.get("thinking_config"))
    spec = None
    if isinstance(thinking, dict):
        budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
        level = thinking.get("thinkingLevel", thinking.get("thinking_level"))
        if budget == 0:
            spec = ThinkingSetting("off")
        elif isinstance(level, str):
            spec = ThinkingSetting("on", effort=level.lower())
        elif isinstance(budget, int) and budget > 0:
            spec = ThinkingSetting("on", budget=budget)
    settings = ProviderSettings(temperature=generation.get("temperature"),
                                max_tokens=generation.get("maxOutputTokens", generation.get("max_output_tokens")),
                                thinking=None if spec is None else spec.mode != "off", thinking_mode=spec)
    from .core.choices import max_choices

    count = generation.get("candidateCount", generation.get("candidate_count"))  # google-genai 3.6.1 candidate_count
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= max_choices()):
        other, count = [*other, "generationConfig.candidateCount"], 1  # named: passed unjudged, one answered
    native = _mock_servers(servers)
    if native and not tools and isinstance(value, dict) and value.get("mode") == "ANY":
        notes = (*notes, _native_unanswered(native))
    shape = _choice_shape(calling)
    if shape is not None and unknown is not None and "at 'tool_config.function_calling_config'" in unknown:
        notes, shape = (*notes, shape), None  # the API's words for the field; toolchoice's line naming the SDK type a
        # finding
    ruled = _schema_rules(body, route) if unknown is None else None
    if ruled is not None:
        notes = (*notes, ruled[1])
    refusal = unknown or (ruled and ruled[0]) or _mock_unsigned(state.unsigned, route.get("model") or "")
    if refusal is None and state.parts_differ:  # said as the translator says it
        refusal = _mock_parts_count()
        notes = (*notes, LedgerEntry("error", "history.missing_tool_result", str(refusal)))
    return MockRead(calling, tools, tuple(history), settings, route.get("stream", False), route.get("model"),
                    choice_value=value, unjudged=unjudged(body, _MOCK_KNOWN | _refused(body, route))
                    + tuple(sorted(set(other))), notes=notes,
                    thinking=spec is None or spec.mode != "off", choices=count or 1,
                    refusal=refusal, native_tools=native, native_answers=False,
                    system=blocks_text(body.get("systemInstruction", body.get("system_instruction"))),
                    shape=shape)


class _ContentsRead:
    """What ``mock_read`` carries from content to content (the history, the calls' names, the calls no response
    answered yet, whether a turn of calls was followed by another number of responses, the first unsigned call of
    the current turn, the fields no message has in them: request_fields.judged_on), read on from a copy where a later request's contents start with an earlier one's
    (core/mock/read_prefix.py)."""

    __slots__ = ("history", "names", "open_calls", "parts_differ", "unsigned", "fields")

    def __init__(self) -> None:
        self.history: list[Message] = []
        self.names: dict[str, str] = {}
        self.open_calls: list[HistoryCall] = []
        self.parts_differ = False  # _mock_parts_count
        self.unsigned: tuple[int, Any] | None = None  # _mock_unsigned: (place, name) in the turn after the user's text
        self.fields: Any = []  # _unknown_fields' findings in the contents

    def copy(self) -> _ContentsRead:
        other = _ContentsRead()
        other.history, other.names, other.open_calls = list(self.history), dict(self.names), list(self.open_calls)
        other.parts_differ, other.unsigned, other.fields = self.parts_differ, self.unsigned, list(self.fields)
        return other

    def read(self, contents: list[Any], start: int, partial: Any) -> None:
        from .core.mock.judge import MockMalformed
        from .core.mock.reading import tool_message

        names, open_calls, history = self.names, self.open_calls, self.history
        for i in range(start, len(contents)):
            content = contents[i]
            if not isinstance(content, dict) or not isinstance(content.get("parts", []), list):
                raise MockMalformed(f"* GenerateContentRequest.contents[{i}]: invalid content")
            _check_parts(content, i, partial(history))
            if i and not self.parts_differ:
                self.parts_differ = _parts_differ(contents[i - 1], content)
            self._signed(i, content)
            parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
            if content.get("role") == "model":
                calls, texts, reasoning = [], [], []
                for part in parts:
                    signature = part.get("thoughtSignature", part.get("thought_signature"))
                    call = part.get("functionCall", part.get("function_call"))
                    if isinstance(call, dict):
                        made = HistoryCall(str(call.get("id") or f"gemini_call_{i}_{len(calls)}"),
                                           str(call.get("name")),
                                           call.get("args") if isinstance(call.get("args"), dict) else {}, signature)
                        calls.append(made)
                        open_calls.append(made)
                    elif part.get("thought") is True:
                        reasoning.append(ReasoningItem("gemini", text=part.get("text"), signature=signature,
                                                       position=len(calls)))
                    elif isinstance(part.get("text"), str):
                        texts.append(part["text"])
                        if signature is not None:
                            reasoning.append(ReasoningItem("gemini", signature=signature, position=len(calls)))
                    elif isinstance(signature, str) and signature:  # a part holding the signature alone
                        # (google-genai 3.6.1 types.Part(thought_signature=...), as a stream may end): kept, as
                        # stream.py keeps it
                        reasoning.append(ReasoningItem("gemini", signature=signature, position=len(calls)))
                for call in calls:
                    names[call.id] = call.name
                history.append(Message("assistant", "".join(texts) or None, tool_calls=tuple(calls),
                                       reasoning=tuple(reasoning)))
                continue
            texts = []
            for part in parts:
                response = part.get("functionResponse", part.get("function_response"))
                if isinstance(response, dict):
                    match = next((c for c in open_calls if c.id == response.get("id")), None) or \
                        next((c for c in open_calls if c.name == response.get("name")), None)
                    if match is not None:
                        open_calls.remove(match)
                    call_id = match.id if match is not None else str(response.get("id") or response.get("name"))
                    result = response.get("response")  # google-genai FunctionResponse.response: 'Use "output"
                    # key to specify function output' (what the translator wraps a result that is not an object in)
                    if isinstance(result, dict) and list(result) == ["output"]:
                        result = result["output"]
                    history.append(tool_message(call_id, names, result))
                elif isinstance(part.get("text"), str):
                    texts.append(part["text"])
            if texts:
                history.append(Message("user", "\n".join(texts)))

    def _signed(self, index: int, content: dict[str, Any]) -> None:
        """_mock_unsigned's fold: a user's text starts a turn; the first model content of the turn whose first call
        carries no thought signature."""
        parts = content.get("parts") or []
        if content.get("role") != "model" and any(isinstance(p, dict) and "text" in p for p in parts):
            self.unsigned = None
        elif content.get("role") == "model" and self.unsigned is None:
            calls = [p for p in parts if isinstance(p, dict) and
                     isinstance(p.get("functionCall", p.get("function_call")), dict)]
            if calls and not (calls[0].get("thoughtSignature") or calls[0].get("thought_signature")):
                self.unsigned = index, calls[0].get("functionCall", calls[0].get("function_call")).get("name")


def _schema_rules(body: dict[str, Any], route: dict[str, Any]) -> tuple[str, LedgerEntry] | None:
    """What the API refuses in a declaration's ``parameters`` past its parser (gemini/schema_rules.py), in its recorded
    words, with toolchoice's line naming each rule's recording; only where the parser's field lists are read (a body
    the parser refuses is answered with the parser's lines alone, as the API answers it)."""
    from .gemini.schema_rules import REF_SOURCE, SOURCES, UNDEFINED_REF, refused, undefined_refs, words

    found = refused(body) if route.get("version") in _FIELDS_READ else []
    if not found:  # then a parametersJsonSchema's $ref (which the API answers first, when both are sent: not recorded)
        refs = undefined_refs(body) if route.get("version") in _FIELDS_READ else []
        if not refs:
            return _both_forms(body) if route.get("version") in _FIELDS_READ else None
        said = UNDEFINED_REF.format(at=refs[0][2])
        return said, LedgerEntry("error", "body.schema_rule", f"Gemini's API refuses a $ref that does not resolve in "
                                 f"its parametersJsonSchema (tools[{refs[0][0]}].function_declarations[{refs[0][1]}]): "
                                 f"'{said}' ({REF_SOURCE}; fact gemini.json_schema_ref_words): the API answers 400")
    said = "; ".join(f"{at}: {rule} ({SOURCES[rule]})" for at, rule in found)
    return words(found), LedgerEntry("error", "body.schema_rule", f"Gemini's API refuses these schema fields: {said} "
                                     "(fact gemini.schema_rule_words): the API answers 400")


def _both_forms(body: dict[str, Any]) -> tuple[str, LedgerEntry] | None:
    """A declaration with both parameters and parametersJsonSchema (fact gemini.parameters_exclusive): refused, the
    first in body order named, in toolchoice's words (the API's are not recorded); judged after the schema rules."""
    from .core.model import json_string
    from .gemini.schema_rules import BOTH_FORMS, BOTH_SOURCE, both_forms

    found = both_forms(body)
    if not found:
        return None
    group, number = found[0]
    at = f"tools[{group}].function_declarations[{number}]"
    declarations = body["tools"][group]
    name = declarations.get("functionDeclarations", declarations.get("function_declarations"))[number].get("name")
    said = BOTH_FORMS.format(name=json_string(name) if isinstance(name, str) else "(no name)", at=at)
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    return said, LedgerEntry("error", "body.schema_rule", f"Gemini's API rejects a function declaration with both "
                             f"parameters and parametersJsonSchema ({at}{more}; {BOTH_SOURCE}; fact "
                             "gemini.parameters_exclusive): the API's status and words are not recorded, answered 400 "
                             "in toolchoice's words; send one of them")


def _refused(body: dict[str, Any], route: dict[str, Any]) -> frozenset[str]:
    """The top-level fields the API refuses: those GenerateContentRequest has not, where its field list is read."""
    from .gemini.request_fields import REQUEST_FIELDS

    return frozenset(key for key in body if key not in REQUEST_FIELDS) if route.get("version") in _FIELDS_READ \
        else frozenset()


def _unknown_fields(body: dict[str, Any], route: dict[str, Any], start: int = 0, before: Any = ()
                    ) -> tuple[str | None, tuple[LedgerEntry, ...], Any]:
    """The API's 400 for fields its messages have not, one line each in body order, depth first (fact
    gemini.unknown_field_words; gemini/request_fields.py), and toolchoice's line saying so (an OpenAI tool_choice:
    where Gemini's goes), where the field lists are read (/v1beta, /v1); and the findings in the contents, those of
    their first ``start`` being ``before`` (request_fields.judged_on: a history read on from an earlier one's)."""
    from .core.model import quoted
    from .gemini.request_fields import KIND_WANTED, judged_on, line

    every, contents = judged_on(body, start, before) if route.get("version") in _FIELDS_READ else ([], [])
    if not every:
        return None, (), contents
    words = "\n".join(("toolchoice mock: " if kind in KIND_WANTED else "") + line(name, at, kind)
                      for name, at, _, kind in every)
    kinds = tuple(_kind_finding(name, at or "", kind) for name, at, _, kind in every if kind is not None)
    found = [(name, at, message) for name, at, message, kind in every if kind is None]
    if not found:
        return words, kinds, contents
    said: dict[tuple[str | None, str], list[str]] = {}
    for name, at, message in found:
        said.setdefault((at, message), []).append(quoted(name))
    top = [n for n, at, _ in found if at is None]
    advice = ("; for a tool_choice write toolConfig.functionCallingConfig ({\"mode\": \"ANY\", \"allowedFunctionNames\": "
              "[...]}, AUTO or NONE)" if "tool_choice" in top or "toolChoice" in top else "")
    parts = [f"{', '.join(names)} {'is not a field' if len(names) == 1 else 'are not fields'} of Gemini's {message}"
             + ("" if at is None else f" (at {at})") for (at, message), names in said.items()]
    return words, (LedgerEntry("error", "body.unknown_field", "; ".join(parts) + " (fact gemini.unknown_field_words): "
                               "the API answers 400" + advice), *kinds), contents


def _kind_finding(name: str, at: str, kind: Any) -> LedgerEntry:
    from .core.model import quoted
    from .gemini.request_fields import KIND_WANTED

    if isinstance(kind, tuple):  # request_fields._values
        what = ("is not a Type (content.proto Type: STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL, in any case)"
                if name == "type" else "is not a string: an enum's values are strings (content.proto Schema.enum)")
        return LedgerEntry("error", "body.field_value", f"{name} {kind[2]} at '{at}' {what}: the API answers 400 (the "
                           "API's words, fact gemini.schema_rule_words)")

    wanted = "one value, not a list" if kind == "repeating" else KIND_WANTED[kind]
    source = ("the API's words: zed-industries/zed#53919" if kind == "repeating" else
              "toolchoice's words: no recorded answer of the API's")
    return LedgerEntry("error", "body.field_type", f"{quoted(name)} at '{at}' must be {wanted} in Gemini's Schema "
                       f"message (content.proto Schema; google-genai 3.6.1 types.Schema): the API answers 400 ({source})")


# google-genai 3.6.1 types.py FunctionCallingConfig's fields (camelCase on the REST wire, snake_case as the SDK may
# send them) and FunctionCallingConfigMode's values: another key or mode (OpenAI's {type: ...}, "REQUIRED") is refused
_CALLING_KEYS = frozenset({"mode", "allowedFunctionNames", "allowed_function_names", "streamFunctionCallArguments",
                           "stream_function_call_arguments"})
_MODES = frozenset({"MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"})


def _choice_shape(calling: Any) -> LedgerEntry | None:
    """A functionCallingConfig of a shape FunctionCallingConfig leaves out, in toolchoice's words (no recorded 400 of
    the API's is read for it): a field it does not have, a mode not of FunctionCallingConfigMode (case aside)."""
    from .core.model import quoted

    if not isinstance(calling, dict):
        return None
    extra = sorted(str(key) for key in calling if key not in _CALLING_KEYS)
    mode = calling.get("mode")
    if not extra and (mode is None or isinstance(mode, str) and mode.upper() in _MODES):
        return None
    what = f"has no field {', '.join(extra)}" if extra else f"has no mode {quoted(mode)}"
    return LedgerEntry("error", "tool_choice.shape", f"functionCallingConfig {quoted(calling)} is not a shape Gemini's "
                       f"API takes: it {what} (google-genai 3.6.1 types.py FunctionCallingConfig: mode, "
                       "allowedFunctionNames, streamFunctionCallArguments; FunctionCallingConfigMode: MODE_UNSPECIFIED, "
                       "AUTO, ANY, NONE, VALIDATED); for required write {\"mode\": \"ANY\"}: the API answers 400")


_MOCK_READ_TOOL_KEYS = frozenset({"functionDeclarations", "function_declarations", "mcpServers", "mcp_servers"})


# The kinds of an MCP server's fields (google-genai 3.6.1 types.McpServer, types.StreamableHttpTransport), checked
# so that a value of another type is the API's 400; the locations are the proto field names, as its errors give them
_SERVER_KINDS = {"name": "string"}
_TRANSPORT_KINDS = {"url": "string", "headers": "object of strings", "timeout": "string", "sse_read_timeout": "string",
                    "terminate_on_close": "boolean"}
_PROTO_TYPES = {"string": "(TYPE_STRING)", "bytes": "(TYPE_BYTES)", "boolean": "(TYPE_BOOL)", "object": "expected an object",
                "array": "expected a list"}


def _checked_servers(listed: Any, where: str) -> list[dict[str, Any]]:
    """``tools[].mcpServers`` as a list of objects whose fields are of their types, else the API's 400 (values are
    never quoted: headers are secrets)."""
    from .core.mock.reading import wrong_field

    if listed is None:
        return []
    if not isinstance(listed, list):
        _malformed(f"{where}.mcp_servers", "array")
    for index, server in enumerate(listed):
        at = f"{where}.mcp_servers[{index}]"
        if not isinstance(server, dict):
            _malformed(at, "object")
        wrong = wrong_field(server, _SERVER_KINDS)
        transport = server.get("streamableHttpTransport", server.get("streamable_http_transport"))
        if wrong is None and transport is not None:
            if not isinstance(transport, dict):
                wrong = ("streamable_http_transport", "object", transport)
            else:
                spelled = {key: transport.get(key, transport.get(_camel(key))) for key in _TRANSPORT_KINDS}
                found = wrong_field(spelled, _TRANSPORT_KINDS)
                wrong = None if found is None else (f"streamable_http_transport.{found[0]}", found[1], found[2])
        if wrong is not None:
            _malformed(f"{at}.{wrong[0]}", wrong[1].partition(" of ")[0])
    return listed


# The kinds of a part's fields mock_read reads (google-genai 3.6.1 types.Part: thought_signature bytes, base64 in
# JSON; function_call / function_response objects with a string name), in either spelling (reading.misfit)
_PART_KINDS = {"thoughtSignature": "string", "thought_signature": "string", "functionCall": "object",
               "function_call": "object", "functionResponse": "object", "function_response": "object"}
_PART_INNER = {("functionCall", "name"): "string", ("function_call", "name"): "string",
               ("functionResponse", "name"): "string", ("function_response", "name"): "string"}


def _check_parts(content: dict[str, Any], index: int, partial: Any) -> None:
    """A part's field of another type: the API's 400 naming it in the proto's words (``Invalid value at
    'contents[0].parts[0].thought_signature' (TYPE_BYTES)``), never the mock's 500; ``partial``: what was read before
    (MockMalformed.partial)."""
    from .core.mock.judge import MockMalformed
    from .core.mock.reading import indexed, misfit

    kinds = {("*", key): kind for key, kind in _PART_KINDS.items()}
    kinds.update({("*", *place): kind for place, kind in _PART_INNER.items()})
    wrong = misfit(content.get("parts") or [], kinds, ("contents", index, "parts"))
    if wrong is not None:
        path = tuple(_snake(key) if isinstance(key, str) else key for key in wrong[0])
        raise MockMalformed(_proto_words(indexed(path), "bytes" if path[-1] == "thought_signature" else wrong[1]),
                            partial)


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _malformed(where: str, kind: str) -> None:
    from .core.mock.judge import MockMalformed

    raise MockMalformed(_proto_words(where, kind))


def _proto_words(where: str, kind: str) -> str:
    words = _PROTO_TYPES[kind]
    return f"Invalid JSON payload received. Invalid value at '{where}'" + (f" {words}" if words.startswith("(")
                                                                             else f": {words}.")


def _mock_servers(listed: list[dict[str, Any]]) -> tuple[Any, ...]:
    """``tools[].mcpServers`` (google-genai types.McpServer: name, streamableHttpTransport {url, headers}) as
    NativeTools, so a request whose only tools are MCP servers is judged as declaring tools; headers the client
    sent are never kept."""
    from .core.model import NativeTool

    out = []
    for server in listed:
        transport = server.get("streamableHttpTransport", server.get("streamable_http_transport"))
        url = transport.get("url") if isinstance(transport, dict) else None
        if isinstance(server.get("name"), str) and isinstance(url, str):
            out.append(NativeTool("mcp", {"type": "mcp", "server_label": server["name"], "server_url": url}))
    return tuple(out)


# google-genai 3.6.1 types.ToolType, the kinds of server-side ToolCall a generateContent reply can carry
# (checked against the installed SDK by tests/test_native_tools_mock.py)
SERVER_TOOL_TYPES = ("GOOGLE_SEARCH_WEB", "GOOGLE_SEARCH_IMAGE", "URL_CONTEXT", "GOOGLE_MAPS", "FILE_SEARCH",
                     "MEDIA_PROCESSING")


def _native_unanswered(native: tuple[Any, ...]) -> LedgerEntry:
    labels = ", ".join(f"'{t.fields['server_label']}'" for t in native)
    return LedgerEntry("info", "mock.native_unanswered", f"mode ANY with only MCP servers ({labels}): answered with "
                       "text, since no reply shape for a call the API ran on an MCP server is known (google-genai "
                       f"3.6.1 types.ToolType, the server-side calls a reply holds: {', '.join(SERVER_TOOL_TYPES)})")


def _parts_differ(content: Any, after: Any) -> bool:
    """A model turn with function calls followed by a turn with another number of function responses (the pairs of
    ``_ContentsRead.read``; a history that ends with the calls is answered: no source says it is refused)."""

    def count(content: Any, *keys: str) -> int:
        parts = content.get("parts") if isinstance(content, dict) else None
        return sum(1 for p in parts if isinstance(p, dict) and any(isinstance(p.get(k), dict) for k in keys)) \
            if isinstance(parts, list) else 0

    calls = count(content, "functionCall", "function_call")
    return bool(calls) and count(after, "functionResponse", "function_response") != calls


def _mock_parts_count() -> str:
    """The API's 400 for such a pair (gemini/translate.py RESPONSE_PARTS, fact gemini.history_response_parts)."""
    from .gemini.translate import RESPONSE_PARTS

    return RESPONSE_PARTS


def _mock_unsigned(found: tuple[int, Any] | None, model: str) -> str | None:
    """A model that requires thought signatures (model rule signatures_required) refuses a functionCall of the
    current turn (the model contents after the last user text) whose step carries none: its first functionCall part
    is signed (``found``: that content's place and the call's name, ``_ContentsRead._signed``). The API's words, as
    clients quote them (e.g. chatboxai/chatbox#3308, niki914/zafiro#100)."""
    from .core.model_rules import resolve

    fact = resolve("gemini", model).get("signatures_required")
    if fact is None or not fact.value or found is None:
        return None
    index, name = found
    return ("Function call is missing a thought_signature in functionCall parts. This is required for tools to "
            "work correctly, and missing thought_signature may lead to degraded model performance. Additional "
            f"data, function call `default_api:{name}` , position {index + 1}. Please refer to "
            "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.")


def mock_call_id(call: Any) -> str | None:
    """None: the mock's functionCall parts carry no id (the API's may not either: a functionResponse is paired by
    name), so the line's calls[].id is null."""
    return None


def _mock_parts(answer: Any) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    if answer.text is not None:
        parts.append({"text": answer.text})
    for call in answer.calls:
        parts.append({"functionCall": {"name": call.name, "args": call.arguments if call.arguments is not None
                                       else call.raw}})
    if answer.signature is not None and parts:  # the first functionCall part (or the text part) is signed
        first = next((p for p in parts if "functionCall" in p), parts[0])
        first["thoughtSignature"] = answer.signature
    return parts


def _mock_chunk(read: Any, number: int, parts: list[dict[str, Any]], finish: str | None, index: int = 0,
                more: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    """A GenerateContentResponse (google-genai types.py); ``more``: the other candidates (candidateCount > 1)."""
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": index}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate, *more], "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                                                "totalTokenCount": 15},
            "modelVersion": read.model or "mock", "responseId": f"mock{number}"}


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    more = tuple(_mock_chunk(read, number, _mock_parts(other), "STOP", i)["candidates"][0]
                 for i, other in enumerate(answer.others, 1))  # candidateCount > 1: each candidate its answer
    return _mock_chunk(read, number, _mock_parts(answer), "STOP", 0, more)  # STOP with calls too (parse_reply's docstring)


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """streamGenerateContent?alt=sse: one GenerateContentResponse per event, the last with finishReason; with
    candidateCount > 1 each candidate's events in turn, each chunk carrying its candidate's index."""
    events: list[tuple[str | None, Any]] = []
    for index, each in enumerate((answer, *answer.others)):
        parts = _mock_parts(each)
        events += [(None, _mock_chunk(read, number, [part], None, index)) for part in parts[:-1]]
        events.append((None, _mock_chunk(read, number, parts[-1:], "STOP", index)))
    return events


def mock_error(status: int, message: str) -> tuple[dict[str, Any], dict[str, str]]:
    """{"error": {code, message, status}} (tests/data/responses/errors/error-gemini-invalid-function-name.json); a
    refusal of unknown fields also has the details its recorded bodies carry: a google.rpc.BadRequest with one
    fieldViolation per line, its description the line, its field the place the line names, if any
    (error-gemini-unknown-field.json; fact gemini.unknown_field_words)."""
    error: dict[str, Any] = {"code": status, "message": message, "status": _MOCK_STATUS.get(status, "UNKNOWN")}
    found = _unknown_lines(message) if status == 400 else []
    if found:
        error["details"] = [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
            {**({"field": match.group("field")} if match.group("field") else {}), "description": match.group(0)}
            for match in found]}]
    return {"error": error}, {}


def _unknown_lines(message: str) -> list[re.Match[str]]:
    """The lines of the parser's refusal (unknown fields, values a field cannot hold), each matched whole (a name read
    up to the '"' its line's end follows), or [] when the message is not only such lines."""
    found: list[re.Match[str]] = []
    at = 0
    while True:
        match = _UNKNOWN_LINE.match(message, at) or _VALUE_LINE.match(message, at)
        if match is None:
            return []
        found.append(match)
        if match.end() == len(message):
            return found
        at = match.end() + 1  # past the newline that ends the line
