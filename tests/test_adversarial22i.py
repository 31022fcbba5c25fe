"""Adversarial round 22i on what landed in session 22 (MCP duplicate keys, HAR replay's read_prefix, command_shown's
known secrets, bounded's did_you_mean/cut/read_last, parse reading saved replies, help examples, trace's unknown
family, DeepSeek's thinking warnings, header checks). Each test is an attack; each failed before its fix."""

from __future__ import annotations

import difflib
import random

import pytest


# ---- did-you-mean: one long id (or tool name) against another was compared in full, however long ----------------

def _alike(n: int, seed: int) -> str:
    """``n`` characters of 300 CJK ideographs: each under 1% of the text, so difflib's autojunk leaves them all in."""
    rng = random.Random(seed)
    return "".join(chr(0x4E00 + rng.randrange(300)) for _ in range(n))


def _ratios(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    ratio = difflib.SequenceMatcher.ratio

    def counted(self: difflib.SequenceMatcher) -> float:
        calls[0] += 1
        return ratio(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    return calls


def test_a_hint_never_compares_one_huge_pair_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tool result's tool_call_id of 100,000 characters against the one call's id (scenario_messages), a
    tool_choice naming a tool against the one declared (choice.tool_did_you_mean): `did_you_mean` kept "one at least"
    past its work bound and tool_did_you_mean asked difflib unbounded; 11 s of CPU for one error's hint."""
    from toolchoice.providers.core import bounded, choice

    word, name = _alike(100_000, 1), _alike(100_000, 2)
    matcher = difflib.SequenceMatcher(None, name, word)  # the truth: difflib would compare this pair in full
    assert matcher.real_quick_ratio() >= 0.8 and matcher.quick_ratio() >= 0.8
    calls = _ratios(monkeypatch)
    assert bounded.did_you_mean(word, [name]) is None
    assert choice.tool_did_you_mean(word, [name]) is None
    assert calls[0] == 0


# ---- a command line's known secret inside another word -----------------------------------------------------------

@pytest.mark.parametrize("word", ["--url=https://api.example.com/v1?t={}", "x={}", "-p{}", "--header=X-Trace:{}"])
def test_a_known_secret_inside_another_word_is_hidden_from_the_command_shown(word: str) -> None:
    """`$MY_SERVICE_TOKEN` (a secret-named variable: a value shown_command knows, whatever it starts with) written
    into a word whose own name says nothing (`?t=`, `x=`, `-p`, a header X-Trace): the error line of `tools --mcp`
    showed it, as every listing's notes did; only a word that was the secret whole was hidden."""
    from cli import refused, run_cli

    secret = "q7Zr2mWx9LpT4vKs"  # no issuer's shape: known only as the variable's value
    folder = "/srv/mcp-servers-22i"  # $PWD: "pwd" says password in MYSQL_PWD, not in the shell's own variable
    command = f"no-such-mcp-server-22i {folder}/config.json " + word.format(secret)
    line = refused(run_cli(["tools", "--mcp", command], env={"PATH": "/usr/bin:/bin", "MY_SERVICE_TOKEN": secret,
                                                             "PWD": folder}))
    assert "no such command" in line and secret not in line and "[redacted]" in line
    assert f"{folder}/config.json" in line


# ---- an MCP server's headers: the framing ones are the HTTP client's, as a provider's are ----------------------

@pytest.mark.parametrize("header", ["Content-Length: 5", "transfer-encoding: gzip"])
def test_a_framing_header_for_an_mcp_server_is_refused_before_connecting(tmp_path, header: str) -> None:
    """`tools --mcp-url URL -H 'Content-Length: 5'` (and a scenario's `from: {mcp_url, headers}`) went on to the
    server and ended in httpx's own words once connected ("LocalProtocolError: Too much data for declared
    Content-Length"), where providers.<id>.headers refuses the same header at its line. No server is started: the
    URL's port is closed, so a refusal that names the header came before connecting."""
    import h11

    from cli import refused, run_cli, user_env

    conn = h11.Connection(h11.CLIENT)  # the truth: the HTTP/1.1 writer the SDK's httpx sends through
    conn.send(h11.Request(method="POST", target="/", headers=[("Host", "x"), ("Content-Length", "5")]))
    with pytest.raises(h11.LocalProtocolError):
        conn.send(h11.Data(data=b'{"jsonrpc": "2.0"}'))
    url = "http://127.0.0.1:9/mcp"
    name = header.split(":")[0]
    line = refused(run_cli(["tools", "--mcp-url", url, "-H", header, "--timeout", "5"], env=user_env()))
    assert name in line and "not set by hand" in line, line
    scenario = tmp_path / "s.yaml"
    value = header.split(": ")[1]
    scenario.write_text(f"tools:\n  - from:\n      mcp_url: {url}\n      headers: {{{name}: '{value}'}}\n"
                        "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    line = refused(run_cli(["render", str(scenario), "-p", "openai", "--live-mcp"], env=user_env()))
    assert f"{scenario}:3:" in line and name in line and "not set by hand" in line, line


# ---- markdown: "@org/team" in a model's answer --------------------------------------------------------------------

# html-pipeline's TeamMentionFilter (github.com/gjtorikian/html-pipeline
# lib/html_pipeline/node_filter/team_mention_filter.rb TEAM_PATTERN, read 2026-11-28): in each text node outside pre,
# code, a, style and script, this is a team's @mention (its members notified where the page is posted)
_TEAM = r"(?<![^\W])@([a-z0-9][a-z0-9-]*)/([a-z0-9][a-z0-9\-_]*)\b"


def _teams(markdown: str) -> list[tuple[str, str]]:
    from test_adversarial22 import _mentions

    return _mentions(markdown, _TEAM)


@pytest.mark.parametrize("text", ["ask @acme/security now", "@acme/security", "(@acme/on-call)"])
def test_markdown_text_makes_no_team_mention(text: str) -> None:
    """The mention escape left `@org/team` as written (read as "an npm package's @scope/name, no user mention"):
    GitHub reads it as a team's mention, and a model's answer posted in a PR comment notified the whole team."""
    from toolchoice.cli import markdown_text as md

    assert _teams(text) != []  # the truth can fail: as written, a team mention
    for written in (md.escaped(text), "| a |\n|---|\n| " + md.cell(text) + " |", "- " + md.line(text)):
        assert _teams(written) == [], written


# ---- trace: a recorded provider's name is the trace's data, quoted cut ---------------------------------------------

def test_an_unknown_provider_s_long_name_is_quoted_cut(tmp_path) -> None:
    """A trace's gen_ai.provider.name of 200,000 characters, its calls holding reasoning: trace.provider_unknown and
    the new trace.reasoning_unknown each quoted it whole (two notes of 200 KB each, in every ledger of the replay)."""
    from test_trace_reasoning_family import _trace

    from toolchoice.providers.core.trace_scenario import import_trace

    name = "acme." + "x" * 200_000
    [imported] = import_trace(_trace(tmp_path, name))
    said = {n.code: n.message for n in imported.notes}
    assert {"trace.provider_unknown", "trace.reasoning_unknown"} <= set(said)
    for code in ("trace.provider_unknown", "trace.reasoning_unknown"):
        assert '"acme.xxx' in said[code] and len(said[code]) < 400, (code, len(said[code]))


# ---- tools --mcp: the relay's file of keys named twice, replaced by the server ------------------------------------

# started as the server: the relay (its parent) names its file on its command line, which this puts a FIFO in
# place of, then runs the server it is given (tests/test_mcp_duplicate_keys.py's)
SWAP = """
import os, sys
args = open("/proc/%d/cmdline" % os.getppid(), "rb").read().split(b"\\0")
path = next(a for a in args if a.startswith(b"--twice="))[len(b"--twice="):].decode()
try:
    os.unlink(path)
    os.mkfifo(path)
except FileNotFoundError:  # since trial23e the relay removes its FIFO, with its folder, before the server starts
    pass
os.execv(sys.argv[1], sys.argv[1:])
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo") or not __import__("os").path.isdir("/proc"),
                    reason="needs FIFOs and /proc")
def test_a_fifo_in_place_of_the_relays_file_does_not_hang_the_listing(tmp_path) -> None:
    """A stdio server (the same user as the relay) replaced the relay's file of keys named twice with a FIFO: reading
    it back opened it and waited for a writer for ever, past `--timeout 5` (killed at 40 s by hand). The truth: the
    listing the server wrote, said within this test's own bound of 60 s (a process: a hang is not this one's)."""
    import os
    import shutil
    import subprocess
    import sys

    from sdk_types import missing

    if missing("mcp"):
        pytest.skip("needs the MCP SDK")
    from test_mcp_duplicate_keys import _stdio

    server = _stdio(tmp_path, b'{"tools": [{"name": "get_time", "inputSchema": {"type": "object"}}]}')
    (tmp_path / "swap.py").write_text(SWAP, encoding="utf-8")
    (tmp_path / "tmp").mkdir()
    exe = shutil.which("toolchoice", path=os.path.dirname(sys.executable)) or shutil.which("toolchoice")
    assert exe is not None
    env = {"PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin", "TMPDIR": str(tmp_path / "tmp"),
           "HOME": str(tmp_path)}
    try:
        done = subprocess.run([exe, "tools", "--mcp", f"{sys.executable} {tmp_path / 'swap.py'} {server}", "--timeout", "5"], env=env,
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the listing hung past its --timeout 5")
    assert done.returncode == 0, done.stderr
    assert "name: get_time" in done.stdout
    assert list((tmp_path / "tmp").iterdir()) == []  # the relay's folder removed, FIFO and all


# ---- parse: a saved reply holding NaN, now "non-JSON" as send reads it, said why -----------------------------------

@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_reply_holding_nan_says_why_it_is_not_json(tmp_path, constant: str) -> None:
    """A reply whose usage holds NaN (past the body's start the line shows) was "non-JSON response: {...}" with no
    word of why: the shown start is JSON, and Python's own json.loads reads the whole (the truth, below)."""
    import json

    from cli import run_cli

    body = ('{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": '
            '0, "message": {"role": "assistant", "content": "' + "hi " * 200 + '"}, "finish_reason": "stop"}], '
            '"usage": {"prompt_tokens": %s, "completion_tokens": 1, "total_tokens": 2}}' % constant)
    json.loads(body)  # the truth: JSON but for the constant, to Python's permissive reader
    path = tmp_path / "reply.json"
    path.write_text(body, encoding="utf-8")
    done = run_cli(["parse", str(path), "-p", "openai", "-f", "json"], env={"PATH": "/usr/bin:/bin"})
    error = json.loads(done.stdout)["reply"]["error"]
    assert "non-JSON response" in error["message"] and constant in error["message"].split(":")[0], error


# ---- render -f curl: a header's $ as send reads it ------------------------------------------------------------------

def test_a_curl_header_sends_what_send_sends(tmp_path) -> None:
    """Header values holding ${MY_TOKEN} (a placeholder send reads, --allow-env), $Home and $MY_TOKENx (no placeholder:
    sent as written): the curl wrote \\${MY_TOKEN} (sent as written, not the value) and left $Home and $MY_TOKENx to
    the shell (sent empty). The truth: the headers a real server on 127.0.0.1 received from send, and bash's reading
    of the curl's -H words."""
    import shutil
    import subprocess

    from cli import run_cli
    from servers import Step, StandIn

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    values = {"X-A": "${MY_TOKEN}", "X-B": "$Home", "X-C": "$MY_TOKENx and $MY_TOKEN!", "X-D": "cost $5 `x`"}
    path = tmp_path / "s.yaml"
    headers = ", ".join(f'"{k}": "{v}"' for k, v in values.items())
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\n"
                    f"providers:\n  openai:\n    model: gpt-4o\n    headers: {{{headers}}}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789", "MY_TOKEN": "abc"}
    reply = {"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-4o",
             "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
    with StandIn("openai", Step(body=reply)) as server:
        sent = run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                        "--allow-env", "MY_TOKEN"], env=env)
        assert sent.returncode == 0, sent.stderr
        received = {k: server.requests[0].headers[k.lower()] for k in values}
    assert received["X-A"] == "abc" and received["X-B"] == "$Home"  # the truth holds what this test says of it
    curl = run_cli(["render", str(path), "-p", "openai", "-f", "curl", "--allow-env", "MY_TOKEN"], env=env)
    assert curl.returncode == 0, curl.stderr
    words = [line.strip().removeprefix("-H ").removesuffix(" \\") for line in curl.stdout.splitlines()
             if line.strip().startswith("-H \"X-")]
    script = tmp_path / "paste.sh"
    script.write_text("set -o history -H\n" + "".join(f"printf '%s\\n' {w}\n" for w in words), encoding="utf-8")
    shown = subprocess.run([bash, str(script)], capture_output=True, text=True, timeout=30,
                           env={"PATH": "/usr/bin:/bin", "MY_TOKEN": "abc"})
    assert shown.stdout.splitlines() == [f"{k}: {v}" for k, v in received.items()], shown.stdout + shown.stderr


# ---- tools --mcp-url -H 'X: $TOK': the value read from the environment ---------------------------------------------

@pytest.mark.parametrize("value", ["abc\x1bd", "abc\x7f", " tok5"])
def test_an_mcp_header_read_from_the_environment_is_checked_as_one_written(value: str) -> None:
    """A value written on the line with a control is refused (22b); one read from $TOK was not: an ESC went on to the
    server, and a space at its ends became httpx's "LocalProtocolError: Illegal header value b' tok5'", quoting the
    value (under 8 characters, which the redactor leaves). The truth: the HTTP/1.1 writer the SDK's httpx sends through
    refuses such a value, or a real server on 127.0.0.1 received the control."""
    import h11

    from cli import refused, run_cli, user_env
    from mcp_http_stub import serving

    if value != value.strip():
        with pytest.raises(h11.LocalProtocolError):
            h11.Connection(h11.CLIENT).send(h11.Request(method="GET", target="/",
                                                        headers=[("Host", "x"), ("X-T", value)]))
    seen: list[str] = []
    with serving(lambda headers: [], paths=seen) as url:
        line = refused(run_cli(["tools", "--mcp-url", url, "-H", "X-T: $TOK", "--timeout", "20"],
                               env=user_env(TOK=value)))
    assert "X-T" in line and "control character" in line and value.strip() not in line, line
    assert seen == []  # refused before any request
