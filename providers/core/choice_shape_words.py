"""The API's own words refusing a ``tool_choice`` of another API's shape: dated facts (read 2026-11-27), joined to
``facts.FACTS`` and to the refusal words ``refusal_words.api_refusal`` looks up.

A client that sends one family's tool_choice to another (Anthropic's ``{"type": "any"}`` to OpenAI, OpenAI's
``{"type": "function", "function": {...}}`` to Anthropic) gets a 400 from the real API. Each family's mock module
says which shapes its API refuses (``MockRead.shape``: a ledger entry with toolchoice's words naming the SDK type
that leaves the shape out); where a recorded body gives the API's own words, the mock's 400 carries them (these rows),
else toolchoice's words. ``{type}`` in the words is the request's ``tool_choice.type`` (refusal_words._filled).

Beside them, the other dated facts the mock's answers follow (``bedrock.redacted_thinking_models``: which Claude models
AWS says hand out redacted thinking).
"""

from __future__ import annotations

from .fact_record import CITE_END, Fact
from .fact_values import NamedModels, RefusalWords

_READ = "2026-11-27"
# Gemini's protobuf JSON parser refusing a field GenerateContentRequest has not ({name}: the field as sent), one line
# per field, joined by a newline (fact gemini.unknown_field_words; providers/gemini_mock.py)
GEMINI_UNKNOWN_FIELD = 'Invalid JSON payload received. Unknown name "{name}": Cannot find field.'
# the same for a field of a message inside it, {at} the message's place in proto field names
GEMINI_UNKNOWN_AT = 'Invalid JSON payload received. Unknown name "{name}" at \'{at}\': Cannot find field.'
# the anthropic-version values the versions page names (fact anthropic.version_words; providers/anthropic_mock.py),
# and the API's words for another ({version}: the header's value as it arrived)
ANTHROPIC_VERSIONS = ("2023-01-01", "2023-06-01", "2026-10-21")
ANTHROPIC_VERSION_WORDS = 'anthropic-version: "{version}" is not a valid version'

CHOICE_SHAPE_FACTS: tuple[Fact, ...] = (
    Fact("openai.tool_choice_shape_words", ("openai",),
         "OpenAI's Chat Completions answers an object tool_choice with no function object and a type other than "
         "allowed_tools or custom (Anthropic's {type: any}, {type: tool, name}, a type it does not know) with a 400 "
         "invalid_request_error: \"Missing required parameter: 'tool_choice.function'.\", param tool_choice.function, "
         "code missing_required_parameter. The mock answers these words and that envelope (tool_choice.shape)",
         "a public proxy's conformance table of the direct API's envelopes, measured against api.openai.com "
         "(2026-08/09, its rows 'a tool_choice object with no function': tool_choice {type: 'bogus'}; found by the code "
         "index, read 2026-11-27); a public agent's fix for Anthropic's {\"type\": \"tool\", \"name\": ...} reaching "
         "ChatOpenAI's /chat/completions (its tests and notes: 'OpenAI rejects it with Missing required parameter: "
         "'tool_choice.function''; found by the code index); openai 3.57.0 types/chat/"
         f"chat_completion_named_tool_choice_param.py{CITE_END}\"{{ param: 'tool_choice.function', code: "
         "'missing_required_parameter', message: \\\"Missing required parameter: 'tool_choice.function'.\\\" }\" "
         "(the conformance table, type 'invalid_request_error'); '[the Anthropic shape] reaches OpenAI's "
         "/chat/completions, which requires {\"type\": \"function\", \"function\": {\"name\": <tool>}} and rejects the "
         "Anthropic shape with Missing required parameter: 'tool_choice.function''; 'function: Required[Function]'",
         _READ,
         (RefusalWords("tool_choice.shape", ("openai",), "Missing required parameter: 'tool_choice.function'.",
                       envelope=(("param", "tool_choice.function"), ("code", "missing_required_parameter"))),)),
    # trial 19h (2026-11-28): the API's words for a string tool_choice outside none / auto / required (the mock said
    # toolchoice's "is not one of" sentence until then; Azure's and the no-tools case's are not recorded: they keep it)
    Fact("openai.tool_choice_value_words", ("openai", "openai-responses"),
         "OpenAI's Chat Completions and Responses APIs answer a string tool_choice other than none, auto and required "
         "(Anthropic's and Mistral's any, a tool's name) with 400 invalid_request_error: \"Invalid value: 'VALUE'. "
         "Supported values are: 'none', 'auto', and 'required'.\", VALUE as sent, param tool_choice, code "
         "invalid_value. The mock answers these words and that envelope on both APIs when the body offers tools (the "
         "case recorded; without tools no recording gives their order against a refusal of the missing tools: Chat "
         "Completions answers its tool_choice-without-tools 400, as before, and Responses toolchoice's words, "
         "tool_choice.word); Azure's words are not recorded",
         "maximhq/bifrost#6887 (2026-09-06, Anthropic's {type: any} sent on as the string 'any' to api.openai.com "
         "on both /v1/responses and /v1/chat/completions, 'HTTP 400 before the model runs'; read in the issues "
         "index, which returns the thread's opening); its fix maximhq/bifrost#6888 (2026-09-06, merged; its tests "
         "use gpt-4o); the words for 'any' as a public project's notes record them through LiteLLM's OpenAI route "
         "(LangChain's with_structured_output, found by the code index, read 2026-11-28); a public proxy's "
         "conformance tests of the direct API's envelopes (found by the code index, read 2026-11-28: 'Every row below "
         "is a DIRECT API observation, taken 2026-08-30 against `gpt-5.6-terra`'): Chat Completions ('an unknown "
         "tool_choice') and Responses ('tool_choice unknown string'), tools given in both; openai 3.57.0 "
         "types/chat/chat_completion_tool_choice_option_param.py and types/responses/tool_choice_options.py"
         f"{CITE_END}'OpenAI accepts only `none`, `auto`, and `required` for that field, so the request fails with "
         "HTTP 400 before the model runs.' and 'This affects both OpenAI egress paths: - `/v1/responses` with the "
         "built-in `openai` provider - `/v1/chat/completions` ...' (bifrost#6887); 'OpenAI accepts only `none`, "
         "`auto` and `required` as string tool choices and rejects `any` with HTTP 400 (`invalid_value` on `param: "
         "tool_choice`)' (bifrost#6888); 'litellm.BadRequestError: OpenAIException - Invalid value: 'any'. Supported "
         "values are: 'none', 'auto', and 'required'.' (the notes); \"{ param: \\\"tool_choice\\\", code: "
         "\\\"invalid_value\\\", message: \\\"Invalid value: 'bogus'. Supported values are: 'none', 'auto', and "
         "'required'.\\\" }\" (the conformance tests, both APIs); 'Literal[\"none\", \"auto\", \"required\"]'", "2026-11-28",
         (RefusalWords("tool_choice.word", ("openai", "openai-responses"), "Invalid value: '{choice}'. Supported "
                       "values are: 'none', 'auto', and 'required'.",
                       envelope=(("param", "tool_choice"), ("code", "invalid_value"))),)),
    Fact("openai-responses.tool_choice_shape_words", ("openai-responses",),
         "OpenAI's Responses API answers Chat Completions' named form {type: function, function: {name}} with a 400: "
         "\"Unknown parameter: 'tool_choice.function'.\" (its own named form is flat: {type: function, name}). The "
         "mock answers these words (tool_choice.nested_function)",
         "public clients' notes on forwarding the Chat shape to /v1/responses (found by the code index, read "
         "2026-11-27: a Rust gateway's notes, a TypeScript transport's comment, a Python test's fake BadRequestError "
         f"body); openai 3.57.0 types/responses/tool_choice_function_param.py{CITE_END}'the nested form "
         "`{\"type\":\"function\",\"function\":{\"name\":\"X\"}}` returns `\"Unknown parameter: 'tool_choice.function'\"`'; "
         "'Forwarding the chat shape verbatim 400s with `Unknown parameter: 'tool_choice.function'.`'; "
         "'name: Required[str]', 'type: Required[Literal[\"function\"]]'", _READ,
         (RefusalWords("tool_choice.nested_function", ("openai-responses",),
                       "Unknown parameter: 'tool_choice.function'."),)),
    Fact("xai.tool_choice_shape_words", ("xai",),
         "xAI's API answers a tool_choice object that is not its named function ({type: function, function: {name}}) "
         "with HTTP 422 and the body {\"error\": \"Failed to deserialize the JSON body into the target type: data did "
         "not match any variant of untagged enum ModelToolChoice\"} (its deserializer's words, no code field). The "
         "mock answers these words, that status and that body on the Chat Completions route (tool_choice.shape): the "
         "recording is of api.x.ai's /v1/responses, whose tool_choice is the same ModelToolChoice; no recording of "
         "/v1/chat/completions refusing an object was found",
         "router-for-me/CLIProxyAPI#4718 (2026-08-01, Grok 4.5, an Anthropic tool_choice translated to an object xAI "
         "does not take: 'request error, error status: 422', the upstream body quoted whole in the proxy's message); "
         "#5916 (2026-09-17, grok-4.6, an allowed_tools object: 'Upstream responds HTTP 422', the words with the field "
         "'tool_choice: ' before them, cut short in the thread); the shapes it takes: xai-org/xai-sdk-ts "
         "spec/openapi.json ChatRequest tool_choice (fact xai.tool_choice_words), docs.x.ai function calling (read "
         f"through #4718's notes){CITE_END}'\"message\": \"{{\\\"error\\\":\\\"Failed to deserialize "
         "the JSON body into the target type: data did not match any variant of untagged enum "
         "ModelToolChoice\\\"}\"' (#4718); 'The top-level `tool_choice` field should be one of the string values "
         "\"auto\", \"required\", or \"none\" — not an object such as {\"type\":\"web_search\"}' (#4718)",
         _READ,
         (RefusalWords("tool_choice.shape", ("xai",), "Failed to deserialize the JSON body into the target type: data "
                       "did not match any variant of untagged enum ModelToolChoice", status=422),)),
    Fact("deepseek.tool_choice_shape", ("deepseek",),
         "DeepSeek's API reference types tool_choice as ChatCompletionToolChoice (none, auto, required) or "
         "ChatCompletionNamedToolChoice ({type: function, function: {name}}, both required); a body its deserializer "
         "cannot read is answered 400 in its envelope (type and code invalid_request_error, param null; 422 until "
         "2025), its words 'Failed to deserialize the JSON body into the target type: FIELD: ... at line 1 column N'. "
         "No recording shows the words for a tool_choice object of another shape: the mock refuses it 400 in that "
         "envelope with toolchoice's words (tool_choice.shape)",
         "platform.deepseek.com/api-docs/api/create-chat-completion (the stored copy: tool_choice oneOf "
         "ChatCompletionToolChoice, ChatCompletionNamedToolChoice); zhukunpenglinyutong/jetbrains-cc-gui#591 "
         "(2026-03-06, the whole 400 body), danny-avila/LibreChat#10756 (2025-12-02, 400), cline/cline#230 (2024-09-05, "
         f"422), LeapLabTHU/cooragent#49 (2025-04-27, 422){CITE_END}'- ChatCompletionToolChoice - "
         "ChatCompletionNamedToolChoice'; 'API Error: 400 {\"error\":{\"message\":\"Failed to deserialize the JSON "
         "body into the target type: messages[4].content: unknown variant tool_reference, expected text at line 1 "
         "column 42187\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_request_error\"}}' "
         "(#591)", _READ),
    Fact("openrouter.tool_choice_shape", ("openrouter",),
         "OpenRouter's chat tool_choice object is its named function ({type: function, function: {name}}) or a server "
         "tool named by its type ({type: 'openrouter:web_search'}, ChatServerToolChoice: a type string, nothing else "
         "required); an object with no type string (Bedrock's {any: {}}, Gemini's {mode: ANY}) fits neither. No "
         "recording of OpenRouter refusing a tool_choice object was found: the mock refuses that one 400 with "
         "toolchoice's words (tool_choice.shape), and an object tagged with another word ({type: any}) is "
         "mock.choice_unread, answered as when tool_choice is left out (what OpenRouter does with a server tool type it "
         "does not know is not recorded)",
         "OpenRouter's openapi.yaml components/schemas ChatServerToolChoice and ChatNamedToolChoice, read through its "
         "generated SDKs in the code index (the C# and Kotlin clients, 'Source: sdkgen://source/openapi.yaml#/components"
         f"/schemas/ChatServerToolChoice'); fact openrouter.tool_choice_words{CITE_END}'OpenRouter extension: force a "
         "specific server tool by naming it directly in ... instead of wrapping it in `{ type: \"function\", function: "
         "{ name } }`'; 'OpenRouter server-tool type to force (e.g. `openrouter:web_search`, "
         "`web_search`, `web_search_preview`)'", _READ),
    Fact("anthropic.tool_choice_shape_words", ("anthropic",),
         "Anthropic's Messages API answers a tool_choice object whose type is not auto, any, tool or none (OpenAI's "
         "{type: function, function: {...}}, {type: required}) with a 400 invalid_request_error: \"tool_choice: Input "
         "tag 'TYPE' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'\", and "
         "a string tool_choice (OpenAI's \"auto\", \"required\") with \"tool_choice: Input should be an object\". The "
         "mock answers these words (tool_choice.shape, tool_choice.not_object)",
         "a public gateway's notes probed against the live Messages API (claude-haiku-4-5, 2026-08-28, 'Refused, with "
         "the exact errors'); a public workflow's log (2026-06-17, n8n Claude nodes: '400 - tool_choice: Input tag "
         "'required' found using 'type' does not match any of the expected tags'); a public test of a gateway's "
         "refusals ('invalid_tag', tool_choice {type: 'bogus'}); all found by the code index, read 2026-11-27; "
         f"anthropic 2.14.0 types/tool_choice_param.py{CITE_END}'{{\"type\":\"required\"}}   tool_choice: Input tag "
         "'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none''; "
         "'\"auto\"                tool_choice: Input should be an object'; '{\"type\":\"function\"}   tool_choice: "
         "Input tag 'function' ...'; 'ToolChoiceParam: TypeAlias = Union[ToolChoiceAutoParam, ToolChoiceAnyParam, "
         "ToolChoiceToolParam, ToolChoiceNoneParam]'", _READ,
         (RefusalWords("tool_choice.shape", ("anthropic",), "tool_choice: Input tag '{type}' found using 'type' does "
                       "not match any of the expected tags: 'auto', 'any', 'tool', 'none'"),
          RefusalWords("tool_choice.not_object", ("anthropic",), "tool_choice: Input should be an object"))),
    Fact("gemini.unknown_field_words", ("gemini",),
         "Gemini's generateContent answers a top-level field GenerateContentRequest has not (OpenAI's tool_choice, "
         "messages, temperature, max_tokens) with 400 INVALID_ARGUMENT: 'Invalid JSON payload received. Unknown name "
         "\"NAME\": Cannot find field.', one line per field joined by a newline, each also a google.rpc.BadRequest "
         "fieldViolation with that description and no field. The fields it has: model, systemInstruction, contents, "
         "tools, toolConfig, safetySettings, generationConfig, cachedContent (the v1beta proto), and the labels, "
         "serviceTier, store and continuationToken google-genai sends to the Developer API; each in its JSON and its "
         "proto spelling. A field of a message inside it that the message has not is named with its place in proto field "
         "names, a list's element by its index: 'Unknown name \"NAME\" at 'tool_config.function_calling_config': "
         "Cannot find field.', at 'tools[1]', at 'tools[0].function_declarations[1]', at "
         "'contents[2].parts[0].function_response', its fieldViolation's field that place; the messages looked into "
         "are GenerationConfig (and ThinkingConfig, ImageConfig), Tool (and FunctionDeclaration, GoogleSearch, "
         "GoogleMaps, CodeExecution, UrlContext, ComputerUse, FileSearch, GoogleSearchRetrieval), ToolConfig (and "
         "FunctionCallingConfig, RetrievalConfig), Content (systemInstruction, contents[]) and Part (and FunctionCall, "
         "FunctionResponse, Blob, FileData, ExecutableCode, CodeExecutionResult), SafetySetting, and Schema (a "
         "declaration's parameters and response, generationConfig's responseSchema; into its items, anyOf[i] and each "
         "properties map value, named 'properties[i].value' by its index), each with the proto's fields and those "
         "google-genai 3.6.1 sends to the Developer API (providers/gemini/request_fields.py; a JSON Schema sent as a "
         "Value, parametersJsonSchema, is not looked into), Schema's the proto's alone (not the defs and ref "
         "google-genai adds: decolua/9router#1036, 2026-05-12, 'Unknown name \"ref\" at ...value.items'). The mock "
         "answers these words and that envelope on /v1beta and /v1, one line per field in body order, depth first "
         "(body.unknown_field; a functionCallingConfig field FunctionCallingConfig has not, tool_choice.shape)",
         "nashsu/llm_wiki#49 (2026-04-21, a top-level temperature, the whole body); steipete/summarize#209 "
         "(2026-04-27, 'I tested directly against the Gemini API': top-level temperature and maxOutputTokens answered "
         "400 INVALID_ARGUMENT); googleapis/python-genai#425 (2025-02-28, the whole body, a top-level "
         "systemInstruction) and #1398 (2025-09-18, two such lines joined by a newline); Alishahryar1/free-claude-code"
         "#542 (2026-05-24, generativelanguage.googleapis.com, the same envelope); a field inside: CherryHQ/cherry-studio"
         "#15047 (at 'tool_config'), google-gemini/deprecated-generative-ai-js#125 (2024-05-03, at 'generation_config', "
         "its fieldViolation's field 'generation_config'), mnfst/llm-gateway#1858 (2026-05-07, the whole body with "
         "field and description); a public client's notes on an "
         "OpenAI-shaped body sent to generateContent (found by the code index, read 2026-11-27); the field list: "
         "googleapis/googleapis google/ai/generativelanguage/v1beta/generative_service.proto (GenerateContentRequest, "
         "commit bc7e3ba), content.proto (Content, Part, Tool, ToolConfig, FunctionDeclaration, ...) and safety.proto "
         "(SafetySetting) at that commit, and google-genai 3.6.1 models.py _GenerateContentConfig_to_mldev and the "
         "_Tool_, _ToolConfig_, _Part_, _Content_, _SafetySetting_ ..._to_mldev converters; the index form: "
         "langchain-ai/langchainjs#9412 (at 'tools[26]', field 'tools[26]'), zed-industries/zed#43231 (at "
         "'tools[0].function_declarations[37].parameters', with its field), google-gemini/gemini-cli#13972 and "
         "0x4m4/hexstrike-ai#70 (at 'contents[1].parts[0].function_response'), Laisky/one-api#60 (2025-04-20, "
         "\"additionalProperties\" at 'tools[0].function_declarations[0].parameters'), google/adk-python#1277 "
         "(2025-06-11, generativelanguage v1beta, \"additional_properties\" at each declaration's parameters), "
         "decolua/9router#2309 and router-for-me/CLIProxyAPI#1189 (a schema's map values: at "
         "'request.tools[0].function_declarations[25].parameters.properties[5].value', '....properties[2].value.items', "
         "the Code Assist endpoint's 'request.' before the place), googleapis/go-genai#83 (\"thinkingConfig\" "
         f"at 'generation_config': the name as sent){CITE_END}'{{ \"error\": {{ "
         "\"code\": 400, \"message\": \"Invalid JSON payload received. Unknown name \\\"temperature\\\": Cannot find "
         "field.\", \"status\": \"INVALID_ARGUMENT\", \"details\": [ { \"@type\": \"type.googleapis.com/"
         "google.rpc.BadRequest\", \"fieldViolations\": [ { \"description\": \"Invalid JSON payload received. "
         "Unknown name \\\"temperature\\\": Cannot find field.\" } ] } ] } }' (llm_wiki#49); 'Invalid JSON payload "
         "received. Unknown name \"tools\" at 'generation_config': Cannot find field. [{\"@type\":\"type.googleapis."
         "com/google.rpc.BadRequest\",\"fieldViolations\":[{\"field\":\"generation_config\",\"description\":"
         "\"Invalid JSON payload received. Unknown name \\\"tools\\\" at 'generation_config': Cannot find field.\"}]}]' "
         "(deprecated-generative-ai-js#125); 'Invalid JSON payload "
         "received. Unknown name \"tool_choice\": Cannot find field.' (the client's notes); 'optional string "
         "cached_content = 9'; \"setv(parent_object, ['serviceTier'], ...)\"", _READ,
         (RefusalWords("body.unknown_field", ("gemini",), GEMINI_UNKNOWN_FIELD),
          RefusalWords("body.unknown_field", ("gemini",), GEMINI_UNKNOWN_AT))),
    Fact("gemini.schema_rule_words", ("gemini",),
         "Gemini's generateContent refuses a function declaration's parameters schema the parser reads but its "
         "rules do not take with 400 INVALID_ARGUMENT, one line per place, each '* GenerateContentRequest.PLACE: "
         "WORDS' and a newline, a property named by its name in brackets, no details: 'properties: only allowed for "
         "OBJECT type' and 'required: only allowed for OBJECT type' (on a type other than OBJECT), 'required[I]: "
         "property is not defined', 'enum: only allowed for STRING type', an ARRAY's 'items: missing field.'. Before "
         "them, the parser refuses a type not of Type and a number in enum with 'Invalid value at 'PLACE' (TYPE), "
         "\"VALUE\"', TYPE the Type enum's full name, and '... (TYPE_STRING), 0', each a fieldViolation. The mock answers "
         "these words (body.schema_rule, body.field_value; providers/gemini/schema_rules.py, gemini/request_fields.py), "
         "and the translator warns with them where the parameters it sends hold such a fault (schema.api_refuses, "
         "gemini/schema.py judge; the request is sent as written)",
         "anomalyco/opencode#11889 (2026-02-03, gemini-3-flash-preview); iBUHub/AIStudioToAPI#154 (2026-05-05, "
         "gemini-3-flash-preview on /v1beta, the whole body); musistudio/llms#20 (2025-08-07, gemini-2.5-pro); "
         "AstrBotDevs/AstrBot#6029 (2026-03-11, the whole body through google-genai) and cline/cline#7339; "
         "zereight/gitlab-mcp#166 (2025-07-22, with its details), thClaws/thClaws#172 (2026-06-19, "
         "generativelanguage.googleapis.com); the Gemini API reference's Schema.enum (read through a generated "
         f"client's docs, hexdocs geminix V1beta.Schema){CITE_END}'* GenerateContentRequest.tools[0]."
         "function_declarations[80].parameters.properties[data].properties: only allowed for OBJECT type' (#11889); "
         "'* GenerateContentRequest.tools[0].function_declarations[1].parameters.required[0]: property is not "
         "defined\\n' (#154); '...parameters.properties[truncateMode].enum: only allowed for STRING type' (llms#20); "
         "'...parameters.properties[source_uuids].items: missing field.\\n' (#6029); 'Invalid value at "
         "'tools[0].function_declarations[44].parameters.properties[7].value.type' "
         "(type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"\"' (#166); 'Invalid value at "
         "'tools[0].function_declarations[7].parameters.properties[1].value.enum[0]' (TYPE_STRING), 0' (#172); "
         "'Possible values of the element of Type.STRING with enum format'", _READ),
    Fact("gemini.json_schema_ref_words", ("gemini",),
         "Gemini's generateContent refuses a function declaration's parametersJsonSchema holding a $ref that does not "
         "resolve inside that schema (a local pointer to no definition, or an external URL) with 400 INVALID_ARGUMENT "
         "and the message alone, 'reference to undefined schema at PLACE', PLACE the path from the schema's root to the "
         "node holding the $ref, keys and list indexes joined by dots; the whole request fails, whatever its other "
         "tools. Measured against gemini-3-flash-preview, 22 other constructs were taken there ($defs and $ref that "
         "resolve, recursive $ref, "
         "const, allOf, not, unknown formats, arrays without items, mixed-type enum, nesting 7 levels deep, ...). The "
         "mock answers these words for the first such $ref in body order (body.schema_rule; providers/gemini/"
         "schema_rules.py undefined_refs) and the translator warns with them (schema.api_refuses); a $ref at the root, "
         "an anchor or a relative reference, and responseJsonSchema are not judged (no recording)",
         "google-gemini/gemini-cli#13326 (2025-11-18, the whole body; Gemini CLI sends an MCP tool's inputSchema as "
         "parametersJsonSchema, packages/core/src/tools/mcp-client.ts); Febchuk/knappy-slack-assistant "
         "specs/21_launch_connections.md section 4.2 (measured 2026-10-04 against gemini-3-flash-preview through "
         "google-genai with GEMINI_API_KEY, parameters_json_schema: specs/20_acting_through_mcp.md section 2.2)"
         f"{CITE_END}'{{ \"error\": {{ \"code\": 400, \"message\": \"reference to undefined schema at "
         "properties.target_object.anyOf.1\", \"status\": \"INVALID_ARGUMENT\" } }' (#13326); 'Gemini rejected only one "
         "thing: a `$ref` that does not resolve inside the schema, whether it points at a missing local definition or "
         "an external URL. The error was `400 INVALID_ARGUMENT: reference to undefined schema at properties.a`.'; "
         "'When one good tool and one tool with a dangling `$ref` were declared together, the whole request failed "
         "with that same 400.' (knappy-slack-assistant)", "2026-11-28"),
    Fact("gemini.schema_format", ("gemini",),
         "Gemini's Schema.format (a function declaration's parameters, response) takes any value: the v1beta "
         "reference's words changed on 2025-10-15 from a list of supported formats to 'Any value is allowed'. A 400 "
         "'format: only 'enum' and 'date-time' are supported for STRING type' was recorded in 2025-07, under the "
         "earlier words. The mock takes any format and the translator sends it as written, with no warning",
         "googleapis/googleapis google/ai/generativelanguage/v1beta/content.proto, Schema.format (at commit "
         "fd84be8a8b, 2025-10-15, and at f8291d2b89, 2026-08-22; before, at 41f615cc6b); google-gemini/gemini-cli#3178 "
         f"(2025-07-03, gemini-2.5-pro with an API key){CITE_END}'Optional. The format of the data. Any value is "
         "allowed, but most do not trigger any special functionality.' (fd84be8a8b); 'Optional. The format of the "
         "data. This is used only for primitive datatypes. Supported formats: for NUMBER type: float, double for "
         "INTEGER type: int32, int64 for STRING type: enum, date-time' (41f615cc6b); '* GenerateContentRequest.tools[0]."
         "function_declarations[93].parameters.properties[links].items.properties[url].format: only 'enum' and "
         "'date-time' are supported for STRING type' (#3178)", "2026-11-28"),
    # trial 20c (2026-11-28): the sources' conflict over an OBJECT with no properties, settled by the newest
    # recordings of whole exchanges
    Fact("gemini.schema_empty_object", ("gemini",),
         "Gemini's generateContent takes a function declaration whose parameters are an OBJECT with no properties "
         "({type: OBJECT, properties: {}}; an empty map is no value to the proto, so {type: OBJECT} is the same "
         "message): recorded 200s on /v1beta on 2025-06-16 (gemini-2.0-flash, mode ANY with allowedFunctionNames: the "
         "model called it with args {}) and 2025-09-10 (gemini-2.5-pro). The 400 'properties: should be non-empty for "
         "OBJECT type' was recorded for such declarations from 2024-08 to 2025-03-31, none after. The mock answers "
         "200 and the translator sends such parameters as written (until 2026-11-28 it left them out, which the API "
         "answered 'Request contains an invalid argument.' under mode ANY on 2025-06-16). An OBJECT with no "
         "properties inside the parameters: no recording since 2025-06 either way, not judged",
         "pydantic/pydantic-ai tests/models/cassettes/test_google/test_google_tool_config_any_with_tool_without_args."
         "yaml (recorded with pydantic-ai#1998, commit a953d3480, 2025-06-16; re-recorded at 359554c2a, 2025-06-27: "
         "the request and the answer whole, host generativelanguage.googleapis.com; tests/data/exchanges/) and "
         "test_google_model_thinking_part_from_other_model.yaml (fa3dd3b6d, 2025-09-10); googleapis/python-genai#981 "
         "(2025-06-16, the declaration without parameters under mode ANY); the refusals: langchain-ai/langchain-"
         "google#416 (2024-08-01), agno-agi/agno#2112 (2025-02-13), pipecat-ai/pipecat-flows#110 (2025-03-17), "
         f"langchain-ai/langchainjs#7935 (2025-03-31, gemini-2.0-flash on /v1beta){CITE_END}'name: bar\\n  "
         "parameters:\\n    properties: {}\\n    type: OBJECT' ... 'functionCall:\\n  args: {}\\n  name: bar' ... "
         "'status:\\n  code: 200' (the cassette); \"400 INVALID_ARGUMENT. {'error': {'code': 400, 'message': 'Request "
         "contains an invalid argument.', 'status': 'INVALID_ARGUMENT'}}\" (#981); '[400 Bad Request] * "
         "GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for "
         "OBJECT type' (#7935)", "2026-11-28"),
    # trial 20i (2026-11-28): a declaration with no parameters at all under mode ANY; one recording, the SDK's
    # reference says the field may be left unset: a warning, never a refusal or a silent change
    Fact("gemini.no_parameters_any", ("gemini",),
         "Gemini's generateContent answered a request whose function declaration has no parameters at all (neither "
         "parameters nor parametersJsonSchema) under functionCallingConfig mode ANY with 400 INVALID_ARGUMENT "
         "'Request contains an invalid argument.' (2025-06-16, gemini-2.0-flash: a maintainer of pydantic-ai's "
         "google-genai reproduction, labelled a p2 bug by Google and closed awaiting the reporter, with no later "
         "answer); google-genai's FunctionDeclaration says the field may be left unset for a function with no "
         "parameters. No later recording says either way (searched 2026-11-28: the issues, code and docs indexes; "
         "pydantic-ai's Google cassettes up to 2026-08-22 send every declaration with parameters). The Gemini "
         "translator sends such a declaration as written and warns under mode ANY (a forcing tool_choice); parameters "
         "{type: OBJECT, properties: {}} are taken under mode ANY (fact gemini.schema_empty_object)",
         "googleapis/python-genai#981 (2025-06-16, gemini-2.0-flash, mode ANY); pydantic/pydantic-ai#1990 "
         f"(2025-06-16); google-genai 3.6.1 types.py FunctionDeclaration.parameters{CITE_END}\"google.genai.errors."
         "ClientError: 400 INVALID_ARGUMENT. {'error': {'code': 400, 'message': 'Request contains an invalid "
         "argument.', 'status': 'INVALID_ARGUMENT'}}\" (#981, the reproduction: FunctionDeclarationDict(name="
         "'something') with FunctionCallingConfigMode.ANY); 'it seems like Gemini no longer supports Function Calling "
         "Mode `ANY` when one of the functions has no `parameters`' (#1990); 'For function with no parameters, this "
         "can be left unset.' (google-genai 3.6.1)", "2026-11-28"),
    # trial 21h (2026-11-28): parameters beside parametersJsonSchema in one declaration; Google's own SDK team states
    # the refusal (no status, no words): the mock refuses in toolchoice's words, marked so, the translator warns
    Fact("gemini.parameters_exclusive", ("gemini",),
         "Gemini's API rejects a function declaration that sets both parameters (a Schema) and parametersJsonSchema: "
         "the v1beta and Vertex AI protos call the two mutually exclusive, and Google's Firebase AI SDK for Android "
         "stopped serializing a null parametersJsonSchema (and responseJsonSchema) beside parameters because such "
         "requests were rejected by the service (its test shows the body it had sent: \"parameters\": {...}, "
         "\"parametersJsonSchema\": null). The status and the API's words are not recorded. The mock answers 400 "
         "INVALID_ARGUMENT in toolchoice's words, marked as such (body.schema_rule); the translator warns "
         "(schema.api_refuses) and sends the declaration as written. response beside responseJsonSchema: the protos "
         "say the same, no refusal recorded, not judged",
         "firebase/firebase-android-sdk#7850 (commit 3f5f6872e8, 2026-02-26, by the Firebase AI SDK's maintainer: "
         "firebase-ai FunctionDeclaration.kt and FunctionDeclarationTest.kt); googleapis/googleapis "
         "google/ai/generativelanguage/v1beta/content.proto FunctionDeclaration.parameters_json_schema and "
         f"google/cloud/aiplatform/v1/tool.proto (at f8291d2b89, 2026-08-22){CITE_END}'Having both `parametersSchema` "
         "and `parametersJsonSchema` in the serialized requests caused them to be rejected by the service.' (#7850); "
         "'This field is mutually exclusive with `parameters`.' (the protos)", "2026-11-28"),
    Fact("cohere.tool_choice_shape_words", ("cohere",),
         "Cohere's v2 chat answers a tool_choice string that is not one of its options (REQUIRED, NONE) with HTTP 422 "
         "and {id, message: \"unrecognized tool choice option 'VALUE'. For proper usage, please refer to "
         "https://docs.cohere.com/reference/chat\"}, VALUE as sent. The mock answers these words and that status "
         "(tool_choice.shape) for a string other than REQUIRED and NONE in any case; REQUIRED or NONE written in "
         "another case (required, None) stays mock.choice_unread (no source says whether the API reads the case), an "
         "object (no recording) too",
         "langchain-ai/langchain#33833 and langchain-ai/langchain-cohere#161 (2025-11-05, command-a-03-2025 through "
         "cohere-python, tool_choice 'any': the whole body); docs.cohere.com/reference/chat (the v2 reference, "
         "tool_choice 'REQUIRED' or 'NONE'); pydantic/pydantic-ai#5833 (2026-06-08: 'the API returns 422 for a "
         f"tool-name string'){CITE_END}'status_code: 422, body: {{'id': 'ce115894-4692-4629-b53b-a8bef83f4405', "
         "'message': \"unrecognized tool choice option 'any'. For proper usage, please refer to "
         "https://docs.cohere.com/reference/chat\"}'", _READ,
         (RefusalWords("tool_choice.shape", ("cohere",), "unrecognized tool choice option '{choice}'. For proper "
                       "usage, please refer to https://docs.cohere.com/reference/chat", status=422),)),
    # trial 19e (2026-11-28): an anthropic-version the API does not have (the mock answered it 200 until then)
    Fact("anthropic.version_words", ("anthropic",),
         "Anthropic's Messages API answers an anthropic-version header naming no version it has with 400 "
         "invalid_request_error: 'anthropic-version: \"VALUE\" is not a valid version', VALUE as it arrived (a "
         "made-up date, two headers joined by a comma). Its versions (the versions page's history): "
         + ", ".join(ANTHROPIC_VERSIONS) + ". The mock answers these words for another value (api_version.unknown); "
         "no header at all is not judged here (the API's 'anthropic-version: header is required' is recorded only "
         "from 2023-12 and 2024-01: PipedreamHQ/pipedream#9697, yrvelez/claudeR#1)",
         "directus-labs/extensions#285 (2026-01-11, api.anthropic.com, '2023-10-01': the whole body with its status); "
         "decolua/9router#1227 (2026-05-17, claude-sonnet-4-6, 'HTTP 400'), #1475 (2026-05-26) and #2357 "
         "(2026-07-04), a doubled header; sseshachala/conductai#2179 (2026-09-21, '2024-10-22': 'every Anthropic "
         "request 400'd'); the versions: platform.claude.com/docs/en/api/versioning (the stored copies: ?version="
         f"2023-06-01 lists 2026-10-21 first; the .md copy 2023-06-01 and '2023-01-01: Initial release'){CITE_END}"
         "'{\"type\":\"invalid_request_error\",\"message\":\"anthropic-version: \\\"2023-10-01\\\" is not a "
         "valid version\"},\"request_id\":\"req_011CX24paaNdfCaRyUMhnjB5\"}' and '\"status\":400' (#285, the "
         "body unescaped once); '[400]: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":"
         "\"anthropic-version: \\\"2023-06-01, 2023-06-01\\\" is not a valid version\"}' (#1227)", "2026-11-28",
         (RefusalWords("api_version.unknown", ("anthropic",), ANTHROPIC_VERSION_WORDS),)),
    Fact("bedrock.redacted_thinking_models", ("bedrock",),
         "On Bedrock, Claude 3.7 Sonnet returns flagged reasoning as a redacted thinking block (Converse: a "
         "reasoningContent block's redactedContent); Claude 4 models do not produce redacted thinking blocks (they "
         "redact and encrypt the full thinking into the signature). The mock answers Anthropic's test prompt for "
         "redacted thinking with redactedContent on the models named here, and with a reasoningText block and its "
         "signature on every other Claude id",
         "docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-thinking-encryption.html ('Thinking redaction in "
         "Claude 3.7 Sonnet') and claude-messages-thinking-differences.html (the stored copies, read 2026-11-27)"
         f"{CITE_END}'The following information applies specifically to Claude 3.7 Sonnet. Claude 4 models handle "
         "thinking differently and do not produce redacted thinking blocks.'; 'Redaction handling | Uses "
         "redacted_thinking blocks | Redacts and encrypts full thinking, returned in a signature field'", _READ,
         NamedModels(("claude-3-7-sonnet",), "Claude 3.7 Sonnet")),
)
