"""The fields of a generateContent body's messages, and the API's 400 for a field a message has not (fact
gemini.unknown_field_words; read by providers/gemini_mock.py).

Gemini's protobuf JSON parser refuses a key its message does not have, one line per key, in body order: at the top
'Invalid JSON payload received. Unknown name "NAME": Cannot find field.', inside 'Unknown name "NAME" at 'PLACE':
Cannot find field.', NAME as sent and PLACE the message's place in proto field names, a list's element by its index:
'generation_config' (google-gemini/deprecated-generative-ai-js#125; googleapis/go-genai#83, "thinkingConfig" sent
camelCase), 'tool_config' (CherryHQ/cherry-studio#15047), 'tools[26]' (langchain-ai/langchainjs#9412),
'tools[0].function_declarations[37].parameters' (zed-industries/zed#43231), 'contents[7].parts[0].function_response'
(google-gemini/gemini-cli#13972). Every other place is spelled by these same rules (a message field after a dot, a
list's element by ``[i]``).

Each message's fields are the union of the v1beta proto's (googleapis/googleapis google/ai/generativelanguage/v1beta/
content.proto, generative_service.proto, safety.proto at commit bc7e3baa28fbb223fa93782e130260fab8205bfc) and what
google-genai 3.6.1 sends to the Developer API (its models.py ``_*_to_mldev`` converters: the keys they set, and every
field of a type they pass on whole; a field they refuse to send, "not supported in Gemini API", is left out where
the proto has it not). The parser reads a field in its JSON (lowerCamel) and its proto (snake_case) spelling alike.
A schema (``parameters``, ``response``, ``responseSchema``) is the v1beta proto's Schema message: its fields are the
proto's, not those google-genai 3.6.1's ``types.Schema`` adds for Vertex (``defs``, ``ref``: the API answers 'Unknown
name "ref" at '...parameters.properties[0].value.items'', decolua/9router#1036, gemini-3.1-flash-lite-preview,
2026-05-12, though the SDK sends them; ``additional_properties``, which its ``process_schema`` refuses), walked into
its ``items``,
``anyOf`` and the values of its ``properties`` map, each value's place named ``properties[i].value`` by its index in
the map, as the API names it ('parameters.properties[2].value.items', router-for-me/CLIProxyAPI#1189;
'parameters.properties[5].value', decolua/9router#2309; 'additionalProperties' at 'tools[0].function_declarations[0].
parameters', Laisky/one-api#60). A JSON Schema sent as a google.protobuf.Value (``parametersJsonSchema``,
``responseJsonSchema``), a Struct (``args``, ``response`` of a call's result) and a field whose message is not listed
here are not looked into. A schema field whose value is of another JSON kind than the field's (a list for ``type``, an
object or a number for ``required``) is found too (``judged``), and a value the field's proto type cannot hold (a
``type`` not of Type, a number in ``enum``): gemini_mock.py answers them. What the API refuses past its parser
(``properties`` on a STRING, an ARRAY without ``items``, ...) is gemini/schema_rules.py's.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any, Iterator, Sequence

# message -> {proto field name: the message its value is ("map:M": a map whose values are M), or None (a scalar, a
# Struct, a Value, a map of scalars, or not looked into)}
MESSAGES: dict[str, dict[str, str | None]] = {
    # generative_service.proto GenerateContentRequest; labels, service_tier, store, continuation_token: google-genai
    # 3.6.1 _GenerateContentConfig_to_mldev (setv(parent_object, [...]))
    "GenerateContentRequest": {
        "model": None, "contents": "Content", "system_instruction": "Content", "tools": "Tool",
        "tool_config": "ToolConfig", "safety_settings": "SafetySetting", "generation_config": "GenerationConfig",
        "cached_content": None, "labels": None, "service_tier": None, "store": None, "continuation_token": None},
    "Content": {"parts": "Part", "role": None},
    # content.proto Part (thought_signature, video_metadata, part_metadata since); _Part_to_mldev's keys
    "Part": {
        "text": None, "inline_data": "Blob", "function_call": "FunctionCall", "function_response": "FunctionResponse",
        "file_data": "FileData", "executable_code": "ExecutableCode", "code_execution_result": "CodeExecutionResult",
        "video_metadata": None, "thought": None, "thought_signature": None, "part_metadata": None,
        "media_resolution": None, "tool_call": None, "tool_response": None, "audio_transcription": None,
        "media_processing": None, "speech_metadata": None, "document_metadata": None, "spreadsheet_metadata": None,
        "audio_metadata": None},
    "Blob": {"mime_type": None, "data": None, "display_name": None},  # display_name: types.Blob, passed on whole
    "FileData": {"mime_type": None, "file_uri": None, "display_name": None},
    "FunctionCall": {"id": None, "name": None, "args": None},  # partial_args, will_continue: refused by the SDK
    "FunctionResponse": {"id": None, "name": None, "response": None, "parts": None, "will_continue": None,
                         "scheduling": None},
    "ExecutableCode": {"language": None, "code": None, "id": None},
    "CodeExecutionResult": {"outcome": None, "output": None, "id": None},
    # content.proto Tool; mcp_servers: _Tool_to_mldev (retrieval, enterprise_web_search, parallel_ai_search,
    # exa_ai_search: refused by the SDK)
    "Tool": {
        "function_declarations": "FunctionDeclaration", "google_search_retrieval": "GoogleSearchRetrieval",
        "code_execution": "CodeExecution", "google_search": "GoogleSearch", "computer_use": "ComputerUse",
        "url_context": "UrlContext", "file_search": "FileSearch", "google_maps": "GoogleMaps", "mcp_servers": None},
    "FunctionDeclaration": {"name": None, "description": None, "parameters": "Schema", "parameters_json_schema": None,
                            "response": "Schema", "response_json_schema": None, "behavior": None},
    # content.proto Schema (at bc7e3ba). Not google-genai 3.6.1 types.Schema's defs and ref (sent as "defs" and "ref",
    # passed on whole in a FunctionDeclaration, and refused by the API: decolua/9router#1036, 'Unknown name "ref" at
    # 'tools[0].function_declarations[4].parameters.properties[0].value.items''; until 2026-11-27 the mock took them),
    # nor its additional_properties, refused for the Developer API by the SDK
    # (_transformers._raise_for_unsupported_mldev_properties) and by the API (Laisky/one-api#60, google/adk-python#1277)
    "Schema": {
        "type": None, "format": None, "title": None, "description": None, "nullable": None, "enum": None,
        "items": "Schema", "max_items": None, "min_items": None, "properties": "map:Schema", "required": None,
        "min_properties": None, "max_properties": None, "minimum": None, "maximum": None, "min_length": None,
        "max_length": None, "pattern": None, "example": None, "any_of": "Schema", "property_ordering": None,
        "default": None},
    "GoogleSearchRetrieval": {"dynamic_retrieval_config": "DynamicRetrievalConfig"},
    "DynamicRetrievalConfig": {"mode": None, "dynamic_threshold": None},
    "CodeExecution": {},
    "UrlContext": {},
    "GoogleSearch": {"time_range_filter": None, "search_types": None},  # search_types: _GoogleSearch_to_mldev
    "GoogleMaps": {"enable_widget": None, "auth_config": None},  # auth_config: _GoogleMaps_to_mldev
    "ComputerUse": {"environment": None, "excluded_predefined_functions": None, "disabled_safety_policies": None,
                    "enable_prompt_injection_detection": None},  # the last two: types.ComputerUse, passed on whole
    # the proto's retrieval_resources, retrieval_config and types.FileSearch's fields (passed on whole)
    "FileSearch": {"retrieval_resources": None, "retrieval_config": None, "file_search_store_names": None,
                   "top_k": None, "metadata_filter": None},
    # include_server_side_tool_invocations: _ToolConfig_to_mldev
    "ToolConfig": {"function_calling_config": "FunctionCallingConfig", "retrieval_config": "RetrievalConfig",
                   "include_server_side_tool_invocations": None},
    "RetrievalConfig": {"lat_lng": None, "language_code": None},
    # stream_function_call_arguments: types.FunctionCallingConfig (kept from before: the SDK refuses to send it)
    "FunctionCallingConfig": {"mode": None, "allowed_function_names": None, "stream_function_call_arguments": None},
    "SafetySetting": {"category": None, "threshold": None},  # method: refused by the SDK
    # generative_service.proto GenerationConfig; audio_transcription_config: _GenerateContentConfig_to_mldev
    "GenerationConfig": {
        "candidate_count": None, "stop_sequences": None, "max_output_tokens": None, "temperature": None,
        "top_p": None, "top_k": None, "seed": None, "response_mime_type": None, "response_schema": "Schema",
        "response_json_schema": None, "response_json_schema_ordered": None, "presence_penalty": None,
        "frequency_penalty": None, "response_logprobs": None, "logprobs": None,
        "enable_enhanced_civic_answers": None, "response_modalities": None, "speech_config": None,
        "thinking_config": "ThinkingConfig", "image_config": "ImageConfig", "media_resolution": None,
        "audio_transcription_config": None},
    # thinking_level: types.ThinkingConfig (passed on whole; the proto read has not got it yet)
    "ThinkingConfig": {"include_thoughts": None, "thinking_budget": None, "thinking_level": None},
    "ImageConfig": {"aspect_ratio": None, "image_size": None},  # the SDK refuses its other fields
}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _spellings(fields: dict[str, str | None]) -> dict[str, str]:
    """Each field's JSON and proto spelling -> its proto name."""
    return {**{camel(name): name for name in fields}, **{name: name for name in fields}}


_SPELLED = {message: _spellings(fields) for message, fields in MESSAGES.items()}
REQUEST_FIELDS = frozenset(_SPELLED["GenerateContentRequest"])


# A Schema's fields by the JSON kind of their value (content.proto at bc7e3ba; google-genai 3.6.1 types.Schema): the
# repeated ones (a list), the google.protobuf.Value ones (any JSON); the rest are one value each (a scalar, a message,
# a map). Only a schema's fields are judged by kind: the fields of other messages are read by mock_read itself.
SCHEMA_REPEATED = frozenset({"enum", "required", "any_of", "property_ordering"})
SCHEMA_ANY = frozenset({"example", "default"})
# the v1beta proto's Type (content.proto: TYPE_UNSPECIFIED ... OBJECT, and NULL since), read in any case (lowercase
# "object", as AI Studio writes it, is taken); another string is the parser's 'Invalid value at 'PLACE.type'
# (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "VALUE"' (zereight/gitlab-mcp#166: the empty string)
TYPES = frozenset({"TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})
TYPE_PROTO = "type.googleapis.com/google.ai.generativelanguage.v1beta.Type"


# A schema field given a list where it holds one value: the protobuf JSON parser's 400, one line per field, as
# zed-industries/zed#53919 records it ("Gemini 3.1 Pro request error": 'Invalid JSON payload received. Unknown name "type" at
# 'tools[0].function_declarations[6].parameters.properties[4].value.properties[10].value': Proto field is not
# repeating, cannot start list.', status INVALID_ARGUMENT, each line a fieldViolation with its place) and
# taylorwilsdon/google_workspace_mcp#1099 quotes ("type": ["STRING", "NULL"]). {name}: the key as sent; {at}: the
# schema's place, as for an unknown field
GEMINI_NOT_REPEATING = ('Invalid JSON payload received. Unknown name "{name}" at \'{at}\': Proto field is not repeating, '
                        'cannot start list.')
# the other kinds a schema field may miss: no recorded answer of the API's was found, so the 400 is in toolchoice's
# words and says so (the field's kind: content.proto Schema at bc7e3ba, google-genai 3.6.1 types.Schema)
KIND_WANTED = {"list": "a list (a repeated field)", "map": "an object (a map of Schema)",
               "object": "an object (a Schema message)"}


def unknown(body: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """Each key of the body a message has not, in body order, depth first: (the key as sent, its message's place in
    proto field names or None at the top, the message's name)."""
    return [(key, at, message) for key, at, message, kind in judged(body) if kind is None]


def judged(body: dict[str, Any]) -> list[tuple[str, str | None, str, Any]]:
    """``judged_on`` of the whole body."""
    return judged_on(body)[0]


Finding = tuple[str, "str | None", str, Any]


def judged_on(body: dict[str, Any], start: int = 0, before: Sequence[Finding] = ()
              ) -> tuple[list[Finding], list[Finding]]:
    """Each key of the body a message has not (kind None), and each field of a schema whose value is of another JSON
    kind than the field's (kind "repeating": a list where the field is one value; "list": one value where the field
    is repeated; "map" / "object": no object where the field is a map / a message; ("value", PROTO, VALUE): a value
    its proto type cannot hold, the key then the field, a list's element by its index, ``_values``), in body order,
    depth first: (the key as sent, its message's place, the message's name, the kind). Walked with a stack of its
    own, not by recursion: a schema nested as deep as the JSON parser reads is walked whole. With the findings of
    the contents (a list) apart: ``before``, those of its first ``start`` items, which are not walked again (a
    request's history read on from an earlier one's that it starts with: core/mock/read_prefix.py)."""
    found: list[Finding] = []
    contents: list[Finding] = []
    mark: tuple[int, int] | None = None  # while the contents are walked: the frames below them, where their findings start
    frames: list[Iterator[tuple[str, Any, Any, str | None]]] = [_fields("GenerateContentRequest", body, None)]
    while frames:
        task = next(frames[-1], None)
        if task is None:
            frames.pop()
            if mark is not None and len(frames) == mark[0]:
                contents, mark = found[mark[1]:], None
            continue
        message, key, inner, at = task
        name = _SPELLED[message].get(key)
        if name is None:
            found.append((str(key), at, message, None))
            continue
        child = MESSAGES[message][name]
        if message == "Schema" and inner is not None and name not in SCHEMA_ANY:
            kind = _misfit(name, child, inner)
            if kind is not None:
                found.append((str(key), at, message, kind))
            else:
                found.extend((field, at, message, ("value", proto, value))
                             for field, proto, value in _values(name, inner))
        if child is None:
            continue
        place = name if at is None else f"{at}.{name}"
        if child.startswith("map:"):  # a map's entries, each value at [its index].value
            child = child[4:]
            inside = [(item, f"{place}[{index}].value") for index, item in enumerate(inner.values())] \
                if isinstance(inner, dict) else []
        elif isinstance(inner, list) and at is None and name == "contents":
            found.extend(before)
            mark = (len(frames), len(found) - len(before))
            inside = [(inner[index], f"{place}[{index}]") for index in range(start, len(inner))]
        elif isinstance(inner, list):
            inside = [(item, f"{place}[{index}]") for index, item in enumerate(inner)]
        else:
            inside = [(inner, place)]
        inside = [(item, where) for item, where in inside if isinstance(item, dict)]
        if inside:  # depth first: these fields before the next key of this message
            frames.append(chain.from_iterable([_fields(child, item, where) for item, where in inside]))  # bound now
        elif mark is not None and len(frames) == mark[0]:  # contents with nothing (more) to walk
            contents, mark = found[mark[1]:], None
    return found, contents


def _fields(message: str, value: dict[str, Any], at: str | None) -> Iterator[tuple[str, Any, Any, str | None]]:
    return ((message, key, inner, at) for key, inner in value.items())


def _values(name: str, inner: Any) -> list[tuple[str, str, str]]:
    """A schema field's values its proto type cannot hold, each (the field, a list's element by its index; the proto
    type; the value as the parser quotes it): a ``type`` not of Type (``""``, ``"dict"``), an ``enum`` element that is
    a number or a boolean ('Invalid value at '...properties[1].value.enum[0]' (TYPE_STRING), 0', thClaws/thClaws#172 on
    generativelanguage.googleapis.com, microsoft/azure-devops-mcp#145). A null element is not judged."""
    if name == "type" and isinstance(inner, str) and inner.upper() not in TYPES:
        return [("type", TYPE_PROTO, json.dumps(inner, ensure_ascii=False))]
    if name == "enum" and isinstance(inner, list):
        return [(f"enum[{i}]", "TYPE_STRING", json.dumps(value)) for i, value in enumerate(inner)
                if isinstance(value, (int, float))]
    return []


def _misfit(name: str, child: str | None, inner: Any) -> str | None:
    """The kind a schema field's value misses (``judged``), or None."""
    if name in SCHEMA_REPEATED:
        return None if isinstance(inner, list) else "list"
    if child is not None and child.startswith("map:"):
        return None if isinstance(inner, dict) else "map"
    if isinstance(inner, list):
        return "repeating"
    return "object" if child is not None and not isinstance(inner, dict) else None


def line(name: str, at: str | None, kind: Any) -> str:
    """The parser's line for one ``judged`` finding, read by gemini_mock.py and the translator alike: the API's
    recorded words for a name its message has not (fact gemini.unknown_field_words), a value its proto type cannot hold
    (gemini.schema_rule_words) and a list for one value (zed-industries/zed#53919); for a kind no recording answers,
    toolchoice's words, saying so."""
    from ..core.choice_shape_words import GEMINI_UNKNOWN_AT, GEMINI_UNKNOWN_FIELD

    if kind is None:
        return (GEMINI_UNKNOWN_FIELD.replace("{name}", name) if at is None else
                GEMINI_UNKNOWN_AT.replace("{name}", name).replace("{at}", at))
    if isinstance(kind, tuple):
        return f"Invalid value at '{at}.{name}' ({kind[1]}), {kind[2]}"
    if kind == "repeating":
        return GEMINI_NOT_REPEATING.replace("{name}", name).replace("{at}", at or "")
    from ..core.model import quoted

    return (f"{quoted(name)} at '{at}' must be {KIND_WANTED[kind]} in Gemini's Schema message (toolchoice's words: no "
            "recorded answer of the API's to this was found)")
