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

from .parse import (CALL_SIGNATURES, ERROR_ENVELOPES, REASONING_FAMILY, REPLY_KIND, looks_like_reply, offered_tools,
                    parse_reply, reasoning_item)
from .schema import SCHEMA_FIELDS, SCHEMA_TYPES, TOOL_FILE
from .stream import STREAM_FRAMING, GeminiStreamAssembler, stream_assembler
from .hosted import LEDGER_CODES as _HOSTED_CODES, NATIVE_TOOLS, TOOLS_TYPE
from .translate import (CHOICE_COUNT_FIELDS, DEFAULT_BASE, NAME_RULE, THOUGHT_SIGNATURE_SENTINEL, TOOL_FIELDS,
                        TOOL_FIELDS_UNSENT, translate)

__all__ = [
    "CALL_SIGNATURES", "CHOICE_COUNT_FIELDS", "DEFAULT_BASE", "ERROR_ENVELOPES", "LEDGER_CODES", "NAME_RULE",
    "NATIVE_TOOLS", "TOOLS_TYPE", "REASONING_FAMILY",
    "REPLY_KIND", "SCHEMA_FIELDS", "SCHEMA_TYPES", "STREAM_FRAMING", "THOUGHT_SIGNATURE_SENTINEL", "TOOL_FIELDS",
    "TOOL_FIELDS_UNSENT", "TOOL_FILE", "TRACED_NAMES",
    "GeminiStreamAssembler", "looks_like_reply", "offered_tools",
    "parse_reply", "reasoning_item", "stream_assembler", "translate",
]

# a trace's provider name holding the part is this API's (trace_import.PROVIDER_NAMES: vertex_ai, gcp.vertex_ai), and
# why, said beside the mapping (trace_scenario's trace.provider_mapped, through registry.traced_name_note)
TRACED_NAMES = (("vertex", "the Gemini API: Vertex AI speaks the same generateContent form"),)

LEDGER_CODES: dict[str, str] = {
    "history.missing_tool_result": "a tool call has no functionResponse in the next turn, which the API rejects (its "
                                   "words quoted): request refused (a history that ends with the calls is sent)",
    "schema.converted": "a schema keyword was rewritten into Gemini's Schema form without losing meaning "
                        "($ref inlined, type list → nullable/anyOf, const → enum, ...)",
    "schema.keyword_removed": "a schema keyword Gemini's Schema does not have was removed; the model no longer sees it",
    "schema.type_added": "parameters without a type get type: object, the form Gemini wants for parameters",
    "schema.type_unsupported": "a schema type is not one of Gemini's Schema types: the request is refused",
    "schema.ref_unresolved": "a $ref that cannot be inlined (not local, or recursive): the request is refused",
    "schema.api_refuses": "a tool's parameters as converted (or its response schema) hold what Gemini's API answers "
                          "400 to (properties or required on a type other than OBJECT, a required name with no "
                          "property, enum on a type other than STRING, an ARRAY without items, a field of another JSON "
                          "kind or one Schema has not; parameters beside parametersJsonSchema, whose refusal Google "
                          "states without its words): each place, the API's recorded words (or the statement) and "
                          "their source; the request is sent as written, and the mock refuses it",
    "schema.json_schema": "parameters sent whole as parametersJsonSchema (plain JSON Schema, exclusive with "
                          "parameters): the OpenAPI-subset conversion would have lost something, or schema_form says so",
    "strict.validated": "strict tools are sent with mode VALIDATED (Gemini's schema-validated calling mode)",
    "strict.not_validated": "strict tools with a forced call: mode ANY cannot be combined with VALIDATED",
    "history.tool_result_wrapped": "a tool result was wrapped into the JSON object functionResponse.response needs",
    "history.thought_signature": "Gemini 3 history calls got Google's documented placeholder thoughtSignature",
    "history.signature_kept": "history calls and parts carry the thoughtSignature the model returned, unchanged",
    "model_rule.unstated": "history calls without a thoughtSignature on a model whose sources disagree on whether it "
                           "refuses them (Gemini 2.5): sent as written, the ledger says the fact is unknown",
    "thinking.mapped": "the thinking setting sent as generationConfig.thinkingConfig",
    "thinking.unsupported": "a thinking setting with no thinkingConfig form (e.g. effort max): not sent",
    "messages.empty": "no messages: Gemini refuses a request without contents",
    "model.normalized": "a 'models/' prefix was removed from the model name (the URL adds it)",
    "settings.ignored": "a providers.gemini setting this translator does not use",
    "tool.no_parameters_forced": "a tool declared without parameters under mode ANY (a forcing tool_choice): the API's "
                                 "one recorded answer to it is a 400, the SDK's reference says the field may be left "
                                 "unset (fact gemini.no_parameters_any): sent as written, warned",
    **_HOSTED_CODES,
}
