"""LiteLLM as a real client of `toolchoice mock` (tests/test_litellm_wire.py): litellm imported once, kept off the
internet, and each `litellm.completion` call read back as the mock recorded it.

Offline: LiteLLM fetches its model cost map from GitHub when it is imported unless
``$LITELLM_LOCAL_MODEL_COST_MAP`` is true (litellm/litellm_core_utils/get_model_cost_map.py), and counts a stream's
tokens for Llama / Cohere models with a Hugging Face tokenizer it downloads unless
``litellm.disable_hf_tokenizer_download`` (utils.py ``_select_tokenizer_helper``); its tiktoken encodings are
bundled (litellm_core_utils/default_encoding.py sets ``$TIKTOKEN_CACHE_DIR``). While a ``Client`` is open, a
connection or a name lookup for any host but the loopback raises and is recorded (``outside``)."""

from __future__ import annotations

import json
import os
import socket
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from toolchoice.providers.core.mock.server import Running, running_mock

LOOPBACK = ("127.0.0.1", "::1", "localhost")
# The huggingface/ route looks up each model's config.json there on every call (utils.py:7159
# _get_max_position_embeddings, from get_model_info_helper: no huggingface model is in the bundled map) and goes on
# when it fails: refused here like any host, and kept apart from `outside`
HUGGINGFACE_CONFIG = "huggingface.co"
KEY = "sk-litellm-wire-7f6e5d4c3b2a"
# LiteLLM's BadRequestErrors raised before any request (main.py:5912 completion, litellm_core_utils/
# allowed_tools_tool_choice.py:77): the mock is not waited for (a BadRequestError is otherwise the API's 400)
REFUSED_BEFORE_SENDING = ("tool_choice type 'allowed_tools' is only supported for",)
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather in a city.", "parameters": WEATHER}},
         {"type": "function", "function": {"name": "get_time", "description": "Time in a city.", "parameters": WEATHER}}]
NAMED = {"type": "function", "function": {"name": "get_weather"}}
MESSAGES = [{"role": "user", "content": "Weather in Paris?"}]


def _where(base: str, path: str = "") -> dict[str, Any]:
    return {"api_base": base + path}


# mock provider id -> (LiteLLM's model string, its arguments for the mock's base URL). The model ids are in
# LiteLLM 1.110.2's bundled model map (model_prices_and_context_window_backup.json), except groq's and xai's,
# which LiteLLM routes by their prefix alone.
ROUTES: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    "openai": ("openai/gpt-4o-mini", _where),
    "anthropic": ("anthropic/claude-sonnet-4-5", _where),
    # LiteLLM appends /models/MODEL:generateContent to api_base (the mock serves /v1beta and /v1)
    "gemini": ("gemini/gemini-2.5-flash", lambda base: _where(base, "/v1beta")),
    "mistral": ("mistral/mistral-large-latest", _where),
    "groq": ("groq/llama-3.3-70b-versatile", _where),
    # cohere_chat's api_base is the whole URL (llms/cohere/chat/v2_transformation.py get_complete_url)
    "cohere": ("cohere_chat/command-a-03-2025", lambda base: _where(base, "/v2/chat")),
    "ollama": ("ollama_chat/llama3.1", _where),
    "deepseek": ("deepseek/deepseek-chat", _where),
    "xai": ("xai/grok-4", _where),
    "openrouter": ("openrouter/openai/gpt-4o-mini", _where),
    # LiteLLM signs with SigV4 for whatever host api_base names; the mock checks no signature
    "bedrock": ("bedrock/converse/anthropic.claude-3-5-sonnet-20240620-v1:0",
                lambda base: {**_where(base), "aws_access_key_id": "AKIDLITELLMWIRE", "aws_secret_access_key": "unused",
                              "aws_region_name": "us-east-1"}),
    # the Azure deployment is LiteLLM's model name; api_version as toolchoice's URL has it
    "azure": ("azure/gpt-4o-mini", lambda base: {**_where(base), "api_version": "2024-10-21"}),
    "fireworks": ("fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct", _where),
    "together": ("together_ai/zai-org/GLM-5.1", _where),
    "cerebras": ("cerebras/gpt-oss-120b", _where),
    "sambanova": ("sambanova/Meta-Llama-3.3-70B-Instruct", _where),
    "huggingface": ("huggingface/openai/gpt-oss-120b", _where),
    "vllm": ("hosted_vllm/meta-llama/Llama-3.1-8B-Instruct", lambda base: _where(base, "/v1")),
    "llamacpp": ("llamafile/qwen2.5-7b-instruct", lambda base: _where(base, "/v1")),
    # chat completions bridged to the Responses API (litellm/completion_extras/litellm_responses_transformation)
    "openai-responses": ("openai/responses/gpt-5.4-mini", _where),
}


@dataclass
class Sent:
    """One `litellm.completion` call: what it returned or raised, and the mock's line and request body (None when
    LiteLLM raised before sending)."""

    calls: list[str] | None
    error: BaseException | None
    line: dict[str, Any] | None
    body: dict[str, Any] | None
    path: str | None

    @property
    def wire_choice(self) -> Any:
        return self.line["requested"] if self.line is not None else None


class Client:
    """litellm, imported once, and one mock per provider (with --save, to read the bodies), started when first
    asked for and stopped when the client closes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.outside: list[str] = []
        self.refused_by_design: list[str] = []  # LiteLLM's own look-ups the guard refused (HUGGINGFACE_CONFIG)
        self._stack = ExitStack()
        self._mocks: dict[str, Running] = {}
        self._saved = {name: getattr(socket, name) for name in ("getaddrinfo", "create_connection")}
        self._connect = socket.socket.connect
        self._env = {name: os.environ.get(name) for name in ("LITELLM_LOCAL_MODEL_COST_MAP", "HF_HUB_OFFLINE")}
        self.litellm: Any = None

    def __enter__(self) -> "Client":
        self._guard()
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        os.environ["HF_HUB_OFFLINE"] = "1"
        import litellm

        litellm.disable_hf_tokenizer_download = True
        litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" lines on stdout for each error
        self.litellm = litellm
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._stack.close()
        finally:
            for name, value in self._saved.items():
                setattr(socket, name, value)
            socket.socket.connect = self._connect  # type: ignore[method-assign]
            for name, value in self._env.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def _guard(self) -> None:
        outside, lookup, connect = self.outside, self._saved["getaddrinfo"], self._connect

        def local(host: Any) -> bool:
            return not isinstance(host, str) or host in LOOPBACK or host.startswith("127.")

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host == HUGGINGFACE_CONFIG:
                self.refused_by_design.append(host)
                raise OSError(f"tests/litellm_client.py: {host} is not the loopback")
            if not local(host):
                outside.append(f"getaddrinfo {host}")
                raise OSError(f"tests/litellm_client.py: {host} is not the loopback")
            return lookup(host, *args, **kwargs)

        def guarded_connect(sock: socket.socket, address: Any) -> Any:
            if isinstance(address, tuple) and not local(address[0]):
                outside.append(f"connect {address[0]}")
                raise OSError(f"tests/litellm_client.py: {address[0]} is not the loopback")
            return connect(sock, address)

        socket.getaddrinfo = getaddrinfo  # socket.create_connection looks it up here
        socket.socket.connect = guarded_connect  # type: ignore[method-assign]

    def mock(self, provider: str) -> Running:
        running = self._mocks.get(provider)
        if running is None:
            running = self._mocks[provider] = self._stack.enter_context(
                running_mock(provider, save_dir=self.folder / provider))
        return running

    def send(self, provider: str, *, stream: bool = False, model: str | None = None, **arguments: Any) -> Sent:
        """`litellm.completion` for ``provider`` at its mock (ROUTES' model unless ``model``), with MESSAGES, TOOLS
        unless ``tools`` is given, and ``arguments`` (tool_choice, parallel_tool_calls, drop_params ...)."""
        mock = self.mock(provider)
        routed, where = ROUTES[provider]
        model = model or routed
        before = len(mock.records)
        calls: list[str] | None = None
        error: BaseException | None = None
        try:
            arguments.setdefault("tools", TOOLS)
            reply = self.litellm.completion(model=model, messages=MESSAGES, api_key=KEY, num_retries=0,
                                            stream=stream, **{**where(mock.base_url), **arguments})
            calls = _streamed_calls(reply) if stream else [c.function.name for c in reply.choices[0].message.tool_calls or []]
        except Exception as exc:  # what LiteLLM raises is the result here
            error = exc
        sent_nothing = isinstance(error, self.litellm.UnsupportedParamsError) or any(  # refused before sending
            words in str(error) for words in REFUSED_BEFORE_SENDING)
        lines = _settled(mock, before, 0.0 if sent_nothing else 5.0)
        if not lines:
            return Sent(calls, error, None, None, None)
        (line,) = lines
        saved = self._saved_request(provider, line["n"])
        return Sent(calls, error, line, saved["body"], saved["url"])

    def _saved_request(self, provider: str, n: int) -> dict[str, Any]:
        path = self.folder / provider / f"sample-{n:03d}.request.json"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # written once the answer went out, beside the line
            try:
                saved: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
                return saved
            except (OSError, ValueError):
                time.sleep(0.01)
        raise AssertionError(f"the mock saved no {path.name}")


def _settled(mock: Running, before: int, seconds: float) -> list[dict[str, Any]]:
    """The mock's lines for one call (a line follows the answer's last byte, a moment after the client has it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(mock.records) == before:
        time.sleep(0.005)
    return mock.records[before:]


def _streamed_calls(stream: Any) -> list[str]:
    return [call.function.name for chunk in stream for call in (chunk.choices[0].delta.tool_calls or [])
            if call.function is not None and call.function.name]
