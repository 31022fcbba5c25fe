"""Found by trial6h (a keys-and-escapes re-sweep of the day's changes); each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import run_cli

PASSWORD = "s3cr3tPassw0rdXYZ"  # a password a user pasted into a URL: never shown, whatever the URL's shape

# A password holding '#', '?' or '/' (unencoded, as pasted): urllib ends the host part there, so the user info
# was read as a host, port, query or fragment and the refusal (or the connection error) showed it.
LENIENT = [f"http://admin:{PASSWORD[:6]}#{PASSWORD[6:]}@127.0.0.1:9/mcp",
           f"http://admin:{PASSWORD[:6]}?{PASSWORD[6:]}@127.0.0.1:9/mcp",
           f"http://admin:{PASSWORD[:6]}/{PASSWORD[6:]}@127.0.0.1:9/mcp",
           f"http://admin:{PASSWORD}@[::1/mcp"]


@pytest.mark.parametrize("url", LENIENT)
def test_an_mcp_url_with_a_password_is_refused_without_showing_it(url: str) -> None:
    result = run_cli(["tools", "--mcp-url", url, "--timeout", "2"])
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "user name or password" in line, line
    assert PASSWORD[:6] not in line and PASSWORD[6:] not in line, line


@pytest.mark.parametrize("url", LENIENT)
def test_a_base_url_with_a_password_is_refused_without_showing_it(tmp_path: Path, url: str) -> None:
    """--base-url (send, its dry run, render) showed it in the refusal or the connection error, or sent it."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: f\n    parameters: {type: object}\nmessages:\n  - {role: user, content: hi}\n",
                        encoding="utf-8")
    env = {"OPENAI_API_KEY": "sk-test-0123456789abcdef0123"}
    for args in (["send", "--dry-run"], ["send", "--retries", "0", "--timeout", "2"], ["render"]):
        result = run_cli([args[0], str(scenario), "-p", "openai", "--base-url", url, *args[1:]], env=env)
        assert result.returncode == 2, (args, result.stdout + result.stderr)
        (line,) = result.stderr.strip().splitlines()
        assert "user name or password" in line, line
        assert PASSWORD[:6] not in line and PASSWORD[6:] not in line, line
    written = scenario.read_text() + f"providers:\n  openai:\n    base_url: '{url}'\n"
    scenario.write_text(written, encoding="utf-8")
    loaded = run_cli(["render", str(scenario), "-p", "openai"], env=env)
    assert loaded.returncode == 2 and PASSWORD[:6] not in loaded.stderr and PASSWORD[6:] not in loaded.stderr


KEY = "sk-test-Qm7Zr2Lx9Vb4Nc8Pw3Ht6Jy1Kd5Fg0Sa7Ue2Io9Yb4Wq8Er3Tn"  # a realistic length; set as OPENAI_API_KEY


@pytest.mark.parametrize("args", [["compare", "-p", "openai,anthropic", "-f", "json"],
                                  ["compare", "-p", "openai,anthropic", "-f", "markdown"],
                                  ["compare", "-p", "openai,anthropic", "--dialect", "langchain", "-f", "json"],
                                  ["run", "--dry-run", "-p", "openai", "-f", "json"],
                                  ["run", "--dry-run", "-p", "openai", "-f", "pretty"],
                                  ["render", "-p", "openai,anthropic", "-f", "json"]])
def test_a_dry_run_never_shows_a_key_the_scenario_quotes(tmp_path: Path, args: list[str]) -> None:
    """A key pasted into a message, a model id or a base URL (or expanded there by the shell) was printed whole by
    compare -f json / -f markdown and run --dry-run -f json, where render (and every pretty view) redacts it."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: f\n    parameters: {type: object}\ntool_choice: required\n"
                        f"messages:\n  - {{role: user, content: 'my key is {KEY}'}}\n"
                        f"providers:\n  openai: {{model: 'zz-{KEY}'}}\n  anthropic: {{base_url: 'http://127.0.0.1:9/zz{KEY}'}}\n",
                        encoding="utf-8")
    result = run_cli([args[0], str(scenario), *args[1:]], env={"OPENAI_API_KEY": KEY, "COLUMNS": "200"})
    assert result.returncode in (0, 3), result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert "$OPENAI_API_KEY" in out  # the scenario's text was shown, redacted
    assert not [KEY[i:i + 12] for i in range(len(KEY) - 12) if KEY[i:i + 12] in out], out[:2000]


BIDI_AND_SEPARATORS = "\u202e\u2066\u2069\u2028\u2029"


def test_an_error_line_writes_out_bidi_controls_and_line_separators(tmp_path: Path) -> None:
    """An error quoting the scenario (an allowed list naming a tool twice quotes the whole tool_choice) kept
    U+202E (which shows the rest of the line reversed), the isolates and U+2028/2029 raw on stderr, where ESC
    and C1 were already taken out: a terminal reordered or broke the one line."""
    name = "get\u202etxt.exe\u2066x\u2069\u2028y\u2029z"
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"tools:\n  - name: {json_string(name)}\n    parameters: {{type: object}}\n"
                        f"tool_choice: {{type: allowed, tools: [{json_string(name)}, {json_string(name)}]}}\n"
                        "messages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    result = run_cli(["render", str(scenario), "-p", "openai"])
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().split("\n")
    assert not [ch for ch in BIDI_AND_SEPARATORS if ch in line], line
    assert "\\u202e" in line and "\\u2028" in line, line  # written out, as every output writes them


def json_string(text: str) -> str:
    import json

    return json.dumps(text)


def test_a_replayed_trace_that_quotes_a_key_never_shows_it(tmp_path: Path) -> None:
    """run --replay sends nothing, so no key was resolved and nothing was redacted: a key in the trace (a user
    message that quotes it) was printed
    whole by -f json and written to --save's files and --trace-out, where the pretty view redacts it."""
    import json

    trace = Path(__file__).resolve().parent / "data" / "traces" / "genai-span-events.json"
    document = json.loads(trace.read_text())
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    choice = next(e for e in span["events"] if e["name"] == "gen_ai.choice")
    message = next(a for a in choice["attributes"] if a["key"] == "message")
    message["value"]["stringValue"] = message["value"]["stringValue"][:60]
    path = tmp_path / "cut.json"  # every step's history quotes the user's message
    path.write_text(json.dumps(document).replace("Weather in Oslo?", f"Weather in Oslo? My key is {KEY}"))
    env = {"OPENAI_API_KEY": KEY, "COLUMNS": "200"}
    outputs = []
    for extra in (["-f", "json", "--save", str(tmp_path / "saved"), "--trace-out", str(tmp_path / "out.json")],
                  ["-f", "markdown"], ["-f", "pretty"]):
        result = run_cli(["run", "--replay", str(path), "-p", "openai", *extra], env=env)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout + result.stderr)
    assert "My key is $OPENAI_API_KEY" in outputs[0]  # the message was shown, redacted
    files = [p.read_text(errors="replace") for p in [*(tmp_path / "saved").rglob("*"), tmp_path / "out.json"]
             if p.is_file()]
    for text in [*outputs, *files]:
        assert not [KEY[i:i + 12] for i in range(len(KEY) - 12) if KEY[i:i + 12] in text], text[:3000]


def test_a_step_note_quoting_a_line_break_stays_one_line_in_runs_pretty_view(tmp_path: Path) -> None:
    """The trace.not_replayed note quotes an event's name from the trace file: a line break in it split the note
    in run's pretty view, so the trace wrote lines of its own there (here one that reads as a comment)."""
    import json

    trace = Path(__file__).resolve().parent / "data" / "traces" / "genai-span-events.json"
    document = json.loads(trace.read_text())
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    span["events"].append({"name": "cut\n# all steps obeyed", "timeUnixNano": span["events"][-1].get("timeUnixNano"),
                           "attributes": [{"key": "body", "value": {"stringValue": "{\"role\": \"assis"}}]})
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(document))
    result = run_cli(["run", "--replay", str(path), "-p", "openai"], env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if "trace.not_replayed" in line]
    assert notes and all("cut\\n# all steps obeyed body is not JSON" in note for note in notes), notes
    assert not [line for line in result.stdout.splitlines() if line.startswith("# all steps")]


def test_providers_model_and_doctor_never_show_a_key(tmp_path: Path) -> None:
    """A key pasted into --model was printed by providers --model -f json (its pretty view redacts it); a key in a
    scenario's base URL by doctor SCENARIO, in both views (pretty folded it across two lines)."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: f\n    parameters: {type: object}\nmessages:\n  - {role: user, content: hi}\n"
                        f"providers:\n  openai: {{base_url: 'http://127.0.0.1:9/{KEY}/v1'}}\n", encoding="utf-8")
    env = {"OPENAI_API_KEY": KEY, "COLUMNS": "60"}
    results = [run_cli(["providers", "--model", f"gpt-{KEY}", *fmt], env=env) for fmt in ([], ["-f", "json"])]
    for fmt in ([], ["-f", "json"]):  # a key's shape in the scenario's base URL is refused when it is read (trial15c)
        refused = run_cli(["doctor", str(scenario), *fmt], env=env)
        assert refused.returncode == 2 and "providers.openai.base_url holds" in refused.stderr, refused.stderr
        assert not [KEY[i:i + 12] for i in range(len(KEY) - 12) if KEY[i:i + 12] in refused.stdout + refused.stderr]
    scenario.write_text(scenario.read_text().replace(f"/{KEY}/", f"/zz{KEY}/"), encoding="utf-8")  # no key's shape
    results += [run_cli(["doctor", str(scenario), *fmt], env=env) for fmt in ([], ["-f", "json"])]
    for result in results:
        assert result.returncode == 0, result.stderr
        out = result.stdout + result.stderr
        assert "$OPENAI_API_KEY" in out, out
        joined = "".join(out.split())  # a key folded across lines is still a key
        assert not [KEY[i:i + 12] for i in range(len(KEY) - 12) if KEY[i:i + 12] in joined], out
