"""A key a server wrote twice in one JSON object is found one way wherever toolchoice reads a server's JSON: the
body `send` receives, the same body saved and handed to `parse FILE`, and the same object as a stream's event. The
truth outside the code: the SDKs' own reading (openai-python's ``response.json()`` and its stream's
``json.loads(sse.data)`` keep the last of two equal names, as Python's ``json.loads`` does), the keys the test's own
bodies write twice (two in one object, by construction), and what `send` says of the body served by a real local
server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from servers import StandIn, Step

from test_duplicate_keys_replies import ENV, SCENARIO, _values  # the scenario send judged the same keys against

from cli import refused_saying, run_cli, user_env

# a chat completion whose one object names two keys twice: the function's "name" (get_time first, get_weather
# last) and its "arguments" (Rome first, Paris last)
BODY = (b'{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",'
        b' "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,'
        b' "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time",'
        b' "arguments": "{\\"city\\": \\"Rome\\"}",\n "name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}}],'
        b' "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}')


def said(verdict: dict, code: str = "reply.duplicate_key") -> list[str]:
    return [f["message"] for f in verdict.get("findings", []) if f["code"] == code]


@pytest.fixture(scope="module")
def sent(tmp_path_factory) -> tuple[Path, dict]:
    """The scenario file and `send`'s verdict of BODY, served by a real local server."""
    folder = tmp_path_factory.mktemp("one-way")
    with StandIn("openai", default=Step(body=BODY)) as server:
        path = folder / "s.yaml"
        path.write_text(SCENARIO.replace("URL", server.base_url("openai")))
        done = run_cli(["send", str(path), "-p", "openai", "-f", "json"], env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    [verdict] = [v for v in _values(json.loads(done.stdout), "verdict") if isinstance(v, dict)]
    return path, verdict


# ---- parse FILE reads a saved reply as send reads it ----------------------------------------------------------------

def test_parse_judges_a_saved_reply_as_send_judged_the_same_body(sent, tmp_path: Path) -> None:
    """The body send judged with reply.duplicate_key was refused by `parse FILE` (file:line, exit 2): the same
    server's bytes, saved, are now read as send reads them and judged alike, the same findings."""
    scenario, verdict = sent
    assert json.loads(BODY)["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"  # the SDK's
    assert len(said(verdict)) == 2  # both keys, as send says them
    saved = tmp_path / "sample-001.response.json"
    saved.write_bytes(BODY)
    done = run_cli(["parse", str(saved), "-p", "openai", "--scenario", str(scenario), "-f", "json"], env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["get_weather"]
    assert document["reply"]["tool_calls"][0]["arguments"] == {"city": "Paris"}
    assert document["verdict"]["category"] == verdict["category"] == "obeyed"
    assert said(document["verdict"]) == said(verdict)
    assert document["verdict"]["reasons"] == verdict["reasons"]
    # the rule for what the user wrote stands: --scenario's JSON with a key twice is refused at its line
    own = tmp_path / "s.json"
    own.write_text('{"tools": [{"name": "get_weather"}],\n "tool_choice": "auto", "tool_choice": "required",'
                   ' "messages": [{"role": "user", "content": "hi"}]}')
    refused_saying(run_cli(["parse", str(saved), "-p", "openai", "--scenario", str(own)], env=user_env()),
                   "s.json:2:", "tool_choice")


def test_parse_without_a_scenario_says_each_key_on_stderr(tmp_path: Path) -> None:
    saved = tmp_path / "reply.json"
    saved.write_bytes(BODY)
    for args, stdin in (([str(saved)], None), (["-"], BODY.decode())):
        done = run_cli(["parse", *args, "-p", "openai"], env=user_env(), input=stdin)
        assert done.returncode == 0, done.stdout + done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 2 and all(line.startswith("toolchoice: warning: reply.duplicate_key: ") for line in lines)
        assert '"name" twice' in lines[0] and '"arguments" twice' in lines[1], lines
        assert "get_weather" in done.stdout and "get_time" not in done.stdout


# ---- a stream's event says every key it names twice, as a reply's body does ------------------------------------------

def _chunk(text: bytes) -> bytes:
    return b"data: " + text.replace(b"\n", b"") + b"\n\n"


def test_an_events_keys_named_twice_are_each_said_as_the_replys_are(sent, tmp_path: Path) -> None:
    """One event naming two keys twice in one object said only the first (stream_framing's own check stopped at
    the first key); the reply's body said both. Now one check (bounded.read_last): the same two keys either way."""
    _, verdict = sent
    event = (b'{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0,'
             b' "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",'
             b' "function": {"name": "get_time", "arguments": "{\\"city\\": \\"Rome\\"}", "name": "get_weather",'
             b' "arguments": "{\\"city\\": \\"Paris\\"}"}}]}, "finish_reason": null}]}')
    end = b'{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0,' \
          b' "delta": {}, "finish_reason": "tool_calls"}]}'
    stream = tmp_path / "sample-001.sse"
    stream.write_bytes(_chunk(event) + _chunk(end) + b"data: [DONE]\n\n")
    done = run_cli(["parse", str(stream), "-p", "openai", "--stream", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["get_weather"]  # json.loads(sse.data): the last
    keys = [m.split("names the key ")[1].split(" twice")[0] for m in said(document["stream"], "stream.duplicate_key")]
    replied = [m.split("names the key ")[1].split(" twice")[0] for m in said(verdict)]
    assert sorted(keys) == sorted(replied) == ['"arguments"', '"name"'], (keys, replied)
