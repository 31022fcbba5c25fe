"""Record what LangChain's partner packages put on the wire for each tool_choice spelling.

NOT part of toolchoice and never imported by it or by the tests: run it by hand in a throwaway
virtual environment outside the repository, with the partner packages installed there:

    python3 -m venv /work/lc-venv
    /work/lc-venv/bin/pip install langchain-openai langchain-anthropic langchain-groq \
        langchain-mistralai langchain-fireworks langchain-ollama langchain-huggingface \
        langchain-google-genai langchain-deepseek langchain-aws
    /work/lc-venv/bin/python tests/dialect/record_langchain.py tests/data/langchain

Nothing reaches the network: every httpx send (the transport all the other SDKs use) raises
``Captured`` with the request instead; the exception derives from BaseException so no SDK's retry
or error wrapping (``except Exception``) swallows it. ChatBedrockConverse sends for real, through
botocore with ``endpoint_url`` set to a stand-in on 127.0.0.1 (``StandIn``) that keeps the body and
answers a minimal Converse reply; the credentials are fake. For each wrapper it writes
``<wrapper>.json``: the package versions (and the client SDKs'), the date, and one case per
(tool_choice spelling, number of tools, parallel_tool_calls), and per (tool_choice spelling,
``bind_tools(strict=...)``) with two tools, with either the body's tool fields (the conversation is
dropped) or the exception the wrapper raised, and from which step, and what it warned.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.util
import inspect
import json
import os
import sys
import threading
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from pathlib import Path
from typing import Any, Callable

import httpx

TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string", "description": "City name, e.g. Paris"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "get_time", "description": "Current local time in an IANA time zone.",
        "parameters": {"type": "object", "properties": {
            "timezone": {"type": "string", "description": "e.g. Europe/Paris"}}, "required": ["timezone"]}}},
]
# the same tools as bare function dicts ({name, description, parameters}): langchain-core's convert_to_openai_tool
# returns a {"type": "function", ...} dict unchanged, so bind_tools(strict=...) reaches only tools spelled otherwise
FUNCTIONS = [tool["function"] for tool in TOOLS]
# a nested schema (an array of objects, anyOf, optional properties at each level) for strict=True: where LangChain's
# strict schema rewrite reaches (tests/dialect/nested.yaml declares the same tool)
NESTED = {"name": "plan_trip", "description": "Plan a trip.", "parameters": {
    "type": "object", "properties": {
        "stops": {"type": "array", "items": {"type": "object", "properties": {
            "city": {"type": "string"}, "nights": {"type": "integer"}}, "required": ["city"]}},
        "budget": {"anyOf": [{"type": "number"}, {"type": "object", "properties": {
            "amount": {"type": "number"}, "currency": {"type": "string"}}}]}},
    "required": ["stops"]}}
BEDROCK_MODELS = ["anthropic.claude-3-5-sonnet-20240620-v1:0", "mistral.mistral-large-2407-v1:0",
                  "meta.llama3-1-70b-instruct-v1:0", "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                  "us.anthropic.claude-sonnet-4-6", "us.anthropic.claude-opus-4-8", "us.deepseek.v3-v1:0"]
# Claude's thinking on Bedrock, as ChatBedrockConverse takes it (additional_model_request_fields)
BEDROCK_ENABLED = {"thinking": {"type": "enabled", "budget_tokens": 2048}}
BEDROCK_ADAPTIVE = {"thinking": {"type": "adaptive"}}
# DeepSeek V3's reasoning on Bedrock: langchain-aws utils.py thinking_enabled_in_params reads reasoning_effort from
# additional_model_request_fields; the constructor's reasoning_effort field has no DeepSeek translation (it warns)
DEEPSEEK_EFFORTS = ("none", "low", "medium", "high")
CHOICES: list[Any] = ["auto", "none", "any", "required", True, False, None, "get_weather",
                      {"type": "function", "function": {"name": "get_weather"}}]
PROMPT = "What's the weather in Paris?"
# the client SDKs and HTTP stacks under the wrappers: where a wrapper sends can depend on them (google-genai 3.0
# moved the Gemini API's default version from v1beta to v1), so each recording names the ones installed
CLIENTS = ("openai", "anthropic", "groq", "google-genai", "huggingface_hub", "ollama", "botocore", "httpx")
# conversation and sampling keys: not about tools, left out of the recording
CONVERSATION = {"messages", "input", "contents", "system", "systemInstruction", "system_instruction", "model",
                "modelId", "stream", "stream_options", "max_tokens", "max_completion_tokens", "temperature",
                "inferenceConfig", "generationConfig", "generation_config", "options", "n", "keep_alive",
                "think", "format"}


class Captured(BaseException):
    def __init__(self, url: str, body: Any) -> None:
        super().__init__(url)
        self.url = url
        self.body = body


def _capture_httpx(request: Any) -> None:
    content = request.read() if not request.content else request.content
    try:
        body = json.loads(content)
    except ValueError:
        body = content.decode("utf-8", "replace")
    raise Captured(str(request.url), body)


def _patch_httpx() -> None:
    """httpx, and httpx2 (the fork the openai and anthropic SDKs of these versions send with)."""
    def send(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        _capture_httpx(request)

    async def asend(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        _capture_httpx(request)

    for module in (httpx, importlib.import_module("httpx2") if importlib.util.find_spec("httpx2") else None):
        if module is not None:
            module.Client.send = send  # type: ignore[method-assign]
            module.AsyncClient.send = asend  # type: ignore[method-assign]


# a Converse reply with no tool call: enough for ChatBedrockConverse to finish invoke()
CONVERSE_REPLY = {"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}}, "stopReason": "end_turn",
                  "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}}


class StandIn:
    """Bedrock Runtime on 127.0.0.1: keeps each request's path and JSON body, answers CONVERSE_REPLY."""

    def __init__(self) -> None:
        received: list[tuple[str, Any]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                received.append((self.path, json.loads(self.rfile.read(length) or b"null")))
                reply = json.dumps(CONVERSE_REPLY).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.received = received
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> Captured | None:
        """The request the stand-in received since the last take, as if it had been intercepted."""
        if not self.received:
            return None
        path, body = self.received.pop()
        self.received.clear()
        return Captured("http://127.0.0.1" + path, body)  # the port varies: left out

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


STAND_IN: StandIn | None = None


def _env() -> None:
    for name, value in {"OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-ant-test", "GROQ_API_KEY": "gsk_test",
                        "MISTRAL_API_KEY": "test", "FIREWORKS_API_KEY": "fw_test", "DEEPSEEK_API_KEY": "sk-test",
                        "GOOGLE_API_KEY": "test", "HUGGINGFACEHUB_API_TOKEN": "hf_test", "HF_TOKEN": "hf_test",
                        "AWS_ACCESS_KEY_ID": "AKIATEST", "AWS_SECRET_ACCESS_KEY": "test",
                        "AWS_DEFAULT_REGION": "us-east-1", "HF_HUB_OFFLINE": "1"}.items():
        os.environ[name] = value


def wrappers() -> dict[str, tuple[str, str, Callable[[], Any]]]:
    """wrapper name -> (toolchoice provider id, distribution, factory)."""

    def openai_chat() -> Any:
        from langchain_openai import ChatOpenAI
        return ChatOpenAI(model="gpt-4o-mini", max_retries=0)

    def openai_responses() -> Any:
        from langchain_openai import ChatOpenAI
        return ChatOpenAI(model="gpt-4o-mini", use_responses_api=True, max_retries=0)

    def anthropic() -> Any:
        from langchain_anthropic import ChatAnthropic
        return ChatAnthropic(model="claude-sonnet-4-5", max_retries=0)

    def anthropic_thinking() -> Any:  # bind_tools drops a forced tool_choice when thinking is on
        from langchain_anthropic import ChatAnthropic
        return ChatAnthropic(model="claude-sonnet-4-5", max_tokens=4096,
                             thinking={"type": "enabled", "budget_tokens": 2048}, max_retries=0)

    def groq() -> Any:
        from langchain_groq import ChatGroq
        return ChatGroq(model="llama-3.3-70b-versatile", max_retries=0)

    def mistral() -> Any:
        from langchain_mistralai import ChatMistralAI
        return ChatMistralAI(model="mistral-small-latest", max_retries=0)

    def fireworks() -> Any:
        from langchain_fireworks import ChatFireworks
        return ChatFireworks(model="accounts/fireworks/models/llama-v3p1-70b-instruct", max_retries=0)

    def ollama() -> Any:
        from langchain_ollama import ChatOllama
        return ChatOllama(model="llama3.1")

    def huggingface() -> Any:
        from langchain_huggingface import ChatHuggingFace, HuggingFaceEndpoint
        llm = HuggingFaceEndpoint(repo_id="meta-llama/Llama-3.1-8B-Instruct", task="text-generation",
                                  huggingfacehub_api_token="hf_test", provider="auto")
        return ChatHuggingFace(llm=llm, model_id="meta-llama/Llama-3.1-8B-Instruct")

    def gemini() -> Any:
        from langchain_google_genai import ChatGoogleGenerativeAI
        return ChatGoogleGenerativeAI(model="gemini-2.5-flash", max_retries=0)

    def deepseek() -> Any:
        from langchain_deepseek import ChatDeepSeek
        return ChatDeepSeek(model="deepseek-chat", max_retries=0)

    def bedrock(model_id: str, fields: dict[str, Any] | None = None, **more: Any) -> Callable[[], Any]:
        def factory() -> Any:
            from langchain_aws import ChatBedrockConverse
            assert STAND_IN is not None
            extra: dict[str, Any] = {"additional_model_request_fields": fields, "max_tokens": 4096} if fields else {}
            extra.update(more)
            return ChatBedrockConverse(model=model_id, region_name="us-east-1", endpoint_url=STAND_IN.url, **extra)
        return factory

    return {
        "ChatOpenAI": ("openai", "langchain-openai", openai_chat),
        "ChatOpenAI-responses": ("openai-responses", "langchain-openai", openai_responses),
        "ChatAnthropic": ("anthropic", "langchain-anthropic", anthropic),
        "ChatAnthropic-thinking": ("anthropic", "langchain-anthropic", anthropic_thinking),
        "ChatGroq": ("groq", "langchain-groq", groq),
        "ChatMistralAI": ("mistral", "langchain-mistralai", mistral),
        "ChatFireworks": ("fireworks", "langchain-fireworks", fireworks),
        "ChatOllama": ("ollama", "langchain-ollama", ollama),
        "ChatHuggingFace": ("huggingface", "langchain-huggingface", huggingface),
        "ChatGoogleGenerativeAI": ("gemini", "langchain-google-genai", gemini),
        "ChatDeepSeek": ("deepseek", "langchain-deepseek", deepseek),
        "ChatBedrockConverse": ("bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[0])),
        # which tool_choice types the wrapper lets through depends on the model id
        "ChatBedrockConverse-mistral-large": ("bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[1])),
        "ChatBedrockConverse-llama3-1": ("bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[2])),
        # Claude's thinking on: which forcing choices the wrapper downgrades to auto (with a warning) depends on the
        # model id and the thinking type (langchain-aws utils.py thinking_forced_tool_use_unsupported)
        "ChatBedrockConverse-thinking": ("bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[3], BEDROCK_ENABLED)),
        "ChatBedrockConverse-adaptive": ("bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[4], BEDROCK_ADAPTIVE)),
        "ChatBedrockConverse-opus-4-8-adaptive": ("bedrock", "langchain-aws",
                                                  bedrock(BEDROCK_MODELS[5], BEDROCK_ADAPTIVE)),
        # DeepSeek V3: reasoning_effort above medium in additional_model_request_fields is thinking (auto only)
        **{f"ChatBedrockConverse-deepseek-v3-effort-{effort}": (
            "bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[6], {"reasoning_effort": effort}))
           for effort in DEEPSEEK_EFFORTS},
        "ChatBedrockConverse-deepseek-v3-reasoning-effort-high": (
            "bedrock", "langchain-aws", bedrock(BEDROCK_MODELS[6], reasoning_effort="high")),
    }


def _installed(distribution: str) -> str | None:
    try:
        return version(distribution)
    except Exception:  # importlib.metadata.PackageNotFoundError
        return None


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def record_case(factory: Callable[[], Any], n_tools: int, choice: Any, parallel: bool | None,
                strict: bool | None = None, spelling: str = "openai", nested: bool = False) -> dict[str, Any]:
    case: dict[str, Any] = {"tools": n_tools, "tool_choice": choice, "parallel_tool_calls": parallel}
    if spelling != "openai":
        case["tool_spelling"] = spelling
    if nested:
        case["tool_set"] = "nested"
    model = factory()
    kwargs: dict[str, Any] = {"tool_choice": choice}
    if parallel is not None:
        kwargs["parallel_tool_calls"] = parallel
    if strict is not None:
        case["strict"] = kwargs["strict"] = strict
    if STAND_IN is not None:
        STAND_IN.take()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tools = [NESTED] if nested else (TOOLS if spelling == "openai" else FUNCTIONS)[:n_tools]
            bound = model.bind_tools(tools, **kwargs)
        except Exception as exc:  # the wrapper refuses in bind_tools
            case.update(outcome="refused", step="bind_tools", error=_error(exc))
            return case
        sent: Captured | None = None
        try:
            bound.invoke(PROMPT)
        except Captured as captured:
            sent = captured
        except Exception as exc:  # the wrapper refuses while building the request
            case.update(outcome="refused", step="invoke", error=_error(exc))
        else:
            sent = STAND_IN.take() if STAND_IN is not None else None
            if sent is None:
                case.update(outcome="no request")
        if sent is not None:
            body = sent.body if isinstance(sent.body, dict) else {"_raw": sent.body}
            case.update(outcome="sent", url=sent.url.split("?")[0],
                        body={k: v for k, v in body.items() if k not in CONVERSATION})
    notes = sorted({str(w.message) for w in caught if any(word in str(w.message).lower()
                                                           for word in ("tool", "strict"))})
    if notes:
        case["warnings"] = notes
    return case


def main(out_dir: str) -> None:
    global STAND_IN
    _env()
    _patch_httpx()
    STAND_IN = StandIn()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    today = datetime.date.today().isoformat()
    only = set(sys.argv[2:])
    for name, (provider, distribution, factory) in wrappers().items():
        if only and name not in only:
            continue
        with warnings.catch_warnings(record=True) as made:  # what the constructor warns (reasoning_effort ignored)
            warnings.simplefilter("always")
            model = factory()
        parameters = inspect.signature(type(model).bind_tools).parameters
        takes_parallel, takes_strict = "parallel_tool_calls" in parameters, "strict" in parameters
        cases = [record_case(factory, n, choice, parallel)
                 for n in (1, 2) for parallel in (None, False, True) for choice in CHOICES]
        # bind_tools(strict=...): with the tools as bare function dicts, and (strict dropped) as OpenAI-format dicts
        cases += [record_case(factory, 2, choice, None, strict, "function") for strict in (True, False, None)
                  for choice in CHOICES]
        cases += [record_case(factory, 2, choice, None, strict) for strict in (True, False) for choice in CHOICES]
        cases += [record_case(factory, 1, "auto", None, True, "function", nested=True)]
        document = {
            "wrapper": name.split("-")[0], "provider": provider,
            "model": next(getattr(model, a) for a in ("model_name", "model", "model_id") if getattr(model, a, None)),
            "use_responses_api": getattr(model, "use_responses_api", None),
            **({"thinking": model.thinking} if getattr(model, "thinking", None) else {}),
            **({"additional_model_request_fields": model.additional_model_request_fields}
               if getattr(model, "additional_model_request_fields", None) else {}),
            **({"reasoning_effort": model.reasoning_effort} if getattr(model, "reasoning_effort", None) else {}),
            **({"constructor_warnings": notes} if (notes := sorted({str(w.message) for w in made
                                                                    if "reasoning" in str(w.message)})) else {}),
            **({"endpoint_url": "a stand-in on 127.0.0.1 (the port left out of url)"}
               if getattr(model, "endpoint_url", None) else {}),
            "bind_tools_takes_parallel_tool_calls": takes_parallel,
            "bind_tools_takes_strict": takes_strict,
            "versions": {d: version(d) for d in sorted({distribution, "langchain-core"})},
            "clients": {d: _installed(d) for d in CLIENTS},
            "recorded": today,
            "recorded_by": "tests/dialect/record_langchain.py (httpx sends intercepted; botocore sent to a stand-in on "
                           "127.0.0.1)",
            "tools_bound": [t["function"]["name"] for t in TOOLS],
            "cases": cases,
        }
        path = out / f"{name}.json"
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        summary = {}
        for c in cases:
            summary[c["outcome"]] = summary.get(c["outcome"], 0) + 1
        print(f"{name}: {summary} -> {path}")
    STAND_IN.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/langchain")
