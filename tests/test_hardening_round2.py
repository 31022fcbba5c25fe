"""Issue 16 (hardening, round two): each finding of the library, render and parse part as a test that
fails on the main branch it was filed against and passes now. Real sockets on 127.0.0.1, the CLI as a
subprocess (``python -m toolchoice.cli``), a canary key in the environment.

Findings 10, 14, 15 and the probe command's exit code / --save refusal belong to the send/compare/
probe runner and are tested with it.
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import json
import os
import resource
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core import retry_policy, transport
from toolchoice.providers.core.model import Request, ToolchoiceError
from toolchoice.providers.core.reply import read_reply

from servers import CLI, StandIn, Step, fixture, send_blocking
from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-proj-TCK9canary" + "Qz7xW2mN4pR8vB1cY6uT3eH5jK0dL9fG2sA7" * 3  # 126 characters, like a real project key
PIECE = 12  # no 12-character run of a key may be shown (issue 16, "Must hold")
WEATHER = ROOT / "configs" / "weather.yaml"


def pieces(key: str) -> set[str]:
    return {key[i:i + PIECE] for i in range(max(1, len(key) - PIECE + 1))}


def leaked(text: str, key: str = KEY) -> list[str]:
    return sorted(p for p in pieces(key) if p in text)


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items()
           if not k.endswith(("_API_KEY", "_TOKEN")) and "proxy" not in k.lower() and not k.startswith("TOOLCHOICE_")}
    out.update({"OPENAI_API_KEY": KEY, "NO_PROXY": "127.0.0.1,localhost", "NO_COLOR": "1", "TERM": "dumb"})
    out.update(extra)
    return out


def run(*args: str, cwd: Path | None = None, memory_mb: int | None = None, timeout: float = 60,
        process: bool = False, **extra: str) -> subprocess.CompletedProcess[str]:
    """`toolchoice ARGS` in-process (tests/cli.py); in a real process when the check needs one: a memory
    limit (``memory_mb``), or a crash that would take the test process down with it (``process``)."""
    if not memory_mb and not process:
        return run_cli(args, env=env(**extra), cwd=cwd)

    def limit() -> None:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 1024 * 1024,) * 2)

    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env(**extra), cwd=cwd,
                          timeout=timeout, preexec_fn=limit)


def openai_request(url: str, key_env: tuple[str, ...] = ("OPENAI_API_KEY",)) -> Request:
    return Request("POST", url + "/chat/completions", {"Authorization": "Bearer $OPENAI_API_KEY"},
                   {"model": "m", "messages": [{"role": "user", "content": "hi"}]}, key_env=key_env)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


SCENARIO = """tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: "Weather in Paris?"}
"""


# ---- 1. pretty output is redacted before layout; nothing prints a prefix -----------------------


def test_parse_pretty_never_shows_a_wrapped_key(tmp_path):
    body = write(tmp_path, "401.json", json.dumps({"error": {
        "message": f"Incorrect API key provided: {KEY}. You can find your API key at https://platform.openai.com.",
        "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}))
    for columns in ("40", "63", "80"):
        result = run("parse", str(body), "-p", "openai", COLUMNS=columns)
        assert result.returncode == 1 and "Incorrect API key provided" in " ".join(result.stdout.split())
        assert leaked(result.stdout + result.stderr) == [], columns
        assert "$OPENAI_API_KEY" in result.stdout


def test_parse_json_of_a_dotenv_file_prints_no_prefix_of_the_key(tmp_path):
    dotenv = write(tmp_path, ".env", f"OPENAI_API_KEY={KEY}\n")
    for fmt in ("json", "pretty"):
        result = run("parse", str(dotenv), "-p", "openai", "-f", fmt, COLUMNS="70")
        assert leaked(result.stdout + result.stderr) == [], fmt
    json.loads(run("parse", str(dotenv), "-p", "openai", "-f", "json").stdout)  # still a JSON document


def test_tool_arguments_echoing_the_key_double_escaped_are_redacted(tmp_path):
    reply = fixture("openai", "openai-chat-single-strict")
    reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = json.dumps(
        {"city": json.dumps({"note": KEY})})
    body = write(tmp_path, "reply.json", json.dumps(reply))
    scenario = write(tmp_path, "s.yaml", SCENARIO)
    for fmt in ("json", "pretty"):
        result = run("parse", str(body), "-p", "openai", "--scenario", str(scenario), "-f", fmt, COLUMNS="50")
        assert result.returncode == 0, result.stderr
        assert leaked(result.stdout + result.stderr) == [], fmt


def test_render_redacts_a_key_the_shell_expanded_into_the_base_url():
    for fmt in ("json", "curl", "pretty"):
        result = run("render", str(WEATHER), "-p", "openai", "--base-url", f"http://127.0.0.1:9/{KEY}/v1",
                     "-f", fmt, COLUMNS="60")
        assert result.returncode == 0, result.stderr
        assert leaked(result.stdout + result.stderr) == [], fmt


# ---- 2. error lines are redacted -------------------------------------------------------------


def test_error_lines_never_quote_a_key(tmp_path):
    dotenv = write(tmp_path, ".env", f"OPENAI_API_KEY={KEY}\n")
    in_settings = write(tmp_path, "s.yaml", SCENARIO + f"providers:\n  openai: {{max_tokens: {KEY}}}\n")
    for args in (("render", str(dotenv)), ("render", str(WEATHER), "--tool-choice", KEY),
                 ("render", str(WEATHER), "--provider", KEY), ("render", str(in_settings)),
                 ("parse", str(dotenv), "-p", KEY)):
        result = run(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.startswith("toolchoice: error: ") and leaked(result.stderr) == [], args


# ---- 3. a key the server \u-escaped is redacted in what is saved ------------------------------


def test_a_fully_u_escaped_echo_is_redacted_from_the_saved_body():
    escaped = "".join(f"\\u{ord(ch):04x}" for ch in KEY)
    mixed = "".join(f"\\u{ord(ch):04X}" if i % 3 else ch for i, ch in enumerate(KEY))  # some escaped, some not
    for echo in (escaped, mixed):
        raw = '{"error": {"message": "bad key ' + echo + '", "type": "invalid_request_error"}}'
        with StandIn("openai", Step(status=401, body=raw)) as server:
            response = send_blocking(openai_request(server.base_url()), provider="openai",
                                      environ={"OPENAI_API_KEY": KEY}, policy=transport.RetryPolicy(retries=0))
        saved = response.shown_text()
        assert leaked(saved) == [] and leaked(json.dumps(json.loads(saved), ensure_ascii=False)) == []
        assert json.loads(saved)["error"]["message"] == "bad key $OPENAI_API_KEY"
    assert transport.redact(escaped, {KEY: "$OPENAI_API_KEY"}) == "$OPENAI_API_KEY"


# ---- 4. a scenario reads only the variables the user allowed ---------------------------------

STEALING = SCENARIO + """providers:
  openai:
    base_url: "URL"
    headers: {X-Trace: "$GITHUB_TOKEN"}
"""
TOKEN = "ghp_TCK9canaryGitHubToken0123456789abcdef"


def test_a_scenario_cannot_send_an_unallowed_variable(tmp_path):
    with StandIn("openai") as server:
        scenario = write(tmp_path, "steal.yaml", STEALING.replace("URL", server.base_url()))
        rendered = run("render", str(scenario), "-f", "json", GITHUB_TOKEN=TOKEN)
        sent = run("send", str(scenario), "-p", "openai", "-f", "json", GITHUB_TOKEN=TOKEN)
        assert server.requests == [], "the token reached the server"
    assert rendered.returncode == 3 and sent.returncode == 3, (rendered.stderr, sent.stderr)
    entry = next(e for e in json.loads(rendered.stdout)["ledger"] if e["code"] == "env.not_allowed")
    assert entry["severity"] == "error" and "$GITHUB_TOKEN" in entry["message"] and "--allow-env" in entry["message"]
    assert TOKEN not in rendered.stdout + sent.stdout


def test_an_allowed_variable_is_a_warning_naming_header_and_host_and_strict_refuses_it(tmp_path):
    scenario = write(tmp_path, "s.yaml", STEALING.replace("URL", "https://collector.example/v1"))
    allowed = run("render", str(scenario), "-f", "json", "--allow-env", "GITHUB_TOKEN", GITHUB_TOKEN=TOKEN)
    assert allowed.returncode == 0, allowed.stderr
    ledger = json.loads(allowed.stdout)["ledger"]
    warning = next(e for e in ledger if e["code"] == "env.allowed")
    assert warning["severity"] == "warning" and "X-Trace" in warning["message"]
    assert "collector.example" in warning["message"]
    key_goes = next(e for e in ledger if e["code"] == "env.key_destination")  # the file chose where the key goes
    assert key_goes["severity"] == "warning" and "$OPENAI_API_KEY" in key_goes["message"]
    setting = run("render", str(scenario), "-f", "json", GITHUB_TOKEN=TOKEN, TOOLCHOICE_ALLOW_ENV="GITHUB_TOKEN")
    assert setting.returncode == 0 and json.loads(setting.stdout)["request"] is not None
    strict = run("render", str(scenario), "-f", "json", "--allow-env", "GITHUB_TOKEN", "--strict")
    assert strict.returncode == 3 and json.loads(strict.stdout)["request"] is None


def test_api_key_env_naming_another_variable_needs_allowing(tmp_path):
    scenario = write(tmp_path, "s.yaml", SCENARIO + "providers:\n  openai:\n    api_key_env: SSH_PRIVATE_KEY_PASSPHRASE\n")
    result = run("render", str(scenario), "-f", "json")
    assert result.returncode == 3
    assert any(e["code"] == "env.not_allowed" and "api_key_env" in e["message"]
               for e in json.loads(result.stdout)["ledger"])


# ---- 5. parsing reads the real bytes; a short key changes nothing ----------------------------


@pytest.mark.parametrize("short_key", ["a", "tool", "e", "null"])
def test_a_short_key_does_not_change_the_reply_or_the_json(tmp_path, short_key):
    recorded = fixture("openai", "openai-chat-single-strict")
    scenario = write(tmp_path, "s.yaml", SCENARIO)
    with StandIn("openai", Step.reply("openai")) as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai",
                                  environ={"OPENAI_API_KEY": short_key})
        assert response.body == recorded  # exactly as received
        sent = run("send", str(scenario), "-p", "openai", "--base-url", server.base_url(), "-f", "json",
                   OPENAI_API_KEY=short_key)
    reply = read_reply("openai", response.status, response.body, response.text)
    assert [c.name for c in reply.tool_calls] == ["get_weather"]
    data = json.loads(sent.stdout)  # valid JSON
    assert sent.returncode == 0 and data["verdict"]["category"] == "obeyed", sent.stdout[-500:]


# ---- 6. user info and query strings in a base URL ------------------------------------------


def test_base_url_with_user_info_or_a_query_is_refused_before_anything_is_sent():
    with StandIn("openai") as server:
        host = server.url.removeprefix("http://")
        for url in (f"http://u:{KEY}@{host}/v1", f"http://{host}/v1?key={KEY}"):
            for command in ("render", "send"):
                args = [command, str(WEATHER), "-p", "openai", "--base-url", url, "-f", "json"]
                result = run(*args)
                assert result.returncode == 2, (url, command, result.stdout[-300:])
                assert leaked(result.stdout + result.stderr) == [] and "base-url" in result.stderr
        assert server.requests == []
    with pytest.raises(ToolchoiceError, match="user name or password"):
        transport.prepare(openai_request(f"http://u:{KEY}@127.0.0.1:9/v1"), "openai", {"OPENAI_API_KEY": KEY})


# ---- 7. response size cap ------------------------------------------------------------------


class RawServer:
    """A server on 127.0.0.1 that writes ``head`` then calls ``body(write)`` on each connection."""

    def __init__(self, head: bytes, body: Any) -> None:
        self.head, self.body = head, body
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.recv(65536)
                    conn.sendall(self.head)
                    self.body(conn.sendall)
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


@functools.cache  # the same bytes for both clients: compressing 64 MiB at level 9 costs ~0.2 s of CPU a time
def gzip_bomb(decoded_mb: int) -> bytes:
    return gzip.compress(b"\0" * (decoded_mb * 1024 * 1024), compresslevel=9)


@pytest.mark.parametrize("async_", [False, True])
def test_a_gzip_bomb_stops_at_the_size_cap(async_):
    bomb = gzip_bomb(64)  # 64 MiB of NUL bytes in ~64 KB
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
            b"Content-Length: %d\r\n\r\n" % len(bomb))
    server = RawServer(head, lambda send: send(bomb))
    limits = transport.SendLimits(max_body_bytes=4 * 1024 * 1024)
    try:
        started = time.monotonic()
        if async_:
            import asyncio

            response = asyncio.run(transport.send_async(openai_request(server.url), provider="openai",
                                                        environ={"OPENAI_API_KEY": KEY}, limits=limits))
        else:
            response = send_blocking(openai_request(server.url), provider="openai",
                                      environ={"OPENAI_API_KEY": KEY}, limits=limits)
    finally:
        server.close()
    assert response.status is None and "larger than 4 MiB" in response.transport_error
    assert response.text == "" and len(response.attempts) == 1 and time.monotonic() - started < 20


def test_an_endless_chunked_body_stops_at_the_default_cap():
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)

    def endless(send: Any) -> None:
        while True:
            send(chunk)

    server = RawServer(head, endless)
    try:
        response = send_blocking(openai_request(server.url), provider="openai", environ={"OPENAI_API_KEY": KEY},
                                  timeouts=transport.Timeouts(connect=5, read=60))
    finally:
        server.close()
    assert response.status is None and "larger than 32 MiB" in response.transport_error
    assert transport.DEFAULT_MAX_BODY_BYTES == 32 * 1024 * 1024


# ---- 8, 9. scenario size and depth ---------------------------------------------------------


def test_dev_zero_as_the_scenario_is_refused_within_bounded_memory():
    result = run("render", "/dev/zero", memory_mb=600, timeout=30)
    assert result.returncode == 2 and "larger than 8 MB" in result.stderr, result.stderr[-300:]


def test_a_file_just_over_the_cap_is_refused_without_blaming_aliases(tmp_path):
    big = tmp_path / "big.yaml"
    with big.open("w") as handle:
        handle.write(SCENARIO + "description: |\n")
        line = "  " + "x" * 1000 + "\n"
        for _ in range(8 * 1024 * 1024 // 1000 + 50):
            handle.write(line)
    started = time.monotonic()
    result = run("render", str(big), memory_mb=1500)
    assert result.returncode == 2 and "larger than 8 MB" in result.stderr and "alias" not in result.stderr
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("doc", ["tools: " + "[" * 25000 + "]" * 25000 + "\n",
                                 '{"tools": ' + "[" * 25000 + "]" * 25000 + "}",
                                 "tools: " + "{a: " * 25000 + "1" + "}" * 25000 + "\n"])
def test_a_document_nested_25000_deep_is_refused_not_a_segfault(tmp_path, doc):
    result = run("render", str(write(tmp_path, "deep.yaml", doc)), process=True)  # a segfault ends a process
    assert result.returncode == 2 and "nest" in result.stderr, (result.returncode, result.stderr[-300:])


# ---- 11. Retry-After zero or past backs off; retries are bounded alike -----------------------


def test_retry_after_zero_or_past_backs_off_like_the_sdks():
    """openai-python and anthropic-sdk-python ``_calculate_retry_timeout``: the server's wait is used
    only when ``0 < retry_after <= 60``; otherwise exponential backoff from 0.5 s."""
    policy = transport.RetryPolicy(retries=3)
    past = email.utils.formatdate(time.time() - 3600, usegmt=True)
    for headers in ({"retry-after": "0"}, {"retry-after-ms": "0"}, {"retry-after": past}):
        wait, source = retry_policy.next_wait(0, 429, headers, 0.0, policy, rng=lambda: 0.0)
        assert (wait, source) == (0.5, "backoff"), headers
    assert retry_policy.next_wait(0, 429, {"retry-after": "2"}, 0.0, policy) == (2.0, "retry-after")


def test_retry_after_zero_really_waits_between_attempts():
    """The suite's one back-off slept for real (the other retry tests record the waits): the server sees
    the retry no sooner than the backoff. How the waits go on (doubling) is then checked recorded."""
    answer = Step.error("openai", 429, retry_after="0")
    with StandIn("openai", default=answer) as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai",
                                  environ={"OPENAI_API_KEY": KEY}, policy=transport.RetryPolicy(retries=1))
        arrivals = [r.at for r in server.requests]
    assert len(arrivals) == 2 and response.status == 429
    assert response.attempts[0].wait_source == "backoff" and 0.375 <= response.attempts[0].wait <= 0.5
    assert arrivals[1] - arrivals[0] >= 0.37  # 0.5 less up to 25%, waited for real
    recorded: list[float] = []
    with StandIn("openai", default=answer) as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai", sleep=recorded.append,
                                  environ={"OPENAI_API_KEY": KEY}, policy=transport.RetryPolicy(retries=2))
        assert len(server.requests) == 3 and response.status == 429
    assert 0.375 <= recorded[0] <= 0.5 and 0.75 <= recorded[1] <= 1.0 and len(recorded) == 2  # 0.5 and 1.0 less 25%
    assert [a.wait_source for a in response.attempts] == ["backoff", "backoff", None]


def test_retries_are_bounded_alike():
    assert retry_policy.MAX_RETRIES == 10
    transport.RetryPolicy(retries=10)
    for bad in (11, 1_000_000, -1):
        with pytest.raises(ToolchoiceError, match="from 0 to 10"):
            transport.RetryPolicy(retries=bad)
    result = run("send", str(WEATHER), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--retries", "1000000",
                 timeout=30)
    # the command line refuses it first, naming the same bounds (cli/options.py RETRIES_MAX is MAX_RETRIES)
    assert result.returncode == 2 and "0<=x<=10" in result.stderr and result.stderr.count("\n") == 1


# ---- 12. timeouts must be finite; transport failures are not rejections ----------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_timeout_nan_or_inf_is_refused(value):
    from toolchoice.cli.exits import in_command_words

    for bad in (float(value),):
        with pytest.raises(ToolchoiceError, match="^timeout ") as caught:  # a Python caller's words (trial 14k)
            transport.Timeouts.from_total(bad)
        assert in_command_words(caught.value).startswith("--timeout ")  # the command line's
    result = run("send", str(WEATHER), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--timeout", value,
                 "--retries", "0", timeout=30)
    assert result.returncode == 2, result.stderr


def test_a_closed_port_is_inconclusive_never_rejected():
    from toolchoice.providers.core.probe import classify, conclusive

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    response = send_blocking(openai_request(f"http://127.0.0.1:{port}/v1"), provider="openai",
                              environ={"OPENAI_API_KEY": KEY}, policy=transport.RetryPolicy(retries=0))
    assert response.status is None
    from toolchoice.providers.core.model import ProviderError, Reply
    from toolchoice.providers.core.scenario import load_scenario_text
    from toolchoice.providers.core.verdict import verdict

    reply = Reply(error=ProviderError(None, "transport_error", response.transport_error))
    verdicts = [verdict(load_scenario_text(SCENARIO), reply)] * 2
    # issue 29: nothing arrived is its own answer ("did not arrive", not "mixed"); never "rejected" either way
    assert classify(verdicts) == "did not arrive" and classify(verdicts, [None, None]) == "did not arrive"
    assert not conclusive([{"result": "inconclusive"}, {"result": "honored"}])


# ---- 13. parse is offline: no $ref is fetched or read --------------------------------------


def test_parse_never_resolves_remote_or_file_refs(tmp_path):
    secret_file = write(tmp_path, "local.json", json.dumps({"type": "string", "enum": ["TCK9-local-file-content"]}))
    reply = fixture("openai", "openai-chat-single-strict")
    body = write(tmp_path, "reply.json", json.dumps(reply))
    with StandIn("openai", default=Step(body={"type": "string", "enum": ["TCK9-remote-content"]})) as server:
        for ref in (f"{server.url}/schema.json", secret_file.as_uri()):
            scenario = write(tmp_path, "s.yaml", SCENARIO.replace(
                "properties: {city: {type: string}}", f'properties: {{city: {{$ref: "{ref}"}}}}'))
            result = run("parse", str(body), "-p", "openai", "--scenario", str(scenario), "-f", "json")
            assert result.returncode in (0, 4), result.stderr
            assert "TCK9" not in result.stdout and "cannot be resolved" in result.stdout
        assert server.requests == [], "parse fetched a $ref"


# ---- 16. unclear errors ----------------------------------------------------------------------


@pytest.mark.parametrize("name, text", [
    ("surrogate.yaml", SCENARIO.replace("Weather in Paris?", "a\\ud800b")),
    ("surrogate.json", json.dumps({"tools": [], "messages": [{"role": "user", "content": "x"}]}).replace('"x"', '"\\ud800"')),
])
def test_a_lone_surrogate_is_bad_input(tmp_path, name, text):
    result = run("render", str(write(tmp_path, name, text)), "-p", "openai", "-f", "json")
    assert result.returncode == 2 and "surrogate" in result.stderr and f"{name}:" in result.stderr


def test_deep_json_in_parse_and_capabilities_is_bad_input(tmp_path):
    deep = write(tmp_path, "deep.json", "[" * 100000 + "]" * 100000)
    parsed = run("parse", str(deep), "-p", "openai")
    caps = run("render", str(WEATHER), "-p", "openai", "--capabilities", str(deep))
    assert parsed.returncode == 2 and caps.returncode == 2, (parsed.stderr, caps.stderr)
    assert "nests too deeply" in parsed.stderr and "nests too deeply" in caps.stderr


def test_a_ref_cycle_in_parse_is_reported_not_an_internal_error(tmp_path):
    scenario = write(tmp_path, "s.yaml", textwrap.dedent("""\
        tools:
          - name: get_weather
            parameters:
              type: object
              properties: {city: {$ref: "#/$defs/a"}}
              $defs: {a: {$ref: "#/$defs/b"}, b: {$ref: "#/$defs/a"}}
        tool_choice: required
        messages: [{role: user, content: hi}]
        """))
    body = write(tmp_path, "reply.json", json.dumps(fixture("openai", "openai-chat-single-strict")))
    result = run("parse", str(body), "-p", "openai", "--scenario", str(scenario), "-f", "json")
    assert result.returncode != 70 and "internal error" not in result.stderr, result.stderr


@pytest.mark.parametrize("key, words", [("sk-ключ-0123456789", "non-ASCII character (character 4 of 18)"),
                                        ("sk-canary-0123456789 ", "space at its end")])
def test_an_unsendable_key_is_named_without_showing_it(key, words):
    with pytest.raises(ToolchoiceError) as caught:
        transport.prepare(openai_request("http://127.0.0.1:9/v1"), "openai", {"OPENAI_API_KEY": key})
    assert words in caught.value.one_line() and key.strip() not in caught.value.one_line()
    result = run("send", str(WEATHER), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", OPENAI_API_KEY=key)
    assert result.returncode == 2 and words in result.stderr and "Illegal" not in result.stderr


def test_a_header_with_a_line_break_is_bad_input_at_render(tmp_path):
    scenario = write(tmp_path, "s.yaml", SCENARIO + 'providers:\n  openai:\n    headers: {X-A: "a\\r\\nX-B: b"}\n')
    result = run("render", str(scenario))
    assert result.returncode == 2 and "s.yaml:9:" in result.stderr and "line break" in result.stderr


@pytest.mark.parametrize("status", [302, 307])
def test_a_redirect_names_its_target(status):
    target = "https://elsewhere.example/v1/chat/completions"
    with StandIn("openai", Step(status=status, body="", headers={"Location": target})) as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ={"OPENAI_API_KEY": KEY})
        assert len(server.requests) == 1  # not followed
    reply = read_reply("openai", response.status, response.body, response.text, headers=response.headers)
    assert reply.error is not None and target in reply.error.message and "not followed" in reply.error.message


def test_a_retry_after_too_long_says_why_it_stopped():
    with StandIn("openai", Step.error("openai", 429, retry_after="999999")) as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ={"OPENAI_API_KEY": KEY})
        assert len(server.requests) == 1
    assert response.stopped is not None and "999999" in response.stopped and "60 s" in response.stopped


def test_running_out_of_file_descriptors_is_named(tmp_path):
    """A real EMFILE: the child fills its descriptor table, then sends to a live server."""
    with StandIn("openai") as server:
        script = textwrap.dedent(f"""
            import asyncio, os, resource
            from toolchoice.providers.core import transport
            from toolchoice.providers.core.model import Request
            import httpx, httpcore, anyio  # imported, the loop, client and request made, before the table is full
            loop = asyncio.new_event_loop()
            warm, client = httpx.AsyncClient(timeout=5), httpx.AsyncClient(timeout=5)
            request = Request("POST", "{server.base_url()}/chat/completions",
                              {{"Authorization": "Bearer $OPENAI_API_KEY"}}, {{"model": "m"}},
                              key_env=("OPENAI_API_KEY",))
            prepared = transport.prepare(request, "openai", {{"OPENAI_API_KEY": "k" * 20}})
            # one request first, on another client, so that everything a send imports lazily is imported
            loop.run_until_complete(transport.send_async(request, provider="openai", prepared=prepared, client=warm))
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
            held = []
            try:
                while True:
                    held.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                pass
            response = loop.run_until_complete(transport.send_async(
                request, provider="openai", prepared=prepared, policy=transport.RetryPolicy(retries=0), client=client))
            print(response.transport_error)
            """)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                              env=env())
    assert "file descriptors" in done.stdout and "connection failed" not in done.stdout, done.stdout + done.stderr


def test_terminal_escapes_in_a_server_message_are_removed():
    body = {"error": {"message": "bad \x1b[2J\x1b[31mred\x1b[0m \x1b]0;pwned\x07title \x9b31m", "type": "x"}}
    reply = read_reply("openai", 400, body)
    assert "\x1b" not in reply.error.message and "\x9b" not in reply.error.message and "\x07" not in reply.error.message
    assert "bad" in reply.error.message and "red" in reply.error.message


def test_a_utf32_file_is_named_utf32(tmp_path):
    path = tmp_path / "u32.yaml"
    path.write_bytes(SCENARIO.encode("utf-32"))
    result = run("render", str(path))
    assert result.returncode == 2 and "UTF-32" in result.stderr


@pytest.mark.parametrize("fmt", ["pretty"])  # json and curl already ended with 0
def test_a_closed_pipe_is_not_an_error(fmt):
    process = subprocess.Popen([*CLI, "render", str(WEATHER), "-p", "all", "-f", fmt], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env(COLUMNS="80"))
    assert process.stdout is not None and process.stdout.readline()
    process.stdout.close()  # `| head -1`
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0 and err == b"", (process.returncode, err[-300:])
