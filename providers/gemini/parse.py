"""A ``generateContent`` reply → ``Reply``; what the family's replies and reasoning items look like."""

from __future__ import annotations

from typing import Any

from ..core import translation
from ..core.error_envelope import ErrorEnvelope
from ..core.model import ReasoningItem, Reply, Usage
from ..core.reply import looks_like_error, provider_error
from ..core.parsing import bad_body, expect_dict, expect_list, int_or_none, join_text, make_call

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("a Gemini generateContent reply", "gemini")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """generateContent's documented success shape: ``{candidates: [...]}``."""
    return isinstance(body.get("candidates"), list)


# How its error bodies look (core/error_envelope.py): {"error": {code, message, status, details}}, sometimes inside
# a list (google-genai errors.py reads 'error' → 'code', 'message', 'status'; error-gemini-invalid-function-name.json).
ERROR_ENVELOPES = (ErrorEnvelope("google-genai errors.py APIError: response_json['error'] with 'code', 'message', "
                                 "'status' (and 'details')", object_key="error", kind_keys=("status",),
                                 details_key="details", reply_keys=("candidates", "usageMetadata")),)


# The family name its reasoning items carry (a signature or encrypted content is valid only there).
REASONING_FAMILY = "gemini"
# What its API signs a function call with (``ToolCall.signature``, only Gemini's calls carry one): a traced run's calls
# carrying them are said to be lost on another family (core/trace_scenario.py, through registry.call_signatures)
CALL_SIGNATURES = "thought signatures (Gemini)"


def reasoning_item(block: Any) -> ReasoningItem | None:
    """A thought part pasted as generateContent returns it (text, thought: true) or a bare
    thoughtSignature; None for any other shape."""
    value = block.value
    if "thoughtSignature" not in value and value.get("thought") is not True:
        return None
    block.only(("thought", "text", "thoughtSignature"), "a Gemini thought part")
    return ReasoningItem("gemini", text=block.text("text"), signature=block.text("thoughtSignature"))


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
    usage = read_usage(data.get("usageMetadata"))
    candidates = expect_list(provider, data.get("candidates"), "candidates", "choices")  # candidateCount: a limit
    if not candidates:
        feedback = data.get("promptFeedback")
        reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
        return Reply(finish_reason=reason if isinstance(reason, str) else None, usage=usage)
    reply = _candidate(provider, candidates[0], 0)._replace(usage=usage)
    if len(candidates) > 1:  # candidateCount > 1: every candidate read, each judged (core/choices.py)
        reply = reply._replace(choices=(reply._replace(usage=Usage()),
                                        *(_candidate(provider, c, i) for i, c in enumerate(candidates[1:], 1))))
    return reply


def _candidate(provider: str, candidate: Any, index: int) -> Reply:
    """One of ``candidates``: its calls, text, finish reason and reasoning."""
    where = f"candidates[{index}]"
    first = expect_dict(provider, candidate, where)
    content = first.get("content")
    parts = [] if content is None else expect_list(
        provider, expect_dict(provider, content, f"{where}.content").get("parts"), f"{where}.content.parts")
    calls = []
    texts = []
    reasoning = []
    for i, raw in enumerate(parts):
        part = expect_dict(provider, raw, f"{where}.content.parts[{i}]")
        signature = part.get("thoughtSignature")
        signature = signature if isinstance(signature, str) else None
        if "functionCall" in part:
            call = expect_dict(provider, part["functionCall"], f"{where}.content.parts[{i}].functionCall")
            if not isinstance(call.get("name"), str):
                raise bad_body(provider, f"{where}.content.parts[{i}].functionCall has no name")
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
        elif signature:  # a part holding the signature alone (types.Part(thought_signature=...)): kept, as stream.py
            reasoning.append(ReasoningItem("gemini", signature=signature, position=len(calls)))
    finish = first.get("finishReason")
    return Reply(tool_calls=tuple(calls), text=join_text(texts),
                 finish_reason=finish if isinstance(finish, str) else None, reasoning=tuple(reasoning))


def read_usage(meta: Any) -> Usage:
    if not isinstance(meta, dict):
        return Usage()
    return Usage(int_or_none(meta.get("promptTokenCount")), int_or_none(meta.get("candidatesTokenCount")))
