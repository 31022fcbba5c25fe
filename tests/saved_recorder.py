"""Record an app's two steps with an official SDK as the client, through a real `toolchoice proxy` in front of a real
`toolchoice mock` (openai), or straight into `toolchoice mock --save` (anthropic), both on 127.0.0.1: the save folders
`toolchoice trace SAVED` turns into scenarios (tests/test_saved_scenario.py; docs/traces.md's example folder,
tests/data/saved/openai-chat-proxy, was written by `python tests/saved_recorder.py openai tests/data/saved/openai-chat-proxy`).

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


if __name__ == "__main__":
    target = Path(sys.argv[2])
    target.mkdir(parents=True, exist_ok=True)
    {"openai": record_openai, "anthropic": record_anthropic}[sys.argv[1]](target)
    for path in target.glob("sample-*.request.json"):  # the proxy's port, which changes at every run
        text = path.read_text(encoding="utf-8")
        import re

        path.write_text(re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text), encoding="utf-8")
