"""Adversarial round on session 14-15's newest surfaces (trial15b): `toolchoice trace SAVED` fed hostile save folders,
JSON scenarios as other tools write them, the YAML `trace` and `tools` print. Each test failed before its fix; the
commands run in-process (tests/cli.py), the truth is Python's own JSON decoder and PyYAML's reader of what was
printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli import run_cli

TOOLS = [{"name": "get_weather", "parameters": {"type": "object"}}]


def saved(folder: Path, body: dict[str, Any], provider: str, url: str, number: int = 1, **headers: str) -> Path:
    """A save folder's sample as proxy/mock --save writes one: the request, and the reply line naming the provider."""
    folder.mkdir(exist_ok=True)
    request = folder / f"sample-{number:03d}.request.json"
    request.write_text(json.dumps({"method": "POST", "url": url, "headers": headers, "body": body}), encoding="utf-8")
    (folder / f"sample-{number:03d}.reply.json").write_text(json.dumps({"provider": provider}), encoding="utf-8")
    return request


def chat(content: str, description: str = "weather") -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": content}], "tool_choice": "required",
            "tools": [{"type": "function", "function": {"name": "get_weather", "description": description,
                                                        "parameters": {"type": "object"}}}]}


# ---- trace SAVED: what a hostile save folder holds ----------------------------------------------------------------

# A save made by hand or by another recorder (ours write [redacted] there) holding an MCP server's token in the body
# (Anthropic's mcp_servers[].authorization_token): `trace` kept the body's field in providers.anthropic.extra as
# written and printed the token. It is replaced where the family's MOCK_SECRETS say, anywhere else it is quoted, and
# said (saved.redacted).
def test_trace_never_prints_an_mcp_token_a_save_holds(tmp_path):
    token = "tok-adversarial15-0123456789abcdef"
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "tool_choice": {"type": "any"},
            "messages": [{"role": "user", "content": f"my token is {token}"}],
            "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
            "mcp_servers": [{"type": "url", "url": "https://mcp.example.com/sse", "name": "ex",
                             "authorization_token": token}]}
    file = saved(tmp_path / "save", body, "anthropic", "/v1/messages")
    for args in (["trace", str(file)], ["trace", str(file), "-f", "json"]):
        done = run_cli(args, env={})
        assert done.returncode == 0, done.stderr
        assert token not in done.stdout + done.stderr and token[4:16] not in done.stdout + done.stderr
        assert "saved.redacted" in done.stdout + done.stderr
    data = yaml.safe_load(done.stdout)
    assert data["providers"]["anthropic"]["extra"]["mcp_servers"][0]["authorization_token"] == "[redacted]"


# sample-1.request.json beside sample-001.request.json (a save renamed by hand, another recorder's numbering): both
# read as sample 1 and the folder's listing held one of them, or with no other sample `trace DIR` imported it without
# a word of the other. Said now, naming both.
def test_two_files_of_one_sample_number_are_said_not_one_dropped(tmp_path):
    folder = tmp_path / "save"
    saved(folder, chat("first"), "openai", "/v1/chat/completions")
    (folder / "sample-1.request.json").write_text((folder / "sample-001.request.json").read_text(), encoding="utf-8")
    done = run_cli(["trace", str(folder)], env={})
    assert done.returncode == 2 and done.stdout == ""
    assert "sample-001.request.json and sample-1.request.json are both sample 1" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


# A request whose text holds a zero-width space, a bidi override, NEL or U+2028 (a tool description pasted from a web
# page, a message an attacker wrote): the YAML printed a plain or single-quoted scalar that `write` then spelt with
# \u200b (so no terminal acts on it) — six characters when the YAML is read back, so the scenario saved from the
# output sent another description than the request's. And the import's own check read its JSON text through YAML,
# which folds U+0085 and U+2028 with the spaces around them: a spurious saved.differs note. A string holding such a
# character is double-quoted now, where \u200b is YAML's escape; the JSON reading keeps them.
def test_trace_yaml_reads_back_as_the_request_it_shows(tmp_path):
    content = "pay \u202egnp.exe to bob\u200b now \x85 then \u2028 later"
    description = "zero\u200bwidth \u2066isolate\u2069"
    file = saved(tmp_path / "save", chat(content, description), "openai", "/v1/chat/completions")
    done = run_cli(["trace", str(file)], env={})
    assert done.returncode == 0, done.stderr
    assert not any(ch in done.stdout for ch in "\u202e\u200b\x85\u2028\u2066"), done.stdout  # written out
    data = yaml.safe_load(done.stdout)
    assert data["messages"][0]["content"] == content
    assert data["tools"][0]["description"] == description
    assert "saved.differs" not in done.stdout



# A save folder from elsewhere (a tarball, a shared drive) with a FIFO — or a link to /dev/tty or /dev/stdin — where a
# sample's request or reply file goes: `trace DIR` read it as a pipe the user had named, so it waited for a writer or
# for the terminal for ever (and read whatever came). The folder's files are regular files or refused, in one line; a
# request file the user names (`trace -p openai <(...)`) is still read as the pipe it is.
def test_a_fifo_in_a_save_folder_is_refused_not_waited_on(tmp_path):
    import os
    import threading

    folder = tmp_path / "save"
    saved(folder, chat("hi"), "openai", "/v1/chat/completions")
    fifo = folder / "sample-002.request.json"
    os.mkfifo(fifo)
    request = (folder / "sample-001.request.json").read_bytes()
    stop = threading.Event()

    def write() -> None:  # a writer that never blocks: it waits for a reader by polling (a blocking open could
        while not stop.is_set():  # miss a reader that came and went before it started: a hang under load)
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader yet
                stop.wait(0.01)
                continue
            try:
                os.write(fd, request)
            except OSError:  # the reader closed first (refused it, as it should)
                pass
            finally:
                os.close(fd)
            return

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        done = run_cli(["trace", str(folder), "--sample", "2", "-p", "openai"], env={})
    finally:
        stop.set()
        writer.join()
    assert done.returncode == 2 and done.stdout == ""
    assert "sample-002.request.json: is a FIFO, not a regular saved request file" in done.stderr, done.stderr


# ---- JSON scenarios as other tools write them ---------------------------------------------------------------------

# json.dumps writes a character past U+FFFF as two escapes (ensure_ascii, its default): a scenario.json with an emoji
# in a message was refused as "a lone surrogate escape ... write the character itself, or both halves" — both halves
# were written. The pair is the character now; a lone half is still refused.
def test_a_json_scenario_with_an_emoji_escaped_as_json_dumps_writes_it(tmp_path):
    content = "sunny \U0001F600 and \U0001F327"
    scenario = {"tools": TOOLS, "tool_choice": "required", "messages": [{"role": "user", "content": content}]}
    (tmp_path / "s.json").write_text(json.dumps(scenario), encoding="utf-8")
    assert "\\ud83d\\ude00" in (tmp_path / "s.json").read_text()
    done = run_cli(["render", str(tmp_path / "s.json"), "-p", "openai", "-f", "json"], env={})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["body"]["messages"][0]["content"] == content
    scenario["messages"][0]["content"] = "half \ud83d of it"
    (tmp_path / "lone.json").write_text(json.dumps(scenario), encoding="utf-8")
    done = run_cli(["render", str(tmp_path / "lone.json"), "-p", "openai"], env={})
    assert done.returncode == 2 and "lone surrogate" in done.stderr


# A JSON string may hold U+2028, U+2029, NEL, DEL and the C1 controls as they are (RFC 8259 asks only C0 escaped;
# json.dumps(ensure_ascii=False) writes them so): the scenario reader read the JSON text as YAML 1.1, which folds the
# first three and the spaces around them ("a \u2028 b" sent as "a\u2028b") and refuses the rest as "control
# characters" — the user's text changed without a word, or valid JSON refused.
@pytest.mark.parametrize("content", ["a \u2028 b \u2029 c \x85 d", "csi \x9b31m del \x7f"])
def test_a_json_scenario_sends_its_strings_as_json_reads_them(tmp_path, content):
    scenario = {"tools": TOOLS, "tool_choice": "required", "messages": [{"role": "user", "content": content}]}
    (tmp_path / "s.json").write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    truth = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["messages"][0]["content"]
    done = run_cli(["render", str(tmp_path / "s.json"), "-p", "openai", "-f", "json"], env={})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["body"]["messages"][0]["content"] == truth


# ---- the mock's answers made from a JSON schema -------------------------------------------------------------------

def _mock_answer(schema: dict[str, Any], structured: bool) -> tuple[int, Any]:
    """The mock's Chat answer to a tool (or a response_format) of ``schema``: status, and the arguments (or the text)
    as JSON reads them."""
    from toolchoice.providers.core.mock.service import MockService

    body: dict[str, Any] = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    if structured:
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
    else:
        body.update(tools=[{"type": "function", "function": {"name": "t", "parameters": schema}}],
                    tool_choice="required")
    exchange = MockService("openai").handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    answer = json.loads(exchange.body)
    if exchange.status != 200:
        return exchange.status, answer
    message = answer["choices"][0]["message"]
    text = message["content"] if structured else message["tool_calls"][0]["function"]["arguments"]
    return exchange.status, json.loads(text, parse_constant=_not_json)  # Infinity and NaN are no JSON (RFC 8259)


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


MAX_VALUES = 10_000  # arguments.MAX_VALUES, as docs/mock.md gives it


def _count(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(_count(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_count(v) for v in value)
    return 1


# A schema whose allOf names the schema itself (`allOf: [{$ref: "#"}]`, or two $defs naming each other), or a
# multipleOf so small its count of steps is past a float (5e-324, an integer): the mock answered its own 500
# ("internal error: RecursionError" / "OverflowError" / "Out of range float values are not JSON compliant") where the
# API answers. It answers now (the allOf ends at the depth bound; the step that cannot be counted is not taken).
@pytest.mark.parametrize("schema", [
    {"type": "object", "allOf": [{"$ref": "#"}]},
    {"$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}},
     "type": "object", "required": ["x"], "properties": {"x": {"$ref": "#/$defs/A"}}},
    {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "multipleOf": 5e-324}}},
    {"type": "object", "required": ["n"], "properties": {"n": {"type": "number", "multipleOf": 5e-324, "minimum": 2}}},
    {"type": "object", "required": ["n"], "properties": {"n": {"type": "number", "minimum": 10 ** 400,
                                                               "multipleOf": 0.5}}},
], ids=["allof-self", "allof-mutual", "tiny-step-integer", "tiny-step-number", "bound-past-a-float"])
@pytest.mark.parametrize("structured", [False, True], ids=["tool", "response_format"])
def test_a_schema_that_recurses_or_steps_past_floats_is_answered_not_a_500(schema, structured):
    status, value = _mock_answer(schema, structured)
    assert status == 200, value
    assert isinstance(value, dict)


# minItems 40 on arrays of arrays of arrays (64,000 values), or two required properties that are the schema again
# ($ref "#": a binary tree 24 levels deep, 16 million values, and the mock never answered): the mock made every value
# the schema asks for, whatever their count. One answer makes at most arguments.MAX_VALUES values now.
@pytest.mark.parametrize("schema", [
    {"type": "object", "required": ["a"], "properties": {"a": {
        "type": "array", "minItems": 40, "items": {"type": "array", "minItems": 40, "items": {
            "type": "array", "minItems": 40, "items": {"type": "integer"}}}}}},
    {"type": "object", "minProperties": 200, "properties": {str(i): {"$ref": "#"} for i in range(200)}},
], ids=["arrays-of-arrays", "properties-of-itself"])
def test_one_answer_makes_a_bounded_count_of_values(schema):
    status, value = _mock_answer(schema, structured=False)
    assert status == 200 and _count(value) <= MAX_VALUES


# ---- scenario YAML ------------------------------------------------------------------------------------------------

# max_tokens written with 5,000 digits (a paste gone wrong): past int()'s digit limit the error quoted the whole
# value, a line of 1,800 characters, and said "drop the !!tag" of a value that has none.
def test_a_number_past_the_digit_limit_is_one_short_line(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n- name: get_weather\n  parameters: {type: object}\ntool_choice: required\n"
                        "messages:\n- {role: user, content: hi}\nproviders:\n  openai:\n    max_tokens: "
                        + "9" * 5000 + "\n", encoding="utf-8")
    done = run_cli(["render", str(scenario), "-p", "openai"], env={})
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"toolchoice: error: {scenario}:9:17: ") and len(line) < 300, line
    assert "!!tag" not in line and "99999999999" not in line


# ---- literal keys in providers.<id>.headers and api_key_env: near-misses both ways --------------------------------

LITERAL = "sk-adversarial15-literal-0123456789"


def _with_headers(tmp_path: Path, settings: str) -> Path:
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n- name: get_weather\n  parameters: {type: object}\ntool_choice: required\n"
                        f"messages:\n- {{role: user, content: hi}}\nproviders:\n  openai:\n{settings}", encoding="utf-8")
    return scenario


# A key written as text under a header name the credential words missed — camelCase (accessToken, XApiKey), a plural
# (X-Api-Keys), dots (x.api.key) — went into every render as written; an Idempotency-Key (the IETF draft's header) or
# Cloudflare AI Gateway's cf-aig-cache-key, which name a request and not who sends it, were refused as keys.
@pytest.mark.parametrize("name", ["accessToken", "XApiKey", "X-Api-Keys", "x.api.key", "clientSecret"])
def test_a_literal_key_under_a_near_miss_header_name_is_refused_and_not_shown(tmp_path, name):
    done = run_cli(["render", str(_with_headers(tmp_path, f"    headers:\n      {name}: {LITERAL}\n")), "-p", "openai"],
                   env={})
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert f"headers.{name} holds {len(LITERAL)} characters of text where a key goes" in done.stderr
    assert LITERAL[3:15] not in done.stderr


@pytest.mark.parametrize("name, value", [("Idempotency-Key", "run-2026-11-27-0001"),
                                         ("cf-aig-cache-key", "weather-run-0001")])
def test_a_header_that_names_a_request_not_a_key_is_sent_as_written(tmp_path, name, value):
    done = run_cli(["render", str(_with_headers(tmp_path, f"    headers:\n      {name}: {value}\n")), "-p", "openai",
                    "-f", "json"], env={})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["headers"][name] == value


# The mock's --save read the same words: a client's `X-Api-Keys: sk-...` was written into sample-001.request.json as
# it came, and its Idempotency-Key replaced by [redacted] (a value no one can match the request by).
def test_the_mock_s_save_redacts_near_miss_key_headers_and_keeps_an_idempotency_key(tmp_path):
    import httpx

    from toolchoice.providers import running_mock

    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}
    with running_mock("openai", save_dir=tmp_path / "save") as mock:
        httpx.post(mock.base_url + "/chat/completions", json=body, timeout=10,
                   headers={"X-Api-Keys": LITERAL, "x.api.key": LITERAL, "Idempotency-Key": "run-0001"})
    saved = (tmp_path / "save" / "sample-001.request.json").read_text(encoding="utf-8")
    headers = json.loads(saved)["headers"]
    assert headers["x-api-keys"] == headers["x.api.key"] == "[redacted]", headers
    assert headers["idempotency-key"] == "run-0001"
    assert LITERAL[3:15] not in "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "save").iterdir())


# api_key_env written as another tool's config names a variable (LiteLLM's os.environ/OPENAI_API_KEY, env:NAME, a
# space at its end) or in lower case was refused as "a text of 25 characters starting 'os.' (a key itself?)", with
# the hint to invent MY_PROXY_KEY. The refusal names the variable meant now; a key is still said only by its length.
@pytest.mark.parametrize("value, meant", [("os.environ/OPENAI_API_KEY", "OPENAI_API_KEY"),
                                          ("env:GROQ_API_KEY", "GROQ_API_KEY"), ("'OPENAI_API_KEY '", "OPENAI_API_KEY"),
                                          ("openai_api_key", "OPENAI_API_KEY")])
def test_api_key_env_in_another_tool_s_spelling_is_said_with_the_name_meant(tmp_path, value, meant):
    done = run_cli(["render", str(_with_headers(tmp_path, f"    api_key_env: {value}\n")), "-p", "openai"], env={})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.rstrip().endswith(f"write api_key_env: {meant})"), done.stderr
    assert "a key itself" not in done.stderr



# A reply file naming a provider toolchoice does not know (a save from another recorder, a hand edit: "opnai") was
# "unknown provider 'opnai'" with no file named: the request file was fine, and nothing said which file to fix.
def test_a_reply_file_naming_an_unknown_provider_is_named_in_the_error(tmp_path):
    folder = tmp_path / "save"
    file = saved(folder, chat("hi"), "opnai", "/v1/chat/completions")
    done = run_cli(["trace", str(file)], env={})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"toolchoice: error: {folder / 'sample-001.reply.json'}: "), done.stderr
    assert "unknown provider 'opnai'" in done.stderr and "-p" in done.stderr
