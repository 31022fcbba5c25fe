"""Slack tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxe.xoxp-, xapp-), GitLab access tokens (glpat-) and JSON Web Tokens
(core/key_looks.py's KEY_SHAPES, sources there; trial 23l). Before, each was shown in clear where no name said it was
a secret: on a stdio MCP server's command line (`tools --mcp` text and -f json, its ledger notes, what the server
echoed of it), and a scenario's ``from: mcp`` holding one was sent on and saved by `send --save`. Now each is
``[redacted]`` there and such a scenario is refused at its line, as ghp_/hf_/AKIA are. A JWT is taken only where its
first segment decodes to a JSON object with "alg" (RFC 7515 §4.1.1): base64 of other JSON (a data URI, ``eyJ``
inside a body) and names that merely begin so (xoxb-your-bot-token, glpat-xxxx…) are shown and sent as written."""

from __future__ import annotations

import base64
import json
import secrets
import shlex
import string
import sys
from pathlib import Path

import pytest

from cli import run_cli
from sdk_types import missing

SERVER = Path(__file__).resolve().parent / "mcp_server.py"
needs_mcp = pytest.mark.skipif(missing("mcp"), reason="the [mcp] extra (in [test]) is not installed")
_RANDOM = secrets.SystemRandom(23)
_ALNUM = string.ascii_letters + string.digits


def _made(alphabet: str, n: int) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(n))


def _digits(n: int) -> str:
    return str(_RANDOM.randrange(1, 10)) + _made(string.digits, n - 1)


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


_HEX = "0123456789abcdef"
# made up here in each issuer's documented form (none is anyone's key), built in pieces so no scanner takes this
# file for a leak: Slack's (gitleaks' examples' lengths), GitLab's 20-character and routable forms, an HS256 JWT
KEYS = {
    "bot": "xox" + "b-" + _digits(12) + "-" + _digits(13) + "-" + _made(_ALNUM, 24),
    "user": "xox" + "p-" + "-".join(_digits(n) for n in (11, 12, 12)) + "-" + _made(_HEX, 32),
    "workspace": "xox" + "a-2-" + "-".join(_digits(n) for n in (9, 11, 13)) + "-" + _made(_HEX, 18),
    "refresh": "xox" + "r-1-" + _digits(12) + "-" + _made(_ALNUM, 30),
    "config": "xox" + "e.xoxp-1-" + _made(_ALNUM, 164),
    "app": "xap" + "p-1-A0" + _made(string.ascii_uppercase + string.digits, 9) + "-" + _digits(13) + "-"
           + _made(_HEX, 64),
    "gitlab": "glp" + "at-" + _made(_ALNUM + "_-", 19) + "Q",
    "gitlab routable": "glp" + "at-" + _made(_ALNUM + "_-", 36) + "k.01." + _made(string.ascii_lowercase + "0123", 9),
    "jwt": _b64({"alg": "HS256", "typ": "JWT"}) + "." + _b64({"sub": _digits(10), "iat": 1764300000}) + "."
           + _made(_ALNUM + "_-", 42) + "c",
}
SHAPE = {"gitlab": "a GitLab access token", "gitlab routable": "a GitLab access token", "jwt": "a JSON Web Token"}
# names and data of the same alphabet: shown and sent as written, never refused
NEAR = ["xoxb-your-bot-token-here", "xoxb-1234567890-releasenotesfortheteam", "xapp-level-token", "xoxp-1234",
        "glpat-your-personal-access-token", "glpat-" + "x" * 20, "glpat-short",
        _b64({"name": "get_weather", "type": "function"}) + "." + _b64({"a": 1}) + ".Zm9vYmFyYmF6",  # no "alg"
        "data:application/json;base64," + _b64({"type": "object", "properties": {"city": {"type": "string"}}}),
        "AAAA" + _b64({"alg": "HS256"}) + "." + _b64({"a": 1}) + ".abcdefgh",  # eyJ inside a longer base64 run
        _b64({"alg": "HS256"}) + "  not a token"]


def _hidden(*texts: str) -> None:
    joined = "\n".join(texts)
    for name, key in KEYS.items():
        for piece in (key, key[:20], key[-16:]):
            assert piece not in joined, (name, joined[:2000])


def test_each_shape_is_found_whole_by_every_redaction_path_and_near_misses_are_not() -> None:
    from toolchoice.providers.core.key_looks import key_shapes, may_hold_look, may_look, redact_patterns
    from toolchoice.providers.core.line_redaction import LineRedaction
    from toolchoice.providers.core.redaction import Redactor

    for name, key in KEYS.items():
        assert [(found, what) for found, what, _ in key_shapes(f"token {key}, thanks")] == \
            [(key, SHAPE.get(name, "a Slack token"))], name
        assert redact_patterns(f'"\\n{key}"') == '"\\n[redacted]"', name  # in JSON text, after an escape's letter
        assert redact_patterns(f"Rotate {key}.") == "Rotate [redacted].", name  # a sentence's dot is left
        # the fast paths: a short text looked at first, a parsed value's dump, a spooled loop's lines
        assert may_look(f"k={key}") and may_hold_look(json.dumps({"args": ["srv", key]})), name
        assert Redactor({}).data({"args": ["srv", key]}) == {"args": ["srv", "[redacted]"]}, name
        lines = LineRedaction({})
        assert lines(f'{{\n  "a": "x",\n  "b": "{key}"\n}}') == '{\n  "a": "x",\n  "b": "[redacted]"\n}', name
    for text in NEAR:
        assert key_shapes(f"see {text} here") == [] and redact_patterns(f"see {text} here") == f"see {text} here", text


def _argv_server(args: str) -> str:
    return shlex.join([sys.executable, str(SERVER), "argv"]) + " " + args


@needs_mcp
def test_a_real_stdio_server_started_with_them_never_shows_them() -> None:
    """On the command line with no secret-named option before them (nothing but the shape says so), and in the
    server's environment; the server is handed them (its tool's description echoes what it was started with)."""
    on_line = [key for name, key in KEYS.items() if name != "refresh"]
    command = _argv_server(" ".join(on_line) + " --port 8080 --verbose")
    listed = run_cli(["tools", "--mcp", command, "--env", f"MCP_ENV_KEY={KEYS['refresh']}", "-f", "json"])
    assert listed.returncode == 0, listed.stderr
    _hidden(listed.stdout, listed.stderr)
    doc = json.loads(listed.stdout)
    seen = json.loads(doc["tools"][0]["description"].removeprefix("started with "))
    assert seen == {"args": ["[redacted]"] * len(on_line) + ["--port", "8080", "--verbose"], "env": "[redacted]"}
    notes = " ".join(entry["message"] for entry in doc["ledger"])
    assert notes.count("[redacted]") >= len(on_line) and "--port 8080 --verbose" in notes, notes

    text = run_cli(["tools", "--mcp", command, "--env", f"MCP_ENV_KEY={KEYS['refresh']}"])
    assert text.returncode == 0 and "echo" in text.stdout, text.stderr
    _hidden(text.stdout, text.stderr)

    crashed = run_cli(["tools", "--mcp", _argv_server(f"--crash {KEYS['bot']} {KEYS['jwt']} {KEYS['gitlab']}")])
    assert crashed.returncode == 2 and "started with" in crashed.stderr, crashed.stderr
    _hidden(crashed.stdout, crashed.stderr)


@needs_mcp
def test_a_scenario_s_from_mcp_holding_one_is_refused_and_a_variable_is_never_saved(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    env = {"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin",
           "SLACK_BOT_TOKEN": KEYS["bot"], "GITLAB_TOKEN": KEYS["gitlab routable"]}
    with running_mock("openai") as mock:
        for name in ("user", "app", "gitlab", "jwt"):
            path = tmp_path / f"{name.replace(' ', '_')}.yaml"
            path.write_text(f"tools:\n  - from: {{mcp: {json.dumps(_argv_server(KEYS[name]))}}}\n"
                            "messages:\n  - {role: user, content: hi}\n", encoding="utf-8")
            saves = tmp_path / f"save-{name.replace(' ', '_')}"
            sent = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--live-mcp",
                            "--save", str(saves)], env=env)
            assert sent.returncode == 2 and f"{path}:2:" in sent.stderr, (name, sent.stderr)
            assert f"shaped like {SHAPE.get(name, 'a Slack token')}" in sent.stderr, sent.stderr
            assert not saves.exists() or not any(saves.rglob("*.json")), name
            _hidden(sent.stdout, sent.stderr)

        # read from the environment where the user allows it: sent to the server, never shown or saved
        path = tmp_path / "vars.yaml"
        path.write_text("tools:\n  - from: {mcp: %s, env: {MCP_ENV_KEY: $GITLAB_TOKEN}}\n"
                        "messages:\n  - {role: user, content: hi}\n" % json.dumps(_argv_server("$SLACK_BOT_TOKEN")),
                        encoding="utf-8")
        saves = tmp_path / "save-vars"
        sent = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--live-mcp", "-f", "json",
                        "--allow-env", "SLACK_BOT_TOKEN,GITLAB_TOKEN", "--save", str(saves)], env=env)
    assert sent.returncode in (0, 1), sent.stderr
    saved = [p.read_text(encoding="utf-8") for p in saves.rglob("*") if p.is_file()]
    # the server was handed the values and echoed them: each written as the variable it was read from
    assert saved and any('\\"args\\": [\\"$SLACK_BOT_TOKEN\\"], \\"env\\": \\"$GITLAB_TOKEN\\"' in text
                         for text in saved), saved[0][:3000]
    _hidden(sent.stdout, sent.stderr, *saved)


def test_near_misses_in_a_scenario_are_sent_as_written(tmp_path: Path) -> None:
    path = tmp_path / "near.yaml"
    path.write_text("tools:\n  - name: t\n    description: %s\n    parameters: {type: object}\n"
                    "messages:\n  - {role: user, content: %s}\nproviders:\n  openai:\n    extra: {note: %s}\n"
                    % (json.dumps(" ".join(NEAR)), json.dumps(KEYS["jwt"][:40] + " and " + " ".join(NEAR)),
                       json.dumps(NEAR[7])), encoding="utf-8")
    rendered = run_cli(["render", str(path), "-p", "openai", "-f", "json"],
                       env={"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin"})
    assert rendered.returncode == 0, rendered.stderr
    for text in NEAR:
        assert json.dumps(text)[1:-1] in rendered.stdout, text
    # and a JWT in the same place is refused
    path.write_text(path.read_text().replace(json.dumps(NEAR[7]), json.dumps(KEYS["jwt"])), encoding="utf-8")
    refused = run_cli(["render", str(path), "-p", "openai"],
                      env={"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin"})
    assert refused.returncode == 2 and "shaped like a JSON Web Token" in refused.stderr, refused.stderr
    _hidden(refused.stdout, refused.stderr)
