"""Record an app's two steps with an official SDK as the client, through a real `toolchoice proxy` in front of a real
`toolchoice mock` (openai, gemini: google-genai), or straight into `toolchoice mock --save` (anthropic, bedrock: boto3's
Converse), both on 127.0.0.1: the save folders `toolchoice trace SAVED` turns into scenarios
(tests/test_saved_scenario.py; the committed folders in tests/data/saved/ were written by
`python tests/saved_recorder.py PROVIDER tests/data/saved/FOLDER`, see its SOURCES.md).

Each step's truth is what the SDK was given and what it got back (``Recorded``), beside the bodies the save holds."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

KEY = "sk-saved-recorder-secret-0a1b2c3d4e5f"
SYSTEM = "You answer weather questions. Be brief."
QUESTION = "What is the weather in Oslo?"
RESULT = "-3 C, snow"
WEATHER = {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}, "required": ["city"]}
TIME = {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}
OPENAI_TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
                                                  "parameters": WEATHER}},
                {"type": "function", "function": {"name": "get_time", "description": "Local time", "parameters": TIME}}]
ANTHROPIC_TOOLS = [{"name": "get_weather", "description": "Current weather for a city", "input_schema": WEATHER},
                   {"name": "get_time", "description": "Local time", "input_schema": TIME}]


class Recorded(NamedTuple):
    folder: Path
    model: str
    call_id: str  # the id of the call the SDK got back at step 1
    arguments: dict[str, Any]  # its arguments, as the SDK parsed them


def _wait_for(folder: Path, count: int) -> None:
    """The proxy writes a sample's files once it has passed the answer on: wait for the last reply file."""
    last = folder / f"sample-{count:03d}.reply.json"
    deadline = time.monotonic() + 10
    while not last.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def record_openai(folder: Path) -> Recorded:
    """openai-python's Chat Completions through `proxy --save` in front of the mock: a forced call with settings only
    OpenAI has (seed, metadata), then the result sent back with tool_choice auto and parallel calls off."""
    import openai

    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server, running_mock

    model = "gpt-4o-mini"
    with running_mock("openai") as upstream:
        handler = ProxyHandler("openai", upstream.base_url, folder)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
            messages: list[Any] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
            first = client.chat.completions.create(
                model=model, messages=messages, tools=OPENAI_TOOLS,
                tool_choice={"type": "function", "function": {"name": "get_weather"}},
                seed=7, metadata={"app": "weather-bot"}, max_completion_tokens=300, temperature=0.2)
            call = first.choices[0].message.tool_calls[0]
            messages += [first.choices[0].message.model_dump(exclude_none=True),
                         {"role": "tool", "tool_call_id": call.id, "content": RESULT}]
            client.chat.completions.create(model=model, messages=messages, tools=OPENAI_TOOLS, tool_choice="auto",
                                           parallel_tool_calls=False)
            _wait_for(folder, 2)
    return Recorded(folder, model, call.id, json.loads(call.function.arguments))


def record_anthropic(folder: Path) -> Recorded:
    """anthropic-python's Messages into `mock --save`: a forced call without parallel calls, with a field only
    Anthropic has (metadata) and a beta header, then the result sent back as a tool_result block with tool_choice auto
    and the system prompt as text blocks."""
    import anthropic

    from toolchoice.providers.core.mock.server import running_mock

    model = "claude-sonnet-4-5"
    with running_mock("anthropic", save_dir=folder) as mock:
        client = anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        messages: list[Any] = [{"role": "user", "content": QUESTION}]
        first = client.messages.create(model=model, max_tokens=512, system=SYSTEM, messages=messages,
                                       tools=ANTHROPIC_TOOLS, metadata={"user_id": "u-42"},
                                       tool_choice={"type": "tool", "name": "get_weather",
                                                    "disable_parallel_tool_use": True},
                                       extra_headers={"anthropic-beta": "token-efficient-tools-2025-02-19"})
        use = next(b for b in first.content if b.type == "tool_use")
        messages += [{"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": RESULT}]}]
        client.messages.create(model=model, max_tokens=512, system=[{"type": "text", "text": SYSTEM}],
                               messages=messages, tools=ANTHROPIC_TOOLS, tool_choice={"type": "auto"})
        _wait_for(folder, 2)
    return Recorded(folder, model, use.id, dict(use.input))


GEMINI_MODEL = "gemini-2.5-flash"
BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
AWS_KEY_ID = "AKIASAVEDRECORDER0001"  # a made-up access key id: a key header the save redacts


def record_gemini(folder: Path) -> Recorded:
    """google-genai's generate_content through `proxy --save` in front of the mock: a forced call (mode ANY with one
    allowed function) with a system instruction and a generation config whose top_k and thinking_config's
    include_thoughts stand beside the settings the scenario writes (temperature, max_output_tokens, the thinking
    budget), then the function response sent back with mode AUTO."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server, running_mock

    declarations = [types.FunctionDeclaration(name=t["function"]["name"], description=t["function"]["description"],
                                              parameters_json_schema=t["function"]["parameters"]) for t in OPENAI_TOOLS]
    tools = [types.Tool(function_declarations=declarations)]
    manual = types.AutomaticFunctionCallingConfig(disable=True)
    with running_mock("gemini") as upstream:
        handler = ProxyHandler("gemini", upstream.base_url, folder)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=proxy.base_url))
            contents: list[Any] = [types.Content(role="user", parts=[types.Part(text=QUESTION)])]
            first = client.models.generate_content(model=GEMINI_MODEL, contents=contents, config=types.GenerateContentConfig(
                system_instruction=SYSTEM, tools=tools, automatic_function_calling=manual,
                tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(
                    mode="ANY", allowed_function_names=["get_weather"])),
                temperature=0.2, top_k=40, max_output_tokens=300,
                thinking_config=types.ThinkingConfig(thinking_budget=1024, include_thoughts=True)))
            call = first.function_calls[0]
            contents += [first.candidates[0].content, types.Content(role="user", parts=[types.Part(
                function_response=types.FunctionResponse(id=call.id, name=call.name, response={"output": RESULT}))])]
            client.models.generate_content(model=GEMINI_MODEL, contents=contents, config=types.GenerateContentConfig(
                system_instruction=SYSTEM, tools=tools, automatic_function_calling=manual,
                tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="AUTO"))))
            _wait_for(folder, 2)
    return Recorded(folder, GEMINI_MODEL, call.id or "", dict(call.args or {}))


def _bedrock_client(base_url: str) -> Any:
    """boto3's bedrock-runtime client (botocore's, made by boto3's session: the same wire), else botocore's."""
    try:
        import boto3
    except ImportError:  # the [test] extra installs botocore only
        import botocore.session

        return botocore.session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=base_url, aws_access_key_id=AWS_KEY_ID,
            aws_secret_access_key=KEY)
    return boto3.client("bedrock-runtime", region_name="us-east-1", endpoint_url=base_url,
                        aws_access_key_id=AWS_KEY_ID, aws_secret_access_key=KEY)


def record_bedrock(folder: Path) -> Recorded:
    """boto3's Converse into `mock --save`: a forced call with the system prompt followed by a cachePoint block, an
    inferenceConfig whose topP stands beside maxTokens and temperature, and a field only the model has
    (additionalModelRequestFields.top_k), then the toolResult sent back with toolChoice auto."""
    from toolchoice.providers.core.mock.server import running_mock

    config: dict[str, Any] = {"tools": [{"toolSpec": {"name": t["function"]["name"],
                                                      "description": t["function"]["description"],
                                                      "inputSchema": {"json": t["function"]["parameters"]}}}
                                        for t in OPENAI_TOOLS]}
    system = [{"text": SYSTEM}, {"cachePoint": {"type": "default"}}]
    with running_mock("bedrock", save_dir=folder) as mock:
        client = _bedrock_client(mock.base_url)
        messages: list[Any] = [{"role": "user", "content": [{"text": QUESTION}]}]
        first = client.converse(modelId=BEDROCK_MODEL, messages=messages, system=system,
                                toolConfig={**config, "toolChoice": {"tool": {"name": "get_weather"}}},
                                inferenceConfig={"maxTokens": 300, "temperature": 0.2, "topP": 0.9},
                                additionalModelRequestFields={"top_k": 40})
        reply = first["output"]["message"]
        use = next(b["toolUse"] for b in reply["content"] if "toolUse" in b)
        messages += [reply, {"role": "user", "content": [{"toolResult": {"toolUseId": use["toolUseId"],
                                                                         "content": [{"text": RESULT}]}}]}]
        client.converse(modelId=BEDROCK_MODEL, messages=messages, system=system,
                        toolConfig={**config, "toolChoice": {"auto": {}}})
        _wait_for(folder, 2)
    return Recorded(folder, BEDROCK_MODEL, use["toolUseId"], dict(use["input"]))


if __name__ == "__main__":
    target = Path(sys.argv[2])
    target.mkdir(parents=True, exist_ok=True)
    {"openai": record_openai, "anthropic": record_anthropic, "gemini": record_gemini,
     "bedrock": record_bedrock}[sys.argv[1]](target)
    for path in target.glob("sample-*.request.json"):  # the proxy's port, which changes at every run
        text = path.read_text(encoding="utf-8")
        import re

        path.write_text(re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text), encoding="utf-8")
