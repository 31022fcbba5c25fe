"""A secret on a stdio MCP server's command line is never shown (trial 20o). Servers are commonly started with one
(``--token X``, ``--api-key=X``, ``-H 'Authorization: Bearer X'``, ``GITHUB_TOKEN=X``, ``https://user:pass@host``,
``?api_key=X``), and such a token need not look like any issuer's key, which is all the output's redaction finds:
before, ``tools --mcp "npx server --token hunter2secret"`` said ``mcp: npx server --token hunter2secret: ...`` on
its error line, in every ledger note of the listing, and in the hint for an unquoted command line. Now the value of
every secret-named part is ``[redacted]`` in what is shown (the words around it as written), and what the server
echoes of it (a stderr line, a tool description) is hidden too. The server is real (tests/mcp_server.py ``argv``:
its tool's description, and with ``--crash`` its last stderr line, say what it was started with)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from cli import run_cli
from sdk_types import missing
from toolchoice.providers.core.command_shown import command_secrets, shown_command

SERVER = Path(__file__).resolve().parent / "mcp_server.py"
# each form with its own secret (none shaped like a known issuer's key), and words that must stay as written
FORMS = {
    "--token hunter2secretA": "hunter2secretA",
    "--api-key=hunter2secretB": "hunter2secretB",
    "--password hunterC4": "hunterC4",
    "-H 'Authorization: Bearer hunter2secretD'": "hunter2secretD",
    "--header 'X-API-Key: hunter2secretE'": "hunter2secretE",
    "GITHUB_TOKEN=hunter2secretF": "hunter2secretF",
    "--url https://alice:hunter2secretG@host.example/mcp": "hunter2secretG",
    "--endpoint 'https://host.example/mcp?api_key=hunter2secretH&region=eu'": "hunter2secretH",
    "--pass abcd12": "abcd12",  # shorter than the redactor's 8: hidden as a word of its own
    "--clientSecret=hunter2secretI": "hunter2secretI",
}
KEPT = ["--token", "--api-key=", "Authorization: Bearer", "X-API-Key:", "GITHUB_TOKEN=", "alice:", "host.example/mcp",
        "region=eu", "--port 8080", "--verbose", "--max-tokens 100"]
ARGS = " ".join([*FORMS, "--port 8080 --verbose --max-tokens 100"])
needs_mcp = pytest.mark.skipif(missing("mcp"), reason="the [mcp] extra (in [test]) is not installed")


def _argv_server(args: str) -> str:
    return shlex.join([sys.executable, str(SERVER), "argv"]) + " " + args


def _no_secret(*texts: str) -> None:
    joined = "\n".join(texts)
    for secret in FORMS.values():
        assert secret not in joined, (secret, joined)


@pytest.mark.parametrize(("written", "shown"), [
    ("npx server --token hunter2secret", "npx server --token [redacted]"),
    ("npx server --api-key=hunter2secret --port 8080", "npx server --api-key=[redacted] --port 8080"),
    ("srv -H 'Authorization: Bearer abc12345' -H 'Accept: text/plain'",
     "srv -H 'Authorization: Bearer [redacted]' -H 'Accept: text/plain'"),
    ("srv -H Authorization: Bearer abc12345 next", "srv -H Authorization: Bearer [redacted] next"),
    ("GITHUB_TOKEN=abc12345 npx -y @modelcontextprotocol/server-github",
     "GITHUB_TOKEN=[redacted] npx -y @modelcontextprotocol/server-github"),
    ("env API_KEY=abc12345 PATH=/usr/bin cmd", "env API_KEY=[redacted] PATH=/usr/bin cmd"),
    ("srv --db postgres://bob:pw9x@db.local/app", "srv --db postgres://bob:[redacted]@db.local/app"),
    ("srv https://ghtok123@github.com/o/r", "srv https://[redacted]@github.com/o/r"),
    ("srv 'https://h.example/x?access_token=abc&page=2'", "srv 'https://h.example/x?access_token=[redacted]&page=2'"),
    ("srv -e PGPASSWORD=abc --set=apiKey=xyz -u bob:pw",
     "srv -e PGPASSWORD=[redacted] --set=apiKey=[redacted] -u bob:[redacted]"),
    # a $NAME names a variable, not a value; where a secret is, a count, a negated flag: not secret
    ("srv --token $GITHUB_TOKEN --auth 'Bearer ${T}'", "srv --token $GITHUB_TOKEN --auth 'Bearer ${T}'"),
    ("srv --token-file /run/tok --max-tokens 100 --no-auth serve --api-key-env KEY_VAR",
     "srv --token-file /run/tok --max-tokens 100 --no-auth serve --api-key-env KEY_VAR"),
    ("srv 'unbalanced --secret abc", "srv 'unbalanced --secret [redacted]"),
])
def test_each_secret_form_is_hidden_and_the_rest_kept_as_written(written: str, shown: str) -> None:
    assert shown_command(written) == shown


def test_the_values_hidden_are_known_for_what_the_server_echoes() -> None:
    assert command_secrets(shlex.split(ARGS)) == list(FORMS.values())
    assert command_secrets(["srv", "--token", "$TOKEN"]) == []


def test_an_unquoted_command_line_s_hint_and_click_s_words_hide_it() -> None:
    """``tools --mcp npx server --token X``: click's own message and the hint to quote it (no server started)."""
    for args in (["--token", "hunter2secretA"], ["-H", "Authorization:", "Bearer", "hunter2secretD"]):
        result = run_cli(["tools", "--mcp", "npx", "server", *args])
        assert result.returncode == 2, result.stderr
        assert "--mcp 'npx server " in result.stderr and "[redacted]" in result.stderr, result.stderr
        _no_secret(result.stdout, result.stderr)


def test_a_missing_command_s_error_line_hides_every_form() -> None:
    result = run_cli(["tools", "--mcp", f"toolchoice-no-such-server-q7 {ARGS}"])
    assert result.returncode == 2 and "no such command: toolchoice-no-such-server-q7" in result.stderr, result.stderr
    _no_secret(result.stdout, result.stderr)
    for word in KEPT:
        assert word in result.stderr, (word, result.stderr)


@needs_mcp
def test_a_listing_and_a_crash_of_a_real_server_hide_what_it_was_started_with() -> None:
    listed = run_cli(["tools", "--mcp", _argv_server(ARGS), "--env", "MCP_ENV_KEY=hunter2secretJ", "-f", "json"])
    assert listed.returncode == 0, listed.stderr
    doc = json.loads(listed.stdout)
    _no_secret(listed.stdout, listed.stderr)
    assert "hunter2secretJ" not in listed.stdout and '"env": "[redacted]"' in doc["tools"][0]["description"]
    notes = " ".join(entry["message"] for entry in doc["ledger"])
    for word in KEPT:
        assert word in notes, (word, notes)
    # the server was handed the secrets (its description says so) and wrote them back: hidden, and said
    described = doc["tools"][0]["description"]
    assert '"--token", "[redacted]"' in described and '"--pass", "[redacted]"' in described, described
    assert "import.secret_echoed" in listed.stdout and "a secret-named part of its command line" in notes

    crashed = run_cli(["tools", "--mcp", _argv_server(f"--crash {ARGS}")])
    assert crashed.returncode == 2 and "the server's last stderr line: started with" in crashed.stderr, crashed.stderr
    _no_secret(crashed.stdout, crashed.stderr)
    assert "--port 8080" in crashed.stderr


@needs_mcp
def test_a_scenario_s_from_mcp_hides_it_in_saved_files_and_keeps_the_file_as_written(tmp_path: Path) -> None:
    command = _argv_server("-H 'Authorization: Bearer hunter2secretD' GITHUB_TOKEN=hunter2secretF --port 8080")
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump({"tools": [{"from": {"mcp": command}}], "tool_choice": "auto",
                                    "messages": [{"role": "user", "content": "hi"}]}, sort_keys=False))
    written = path.read_text()
    snapshots = tmp_path / "snap"
    result = run_cli(["render", path.name, "-p", "openai", "--live-mcp", "-f", "json", "--snapshot", str(snapshots),
                      "--update"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    saved = [f.read_text() for f in snapshots.rglob("*") if f.is_file()]
    assert saved and any("--port 8080" in text for text in saved)
    _no_secret(result.stdout, result.stderr, *saved)
    assert path.read_text() == written  # the user's file: theirs, as written
