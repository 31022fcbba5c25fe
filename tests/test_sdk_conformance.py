"""Official-SDK conformance: every shipped config × provider × tool_choice value, rendered by
toolchoice, is checked against the provider's official SDK request type with unknown keys refused,
and, where the SDK client can be pointed at a stand-in transport, the path and body the real SDK
sends for the same call are compared with toolchoice's.

- OpenAI Chat and its compatible hosts: openai's ``CompletionCreateParamsNonStreaming`` TypedDict,
  checked strictly by tests/sdk_types.py (the SDK itself does not refuse unknown keys).
- OpenAI Responses: ``ResponseCreateParamsNonStreaming``; Anthropic: ``MessageCreateParamsNonStreaming``.
- Gemini: google-genai's pydantic models (``Content``, ``Tool``, ``ToolConfig``, ``GenerationConfig``), whose
  ``_common.BaseModel`` sets ``extra='forbid'``, so an unknown key fails validation.
- Bedrock: botocore's ``ParamValidator`` on the bedrock-runtime ``Converse`` input shape.
- Where the client can be pointed elsewhere, the real client's request is compared: openai, anthropic and
  google-genai through a mock transport, botocore's bedrock-runtime client through the stand-in server on
  127.0.0.1 (tests/servers.py) with placeholder credentials.
- Cohere and Ollama have no SDK in the test extra (the issue names openai, anthropic, google-genai and
  botocore): not checked here.

Each exception is listed in ``HOST_EXTRAS`` / ``EXCEPTIONS`` with the source that documents it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from sdk_types import botocore_session, check, converse_input_shape, gemini_body_problems, missing
from toolchoice.providers.core import registry
from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.model import Scenario, ToolChoice, Translation
from toolchoice.providers.core.scenario import load_scenario

# The SDKs are imported by the tests that use them, not at collection (anthropic alone takes ~1 s to
# import; a run of a single file does not need them at collection).
pytestmark = pytest.mark.skipif(missing("openai", "anthropic", "google.genai", "botocore"),
                                reason="the SDKs of the [test] extra are not installed")

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
CHOICES = ("auto", "none", "required", "named", "allowed")

# every host the OpenAI Chat module serves (its capability row names openai_chat) is checked against openai's types
OPENAI_CHAT_HOSTS = tuple(p for p in PROVIDER_IDS if CAPABILITIES[p].module == "openai_chat")
NO_SDK_IN_TEST_EXTRA = ("cohere", "ollama")
assert set(OPENAI_CHAT_HOSTS + NO_SDK_IN_TEST_EXTRA + ("openai-responses", "anthropic", "gemini", "bedrock")) == set(
    PROVIDER_IDS)

# Host extras: keys or values an OpenAI-compatible host documents beyond openai's types. Each entry
# is (provider, a text the problem line contains) -> the source that documents it.
HOST_EXTRAS: dict[tuple[str, str], str] = {
    ("mistral", "$.tool_choice"): 'mistralai 3.7.0 client/models/toolchoiceenum.py: "any" (not an OpenAI word)',
    ("mistral", "unknown key 'name' (ChatCompletionToolMessageParam"):
        "mistralai 3.7.0 client/models/toolmessage.py: a tool message has name",
    ("deepseek", "$: unknown key 'thinking'"): "api-docs.deepseek.com guides/thinking_mode (thinking: {type})",
    ("huggingface", "$.tool_choice"): "huggingface_hub chat_completion.py: named choice {function: {name}}, no type",
    ("azure", "$: missing required key 'model'"): "openai-python lib/azure.py: the deployment in the URL names the model",
    ("openrouter", "$: unknown key 'provider'"): "openrouter.ai/docs/features/provider-routing (provider object)",
    ("deepseek", "unknown key 'reasoning_content'"):
        "api-docs.deepseek.com guides/thinking_mode: a tool-call turn's reasoning_content must be sent back",
    ("vllm", "unknown key 'reasoning_content'"):
        "vllm-project/vllm docs/features/reasoning_outputs.md: reasoning_content beside content (the reply field; "
        "that vLLM reads it back from a request's messages is not documented there)",
    ("llamacpp", "unknown key 'reasoning_content'"):
        "ggml-org/llama.cpp common/chat.cpp common_chat_msgs_parse_oaicompat: an input message's reasoning_content "
        "is read into the chat message",
}


def _choice(mode: str, scenario: Scenario) -> ToolChoice | None:
    names = scenario.tool_names
    if mode in ("named", "allowed") and not names:
        return None
    if mode == "named":
        return ToolChoice("named", name=names[0], spelling=names[0])
    if mode == "allowed":
        return ToolChoice("allowed", allowed=names[:1], allowed_mode="auto", spelling="allowed")
    return ToolChoice(mode, spelling=mode)  # type: ignore[arg-type]


def _cases() -> list[tuple[str, str, str]]:
    return [(config.stem, provider, mode) for config in CONFIGS for provider in PROVIDER_IDS
            if provider not in NO_SDK_IN_TEST_EXTRA for mode in CHOICES]


_SCENARIOS: dict[str, Scenario] = {}


def _render(config: str, provider: str, mode: str) -> Translation | None:
    scenario = _SCENARIOS.get(config)
    if scenario is None:
        scenario = _SCENARIOS[config] = load_scenario(ROOT / "configs" / f"{config}.yaml")
    choice = _choice(mode, scenario)
    if choice is None:
        return None
    return registry.translate(provider, scenario._replace(tool_choice=choice))


# ---- validators ---------------------------------------------------------------------------------


def _openai_chat(body: dict[str, Any]) -> list[str]:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return check(body, CompletionCreateParamsNonStreaming)


def _openai_responses(body: dict[str, Any]) -> list[str]:
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    return check(body, ResponseCreateParamsNonStreaming)


def _anthropic(body: dict[str, Any]) -> list[str]:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    return check(body, MessageCreateParamsNonStreaming)


def _bedrock(body: dict[str, Any], model: str) -> list[str]:
    from botocore.validate import ParamValidator

    report = ParamValidator().validate({"modelId": model, **body}, converse_input_shape())
    return [line for line in report.generate_report().splitlines() if line.strip() and "Invalid" not in line[:8]] \
        if report.has_errors() else []


def validate(provider: str, translation: Translation) -> list[str]:
    assert translation.request is not None
    body = translation.request.body
    family = CAPABILITIES[provider].module
    if family == "openai_chat":
        problems = _openai_chat(body)
    elif family == "openai_responses":
        problems = _openai_responses(body)
    elif family == "anthropic":
        problems = _anthropic(body)
    elif family == "gemini":
        problems = gemini_body_problems(body)
    elif family == "bedrock":
        model = translation.request.url.split("/model/")[1].split("/")[0]
        problems = _bedrock(body, model)
    else:  # pragma: no cover - guarded by _cases
        raise AssertionError(provider)
    return [p for p in problems if not any(provider == host and text in p for (host, text) in HOST_EXTRAS)]


@pytest.mark.parametrize("config, provider, mode", _cases(), ids=["-".join(c) for c in _cases()])
def test_rendered_body_conforms_to_the_official_sdk_type(config: str, provider: str, mode: str):
    translation = _render(config, provider, mode)
    if translation is None:
        pytest.skip("the config has no tools to name")
    if translation.request is None:
        codes = [e.code for e in translation.ledger if e.severity == "error"]
        assert codes, "refused without an error in the ledger"
        return  # refused with a reason: nothing goes on the wire
    assert validate(provider, translation) == []


# ---- reasoning state replayed (issue 11) ----------------------------------------------------------

# Recorded replies with reasoning state (tests/data/responses/reasoning/SOURCES.md) -> the provider that wrote
# them and its settings. Each is appended to a history by history.assistant_message and rendered for every
# provider: the one that wrote it gets its reasoning back in place, the others leave it out.
REASONING_DATA = ROOT / "tests" / "data" / "responses" / "reasoning"
REASONING_REPLIES: dict[str, tuple[str, str]] = {
    "anthropic-thinking-tool-use": ("anthropic", "{model: claude-sonnet-4-6, max_tokens: 4096, thinking: true}"),
    "bedrock-converse-reasoning": ("bedrock", "{model: us.anthropic.claude-sonnet-4-6, max_tokens: 4096}"),
    "gemini-3-function-call-thought-signature": ("gemini", "{model: gemini-3-pro-preview}"),
    "gemini-3-text-thought-signature": ("gemini", "{model: gemini-3-pro-preview}"),
    "openai-responses-o3-reasoning-function-call": ("openai-responses", "{model: o3}"),
    "openai-responses-reasoning-encrypted": ("openai-responses", "{model: gpt-5-mini}"),
    "deepseek-reasoner-tool-call": ("deepseek", "{model: deepseek-reasoner}"),
}


def _reasoning_cases() -> list[tuple[str, str]]:
    return [(name, provider) for name in REASONING_REPLIES for provider in PROVIDER_IDS
            if provider not in NO_SDK_IN_TEST_EXTRA]


def _replayed(name: str, provider: str) -> Translation:
    from toolchoice.providers.core.history import assistant_message
    from toolchoice.providers.core.model import Message
    from toolchoice.providers.core.scenario import load_scenario_text

    source, settings = REASONING_REPLIES[name]
    reply = registry.parse_reply(source, json.loads((REASONING_DATA / f"{name}.json").read_text()))
    message = assistant_message(reply, source)
    names = list(dict.fromkeys(c.name for c in message.tool_calls)) or ["noop"]
    tools = "".join(f"  - {{name: {n}, parameters: {{type: object, properties: {{}}}}}}\n" for n in names)
    scenario = load_scenario_text(f"tools:\n{tools}tool_choice: auto\nmessages:\n  - {{role: user, content: Go.}}\n"
                                  f"providers:\n  {source}: {settings}\n")
    after = tuple(Message("tool", content="ok", tool_call_id=c.id, tool_name=c.name) for c in message.tool_calls) \
        or (Message("user", content="And then?"),)
    return registry.translate(provider, scenario._replace(messages=scenario.messages + (message,) + after))


@pytest.mark.parametrize("name, provider", _reasoning_cases(), ids=["-".join(c) for c in _reasoning_cases()])
def test_replayed_reasoning_conforms_to_the_official_sdk_type(name: str, provider: str):
    translation = _replayed(name, provider)
    if translation.request is None:
        assert [e.code for e in translation.ledger if e.severity == "error"], "refused without an error"
        return
    assert validate(provider, translation) == []


# ---- the checks can fail: an unknown key anywhere is reported ------------------------------------


def _weather(provider: str, mode: str = "named") -> Translation:
    translation = _render("weather", provider, mode)
    assert translation is not None and translation.request is not None
    return translation


def _with(translation: Translation, change: Callable[[dict[str, Any]], None]) -> Translation:
    body = json.loads(json.dumps(translation.request.body))
    change(body)
    return translation._replace(request=translation.request._replace(body=body))


def _first_tool(body: dict[str, Any]) -> dict[str, Any]:
    tools = body["tools"] if "tools" in body else body["toolConfig"]["tools"]
    tool = tools[0]
    if "functionDeclarations" in tool:
        return tool["functionDeclarations"][0]
    return tool.get("function") or tool.get("toolSpec") or tool


@pytest.mark.parametrize("provider", [p for p in PROVIDER_IDS if p not in NO_SDK_IN_TEST_EXTRA and  # every family with
                                      (CAPABILITIES[p].module != "openai_chat" or p in ("openai", "together"))])  # SDK types
@pytest.mark.parametrize("where", ["top", "tool", "choice"])
def test_an_unknown_key_is_refused(provider: str, where: str):
    translation = _weather(provider)
    assert validate(provider, translation) == []

    def change(body: dict[str, Any]) -> None:
        if where == "top":
            body["not_a_field"] = 1
        elif where == "tool":
            _first_tool(body)["not_a_field"] = 1
        else:
            choice = body.get("tool_choice") or body.get("toolConfig", {}).get("toolChoice") or \
                body.get("toolConfig", {}).get("functionCallingConfig")
            if isinstance(choice, dict):
                choice["not_a_field"] = 1
            else:
                body["tool_choice"] = {"type": "not_a_type"}

    problems = validate(provider, _with(translation, change))
    assert problems and any("not_a_field" in p or "not_a_type" in p or "not_a" in p or "extra" in p.lower()
                            for p in problems), problems


def test_together_strict_is_not_in_openai_hosts_exceptions():
    # together 3.1.1 types/tools_param.py has no strict; toolchoice no longer sends it (the row says unsupported)
    scenario = load_scenario(ROOT / "configs" / "strict-schema.yaml")
    translation = registry.translate("together", scenario)
    assert translation.request is not None
    assert all("strict" not in t["function"] for t in translation.request.body.get("tools", []))


# ---- the real SDK client's request, through a stand-in transport ---------------------------------


class _Capture:
    """A transport handler that records the request and answers a minimal valid reply. ``http`` is the
    HTTP package the SDK is built on (anthropic 2.x uses httpx2, the others httpx)."""

    def __init__(self, reply: dict[str, Any], http: Any = httpx) -> None:
        self.requests: list[Any] = []
        self.reply = reply
        self.http = http

    def __call__(self, request: Any) -> Any:
        self.requests.append(request)
        return self.http.Response(200, json=self.reply)

    def client(self) -> Any:
        return self.http.Client(transport=self.http.MockTransport(self))

    @property
    def body(self) -> Any:
        return json.loads(self.requests[-1].content)


_CHAT_REPLY = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
               "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}]}
_RESPONSES_REPLY = {"id": "r", "object": "response", "created_at": 0, "model": "m", "output": [], "status": "completed",
                    "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
_ANTHROPIC_REPLY = {"id": "m", "type": "message", "role": "assistant", "model": "m", "content": [],
                    "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
_GEMINI_REPLY = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}

# Documented exception: google-genai 3.4.0 _api_client.py defaults the Gemini API to version "v1"
# (GOOGLE_AI_API_DEFAULT_VERSION); toolchoice posts to v1beta, the version ai.google.dev's tool-calling
# reference (FunctionCallingConfig, Mode VALIDATED) documents. The SDK is told v1beta here so that the
# rest of the path and the body are compared; the version difference is the fact
# "gemini.sdk_default_version" in providers/core/facts.py.
GEMINI_API_VERSION = "v1beta"

WIRE_CASES = [(c, p, m) for (c, p, m) in _cases() if p in ("openai", "openai-responses", "anthropic", "gemini")]


_CLIENTS: dict[str, tuple[_Capture, Any]] = {}


def _official_client(provider: str) -> tuple[_Capture, Any]:
    """The SDK's client for ``provider`` over a capturing transport, built once per module (a google-genai client
    alone builds two httpx clients, ~10 ms), its capture emptied for each call."""
    if provider not in _CLIENTS:
        if provider in ("openai", "openai-responses"):
            import openai

            capture = _Capture(_CHAT_REPLY if provider == "openai" else _RESPONSES_REPLY)
            client: Any = openai.OpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1",
                                        http_client=capture.client())
        elif provider == "anthropic":
            import anthropic
            import httpx2

            capture = _Capture(_ANTHROPIC_REPLY, httpx2)
            client = anthropic.Anthropic(api_key="sk-test", base_url="http://127.0.0.1:9", http_client=capture.client())
        else:
            from google import genai
            from google.genai import types

            capture = _Capture(_GEMINI_REPLY)
            client = genai.Client(api_key="test-key", http_options=types.HttpOptions(
                base_url="http://127.0.0.1:9/", api_version=GEMINI_API_VERSION, httpx_client=capture.client()))
        _CLIENTS[provider] = (capture, client)
    capture, client = _CLIENTS[provider]
    capture.requests.clear()
    return capture, client


@pytest.mark.parametrize("config, provider, mode", WIRE_CASES, ids=["-".join(c) for c in WIRE_CASES])
def test_the_official_client_sends_the_same_path_and_body(config: str, provider: str, mode: str):
    translation = _render(config, provider, mode)
    if translation is None or translation.request is None:
        pytest.skip("nothing to send")
    body = translation.request.body
    url = httpx.URL(translation.request.url)
    capture, client = _official_client(provider)
    if provider == "openai":
        client.chat.completions.create(**body)
    elif provider == "openai-responses":
        client.responses.create(**body)
    elif provider == "anthropic":
        client.messages.create(**body)
    else:
        from google.genai import types

        config_fields = {"tools": body.get("tools"), "tool_config": body.get("toolConfig"),
                         "system_instruction": body.get("systemInstruction")}
        config_fields.update({k: v for k, v in (body.get("generationConfig") or {}).items()})
        model = url.path.split("/models/")[1].split(":")[0]
        client.models.generate_content(model=model, contents=body["contents"], config=types.GenerateContentConfig(
            **{k: v for k, v in config_fields.items() if v is not None}))
    assert len(capture.requests) == 1
    sent = capture.requests[-1]
    assert sent.url.path == url.path
    if provider == "gemini":
        assert _gemini_sdk_normalized(capture.body) == _gemini_sdk_normalized(body)
    else:
        assert capture.body == body


def _gemini_sdk_normalized(body: Any) -> Any:
    """Documented differences of google-genai 3.4.0's serialization, not of meaning: its ``Type`` enum
    writes schema types in capitals (types.py class Type: OBJECT, STRING, ...; the REST reference lists the
    same enum), and an empty ``generationConfig: {}`` is always sent."""
    if isinstance(body, dict):
        out = {k: (v.upper() if k == "type" and isinstance(v, str) else _gemini_sdk_normalized(v))
               for k, v in body.items()}
        if out.get("generationConfig") == {}:
            del out["generationConfig"]
        return out
    if isinstance(body, list):
        return [_gemini_sdk_normalized(v) for v in body]
    return body


BEDROCK_CASES = [(c, p, m) for (c, p, m) in _cases() if p == "bedrock"]


@pytest.fixture(scope="module")
def bedrock_stand_in():
    from servers import StandIn

    with StandIn("bedrock") as server:
        client = botocore_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=server.url, aws_access_key_id="AKIDTEST",
            aws_secret_access_key="test-secret")
        yield server, client


@pytest.mark.parametrize("config, provider, mode", BEDROCK_CASES, ids=["-".join(c) for c in BEDROCK_CASES])
def test_botocore_sends_the_same_converse_path_and_body(config: str, provider: str, mode: str, bedrock_stand_in):
    """botocore's bedrock-runtime client, pointed at the stand-in on 127.0.0.1 with placeholder credentials,
    sends converse(modelId=..., **body): the same path (modelId URL-quoted by botocore) and JSON body."""
    from urllib.parse import unquote

    translation = _render(config, provider, mode)
    if translation is None or translation.request is None:
        pytest.skip("nothing to send")
    body = translation.request.body
    path = httpx.URL(translation.request.url).path
    model = unquote(path.split("/model/")[1].rsplit("/", 1)[0])
    server, client = bedrock_stand_in
    before = len(server.requests)
    client.converse(modelId=model, **body)
    sent = server.requests[before]
    assert unquote(sent.path) == unquote(path)
    assert sent.json == body
