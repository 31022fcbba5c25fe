"""Adversarial round 18 (trial18d) on session 17's surfaces: `trace FILE.har` (its listing's between-step findings,
a sample), the key shapes of key_looks.py, loop lint's suggested YAML. Each test failed before its fix; the commands
run in-process (tests/cli.py: the console script's own entry) where no real process is the check, and the truth is
outside the code under test (the key as the HAR holds it, a YAML reader reading the suggested edit back).

The HARs are written here as HAR 1.2 lays out an entry (tests/har_recorder.py's docstring; only the members trace
reads), with OpenAI Chat Completions bodies as the openai SDK sends them and answers as the API's
``ChatCompletion`` type holds them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli

# an AWS access key id and a secret access key of AWS's documented form (40 of base64's alphabet), not AWS's example
AWS_ID = "AKIAQWERTYUIOPASDFGH"
AWS_SECRET = "Zq8vN3xK7mP2rT5wY9bC4dF6gH1jL0sA8eR3tU7i"
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather.",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}]
QUESTION = {"role": "user", "content": "weather in Paris?"}


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_KEY", "_TOKEN"))}


def _body(messages: list[dict[str, Any]], choice: Any = "required") -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": messages, "tools": TOOLS, "tool_choice": choice}


def _answer(calls: list[tuple[str, str, str]] = (), text: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                                 for i, n, a in calls]
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def _entry(body: dict[str, Any], answer: dict[str, Any], key: str = "sk-test-" + "k" * 24) -> dict[str, Any]:
    text = json.dumps(answer)
    return {"startedDateTime": "2026-11-27T21:00:00.000Z", "time": 1,
            "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                        "httpVersion": "HTTP/1.1", "cookies": [], "queryString": [],
                        "headers": [{"name": "Authorization", "value": f"Bearer {key}"}],
                        "postData": {"mimeType": "application/json", "text": json.dumps(body)},
                        "headersSize": -1, "bodySize": -1},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": len(text), "mimeType": "application/json", "text": text},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


def _har(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": entries}}), encoding="utf-8")
    return path


def _pieces(text: str, secret: str, size: int = 12) -> list[str]:
    """The runs of ``size`` characters of ``secret`` that ``text`` shows (redaction.PIECE: a piece that long is
    redacted wherever it is quoted)."""
    return [secret[i:i + size] for i in range(len(secret) - size + 1) if secret[i:i + size] in text]


# ---- trace FILE.har: a key found by its look is redacted by its value wherever the output quotes it --------------


def _repeated_call_har(tmp_path: Path, pad: int) -> Path:
    # two steps of one loop, each reply making the same call: its arguments hold an AWS key pair after PAD characters
    arguments = json.dumps({"note": "x" * pad, "id": AWS_ID, "secret": AWS_SECRET})
    call = [("call_1", "get_weather", arguments)]
    history = [QUESTION, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}]
    return _har(tmp_path / "repeated.har", [_entry(_body([QUESTION]), _answer(call)),
                                             _entry(_body(history), _answer([("call_2", "get_weather", arguments)]))])


@pytest.mark.parametrize("pad", [100, 120])  # the finding's 200-character cut falls inside the secret
@pytest.mark.parametrize("form", ["yaml", "json"])
def test_the_repeated_call_finding_cut_inside_an_aws_secret_shows_none_of_it(tmp_path: Path, pad: int,
                                                                            form: str) -> None:
    # loop.repeated_call quotes the reply's call cut at 200 characters: the AWS secret beside its key id was found by
    # its look only whole, so the cut left 33 (pad 100) or 13 (pad 120) of its 40 characters in the listing
    done = run_cli(["trace", str(_repeated_call_har(tmp_path, pad)), "-f", form], env=_env())
    assert done.returncode == 0, done.stderr
    assert "loop.repeated_call" in done.stdout  # the finding is there, quoting the call
    assert _pieces(done.stdout + done.stderr, AWS_SECRET) == []


def test_an_aws_secret_found_beside_its_id_is_redacted_in_another_message_too(tmp_path: Path) -> None:
    # docs/keys.md: "once found, the key is searched for by value in the rest of the body too": the third message
    # holds the pair (redacted there), the second the secret alone, which trace printed as written
    messages = [{"role": "user", "content": f"my id is {AWS_ID}"}, {"role": "user", "content": f"and {AWS_SECRET}"},
                {"role": "user", "content": f"both: {AWS_ID} {AWS_SECRET}"}]
    path = _har(tmp_path / "pair.har", [_entry(_body(messages, "auto"), _answer(text="ok")),
                                         _entry(_body([QUESTION], "auto"), _answer(text="ok"))])
    for form in ("yaml", "json"):
        done = run_cli(["trace", str(path), "--sample", "1", "-f", form], env=_env())
        assert done.returncode == 0, done.stderr
        assert "my id is [redacted]" in done.stdout and "and [redacted]" in done.stdout, done.stdout
        assert _pieces(done.stdout + done.stderr, AWS_SECRET) == []


def test_a_listing_of_many_calls_each_with_its_own_key_builds_one_redactor_of_the_shown_calls(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a Bedrock session's SigV4 Authorization differs on every request: 3,000 calls took 17 s and 300 MB, 30,000 (a
    # 7.7 MB HAR, under the 8 MB file limit) 122 s and 1.7 GB: every listing row built a Redactor of every call's
    # credentials. The keys of the calls the listing shows (its first 200) are what it needs, indexed once.
    from toolchoice.providers.core import redaction, trace_har

    entries = [_entry(_body([QUESTION], "auto"), _answer(text="ok"), key=f"sk-test-{n:06d}" + "k" * 20)
               for n in range(trace_har.LISTED + 100)]
    path = _har(tmp_path / "many.har", entries)
    indexed: list[int] = []
    built = redaction.Redactor.__init__

    def counted(self: Any, secrets: Any, *args: Any, **kwargs: Any) -> None:
        indexed.append(len(secrets))
        built(self, secrets, *args, **kwargs)

    monkeypatch.setattr(redaction.Redactor, "__init__", counted)
    done = run_cli(["trace", str(path), "-f", "json"], env=_env())
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)["samples"]
    assert len(listed) == trace_har.LISTED + 100 and listed[0]["reply"].startswith("the recorded response")
    assert "sk-test-000000" not in done.stdout
    # each call's Authorization is two secrets (the header's value, the token after its scheme: body_secrets.secrets)
    assert sum(indexed) <= 2 * trace_har.LISTED + 50, (len(indexed), sum(indexed))
    # a sample past the listed ones still has its own key redacted
    last = len(entries)
    entries[-1]["request"]["postData"]["text"] = json.dumps(
        _body([{"role": "user", "content": f"key sk-test-{last - 1:06d}" + "k" * 20}], "auto"))
    _har(path, entries)
    done = run_cli(["trace", str(path), "--sample", str(last)], env=_env())
    assert done.returncode == 0, done.stderr
    assert f"sk-test-{last - 1:06d}" not in done.stdout and "[redacted]" in done.stdout, done.stdout


def test_a_saved_request_s_aws_secret_found_beside_its_id_is_redacted_in_another_message_too(tmp_path: Path) -> None:
    # the same for a request saved by hand or by another tool (trace FILE.request.json): the second message's secret
    # was printed as written while the third's was hidden
    messages = [{"role": "user", "content": f"and {AWS_SECRET}"}, {"role": "user", "content": f"{AWS_ID} {AWS_SECRET}"}]
    path = tmp_path / "sample-001.request.json"
    path.write_text(json.dumps({"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                                "body": _body(messages, "auto")}), encoding="utf-8")
    for form in ("yaml", "json"):
        done = run_cli(["trace", str(path), "-p", "openai", "-f", form], env=_env())
        assert done.returncode == 0, done.stderr
        assert "and [redacted]" in done.stdout, done.stdout
        assert _pieces(done.stdout + done.stderr, AWS_SECRET) == []


# ---- loop.no_results: the YAML it suggests reads back as the tool's name --------------------------------------------


@pytest.mark.parametrize("name", ["a\u2028b", "c\x85d", "e\x7ff", "g\u2029"])
def test_the_results_edit_for_a_tool_named_with_a_yaml_line_break_reads_back_as_its_name(tmp_path: Path,
                                                                                       name: str) -> None:
    # the edit wrote the name JSON-quoted with the character itself: YAML's reader takes NEL, LS and PS as line
    # breaks and refuses DEL, so `add loop: {results: {"a<LS>b": RESULT}}` read from the JSON output did not load
    import re

    import yaml

    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump({"tools": [{"name": name, "parameters": {"type": "object"}}],
                                        "tool_choice": "auto", "messages": [{"role": "user", "content": "hi"}],
                                        "providers": {"openai": {"model": "gpt-4o"}}}), encoding="utf-8")
    done = run_cli(["run", str(scenario), "-p", "openai", "--dry-run", "-f", "json"], env=_env())
    assert done.returncode == 3 and done.stderr == "", done.stderr  # 3: refused (OpenAI's tool names are fewer)
    (said,) = {m for m in re.findall(r'"message": ("(?:[^"\\]|\\.)*")', done.stdout) if "loop.results" in m}
    edit = re.search(r"add (loop: \{.*\}) to the scenario", json.loads(said)).group(1)
    assert yaml.safe_load(edit) == {"loop": {"results": {name: "RESULT"}}}


# ---- trace's comment lines quote the file's text as it is written, escapes written out ---------------------------


def test_a_notes_escape_sequence_is_written_out_not_taken_out(tmp_path: Path) -> None:
    # the notes above the scenario took ESC [ 31 m out of a tool name the recorded answer called ('getRED'), where the
    # scenario and --format json write it out: the comment named a tool the HAR does not hold
    name = "get\x1b[31mRED"
    path = _har(tmp_path / "escaped.har", [_entry(_body([QUESTION]), _answer([("call_1", name, "{}")]))])
    done = run_cli(["trace", str(path)], env=_env())
    assert done.returncode == 0, done.stderr
    (said,) = [line for line in done.stdout.splitlines() if line.startswith("# warning har.reply")]
    assert "called 'get\\u001b[31mRED'" in said, said  # JSON's and YAML's escape of ESC, as -f json's stderr has it
    assert "\x1b" not in done.stdout
    done = run_cli(["trace", str(path), "-f", "json"], env=_env())
    assert json.dumps(name)[1:-1] in done.stderr, done.stderr


def test_an_aws_secret_beside_its_key_id_in_extra_is_written_as_a_variable_as_the_id_is(tmp_path: Path) -> None:
    # a tool_choice of no neutral form is kept in providers.openai.extra: its access key id became $MY_API_KEY and the
    # secret in the member beside it was written as it is (the note above it, quoting the object as one text,
    # hid both); the scenario sends the same body once both variables are set
    import yaml

    choice = {"type": "function", "function": {"name": "get_weather"}, "credentials": {"id": AWS_ID, "s": AWS_SECRET}}
    path = _har(tmp_path / "extra.har", [_entry(_body([QUESTION], choice), _answer(text="ok"))])
    done = run_cli(["trace", str(path)], env=_env())
    assert done.returncode == 0, done.stderr
    assert _pieces(done.stdout, AWS_SECRET) == [] and AWS_ID not in done.stdout
    sent = yaml.safe_load(done.stdout)["providers"]["openai"]["extra"]["tool_choice"]
    assert sent["credentials"] == {"id": "$MY_API_KEY", "s": "$MY_API_KEY_2"}, sent
    assert "tool_choice.credentials.s as $MY_API_KEY_2" in done.stdout
