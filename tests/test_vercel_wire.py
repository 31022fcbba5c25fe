"""The Vercel AI SDK (node) as a real client: what its ``toolChoice`` became on each provider's wire.

The recordings in tests/data/peers/vercel/ were made by tests/recorders/vercel/record.mjs (ai 7.0.173 and the
@ai-sdk/* packages pinned in its package.json; SOURCES.md) against ``toolchoice mock``: per request the body the
SDK sent, the mock's judged line and, in ``cases.json``, what ``generateText`` / ``streamText`` was given and
returned. CI has no node: every test here reads those committed files, except ``test_rerecorded_bodies_match``,
which runs the recorder again and skips unless tests/recorders/vercel/node_modules exists and RERECORD_VERCEL=1.

Truth from outside toolchoice:
- each body against its provider's official Python SDK request type, unknown keys refused (openai, anthropic,
  groq: their TypedDicts through tests/sdk_types.py; google-genai's pydantic models; botocore's Converse shape;
  mistralai's ``ChatCompletionRequest`` fields; cohere's ``V2Client.chat`` parameters and ``ToolV2``);
- ``WIRE``: what each toolChoice became, written by hand from the packages' dist sources (quoted in
  docs/vercel-ai-sdk.md), with what the provider's SDK docstring says the value means (``reads``) and what the API
  answers (``status``: 200, or DeepSeek's 400 for a forcing choice in thinking mode, deepseek-v4-* thinking by
  default: api-docs.deepseek.com guides/thinking_mode; the 400's words recorded in cloudwego/eino#994);
- the recorded bodies fed again to ``toolchoice mock`` over a real socket: the mock must read each as ``reads``
  and answer ``status``, as its committed line says.
docs/vercel-ai-sdk.md's tables are held to the recordings and to what ``render`` sends today.
Cost: ~4 s of CPU (``/usr/bin/time python3 -m pytest tests/test_vercel_wire.py --workers 0 -q``), most of it importing the
seven SDKs whose types the bodies are checked against.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from sdk_types import botocore_session, check, gemini_body_problems, missing

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "peers" / "vercel"
RECORDER = ROOT / "tests" / "recorders" / "vercel"

BOTH = ["get_weather", "get_time"]
TIME = ["get_time"]
ABSENT = "<absent>"


def _fn(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


# case -> (tool choice on the wire, tools sent, what the provider reads it as, the API's status), for generateText.
# ``reads`` in the mock's neutral words: "auto", "none", "required", {"tool": NAME}, None (no choice sent).
# The same request through streamText (STREAMED) is the same row; an agent loop (LOOPS) sends its row on every step.
Row = tuple[Any, list[str], Any, int]
G, S = "generateText", "streamText"
STREAMED = ("required", "tool-get_time")
# loop case -> (the single-call case whose row each step repeats, the steps: the SDK's stopWhen: stepCountIs(3)
# ends a forced loop at 3; an auto loop ends at 2, when the mock answers text after the tool results)
LOOPS = {"loop-auto": ("auto", 2), "loop-required": ("required", 3)}

# OpenAI Chat form (openai 3.57 ChatCompletionToolChoiceOptionParam: "none" | "auto" | "required" or
# ChatCompletionNamedToolChoiceParam {type: function, function: {name}}); the packages' prepareTools: 'case "auto":
# case "none": case "required": return { tools: ..., toolChoice: type }' and 'case "tool": ... { type: "function",
# function: { name: toolChoice.toolName } }'. ai's prepareToolsAndToolChoice: 'toolChoice == null ? { type: "auto" }',
# so an unset toolChoice is sent as "auto".
CHAT: dict[str, Row] = {
    "unset": ("auto", BOTH, "auto", 200),
    "auto": ("auto", BOTH, "auto", 200),
    "none": ("none", BOTH, "none", 200),
    "required": ("required", BOTH, "required", 200),
    "tool-get_time": (_fn("get_time"), BOTH, {"tool": "get_time"}, 200),
    "activeTools-get_time-required": ("required", TIME, "required", 200),  # ai filters tools by activeTools
}

WIRE: dict[str, dict[str, Row]] = {
    "openai-chat": CHAT,
    "groq": CHAT,
    "openai-compatible": CHAT,
    # @ai-sdk/xai 5 has only the Responses model: xAI's chat completions through createOpenAICompatible({name: 'xai'})
    "openai-compatible-xai": CHAT,
    # @ai-sdk/azure's chat model (azure.chat: @ai-sdk/openai 3.0.120's prepareChatTools), the host packages on
    # @ai-sdk/openai-compatible (togetherai, fireworks, cerebras) and createOpenAICompatible on the hosts with no
    # package of their own: the same 'case "auto": case "none": case "required": ... toolChoice: type' and 'case
    # "tool": ... { type: "function", function: { name: toolChoice.toolName } }'
    "azure": CHAT, "togetherai": CHAT, "fireworks": CHAT, "cerebras": CHAT, "openai-compatible-openrouter": CHAT,
    "openai-compatible-sambanova": CHAT, "openai-compatible-huggingface": CHAT,
    # Responses: openai types/responses ToolChoiceFunctionParam {type: function, name}
    # providerOptions.openai.allowedTools (prepareResponsesTools: 'type: "allowed_tools", mode: (_e = allowedTools.mode)
    # != null ? _e : "auto", tools: allowedToolEntries'); openai types/responses ToolChoiceAllowedParam
    "openai-responses": {**CHAT, "tool-get_time": ({"type": "function", "name": "get_time"}, BOTH, {"tool": "get_time"}, 200),
                         "allowedTools-get_time-required": (
                             {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "get_time"}]},
                             BOTH, {"allowed": ["get_time"], "mode": "required"}, 200)},
    # mistralai 3.7.0 chatcompletionrequest.py: "`any` or `required` means the model must call one or more tools";
    # @ai-sdk/mistral 4.0.87: 'case "required": return { ..., toolChoice: "any" }' and 'case "tool": return { tools:
    # mistralTools, toolChoice: { type: "function", function: { name: toolChoice.toolName } } }' (before 4.0.80, ai 6:
    # "we filter the tools and force the tool choice through 'any'")
    "mistral": {**CHAT, "required": ("any", BOTH, "required", 200),
                "activeTools-get_time-required": ("any", TIME, "required", 200)},
    # cohere 7.3.1 v2/client.py chat(tool_choice): REQUIRED / NONE; "If tool_choice isn't specified, then the model is
    # free to choose"; @ai-sdk/cohere: 'case "auto": return { tools: cohereTools, toolChoice: void 0 ...}', "tool":
    # 'tools: cohereTools.filter(...)', 'toolChoice: "REQUIRED"'
    "cohere": {"unset": (ABSENT, BOTH, None, 200), "auto": (ABSENT, BOTH, None, 200),
               "none": ("NONE", BOTH, "none", 200), "required": ("REQUIRED", BOTH, "required", 200),
               "tool-get_time": ("REQUIRED", TIME, "required", 200),
               "activeTools-get_time-required": ("REQUIRED", TIME, "required", 200)},
    # DeepSeek: OpenAI's form; deepseek-v4-flash thinks by default, and the API answers a forcing choice in thinking
    # mode 400 'Thinking mode does not support this tool_choice'; @ai-sdk/deepseek's prepareTools does not look at
    # thinking ('case "auto": case "none": case "required": return { ..., toolChoice: type }')
    "deepseek": {**CHAT, "required": ("required", BOTH, "required", 400),
                 "tool-get_time": (_fn("get_time"), BOTH, {"tool": "get_time"}, 400),
                 "activeTools-get_time-required": ("required", TIME, "required", 400),
                 "required-thinking-disabled": ("required", BOTH, "required", 200),
                 "tool-get_time-thinking-disabled": (_fn("get_time"), BOTH, {"tool": "get_time"}, 200)},
    # anthropic 2.14 ToolChoiceAutoParam / AnyParam ("The model will use any available tools.") / ToolParam / NoneParam
    "anthropic": {"unset": ({"type": "auto"}, BOTH, "auto", 200), "auto": ({"type": "auto"}, BOTH, "auto", 200),
                  "none": ({"type": "none"}, BOTH, "none", 200),
                  "required": ({"type": "any"}, BOTH, "required", 200),
                  "tool-get_time": ({"type": "tool", "name": "get_time"}, BOTH, {"tool": "get_time"}, 200),
                  "activeTools-get_time-required": ({"type": "any"}, TIME, "required", 200)},
    # @ai-sdk/anthropic: 'rejectsForcedToolUse: rejectsForcedToolUse || thinkingType === "enabled"' and, when set,
    # "Using 'auto' instead" / "Only the '...' tool is sent with 'auto' tool choice"
    "anthropic-thinking": {"required": ({"type": "auto"}, BOTH, "auto", 200),
                           "tool-get_time": ({"type": "auto"}, TIME, "auto", 200)},
    # getModelCapabilities: 'modelId.includes("claude-sonnet-5-5")' ... 'rejectsForcedToolUse: true'
    "anthropic-sonnet-5-5": {"required": ({"type": "auto"}, BOTH, "auto", 200),
                             "tool-get_time": ({"type": "auto"}, TIME, "auto", 200)},
    # google-genai 3.6.1 FunctionCallingConfigMode: ANY 'If "allowed_function_names" are set, the predicted function
    # calls will be limited to any one of "allowed_function_names"'
    "google": {"unset": ({"functionCallingConfig": {"mode": "AUTO"}}, BOTH, "auto", 200),
               "auto": ({"functionCallingConfig": {"mode": "AUTO"}}, BOTH, "auto", 200),
               "none": ({"functionCallingConfig": {"mode": "NONE"}}, BOTH, "none", 200),
               "required": ({"functionCallingConfig": {"mode": "ANY"}}, BOTH, "required", 200),
               "tool-get_time": ({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_time"]}},
                                      BOTH, {"tool": "get_time"}, 200),
               "activeTools-get_time-required": ({"functionCallingConfig": {"mode": "ANY"}}, TIME, "required", 200)},
    # botocore bedrock-runtime ToolChoice: auto / any / tool {name}; @ai-sdk/amazon-bedrock: 'case "none":
    # bedrockTools.length = 0;' (no toolConfig at all) and 'filteredFunctionTools = ... toolChoice.type === "tool" ?
    # functionTools.filter((t) => t.name === toolChoice.toolName)'
    "amazon-bedrock": {"unset": ({"auto": {}}, BOTH, "auto", 200), "auto": ({"auto": {}}, BOTH, "auto", 200),
                       "none": (ABSENT, [], None, 200), "required": ({"any": {}}, BOTH, "required", 200),
                       "tool-get_time": ({"tool": {"name": "get_time"}}, TIME, {"tool": "get_time"}, 200),
                       "activeTools-get_time-required": ({"any": {}}, TIME, "required", 200)},
}

FAMILY = {"openai-chat": "chat", "groq": "groq", "openai-compatible-xai": "chat", "openai-compatible": "chat", "deepseek": "chat",
          "mistral": "mistral", "openai-responses": "responses", "anthropic": "anthropic",
          "anthropic-thinking": "anthropic", "anthropic-sonnet-5-5": "anthropic", "google": "gemini",
          "cohere": "cohere", "amazon-bedrock": "bedrock", "azure": "chat", "togetherai": "chat", "fireworks": "chat",
          "cerebras": "chat", "openai-compatible-openrouter": "chat", "openai-compatible-sambanova": "chat",
          "openai-compatible-huggingface": "chat"}
# Keys a host documents beyond openai's types (api-docs.deepseek.com guides/thinking_mode): DeepSeek's thinking switch
# ('{"thinking": {"type": "enabled/disabled"}}') and a tool-call turn's reasoning_content, which "must be fully passed
# back to the API in all subsequent requests"
HOST_EXTRAS = {("deepseek", "$: unknown key 'thinking'"), ("deepseek", "unknown key 'reasoning_content'")}


def _load(target: str) -> list[dict[str, Any]]:
    """The target's cases, each with the request, the mock's line and its response as recorded."""
    cases = json.loads((DATA / target / "cases.json").read_text())["cases"]
    for case in cases:
        case["requests"] = [json.loads((DATA / target / f"sample-{n:03d}.request.json").read_text())
                            for n in case["samples"]]
        case["lines"] = [json.loads((DATA / target / f"sample-{n:03d}.reply.json").read_text()) for n in case["samples"]]
    return cases


def expected(target: str, case: dict[str, Any]) -> list[Row]:
    """The row of each request the call made, from WIRE (STREAMED and LOOPS repeat a single call's row)."""
    rows = WIRE[target]
    if case["case"] in LOOPS:
        single, steps = LOOPS[case["case"]]
        row = rows[single]
        return [row] * (steps if row[3] == 200 else 1)  # a refused first step ends the loop
    return [rows[case["case"]]]


def calls_made(target: str) -> list[tuple[str, str]]:
    """Every (case, call) the recorder makes for the target."""
    singles = sorted(WIRE[target])
    made = [(c, G) for c in singles]
    if set(STREAMED) <= set(singles) and "unset" in singles:  # the targets recorded with every case
        made += [(c, S) for c in STREAMED] + [(c, G) for c in LOOPS]
    return made


RECORDED = {target: _load(target) for target in sorted(WIRE)}


def _wire(family: str, body: dict[str, Any]) -> tuple[Any, list[str]]:
    """The tool choice and the tool names as they are on the family's wire."""
    if family == "gemini":
        return body.get("toolConfig", ABSENT), [d["name"] for t in body.get("tools", [])
                                                 for d in t.get("functionDeclarations", [])]
    if family == "bedrock":
        config = body.get("toolConfig", {})
        return config.get("toolChoice", ABSENT), [t["toolSpec"]["name"] for t in config.get("tools", [])]
    names = [(t.get("function") or t)["name"] for t in body.get("tools", [])]
    return body.get("tool_choice", ABSENT), names


# ---- the recordings are whole --------------------------------------------------------------------------------


def test_every_target_and_case_was_recorded_once():
    recorded_targets = sorted(p.name for p in DATA.iterdir() if p.is_dir())
    assert recorded_targets == sorted(WIRE)
    for target, cases in RECORDED.items():
        assert sorted((c["case"], c["call"]) for c in cases) == sorted(calls_made(target)), target
        for case in cases:  # one request per step (maxRetries: 0)
            assert len(case["samples"]) == len(expected(target, case)), (target, case["case"])
            assert case.get("steps", 1) == len(case["samples"]) or "error" in case


def test_sources_name_the_versions_recorded():
    versions = json.loads((DATA / "versions.json").read_text())["packages"]
    pinned = json.loads((RECORDER / "package.json").read_text())["dependencies"]
    sources = (DATA / "SOURCES.md").read_text()
    for package, version in versions.items():
        assert pinned[package] == version  # exact pins, no ranges
        assert f"{package} {version}" in sources
    # generateText's requests name ai's version in their User-Agent (streamText's name the provider package's)
    user_agents = {r["headers"]["user-agent"] for cases in RECORDED.values() for c in cases
                   if c["call"] == "generateText" for r in c["requests"]}
    assert user_agents and all(f"ai/{versions['ai']} " in ua for ua in user_agents)


def test_no_key_was_kept():
    text = "".join(p.read_text() for p in DATA.rglob("*.json"))
    for secret in ("unused-placeholder-key", "AKIAPLACEHOLDER", "placeholder-secret"):
        assert secret not in text
    for cases in RECORDED.values():
        for case in cases:
            for request in case["requests"]:
                for name in ("authorization", "x-api-key", "x-goog-api-key"):
                    assert request["headers"].get(name, "[redacted]") == "[redacted]"


# ---- each body against its provider's official SDK type ------------------------------------------------------


def _openai_chat(body: dict[str, Any]) -> list[str]:
    from openai.types.chat.completion_create_params import (CompletionCreateParamsNonStreaming,
                                                            CompletionCreateParamsStreaming)

    return check(body, CompletionCreateParamsStreaming if body.get("stream") else CompletionCreateParamsNonStreaming)


def _groq(body: dict[str, Any]) -> list[str]:
    from groq.types.chat.completion_create_params import CompletionCreateParams

    return check(body, CompletionCreateParams)


def _responses(body: dict[str, Any]) -> list[str]:
    from openai.types.responses.response_create_params import (ResponseCreateParamsNonStreaming,
                                                               ResponseCreateParamsStreaming)

    return check(body, ResponseCreateParamsStreaming if body.get("stream") else ResponseCreateParamsNonStreaming)


def _anthropic(body: dict[str, Any]) -> list[str]:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming, MessageCreateParamsStreaming

    return check(body, MessageCreateParamsStreaming if body.get("stream") else MessageCreateParamsNonStreaming)


def _mistral(body: dict[str, Any]) -> list[str]:
    import typing

    from mistralai.client.models.chatcompletionrequest import ChatCompletionRequest
    from mistralai.client.models.toolchoiceenum import ToolChoiceEnum

    fields = {f.alias or name for name, f in ChatCompletionRequest.model_fields.items()}
    problems = [f"$: unknown key '{k}'" for k in body if k not in fields]
    ChatCompletionRequest.model_validate(body)  # raises on a value of the wrong shape
    words = typing.get_args(typing.get_args(ToolChoiceEnum)[0])  # the Literal, not UnrecognizedStr
    choice = body.get("tool_choice")
    if isinstance(choice, str) and choice not in words:
        problems.append(f"$.tool_choice: {choice!r} is not one of {words}")
    return problems


def _cohere(body: dict[str, Any]) -> list[str]:
    import inspect
    import typing

    import pydantic
    from cohere.types.chat_message_v2 import ChatMessageV2
    from cohere.types.tool_v2 import ToolV2
    from cohere.v2.client import V2Client
    from cohere.v2.types.v2chat_request_tool_choice import V2ChatRequestToolChoice

    # chat_stream sends what chat sends and "stream": True (cohere 7.3.1 v2/raw_client.py: '"stream": True,')
    method = V2Client.chat_stream if body.get("stream") is True else V2Client.chat
    parameters = set(inspect.signature(method).parameters) - {"self", "request_options"} | {"stream"}
    problems = [f"$: unknown key '{k}'" for k in body if k not in parameters]
    for tool in body.get("tools", []):
        ToolV2.model_validate(tool)
        problems += [f"$.tools: unknown key '{k}'" for k in tool if k not in ToolV2.model_fields]
    for message in body["messages"]:
        pydantic.TypeAdapter(ChatMessageV2).validate_python(message)
    words = typing.get_args(typing.get_args(V2ChatRequestToolChoice)[0])  # ("REQUIRED", "NONE")
    if "tool_choice" in body and body["tool_choice"] not in words:
        problems.append(f"$.tool_choice: {body['tool_choice']!r} is not one of {words}")
    return problems


def _bedrock(body: dict[str, Any], path: str) -> list[str]:
    from urllib.parse import unquote

    from botocore.validate import ParamValidator

    model = unquote(path.split("/model/")[1].split("/")[0])
    operation = "ConverseStream" if path.endswith("/converse-stream") else "Converse"
    shape = botocore_session().get_service_model("bedrock-runtime").operation_model(operation).input_shape
    report = ParamValidator().validate({"modelId": model, **body}, shape)
    return [report.generate_report()] if report.has_errors() else []


VALIDATORS = {"chat": _openai_chat, "groq": _groq, "responses": _responses, "anthropic": _anthropic,
              "mistral": _mistral, "cohere": _cohere, "gemini": gemini_body_problems}


@pytest.mark.skipif(missing("openai", "anthropic", "google.genai", "botocore", "mistralai", "cohere", "groq"),
                    reason="the SDKs of the [test] extra are not installed")
@pytest.mark.parametrize("target", sorted(WIRE))
def test_bodies_conform_to_the_official_sdk_types(target: str):
    family = FAMILY[target]
    for case in RECORDED[target]:
        for request in case["requests"]:
            if family == "bedrock":
                problems = _bedrock(request["body"], request["url"])
            else:
                problems = VALIDATORS[family](request["body"])
            problems = [p for p in problems if not any(target == host and text in p for host, text in HOST_EXTRAS)]
            assert problems == [], (case["case"], problems)


# ---- what each toolChoice became -------------------------------------------------------------------------------


@pytest.mark.parametrize("target", sorted(WIRE))
def test_tool_choice_on_the_wire(target: str):
    for case in RECORDED[target]:
        for request, (choice, tools, _, _) in zip(case["requests"], expected(target, case), strict=True):
            assert _wire(FAMILY[target], request["body"]) == (choice, tools), case["case"]


def test_the_sdk_says_when_it_changes_a_forcing_choice():
    """Anthropic: the package warns (result.warnings) where it sends auto for a forcing choice; the other changes
    (Cohere's named choice as a filtered list, Bedrock's dropped tools, DeepSeek's forcing choice in thinking mode)
    come with no warning."""
    for target in ("anthropic-thinking", "anthropic-sonnet-5-5"):
        for case in RECORDED[target]:
            assert [w["feature"] for w in case["warnings"]] == ["toolChoice"], case
            assert "Instruct the model" in case["warnings"][0]["details"]
    for target in ("mistral", "cohere", "amazon-bedrock"):
        assert all(c["warnings"] == [] for c in RECORDED[target]), target


# ---- toolchoice's mock judges each recorded request as the provider would ------------------------------------

MOCK_PROVIDER = {"openai-chat": "openai", "openai-responses": "openai-responses", "anthropic": "anthropic",
                 "anthropic-thinking": "anthropic", "anthropic-sonnet-5-5": "anthropic", "google": "gemini",
                 "mistral": "mistral", "groq": "groq", "cohere": "cohere", "deepseek": "deepseek", "openai-compatible-xai": "xai",
                 "openai-compatible": "vllm", "amazon-bedrock": "bedrock", "azure": "azure", "togetherai": "together",
                 "fireworks": "fireworks", "cerebras": "cerebras", "openai-compatible-openrouter": "openrouter",
                 "openai-compatible-sambanova": "sambanova", "openai-compatible-huggingface": "huggingface"}
KEPT_HEADERS = ("content-type", "anthropic-version", "anthropic-beta", "user-agent")


def test_the_committed_lines_read_each_request_as_the_provider_does():
    for target, cases in RECORDED.items():
        for case in cases:
            for line, (_, tools, reads, status) in zip(case["lines"], expected(target, case), strict=True):
                assert line["provider"] == MOCK_PROVIDER[target]
                assert (line["tool_choice"], line["offered_tools"], line["status"]) == (reads, tools, status), \
                    (target, case["case"])


def test_a_loop_sends_the_same_choice_on_every_step():
    """ai's generateText asks prepareToolsAndToolChoice on every step with 'toolChoice: (_f = prepareStepResult ==
    null ? void 0 : prepareStepResult.toolChoice) != null ? _f : toolChoice': a forcing choice is sent again after the
    tool results, until stopWhen (pitfall.forced_after_tool_result from step 2); each result answers the call the
    step before made (the mock's ``results`` trace each to its answer). The result's toolCalls are every step's (ai
    7.0.173: 'return this.steps.flatMap((step) => step.toolCalls)')."""
    for target, cases in RECORDED.items():
        for case in (c for c in cases if c["case"] == "loop-required" and "error" not in c):
            codes = [[f["code"] for f in line["findings"]] for line in case["lines"]]
            assert ["pitfall.forced_after_tool_result" in c for c in codes] == [False, True, True], target
            for before, line in zip(case["samples"], case["lines"][1:]):
                assert [r["from"] for r in line["results"]] == [before], target
        (loop,) = [c for c in cases if c["case"] == "loop-auto"] or [None]
        if loop is not None:
            assert loop["steps"] == 2 and len(loop["toolCalls"]) == 1 and loop["text"], target


@pytest.mark.parametrize("target", sorted(WIRE))
def test_mock_judges_the_recorded_bodies_again(target: str):
    """Each recorded body sent again, over a socket, to a fresh mock of the recorded provider: read as the provider
    reads it, answered with the API's status; the AI SDK read the recorded answer as the calls the choice forces."""
    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    singles = [c for c in RECORDED[target] if c["case"] not in LOOPS]  # a loop's history names the ids of its run
    with running_mock(MOCK_PROVIDER[target]) as mock, httpx.Client(timeout=10) as client:
        root = "http://" + urlsplit(mock.base_url).netloc  # the recorded path is the whole path
        for case in singles:
            (request,) = case["requests"]
            headers = {k: v for k, v in request["headers"].items() if k in KEPT_HEADERS}
            reply = client.post(root + request["url"], json=request["body"], headers=headers)
            ((_, tools, reads, status),) = expected(target, case)
            assert reply.status_code == status, (case["case"], reply.text[:300])
            if status == 400:
                assert "Thinking mode does not support this tool_choice" in reply.text  # the API's words
        lines = mock.records
    assert len(lines) == len(singles)
    for case, line in zip(singles, lines):
        ((_, tools, reads, status),) = expected(target, case)
        (recorded,) = case["lines"]
        assert (line["requested"], line["tool_choice"], line["offered_tools"], line["status"]) == (
            recorded["requested"], reads, tools, status), case["case"]
        assert [c["name"] for c in line.get("calls", [])] == [c["name"] for c in recorded.get("calls", [])]
        if status != 200:
            assert "error" in case and case["error"]["statusCode"] == status
            continue
        assert "error" not in case, (case["case"], case["call"], case["error"]["message"][:200])
        called = [c["toolName"] for c in case["toolCalls"]]
        if isinstance(reads, dict):
            assert called == [reads["tool"]] if "tool" in reads else called[0] in reads["allowed"]
        elif reads == "required":
            assert len(called) == 1 and called[0] in tools
        elif reads == "none" or not tools:
            assert called == [] and case["text"]


# ---- re-recording (needs node and tests/recorders/vercel/node_modules) ------------------------------------------


@pytest.mark.skipif(not (RECORDER / "node_modules").is_dir() or shutil.which("node") is None
                    or os.environ.get("RERECORD_VERCEL") != "1",
                    reason="re-recording needs node, `npm ci` in tests/recorders/vercel and RERECORD_VERCEL=1")
def test_rerecorded_bodies_match(tmp_path: Path):
    toolchoice = shutil.which("toolchoice") or str(Path(sys.executable).with_name("toolchoice"))
    subprocess.run(["node", "record.mjs"], cwd=RECORDER, check=True, timeout=300, capture_output=True,
                   env={**os.environ, "TOOLCHOICE": toolchoice, "VERCEL_OUT": str(tmp_path)})
    for target in WIRE:  # what the SDK sent and returned, byte for byte (the mock's side may move with its facts)
        for old in sorted((DATA / target).glob("*.request.json")) + [DATA / target / "cases.json"]:
            assert (tmp_path / target / old.name).read_text() == old.read_text(), (target, old.name)


# ---- the mock's xAI stream, as api.x.ai streams a call --------------------------------------------------------

# api.x.ai streams each tool call whole in one delta, id, name and all its arguments: recorded streams in
# charmbracelet/fantasy providertests/testdata/TestOpenAICompatibleCommon/xai-grok-code-fast/tool_streaming.yaml
# ('"delta":{"tool_calls":[{"id":"call_53816330","function":{"name":"weather","arguments":"{\"location\":
# \"Florence,Italy\"}"},"index":0,"type":"function"}]}', created 1773345590) and multi_tool_streaming.yaml (two calls,
# one delta each); @ai-sdk/xai 3.0.138's xaiChatChunkSchema requires them so ('tool_calls: ... z.object({ id:
# z.string(), type: z.literal("function"), function: z.object({ name: z.string(), arguments: z.string() })', each
# delta read as one whole call), and read the mock's split arguments as AI_TypeValidationError before the fix (ai 6;
# recorded since with @ai-sdk/openai-compatible, @ai-sdk/xai 5 having no chat model).
def test_mock_streams_an_xai_call_whole_in_one_delta():
    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    (case,) = [c for c in RECORDED["openai-compatible-xai"] if (c["case"], c["call"]) == ("tool-get_time", S)]
    (request,) = case["requests"]
    with running_mock("xai") as mock, httpx.Client(timeout=10) as client:
        reply = client.post("http://" + urlsplit(mock.base_url).netloc + request["url"], json=request["body"])
    chunks = [json.loads(line[len("data: "):]) for line in reply.text.splitlines()
              if line.startswith("data: {")]
    deltas = [call for chunk in chunks for choice in chunk["choices"]
              for call in choice["delta"].get("tool_calls") or []]
    assert len(deltas) == 1
    (call,) = deltas
    assert call["id"] and (call["type"], call["function"]["name"]) == ("function", "get_time")
    assert json.loads(call["function"]["arguments"]) == {"timezone": "example"}


# ---- docs/vercel-ai-sdk.md says what was recorded and what toolchoice renders ------------------------------------

DOC = ROOT / "docs" / "vercel-ai-sdk.md"
# target -> (toolchoice's provider id, model, settings) for the same request; the case -> the neutral choice
RENDERED_AS = {"openai-chat": ("openai", "gpt-5.4-mini", {}), "openai-responses": ("openai-responses", "gpt-5.4-mini", {}),
               "anthropic": ("anthropic", "claude-sonnet-5", {}),
               "anthropic-thinking": ("anthropic", "claude-sonnet-4-6", {"thinking": True, "max_tokens": 4096}),
               "anthropic-sonnet-5-5": ("anthropic", "claude-sonnet-5-5", {}), "google": ("gemini", "gemini-3.5-flash", {}),
               "mistral": ("mistral", "mistral-small-latest", {}), "groq": ("groq", "openai/gpt-oss-120b", {}),
               "cohere": ("cohere", "command-a-03-2025", {}), "deepseek": ("deepseek", "deepseek-v4-flash", {}),
               "openai-compatible-xai": ("xai", "grok-4.3", {}), "openai-compatible": ("vllm", "local-model", {}),
               "amazon-bedrock": ("bedrock", "anthropic.claude-sonnet-4-6", {}),
               "azure": ("azure", None, {"deployment": "gpt-5.4-mini",
                                         "endpoint": "https://example-resource.openai.azure.com"}),
               "togetherai": ("together", "zai-org/GLM-5.1", {}),
               "fireworks": ("fireworks", "accounts/fireworks/models/llama-v3p1-70b-instruct", {}),
               "cerebras": ("cerebras", "gpt-oss-120b", {}),
               "openai-compatible-openrouter": ("openrouter", "openai/gpt-5.4-mini", {}),
               "openai-compatible-sambanova": ("sambanova", "Meta-Llama-3.3-70B-Instruct", {}),
               "openai-compatible-huggingface": ("huggingface", "openai/gpt-oss-120b", {})}
NEUTRAL = {"unset": None, "auto": "auto", "none": "none", "required": "required", "tool-get_time": "get_time",
           "activeTools-get_time-required": {"allowed": ["get_time"], "mode": "required"}}


def _doc_rows() -> dict[tuple[str, str], list[str]]:
    """(target, case) -> the row's cells; a heading naming several targets (### `a`, `b`) holds its rows to each."""
    rows: dict[tuple[str, str], list[str]] = {}
    targets: list[str] = []
    for line in DOC.read_text().splitlines():
        if line.startswith("### `"):
            targets = line.split("`")[1::2]
        elif line.startswith("#"):  # any other heading ends the target's tables
            targets = []
        elif line.startswith("| ") and targets and not line.startswith(("| case", "|---")):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows.update({(target, cells[0]): cells for target in targets})
    return rows


def _cell_value(cell: str) -> Any:
    return ABSENT if cell.startswith("(not sent)") else json.loads(cell.split("`")[1])


def test_doc_tables_hold_the_recordings_and_toolchoice_render():
    import yaml

    from toolchoice.providers.core import registry
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    rows = _doc_rows()
    singles = {(t, c["case"]) for t, cases in RECORDED.items() for c in cases
               if c["call"] == G and c["case"] not in LOOPS}
    assert set(rows) == singles
    recorded = {(t, c["case"]): c for t, cases in RECORDED.items() for c in cases if c["call"] == G}
    weather = yaml.safe_load((ROOT / "configs" / "weather.yaml").read_text())
    for (target, case), cells in rows.items():
        (request,) = recorded[(target, case)]["requests"]
        sent, tools = _wire(FAMILY[target], request["body"])
        assert _cell_value(cells[1]) == sent, (target, case)
        assert cells[2] == (", ".join(tools) or "(none)"), (target, case)
        if case not in NEUTRAL:
            assert cells[5] == "—"
            continue
        provider, model, settings = RENDERED_AS[target]
        scenario = {"tools": weather["tools"], "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
                    "providers": {provider: {**({"model": model} if model else {}), **settings}}}
        if NEUTRAL[case] is not None:
            scenario["tool_choice"] = NEUTRAL[case]
        translation = registry.translate(provider, load_scenario_dict(scenario))
        if translation.request is None:
            codes = [e.code for e in translation.ledger if e.severity == "error"]
            assert cells[5] == f"refused `{codes[0]}`", (target, case)
            continue
        rendered, rendered_tools = _wire(FAMILY[target], translation.request.body)
        assert _cell_value(cells[5]) == rendered, (target, case)
        assert (f"tools {', '.join(rendered_tools)}" in cells[5]) == (rendered_tools != tools), (target, case)
