"""Google Gemini API (``generateContent``): translate a scenario, parse a reply.

Wire facts, with their sources:

- ``POST https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent`` with the key in
  ``x-goog-api-key`` (google-genai ``_api_client.py``; the SDK's base URL carries no version).
- ``tool_choice`` lives in ``toolConfig.functionCallingConfig``: ``mode`` AUTO | ANY | NONE | VALIDATED and
  ``allowedFunctionNames``, which "should only be set when the Mode is ANY or VALIDATED"; VALIDATED lets
  the model answer in text or call, "but will validate function calls with constrained decoding"
  (ai.google.dev/api/caching#FunctionCallingConfig, updated 2026-09-11; google-genai ``types.py``
  ``FunctionCallingConfigMode``). There is no per-tool strict flag and no parallel-call switch.
- ``parameters`` is a subset of the OpenAPI 3.0 Schema object; the fields are listed in ``SCHEMA_FIELDS``
  (ai.google.dev/api/caching#Schema). Anything else is refused by the API ("Unknown name ... Cannot find
  field"), so it is converted or removed here, and every removal is in the ledger.
- History: the assistant is role ``model``; tool results are ``functionResponse`` parts in a ``user`` turn
  whose ``response`` must be a JSON object ('Use "output" key to specify function output and "error" key to
  specify error details', google-genai ``FunctionResponse``).
- Gemini 3 models answer 400 when a ``functionCall`` in the history has no ``thoughtSignature``; for
  history the model did not produce Google documents the sentinel ``skip_thought_signature_validator``
  (ai.google.dev/gemini-api/docs/thought-signatures, as quoted by vercel/ai ``convert-to-google-messages.ts``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .core.bounded import json_value
from .core import translation
from .core.capabilities import Capability
from .core.translation import Context
from .core.model import Message, ReasoningItem, RenderOptions, Reply, Scenario, Tool, Translation, Usage
from .core.reply import looks_like_error, provider_error
from .core.parsing import StreamAssembler, bad_body, expect_dict, expect_list, int_or_none, join_text, make_call

DEFAULT_BASE = "https://generativelanguage.googleapis.com"
THOUGHT_SIGNATURE_SENTINEL = "skip_thought_signature_validator"

# ai.google.dev/api/caching#Schema (v1beta): the only keys a Gemini API Schema object may carry.
SCHEMA_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
    "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
    "propertyOrdering", "default", "items", "minimum", "maximum",
})
# The Schema ``Type`` enum (STRING ... NULL); JSON Schema's lower-case spelling is what clients send.
SCHEMA_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
_TYPE_SET = frozenset(SCHEMA_TYPES)
# Schema fields copied as they are (the others in SCHEMA_FIELDS are converted by _SchemaConverter.node).
_COPIED = SCHEMA_FIELDS - {"type", "properties", "items", "anyOf", "enum"}
_PLAIN = _COPIED | {"type"}  # a property with only these keys and one known type is sent as it is
# Keywords that only annotate the document: dropping them loses nothing the model could use.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment"})
# Which keywords belong to which type, for splitting a type list into anyOf branches.
_TYPE_KEYWORDS = {
    "array": ("items", "minItems", "maxItems"),
    "object": ("properties", "required", "minProperties", "maxProperties", "propertyOrdering"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum"),
    "integer": ("minimum", "maximum"),
}
_IGNORED_SETTINGS = ("deployment", "endpoint", "api_version", "region")
# google-genai types.ThinkingLevel values (MINIMAL, LOW, MEDIUM, HIGH, XHIGH); neutral effort → thinkingLevel.
_LEVELS = {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH", "xhigh": "XHIGH"}

# Function names: a letter or _ first, then letters, digits, _ . : -, at most 128 (FunctionDeclaration.name)
NAME_RULE = (re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}").fullmatch, "a letter or _ first, then letters, digits, _ . : -, at most 128")

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("a Gemini generateContent reply", "gemini")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """generateContent's documented success shape: ``{candidates: [...]}``."""
    return isinstance(body.get("candidates"), list)


# The family name its reasoning items carry (a signature or encrypted content is valid only there).
REASONING_FAMILY = "gemini"


def reasoning_item(block: Any) -> ReasoningItem | None:
    """A thought part pasted as generateContent returns it (text, thought: true) or a bare
    thoughtSignature; None for any other shape."""
    value = block.value
    if "thoughtSignature" not in value and value.get("thought") is not True:
        return None
    block.only(("thought", "text", "thoughtSignature"), "a Gemini thought part")
    return ReasoningItem("gemini", text=block.text("text"), signature=block.text("thoughtSignature"))


LEDGER_CODES: dict[str, str] = {
    "schema.converted": "a schema keyword was rewritten into Gemini's Schema form without losing meaning "
                        "($ref inlined, type list → nullable/anyOf, const → enum, ...)",
    "schema.keyword_removed": "a schema keyword Gemini's Schema does not have was removed; the model no longer sees it",
    "schema.type_added": "parameters without a type get type: object, the form Gemini wants for parameters",
    "schema.type_unsupported": "a schema type is not one of Gemini's Schema types: the request is refused",
    "schema.ref_unresolved": "a $ref that cannot be inlined (not local, or recursive): the request is refused",
    "schema.json_schema": "parameters sent whole as parametersJsonSchema (plain JSON Schema, exclusive with "
                          "parameters): the OpenAPI-subset conversion would have lost something, or schema_form says so",
    "strict.validated": "strict tools are sent with mode VALIDATED (Gemini's schema-validated calling mode)",
    "strict.not_validated": "strict tools with a forced call: mode ANY cannot be combined with VALIDATED",
    "history.tool_result_wrapped": "a tool result was wrapped into the JSON object functionResponse.response needs",
    "history.thought_signature": "Gemini 3 history calls got Google's documented placeholder thoughtSignature",
    "history.signature_kept": "history calls and parts carry the thoughtSignature the model returned, unchanged",
    "thinking.mapped": "the thinking setting sent as generationConfig.thinkingConfig",
    "thinking.unsupported": "a thinking setting with no thinkingConfig form (e.g. effort max): not sent",
    "messages.empty": "no messages: Gemini refuses a request without contents",
    "model.normalized": "a 'models/' prefix was removed from the model name (the URL adds it)",
    "settings.ignored": "a providers.gemini setting this translator does not use",
}


# ---- translation ----------------------------------------------------------------------------


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = translation.start(provider, scenario, options, cap)
    model = _model_name(ctx)
    _ignored_settings(ctx)
    translation.check_names(ctx, NAME_RULE)

    body: dict[str, Any] = {"contents": _contents(ctx, model)}
    if scenario.system is not None:
        body["systemInstruction"] = {"parts": [{"text": scenario.system}]}
    tools = () if ctx.plan.omit_tools else ctx.plan.tools
    if tools:
        body["tools"] = [{"functionDeclarations": [_declaration(ctx, tool) for tool in tools]}]
        calling = _calling_config(ctx)
        if calling is not None:
            body["toolConfig"] = {"functionCallingConfig": calling}
    translation.parallel_value(ctx)  # no switch on Gemini: records the drop
    generation: dict[str, Any] = {}
    if ctx.settings.max_tokens is not None:
        generation["maxOutputTokens"] = ctx.settings.max_tokens
    if ctx.settings.temperature is not None:
        generation["temperature"] = ctx.settings.temperature
    thinking = _thinking_config(ctx, model)
    if thinking is not None:
        generation["thinkingConfig"] = thinking
    if generation:
        body["generationConfig"] = generation

    if options.stream:
        url = translation.endpoint(ctx, DEFAULT_BASE, f"/v1beta/models/{model}:streamGenerateContent") + "?alt=sse"
        translation.streamed(ctx, "streamGenerateContent?alt=sse: server-sent events, each a GenerateContentResponse "
                        "chunk; the last carries finishReason")
    else:
        url = translation.endpoint(ctx, DEFAULT_BASE, f"/v1beta/models/{model}:generateContent")
    headers = {"Content-Type": "application/json"}
    env = ctx.key_env
    if env:
        headers["x-goog-api-key"] = f"${env[0]}"
    return translation.finish(ctx, url=url, headers=headers, body=body,
                         choice_path=("toolConfig", "functionCallingConfig"))


def _model_name(ctx: Context) -> str:
    model = ctx.model
    if model.startswith("models/"):
        ctx.ledger.info("model.normalized", f"model {model} → {model[len('models/'):]} (the URL path adds 'models/')")
        model = model[len("models/"):]
    return model


def _thinking_config(ctx: Context, model: str) -> dict[str, Any] | None:
    """The neutral thinking setting → ``thinkingConfig`` (google-genai ``types.ThinkingConfig``: thinkingBudget,
    thinkingLevel, includeThoughts). Budget -1 is dynamic, 0 turns thinking off (ai.google.dev/gemini-api/docs/thinking)."""
    settings = ctx.settings
    spec = settings.thinking_mode
    if spec is None:
        if settings.thinking is None:
            return None
        config: dict[str, Any] = {"thinkingBudget": -1 if settings.thinking else 0}
    elif spec.effort is not None and spec.effort != "none":
        level = _LEVELS.get(spec.effort)
        if level is None:
            ctx.ledger.warning("thinking.unsupported", f"effort {spec.effort} has no thinkingLevel (levels: "
                               f"{', '.join(_LEVELS)}): thinking is not sent")
            return None
        config = {"thinkingLevel": level}
    elif spec.mode == "off":
        config = {"thinkingBudget": 0}
    elif spec.budget is not None:
        config = {"thinkingBudget": spec.budget}
    else:  # on / adaptive: the model decides how much
        config = {"thinkingBudget": -1}
    ctx.ledger.info("thinking.mapped", f"thinking {translation.compact(spec.to_json() if spec else settings.thinking)} → "
                    f"generationConfig.thinkingConfig {translation.compact(config)}")
    return config


def _ignored_settings(ctx: Context) -> None:
    for key in _IGNORED_SETTINGS:
        value = getattr(ctx.settings, key)
        if value is not None:
            ctx.ledger.warning("settings.ignored", f"providers.{ctx.provider}.{key} = {translation.compact(value)} is not "
                               "used by the Gemini translator; set the field through providers.gemini.extra")


def _calling_config(ctx: Context) -> dict[str, Any] | None:
    """``functionCallingConfig`` for the plan, or None to leave the API default (AUTO). The value is the row's
    (for an allowed subset, mode ANY when the allowed mode is required, else VALIDATED, the only modes that take
    allowedFunctionNames); strict tools under auto or no choice send the strict row's value instead (VALIDATED:
    Gemini has no per-tool strict flag, and a forced call cannot also be VALIDATED)."""
    plan = ctx.plan
    if plan.mode == "none":
        config: dict[str, Any] = translation.choice_value(ctx)
        translation.mapped(ctx, config)
        return config
    strict = translation.strict_tools(ctx)
    if plan.mode in ("unset", "auto"):
        if strict:  # the strict row's value (VALIDATED) stands in for auto
            config = translation.choice_value(ctx, "strict")
            _strict_validated(ctx, strict)
        elif plan.mode == "unset":
            return None
        else:
            config = translation.choice_value(ctx)
        if plan.mode == "auto":
            translation.mapped(ctx, config)
        return config
    config = translation.choice_value(ctx)
    if plan.mode == "allowed" and plan.allowed_mode != "required":
        translation.mapped(ctx, config, "allowedFunctionNames is accepted with ANY or VALIDATED only; VALIDATED "
                      "lets the model answer in text and also validates its calls against the schemas")
        if strict:
            _strict_validated(ctx, strict)
        return config
    translation.mapped(ctx, config)
    if strict:
        ctx.ledger.warning("strict.not_validated",
                           f"strict tools ({', '.join(sorted(strict))}) with a forced call: Gemini's schema-validated "
                           "mode is VALIDATED, which cannot also force a call, so mode ANY is sent and the arguments "
                           "are not validated by VALIDATED; use tool_choice auto to get validated calls")
    return config


def _strict_validated(ctx: Context, strict: set[str]) -> None:
    others = [t.name for t in ctx.plan.tools if t.name not in strict]
    also = f"; the mode covers every declared tool, so also {', '.join(others)}" if others else ""
    ctx.ledger.info("strict.validated",
                    f"strict tools ({', '.join(sorted(strict))}) → mode VALIDATED: Gemini has no per-tool strict "
                    f"flag; VALIDATED validates function calls with constrained decoding{also}")


def _declaration(ctx: Context, tool: Tool) -> dict[str, Any]:
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        declaration["description"] = tool.description
    if tool.parameters is not None:
        form = ctx.settings.schema_form or "auto"
        if form == "parametersJsonSchema":
            declaration["parametersJsonSchema"] = tool.parameters
            ctx.ledger.info("schema.json_schema", f"tool '{tool.name}': parameters sent whole as parametersJsonSchema "
                            "(providers.gemini.schema_form)")
            return declaration
        converter, parameters = _convert(tool.name, tool.parameters)
        lossy = [what for (severity, code, what, _), _ in converter.notes.items()
                 if severity != "info" and code != "schema.converted"] if converter.notes else None
        if form == "auto" and lossy:
            declaration["parametersJsonSchema"] = tool.parameters
            ctx.ledger.info("schema.json_schema", f"tool '{tool.name}': converting to Gemini's OpenAPI Schema subset "
                            f"would lose something ({'; '.join(dict.fromkeys(lossy))}): sent whole as "
                            "parametersJsonSchema instead (set providers.gemini.schema_form: parameters to convert)")
            return declaration
        converter.flush(ctx)
        if parameters is not None:
            declaration["parameters"] = parameters
    return declaration


# ---- JSON Schema → Gemini Schema ------------------------------------------------------------


def _convert(tool_name: str, schema: dict[str, Any]) -> tuple["_SchemaConverter", dict[str, Any] | None]:
    """The conversion and its notes, not yet in the ledger (the caller decides whether it is used)."""
    converter = _SchemaConverter(tool_name, schema)
    root = converter.node(schema, "parameters", ())
    if "type" not in schema and "anyOf" not in root:
        root = {"type": "object", **root}
        converter.note("info", "schema.type_added", "type object added", "parameters",
                       "Gemini wants an OBJECT schema for function parameters")
    empty = str(root.get("type", "")).lower() == "object" and not root.get("properties") and "anyOf" not in root
    if empty:
        converter.note("info", "schema.converted", "empty object schema left out", "parameters",
                       "the tool takes no arguments; Gemini has answered 400 'properties: should be non-empty for "
                       "OBJECT type' to an empty one (pipecat-ai/pipecat-flows#110)")
    return converter, None if empty else root


class _SchemaConverter:
    def __init__(self, tool_name: str, root: dict[str, Any]) -> None:
        self.tool = tool_name
        self.defs: dict[str, Any] = {}
        for key in ("$defs", "definitions"):
            if isinstance(root.get(key), dict):
                self.defs.update({f"#/{key}/{name}": sub for name, sub in root[key].items()})
        # (severity, code, what, why) -> paths, in first-seen order
        self.notes: dict[tuple[str, str, str, str], list[str]] = {}

    def note(self, severity: str, code: str, what: str, path: str, why: str) -> None:
        paths = self.notes.setdefault((severity, code, what, why), [])
        if path not in paths:
            paths.append(path)

    def flush(self, ctx: Context) -> None:
        for (severity, code, what, why), paths in self.notes.items():
            shown = ", ".join(paths[:6]) + (f" and {len(paths) - 6} more" if len(paths) > 6 else "")
            ctx.ledger.add(severity, code, f"tool '{self.tool}': {what} at {shown} ({why})")  # type: ignore[arg-type]

    def removed(self, keyword: str, path: str, why: str = "") -> None:
        self.note("warning", "schema.keyword_removed", f"{keyword} removed", path,
                  why or "not a field of Gemini's Schema (ai.google.dev/api/caching#Schema)")

    def node(self, schema: Any, path: str, refs: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(schema, dict):
            self.note("error", "schema.type_unsupported", f"a {type(schema).__name__} schema", path,
                      "Gemini needs a Schema object here; write an object schema")
            return {}
        if "$ref" in schema:
            return self.reference(schema, path, refs)
        node = schema
        if "allOf" in node or "oneOf" in node:
            node = dict(schema)  # combinator edits it
            for key in ("allOf", "oneOf"):
                if key in node:
                    node = self.combinator(node, key, path)
        kinds = node.get("type")
        if (isinstance(kinds, list) and "anyOf" not in node and all(isinstance(k, str) for k in kinds)
                and all(k.lower() in _TYPE_SET for k in kinds)
                and len([k for k in kinds if k.lower() != "null"]) > 1):
            node = self.split_types(node, path)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _COPIED:  # most keys: description, required, format, ...
                out[key] = value
            elif key == "type":
                if isinstance(value, str) and value.lower() in _TYPE_SET:  # the common case: one known type
                    out["type"] = value
                else:
                    self.type_(value, out, path)
            elif key == "properties" and isinstance(value, dict):
                out["properties"] = properties = {}
                for name, sub in value.items():
                    # most properties have only copied keys and one known type (or none): nothing to convert
                    kind = sub.get("type", "object") if isinstance(sub, dict) and sub.keys() <= _PLAIN else None
                    if isinstance(kind, str) and kind.lower() in _TYPE_SET:
                        properties[name] = dict(sub)
                    else:
                        properties[name] = self.node(sub, f"{path}.{name}", refs)
            elif key == "items":
                if isinstance(value, dict):
                    out["items"] = self.node(value, f"{path}[]", refs)
                else:
                    self.removed("items (tuple form)", path, "Gemini's items is a single schema")
            elif key == "anyOf" and isinstance(value, list):
                self.any_of(value, out, path, refs)
            elif key == "enum":
                self.enum(value, out, path)
            elif key == "const":
                self.const(value, node, out, path)
            elif key in ("$defs", "definitions") and not refs and path == "parameters":
                self.note("info", "schema.converted", f"{key} dropped", path,
                          "its references are inlined where they are used")
            elif key in _ANNOTATIONS:
                self.note("info", "schema.converted", f"{key} dropped", path, "an annotation; no meaning is lost")
            elif key == "additionalProperties":
                self.removed(key, path, "not in the Gemini API Schema; the google-genai SDK refuses it for the "
                             "Gemini API, so extra keys are no longer forbidden")
            elif key in SCHEMA_FIELDS:
                out[key] = value
            else:
                self.removed(key, path)
        return out

    def reference(self, schema: dict[str, Any], path: str, refs: tuple[str, ...]) -> dict[str, Any]:
        ref = schema["$ref"]
        target = self.defs.get(ref) if isinstance(ref, str) else None
        if target is None or ref in refs:
            why = ("it refers back to itself; Gemini's Schema has no references, so it cannot be inlined"
                   if ref in refs else "only local #/$defs/... and #/definitions/... references can be inlined")
            self.note("error", "schema.ref_unresolved", f"$ref {ref}", path, why)
            return {}
        self.note("info", "schema.converted", f"$ref {ref} inlined", path, "Gemini's Schema has no references")
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        merged = {**target, **siblings} if isinstance(target, dict) else target
        return self.node(merged, path, refs + (ref,))

    def combinator(self, node: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        branches = node.pop(key)
        if not isinstance(branches, list) or not branches:
            self.removed(key, path)
            return node
        if key == "allOf":
            if len(branches) == 1 and isinstance(branches[0], dict):
                self.note("info", "schema.converted", "allOf with one branch merged", path, "Gemini has no allOf")
                return {**branches[0], **node}
            self.removed(key, path, "Gemini has no allOf; its constraints are no longer sent")
            return node
        if "anyOf" in node:
            self.removed(key, path, "Gemini has no oneOf, and this node already has an anyOf")
            return node
        kinds = [b.get("type") for b in branches if isinstance(b, dict)]
        if len(kinds) == len(branches) and all(isinstance(k, str) for k in kinds) and len(set(kinds)) == len(kinds):
            # Branches of different types cannot both match: oneOf and anyOf accept the same values.
            self.note("info", "schema.converted", "oneOf sent as anyOf", path,
                      "Gemini has no oneOf; the branches have different types, so no value matches two")
        else:
            self.note("warning", "schema.keyword_removed", "oneOf sent as anyOf", path,
                      "Gemini has no oneOf; 'exactly one branch' becomes 'at least one'")
        return {**node, "anyOf": branches}

    def type_(self, value: Any, out: dict[str, Any], path: str) -> None:
        """A type list (or an unknown type; node() handles one known type itself)."""
        names = value if isinstance(value, list) else [value]
        unknown = [n for n in names if not isinstance(n, str) or n.lower() not in _TYPE_SET]
        if unknown:
            self.note("error", "schema.type_unsupported", f"type {translation.compact(unknown[0])}", path,
                      f"Gemini's Schema types are {', '.join(SCHEMA_TYPES)}; fix the schema")
            return
        if not isinstance(value, list):
            out["type"] = value
            return
        concrete = [n for n in value if n.lower() != "null"]
        out["type"] = concrete[0] if concrete else "null"
        nullable = bool(concrete) and len(concrete) < len(value)
        if nullable:
            out["nullable"] = True
        self.note("info", "schema.converted",
                  f"type {translation.compact(value)} → {translation.compact(out['type'])}{' + nullable' if nullable else ''}",
                  path, "Gemini's type is a single value")

    def split_types(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        """A list of several concrete types becomes one anyOf branch per type, each carrying the
        keywords of its type (items for array, properties for object, ...)."""
        value = node["type"]
        concrete = [n for n in value if isinstance(n, str) and n.lower() != "null"]
        rest = {k: v for k, v in node.items() if k != "type"}
        branches = []
        for name in concrete:
            branch: dict[str, Any] = {"type": name}
            for keyword in _TYPE_KEYWORDS.get(name.lower(), ()):
                if keyword in rest:
                    branch[keyword] = rest[keyword]
            branches.append(branch)
        for name in concrete:
            for keyword in _TYPE_KEYWORDS.get(name.lower(), ()):
                rest.pop(keyword, None)
        if len(concrete) < len(value):
            rest["nullable"] = True
        self.note("info", "schema.converted", f"type {translation.compact(value)} → anyOf", path,
                  "Gemini's type is a single value")
        return {**rest, "anyOf": branches}

    def any_of(self, branches: list[Any], out: dict[str, Any], path: str, refs: tuple[str, ...]) -> None:
        concrete = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null" and len(b) == 1)]
        nullable = len(concrete) < len(branches)
        if nullable:
            out["nullable"] = True
        converted = [self.node(b, f"{path}.anyOf[{i}]", refs) for i, b in enumerate(concrete)]
        if len(converted) == 1:
            for key, value in converted[0].items():
                out.setdefault(key, value)
            what = "anyOf [schema, null] → schema + nullable" if nullable else "anyOf with one branch merged"
            self.note("info", "schema.converted", what, path, "the same values, in the form Gemini's Schema takes")
        else:
            if converted:
                out["anyOf"] = converted
            if nullable:
                self.note("info", "schema.converted", "anyOf null branch → nullable", path,
                          "Gemini marks optional values with nullable")

    def enum(self, values: Any, out: dict[str, Any], path: str) -> None:
        if not isinstance(values, list):
            self.removed("enum", path, "enum must be a list")
            return
        kept = [v for v in values if v is not None]
        if len(kept) < len(values):
            out["nullable"] = True
            self.note("info", "schema.converted", "null in enum → nullable", path, "Gemini enums hold strings only")
        if all(isinstance(v, str) for v in kept):
            out["enum"] = kept
        else:
            self.removed(f"enum {translation.compact(values)[:60]}", path,
                         "Gemini enums hold strings only (Type.STRING with enum format); the allowed values are lost")

    def const(self, value: Any, node: dict[str, Any], out: dict[str, Any], path: str) -> None:
        if "enum" in node:
            self.removed("const", path, "Gemini has no const and the node already has an enum")
        elif isinstance(value, str):
            out["enum"] = [value]
            self.note("info", "schema.converted", "const → enum with one value", path, "Gemini has no const")
        else:
            self.removed(f"const {translation.compact(value)[:40]}", path,
                         "Gemini has no const, and its enums hold strings only")


# ---- history --------------------------------------------------------------------------------


def _contents(ctx: Context, model: str) -> list[dict[str, Any]]:
    messages = ctx.scenario.messages
    if not messages:
        ctx.ledger.error("messages.empty", "the scenario has no messages: Gemini answers 400 'contents is not "
                         "specified' (langchain-ai/langchain-google#1393); add a user message")
        return []
    signed = ctx.history_calls and _signatures_required(ctx, model)  # only history calls carry signatures
    translation.reasoning_for(ctx, REASONING_FAMILY, takes_call_signatures=True)
    contents: list[dict[str, Any]] = []
    wrapped: list[str] = []
    errors: list[str] = []
    signatures = 0
    kept = 0
    results: list[dict[str, Any]] | None = None  # the parts of the current run of tool results
    for message in messages:
        if message.role == "tool":
            if results is None:
                results = []
                contents.append({"role": "user", "parts": results})
            results.append(_function_response(message, wrapped, errors))
            continue
        results = None
        if message.role == "user":
            contents.append({"role": "user", "parts": [{"text": message.content or ""}]})
            continue
        items = [i for i in message.reasoning if i.family == "gemini"]
        slots = translation.placed([i for i in items if i.text is not None], len(message.tool_calls))
        loose = [i.signature for i in items if i.text is None and i.signature is not None]
        parts: list[dict[str, Any]] = [_thought_part(i) for i in slots[0]]
        first = len(parts)
        if message.content:
            parts.append({"text": message.content})
        # the model signs only the first call of a parallel turn: unsigned calls next to a signed one stay so
        written_by_model = any(c.signature is not None for c in message.tool_calls) or bool(items)
        for index, call in enumerate(message.tool_calls):
            if index:
                parts.extend(_thought_part(i) for i in slots[index])
            part: dict[str, Any] = {"functionCall": {"id": call.id, "name": call.name, "args": call.arguments}}
            if call.signature is not None:
                part["thoughtSignature"] = call.signature
                kept += 1
            elif signed and not written_by_model:
                part["thoughtSignature"] = THOUGHT_SIGNATURE_SENTINEL
                signatures += 1
            parts.append(part)
        if message.tool_calls:
            parts.extend(_thought_part(i) for i in slots[-1])
        if loose and len(parts) > first and "thoughtSignature" not in parts[first]:
            parts[first]["thoughtSignature"] = loose[0]  # a signed answer: the signature sits on its first part
            kept += 1
        contents.append({"role": "model", "parts": parts})
    if kept:
        ctx.ledger.info("history.signature_kept", f"{kept} thoughtSignature{'s' if kept > 1 else ''} the model returned "
                        "sent back unchanged on the parts that carried them")
    if wrapped:
        ctx.ledger.info("history.tool_result_wrapped",
                        f"tool result{'s' if len(wrapped) > 1 else ''} for {', '.join(wrapped)} "
                        f"{'are' if len(wrapped) > 1 else 'is'} not a JSON object: sent as "
                        '{"output": ...} (functionResponse.response must be an object; "output" is the documented key)')
    if errors:
        ctx.ledger.info("history.tool_result_wrapped",
                        f"failed tool result{'s' if len(errors) > 1 else ''} for {', '.join(errors)}: sent as "
                        '{"error": ...} ("error" is the documented key for error details)')
    if signatures:
        ctx.ledger.info("history.thought_signature",
                        f"{model} refuses history function calls without a thoughtSignature: "
                        f"{signatures} call{'s' if signatures > 1 else ''} it did not write (by hand or another model) got "
                        f'"{THOUGHT_SIGNATURE_SENTINEL}", the placeholder Google documents for calls the model did '
                        "not produce (ai.google.dev/gemini-api/docs/thought-signatures)")
    return contents


def _thought_part(item: Any) -> dict[str, Any]:
    part: dict[str, Any] = {"text": item.text, "thought": True}
    if item.signature is not None:
        part["thoughtSignature"] = item.signature
    return part


def _signatures_required(ctx: Context, model: str) -> bool:
    """Whether history calls need a thoughtSignature: model rule signatures_required, or the user's override."""
    fact = translation.model_facts(ctx, model).get("signatures_required")
    if fact is None or not fact.value:
        return False
    if ctx.history_calls:
        translation.rule_applied(ctx, "signatures_required", fact, f"{model} needs thought signatures on history calls")
    return True


def _function_response(message: Message, wrapped: list[str], errors: list[str]) -> dict[str, Any]:
    content = message.content or ""
    call_id = message.tool_call_id or ""
    if message.is_error:
        try:
            detail: Any = json_value(content)
        except ValueError:
            detail = content
        response: dict[str, Any] = {"error": detail}
        errors.append(call_id)
    else:
        response = translation.tool_result_object(content)
        if not _is_json_object(content):
            wrapped.append(call_id)
    return {"functionResponse": {"id": message.tool_call_id, "name": message.tool_name, "response": response}}


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json_value(text), dict)
    except ValueError:
        return False


# ---- replies --------------------------------------------------------------------------------


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].functionDeclarations[].name``)."""
    declarations = [d for t in body.get("tools") or () if isinstance(t, dict)
                    for d in (t.get("functionDeclarations") or t.get("function_declarations") or ())]
    return translation.tool_names(declarations, "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """A generateContent body → Reply. Calls are read from the parts (finishReason is STOP even with
    calls); thought parts and thoughtSignature are skipped. An error envelope becomes ``Reply.error``."""
    data = expect_dict(provider, body, "the body")
    if "candidates" not in data and looks_like_error(data):
        error = data.get("error")
        code = int_or_none(error.get("code")) if isinstance(error, dict) else None
        return Reply(error=provider_error(provider, code, data))
    usage = _usage(data.get("usageMetadata"))
    candidates = expect_list(provider, data.get("candidates"), "candidates")
    if not candidates:
        feedback = data.get("promptFeedback")
        reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
        return Reply(finish_reason=reason if isinstance(reason, str) else None, usage=usage)
    first = expect_dict(provider, candidates[0], "candidates[0]")
    content = first.get("content")
    parts = [] if content is None else expect_list(
        provider, expect_dict(provider, content, "candidates[0].content").get("parts"), "candidates[0].content.parts")
    calls = []
    texts = []
    reasoning = []
    for i, raw in enumerate(parts):
        part = expect_dict(provider, raw, f"candidates[0].content.parts[{i}]")
        signature = part.get("thoughtSignature")
        signature = signature if isinstance(signature, str) else None
        if "functionCall" in part:
            call = expect_dict(provider, part["functionCall"], f"candidates[0].content.parts[{i}].functionCall")
            if not isinstance(call.get("name"), str):
                raise bad_body(provider, f"candidates[0].content.parts[{i}].functionCall has no name")
            made = make_call(call.get("id"), call["name"], call.get("args"))
            calls.append(made._replace(signature=signature) if signature is not None else made)
        elif part.get("thought") is True:
            text = part.get("text")
            reasoning.append(ReasoningItem("gemini", text=text if isinstance(text, str) else None, signature=signature,
                                           position=len(calls)))
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
            if signature is not None:  # a signed answer part: the signature goes back on the first text part
                reasoning.append(ReasoningItem("gemini", signature=signature, position=len(calls)))
    finish = first.get("finishReason")
    return Reply(tool_calls=tuple(calls), text=join_text(texts),
                 finish_reason=finish if isinstance(finish, str) else None, usage=usage, reasoning=tuple(reasoning))


def _usage(meta: Any) -> Usage:
    if not isinstance(meta, dict):
        return Usage()
    return Usage(int_or_none(meta.get("promptTokenCount")), int_or_none(meta.get("candidatesTokenCount")))


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "sse"


class GeminiStreamAssembler(StreamAssembler):
    """``streamGenerateContent?alt=sse`` chunks → the Reply ``parse_reply`` makes of one body.

    Each chunk is a GenerateContentResponse; ``candidates[0].content.parts`` add text and
    ``functionCall`` parts, which usually arrive whole (name + args). With streamed function-call
    arguments (Gemini 3 / Vertex ``partialArgs``: a part with ``name`` and ``willContinue``, then
    parts whose ``partialArgs`` carry ``jsonPath`` and a ``stringValue`` piece or a number/bool/null
    value, then an empty ``functionCall``) the pieces are joined per path. The last chunk carries
    ``finishReason``; there is no other end-of-stream event, so a stream without one is cut short."""

    final_event = "a chunk with finishReason"

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self._open: Any = None  # key of a call whose arguments are still streaming
        self._partial: dict[Any, dict[str, Any]] = {}

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            return False
        if "candidates" not in data and data.get("error") is not None:
            error = data.get("error")
            self.fail(provider_error(self.provider, int_or_none(error.get("code")) if isinstance(error, dict)
                                     else None, data))
            return False
        if isinstance(data.get("usageMetadata"), dict):
            usage = _usage(data["usageMetadata"])
            if usage != Usage():
                self.usage = usage
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            feedback = data.get("promptFeedback")
            if isinstance(feedback, dict) and isinstance(feedback.get("blockReason"), str):
                self.finish_reason, self.done = feedback["blockReason"], True
            return False
        first = candidates[0] if isinstance(candidates[0], dict) else {}
        if isinstance(first.get("finishReason"), str):
            self.finish_reason, self.done = first["finishReason"], True
        content = first.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        called = False
        for part in parts if isinstance(parts, list) else ():
            if not isinstance(part, dict):
                continue
            if part.get("thoughtSignature"):
                self.extras["signatures"] = self.extras.get("signatures", 0) + 1
            if isinstance(part.get("functionCall"), dict):
                self._call(part["functionCall"])
                called = True
            elif part.get("thought") is True:
                self.count("reasoning_chars", part.get("text"))
            elif isinstance(part.get("text"), str):
                self.text.append(part["text"])
        return called

    def _call(self, call: dict[str, Any]) -> None:
        if "partialArgs" in call or (self._open is not None and not call.get("name")):
            if self._open is None:  # argument pieces no call opened: a finding, kept as their own call
                self._open = len(self.calls.by_key)
                self.calls.delta(self._open, None)
            key = self._open
            for piece in call.get("partialArgs") or ():
                if isinstance(piece, dict):
                    self._piece(key, piece)
            self.calls.by_key[key].deltas += 1
            if not call.get("willContinue"):
                self._open = None
                self.calls.by_key[key].whole = _unflatten(self._partial.pop(key, {}))
            return
        key = len(self.calls.by_key)
        opened = self.calls.open(key, call.get("id"), call.get("name"))
        opened.deltas = 1
        if call.get("willContinue"):
            self._open = key
            self._partial[key] = {}
        else:
            opened.whole = call.get("args") if call.get("args") is not None else {}

    def _piece(self, key: Any, piece: dict[str, Any]) -> None:
        path = piece.get("jsonPath")
        if not isinstance(path, str):
            return
        values = self._partial.setdefault(key, {})
        if "stringValue" in piece:
            values[path] = (values.get(path) or "") + str(piece["stringValue"])
        elif "numberValue" in piece:
            values[path] = piece["numberValue"]
        elif "boolValue" in piece:
            values[path] = piece["boolValue"]
        elif "nullValue" in piece:
            values[path] = None

    def finish(self) -> Any:
        for key in list(self._partial):  # arguments still streaming when the stream ended
            self.calls.by_key[key].whole = _unflatten(self._partial.pop(key))
        return super().finish()


def _unflatten(values: dict[str, Any]) -> dict[str, Any]:
    """``{"$.a.b": 1, "$.c": "x"}`` → ``{"a": {"b": 1}, "c": "x"}`` (object paths; an index
    ``[n]`` step makes a list)."""
    import re

    out: dict[str, Any] = {}
    for path, value in values.items():
        steps = [s for s in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", path)]
        target: Any = out
        for i, (name, index) in enumerate(steps):
            last = i == len(steps) - 1
            step: Any = name if name else int(index)
            nxt: Any = value if last else ({} if steps[i + 1][0] else [])
            if isinstance(target, dict):
                target = target.setdefault(step, nxt) if not last else target.__setitem__(step, nxt)
            elif isinstance(target, list):
                while len(target) <= step:
                    target.append(None)
                if last:
                    target[step] = nxt
                else:
                    if target[step] is None:
                        target[step] = nxt
                    target = target[step]
    return out


def stream_assembler(provider: str) -> GeminiStreamAssembler:
    return GeminiStreamAssembler(provider)
