"""The secrets and names of a scenario's hosted tools (core/native_tools.py), as the adversarial report of
2026-11-26 found them: a literal beside a header's ``$ENV`` reference, credentials or a query string in an MCP
``server_url``, a user's Authorization header replaced by the one ``authorization`` makes, tools sent under one
name, and ``render -f curl`` sending a placeholder's text where ``send`` sends its value.

Truth from outside the code: what the scenario file says (the user's header value, the file's line), RFC 9110
(§5.1 "Field names are case-insensitive"; §11.4 credentials = auth-scheme [ 1*SP token68 ]), the SDK types the
bodies are checked against elsewhere (tests/test_native_tools.py), and the bytes a 127.0.0.1 stand-in received
from ``send`` and from the printed curl command run by a real bash and curl.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli
from servers import StandIn, Step

SECRET = "sk-literal-secret-abcdef123456"
URL = "https://mcp.deepwiki.com/mcp"


def write(tmp_path: Path, server: str, name: str = "s.yaml", extra_tools: str = "", content: str = "hi") -> Path:
    """A scenario whose tools are ``extra_tools`` then one mcp server (``server``: its YAML keys after
    ``server_label``, one per line, indented 4); the server's keys start on line 4."""
    path = tmp_path / name
    path.write_text(f"tools:\n{extra_tools}  - type: mcp\n    server_label: dw\n{server}"
                    f"messages:\n  - {{role: user, content: {json.dumps(content)}}}\n")
    return path


def render_json(path: Path, provider: str, *allow: str) -> dict[str, Any]:
    args = ["render", str(path), "-p", provider, "-f", "json"] + (["--allow-env", ",".join(allow)] if allow else [])
    result = run_cli(args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def warnings(doc: dict[str, Any], code: str) -> list[str]:
    return [e["message"] for e in doc["ledger"] if e["code"] == code and e["severity"] == "warning"]


# ---- #6: no literal beside the reference, no credentials in server_url ------------------------------------------


@pytest.mark.parametrize("server, line, words", [
    (f'    server_url: {URL}\n    headers: {{X-Key: "{SECRET} $MYTOK"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    headers: {{X-Key: "$MYTOK {SECRET}"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    headers: {{X-Key: "Bearer  $MYTOK"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    headers: {{X-Key: "Bearer $MYTOK,x"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    headers: {{X-Key: "Bearer x $MYTOK"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    headers: {{X-Key: "$A_TOK$B_TOK"}}\n', 5, "after one auth scheme word"),
    (f'    server_url: {URL}\n    authorization: "Bearer $MYTOK"\n', 5, "an $ENV reference alone"),
    (f'    server_url: "https://user:{SECRET}@mcp.example/mcp"\n', 4, "user name or password"),
    (f'    server_url: "https://mcp.example/mcp?api_key={SECRET}"\n', 4, "query string"),
    (f'    server_url: "https://mcp.example/mcp#{SECRET}"\n', 4, "fragment"),
    ('    server_url: "http://[::1"\n', 4, "is not a URL"),
    ('    server_url: "https://mcp.example:70000/mcp"\n', 4, "is not a URL"),
    (f'    server_url: "https://mcp.example:{SECRET}/mcp"\n', 4, "its port is not a number"),  # the parser quotes it
    ('    server_url: "https:///mcp"\n', 4, "must be an http(s) URL"),
    (f'    server_url: {URL}\n    headers: {{Authorization: "$A_TOK", authorization: "$B_TOK"}}\n', 5,
     "'authorization' and 'Authorization' name one header"),
])
def test_a_secret_beside_the_reference_or_in_the_url_is_a_one_line_error_that_never_shows_it(tmp_path, server, line,
                                                                                          words):
    path = write(tmp_path, server)
    result = run_cli(["render", str(path), "-p", "openai-responses", "--allow-env", "MYTOK,A_TOK,B_TOK"])
    assert result.returncode == 2 and result.stdout == ""
    (shown,) = result.stderr.strip().splitlines()
    assert shown.startswith(f"toolchoice: error: {path}:{line}:") and words in shown, shown
    assert SECRET not in shown and "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["$MYTOK", "${MYTOK}", "Bearer $MYTOK", "Basic ${MYTOK}", "Token $MYTOK"])
def test_the_reference_alone_or_after_one_scheme_word_is_sent_as_written(tmp_path, value):
    path = write(tmp_path, f"    server_url: {URL}\n    headers: {{X-Key: {json.dumps(value)}}}\n")
    doc = render_json(path, "openai-responses", "MYTOK")
    assert doc["request"]["body"]["tools"][0]["headers"] == {"X-Key": value}


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/mcp", "https://[::1]/mcp", "https://mcp.example"])
def test_plain_server_urls_still_pass(tmp_path, url):
    doc = render_json(write(tmp_path, f"    server_url: {json.dumps(url)}\n"), "openai-responses")
    assert doc["request"]["body"]["tools"][0]["server_url"] == url


# ---- #4: the user's Authorization header is never silently replaced --------------------------------------------


@pytest.mark.parametrize("name", ["Authorization", "authorization", "AUTHORIZATION"])
def test_gemini_sends_the_users_header_and_says_authorization_is_not_sent(tmp_path, name):
    path = write(tmp_path, f'    server_url: {URL}\n    headers: {{{name}: "Bearer $AAA_TOK"}}\n'
                           "    authorization: $BBB_TOK\n")
    doc = render_json(path, "gemini", "AAA_TOK", "BBB_TOK")
    transport = doc["request"]["body"]["tools"][0]["mcpServers"][0]["streamableHttpTransport"]
    assert transport["headers"] == {name: "Bearer $AAA_TOK"}  # as the file wrote it, and nothing beside it
    (said,) = warnings(doc, "tool.native_header_conflict")
    assert "authorization $BBB_TOK is not sent" in said and f"own header {name}" in said
    # what the MCP server would get: the stand-in receives the user's value, once
    env = {"PATH": os.environ["PATH"], "GEMINI_API_KEY": "gm-key-0123456789abcdef", "AAA_TOK": "aaa-value-0123456789",
           "BBB_TOK": "bbb-value-0123456789", "NO_PROXY": "127.0.0.1"}
    with StandIn("gemini", default=Step.reply("gemini")) as stand_in:
        result = run_cli(["send", str(path), "-p", "gemini", "--base-url", stand_in.base_url("gemini"),
                          "--allow-env", "AAA_TOK,BBB_TOK", "-f", "json"], env=env)
    assert result.returncode in (0, 4), result.stderr
    (got,) = stand_in.requests
    sent = got.json["tools"][0]["mcpServers"][0]["streamableHttpTransport"]["headers"]
    assert sent == {name: "Bearer aaa-value-0123456789"}
    assert "bbb-value" not in got.raw.decode()


def test_gemini_without_a_header_of_its_own_still_sends_authorization_as_a_bearer_header(tmp_path):
    path = write(tmp_path, f'    server_url: {URL}\n    headers: {{X-Team: "$AAA_TOK"}}\n    authorization: $BBB_TOK\n')
    doc = render_json(path, "gemini", "AAA_TOK", "BBB_TOK")
    transport = doc["request"]["body"]["tools"][0]["mcpServers"][0]["streamableHttpTransport"]
    assert transport["headers"] == {"X-Team": "$AAA_TOK", "Authorization": "Bearer $BBB_TOK"}
    assert not warnings(doc, "tool.native_header_conflict")


def test_responses_sends_both_fields_as_written_and_warns_the_server_gets_one(tmp_path):
    path = write(tmp_path, f'    server_url: {URL}\n    headers: {{authorization: "Bearer $AAA_TOK"}}\n'
                           "    authorization: $BBB_TOK\n")
    doc = render_json(path, "openai-responses", "AAA_TOK", "BBB_TOK")
    tool = doc["request"]["body"]["tools"][0]
    assert tool["headers"] == {"authorization": "Bearer $AAA_TOK"} and tool["authorization"] == "$BBB_TOK"
    (said,) = warnings(doc, "tool.native_header_conflict")
    assert "authorization and headers.authorization are both sent" in said


def test_anthropic_names_the_headers_it_cannot_send(tmp_path):
    path = write(tmp_path, f'    server_url: {URL}\n    headers: {{Authorization: "Bearer $AAA_TOK", X-Team: $T}}\n'
                           "    authorization: $BBB_TOK\n")
    doc = render_json(path, "anthropic", "AAA_TOK", "BBB_TOK", "T")
    assert doc["request"]["body"]["mcp_servers"][0]["authorization_token"] == "$BBB_TOK"
    (said,) = warnings(doc, "tool.native_field_dropped")
    assert "headers (Authorization, X-Team) is not sent" in said


# ---- #8: two tools named code_execution ------------------------------------------------------------------------


@pytest.mark.parametrize("tools, clash", [
    ("  - {type: code_execution_20250825}\n  - {type: code_execution_20260521}\n",
     "code_execution_20250825 and code_execution_20260521 are sent"),
    ("  - {type: code_execution_20250825}\n  - {name: code_execution, parameters: {type: object}}\n",
     "code_execution_20250825 and the function code_execution are sent"),
    ("  - {type: code_execution_20250825}\n  - {name: run, parameters: {type: object}}\n", None),
])
def test_anthropic_warns_when_two_tools_are_sent_named_code_execution(tmp_path, tools, clash):
    path = tmp_path / "ce.yaml"
    path.write_text(f"tools:\n{tools}tool_choice: required\nmessages: [{{role: user, content: hi}}]\n")
    doc = render_json(path, "anthropic")
    named = [t.get("name") for t in doc["request"]["body"]["tools"]]
    said = warnings(doc, "tool.native_name_clash")
    if clash is None:
        assert named.count("code_execution") == 1 and not said
    else:
        assert named.count("code_execution") == 2 and len(said) == 1 and clash in said[0]


# ---- #9: the curl command sends what send sends ---------------------------------------------------------------


CURL_CASES = {
    "openai-responses": ("OPENAI_API_KEY", '    headers: {Authorization: "Bearer $DEEPWIKI_TOKEN", X-Team: "${TEAM_TOKEN}"}\n'),
    "gemini": ("GEMINI_API_KEY", '    headers: {X-Team: "${TEAM_TOKEN}"}\n    authorization: $DEEPWIKI_TOKEN\n'),
    "anthropic": ("ANTHROPIC_API_KEY", "    authorization: $DEEPWIKI_TOKEN\n"),
}


@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl")
@pytest.mark.parametrize("provider", sorted(CURL_CASES))
def test_the_printed_curl_sends_the_bytes_send_sends(tmp_path, provider):
    key_var, server = CURL_CASES[provider]
    # a message holding shell and placeholder text: send leaves it literal, so must the shell
    path = write(tmp_path, f"    server_url: {URL}\n{server}", content="it's $HOME and $DEEPWIKI_TOKEN `id` \\ \"q\"")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
           key_var: "key-value-0123456789abcdef", "DEEPWIKI_TOKEN": 'deepwiki-value-0123456789"\\q&$x',
           "TEAM_TOKEN": "team-value-9876543210"}  # a value with " \\ & $: JSON-escaped as send does (a trial)
    allow = ["--allow-env", "DEEPWIKI_TOKEN,TEAM_TOKEN"]
    with StandIn(provider, default=Step.reply(provider)) as stand_in:
        base = ["--base-url", stand_in.base_url(provider)]
        sent = run_cli(["send", str(path), "-p", provider, *base, *allow, "-f", "json"], env=env)
        assert sent.returncode in (0, 4), sent.stderr
        script = run_cli(["render", str(path), "-p", provider, *base, *allow, "-f", "curl"], env=env)
        assert script.returncode == 0, script.stderr
        assert "deepwiki-value" not in script.stdout and "team-value" not in script.stdout
        # bytes: the reply curl prints may be gzip (a stand-in answers compressed where the request accepts it)
        shell = subprocess.run(["bash", "-c", script.stdout], capture_output=True, env=env, timeout=60)
        assert shell.returncode == 0, shell.stderr.decode("utf-8", "replace")
    by_send, by_curl = stand_in.requests
    assert by_curl.raw == by_send.raw
    assert b'deepwiki-value-0123456789\\"\\\\q&$x' in by_send.raw and b"$HOME and $DEEPWIKI_TOKEN" in by_send.raw
    unset = {k: v for k, v in env.items() if k != "DEEPWIKI_TOKEN"}  # send refuses an unset one: so does the curl
    refused = subprocess.run(["bash", "-c", script.stdout], capture_output=True, text=True, env=unset, timeout=60)
    assert refused.returncode != 0 and "DEEPWIKI_TOKEN is not set" in refused.stderr


def test_an_mcp_tool_takes_at_most_100_headers(tmp_path):
    """20,000 headers on one MCP server took 22 s to check (a quadratic duplicate check) and printed 20,000
    env.allowed warnings (a trial): the count is bounded, one line at the headers' line."""
    from toolchoice.providers.core.native_tools import MAX_HEADERS

    headers = ", ".join(f"X-H{i}: $TOKEN" for i in range(MAX_HEADERS + 1))
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - type: mcp\n    server_label: dw\n    server_url: https://a.example/mcp\n"
                    f"    headers: {{{headers}}}\nmessages:\n  - {{role: user, content: hi}}\n")
    result = run_cli(["render", str(path), "-p", "openai-responses"])
    assert result.returncode == 2
    assert f"{MAX_HEADERS + 1} headers, more than {MAX_HEADERS}" in result.stderr and ":5:" in result.stderr
