"""A Chat Completions reply with several choices (`n` > 1): every choice read (whole and streamed, per index),
judged, drawn and answered.

Truth from outside the code:
- openai 3.57.0 (the test extra's pin): `ChatCompletion` parses a whole body, and
  `openai.lib.streaming.chat._completions.ChatCompletionStreamState` accumulates a stream's chunks per
  `choices[].index` — our assembly is held to both on the same bytes; `chat.completions.create(n=2)` and
  `.stream(n=2)` are the clients, over real sockets on 127.0.0.1 (`running_mock`, the proxy in front of it).
- The rule (docs/parse.md, "Several choices"): a reply obeys only when every choice does; the verdict names each.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from openai import OpenAI
from openai.lib.streaming.chat._completions import ChatCompletionStreamState
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from tests.test_proxy_frameworks import saving_proxy
from tests.test_proxy_wire import _settled, _valid
from toolchoice.providers.core.mock.script import load_script
from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.registry import parse_reply
from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.core.streaming import assemble_bytes
from toolchoice.providers.core.verdict import verdict

from cli import run_cli
from streams import CITY_WEATHER_SCENARIO

KEY = "sk-choices-test-3c9d1e"
WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
SCENARIO = CITY_WEATHER_SCENARIO
# A whole body as openai-python's ChatCompletion types it (validated below): choice 0 obeys `required`, choice 1
# answers in text. Written in the SDK's reply type; no recorded n > 1 body was found.
TWO = {"id": "chatcmpl-n2", "object": "chat.completion", "created": 1764147600, "model": "gpt-4o-2024-08-06",
       "choices": [
           {"index": 0, "logprobs": None, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
                {"id": "call_a", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}},
           {"index": 1, "logprobs": None, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "It is sunny in Paris.", "refusal": None}}],
       "usage": {"prompt_tokens": 61, "completion_tokens": 24, "total_tokens": 85}}
DISOBEY_SECOND = "replies:\n  - choices: [{}, {disobey: true}]\n  - choices: [{}, {disobey: true}]\n"
DISOBEYED = 4  # docs/commands.md, exit codes


def _scenario(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO + extra, encoding="utf-8")
    return path


def _script(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "script.yaml"
    path.write_text(text, encoding="utf-8")
    return load_script(path)


def _sdk_choices(completion: Any) -> list[tuple[list[tuple[str, str]], str | None, str | None]]:
    """(calls as (name, arguments), text, finish_reason) of each choice, as openai-python reads them."""
    return [([(c.function.name, c.function.arguments) for c in choice.message.tool_calls or []],
             choice.message.content or None, choice.finish_reason) for choice in completion.choices]


def _ours(reply: Any) -> list[tuple[list[tuple[str, str]], str | None, str | None]]:
    return [([(c.name, json.dumps(c.arguments, separators=(",", ":"))) for c in choice.tool_calls], choice.text,
             choice.finish_reason) for choice in reply.choices]


# ---- reading -------------------------------------------------------------------------------------------------


def test_a_whole_body_of_two_choices_is_read_per_choice_as_openai_python_reads_it() -> None:
    sdk = ChatCompletion.model_validate(TWO)
    reply = parse_reply("openai", TWO)
    assert _ours(reply) == _sdk_choices(sdk)
    assert (reply.tool_calls, reply.text, reply.finish_reason) == (reply.choices[0].tool_calls, None, "tool_calls")
    assert reply.usage.input_tokens == sdk.usage.prompt_tokens == 61
    assert len(reply.to_json()["choices"]) == 2


def test_a_body_of_one_choice_keeps_its_exact_reply_json() -> None:
    one = dict(TWO, choices=TWO["choices"][:1])
    assert parse_reply("openai", one).choices == ()
    assert "choices" not in parse_reply("openai", one).to_json()


def _sdk_stream(raw: bytes) -> Any:
    state = ChatCompletionStreamState()
    for block in raw.decode().split("\n\n"):
        data = block.removeprefix("data: ").strip()
        if data and data != "[DONE]":
            state.handle_chunk(ChatCompletionChunk.model_validate(json.loads(data)))
    return state.get_final_completion()


def _sse(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def test_an_interleaved_stream_of_two_choices_is_assembled_per_index_as_the_sdk_accumulates_it() -> None:
    head = {"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1764147600, "model": "gpt-4o"}

    def chunk(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}

    raw = _sse([chunk(0, {"role": "assistant", "content": None}), chunk(1, {"role": "assistant", "content": ""}),
                chunk(0, {"tool_calls": [{"index": 0, "id": "call_x", "type": "function",
                                          "function": {"name": "get_weather", "arguments": ""}}]}),
                chunk(1, {"content": "Sunny "}),
                chunk(0, {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\":"}}]}),
                chunk(1, {"content": "today."}),
                chunk(0, {"tool_calls": [{"index": 0, "function": {"arguments": "\"Oslo\"}"}}]}),
                chunk(1, {}, "stop"), chunk(0, {}, "tool_calls")])
    result = assemble_bytes("openai", raw)
    assert _ours(result.reply) == _sdk_choices(_sdk_stream(raw))
    assert [f.code for f in result.findings] == []


def test_the_mocks_stream_of_three_choices_is_assembled_as_the_sdk_accumulates_it(tmp_path: Path) -> None:
    steered = _script(tmp_path, "replies:\n  - choices: [{}, {text: No.}, {call: get_weather, arguments: {city: Rome}}]\n")
    with running_mock("openai", script=steered) as mock:
        raw = httpx.post(mock.base_url + "/chat/completions", timeout=10, json={
            "model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": [WEATHER], "n": 3,
            "tool_choice": "required", "stream": True}).content
    sdk = _sdk_stream(raw)
    assert [c.index for c in sdk.choices] == [0, 1, 2]
    reply = assemble_bytes("openai", raw).reply
    assert _ours(reply) == _sdk_choices(sdk)
    assert [[name for name, _ in calls] for calls, _, _ in _ours(reply)] == [["get_weather"], [], ["get_weather"]]


# ---- judging -------------------------------------------------------------------------------------------------


def test_a_reply_obeys_only_when_every_choice_does_and_the_verdict_names_each() -> None:
    scenario = load_scenario_text(SCENARIO, "s.yaml")
    found = verdict(scenario, parse_reply("openai", TWO))
    assert (found["obeyed"], found["category"], found["choices_obeyed"]) == (False, "no_call", [1, 2])
    assert [(c["index"], c["category"]) for c in found["choices"]] == [(0, "obeyed"), (1, "no_call")]
    assert found["reasons"][0].startswith("1 of 2 choices obeyed")
    both = dict(TWO, choices=[TWO["choices"][0], dict(TWO["choices"][0], index=1)])
    found = verdict(scenario, parse_reply("openai", both))
    assert (found["obeyed"], found["category"], found["choices_obeyed"]) == (True, "obeyed", [2, 2])


@pytest.mark.parametrize("width", [80, 60])
def test_parse_draws_each_choice_with_its_verdict_at_80_and_60_columns(tmp_path: Path, width: int) -> None:
    body = tmp_path / "two.json"
    body.write_text(json.dumps(TWO), encoding="utf-8")
    done = run_cli(["parse", str(body), "-p", "openai", "-s", str(_scenario(tmp_path))],
                   env={"COLUMNS": str(width), "TERM": "dumb"})
    assert done.returncode == DISOBEYED, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= width for line in lines)
    assert lines.index("choice 0") < lines.index("choice 1")
    verdicts = [line for line in lines if line.startswith("verdict")]
    assert verdicts == ["verdict  ✔ obeyed", "verdict  ✘ disobeyed: no_call", "verdict  ✘ disobeyed: no_call"]
    document = json.loads(run_cli(["parse", str(body), "-p", "openai", "-s", str(_scenario(tmp_path)), "-f", "json"],
                                  env={}).stdout)
    assert [c["category"] for c in document["verdict"]["choices"]] == ["obeyed", "no_call"]
    assert [c["text"] for c in document["reply"]["choices"]] == [None, "It is sunny in Paris."]


# ---- the mock and the proxy, with openai-python as the client --------------------------------------------------


def test_the_mock_answers_n_choices_each_following_its_script_step(tmp_path: Path) -> None:
    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        whole = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}],
                                               tools=[WEATHER], tool_choice="required", n=2)
        with client.chat.completions.stream(model="gpt-4o", messages=[{"role": "user", "content": "hi"}],
                                            tools=[WEATHER], tool_choice="required", n=2) as stream:
            streamed = stream.get_final_completion()
        single = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}],
                                                tools=[WEATHER], tool_choice="required", n=1)
        lines = list(mock.records)
    for completion in (whole, streamed):
        assert [c.finish_reason for c in completion.choices] == ["tool_calls", "stop"]
        assert completion.choices[0].message.tool_calls[0].function.name == "get_weather"
        assert completion.choices[1].message.tool_calls is None and completion.choices[1].message.content
    assert len(single.choices) == 1
    assert [[len(c["calls"]) for c in line["choices"]] for line in lines[:2]] == [[1, 0], [1, 0]]
    assert "choices" not in lines[2]
    assert all("mock.unjudged" not in [f["code"] for f in line["findings"]] for line in lines)  # n is read
    _valid(lines)


@pytest.mark.parametrize("stream", [False, True])
def test_the_proxy_judges_every_choice_the_sdk_receives(tmp_path: Path, stream: bool) -> None:
    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as upstream, \
            saving_proxy(upstream.base_url, tmp_path) as proxy:
        client = OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        asked = dict(model="gpt-4o", messages=[{"role": "user", "content": "hi"}], tools=[WEATHER],
                     tool_choice="required", n=2)
        if stream:
            with client.chat.completions.stream(**asked) as events:
                completion = events.get_final_completion()
        else:
            completion = client.chat.completions.create(**asked)
        (line,) = _settled(proxy, 1)
    seen = _sdk_choices(completion)
    assert [len(calls) for calls, _, _ in seen] == [1, 0]
    assert line["verdict"] == "no_call"
    assert [(c["index"], c["verdict"]) for c in line["choices"]] == [(0, "obeyed"), (1, "no_call")]
    assert [[(k["name"], json.dumps(k["arguments"], separators=(",", ":"))) for k in c["calls"]]
            for c in line["choices"]] == [calls for calls, _, _ in seen]
    (judged,) = [f for f in line["findings"] if f["code"] == "verdict.no_call"]
    assert "1 of 2 choices obeyed" in judged["message"] and "choice 1:" in judged["message"]
    _valid([line])


def test_the_proxys_pretty_line_says_each_choice(tmp_path: Path) -> None:
    from toolchoice.cli.mock_cmd import _pretty

    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as upstream, \
            saving_proxy(upstream.base_url, tmp_path) as proxy:
        OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0).chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "hi"}], tools=[WEATHER], tool_choice="required", n=2)
        (line,) = _settled(proxy, 1)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _pretty(line)
    assert 'choice 0: get_weather({"city":"example"}) obeyed | choice 1: text no_call' in out.getvalue()


# ---- send and run with n in providers.openai.extra ----------------------------------------------------------------


def test_send_with_n_in_extra_judges_both_choices_and_exits_disobeyed(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, "providers:\n  openai:\n    extra: {n: 2}\n")
    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as mock:
        done = run_cli(["send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-f", "json"],
                       env={"OPENAI_API_KEY": KEY})
        pretty = run_cli(["send", str(scenario), "-p", "openai", "--base-url", mock.base_url],
                         env={"OPENAI_API_KEY": KEY, "COLUMNS": "60", "TERM": "dumb"})
        sent = [line for line in mock.records]
    assert done.returncode == DISOBEYED, done.stderr
    document = json.loads(done.stdout)
    assert document["request"]["body"]["n"] == 2
    assert [c["category"] for c in document["verdict"]["choices"]] == ["obeyed", "no_call"]
    assert document["verdict"]["choices_obeyed"] == [1, 2]
    assert pretty.returncode == DISOBEYED and "choice 1" in pretty.stdout.splitlines()
    assert all(len(line) <= 60 for line in pretty.stdout.splitlines())
    assert KEY not in done.stdout + pretty.stdout + json.dumps(sent)


def test_run_carries_choice_0_forward_and_says_so(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, "providers:\n  openai:\n    extra: {n: 2}\nloop:\n  max_steps: 2\n"
                                   "  results:\n    get_weather: sunny\n")
    with running_mock("openai", script=_script(tmp_path, "replies:\n  - choices: [{}, {text: later}]\n")) as mock:
        done = run_cli(["run", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-f", "json"],
                       env={"OPENAI_API_KEY": KEY})
        lines = list(mock.records)
    document = json.loads(done.stdout)
    steps = document["runs"][0]["loops"][0]["steps"]
    assert all("loop.choice_carried" in json.dumps(step) for step in steps)  # each step's reply held 2 choices
    # the next request's history holds choice 0's call and its result, not choice 1's text
    assert lines[1]["results"][0]["from"] == 1 and lines[1]["results"][0]["id"] == lines[0]["calls"][0]["id"]


@pytest.mark.parametrize("width", [80, 60])
def test_runs_step_table_names_each_choice_as_compare_send_does(tmp_path: Path, width: int) -> None:
    """A step whose choice 1 disobeys reads `no_call`: its calls cell showed choice 0's call alone, which obeyed
    (a step reading "get_weather(...) ✘ no_call"); it names each choice, as compare --send's cell does."""
    scenario = _scenario(tmp_path, "providers:\n  openai:\n    extra: {n: 2}\nloop:\n  max_steps: 1\n"
                                   "  results:\n    get_weather: sunny\n")
    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as mock:
        done = run_cli(["run", str(scenario), "-p", "openai", "--base-url", mock.base_url],
                       env={"OPENAI_API_KEY": KEY, "COLUMNS": str(width), "TERM": "dumb", "NO_COLOR": "1"})
    out = done.stdout
    flat = " ".join(out.replace("│", " ").split())  # the cell folds (wide) or the row stacks (narrow)
    assert done.returncode == DISOBEYED, done.stderr
    assert "choice 1: (no call) toolchoice mock" in flat, out
    assert flat.index("choice 0:") < flat.index("get_weather(") < flat.index("choice 1:"), out
    assert all(len(line) <= width for line in out.splitlines()), out


# ---- Gemini's candidateCount, with google-genai as the client -------------------------------------------------------


def _gemini(base_url: str, stream: bool) -> list[list[tuple[str, Any]]]:
    """generate_content(candidate_count=2) with mode ANY: each candidate's parts as google-genai reads them."""
    from google import genai
    from google.genai import types

    declaration = types.FunctionDeclaration(name="get_weather", parameters_json_schema=WEATHER["function"]["parameters"])
    config = types.GenerateContentConfig(
        candidate_count=2, tools=[types.Tool(function_declarations=[declaration])],
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY")),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=base_url))
    if stream:
        chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents="hi", config=config))
        candidates = [c for chunk in chunks for c in chunk.candidates]
    else:
        candidates = client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=config).candidates
    seen: dict[int, list[tuple[str, Any]]] = {}
    for candidate in candidates:
        seen.setdefault(candidate.index or 0, []).extend(
            ("call", part.function_call.name) if part.function_call else ("text", part.text)
            for part in candidate.content.parts)
    return [seen[i] for i in sorted(seen)]


@pytest.mark.parametrize("stream", [False, True])
def test_the_proxy_judges_every_gemini_candidate_google_genai_receives(tmp_path: Path, stream: bool) -> None:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    with running_mock("gemini", script=_script(tmp_path, DISOBEY_SECOND)) as upstream:
        handler = ProxyHandler("gemini", upstream.base_url, None)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            seen = _gemini(proxy.base_url, stream)
            (line,) = _settled(proxy, 1)
        mocked = list(upstream.records)
    assert [[kind for kind, _ in parts] for parts in seen] == [["call"], ["text"]]
    assert line["verdict"] == "no_call"
    assert [(c["index"], c["verdict"]) for c in line["choices"]] == [(0, "obeyed"), (1, "no_call")]
    assert [[k["name"] for k in c["calls"]] for c in line["choices"]] == [["get_weather"], []]
    assert [len(c["calls"]) for c in mocked[0]["choices"]] == [1, 0]
    _valid([line, *mocked])


def test_a_gemini_body_of_two_candidates_is_read_per_candidate_as_google_genai_reads_it() -> None:
    from google.genai import types

    body = {"candidates": [
        {"index": 0, "finishReason": "STOP", "content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}},
        {"index": 1, "finishReason": "STOP", "content": {"role": "model", "parts": [{"text": "Sunny."}]}}],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 9, "totalTokenCount": 21},
        "modelVersion": "gemini-2.5-flash"}
    sdk = types.GenerateContentResponse.model_validate(body)
    reply = parse_reply("gemini", body)
    assert [[c.name for c in choice.tool_calls] for choice in reply.choices] == \
        [[p.function_call.name for p in c.content.parts if p.function_call] for c in sdk.candidates]
    assert [choice.text for choice in reply.choices] == [None, sdk.candidates[1].content.parts[0].text]
    assert reply.usage.input_tokens == sdk.usage_metadata.prompt_token_count
    found = verdict(load_scenario_text(SCENARIO, "s.yaml"), reply)
    assert (found["category"], found["choices_obeyed"]) == ("no_call", [1, 2])


def test_compare_sends_calls_cell_names_each_choice() -> None:
    from toolchoice.cli.compare_send import _calls_text

    assert _calls_text(parse_reply("openai", TWO)).splitlines() == [
        'choice 0: get_weather({"city":"Paris"})', "choice 1: (text) It is sunny in Paris."]


def test_choices_past_the_limit_are_said_and_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/limits.md `choices`: a stream's choices past it are a stream.too_large finding; an n past it is named
    in mock.unjudged and answered with one choice."""
    monkeypatch.setenv("TOOLCHOICE_LIMIT_CHOICES", "2")
    head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    raw = _sse([{**head, "choices": [{"index": i, "delta": {"content": f"t{i}"}, "finish_reason": "stop"}]}
                for i in range(4)])
    result = assemble_bytes("openai", raw)
    assert [c.text for c in result.reply.choices] == ["t0", "t1"]
    (finding,) = [f for f in result.findings if f.code == "stream.too_large"]
    assert "limit choices" in finding.message and "TOOLCHOICE_LIMIT_CHOICES" in finding.message
    with running_mock("openai") as mock:
        answered = httpx.post(mock.base_url + "/chat/completions", timeout=10, json={
            "model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "n": 3}).json()
        (line,) = mock.records
    assert len(answered["choices"]) == 1
    assert any(f["code"] == "mock.unjudged" and "n" in f["message"].split(": ")[-1].split(", ")
               for f in line["findings"])


def test_a_sent_document_of_two_choices_validates_against_the_shipped_schema(tmp_path: Path) -> None:
    import jsonschema

    scenario = _scenario(tmp_path, "providers:\n  openai:\n    extra: {n: 2}\n")
    with running_mock("openai", script=_script(tmp_path, DISOBEY_SECOND)) as mock:
        done = run_cli(["send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-f", "json"],
                       env={"OPENAI_API_KEY": KEY})
    schema = json.loads(run_cli(["schema", "send"], env={}).stdout)
    document = json.loads(done.stdout)
    jsonschema.validate(document, schema)
    assert len(document["reply"]["choices"]) == 2
