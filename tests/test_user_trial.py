"""Defects a new user hit in a trial of the command line (2026-11-26), each through the real CLI entry.

A setting the user wrote that toolchoice does not send must be in the ledger (the brief: every change to
what the user wrote is in the ledger); the truth here is the scenario text and the request body."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import run_cli

SCENARIO = """tools:
  - name: get_weather
    parameters: {{type: object, properties: {{city: {{type: string}}}}, required: [city]}}
tool_choice: auto
messages:
  - {{role: user, content: Weather in Paris?}}
providers:
  {pid}: {{thinking: {thinking}}}
"""
# The OpenAI-compatible hosts of providers/openai_chat.py but DeepSeek (which has its own thinking field).
CHAT_HOSTS = ("openai", "azure", "mistral", "groq", "openrouter", "fireworks", "together", "xai", "cerebras",
              "sambanova", "vllm", "llamacpp", "huggingface")
THINKING_KEYS = {"thinking", "reasoning", "reasoning_effort", "think", "enable_thinking", "chat_template_kwargs"}


def render(tmp_path: Path, pid: str, thinking: str) -> dict:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pid=pid, thinking=thinking))
    done = run_cli(["render", str(path), "-p", pid, "-f", "json"])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("pid", CHAT_HOSTS)
@pytest.mark.parametrize("thinking", ["true", "false", "adaptive", "{budget: 2048}"])
def test_a_thinking_setting_that_is_not_sent_is_in_the_ledger(tmp_path, pid, thinking):
    out = render(tmp_path, pid, thinking)
    body = out["request"]["body"]
    assert not THINKING_KEYS & set(body), body  # nothing of it went out ...
    said = [e for e in out["ledger"] if "thinking" in e["code"]]
    assert said, out["ledger"]  # ... and the ledger says so
    assert said[0]["severity"] == "warning" and f"providers.{pid}.thinking" in said[0]["message"]


@pytest.mark.parametrize("pid", ["xai", "vllm"])  # groq and mistral take it since 2026-11-27 (test_host_efforts.py)
def test_an_effort_where_no_effort_is_sent_is_in_the_ledger(tmp_path, pid):
    out = render(tmp_path, pid, "{effort: high}")
    assert "reasoning_effort" not in out["request"]["body"]
    assert any(e["code"] == "thinking.not_sent" for e in out["ledger"]), out["ledger"]


@pytest.mark.parametrize("pid", ["groq", "mistral"])
def test_groq_and_mistral_now_get_the_effort_in_their_own_field(tmp_path, pid):
    out = render(tmp_path, pid, "{effort: high}")  # high: a word of both SDKs' reasoning_effort
    assert out["request"]["body"]["reasoning_effort"] == "high"
    assert not any(e["code"] == "thinking.not_sent" for e in out["ledger"])


def test_an_effort_that_is_sent_needs_no_such_entry(tmp_path):
    out = render(tmp_path, "openai", "{effort: none}")  # gpt-5.4-mini takes function tools with none only
    assert out["request"]["body"]["reasoning_effort"] == "none"
    assert not any(e["code"] == "thinking.not_sent" for e in out["ledger"])


def test_a_missing_choice_argument_is_one_plain_line():
    """click words a missing Choice argument over several lines, each choice after a tab: folded, the tabs
    stayed in the one error line (`toolchoice schema`)."""
    done = run_cli(["schema"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("toolchoice: error: Missing argument 'name'. Choose from: scenario, render, send, compare, "
                           "run, parse, probe, mock (see toolchoice schema --help)\n")


# ---- a trace whose exporter cut a JSON attribute --------------------------------------------------------

TRACE = Path(__file__).resolve().parent / "data" / "traces" / "genai-span-events.json"


def cut_trace(tmp_path: Path, keep: int = 60) -> Path:
    """The recorded trace with step 1's gen_ai.choice ``message`` cut to ``keep`` characters, as an OTel SDK
    with OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT=keep truncates every string attribute value (OTel specification,
    "Attribute Limits": longer string values are truncated to the limit)."""
    document = json.loads(TRACE.read_text())
    span = document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    choice = next(e for e in span["events"] if e["name"] == "gen_ai.choice")
    message = next(a for a in choice["attributes"] if a["key"] == "message")
    whole = message["value"]["stringValue"]
    assert "get_weather" in whole and len(whole) > keep
    message["value"]["stringValue"] = whole[:keep]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(document))
    return path


def test_a_cut_json_attribute_in_a_trace_is_said_not_dropped_in_silence(tmp_path):
    path = cut_trace(tmp_path)
    done = run_cli(["trace", str(path)])
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stdout.splitlines() if line.startswith("# warning")]
    assert any("step 1" in line and "gen_ai.choice message" in line and "not JSON" in line for line in notes), notes
    replay = run_cli(["run", "--replay", str(path), "-p", "openai", "-f", "json"])
    ledger = json.loads(replay.stdout)["runs"][0]["loops"][0]["steps"][0]["ledger"]
    assert any("gen_ai.choice message" in e["message"] for e in ledger), ledger


def test_the_whole_trace_gets_no_such_note():
    done = run_cli(["trace", str(TRACE)])
    assert done.returncode == 0 and "not JSON" not in done.stdout


# ---- a budget, adaptive or an effort where only an on/off switch goes out ---------------------------------

@pytest.mark.parametrize("pid, field", [("cohere", "thinking"), ("ollama", "think"), ("deepseek", "thinking")])
@pytest.mark.parametrize("thinking, lost", [("{budget: 2048}", "budget 2048"), ("adaptive", "adaptive")])
def test_what_an_on_off_switch_cannot_carry_is_in_the_ledger(tmp_path, pid, field, thinking, lost):
    out = render(tmp_path, pid, thinking)
    assert field in out["request"]["body"]  # the switch went out ...
    said = [e for e in out["ledger"] if e["code"] == "thinking.not_sent"]
    assert said and lost in said[0]["message"] and said[0]["severity"] == "warning", out["ledger"]  # ... the rest is said


def test_an_effort_ollama_takes_is_sent_and_not_called_lost(tmp_path):
    out = render(tmp_path, "ollama", "{effort: low}")
    assert out["request"]["body"]["think"] == "low"
    assert not any(e["code"] == "thinking.not_sent" for e in out["ledger"])


def test_an_effort_cohere_has_no_field_for_is_said(tmp_path):
    out = render(tmp_path, "cohere", "{effort: high}")
    assert any(e["code"] == "thinking.not_sent" and "effort high" in e["message"] for e in out["ledger"])


# ---- bad input: the one line says what to do ---------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("tool_choice: {type: tool}", "s.yaml:4:14: tool_choice {\"type\":\"tool\"} names no tool (to force get_weather, "
     "write tool_choice: get_weather (or {type: tool, name: get_weather}); to force any tool, tool_choice: required)"),
    ("tool_choice: {allowed: [get_time, get_time], mode: required}",
     "s.yaml:4:14: the allowed list names 'get_time' twice (name each tool once)"),
    ("providers: {anthropic: {thinking: {budget: -1}}}",
     "s.yaml:4:44: providers.anthropic.thinking.budget must be a whole number of tokens (0 or more), not int -1 "
     "(e.g. thinking: {budget: 4096})"),
])
def test_the_error_line_says_what_to_do(tmp_path, line, expected):
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: get_weather}\n  - {name: get_time}\n" + line + "\n"
                    "messages: [{role: user, content: hi}]\n")
    done = run_cli(["render", str(path), "-f", "json"])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolchoice: error: {tmp_path}/{expected}\n"


# ---- an agent with many tools and no loop.results: one warning, not one per tool --------------------------

GORILLA = Path(__file__).resolve().parent / "data" / "schemas" / "bfcl-multi-turn-gorilla-file-system.json"


def test_many_tools_without_results_are_one_warning_naming_how_many(tmp_path):
    names = [t["name"] for t in json.loads(GORILLA.read_text())["tools"]]  # 18 tools, BFCL's gorilla file system
    path = tmp_path / "agent.yaml"
    path.write_text(f"tools:\n  - from: {GORILLA}\ntool_choice: auto\nmessages: [{{role: user, content: hi}}]\n")
    done = run_cli(["run", str(path), "-p", "openai", "--dry-run", "-f", "json"])
    assert done.returncode == 0, done.stderr
    found = [e for e in json.loads(done.stdout)["translations"][0]["ledger"] if e["code"] == "loop.no_results"]
    assert len(found) == 1, [e["message"][:60] for e in found]
    message = found[0]["message"]
    assert message.startswith(f"{len(names)} offered tools have no loop.results entry")
    assert all(f"'{name}'" in message for name in names[:10]) and f"and {len(names) - 10} more" in message


def test_a_line_break_in_a_history_tool_name_keeps_the_markdown_table_whole(tmp_path):
    """compare -f markdown: the ledger cell quotes the required-trap warning, which names the history's tool as
    written (a trace import keeps what the model wrote); a line break in it split the table row in two."""
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: plan, parameters: {type: object}}\ntool_choice: required\nmessages:\n"
                    "  - {role: user, content: hi}\n  - role: assistant\n"
                    '    tool_calls: [{id: c1, name: "a|b\\nc\\rd", arguments: {}}]\n'
                    "  - {role: tool, tool_call_id: c1, content: r}\n  - {role: user, content: again}\n")
    done = run_cli(["compare", str(path), "-p", "openai,gemini", "-f", "markdown"])
    assert done.returncode == 0, done.stderr
    table = [line for line in done.stdout.splitlines() if line.strip()]  # two providers: no mark, no legend
    assert len(table) == 4 and all(line.startswith("|") and line.endswith("|") for line in table), table


# ---- an empty folder option (an unset shell variable) is not the current folder ----------------------------

WEATHER = Path(__file__).resolve().parents[1] / "configs" / "weather.yaml"


@pytest.mark.parametrize("args", [
    ["render", str(WEATHER), "-p", "openai", "--snapshot", "", "--update"],
    ["render", str(WEATHER), "-p", "openai", "--snapshot=", "--update"],
    ["send", str(WEATHER), "-p", "openai", "--save", ""],
    ["run", str(WEATHER), "-p", "openai", "--save", ""],
    ["send", str(WEATHER), "-p", "openai", "--trace-out", ""],
])
def test_an_empty_folder_option_is_refused_and_the_current_folder_left_alone(tmp_path, args):
    """`--snapshot "$DIR" --update` with DIR unset made the current folder the snapshot folder and removed the
    files there that one render does not write; `--save ""` removes an earlier run's sample-* files there."""
    (tmp_path / "weather").mkdir()
    precious = [tmp_path / "weather" / "precious.json", tmp_path / "sample-001.reply.json"]
    for path in precious:
        path.write_text("{}")
    done = run_cli(args, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, (done.returncode, done.stderr)
    assert "is empty" in done.stderr
    assert all(path.exists() for path in precious)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["precious.json", "sample-001.reply.json", "weather"]


def test_save_naming_a_file_says_to_name_a_folder(tmp_path):
    (tmp_path / "afile").write_text("x")
    done = run_cli(["send", str(WEATHER), "-p", "openai", "--save", "afile"], cwd=tmp_path,
                   env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "unused"})
    assert done.returncode == 2
    assert done.stderr == ("toolchoice: error: --save afile: cannot create the folder: File exists (name a folder, "
                           "not a file: --save holds one file per sample)\n")


def test_a_local_server_s_optional_key_is_said_to_go_only_when_set(tmp_path):
    """vllm, llamacpp and ollama send their key variable only when it is set (transport: key_optional)."""
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: get_weather}\nmessages: [{role: user, content: hi}]\nproviders:\n"
                    "  vllm: {base_url: 'http://127.0.0.1:8000/v1'}\n  groq: {base_url: 'http://127.0.0.1:8000/v1'}\n")
    done = run_cli(["compare", str(path), "-p", "vllm,groq", "-f", "json"])
    said = {p["provider"]: [e["message"] for e in p["ledger"] if e["code"] == "env.key_destination"]
            for p in json.loads(done.stdout)["providers"]}
    assert said["vllm"][0].startswith("$VLLM_API_KEY (when set: this server needs no key) is sent in header")
    assert said["groq"][0].startswith("$GROQ_API_KEY is sent in header")


def test_an_overlay_of_another_provider_is_said_to_be_unused(tmp_path):
    """render -p openai --capabilities anthropic.caps.json: the overlay applies to anthropic only; it was left
    unused without a word (an overlay measured at another endpoint already says capabilities.overlay_skipped)."""
    overlay = tmp_path / "anthropic.caps.json"
    overlay.write_text(json.dumps({"toolchoice_capabilities": 1, "provider": "anthropic",
                                   "endpoint": "http://127.0.0.1:8000/v1/messages", "model": "m",
                                   "measured_at": "2026-11-26T18:00:00Z", "samples_per_question": 1,
                                   "features": {"required": {"result": "ignored"}}}))
    done = run_cli(["render", str(WEATHER), "-p", "openai", "--capabilities", str(overlay), "-f", "json"])
    assert done.returncode == 0, done.stderr
    said = [e for e in json.loads(done.stdout)["ledger"] if e["code"] == "capabilities.overlay_skipped"]
    assert said and "anthropic" in said[0]["message"], said


# ---- limits: a value that is not a number is said, not ignored ----------------------------------------------

def test_a_limit_variable_that_is_not_a_number_is_named_in_the_refusal(tmp_path):
    """TOOLCHOICE_LIMIT_<NAME> takes a positive whole number (docs/limits.md); 'lots' fell back to the default and
    the refusal told the user to set the variable they had just set."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 150 + "]" * 150)
    done = run_cli(["tools", str(deep)], env={"PATH": "/usr/bin:/bin", "TOOLCHOICE_LIMIT_JSON_DEPTH": "lots"})
    assert done.returncode == 2
    assert "TOOLCHOICE_LIMIT_JSON_DEPTH='lots' is not a positive whole number" in done.stderr, done.stderr


def test_only_a_limit_in_seconds_takes_a_decimal(tmp_path):
    """docs/limits.md: a limit in seconds takes a decimal (TOOLCHOICE_LIMIT_PATTERN_SECONDS=0.25); any other limit
    a whole number, so a depth of 1.5 is refused by name rather than read as 1 or as the default."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 150 + "]" * 150)
    done = run_cli(["tools", str(deep)], env={"PATH": "/usr/bin:/bin", "TOOLCHOICE_LIMIT_JSON_DEPTH": "1.5"})
    assert done.returncode == 2
    assert "TOOLCHOICE_LIMIT_JSON_DEPTH='1.5' is not a positive whole number" in done.stderr, done.stderr


def test_too_many_tools_reads_as_a_sentence(tmp_path):
    path = tmp_path / "s.yaml"
    tools = "".join(f"  - {{name: t{i}}}\n" for i in range(4))
    path.write_text(f"tools:\n{tools}messages: [{{role: user, content: hi}}]\n")
    done = run_cli(["render", str(path), "-f", "json"], env={"PATH": "/usr/bin:/bin", "TOOLCHOICE_LIMIT_TOOLS": "3"})
    assert done.returncode == 2
    assert done.stderr == (f"toolchoice: error: {path}:5:5: more than 3 tools in one scenario (limit tools) (raise it "
                           "with TOOLCHOICE_LIMIT_TOOLS=N (items) if you trust the input)\n")


# ---- send --stream keeps the stream's bytes, not every parsed event -----------------------------------------

def test_a_long_stream_costs_a_few_times_its_bytes_not_ten(tmp_path):
    """send --stream of 8 MiB of small SSE events from a real server on 127.0.0.1, in a process of its own:
    its peak RSS grew ~98 MB over a tiny stream's (~12x the bytes) while every parsed event was kept for a log
    no sample uses; 32 MiB (the stream_bytes bound) took ~400 MB. Measured by the kernel (ru_maxrss)."""
    import os
    import subprocess
    import sys
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    event = (b'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"'
             + b"a" * 88 + b'"}}]}\n\n')
    bodies = {"/small/v1/chat/completions": event * 10 + b"data: [DONE]\n\n",
              "/big/v1/chat/completions": event * (8 * 1024 * 1024 // len(event)) + b"data: [DONE]\n\n"}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            body = bodies[self.path]
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # each send runs under a wrapper process of its own, which reports its one child's peak (RUSAGE_CHILDREN of
    # this test process would hold the largest child any earlier test started)
    wrapper = ("import resource, subprocess, sys\n"
               "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n")
    try:
        peaks = []
        for name in ("small", "big"):
            url = f"http://127.0.0.1:{server.server_address[1]}/{name}/v1"
            done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "toolchoice.cli", "send",
                                   str(WEATHER), "-p", "openai", "--base-url", url, "--stream", "--retries", "0",
                                   "-f", "json"], env={**os.environ, "OPENAI_API_KEY": "unused"}, capture_output=True,
                                  text=True, timeout=120)
            code, peak = done.stdout.split()
            assert code in ("0", "4"), done.stderr[-500:]
            peaks.append(int(peak))
    finally:
        server.shutdown()
    grown = peaks[1] - peaks[0]
    assert grown < 6 * len(bodies["/big/v1/chat/completions"]), f"{grown / 2**20:.0f} MiB for an 8 MiB stream"


# ---- a setting only another provider reads ------------------------------------------------------------------

@pytest.mark.parametrize("pid, setting, reader", [
    ("anthropic", "region: eu-west-3", "bedrock"), ("openai", "deployment: my-gpt", "azure"),
    ("groq", "require_parameters: true", "openrouter"), ("openai", "schema_form: parameters", "gemini"),
    ("vllm", "api_version: '2024-10-21'", "azure"),
])
def test_a_setting_only_another_provider_reads_is_said_to_be_unread(tmp_path, pid, setting, reader):
    """docs/scenarios.md, per-provider settings: deployment, endpoint, api_version are Azure's, region Bedrock's,
    require_parameters OpenRouter's, schema_form Gemini's; written under another provider they did nothing."""
    path = tmp_path / "s.yaml"
    path.write_text(f"tools:\n  - {{name: get_weather}}\nmessages: [{{role: user, content: hi}}]\n"
                    f"providers:\n  {pid}: {{{setting}}}\n  {reader}: {{{setting}}}\n")
    done = run_cli(["compare", str(path), "-p", f"{pid},{reader}", "-f", "json"])
    assert done.returncode in (0, 3), done.stderr
    key = setting.split(":")[0]
    unread = {p["provider"]: [e for e in p["ledger"] if e["code"] == "settings.unread"]
              for p in json.loads(done.stdout)["providers"]}
    assert [e["severity"] for e in unread[pid]] == ["warning"]
    assert f"providers.{pid}.{key}" in unread[pid][0]["message"] and reader in unread[pid][0]["message"]
    assert unread[reader] == []


def test_init_into_a_json_file_writes_json(tmp_path):
    """`toolchoice init scenario.json` wrote commented YAML into a .json file: toolchoice reads it, json and jq do
    not. The JSON form holds the same scenario (no comments: JSON has none)."""
    done = run_cli(["init", "s.json"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "s.json").read_text())  # the standard library's reading, not toolchoice's
    assert [t["name"] for t in data["tools"]] == ["get_weather", "get_time"] and data["tool_choice"] == "get_weather"
    (tmp_path / "s.yaml").write_text("")
    rendered = run_cli(["render", "s.json", "-p", "openai", "-f", "json"], cwd=tmp_path)
    assert rendered.returncode == 0, rendered.stderr


def test_a_huge_value_in_an_error_is_cut_in_the_middle_and_the_end_kept(tmp_path):
    """tool_choice: <100,000 characters> gave a 100 kB error line; the line keeps its start, its end (what to do)
    and says how much it left out."""
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: get_weather}\ntool_choice: " + "x" * 100_000 + "\n"
                    "messages: [{role: user, content: hi}]\n")
    done = run_cli(["render", str(path), "-f", "json"])
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert len(done.stderr) < 2500, len(done.stderr)
    assert done.stderr.startswith(f"toolchoice: error: {path}:3:14: tool_choice names 'xxx")
    assert "characters left out" in done.stderr
    assert done.stderr.endswith("which is not a declared tool (declared: get_weather) (declare it under tools:, or use "
                                "auto, none, required or {tool: NAME})\n")


@pytest.mark.parametrize("value, said", [("sk-test-XYZ1234567890abcdef\n", "control character"),
                                         ("  sk-test-XYZ1234567890abcdef", "space at its start"),
                                         ("sk-test-XYZ1234567890abcd\u2013f", "non-ASCII character")])
def test_doctor_says_a_key_send_would_refuse(value, said):
    """doctor said 'OPENAI_API_KEY set' for a key every send refuses (a line ending from a .env file, ...)."""
    done = run_cli(["doctor", "-f", "json"], env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": value})
    row = next(r for r in json.loads(done.stdout)["keys"] if r["provider"] == "openai")
    assert row["ready"] is False and said in row["problem"], row
    pretty = run_cli(["doctor"], env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": value})
    assert any(line.lstrip().startswith("✘ openai ") for line in pretty.stdout.splitlines()), pretty.stdout
    assert "OPENAI_API_KEY set, but send refuses it: $OPENAI_API_KEY" in pretty.stdout
    assert said in " ".join(pretty.stdout.split())
    assert "XYZ1234567890" not in pretty.stdout + done.stdout


@pytest.mark.parametrize("written, shown", [('" required"', '" required"'), ('"get_weather "', '"get_weather "')])
def test_spaces_trimmed_from_a_tool_choice_are_in_the_ledger(tmp_path, written, shown):
    """A quoted tool_choice with spaces at its ends is read without them: the ledger says so, quoting the value
    so the spaces can be seen (the named one already had an entry, its spaces invisible)."""
    path = tmp_path / "s.yaml"
    path.write_text(f"tools:\n  - {{name: get_weather}}\ntool_choice: {written}\nmessages: [{{role: user, content: hi}}]\n")
    done = run_cli(["render", str(path), "-p", "openai", "-f", "json"])
    entries = [e["message"] for e in json.loads(done.stdout)["ledger"] if e["code"] == "tool_choice.spelling"]
    assert entries and entries[0].startswith(f"tool_choice {shown} read as"), entries


@pytest.mark.parametrize("pid, model, path", [("gemini", "gemini 3.5 flash", "/models/gemini%203.5%20flash:"),
                                              ("azure", "my gpt#1", "/deployments/my%20gpt%231/")])
def test_a_model_id_that_would_break_the_url_path_is_sent_as_the_sdk_sends_it(pid, model, path):
    """Gemini puts the model, Azure the deployment in the URL path: 'gemini 3.5 flash' rendered
    .../models/gemini 3.5 flash:generateContent (a space no URL can hold; '?' or '#' would end the path there).
    It is now one percent-encoded path segment, as google-genai and openai's AzureOpenAI put it there
    (test_gemini.py and test_openai_chat.py hold that to the SDKs)."""
    done = run_cli(["render", str(WEATHER), "-p", pid, "-m", model, "-f", "json"])
    assert done.returncode == 0, done.stderr
    url = json.loads(done.stdout)["request"]["url"]
    assert path in url and not any(ch in url.split("://", 1)[1] for ch in " #"), url


def test_a_gemini_model_id_naming_another_resource_is_refused_as_google_genai_refuses_it():
    done = run_cli(["render", str(WEATHER), "-p", "gemini", "-m", "gemini=tuned?x=1", "-f", "json"])
    assert done.returncode == 2 and "google-genai refuses" in done.stderr, done.stderr


def test_model_ids_with_slashes_and_colons_still_go(tmp_path):
    for pid, model in (("gemini", "tunedModels/my-model-123"), ("azure", "gpt-4o.2024"), ("bedrock", "us.anthropic.claude:0")):
        done = run_cli(["render", str(WEATHER), "-p", pid, "-m", model, "-f", "json"])
        assert not [e for e in json.loads(done.stdout)["ledger"] if e["code"] == "endpoint.path_invalid"], (pid, model)


@pytest.mark.parametrize("value", ["nan", "inf", "1e12"])
def test_results_timeout_is_bounded_like_every_time(value):
    """--results-timeout took nan (which compares false with every bound), inf and 1e12; --timeout and
    from: {timeout} stop at 3600 s (docs/limits.md: time is bounded by the options that say so)."""
    done = run_cli(["run", str(WEATHER), "-p", "openai", "--results-timeout", value, "--dry-run"])
    assert done.returncode == 2 and done.stdout == "" and "--results-timeout" in done.stderr, done.stderr


@pytest.mark.parametrize("command", ["send", "compare"])
def test_min_obeyed_nan_is_refused_not_a_gate_that_never_closes(command, tmp_path):
    """--min-obeyed nan passed the option's 0..1 range (nan compares false with both ends) and, every rate
    compared with it false too, exited 0 with 0 of 2 obeyed: a CI gate silently off. Refused before sending."""
    args = [command, str(WEATHER), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--repeat", "2",
            "--min-obeyed", "nan", "--retries", "0"] + (["--send"] if command == "compare" else [])
    done = run_cli(args, env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "unused"})
    assert done.returncode == 2 and "--min-obeyed" in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_a_refused_row_does_not_say_its_tools_are_sent(tmp_path):
    """compare: a REFUSED request sends nothing, yet its row said '1 sent' tools and parallel 'sent'."""
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: get.weather}\ntool_choice: required\nparallel_tool_calls: false\n"
                    "messages: [{role: user, content: hi}]\n")
    done = run_cli(["compare", str(path), "-p", "openai,gemini", "-f", "markdown"])
    assert done.returncode == 3, done.stderr
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[1:-1]]
            for line in done.stdout.splitlines() if line.startswith("| openai") or line.startswith("| gemini")}
    header = [c.strip() for c in done.stdout.splitlines()[0].split("|")[1:-1]]
    openai = dict(zip(header, rows["openai"]))
    assert "REFUSED" in openai["tool_choice on the wire"]
    assert "sent" not in openai["tools"] and "sent" not in openai["parallel"], openai
    gemini = dict(zip(header, rows["gemini"]))  # gemini takes dotted names: sent
    assert "1 sent" in gemini["tools"], gemini


def test_replaying_saved_streams_without_stream_is_one_line_saying_add_stream(tmp_path):
    """run --stream --save DIR, then run --replay DIR without --stream: every step failed as a
    'transport_error: connection failed' (exit 1) whose end said to add --stream; now one line, exit 2."""
    loop_dir = tmp_path / "runs" / "openai" / "loop-001"
    loop_dir.mkdir(parents=True)
    event = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "hi"},
                                                                      "finish_reason": "stop"}]}
    (loop_dir / "step-01.response.txt").write_text(f"data: {json.dumps(event)}\n\ndata: [DONE]\n\n")
    done = run_cli(["run", str(WEATHER), "-p", "openai", "--replay", str(tmp_path / "runs")])
    assert (done.returncode, done.stdout) == (2, ""), done.stdout[-400:]
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("replay it with --stream\n"), done.stderr
    streamed = run_cli(["run", str(WEATHER), "-p", "openai", "--replay", str(tmp_path / "runs"), "--stream"])
    assert streamed.returncode == 0, streamed.stdout[-400:] + streamed.stderr
