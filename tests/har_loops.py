"""A HAR of an agent loop as openai-python sends it: each request the previous one's messages, the reply's assistant
turn and the tool's result; the first calls force a tool (``required``), the last answers in text (``auto``). Used
where a replay's reading is counted (tests/test_replay_har_reads.py, tests/test_replay_har_prefix.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def loop_har(path: Path, calls: int, key: str, *, system: str | None = None, step_text: bool = False,
             odd: dict[int, dict[str, Any]] | None = None) -> Path:
    """``calls`` calls sent with ``Bearer key``; ``system``: a leading system message; ``step_text``: each tool-call
    turn says "step N" (else its content is null); ``odd``: a message the app added at call N, after the history."""
    messages: list[dict[str, Any]] = ([{"role": "system", "content": system}] if system is not None else []) + \
        [{"role": "user", "content": "Weather in every city?"}]
    entries = []
    for n in range(1, calls + 1):
        last = n == calls
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": f"city {n}"})}}
        message = ({"role": "assistant", "content": "done"} if last else
                   {"role": "assistant", "content": f"step {n}" if step_text else None, "tool_calls": [call]})
        sent = [*messages, odd[n]] if odd and n in odd else messages
        body = {"model": "gpt-4o-mini", "messages": sent, "tools": TOOLS, "tool_choice": "auto" if last else "required"}
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini",
                 "choices": [{"index": 0, "message": message, "finish_reason": "stop" if last else "tool_calls"}]}
        entries.append({"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                                    "headers": [{"name": "Authorization", "value": f"Bearer {key}"}],
                                    "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
                        "response": {"status": 200, "content": {"mimeType": "application/json",
                                                                "text": json.dumps(reply)}},
                        "time": 2})
        messages = [*messages, message, {"role": "tool", "tool_call_id": call["id"], "content": f"result {n}: 3 C"}]
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), encoding="utf-8")
    return path


# One agent loop per API, as its SDK sends and its API answers (the shapes of tests/data/har/sdk-session.har's calls):
# each request the previous one's history, the reply's turn (a sentence and a call) and the call's result.
_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
URLS = {"openai": "https://api.openai.com/v1/chat/completions",
        "openai-responses": "https://api.openai.com/v1/responses",
        "anthropic": "https://api.anthropic.com/v1/messages",
        "gemini": "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
        "bedrock": "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-v1%3A0/converse",
        "cohere": "https://api.cohere.com/v2/chat", "ollama": "http://localhost:11434/api/chat"}


def _turn(api: str, n: int, last: bool) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """Call ``n``'s reply body, the history items its turn adds, and those its tool's result adds."""
    args = {"city": f"city {n}"}
    text = "done" if last else f"step {n}"
    if api == "openai":
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if not last:
            message["tool_calls"] = [{"id": f"call_{n}", "type": "function",
                                      "function": {"name": "get_weather", "arguments": json.dumps(args)}}]
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini",
                 "choices": [{"index": 0, "message": message, "finish_reason": "stop" if last else "tool_calls"}]}
        return reply, [message], [{"role": "tool", "tool_call_id": f"call_{n}", "content": f"result {n}: 3 C"}]
    if api == "openai-responses":
        output: list[Any] = [{"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                              "content": [{"type": "output_text", "text": text, "annotations": []}]}]
        if not last:
            output.append({"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": "get_weather",
                           "arguments": json.dumps(args), "status": "completed"})
        reply = {"id": f"resp_{n}", "object": "response", "status": "completed", "model": "gpt-4o-mini",
                 "output": output}
        return reply, output, [{"type": "function_call_output", "call_id": f"call_{n}", "output": f"result {n}"}]
    if api == "anthropic":
        content: list[Any] = [{"type": "text", "text": text}]
        if not last:
            content.append({"type": "tool_use", "id": f"toolu_{n}", "name": "get_weather", "input": args})
        reply = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                 "content": content, "stop_reason": "end_turn" if last else "tool_use", "stop_sequence": None,
                 "usage": {"input_tokens": 10, "output_tokens": 5}}
        return reply, [{"role": "assistant", "content": content}], [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": f"result {n}"}]}]
    if api == "bedrock":
        blocks: list[Any] = [{"text": text}]
        if not last:
            blocks.append({"toolUse": {"toolUseId": f"tooluse_{n}", "name": "get_weather", "input": args}})
        turned = {"role": "assistant", "content": blocks}
        reply = {"output": {"message": turned}, "stopReason": "end_turn" if last else "tool_use",
                 "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15}, "metrics": {"latencyMs": 2}}
        return reply, [turned], [{"role": "user", "content": [
            {"toolResult": {"toolUseId": f"tooluse_{n}", "content": [{"text": f"result {n}"}]}}]}]
    if api == "cohere":  # cohere-python V2ChatResponse; a tool message's content a string (ChatMessageV2)
        said: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": text}]} if last else {
            "role": "assistant", "tool_plan": text, "tool_calls": [{
                "id": f"get_weather_{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps(args)}}]}
        reply = {"id": f"c{n}", "finish_reason": "COMPLETE" if last else "TOOL_CALL", "message": said,
                 "usage": {"billed_units": {"input_tokens": 10, "output_tokens": 5}}}
        return reply, [said], [{"role": "tool", "tool_call_id": f"get_weather_{n}", "content": f"result {n}"}]
    if api == "ollama":  # ollama-python ChatResponse; calls carry no id, a result names its tool (api/types.go)
        said = {"role": "assistant", "content": text}
        if not last:
            said["tool_calls"] = [{"function": {"name": "get_weather", "arguments": args}}]
        reply = {"model": "llama3.1", "created_at": "2026-11-28T09:00:00Z", "message": said, "done": True,
                 "done_reason": "stop"}
        return reply, [said], [{"role": "tool", "tool_name": "get_weather", "content": f"result {n}"}]
    parts: list[Any] = [{"text": text}]
    if not last:
        parts.append({"functionCall": {"name": "get_weather", "args": args}})
    model = {"role": "model", "parts": parts}
    reply = {"candidates": [{"content": model, "index": 0, "finishReason": "STOP"}],
             "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
             "modelVersion": "gemini-2.5-flash", "responseId": f"r{n}"}
    return reply, [model], [{"role": "user", "parts": [
        {"functionResponse": {"name": "get_weather", "response": {"output": f"result {n}"}}}]}]


def _body(api: str, history: list[Any], last: bool) -> dict[str, Any]:
    if api == "openai":
        return {"model": "gpt-4o-mini", "messages": history, "tools": TOOLS,
                "tool_choice": "auto" if last else "required"}
    if api == "openai-responses":
        return {"model": "gpt-4o-mini", "input": history, "tools": [{"type": "function", "name": "get_weather",
                                                                      "parameters": _SCHEMA, "strict": False}],
                "tool_choice": "auto" if last else "required"}
    if api == "anthropic":
        return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "Be brief.", "messages": history,
                "tools": [{"name": "get_weather", "input_schema": _SCHEMA}],
                "tool_choice": {"type": "auto" if last else "any"}}
    if api == "bedrock":
        return {"messages": history, "system": [{"text": "Be brief."}],
                "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": _SCHEMA}}}],
                               "toolChoice": {"auto": {}} if last else {"any": {}}}}
    if api == "cohere":
        return {"model": "command-a-03-2025", "messages": history, "tools": TOOLS,
                **({} if last else {"tool_choice": "REQUIRED"})}
    if api == "ollama":
        return {"model": "llama3.1", "messages": history, "tools": TOOLS, "stream": False}
    return {"contents": history, "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": _SCHEMA}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO" if last else "ANY"}}}


def api_loop_har(path: Path, api: str, calls: int, key: str, *,
                 odd: dict[int, Callable[[list[Any]], list[Any]]] | None = None,
                 kept: frozenset[int] = frozenset()) -> Path:
    """``api_loop`` written to ``path``."""
    path.write_text(json.dumps(api_loop(api, calls, key, odd=odd, kept=kept)), encoding="utf-8")
    return path


def api_loop(api: str, calls: int, key: str, *, odd: dict[int, Callable[[list[Any]], list[Any]]] | None = None,
             kept: frozenset[int] = frozenset()) -> dict[str, Any]:
    """A HAR 1.2 of a loop of ``calls`` calls to ``api`` (openai, openai-responses, anthropic, gemini, bedrock, cohere,
    ollama),
    each with ``key`` in its credential header; ``odd``: at call N, the history it sends made from the one it would (an item added, changed
    or dropped: the history then goes on from what it would have been, or, for the calls in ``kept``, from it)."""
    first = {"openai": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"}],
             "openai-responses": [{"role": "developer", "content": "Be brief."},
                                  {"role": "user", "content": "Weather?"}],
             "anthropic": [{"role": "user", "content": "Weather?"}],
             "bedrock": [{"role": "user", "content": [{"text": "Weather?"}]}],
             "gemini": [{"role": "user", "parts": [{"text": "Weather?"}]}],
             "cohere": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"}],
             "ollama": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"}]}[api]
    history: list[Any] = list(first)
    header = {"anthropic": "x-api-key", "gemini": "x-goog-api-key"}.get(api, "Authorization")
    entries = []
    for n in range(1, calls + 1):
        last = n == calls
        reply, turn, result = _turn(api, n, last)
        sent = odd[n](list(history)) if odd and n in odd else history
        entries.append({"request": {"method": "POST", "url": URLS[api],
                                    "headers": [{"name": header, "value": f"Bearer {key}" if header ==
                                                 "Authorization" else key}],
                                    "postData": {"mimeType": "application/json",
                                                 "text": json.dumps(_body(api, sent, last))}},
                        "response": {"status": 200, "content": {"mimeType": "application/json",
                                                                "text": json.dumps(reply)}},
                        "time": 2})
        history = [*(sent if n in kept else history), *turn, *result]
    return {"log": {"version": "1.2", "entries": entries}}
