"""`toolchoice send` end to end: the installed command against a local stand-in server that speaks
each provider's protocol (tests/servers.py). Nothing here reaches the internet.

Asserted: the body the server received is byte for byte the body `render --format json` shows, the
key arrives in the provider's auth header and never in any output or saved file, the verdict category
of each kind of reply, retries and their waits, and the --repeat tally."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.model import wire_json

from servers import DEFAULT_REPLY, StandIn, Step, fixture
from cli import record_retry_waits, run_cli

ROOT = Path(__file__).resolve().parents[1]
WEATHER_YAML = ROOT / "configs" / "weather.yaml"
TRAP_YAML = ROOT / "configs" / "planner-trap.yaml"
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})
CANARY = {name: f"canary-{name.lower().replace('_', '-')}-9d41e7" for name in KEY_VARS}

# The OpenAI API reference's example chat completion object ("The chat completion object"; the same
# example is reproduced in pub.dev openai_api ChatCompletionResponse docs): a text-only reply.
OPENAI_TEXT_REPLY = {
    "id": "chatcmpl-123", "object": "chat.completion", "created": 1677652288, "model": "gpt-3.5-turbo-0613",
    "system_fingerprint": "fp_44709d6fcb",
    "choices": [{"index": 0,
                 "message": {"role": "assistant", "content": "\n\nHello there, how may I assist you today?"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21},
}

NGINX_TEXT = "502 Bad Gateway 502 Bad Gateway nginx"  # nginx's 502 page, tags and line ends collapsed

# Tools matching the recorded OpenAI replies: openai-chat-single-strict calls
# get_weather {"city": "San Francisco", "state": "CA"}; openai-chat-parallel calls GetWeatherArgs and
# get_stock_price.
TOOLS_YAML = """
tools:
  - name: get_weather
    parameters:
      type: object
      properties: {city: {type: string}, state: {type: string}}
      required: [city, state]
  - name: GetWeatherArgs
    parameters: {type: object, properties: {city: {type: string}, country: {type: string}, units: {type: string}}}
  - name: get_stock_price
    parameters: {type: object, properties: {ticker: {type: string}, exchange: {type: string}}, required: [ticker]}
messages:
  - {role: user, content: "What's the weather in San Francisco?"}
providers:
  openai: {model: gpt-4o-2024-08-06}
"""


def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(args, env=env if env is not None else base_env(), input=stdin)


def base_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and "proxy" not in k.lower()}
    env.update(CANARY)
    env.update({"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "160", "TERM": "dumb", "NO_COLOR": "1"})
    env.update(overrides)
    return env


def no_canary(*texts: str) -> None:
    for text in texts:
        for value in CANARY.values():
            assert value not in text


def scenario_file(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(TOOLS_YAML + extra, encoding="utf-8")
    return path


def send_json(server: StandIn, scenario: Path, *args: str, provider: str = "openai", env=None):
    result = run("send", str(scenario), "-p", provider, "--base-url", server.base_url(provider), "-f", "json",
                 *args, env=env)
    no_canary(result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result, (json.loads(result.stdout) if result.stdout.strip() else None)


def render_json(scenario: Path, provider: str, base_url: str, *args: str) -> dict:
    result = run("render", str(scenario), "-p", provider, "--base-url", base_url, "-f", "json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# ---- what goes on the wire -------------------------------------------------------------------

# Where each family's key goes, from the official SDKs: openai-python (Authorization: Bearer),
# anthropic-sdk-python (x-api-key), google-genai (x-goog-api-key), openai-python lib/azure.py
# (api-key), botocore bearer auth for Bedrock API keys (Authorization: Bearer), cohere-python (Bearer).
AUTH = {"openai": ("authorization", "Bearer {}"), "anthropic": ("x-api-key", "{}"),
        "gemini": ("x-goog-api-key", "{}"), "azure": ("api-key", "{}"), "bedrock": ("authorization", "Bearer {}"),
        "cohere": ("authorization", "Bearer {}"), "mistral": ("authorization", "Bearer {}")}


def reply_for(provider: str) -> Step:
    return Step.reply(provider) if provider in DEFAULT_REPLY else Step.reply("openai")


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_the_body_sent_is_renders_body_and_the_key_goes_in_the_auth_header(provider):
    with StandIn(provider, default=reply_for(provider)) as server:
        rendered = render_json(WEATHER_YAML, provider, server.base_url(provider))
        request = rendered["request"]
        result, data = send_json(server, WEATHER_YAML, provider=provider)
        assert result.returncode in (0, 4), result.stderr
        assert data["verdict"]["category"] != "error", data["reply"]
        assert data["request"] == request  # the output shows placeholders, exactly as render does
        (got,) = server.requests
        assert got.raw == wire_json(request["body"]).encode("utf-8")
        assert got.json == request["body"]
        url = urlsplit(request["url"])
        assert (got.path, got.query) == (url.path, url.query)
        # the header that carries the $PLACEHOLDER in render arrives with the key value
        for name, value in request["headers"].items():
            expected = value
            for var in CAPABILITIES[provider].key_env:
                expected = expected.replace(f"${var}", CANARY[var])
            assert got.headers[name.lower()] == expected
        if provider in AUTH:
            header, form = AUTH[provider]
            assert got.headers[header] == form.format(CANARY[CAPABILITIES[provider].key_env[0]])


def test_the_user_agent_names_the_installed_release():
    """The User-Agent reads the version in the package; the installed distribution's metadata (what pip
    recorded from pyproject) is the truth it must agree with (--version: test_interface.py)."""
    from importlib.metadata import version

    installed = version("toolchoice")
    with StandIn("openai") as server:
        result, _ = send_json(server, WEATHER_YAML, provider="openai")
        assert result.returncode in (0, 4), result.stderr
        assert server.requests[0].headers["user-agent"] == f"toolchoice/{installed}"


def test_a_local_server_without_a_key_gets_no_auth_header():
    env = base_env()
    env.pop("OLLAMA_API_KEY")
    with StandIn("ollama") as server:
        result, data = send_json(server, WEATHER_YAML, provider="ollama", env=env)
        assert result.returncode in (0, 4), result.stderr
        assert "authorization" not in server.requests[0].headers


def test_missing_key_is_bad_input_before_any_connection(tmp_path):
    env = base_env()
    env.pop("OPENAI_API_KEY")
    with StandIn("openai") as server:
        result = run("send", str(scenario_file(tmp_path)), "-p", "openai", "--base-url", server.base_url(), env=env)
        assert server.requests == []
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("toolchoice: error: openai: no API key: set OPENAI_API_KEY")
    assert "Traceback" not in result.stderr
    # the stand-in is on 127.0.0.1: the one line says what a newcomer with a local server can do
    assert "any value, e.g. export OPENAI_API_KEY=local" in result.stderr and len(result.stderr.splitlines()) == 1


def test_dry_run_is_exactly_render_and_opens_no_socket(tmp_path):
    path = scenario_file(tmp_path, "tool_choice: required\n")
    with StandIn("openai") as server:
        for fmt in ("json", "pretty"):
            dry = run("send", str(path), "-p", "openai", "--base-url", server.base_url(), "--dry-run", "-f", fmt)
            rendered = run("render", str(path), "-p", "openai", "--base-url", server.base_url(), "-f", fmt)
            assert dry.returncode == rendered.returncode == 0
            assert dry.stdout == rendered.stdout
        assert server.requests == []


def test_a_refused_translation_is_never_sent(tmp_path):
    # Cohere has no named tool_choice: emulated (a warning), which --strict refuses
    path = scenario_file(tmp_path, "tool_choice: get_weather\n")
    with StandIn("cohere") as server:
        result, data = send_json(server, path, "--strict", provider="cohere")
        assert server.requests == []
    assert result.returncode == 3
    assert data["request"] is None and data["reply"] is None
    assert "strict.refused" in [e["code"] for e in data["ledger"]]


# ---- verdicts ------------------------------------------------------------------------------


def renamed_weather_call(name: str, arguments: str) -> dict:
    """The recorded openai-chat-single-strict body with its one call renamed (a derived body)."""
    body = fixture("openai", "openai-chat-single-strict")
    body["choices"][0]["message"]["tool_calls"][0]["function"] = {"name": name, "arguments": arguments}
    return body


CASES = [
    # (scenario tail, served body, category, exit code)
    ("tool_choice: get_weather\n", fixture("openai", "openai-chat-single-strict"), "obeyed", 0),
    ("tool_choice: required\n", fixture("openai", "openai-chat-single-strict"), "obeyed", 0),
    ("tool_choice: get_stock_price\n", fixture("openai", "openai-chat-single-strict"), "wrong_tool", 4),
    ("tool_choice: {allowed: [get_stock_price], mode: required}\n", fixture("openai", "openai-chat-single-strict"),
     "wrong_tool", 4),
    ("tool_choice: none\n", fixture("openai", "openai-chat-single-strict"), "unwanted_call", 4),
    ("tool_choice: required\n", OPENAI_TEXT_REPLY, "no_call", 4),
    ("tool_choice: auto\n", OPENAI_TEXT_REPLY, "obeyed", 0),
    ("tool_choice: required\nparallel_tool_calls: false\n", fixture("openai", "openai-chat-parallel"),
     "too_many_calls", 4),
    ("tool_choice: required\n", renamed_weather_call("get_weather", '{"city": "San Francisco"}'),
     "invalid_arguments", 4),
    ("tool_choice: required\n", renamed_weather_call("search_web", '{"q": "weather"}'), "phantom_tool", 4),
]


@pytest.mark.parametrize("tail, body, category, code", CASES, ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_verdict_category_for_each_kind_of_reply(tmp_path, tail, body, category, code):
    with StandIn("openai", default=Step(body=body)) as server:
        result, data = send_json(server, scenario_file(tmp_path, tail))
    assert data["verdict"]["category"] == category, data["verdict"]
    assert data["verdict"]["obeyed"] is (category == "obeyed")
    assert result.returncode == code
    assert set(data) >= {"provider", "request", "reply", "verdict", "ledger", "latency_ms"}


def test_invalid_arguments_name_the_json_path(tmp_path):
    body = renamed_weather_call("get_weather", '{"city": "San Francisco"}')
    with StandIn("openai", default=Step(body=body)) as server:
        _, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\n"))
    assert data["verdict"]["reasons"] == ["get_weather: $: 'state' is a required property"]


def test_the_required_trap_reply_is_a_phantom_tool():
    body = renamed_weather_call("read_file", '{"path": "config.py"}')
    with StandIn("openai", default=Step(body=body)) as server:
        result, data = send_json(server, TRAP_YAML)
    assert result.returncode == 4
    assert data["verdict"]["category"] == "phantom_tool"
    assert "it appears in the conversation history" in data["verdict"]["reasons"][0]
    assert "pitfall.required_trap" in [e["code"] for e in data["ledger"]]


def test_provider_error_body_is_one_line_and_exit_1(tmp_path):
    with StandIn("openai", default=Step.recorded_error(400, "error-openai-tool-choice-without-tools")) as server:
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\n"))
        assert len(server.requests) == 1  # 400 is not retried
    assert result.returncode == 1
    assert data["verdict"]["category"] == "error"
    assert data["error"] == ("openai: 400 invalid_request_error: Invalid value for 'tool_choice': 'tool_choice' is "
                             "only allowed when 'tools' are specified.")


def test_anthropic_error_shape_in_pretty_output(tmp_path):
    with StandIn("anthropic", default=Step.recorded_error(400, "error-anthropic-invalid-input-schema")) as server:
        result = run("send", str(WEATHER_YAML), "-p", "anthropic", "--base-url", server.base_url("anthropic"))
    assert result.returncode == 1
    assert ("anthropic: 400 invalid_request_error: tools.17.custom.input_schema: JSON schema is invalid."
            in result.stdout)
    assert "Traceback" not in result.stderr


def test_html_proxy_page_shows_status_and_the_start_of_the_body(tmp_path):
    with StandIn("openai", default=Step.html(502)) as server:
        result, data = send_json(server, scenario_file(tmp_path), "--retries", "0")
    assert result.returncode == 1
    assert data["error"] == 'openai: 502: non-JSON response (HTML page "502 Bad Gateway"): ' + NGINX_TEXT


def test_malformed_json_in_a_200_is_an_error_not_a_crash(tmp_path):
    with StandIn("openai", default=Step.malformed()) as server:
        result, data = send_json(server, scenario_file(tmp_path))
    assert result.returncode == 1
    assert data["error"].startswith('openai: 200: non-JSON response: {"id": "chatcmpl-1"')


# ---- retries -------------------------------------------------------------------------------


def test_retries_honour_retry_after_ms_and_retry_after_seconds(tmp_path, monkeypatch):
    """The waits asked for are recorded, not slept (a server's wait really waited for: test_transport.py's
    test_retry_after_ms_is_waited_for_real, and through the command test_hardening_faults.py's
    test_429_with_retry_after_ms_forever_stops_after_the_retries)."""
    slept = record_retry_waits(monkeypatch)
    with StandIn("openai") as server:
        server.script(Step.error("openai", 429, "Rate limit reached", retry_after_ms="100"),
                      Step.error("openai", 503, "Service unavailable", retry_after="1"))
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: get_weather\n"))
        first, second, third = server.requests
    assert result.returncode == 0, result.stderr
    assert [(a["status"], a["wait_s"], a["wait_source"]) for a in data["attempts"]] == [
        (429, 0.1, "retry-after-ms"), (503, 1.0, "retry-after"), (200, 0.0, None)]
    assert slept == [0.1, 1.0]
    assert first.raw == second.raw == third.raw  # the same bytes every time


def test_retries_are_bounded_and_back_off_exponentially(tmp_path, monkeypatch):
    slept = record_retry_waits(monkeypatch)
    with StandIn("openai", default=Step.error("openai", 503, "overloaded")) as server:
        result, data = send_json(server, scenario_file(tmp_path), "--retries", "2")
        assert len(server.requests) == 3
    assert result.returncode == 1
    waits = [a["wait_s"] for a in data["attempts"]]
    assert 0.375 <= waits[0] <= 0.5 and 0.75 <= waits[1] <= 1.0 and waits[2] == 0.0  # 0.5·2ⁿ less ≤25% jitter
    assert waits[:2] == [round(s, 3) for s in slept] and len(slept) == 2  # what was asked of the sleep
    assert data["error"] == "openai: 503 server_error: overloaded"


def test_anthropic_529_is_retried(tmp_path):
    with StandIn("anthropic") as server:
        server.script(Step.recorded_error(529, "error-anthropic-overloaded", headers={"retry-after-ms": "10"}))
        result, data = send_json(server, WEATHER_YAML, provider="anthropic")
    assert [a["status"] for a in data["attempts"]] == [529, 200]
    assert data["verdict"]["category"] != "error"


def test_a_dropped_connection_is_retried(tmp_path, monkeypatch):
    slept = record_retry_waits(monkeypatch)
    with StandIn("openai") as server:
        server.script(Step.dropped())
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: get_weather\n"))
    assert result.returncode == 0
    assert data["attempts"][0]["status"] is None
    assert data["attempts"][0]["error"].startswith("connection dropped")
    assert len(server.requests) == 2 and [data["attempts"][0]["wait_s"]] == [round(s, 3) for s in slept]
    assert data["attempts"][0]["wait_source"] == "backoff" and 0.375 <= slept[0] <= 0.5


def test_connection_refused_is_a_network_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run("send", str(scenario_file(tmp_path)), "-p", "openai", "--base-url", f"http://127.0.0.1:{port}/v1",
                 "--retries", "0", "-f", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["error"].startswith("openai: transport_error: connection failed")
    assert data["error"].endswith("(after 1 attempt)")


def test_read_timeout(tmp_path):
    with StandIn("openai", default=Step(delay=2.0, body={})) as server:
        result, data = send_json(server, scenario_file(tmp_path), "--timeout", "0.3", "--retries", "0")
    assert result.returncode == 1
    assert "read timeout" in data["error"]


# ---- keys never leak -----------------------------------------------------------------------


def test_an_echoed_key_never_reaches_output_or_saved_files(tmp_path):
    key = CANARY["OPENAI_API_KEY"]
    echo = {"error": {"message": f"Incorrect API key provided: {key}. You can find your API key at "
                                 "https://platform.openai.com/account/api-keys.",
                      "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}
    save = tmp_path / "saved"
    with StandIn("openai", default=Step(status=401, body=echo, headers={"X-Echo": key})) as server:
        for fmt in ("json", "pretty"):
            result = run("send", str(scenario_file(tmp_path)), "-p", "openai", "--base-url", server.base_url(),
                         "-f", fmt, "--raw", "--save", str(save))
            assert result.returncode == 1
            no_canary(result.stdout, result.stderr)
            assert "Incorrect API key provided: $OPENAI_API_KEY." in result.stdout
    for path in save.iterdir():
        no_canary(path.read_text())


# ---- --repeat, --save, --raw, pretty -----------------------------------------------------------


def test_repeat_counts_every_sample_and_keeps_going_after_failures(tmp_path):
    steps = [Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(3)]
    steps += [Step(body=OPENAI_TEXT_REPLY), Step.recorded_error(400, "error-openai-tool-choice-without-tools"),
              Step(body=fixture("openai", "openai-chat-parallel"))]
    with StandIn("openai") as server:
        server.script(*steps)
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\nparallel_tool_calls: false\n"),
                                 "--repeat", "6", "--concurrency", "3")
        assert len(server.requests) == 6
    # one sample failed and two disobeyed: the one exit-code rule (cli/exits.outcome) of every command
    # puts FAILED (1, the measurement is incomplete) first, as `compare --send` always did
    assert result.returncode == 1
    assert data["samples"] == 6 and len(data["results"]) == 6
    assert {k: v for k, v in data["counts"].items() if v} == {"obeyed": 3, "no_call": 1, "error": 1,
                                                               "too_many_calls": 1}
    assert data["rates"]["obeyed"]["rate"] == 0.5
    assert data["rates"]["obeyed"]["low"] == pytest.approx(0.18761, abs=1e-4)  # Wilson 3/6
    assert data["latency_percentiles_ms"]["p50"] is not None and data["latency_percentiles_ms"]["n"] == 5
    assert data["tokens"]["input_total"] == 48 * 3 + 9 + 149
    assert sorted(r["sample"] for r in data["results"]) == [1, 2, 3, 4, 5, 6]


def test_a_cookie_a_reply_sets_is_not_sent_with_the_next_sample(tmp_path):
    """Each sample stands alone, as the scenario wrote it: a Set-Cookie (OpenAI's replies carry Cloudflare's
    ``__cf_bm``) is kept by neither httpx's jar nor aiohttp's (test_aio_transport.py runs this again)."""
    body = fixture("openai", "openai-chat-single-strict")
    with StandIn("openai") as server:
        server.script(*[Step(body=body, headers={"Set-Cookie": "__cf_bm=abc123; Path=/; HttpOnly"}) for _ in range(3)])
        # by host name: aiohttp's jar keeps no cookie of an IP address
        scenario = scenario_file(tmp_path, "tool_choice: required\n")
        result = run("send", str(scenario), "-p", "openai", "--base-url", server.base_url().replace("127.0.0.1", "localhost"),
                     "-f", "json", "--repeat", "3", "--concurrency", "1")
        data = json.loads(result.stdout)
        assert len(server.requests) == 3
    assert data["counts"]["obeyed"] == 3
    assert [r.headers.get("cookie") for r in server.requests] == [None, None, None]


def test_repeat_pretty_table(tmp_path):
    with StandIn("openai") as server:
        server.script(Step(body=OPENAI_TEXT_REPLY))
        result = run("send", str(scenario_file(tmp_path, "tool_choice: required\n")), "-p", "openai",
                     "--base-url", server.base_url(), "--repeat", "4", env=base_env())
    assert result.returncode == 4
    assert "4 samples" in result.stdout and "95% CI (Wilson)" in result.stdout
    assert "no_call" in result.stdout and "obeyed" in result.stdout and "75%" in result.stdout
    no_canary(result.stdout, result.stderr)


def test_save_writes_files_that_parse_reads_back(tmp_path):
    save = tmp_path / "out"
    path = scenario_file(tmp_path, "tool_choice: get_weather\n")
    with StandIn("openai") as server:
        result, data = send_json(server, path, "--save", str(save), "--repeat", "2")
    assert result.returncode == 0
    names = sorted(p.name for p in save.iterdir())
    assert names == ["sample-001.reply.json", "sample-001.request.json", "sample-001.response.json",
                     "sample-002.reply.json", "sample-002.request.json", "sample-002.response.json"]
    request = json.loads((save / "sample-001.request.json").read_text())
    assert request == data["request"] and request["headers"]["Authorization"] == "Bearer $OPENAI_API_KEY"
    assert json.loads((save / "sample-001.response.json").read_text()) == fixture("openai", "openai-chat-single-strict")
    saved_reply = json.loads((save / "sample-001.reply.json").read_text())
    assert saved_reply["verdict"]["category"] == "obeyed" and saved_reply["provider"] == "openai"
    parsed = run("parse", str(save / "sample-001.response.json"), "-p", "openai", "--scenario", str(path), "-f", "json")
    assert parsed.returncode == 0, parsed.stderr
    back = json.loads(parsed.stdout)
    assert back["reply"] == saved_reply["reply"] == data["results"][0]["reply"]
    assert back["verdict"] == saved_reply["verdict"]


def test_save_keeps_a_non_json_body_as_text(tmp_path):
    save = tmp_path / "out"
    with StandIn("openai", default=Step.html(502)) as server:
        result, _ = send_json(server, scenario_file(tmp_path), "--retries", "0", "--save", str(save))
    assert result.returncode == 1
    assert (save / "sample-001.response.txt").read_text().startswith("<html>")
    parsed = run("parse", str(save / "sample-001.response.txt"), "-p", "openai", "-f", "json")
    assert parsed.returncode == 1 and json.loads(parsed.stdout)["error"].startswith("openai: non-JSON response (HTML")


def test_raw_adds_the_response_body(tmp_path):
    with StandIn("openai") as server:
        _, data = send_json(server, scenario_file(tmp_path), "--raw")
        _, plain = send_json(server, scenario_file(tmp_path))
    assert data["raw"] == fixture("openai", "openai-chat-single-strict")
    assert "raw" not in plain


def test_pretty_output_shows_calls_verdict_ledger_and_tokens(tmp_path):
    with StandIn("openai") as server:
        result = run("send", str(scenario_file(tmp_path, "tool_choice: get_stock_price\n")), "-p", "openai",
                     "--base-url", server.base_url(), "--raw")
    assert result.returncode == 4
    out = result.stdout
    for text in ("tool calls", "get_weather", '"city": "San Francisco"', "disobeyed: wrong_tool",
                 "forces 'get_stock_price'", "tokens in 48 / out 19", "finish_reason tool_calls", "ledger",
                 "tool_choice.mapped", "raw response", "chatcmpl-ABfvzdvCI6RaIkiEFNjqGXCSYnlzf"):
        assert text in out, text
    no_canary(out, result.stderr)


def test_unenforceable_choice_is_flagged(tmp_path):
    path = scenario_file(tmp_path, "tool_choice: required\n")
    with StandIn("ollama") as server:
        result, data = send_json(server, path, provider="ollama")
    assert data["verdict"]["enforced"] is False
    assert any("could not enforce" in r for r in data["verdict"]["reasons"])


# ---- what sending loads, and when --------------------------------------------------------------

LOADED = """
import atexit, gc, sys
sys.argv = ["toolchoice"] + sys.argv[1:]
from toolchoice.cli.app import main


def loaded():  # at exit: main ends the process itself (app._exit_now), running the atexit handlers first
    unused = sorted(m for m in sys.modules if m.split(".")[0] in ("trio", "rich", "pygments", "click")
                    or m == "httpx._main")
    sys.stderr.write(f"UNUSED {unused} FROZEN {gc.get_freeze_count() > 0}\\n")


atexit.register(loaded)
main()
"""


@pytest.mark.parametrize("command", ["send", "compare"])
def test_sending_as_json_loads_no_terminal_ui_nor_trio_and_leaves_teardown_out(tmp_path, command):
    """httpx's command-line client (click, rich, pygments) and httpcore's trio backend are held back,
    rich is not needed for JSON, and once the output is written the objects are frozen for the exit."""
    path = str(scenario_file(tmp_path))
    args = ["send", path, "-p", "openai"] if command == "send" else ["compare", path, "--send", "--providers", "openai"]
    with StandIn("openai") as server:
        result = subprocess.run([sys.executable, "-c", LOADED, *args, "--base-url", server.base_url(), "-f", "json"],
                                capture_output=True, text=True, env=base_env(), timeout=120)
        assert len(server.requests) == 1
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)
    assert "UNUSED [] FROZEN True" in result.stderr


def test_the_http_stack_loads_without_trio_yet_trio_still_imports_afterwards():
    code = ("import sys\n"
            "from toolchoice.providers.core.runner import load_http_stack\n"
            "load_http_stack()\n"
            "import httpcore._synchronization as sync\n"
            "print('trio' in sys.modules, 'httpx._main' in sys.modules, sync.trio is None)\n"
            "import trio, httpx._main\n"
            "print(trio.__name__, httpx._main.__name__)\n")
    assert _lines_after_loading(code, "trio") == ["False False True", "trio httpx._main"]


def _lines_after_loading(code: str, held: str) -> list[str]:
    """What ``code`` prints in a fresh interpreter (skipped when ``held`` is not installed: nothing is held back)."""
    if importlib.util.find_spec(held) is None:
        pytest.skip(f"{held} is not installed: there is nothing to hold back")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_http_stack_loads_without_h2_which_still_imports_afterwards():
    """toolchoice never asks for HTTP/2: httpcore keeps its stand-in class, which says h2 is missing if used."""
    code = ("import sys\n"
            "from toolchoice.providers.core.runner import load_http_stack\n"
            "load_http_stack()\n"
            "import httpcore\n"
            "print('h2' in sys.modules)\n"
            "try:\n"
            "    httpcore.AsyncHTTP2Connection()\n"
            "except RuntimeError as exc:\n"
            "    print('h2' in str(exc))\n"
            "import h2.connection\n"
            "print(h2.connection.__name__)\n")
    assert _lines_after_loading(code, "h2") == ["False", "True", "h2.connection"]


@pytest.fixture
def optional_packages(tmp_path, monkeypatch):
    """tc_optional, imported guarded by tc_guarded and unguarded by tc_unguarded."""
    (tmp_path / "tc_optional.py").write_text("VALUE = 1\n")
    (tmp_path / "tc_guarded.py").write_text("try:\n    import tc_optional\nexcept ImportError:\n"
                                            "    tc_optional = None\n")
    (tmp_path / "tc_unguarded.py").write_text("import tc_optional\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("tc_optional", "tc_guarded", "tc_unguarded"):
        sys.modules.pop(name, None)


def test_import_without_holds_an_optional_module_back_only_while_importing(optional_packages):
    from toolchoice.providers.core.runner import import_without

    import_without(("tc_guarded",), ("tc_optional",))
    assert sys.modules["tc_guarded"].tc_optional is None
    assert "tc_optional" not in sys.modules
    import tc_optional  # noqa: F401 - works as ever afterwards

    assert sys.modules["tc_optional"].VALUE == 1


def test_import_without_redoes_an_import_that_needs_the_optional_module(optional_packages):
    from toolchoice.providers.core.runner import import_without

    import_without(("tc_guarded", "tc_unguarded"), ("tc_optional",))
    assert sys.modules["tc_unguarded"].tc_optional.VALUE == 1
    assert sys.modules["tc_guarded"].tc_optional is sys.modules["tc_optional"]


def test_import_without_keeps_an_optional_module_already_loaded(optional_packages):
    from toolchoice.providers.core.runner import import_without

    import tc_optional

    import_without(("tc_guarded",), ("tc_optional",))
    assert sys.modules["tc_guarded"].tc_optional is tc_optional
