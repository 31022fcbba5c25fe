"""Bedrock Converse: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

from typing import Any

from .core.model import HistoryCall, Message, ProviderSettings, ReasoningItem, ThinkingSetting, Tool


MOCK_BASE_PATH = ""  # boto3/botocore endpoint_url: the host only
_MOCK_KNOWN = frozenset({"messages", "system", "toolConfig", "inferenceConfig", "additionalModelRequestFields"})
_MOCK_ERRORS = {400: "ValidationException", 403: "AccessDeniedException", 404: "ResourceNotFoundException",
                413: "ValidationException", 429: "ThrottlingException", 500: "InternalServerException",
                503: "ServiceUnavailableException"}


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    """POST /model/{modelId}/converse and /converse-stream (botocore's bedrock-runtime service model)."""
    from urllib.parse import unquote

    parts = path.split("/")
    if method != "POST" or len(parts) != 4 or parts[1] != "model" or parts[3] not in ("converse", "converse-stream"):
        return None
    return {"model": unquote(parts[2]), "stream": parts[3] == "converse-stream"}


def _json_words(where: str) -> str:
    """Bedrock's ValidationException for a JSON document field that is not an object, as recorded: a tool's
    inputSchema.json (aws/aws-sdk-net#3377: "The format of the value at toolConfig.tools.0.toolSpec.inputSchema.json is
    invalid. Provide a json object for the field and try again.") and a tool result's json block
    (aws/aws-sdk-js-v3#7330, a JSON value that is not an object: "The format of the value at
    messages.3.content.0.toolResult.content.0.json is invalid. Provide a json object for the field and try again.")."""
    return f"The format of the value at {where} is invalid. Provide a json object for the field and try again."


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """A Converse body → MockRead: toolSpecs, toolChoice, toolUse/toolResult/reasoningContent blocks, and Claude's
    thinking in additionalModelRequestFields."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.read_prefix import read_on
    from .core.mock.reading import blocks_text, unjudged

    messages = body.get("messages")
    if not isinstance(messages, list):
        raise MockMalformed("1 validation error detected: Value null at 'messages' failed to satisfy constraint: "
                            "Member must not be null")
    config = body.get("toolConfig") if isinstance(body.get("toolConfig"), dict) else {}
    tools: list[Tool] = []
    for t, entry in enumerate(config.get("tools") if isinstance(config.get("tools"), list) else []):
        spec = entry.get("toolSpec") if isinstance(entry, dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            schema = (spec.get("inputSchema") or {}).get("json") if isinstance(spec.get("inputSchema"), dict) else None
            if schema is not None and not isinstance(schema, dict):
                raise MockMalformed(_json_words(f"toolConfig.tools.{t}.toolSpec.inputSchema.json"))
            tools.append(Tool(spec["name"], spec.get("description"), schema if isinstance(schema, dict) else None,
                              spec["strict"] if isinstance(spec.get("strict"), bool) else None))
    state = read_on("bedrock", messages, _ConverseRead, _ConverseRead.read)
    history = state.history
    extra = body.get("additionalModelRequestFields") if isinstance(body.get("additionalModelRequestFields"), dict) else {}
    thinking = extra.get("thinking") if isinstance(extra.get("thinking"), dict) else {}
    kind = thinking.get("type")
    output = extra.get("output_config") if isinstance(extra.get("output_config"), dict) else {}
    effort = output.get("effort") if isinstance(output.get("effort"), str) else None  # Claude's effort, as Messages'
    spec = {"enabled": ThinkingSetting("on", budget=thinking.get("budget_tokens"), effort=effort),
            "adaptive": ThinkingSetting("adaptive", effort=effort), "disabled": ThinkingSetting("off", effort=effort)}.get(kind)
    inference = body.get("inferenceConfig") if isinstance(body.get("inferenceConfig"), dict) else {}
    settings = ProviderSettings(max_tokens=inference.get("maxTokens"), temperature=inference.get("temperature"),
                                thinking=None if spec is None else kind != "disabled", thinking_mode=spec)
    choice = config.get("toolChoice")
    refusal = _NAMED_REFUSED.get(route.get("model")) if isinstance(choice, dict) and "tool" in choice else None
    # the model's own fields the mock reads only thinking of (LiteLLM sends Claude's tool_choice there for
    # parallel_tool_calls=False): named, as the body's other unread fields are
    read = {"thinking", *(("output_config",) if set(output) <= {"effort"} else ())}
    passed = tuple(f"additionalModelRequestFields.{key}" for key in sorted(extra) if key not in read)
    return MockRead(choice, tuple(tools), tuple(history), settings, route.get("stream", False),
                    route.get("model"), unjudged=(*unjudged(body, _MOCK_KNOWN), *passed),
                    thinking=kind in ("enabled", "adaptive"), refusal=refusal, system=blocks_text(body.get("system")),
                    shape=_choice_shape(choice), redacted=_asks_redacted(route.get("model"), history))


class _ConverseRead:
    """What ``mock_read`` carries from message to message (the history, the calls' names), read on from a copy where
    a later request's messages start with an earlier one's (core/mock/read_prefix.py)."""

    __slots__ = ("history", "names")

    def __init__(self) -> None:
        self.history: list[Message] = []
        self.names: dict[str, str] = {}

    def copy(self) -> _ConverseRead:
        other = _ConverseRead()
        other.history, other.names = list(self.history), dict(self.names)
        return other

    def read(self, messages: list[Any], start: int) -> None:
        from .core.mock.judge import MockMalformed
        from .core.mock.reading import text_of, tool_message

        names, history = self.names, self.history
        for i in range(start, len(messages)):
            raw = messages[i]
            if not isinstance(raw, dict) or raw.get("role") not in ("user", "assistant") \
                    or not isinstance(raw.get("content"), list):
                raise MockMalformed(f"messages.{i}: a message needs role user or assistant and a content list")
            blocks = [b for b in raw["content"] if isinstance(b, dict)]
            if raw["role"] == "user":
                texts = []
                for b, block in enumerate(raw["content"]):
                    result = block.get("toolResult") if isinstance(block, dict) else None
                    if isinstance(result, dict):
                        content = result.get("content")
                        for c, part in enumerate(content if isinstance(content, list) else []):
                            found = part.get("json") if isinstance(part, dict) else None
                            if found is not None and not isinstance(found, dict):
                                raise MockMalformed(
                                    _json_words(f"messages.{i}.content.{b}.toolResult.content.{c}.json"))
                        if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict) \
                                and list(content[0]) == ["json"]:  # one {json: value} block: the value (as JSON text)
                            content = content[0]["json"]
                        history.append(tool_message(str(result.get("toolUseId")), names,
                                                    text_of(content) or content or "", result.get("status") == "error"))
                    elif isinstance(block, dict) and isinstance(block.get("text"), str):
                        texts.append(block["text"])
                if texts:
                    history.append(Message("user", "\n".join(texts)))
                continue
            calls, texts, reasoning = [], [], []
            for block in blocks:
                use = block.get("toolUse")
                if isinstance(use, dict):
                    call = HistoryCall(str(use.get("toolUseId")), str(use.get("name")),
                                       use.get("input") if isinstance(use.get("input"), dict) else {})
                    names[call.id] = call.name
                    calls.append(call)
                elif isinstance(block.get("text"), str):
                    texts.append(block["text"])
                elif isinstance(block.get("reasoningContent"), dict):
                    content = block["reasoningContent"]
                    text = content.get("reasoningText") if isinstance(content.get("reasoningText"), dict) else {}
                    reasoning.append(ReasoningItem("bedrock", text=text.get("text"),
                                                   signature=text.get("signature"),
                                                   encrypted=content.get("redactedContent"),
                                                   redacted="redactedContent" in content, position=len(calls)))
            history.append(Message("assistant", "\n".join(texts) or None, tool_calls=tuple(calls),
                                   reasoning=tuple(reasoning)))


def _asks_redacted(model: Any, history: list[Message]) -> bool:
    """A Claude model AWS says hands out redacted thinking (fact bedrock.redacted_thinking_models: Claude 3.7 Sonnet),
    asked with Anthropic's documented test prompt for it (the Anthropic mock's rule, anthropic_mock._asks_redacted): its
    reasoning comes back as a redactedContent block. Another Claude id asked so gets its reasoningText block and
    signature, as 'Claude 4 models ... do not produce redacted thinking blocks'."""
    from .anthropic_mock import _asks_redacted as asks
    from .core.facts import fact

    named = fact("bedrock.redacted_thinking_models").value
    return isinstance(model, str) and named.named(model) is not None and asks(history)  # type: ignore[union-attr]


# botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json ToolChoice: a union ("union": true) of auto
# (AutoToolChoice), any (AnyToolChoice) and tool (SpecificToolChoice: name required): exactly one member set
_CHOICE_MEMBERS = ("auto", "any", "tool")


def _choice_shape(choice: Any) -> Any:
    """A toolChoice of a shape the service model's union leaves out (a string, OpenAI's or Anthropic's {type: ...}),
    in toolchoice's words: no recorded ValidationException of the API's is read for it."""
    from .core.model import LedgerEntry, quoted

    if choice is None or isinstance(choice, dict) and len(choice) == 1 and next(iter(choice)) in _CHOICE_MEMBERS:
        return None
    return LedgerEntry("error", "tool_choice.shape", f"toolConfig.toolChoice {quoted(choice)} is not a shape Bedrock's "
                       "Converse API takes (botocore 1.44.8 bedrock-runtime service-2.json ToolChoice: a union of "
                       "exactly one of auto {}, any {}, tool {name}); for required write {\"any\": {}}, for a named "
                       "tool {\"tool\": {\"name\": NAME}}: the API answers 400")


# The models a named toolChoice's refusal was recorded for, with its words (tests/data/responses/errors/
# error-bedrock-toolchoice-not-supported.json and SOURCES.md: i-am-bee/beeai-framework quoting Bedrock for this
# model). Another model outside Claude 3+ and Nova is unknown (model_rule.unknown): answered, with the warning.
_NAMED_REFUSED = {"mistral.mistral-large-2402-v1:0": "This model doesn't support the toolConfig.toolChoice.tool field. "
                                                     "Remove toolConfig.toolChoice.tool and try again."}


def mock_call_id(call: Any) -> str | None:
    """The toolUseId a toolUse block of the mock's answer carries (what a toolResult answers; the line's calls[].id)."""
    return f"tooluse_{call.id}"


def _mock_blocks(answer: Any) -> list[dict[str, Any]]:
    """The ContentBlocks of an answer (botocore 1.44.8 bedrock-runtime service-2.json): reasoningContent first — a
    ReasoningContentBlock, a union of reasoningText {text, signature} and redactedContent (Blob) —, text, toolUse."""
    blocks: list[dict[str, Any]] = []
    if answer.signature is not None and answer.redacted:  # ReasoningContentBlock's other member: the opaque state
        # (a Blob: base64 in the JSON body, bytes as botocore gives it; sent back, base64 again, as handed out)
        blocks.append({"reasoningContent": {"redactedContent": answer.signature}})
    elif answer.signature is not None:
        blocks.append({"reasoningContent": {"reasoningText": {"text": answer.thinking or "",
                                                              "signature": answer.signature}}})
    if answer.text is not None:
        blocks.append({"text": answer.text})
    for call in answer.calls:
        blocks.append({"toolUse": {"toolUseId": mock_call_id(call), "name": call.name,
                                   "input": call.arguments if call.arguments is not None else call.raw}})
    return blocks


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ConverseResponse (botocore bedrock-runtime service model)."""
    return {"output": {"message": {"role": "assistant", "content": _mock_blocks(answer)}},
            "stopReason": "tool_use" if answer.calls else "end_turn",
            "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}, "metrics": {"latencyMs": 1}}


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """ConverseStream events: the event name is the :event-type header, the payload its member."""
    events: list[tuple[str | None, Any]] = [("messageStart", {"role": "assistant"})]
    for index, block in enumerate(_mock_blocks(answer)):
        if "toolUse" in block:
            use = block["toolUse"]
            raw = next(c.raw for c in answer.calls if mock_call_id(c) == use["toolUseId"])
            events.append(("contentBlockStart", {"contentBlockIndex": index, "start": {
                "toolUse": {"toolUseId": use["toolUseId"], "name": use["name"]}}}))
            events.append(("contentBlockDelta", {"contentBlockIndex": index, "delta": {"toolUse": {"input": raw}}}))
        elif "text" in block:
            events.append(("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": block["text"]}}))
        elif "redactedContent" in block["reasoningContent"]:  # ReasoningContentBlockDelta.redactedContent, whole
            events.append(("contentBlockDelta", {"contentBlockIndex": index, "delta": {"reasoningContent": {
                "redactedContent": block["reasoningContent"]["redactedContent"]}}}))
        else:
            text = block["reasoningContent"]["reasoningText"]
            events.append(("contentBlockDelta", {"contentBlockIndex": index,
                                                 "delta": {"reasoningContent": {"text": text["text"]}}}))
            events.append(("contentBlockDelta", {"contentBlockIndex": index,
                                                 "delta": {"reasoningContent": {"signature": text["signature"]}}}))
        events.append(("contentBlockStop", {"contentBlockIndex": index}))
    events.append(("messageStop", {"stopReason": "tool_use" if answer.calls else "end_turn"}))
    events.append(("metadata", {"usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
                                "metrics": {"latencyMs": 1}}))
    return events


def mock_error(status: int, message: str) -> tuple[dict[str, Any], dict[str, str]]:
    """{"message": ...} with the type in x-amzn-ErrorType (tests/data/responses/errors/SOURCES.md caveat)."""
    kind = _MOCK_ERRORS.get(status, "InternalServerException")
    return {"message": message}, {"x-amzn-errortype": f"{kind}:http://internal.amazon.com/coral/com.amazon.bedrock/"}
