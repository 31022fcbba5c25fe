"""Adversarial round 22 on the newer surfaces: send --stream and its saves, run and --trace-out, replay, MCP import,
mock and proxy, probe --save, parse, snapshots and compare. Each test is an attack; each failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import refused, run_cli


def _scenario(tmp_path: Path, headers: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\n"
                    f"providers:\n  openai:\n    model: gpt-4o\n    headers: {{{headers}}}\n", encoding="utf-8")
    return path


# ---- providers.<id>.headers: what httpx cannot send is bad input at its line, not an internal error at send -------

@pytest.mark.parametrize("value", ["é", "caf\u00e9 au lait", "x\u00a0y"])
def test_a_header_value_outside_ascii_is_refused_at_its_line(tmp_path: Path, value: str) -> None:
    """httpx encodes a str header value as ASCII: a Latin-1 value passed the scenario check (it allowed up to
    U+00FF) and send ended in an internal error (UnicodeEncodeError, exit 1)."""
    import httpx

    with pytest.raises(UnicodeEncodeError):  # the truth: the client the transport sends with cannot carry it
        httpx.Request("POST", "http://127.0.0.1:9/", headers={"X-A": value})
    path = _scenario(tmp_path, f'"X-A": "{value}"')
    for args in (["render", str(path), "-p", "openai"], ["send", str(path), "-p", "openai", "--dry-run"]):
        line = refused(run_cli(args, env={"PATH": "/usr/bin:/bin"}))
        assert f"{path}:9:" in line and "X-A" in line and "non-ASCII" in line


@pytest.mark.parametrize("name", ["Content-Length", "transfer-encoding"])
def test_a_framing_header_is_refused_at_its_line(tmp_path: Path, name: str) -> None:
    """Content-Length set by hand ended in httpx's LocalProtocolError as an internal error (exit 1) once the
    request was on its way; Transfer-Encoding other than chunked in a transport error."""
    import h11

    conn = h11.Connection(h11.CLIENT)  # the truth: the HTTP/1.1 writer httpx sends through refuses a wrong length
    conn.send(h11.Request(method="POST", target="/", headers=[("Host", "x"), ("Content-Length", "5")]))
    with pytest.raises(h11.LocalProtocolError):
        conn.send(h11.Data(data=b"123456"))
    path = _scenario(tmp_path, f'"{name}": "5"')
    line = refused(run_cli(["render", str(path), "-p", "openai"], env={"PATH": "/usr/bin:/bin"}))
    assert f"{path}:9:" in line and name in line


# ---- a reply's text on one line: controls str.split() takes for spaces are written out, not dropped ---------------

_SPLIT_BY_PYTHON = "\x1c\x1d\x1e\x1f\x85\u2028\u2029\x0b\x0c"  # str.split() splits there (str.isspace)


def _text_reply(text: str) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}


def test_run_s_final_answer_writes_out_controls_python_reads_as_spaces(tmp_path: Path) -> None:
    """run's final answer (and the errors line) went through " ".join(text.split()): U+001C-001F, NEL, U+2028/2029,
    VT and FF vanished from what the model said (the printer writes each out as \\u001c ...)."""
    from servers import Step, StandIn

    assert all(c.isspace() for c in _SPLIT_BY_PYTHON)  # the truth: Python's whitespace, split on by str.split()
    text = "sep" + "|".join(_SPLIT_BY_PYTHON) + "end"
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    with StandIn("openai", Step(body=_text_reply(text))) as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0"],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789", "COLUMNS": "200"})
    assert result.returncode == 0, result.stdout + result.stderr
    [line] = [x for x in result.stdout.splitlines() if x.startswith("final answer")]
    shown = "|".join(f"\\u{ord(c):04x}" for c in _SPLIT_BY_PYTHON)
    assert f"sep{shown}end" in line


def test_compare_send_s_text_cell_writes_out_controls_python_reads_as_spaces(tmp_path: Path) -> None:
    from servers import Step, StandIn

    text = "a" + "|".join(_SPLIT_BY_PYTHON[:4]) + "b"
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    with StandIn("openai", Step(body=_text_reply(text))) as server:
        result = run_cli(["compare", str(path), "-p", "openai", "--send", "--base-url", server.base_url(),
                          "--retries", "0", "-f", "markdown"],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789", "COLUMNS": "200"})
    assert "(text) a" in result.stdout, result.stdout + result.stderr
    assert "\\u001c\\|\\u001d\\|\\u001e\\|\\u001fb" in result.stdout.replace("\\\\", "\\"), result.stdout


# ---- a key some of whose characters the server \u-escaped, in a body that is no JSON document -------------------

_KEY = "sk-test-LEAKME1234567890abcdefXYZ"


def _escaped_every_third(key: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if i % 3 == 0 else c for i, c in enumerate(key))


def _decoded_everywhere(text: str) -> str:
    """What a reader of the output gets back: every \\uXXXX (behind any number of backslashes) as its character."""
    import re

    return re.sub(r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)


@pytest.mark.parametrize("form", ["pretty", "json", "jsonl", "markdown"])
def test_an_sse_body_quoting_the_key_half_escaped_is_redacted_in_raw_and_save(tmp_path: Path, form: str) -> None:
    """A server that answers a whole request with server-sent events (no JSON document to decode) quoting the key
    with some characters \\u-escaped: send --raw showed it and --save kept it (sample-001.response.txt); the
    redactor knew the key unescaped and escaped whole, not escaped in part."""
    import json

    from servers import Step, StandIn

    line = '{"choices": [{"index": 0, "delta": {"content": "your key: ' + _escaped_every_third(_KEY) + '"}}]}'
    assert _KEY in json.loads(line)["choices"][0]["delta"]["content"]  # the truth: what the bytes decode to
    body = f"data: {line}\n\ndata: [DONE]\n\n"
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    with StandIn("openai", Step(body=body, content_type="text/event-stream")) as server:
        result = run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--raw", "-f", form, "--save", str(tmp_path / "saved")],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": _KEY, "COLUMNS": "200"})
    assert "your key" in result.stdout, result.stdout + result.stderr
    written = [result.stdout, result.stderr] + [p.read_text(encoding="utf-8") for p in (tmp_path / "saved").iterdir()]
    for text in written:
        assert _KEY[-12:] not in _decoded_everywhere(text)


def test_the_proxy_saves_an_sse_answer_to_a_whole_request_without_the_half_escaped_key(tmp_path: Path) -> None:
    from servers import Step, StandIn
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server
    import httpx

    line = '{"choices": [{"index": 0, "delta": {"content": "your key: ' + _escaped_every_third(_KEY) + '"}}]}'
    with StandIn("openai", Step(body=f"data: {line}\n\ndata: [DONE]\n\n", content_type="text/event-stream")) as up:
        (tmp_path / "saved").mkdir()
        handler = ProxyHandler("openai", up.base_url(), tmp_path / "saved")
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            httpx.post(f"{proxy.base_url}/chat/completions", headers={"Authorization": f"Bearer {_KEY}"},
                       json={"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}, timeout=30)
            proxy.wait_for(1)
    files = list((tmp_path / "saved").iterdir())
    assert any(p.name.endswith(".response.json") for p in files)
    for p in files:
        assert _KEY[-12:] not in _decoded_everywhere(p.read_text(encoding="utf-8")), p.name


# ---- run --save: a transcript render, send and run read back, whatever the replies held -------------------------

def test_a_transcript_of_a_reply_holding_a_lone_surrogate_is_read_back(tmp_path: Path) -> None:
    """A reply's JSON "\\ud800" escape (half a character: json.loads reads it, as the SDKs do) went into the
    transcript's YAML as that escape, which the scenario reader refuses: the saved scenario.yaml, which docs/run.md
    says render, send and run take, was refused at its line."""
    import json

    from servers import Step, StandIn

    text = '{"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": 0, ' \
           '"message": {"role": "assistant", "content": "half \\ud800 here"}, "finish_reason": "stop"}]}'
    assert json.loads(text)["choices"][0]["message"]["content"] == "half \ud800 here"  # what a JSON reader gets
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789"}
    with StandIn("openai", Step(body=text)) as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--save", str(tmp_path / "saved")], env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    transcript = tmp_path / "saved" / "openai" / "loop-001" / "scenario.yaml"
    again = run_cli(["render", str(transcript), "-p", "openai", "-f", "json"], env=env)
    assert again.returncode == 0, again.stderr
    assert "half \ufffd here" in again.stdout and "lone surrogate" in transcript.read_text(encoding="utf-8")


# ---- send --dry-run -f curl: a header holding "!" pasted into an interactive bash -------------------------------

def test_a_curl_header_holding_a_bang_reads_back_as_written_in_bash_with_history_expansion(tmp_path: Path) -> None:
    """Headers are double-quoted (their $NAME expands), where an interactive bash expands history: "a!b!!c" gave
    'event not found' or another command's words. The truth is bash itself, history expansion on."""
    import shutil
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    path = _scenario(tmp_path, '"X-A": "a!b!!c !x"')
    result = run_cli(["send", str(path), "-p", "openai", "--dry-run", "-f", "curl"],
                     env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789"})
    assert result.returncode == 0, result.stderr
    [line] = [x for x in result.stdout.splitlines() if "X-A" in x]
    word = line.strip().removeprefix("-H ").removesuffix(" \\")
    script = tmp_path / "paste.sh"
    script.write_text(f"set -o history -H\necho first\nprintf '%s\\n' {word}\n", encoding="utf-8")
    shown = subprocess.run([bash, str(script)], capture_output=True, text=True, timeout=30)
    assert shown.stdout.splitlines()[-1] == "X-A: a!b!!c !x", shown.stdout + shown.stderr


# ---- send: --trace-out naming a file --save writes ----------------------------------------------------------------

def test_a_trace_out_over_a_file_the_save_writes_is_refused_before_sending(tmp_path: Path) -> None:
    """send --save DIR --trace-out DIR/sample-001.request.json: the trace, written last, replaced the saved request
    (the request the run sent was gone, and the folder held a trace under a request's name)."""
    from servers import StandIn

    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    saved = tmp_path / "saved"
    saved.mkdir()
    with StandIn("openai") as server:
        result = run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--save", str(saved), "--trace-out", str(saved / "sample-001.request.json")],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789"})
        assert server.requests == []
    line = refused(result)
    assert "--trace-out" in line and "sample-001.request.json" in line


# ---- markdown: a model's "@name" posted where GitHub renders it -------------------------------------------------

# html-pipeline's MentionFilter (github.com/gjtorikian/html-pipeline lib/html_pipeline/node_filter/mention_filter.rb,
# read 2026-11-28): in each text node outside pre, code, a, style and script, this pattern is a user @mention (the
# user is notified where the page is posted). cmark-gfm, GitHub's renderer, makes the text nodes.
_MENTION = r"(?:^|\W)@((?>[a-z0-9][a-z0-9-]*))(?!/)(?=\.+[ \t\W]|\.+$|[^0-9a-zA-Z_.]|$)"


def _mentions(markdown: str, written: str = _MENTION) -> list[str]:
    """What ``written`` (a mention's pattern) finds in the text nodes GitHub's filters read of ``markdown``."""
    import re
    from html.parser import HTMLParser

    import cmarkgfm
    from cmarkgfm.cmark import Options

    pattern = re.compile(written, re.IGNORECASE)

    class Nodes(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.open: list[str] = []
            self.found: list[str] = []

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag not in ("wbr", "br", "img"):
                self.open.append(tag)

        def handle_endtag(self, tag: str) -> None:
            if self.open and self.open[-1] == tag:
                self.open.pop()

        def handle_data(self, data: str) -> None:
            if not set(self.open) & {"pre", "code", "a", "style", "script"}:
                self.found += pattern.findall(data)

    nodes = Nodes()
    nodes.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE))
    return nodes.found


def test_the_mention_pattern_finds_a_mention_as_written() -> None:
    assert _mentions("ping @octocat now") == ["octocat"] and _mentions("foo@bar now") == []  # so the test can fail


@pytest.mark.parametrize("text", ["ping @octocat now", "foo@bar now", "x.@someone here", "@user"])
def test_markdown_text_makes_no_mention_the_text_did_not_make(text: str) -> None:
    """A bare "@octocat" in a model's answer was written as it is (a mention: the user notified where a CI summary or
    a PR comment holds the page), and "foo@bar now", no mention as written, became one ("foo<wbr>@bar": the text node
    after <wbr> starts with "@bar")."""
    from toolchoice.cli import markdown_text as md

    for written in (md.escaped(text), "| a |\n|---|\n| " + md.cell(text) + " |", "- " + md.line(text)):
        assert _mentions(written) == [], written


# ---- tools --mcp-url -H: a control character in a header value -------------------------------------------------

@pytest.mark.parametrize("value", ["a\x1b[31mb", "a\x07b", "a\x7fb"])
def test_an_mcp_header_holding_a_control_is_refused_before_connecting(value: str) -> None:
    """-H 'X-A: a<ESC>[31mb' was sent to the server (only CR, LF and NUL were refused): RFC 9110 section 5.5 allows
    no control but tab in a field value, and providers.<id>.headers refuses them at their line."""
    from servers import StandIn

    with StandIn("openai") as server:
        result = run_cli(["tools", "--mcp-url", f"{server.url}/mcp", "-H", f"X-A: {value}", "--timeout", "5"],
                         env={"PATH": "/usr/bin:/bin"})
        assert server.requests == []
    line = refused(result)
    assert "--header" in line and "X-A" in line


def test_run_s_trace_out_over_a_file_an_earlier_save_of_the_folder_holds_is_refused(tmp_path: Path) -> None:
    """run --save DIR --trace-out DIR/openai/loop-001/loop.json (the folder there from an earlier run): the trace
    replaced the loop's document, or the document the trace."""
    from servers import StandIn

    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    saved = tmp_path / "saved"
    (saved / "openai" / "loop-001").mkdir(parents=True)
    with StandIn("openai") as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--save", str(saved), "--trace-out", str(saved / "openai" / "loop-001" / "loop.json")],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789"})
        assert server.requests == []
    line = refused(result)
    assert "--trace-out" in line and "loop.json" in line


def test_run_s_calls_cell_writes_out_controls_python_reads_as_spaces(tmp_path: Path) -> None:
    """The calls cell's arguments went through the same " ".join(text.split()) as the final answer: a U+2028 or
    U+001C in a call's argument vanished from the step's line (the printer writes each out as \\u2028 ...)."""
    from servers import Step, StandIn

    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"q": "a\\u2028b\\u001cc"}'}}
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "tool_calls": [call]}}]}
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    with StandIn("openai", Step(body=body), Step(body=_text_reply("done"))) as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0"],
                         env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789", "COLUMNS": "200"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'f({"q": "a\\u2028b\\u001cc"})' in result.stdout, result.stdout
