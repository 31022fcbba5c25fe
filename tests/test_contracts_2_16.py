"""Contracts of the ended issues 2-16: every interface an issue spelled out (a command, a flag, a
scenario key, a ledger code, an exit code, a JSON key, a file name, an environment variable), held in
the issue's exact spelling. The truth is the issue's text (`issues show N`), not this code's output; each
test's docstring names the issue and quotes the words it holds.

Where a later issue renamed a spelling on purpose, the test holds the later spelling and says so
(issue 14: a repeated send's latency distribution is ``latency_percentiles_ms``; issue 29: a probe
question none of whose samples arrived is "did not arrive", not "inconclusive"; issue 29: a dry run
starts an MCP server only under ``--live-mcp``).

Cheap by design: in-process (tests/cli.py), offline where the issue's point is not the network, one
module-scoped stand-in server (tests/servers.py) for the few checks that send."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import socket
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli
from servers import StandIn, Step

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "configs"
WEATHER = str(CONFIGS / "weather.yaml")
TRAP = str(CONFIGS / "planner-trap.yaml")
REPLAY = ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m"

# issue 2: "Use exactly these ids."
ISSUE2_IDS = ("openai", "openai-responses", "anthropic", "gemini", "mistral", "groq", "deepseek", "ollama",
              "bedrock", "cohere", "azure", "fireworks", "together", "openrouter", "xai", "vllm", "llamacpp",
              "huggingface")
# issue 3: "Keys come from each provider's conventional env vars (...)"
ISSUE3_KEYS = {"openai": ("OPENAI_API_KEY",), "anthropic": ("ANTHROPIC_API_KEY",),
               "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "mistral": ("MISTRAL_API_KEY",),
               "groq": ("GROQ_API_KEY",), "deepseek": ("DEEPSEEK_API_KEY",),
               "cohere": ("CO_API_KEY", "COHERE_API_KEY"), "azure": ("AZURE_OPENAI_API_KEY",),
               "fireworks": ("FIREWORKS_API_KEY",), "together": ("TOGETHER_API_KEY",),
               "openrouter": ("OPENROUTER_API_KEY",), "xai": ("XAI_API_KEY",), "huggingface": ("HF_TOKEN",),
               "bedrock": ("AWS_BEARER_TOKEN_BEDROCK",)}
ALL_KEY_VARS = {v for names in ISSUE3_KEYS.values() for v in names}
OPENAI_KEY = "sk-contract-2-16-canary-7f3a91"


def env(**extra: str) -> dict[str, str]:
    """The test's environment without any provider key (a developer's real key never reaches a test)."""
    out = {k: v for k, v in os.environ.items()
           if k not in ALL_KEY_VARS and "proxy" not in k.lower() and not k.startswith("TOOLCHOICE_")}
    out.update({"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "120"})
    out.update(extra)
    return out


def cli(*args: str, **extra: str) -> Any:
    return run_cli([str(a) for a in args], env=env(**extra))


def as_json(*args: str, **extra: str) -> Any:
    result = cli(*args, **extra)
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


def options(command: str) -> set[str]:
    """Every flag spelling ``toolchoice COMMAND`` takes, and its arguments' names."""
    import typer

    from toolchoice.cli.app import build

    click_command = typer.main.get_command(build([command])).commands[command]
    return {o for p in click_command.params for o in (*p.opts, *p.secondary_opts)}


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def codes(document: dict[str, Any]) -> list[str]:
    return [e["code"] for e in document["ledger"]]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def chat_body(calls: list[tuple[str, str]]) -> dict[str, Any]:
    """An OpenAI chat completion in the shape of the API reference's example object (a text reply when
    ``calls`` is empty, else tool calls with JSON-string arguments)."""
    tool_calls = [{"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
                  for i, (n, a) in enumerate(calls)]
    message: dict[str, Any] = {"role": "assistant", "content": None if calls else "Hello there."}
    if calls:
        message["tool_calls"] = tool_calls
    return {"id": "chatcmpl-123", "object": "chat.completion", "created": 1677652288, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}}


@pytest.fixture(scope="module")
def stand_in():
    with StandIn("openai") as s:
        yield s


@pytest.fixture
def server(stand_in):
    """One OpenAI stand-in for the module; each test starts with no scripted answers left by another."""
    with stand_in._lock:
        stand_in.steps.clear()
    stand_in.default = Step.reply("openai")
    yield stand_in


# ---------------------------------------------------------------------------------------------------
# issue 2: the spine


def test_issue2_layout_and_package_names():
    """Issue 2: "Top level: `pyproject.toml`, `cli/`, `providers/`, `configs/`, `tests/`, `README.md` (plus
    `.ci/run`, and `bench/` later). Import name `toolchoice`: map `toolchoice.cli` → `cli/` and
    `toolchoice.providers` → `providers/` ... A console script `toolchoice`." and configs/ "`weather.yaml`,
    `planner-trap.yaml`, `think-forced.yaml`, `none-with-history.yaml`"."""
    for name in ("pyproject.toml", "cli", "providers", "configs", "tests", "README.md", ".ci/run", "bench"):
        assert (ROOT / name).exists(), name
    for name in ("weather.yaml", "planner-trap.yaml", "think-forced.yaml", "none-with-history.yaml"):
        assert (CONFIGS / name).is_file(), name
    pyproject = (ROOT / "pyproject.toml").read_text()
    scripts = pyproject.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    assert scripts.strip().startswith("toolchoice = ")
    package_dir = pyproject.split("[tool.setuptools.package-dir]", 1)[1].split("\n[", 1)[0]
    assert '"toolchoice.cli" = "cli"' in package_dir and '"toolchoice.providers" = "providers"' in package_dir


def test_issue2_render_json_one_provider_is_the_documented_object():
    """Issue 2: "`--format json` prints exactly one JSON document: for one provider an object `{"provider",
    "requested_tool_choice", "effective_tool_choice", "request": {"method","url","headers","body"},
    "ledger": [...]}`" with ledger entries "`{severity: info|warning|error, code, message}`"."""
    doc = as_json("render", WEATHER, "--provider", "openai", "--format", "json")
    assert isinstance(doc, dict)
    assert {"provider", "requested_tool_choice", "effective_tool_choice", "request", "ledger"} <= set(doc)
    assert doc["provider"] == "openai"
    assert set(doc["request"]) == {"method", "url", "headers", "body"}
    assert doc["ledger"] and all(set(e) == {"severity", "code", "message"} for e in doc["ledger"])
    assert all(e["severity"] in ("info", "warning", "error") for e in doc["ledger"])
    # "effective_tool_choice is the value at the provider's tool-choice location"
    assert doc["effective_tool_choice"] == doc["request"]["body"]["tool_choice"] == "auto"


def test_issue2_every_provider_id_and_provider_all():
    """Issue 2: "`openai`, `openai-responses`, ..., `huggingface`. Use exactly these ids." and
    "`[--provider ID]... [--provider all]` ... for several, a list of those"."""
    several = as_json("render", WEATHER, "--provider", "openai", "--provider", "anthropic", "--format", "json")
    assert [d["provider"] for d in several] == ["openai", "anthropic"]
    every = as_json("render", WEATHER, "--provider", "all", "--format", "json")
    assert isinstance(every, list)
    assert set(ISSUE2_IDS) <= {d["provider"] for d in every}
    for pid in ISSUE2_IDS:
        one = cli("render", WEATHER, "--provider", pid, "--format", "json")
        assert one.returncode == 0 and json.loads(one.stdout)["provider"] == pid, (pid, one.stderr)


def test_issue2_keys_are_env_placeholders_in_headers():
    """Issue 2: "headers show `$ENV_VAR` placeholders (e.g. `Authorization: Bearer $OPENAI_API_KEY`), never a
    value"."""
    doc = as_json("render", WEATHER, "--provider", "openai", "--format", "json", OPENAI_API_KEY=OPENAI_KEY)
    assert doc["request"]["headers"]["Authorization"] == "Bearer $OPENAI_API_KEY"
    assert OPENAI_KEY not in json.dumps(doc)


@pytest.mark.parametrize("spelling, requested", [
    ("auto", "auto"), ("none", "none"), ("required", "required"), ("any", "required"), ("true", "required"),
    ("false", None), ("null", None), ("get_weather", {"tool": "get_weather"}),
    ("{tool: get_weather}", {"tool": "get_weather"}),
    ("{allowed: [get_weather, get_time], mode: required}", {"allowed": ["get_weather", "get_time"],
                                                             "mode": "required"}),
    ('{"type":"function","function":{"name":"get_weather"}}', {"tool": "get_weather"}),
    ('{"type":"function","name":"get_weather"}', {"tool": "get_weather"}),
    ('{"type":"tool","name":"get_weather"}', {"tool": "get_weather"}),
    ('{"type":"any"}', "required"),
    ("{mode: ANY}", "required"),
])
def test_issue2_neutral_tool_choice_spellings(spelling, requested):
    """Issue 2: "Accept every spelling ...: `auto`, `none`, `required`, `any`, `true` (= required), `false` and
    `null`/absent (= not specified: omit the field), a tool name, `{tool: NAME}`, `{allowed: [a, b], mode:
    auto|required}`, and provider-native dicts (OpenAI chat ..., Responses ..., Anthropic ..., Gemini-style
    modes)" and "`--tool-choice VALUE` on the command line overrides the file"."""
    doc = as_json("render", WEATHER, "-p", "openai", "--tool-choice", spelling, "-f", "json")
    assert doc["requested_tool_choice"] == requested
    if requested is None:  # "omit the field"
        assert "tool_choice" not in doc["request"]["body"] and doc["effective_tool_choice"] is None


def test_issue2_undeclared_tool_name_lists_the_declared_tools():
    """Issue 2: "A name that is not a declared tool is an error that lists the declared tools." (exit 2)"""
    result = cli("render", WEATHER, "-p", "openai", "--tool-choice", "no_such_tool")
    assert result.returncode == 2
    assert "get_weather" in result.stderr and "get_time" in result.stderr and "Traceback" not in result.stderr


def test_issue2_validation_error_names_file_line_column_and_did_you_mean(tmp_path):
    """Issue 2: "Validation errors name the file, the line and column, what is wrong and how to fix it ("did you
    mean tool_choice?"), exit code 2, no traceback." """
    path = write(tmp_path, "typo.yaml", "tools:\n  - {name: a, description: A., parameters: {type: object}}\n"
                                        "toolchoise: auto\nmessages:\n  - {role: user, content: hi}\n")
    result = cli("render", path, "-p", "openai")
    assert result.returncode == 2
    line = result.stderr.strip()
    assert "\n" not in line and "typo.yaml:3:1" in line and "did you mean tool_choice?" in line


@pytest.mark.parametrize("text", [
    # duplicate tool names
    "tools:\n  - {name: a, parameters: {type: object}}\n  - {name: a, parameters: {type: object}}\n"
    "messages: [{role: user, content: x}]\n",
    # a message role that does not exist
    "tools: [{name: a, parameters: {type: object}}]\nmessages: [{role: usr, content: x}]\n",
    # a tool result whose tool_call_id matches no earlier call
    "tools: [{name: a, parameters: {type: object}}]\n"
    "messages: [{role: user, content: x}, {role: tool, tool_call_id: nope, content: y}]\n",
    # an object tag (never executed)
    "tools: !!python/object/apply:os.system [echo pwned]\nmessages: [{role: user, content: x}]\n",
    # a wrong type
    "tools: [{name: a, parameters: {type: object}}]\nparallel_tool_calls: maybe\n"
    "messages: [{role: user, content: x}]\n",
])
def test_issue2_errors_for_bad_scenarios(tmp_path, text):
    """Issue 2: "Duplicate tool names, unknown keys, wrong types, a message role that does not exist, a tool
    result whose `tool_call_id` matches no earlier call: all errors" and "no object tags" — exit 2, one line
    naming the file and line."""
    path = write(tmp_path, "bad.yaml", text)
    result = cli("render", path, "-p", "openai")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "bad.yaml:" in result.stderr and "Traceback" not in result.stderr


def test_issue2_exit_codes_and_refused_request_is_null():
    """Issue 2: "Exit codes, documented: 0 rendered (warnings allowed), 2 bad input or usage, 3 refused (an error
    in the ledger, or a warning under `--strict`)" and "`request` is null when refused"."""
    assert cli("render", TRAP, "-p", "openai", "-f", "json").returncode == 0  # warns (the required trap)
    refused = cli("render", TRAP, "-p", "openai", "-f", "json", "--strict")
    assert refused.returncode == 3 and json.loads(refused.stdout)["request"] is None
    assert cli("render", TRAP, "-p", "no-such-provider").returncode == 2
    assert cli("render", TRAP, "-p", "openai", "--format", "yaml").returncode == 2
    # --no-emulate: "sends only what the provider supports natively" — Ollama cannot enforce required
    assert cli("render", TRAP, "-p", "ollama", "--no-emulate", "-f", "json").returncode == 3


def test_issue2_required_trap_and_pitfall_codes(tmp_path):
    """Issue 2's pitfall lint: "the required trap" (`pitfall.required_trap`, README), "`none` with tool calls in
    the history; `tools: []` written explicitly", and "tool_choice on a provider that ignores it (Ollama ...)"."""
    assert "pitfall.required_trap" in codes(as_json("render", TRAP, "-p", "openai", "-f", "json"))
    none_history = as_json("render", str(CONFIGS / "none-with-history.yaml"), "-p", "openai", "-f", "json")
    assert "pitfall.none_with_history" in codes(none_history)
    empty = write(tmp_path, "empty.yaml", "tools: []\nmessages: [{role: user, content: x}]\n")
    assert "pitfall.empty_tools" in codes(as_json("render", empty, "-p", "openai", "-f", "json"))
    ollama = as_json("render", TRAP, "-p", "ollama", "-f", "json")
    assert "tool_choice.ignored" in codes(ollama) and ollama["effective_tool_choice"] is None


def test_issue2_curl_is_paste_safe():
    """Issue 2: "`--format curl` prints a paste-safe command (valid shell, keys as `$VARS`, body valid JSON)"."""
    result = cli("render", TRAP, "-p", "anthropic", "-f", "curl", ANTHROPIC_API_KEY="sk-ant-contract-canary-1")
    assert result.returncode == 0 and "sk-ant-contract-canary-1" not in result.stdout
    words = shlex.split(result.stdout, comments=True)  # raises on unbalanced quoting
    assert "curl" in words and any("$ANTHROPIC_API_KEY" in w for w in words)
    body = words[words.index("printf") + 2]
    assert json.loads(body)["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}


def test_issue2_providers_matrix_has_every_feature_and_a_source():
    """Issue 2: "`toolchoice providers [--format json]`: the support matrix (auto/none/required/any/named/allowed/
    parallel/strict/argument encoding, native ✔ / emulated ≈ / unsupported ✘) ... each row with its source"."""
    rows = as_json("providers", "--format", "json")
    assert set(ISSUE2_IDS) <= {r["provider"] for r in rows}
    for row in rows:
        for feature in ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict"):
            assert row[feature]["level"] in ("native", "renamed", "emulated", "unsupported"), (row["provider"], feature)
        assert row["arguments"] in ("string", "object") and row["sources"], row["provider"]
    pretty = cli("providers", COLUMNS="200").stdout
    assert "✔" in pretty and "≈" in pretty and "✘" in pretty


def test_issue2_scenario_provider_settings_keys(tmp_path):
    """Issue 2's scenario: `providers:` with `model`, `max_tokens`, `thinking`, azure `deployment`, `endpoint`,
    `api_version`, `base_url`, and "`extra: {...}` is merged into the body last"."""
    path = write(tmp_path, "s.yaml", """
tools: [{name: plan_tool_call, description: Plan., parameters: {type: object, properties: {steps: {type: array}}}}]
tool_choice: required
parallel_tool_calls: false
system: You are a planner.
messages: [{role: user, content: Now make a plan}]
providers:
  openai: {model: gpt-4o-mini, extra: {seed: 7}}
  anthropic: {model: claude-sonnet-4-5, max_tokens: 1024, thinking: false}
  azure: {deployment: my-gpt4o, endpoint: "https://example.openai.azure.com", api_version: "2024-10-21"}
  vllm: {model: my-model, base_url: "http://127.0.0.1:8000/v1"}
""")
    docs = {d["provider"]: d for d in as_json("render", path, "-p", "openai,anthropic,azure,vllm", "-f", "json")}
    assert docs["openai"]["request"]["body"]["seed"] == 7
    assert docs["openai"]["request"]["body"]["model"] == "gpt-4o-mini"
    assert docs["anthropic"]["request"]["body"]["max_tokens"] == 1024
    assert docs["azure"]["request"]["url"] == ("https://example.openai.azure.com/openai/deployments/my-gpt4o/"
                                               "chat/completions?api-version=2024-10-21")
    assert docs["vllm"]["request"]["url"] == "http://127.0.0.1:8000/v1/chat/completions"


# ---------------------------------------------------------------------------------------------------
# issue 3: send and parse


def test_issue3_send_and_parse_flags():
    """Issue 3: "`toolchoice send SCENARIO --provider ID [--tool-choice V] [--model M] [--base-url URL] [--timeout
    S] [--retries N] [--repeat N] [--concurrency K] [--format pretty|json] [--save DIR] [--raw] [--dry-run]
    [--strict]`" and "`toolchoice parse RESPONSE.json --provider ID [--scenario FILE] [--tool-choice V] [--format
    pretty|json]`"."""
    assert {"--provider", "--tool-choice", "--model", "--base-url", "--timeout", "--retries", "--repeat",
            "--concurrency", "--format", "--save", "--raw", "--dry-run", "--strict"} <= options("send")
    assert {"--provider", "--scenario", "--tool-choice", "--format"} <= options("parse")


@pytest.mark.parametrize("provider", sorted(ISSUE3_KEYS))
def test_issue3_missing_key_names_the_variable_before_any_connection(provider):
    """Issue 3: "Keys come from each provider's conventional env vars (`OPENAI_API_KEY`, ..., `HF_TOKEN`,
    `AWS_BEARER_TOKEN_BEDROCK` for Bedrock API keys ...). A missing key is a clear error naming the variable,
    before any connection." (The base URL is a closed port: a connection attempt would fail otherwise.)"""
    base = f"http://127.0.0.1:{closed_port()}" + ("" if provider in ("anthropic", "gemini") else "/v1")
    result = cli("send", WEATHER, "-p", provider, "--base-url", base)
    assert result.returncode != 0 and result.stdout == ""
    line = result.stderr
    assert all(name in line for name in ISSUE3_KEYS[provider]), line
    assert "connection" not in line


def test_issue3_send_json_document_and_saved_files(server, tmp_path):
    """Issue 3: "`--format json`: `{"provider", "request" (keys redacted), "reply", "verdict", "ledger",
    "latency_ms"}`", the reply "`tool_calls: [{id, name, arguments}]` ..., `text`, `finish_reason` ..., `usage`",
    the verdict "`{"obeyed": bool, "category", "reasons": [...]}`", and "`--save DIR` writes, per sample, the
    redacted request, the raw response and the parsed reply as JSON files that `parse` can read back"."""
    server.script(Step(body=chat_body([("get_weather", '{"city": "Paris"}')])))
    saved = tmp_path / "saved"
    result = cli("send", WEATHER, "-p", "openai", "--base-url", server.base_url(), "-f", "json", "--save",
                 str(saved), OPENAI_API_KEY=OPENAI_KEY)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert {"provider", "request", "reply", "verdict", "ledger", "latency_ms"} <= set(doc)
    assert isinstance(doc["latency_ms"], (int, float))
    assert {"tool_calls", "text", "finish_reason", "usage"} <= set(doc["reply"])
    assert doc["reply"]["tool_calls"] == [{"id": "call_0", "name": "get_weather", "arguments": {"city": "Paris"}}]
    assert {"obeyed", "category", "reasons"} <= set(doc["verdict"]) and doc["verdict"]["obeyed"] is True
    names = sorted(p.name for p in saved.iterdir())
    assert names == ["sample-001.reply.json", "sample-001.request.json", "sample-001.response.json"]
    assert OPENAI_KEY not in "".join(p.read_text() for p in saved.iterdir()) + result.stdout
    back = as_json("parse", str(saved / "sample-001.response.json"), "--provider", "openai", "--scenario", WEATHER,
                   "--format", "json")
    assert back["reply"]["tool_calls"] == doc["reply"]["tool_calls"] and back["verdict"]["category"] == "obeyed"


def test_issue3_repeat_document(server):
    """Issue 3: "`--format json` gives `{"samples": N, "counts": {category: n}, "rates": …, "latency_ms": …,
    "results": [...]}`" — with issue 14's deliberate rename: "`latency_ms` is a number for one sample and an
    object with `--repeat`" was fixed by naming the distribution `latency_percentiles_ms` (the shipped send
    schema forbids `latency_ms` there), so that is the spelling held here."""
    server.script(*[Step(body=chat_body([("get_weather", '{"city": "Paris"}')])) for _ in range(3)])
    doc = as_json("send", WEATHER, "-p", "openai", "--base-url", server.base_url(), "--repeat", "3",
                  "--concurrency", "2", "-f", "json", OPENAI_API_KEY=OPENAI_KEY)
    assert doc["samples"] == 3 and doc["counts"]["obeyed"] == 3 and len(doc["results"]) == 3
    assert set(doc["rates"]["obeyed"]) >= {"rate", "low", "high"}
    assert set(doc["latency_percentiles_ms"]) >= {"p50", "p95"}


@pytest.mark.parametrize("calls, choice, category", [
    ([("read_file", '{"path": "x"}')], None, "phantom_tool"),
    ([], None, "no_call"),
    ([("plan_tool_call", '{"steps": []}'), ("plan_tool_call", '{"steps": []}')], None, "too_many_calls"),
    ([("plan_tool_call", '{"steps": 5}')], None, "invalid_arguments"),
    ([("plan_tool_call", '{"steps": []}')], "none", "unwanted_call"),
    ([("plan_tool_call", '{"steps": []}')], None, "obeyed"),
])
def test_issue3_verdict_categories_and_exit_4(tmp_path, calls, choice, category):
    """Issue 3: "Categories, first match wins: `error`, `phantom_tool` (... e.g. `read_file` from the history in the
    required trap), `wrong_tool`, `unwanted_call`, `no_call`, `too_many_calls`, `invalid_arguments` (... show each
    error's path), `obeyed`" and "4 the reply disobeyed tool_choice"."""
    body = write(tmp_path, "r.json", json.dumps(chat_body(calls)))
    args = ["parse", body, "--provider", "openai", "--scenario", TRAP, "--format", "json"]
    result = cli(*args, *(["--tool-choice", choice] if choice else []))
    verdict = json.loads(result.stdout)["verdict"]
    assert verdict["category"] == category
    assert result.returncode == (0 if category == "obeyed" else 4)
    if category == "invalid_arguments":
        assert any("$.steps" in r for r in verdict["reasons"])


def test_issue3_wrong_tool(tmp_path):
    """Issue 3: "`wrong_tool` (forced X, called another offered tool ...)"."""
    body = write(tmp_path, "r.json", json.dumps(chat_body([("get_time", '{"timezone": "UTC"}')])))
    doc = as_json("parse", body, "-p", "openai", "--scenario", WEATHER, "--tool-choice", "get_weather", "-f", "json")
    assert doc["verdict"]["category"] == "wrong_tool"


def test_issue3_error_line_and_exit_codes(server):
    """Issue 3: errors read the provider's own shape "into one line: `anthropic: 400 invalid_request_error: …`",
    and exit codes "1 network or provider error ... 3 refused translation"."""
    server.script(Step(status=400, body={"type": "error", "error": {"type": "invalid_request_error",
                                                                     "message": "tools.0: bad schema"}}))
    result = cli("send", WEATHER, "-p", "anthropic", "--base-url", server.url, "--retries", "0", "-f", "json",
                 ANTHROPIC_API_KEY="sk-ant-contract-canary-2")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"] == "anthropic: 400 invalid_request_error: tools.0: bad schema"
    refused = cli("send", TRAP, "-p", "openai", "--base-url", server.base_url(), "--strict",
                  OPENAI_API_KEY=OPENAI_KEY)
    assert refused.returncode == 3


def test_issue3_dry_run_is_exactly_render():
    """Issue 3: "`--dry-run` is exactly `render` for that provider: no socket is opened."""
    for fmt in ("json", "curl"):
        sent = cli("send", TRAP, "-p", "gemini", "--dry-run", "-f", fmt)
        rendered = cli("render", TRAP, "-p", "gemini", "-f", fmt)
        assert sent.returncode == rendered.returncode == 0 and sent.stdout == rendered.stdout


# ---------------------------------------------------------------------------------------------------
# issue 4: compare


def test_issue4_compare_flags_and_dry_run_document():
    """Issue 4: "`toolchoice compare SCENARIO [--providers a,b,c | all] [--tool-choice V] [--send] [--repeat N]
    [--concurrency K] [--format pretty|json|markdown] [--strict]`" and "`--format json`: `{"scenario",
    "providers": [{"provider", "request" (keys redacted), "ledger", ...}], "diff"?}`"; "Default provider set:
    all 18, or the ones named under `providers:` in the scenario when it names any."""
    assert {"--providers", "--tool-choice", "--send", "--repeat", "--concurrency", "--format",
            "--strict"} <= options("compare")
    doc = as_json("compare", TRAP, "--providers", "openai,anthropic", "--format", "json")
    assert {"scenario", "providers"} <= set(doc) and doc["scenario"].endswith("planner-trap.yaml")
    assert [p["provider"] for p in doc["providers"]] == ["openai", "anthropic"]
    assert all({"provider", "request", "ledger"} <= set(p) for p in doc["providers"])
    assert set(ISSUE2_IDS) <= {p["provider"] for p in as_json("compare", TRAP, "--providers", "all",
                                                               "-f", "json")["providers"]}
    named = as_json("compare", str(CONFIGS / "think-forced.yaml"), "-f", "json")["providers"]
    # the scenario's providers: section (openai, anthropic, gemini, cohere, ollama, llamacpp), in its order
    assert [p["provider"] for p in named] == ["openai", "anthropic", "gemini", "cohere", "ollama", "llamacpp"]


def test_issue4_markdown_and_refused_exit():
    """Issue 4: "`--format markdown`: a table that pastes into an issue" and exit "3 some translation refused"."""
    table = cli("compare", TRAP, "--providers", "openai,anthropic", "--format", "markdown").stdout
    assert table.lstrip().startswith("| provider |") and "|---|" in table.replace(" ", "")
    assert cli("compare", TRAP, "--providers", "openai,anthropic", "--strict").returncode == 3


def test_issue4_send_document_and_skipped_provider(server):
    """Issue 4: "`--send`: ... Providers without a key are skipped with the variable to set" and each provider
    entry "`"reply"?, "verdict"?, "error"?, "latency_ms"?`"; exit "4 some reply disobeyed"."""
    server.script(Step(body=chat_body([])))  # a text reply under required: disobeyed
    result = cli("compare", TRAP, "--providers", "openai,anthropic", "--send", "--base-url", server.base_url(),
                 "-f", "json", OPENAI_API_KEY=OPENAI_KEY)
    doc = json.loads(result.stdout)
    entries = {p["provider"]: p for p in doc["providers"]}
    assert {"reply", "verdict", "error", "latency_ms"} <= set(entries["openai"])
    assert entries["openai"]["verdict"]["category"] == "no_call"
    assert "ANTHROPIC_API_KEY" in entries["anthropic"]["error"]
    assert result.returncode == 4


# ---------------------------------------------------------------------------------------------------
# issue 5: bench and hardening layout


def test_issue5_bench_script_and_bad_input_corpus():
    """Issue 5: "A script under `bench/` ..." and "Bad input corpus (≥ 30 files under `tests/data/bad/`, each with
    the error it must produce)"."""
    assert (ROOT / "bench" / "run.py").is_file()
    bad = ROOT / "tests" / "data" / "bad"
    assert len([p for p in bad.iterdir() if p.is_file()]) >= 30


# ---------------------------------------------------------------------------------------------------
# issue 6: probe and capability overlays


def test_issue6_probe_classifies_and_saves_an_overlay_render_uses(server, tmp_path):
    """Issue 6: "`toolchoice probe --provider ID [--base-url URL] [--model M] [--repeat N] [--format pretty|json]
    [--save FILE]` (or `probe SCENARIO`)", each question "`honored` ..., `ignored` ..., `rejected` ..., or
    `inconclusive`", and "`render`/`compare` accept `--capabilities FILE` and then use measured facts ... with
    the overlay named in the ledger"."""
    assert {"--provider", "--base-url", "--model", "--repeat", "--format", "--save"} <= options("probe")
    server.default = Step(body=chat_body([("get_weather", '{"city": "Paris"}')]))
    overlay = tmp_path / "caps.json"
    result = cli("probe", WEATHER, "--provider", "openai", "--base-url", server.base_url(), "--model", "gpt-4o",
                 "--repeat", "1", "--format", "json", "--save", str(overlay), OPENAI_API_KEY=OPENAI_KEY)
    doc = json.loads(result.stdout)
    results = {q["result"] for q in doc["questions"]}
    assert results <= {"honored", "ignored", "rejected", "inconclusive"} and "honored" in results
    assert "ignored" in results  # a call under none: "a call under none" is the issue's own example
    assert overlay.is_file()
    for command in ("render", "compare"):
        out = as_json(command, WEATHER, "-p", "openai", "--base-url", server.base_url(), "--capabilities",
                      str(overlay), "-f", "json")
        entry = out if command == "render" else out["providers"][0]
        assert "capabilities.overlay" in codes(entry)


def test_issue6_realmodel_marker_and_ci_step():
    """Issue 6: "A `realmodel` pytest marker ... `.ci/run` runs them as their own step after the fast suite" and
    the README section "Try it against a real local model" (moved to docs/ by issue 28, linked from the
    README)."""
    assert "realmodel:" in (ROOT / "pyproject.toml").read_text()
    assert "-m realmodel" in (ROOT / ".ci" / "run").read_text()
    page = ROOT / "docs" / "real-model.md"
    assert page.read_text().startswith("# Try it against a real local model")
    assert "docs/real-model.md" in (ROOT / "README.md").read_text()


# ---------------------------------------------------------------------------------------------------
# issue 10: run


LOOP_YAML = """
tools:
  - {name: plan_tool_call, description: Plan., parameters: {type: object, properties: {steps: {type: array}}}}
  - {name: read_file, description: Read., parameters: {type: object, properties: {path: {type: string}}}}
  - {name: get_weather, description: W., parameters: {type: object, properties: {city: {type: string}}}}
  - {name: search, description: S., parameters: {type: object, properties: {query: {type: string}}}}
  - {name: delete_file, description: D., parameters: {type: object, properties: {path: {type: string}}}}
tool_choice: auto
messages: [{role: user, content: go}]
loop:
  max_steps: 8
  steps:
    - {tool_choice: plan_tool_call, tools: [plan_tool_call]}
    - {tool_choice: auto}
  stop: {when: no_tool_call}
  results:
    read_file: "DEBUG = True"
    get_weather: [{temp: 21}, {temp: 19}]
    search: {template: "results for {query}"}
    delete_file: {error: "permission denied"}
"""


def test_issue10_run_flags_and_the_loop_section(server, tmp_path):
    """Issue 10: the `loop:` section as the issue writes it (`max_steps`, `steps` with `tool_choice`/`tools`, `stop:
    {when: no_tool_call}`, `results` literal / list / `{template}` / `{error}`), and "`toolchoice run SCENARIO
    --provider ID [--repeat N] [--concurrency K] [--replay DIR] [--save DIR] [--format pretty|json|markdown]`,
    with ... `--model`, `--base-url`, `--tool-choice` ..., `--strict`, `--no-emulate`, `--capabilities`"; how
    the loop ended: `no_tool_call`."""
    assert {"--provider", "--repeat", "--concurrency", "--replay", "--save", "--format", "--model", "--base-url",
            "--tool-choice", "--strict", "--no-emulate", "--capabilities", "--results-from",
            "--dry-run"} <= options("run")
    path = write(tmp_path, "loop.yaml", LOOP_YAML)
    server.script(Step(body=chat_body([("plan_tool_call", '{"steps": ["a"]}')])), Step(body=chat_body([])))
    saved = tmp_path / "saved"
    doc = as_json("run", path, "--provider", "openai", "--base-url", server.base_url(), "--save", str(saved),
                  "--format", "json", OPENAI_API_KEY=OPENAI_KEY)
    loop = doc["runs"][0]["loops"][0]
    assert loop["ended"]["reason"] == "no_tool_call" and loop["ended"]["step"] == 2
    assert all({"request", "reply", "ledger", "verdict"} <= set(s) for s in loop["steps"])
    # "a scenario file with the full history that `render`, `send` and `run` accept as it is"
    scenario = next(saved.rglob("scenario.yaml"))
    assert cli("render", str(scenario), "-p", "openai", "-f", "json").returncode == 0
    assert cli("run", str(scenario), "-p", "openai", "--dry-run").returncode == 0


@pytest.mark.parametrize("stop, steps, reason", [
    ("{tool: plan_tool_call}", "[{tool_choice: plan_tool_call}]", "stop_tool"),
    ("{when: no_tool_call}", "[{tool_choice: plan_tool_call}]", "max_steps"),
])
def test_issue10_loop_endings(server, tmp_path, stop, steps, reason):
    """Issue 10: "how the loop ended (`no_tool_call`, `stop_tool`, `max_steps`, `error` with the step)" and "stop:
    ... or {tool: final_answer}: calling it ends the loop"."""
    text = LOOP_YAML.replace("max_steps: 8", "max_steps: 2").replace("stop: {when: no_tool_call}", f"stop: {stop}")
    text = text.replace("  steps:\n    - {tool_choice: plan_tool_call, tools: [plan_tool_call]}\n"
                        "    - {tool_choice: auto}\n", f"  steps: {steps}\n")
    path = write(tmp_path, "loop.yaml", text)
    server.script(*[Step(body=chat_body([("plan_tool_call", '{"steps": []}')])) for _ in range(2)])
    doc = as_json("run", path, "-p", "openai", "--base-url", server.base_url(), "-f", "json",
                  OPENAI_API_KEY=OPENAI_KEY)
    assert doc["runs"][0]["loops"][0]["ended"]["reason"] == reason


def test_issue10_error_ending_and_exit_1(tmp_path):
    """Issue 10: "`error` with the step" (a closed port at step 1)."""
    path = write(tmp_path, "loop.yaml", LOOP_YAML)
    result = cli("run", path, "-p", "openai", "--base-url", f"http://127.0.0.1:{closed_port()}/v1", "--retries", "0",
                 "-f", "json", OPENAI_API_KEY=OPENAI_KEY)
    ended = json.loads(result.stdout)["runs"][0]["loops"][0]["ended"]
    assert ended["reason"] == "error" and ended["step"] == 1 and result.returncode == 1


def test_issue10_replay_offline_and_dry_run():
    """Issue 10: "`--replay DIR` runs the loop offline from saved replies" and "`run --dry-run` renders step 1
    and says what later steps depend on"."""
    doc = as_json("run", str(CONFIGS / "planner-loop.yaml"), "-p", "openai", "--model", "gemma-3-270m",
                  "--replay", str(REPLAY), "-f", "json")
    assert doc["replay"] is True and doc["runs"][0]["loops"][0]["ended"]["reason"] == "max_steps"
    dry = cli("run", str(CONFIGS / "planner-loop.yaml"), "-p", "openai", "--dry-run")
    assert dry.returncode == 0 and "later steps depend on" in dry.stdout


@pytest.mark.parametrize("old, new", [
    ("max_steps: 8", "max_steps: 0"),
    ("- {tool_choice: auto}", "- {tool_choice: no_such_tool}"),
    ('read_file: "DEBUG = True"', 'no_such_tool: "x"'),
    ("results for {query}", "results for {missing}"),
])
def test_issue10_bad_loop_sections(tmp_path, old, new):
    """Issue 10: "Bad `loop:` sections (a step naming an unknown tool, `max_steps: 0`, a results entry for no tool,
    a template naming a missing argument) get the one-line error with file:line, exit 2."""
    path = write(tmp_path, "loop.yaml", LOOP_YAML.replace(old, new))
    result = cli("run", path, "-p", "openai", "--dry-run")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "loop.yaml:" in result.stderr


# ---------------------------------------------------------------------------------------------------
# issue 11: reasoning state


def test_issue11_reasoning_state_codes_and_request_error(tmp_path):
    """Issue 11: Gemini 3's stand-in "`skip_thought_signature_validator`", "what cannot travel is dropped with a
    ledger entry" (`reasoning.dropped`), "the ledger says which rule applied" (`rule.applied`), and "a reply
    refused for missing reasoning state (... `MISSING_THOUGHT_SIGNATURE`) is judged a request problem with its
    own category" (`request_error`)."""
    thinking = str(CONFIGS / "thinking-tools.yaml")
    docs = {d["provider"]: d for d in as_json("render", thinking, "-p", "gemini,bedrock", "-f", "json")}
    assert "reasoning.dropped" in codes(docs["bedrock"])
    assert "skip_thought_signature_validator" in json.dumps(docs["gemini"]["request"]["body"])
    assert "rule.applied" in codes(docs["gemini"])
    body = write(tmp_path, "g.json", json.dumps({"candidates": [{"content": {"role": "model", "parts": []},
                                                                  "finishReason": "MISSING_THOUGHT_SIGNATURE"}]}))
    doc = as_json("parse", body, "-p", "gemini", "--scenario", WEATHER, "-f", "json")
    assert doc["verdict"]["category"] == "request_error"


@pytest.mark.parametrize("key", ["signature", "thoughtSignature"])
def test_issue11_signature_on_a_call_reaches_gemini(tmp_path, key):
    """Issue 11: "on a tool call, its signature — ... accepted from the provider-native spellings too (... Gemini
    `thoughtSignature` ...)", sent back "in the required position, unchanged"."""
    path = write(tmp_path, "s.yaml", f"""
tools: [{{name: f, description: F., parameters: {{type: object}}}}]
messages:
  - {{role: user, content: go}}
  - role: assistant
    tool_calls: [{{id: c1, name: f, arguments: {{}}, {key}: "EskgCsSIGNATURE"}}]
  - {{role: tool, tool_call_id: c1, content: ok}}
providers: {{gemini: {{model: gemini-3-pro-preview}}}}
""")
    body = as_json("render", path, "-p", "gemini", "-f", "json")["request"]["body"]
    assert body["contents"][1]["parts"][0]["thoughtSignature"] == "EskgCsSIGNATURE"


@pytest.mark.parametrize("thinking", ["false", "adaptive", "{budget: 2048}", "{effort: high}"])
def test_issue11_neutral_thinking_setting(tmp_path, thinking):
    """Issue 11: "A neutral `thinking` setting that can say off / on with a budget / adaptive / effort level"."""
    path = write(tmp_path, "t.yaml", "tools: [{name: f, description: F., parameters: {type: object}}]\n"
                                     "messages: [{role: user, content: x}]\n"
                                     f"providers: {{anthropic: {{model: claude-sonnet-4-6, thinking: {thinking}}}}}\n")
    result = cli("render", path, "-p", "anthropic", "-f", "json")
    assert result.returncode in (0, 3), result.stderr  # read (a model may refuse a form: a ledger error, not bad input)
    assert any(c.startswith("thinking.") for c in codes(json.loads(result.stdout))) or thinking == "false"


# ---------------------------------------------------------------------------------------------------
# issue 12: facts that move


def test_issue12_custom_tools_and_refusal_code(tmp_path):
    """Issue 12: custom tools "`{"type": "custom", "name", "description", "format": {"type": "grammar", "syntax":
    "lark"|"regex", "definition"} | {"type": "text"}}`" rendered natively where the API has them, "refused with
    a clear ledger error where it does not (never silently converted)" (`tool.custom_unsupported`). The
    source corrected the issue's shape for Chat (openai-python wraps it: `{"type":"custom","custom":{...}}`)."""
    path = write(tmp_path, "c.yaml", """
tools:
  - {type: custom, name: sql, description: Write SQL., format: {type: grammar, syntax: lark, definition: "start: /x/"}}
  - {type: custom, name: free, description: Free text., format: {type: text}}
tool_choice: sql
messages: [{role: user, content: go}]
""")
    docs = {d["provider"]: d for d in as_json("render", path, "-p", "openai-responses,openai,anthropic", "-f", "json")}
    assert docs["openai-responses"]["request"]["body"]["tools"][0] == {
        "type": "custom", "name": "sql", "description": "Write SQL.",
        "format": {"type": "grammar", "syntax": "lark", "definition": "start: /x/"}}
    assert docs["openai"]["request"]["body"]["tools"][1] == {
        "type": "custom", "custom": {"name": "free", "description": "Free text.", "format": {"type": "text"}}}
    assert docs["anthropic"]["request"] is None and "tool.custom_unsupported" in codes(docs["anthropic"])


def test_issue12_openrouter_require_parameters(tmp_path):
    """Issue 12: OpenRouter "`provider.require_parameters: true`. Offer it (on by default when tool_choice forces a
    call, with a ledger entry; the user can turn it off)"."""
    forced = as_json("render", TRAP, "-p", "openrouter", "-f", "json")
    assert forced["request"]["body"]["provider"] == {"require_parameters": True}
    off = write(tmp_path, "o.yaml", "tools: [{name: f, description: F., parameters: {type: object}}]\n"
                                    "tool_choice: required\nmessages: [{role: user, content: x}]\n"
                                    "providers: {openrouter: {require_parameters: false}}\n")
    assert "provider" not in as_json("render", off, "-p", "openrouter", "-f", "json")["request"]["body"]


def test_issue12_together_host_cerebras_and_dated_facts():
    """Issue 12: Together's SDK "builds `https://api-inference.together.ai/v1/...`" (re-verified: together 3.1.1);
    a new provider (Cerebras, the closing note's pick); "`toolchoice providers` shows them (`--format json`
    too)" — source and date; "`toolchoice providers --model ID` prints" the model rules; and "a `bench/` or
    `tests/` script that lists facts older than a chosen age"."""
    docs = {d["provider"]: d for d in as_json("render", WEATHER, "-p", "together,cerebras", "-f", "json")}
    assert docs["together"]["request"]["url"].startswith("https://api-inference.together.ai/v1/")
    rows = as_json("providers", "--format", "json")
    assert all(r["sources"] and r["verified"] for r in rows)
    assert cli("providers", "--model", "gemini-3-pro-preview").returncode == 0
    assert (ROOT / "bench" / "stale_facts.py").is_file()


# ---------------------------------------------------------------------------------------------------
# issue 13: imports, dialect, snapshots


def test_issue13_tools_from_a_file_and_the_tools_command(tmp_path):
    """Issue 13: "`tools: [{from: tools.json}, ..., {name: ..., ...}]`", "`toolchoice tools FILE|--mcp CMD|--mcp-url
    URL [--format yaml|json]`", "say which was detected" and "Bad imports (missing file, ...) get the one-line
    error, exit 2"."""
    assert {"--mcp", "--mcp-url", "--format"} <= options("tools")
    write(tmp_path, "tools.json", json.dumps([{"type": "function", "function": {
        "name": "get_weather", "description": "W.", "parameters": {"type": "object"}}}]))
    path = write(tmp_path, "s.yaml", "tools: [{from: tools.json}, {name: f, description: F., parameters: "
                                     "{type: object}}]\nmessages: [{role: user, content: x}]\n")
    doc = as_json("render", path, "-p", "anthropic", "-f", "json")
    assert [t["name"] for t in doc["request"]["body"]["tools"]] == ["get_weather", "f"]
    assert "import.format" in codes(doc)
    listed = cli("tools", str(tmp_path / "tools.json"), "--format", "yaml")
    assert listed.returncode == 0 and "name: get_weather" in listed.stdout
    assert json.loads(cli("tools", str(tmp_path / "tools.json"), "--format", "json").stdout)["tools"]
    assert cli("tools", str(tmp_path / "missing.json")).returncode == 2


def test_issue13_dialect_langchain_ledger_code():
    """Issue 13: "`render`/`compare` gain `--dialect api|langchain` ... with each difference in the ledger
    (`dialect.differs`)"."""
    assert "--dialect" in options("render") and "--dialect" in options("compare")
    assert cli("render", TRAP, "-p", "anthropic", "--dialect", "api", "-f", "json").returncode == 0
    assert "dialect.differs" in codes(as_json("render", TRAP, "-p", "anthropic", "--dialect", "langchain", "-f",
                                              "json"))


def test_issue13_snapshots_update_check_and_drift(tmp_path):
    """Issue 13: "`toolchoice render SCENARIO... --snapshot DIR [--update]` writes (or, without `--update`, checks)
    one file per scenario × provider ...; a check prints a readable diff per provider and exits non-zero on any
    drift" (exit 5, README)."""
    snap = tmp_path / "snap"
    assert cli("render", WEATHER, TRAP, "-p", "openai,gemini", "--snapshot", str(snap), "--update").returncode == 0
    assert len(list(snap.rglob("*.json"))) == 4
    assert cli("render", WEATHER, TRAP, "-p", "openai,gemini", "--snapshot", str(snap)).returncode == 0
    drift = cli("render", WEATHER, TRAP, "-p", "openai,gemini", "--tool-choice", "none", "--snapshot", str(snap))
    assert drift.returncode == 5 and "---" in drift.stdout


# ---------------------------------------------------------------------------------------------------
# issue 14: the interface


def test_issue14_version_and_completion():
    """Issue 14: "No `--version`; shell completion is switched off (`add_completion=False`): `--install-completion`
    and `--show-completion` are unknown options." — fixed: all three exist."""
    version = cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("toolchoice ")
    root_help = cli("--help", COLUMNS="200").stdout
    assert "--install-completion" in root_help and "--show-completion" in root_help


def test_issue14_help_keeps_brackets():
    """Issue 14: "The help text's examples lose their brackets: `'{allowed: , mode: auto}'`" — fixed."""
    assert "{allowed: [a, b], mode: auto}" in cli("render", "--help", COLUMNS="250").stdout


def test_issue14_per_provider_model_and_one_model_warning():
    """Issue 14: "no way to give each provider its own model on the command line (`--model
    anthropic=claude-sonnet-4-5`)" and "`--model gpt-4o` with several providers ... with no warning"."""
    docs = {d["provider"]: d for d in as_json("render", TRAP, "-p", "openai,anthropic", "--model",
                                              "anthropic=claude-sonnet-4-5", "-f", "json")}
    assert docs["anthropic"]["request"]["body"]["model"] == "claude-sonnet-4-5"
    assert docs["openai"]["request"]["body"]["model"] != "claude-sonnet-4-5"
    warned = cli("render", TRAP, "-p", "openai,anthropic", "--model", "gpt-4o", "-f", "json")
    assert "warning" in warned.stderr and "gpt-4o" in warned.stderr


def test_issue14_one_option_vocabulary():
    """Issue 14: "`compare -p` is unknown while `render --providers` is unknown; `send -p openai,anthropic` says
    `unknown provider ...` instead of pointing to compare; ... `compare --repeat 5` without `--send` is silently
    ignored. `parse` lacks `--strict`, `--no-emulate`, `--capabilities`, `--base-url` and `probe` lacks
    `--tool-choice` ... `send --dry-run -f curl` is refused"."""
    assert {"-p", "--providers"} <= options("compare") and {"-p", "--providers"} <= options("render")
    pointed = cli("send", TRAP, "-p", "openai,anthropic")
    assert pointed.returncode == 2 and "compare" in pointed.stderr
    assert cli("compare", TRAP, "-p", "openai", "--repeat", "5").returncode == 2
    assert {"--strict", "--no-emulate", "--capabilities", "--base-url"} <= options("parse")
    assert "--tool-choice" in options("probe")
    assert cli("send", TRAP, "-p", "openai", "--dry-run", "-f", "curl").returncode == 0
    import typer

    from toolchoice.cli.app import build

    defaults = {}
    for command in ("send", "compare", "probe", "run"):
        params = {p.name: p.default for p in typer.main.get_command(build([command])).commands[command].params}
        defaults[command] = (params["timeout"], params["retries"], params["concurrency"])
    assert len(set(defaults.values())) == 1, defaults  # "timeouts default to 120 s on send and 60 s on compare"


def test_issue14_curl_keeps_warnings_and_exact_body():
    """Issue 14: "`-f curl` drops the ledger's warnings (the required trap included) and adds a trailing newline to
    the body" — fixed: the warnings are comments, the body is sent byte for byte."""
    text = cli("render", TRAP, "-p", "openai", "-f", "curl").stdout
    assert "# warning pitfall.required_trap" in text
    words = shlex.split(text, comments=True)
    assert not words[words.index("printf") + 2].endswith("\n")


def test_issue14_stable_json_shapes():
    """Issue 14: "dry-run entries have `effective_tool_choice` and sent ones do not; compare's dry-run JSON has no
    `diff`" — fixed."""
    assert "diff" in as_json("compare", TRAP, "-p", "openai,anthropic", "-f", "json")


def test_issue14_parse_names_the_format_it_looks_like(tmp_path):
    """Issue 14: "`parse FILE -p anthropic` on an OpenAI body says `response body is not a anthropic reply` and
    exits 1 ...; it could say which provider's format the file looks like" (now bad input, exit 2)."""
    body = write(tmp_path, "r.json", json.dumps(chat_body([("f", "{}")])))
    result = cli("parse", body, "-p", "anthropic")
    assert result.returncode == 2 and "OpenAI" in result.stderr


def test_issue14_stdin_ledger_only_several_scenarios_and_summary():
    """Issue 14: "`render` with no `-p` prints 1,500 lines and there is no ledger-only view; `render -` does not
    read stdin ...; one scenario per call (`compare configs/*.yaml` is refused)"."""
    stdin = run_cli(["render", "-", "-p", "openai", "-f", "json"], env=env(),
                    input=(CONFIGS / "weather.yaml").read_text())
    assert stdin.returncode == 0 and json.loads(stdin.stdout)["provider"] == "openai"
    ledger = cli("render", WEATHER, "-p", "openai", "--ledger-only")
    assert ledger.returncode == 0 and "tool_choice.mapped" in ledger.stdout and '"messages"' not in ledger.stdout
    summary = cli("render", WEATHER)
    assert summary.returncode == 0 and len(summary.stdout.splitlines()) < 100
    many = cli("compare", WEATHER, TRAP, "-p", "openai")
    assert many.returncode == 0 and "2 scenarios" in many.stdout


def test_issue14_system_and_developer_messages(tmp_path):
    """Issue 14: "`role: system` in `messages:` is refused ...; accept system and developer messages at the start
    and map them, with a ledger entry where a provider has no such role"."""
    system = write(tmp_path, "s.yaml", "tools: [{name: f, description: F., parameters: {type: object}}]\n"
                                       "messages: [{role: system, content: S}, {role: user, content: x}]\n")
    assert as_json("render", system, "-p", "anthropic", "-f", "json")["request"]["body"]["system"] == "S"
    developer = write(tmp_path, "d.yaml", "tools: [{name: f, description: F., parameters: {type: object}}]\n"
                                          "messages: [{role: developer, content: D}, {role: user, content: x}]\n")
    docs = {d["provider"]: d for d in as_json("render", developer, "-p", "openai,anthropic", "-f", "json")}
    assert docs["openai"]["request"]["body"]["messages"][0] == {"role": "developer", "content": "D"}
    assert "system.developer_as_system" in codes(docs["anthropic"])


def test_issue14_schema_doctor_init(tmp_path):
    """Issue 14: "`toolchoice schema scenario|render|send|compare|run`", "`toolchoice doctor` (or `keys`): which
    provider variables are set (never their values)", "`toolchoice init` writes a commented starter
    scenario"."""
    for name in ("scenario", "render", "send", "compare", "run"):
        assert as_json("schema", name)["$schema"].startswith("https://json-schema.org/"), name
    doctor = cli("doctor", OPENAI_API_KEY=OPENAI_KEY)
    assert doctor.returncode == 0 and "OPENAI_API_KEY" in doctor.stdout and OPENAI_KEY not in doctor.stdout
    starter = tmp_path / "scenario.yaml"
    assert cli("init", str(starter)).returncode == 0 and starter.read_text().startswith("#")
    assert cli("render", str(starter), "-p", "openai").returncode == 0


def test_issue14_min_obeyed_gate(server):
    """Issue 14: "for CI, thresholds that set the exit code (`--min-obeyed 0.95` on repeated sends)"."""
    server.script(*[Step(body=chat_body([])) for _ in range(2)])  # text under required: no_call
    result = cli("send", TRAP, "-p", "openai", "--base-url", server.base_url(), "--repeat", "2", "--min-obeyed",
                 "0.95", OPENAI_API_KEY=OPENAI_KEY)
    assert result.returncode == 4 and "--min-obeyed" in result.stderr


# ---------------------------------------------------------------------------------------------------
# issue 15: streaming


def test_issue15_stream_flags_and_request_forms():
    """Issue 15: "`--stream` on `send`, `run`, `compare --send` and `probe`: the request is rendered with the
    provider's streaming form (OpenAI-style `stream: true` and `stream_options.include_usage`; ... Gemini
    `streamGenerateContent?alt=sse`; ... Bedrock `ConverseStream` ...) — shown by `render --stream` ..., curl
    export included (`-N`)" and "`parse --stream FILE`"."""
    for command in ("send", "run", "compare", "probe", "render", "parse"):
        assert "--stream" in options(command), command
    docs = {d["provider"]: d for d in as_json("render", WEATHER, "-p", "openai,gemini,bedrock", "--stream",
                                              "-f", "json")}
    body = docs["openai"]["request"]["body"]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert docs["gemini"]["request"]["url"].endswith(":streamGenerateContent?alt=sse")
    assert docs["bedrock"]["request"]["url"].endswith("/converse-stream")
    assert " -N" in cli("render", WEATHER, "-p", "openai", "--stream", "-f", "curl").stdout


def test_issue15_streamed_send_facts_and_parse_stream(server, tmp_path):
    """Issue 15: "time to first byte, to first tool-call delta and to the last event; number of events; argument
    deltas per call; and stream faults as findings" and "`--raw`/`--save` keep the raw event stream" read back
    by "`parse --stream FILE`"."""
    chunks = [
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {
            "role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {
                "name": "get_weather"}}]}, "finish_reason": None}]},
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {
            "tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]}, "finish_reason": None}]},
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": {
            "tool_calls": [{"index": 0, "function": {"arguments": '"Paris"}'}}]}, "finish_reason": None}]},
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
         "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    sse = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    server.script(Step(body=sse, content_type="text/event-stream"))
    saved = tmp_path / "saved"
    doc = as_json("send", WEATHER, "-p", "openai", "--base-url", server.base_url(), "--stream", "--save",
                  str(saved), "-f", "json", OPENAI_API_KEY=OPENAI_KEY)
    stream = doc["stream"]
    assert {"first_byte_ms", "first_tool_delta_ms", "last_event_ms"} <= set(stream["timings"])
    assert stream["events"] >= 4 and stream["argument_deltas"] == [2] and stream["findings"] == []
    assert doc["reply"]["tool_calls"] == [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]
    raw = saved / "sample-001.response.sse"
    assert raw.is_file()
    back = as_json("parse", "--stream", str(raw), "-p", "openai", "--scenario", WEATHER, "-f", "json")
    assert back["reply"]["tool_calls"] == doc["reply"]["tool_calls"]


# ---------------------------------------------------------------------------------------------------
# issue 16: hardening, round two


def test_issue16_allow_env_and_its_variable(tmp_path):
    """Issue 16, finding 4: "a provider's own key variables are always allowed; anything else needs `--allow-env
    NAME` or a user-level setting), show where each secret goes as a warning, and refuse under `--strict`"
    (`TOOLCHOICE_ALLOW_ENV`, the closing note)."""
    path = write(tmp_path, "h.yaml", "tools: [{name: f, description: F., parameters: {type: object}}]\n"
                                     "messages: [{role: user, content: x}]\n"
                                     "providers: {openai: {headers: {X-Trace: \"$GITHUB_TOKEN\"}}}\n")
    token = {"GITHUB_TOKEN": "ghp_contract_canary_0123456789"}
    assert cli("render", path, "-p", "openai", **token).returncode == 3
    allowed = cli("render", path, "-p", "openai", "--allow-env", "GITHUB_TOKEN", "-f", "json", **token)
    assert allowed.returncode == 0 and token["GITHUB_TOKEN"] not in allowed.stdout
    assert any(e["severity"] == "warning" for e in json.loads(allowed.stdout)["ledger"]
               if e["code"].startswith("env."))
    by_variable = cli("render", path, "-p", "openai", "--strict", TOOLCHOICE_ALLOW_ENV="GITHUB_TOKEN", **token)
    assert by_variable.returncode == 3


@pytest.mark.parametrize("args", [
    ["--base-url", "https://u:KEY@example.com/v1"],  # finding 6: userinfo
    ["--base-url", "https://example.com/v1?key=x"],  # finding 6: a query string
    ["--timeout", "nan"],  # finding 12
    ["--retries", "11"],  # finding 11: "bound retries everywhere alike"
    ["--repeat", "1e20"],  # finding 10
])
def test_issue16_bounded_and_checked_options(args):
    """Issue 16: findings 6, 10, 11 and 12 — each a one-line bad-input refusal (exit 2), before anything is
    sent."""
    result = cli("send", WEATHER, "-p", "openai", *args, OPENAI_API_KEY=OPENAI_KEY)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_issue16_the_reply_cap_has_an_option_that_moves_it(server):
    """Issue 16, finding 7: "Cap decoded bodies (a documented default, an option to raise it) and fail with a clear
    error." The option is the one docs/limits.md documents for `reply_bytes` ("a reply body after decompression",
    32 MiB): `TOOLCHOICE_LIMIT_REPLY_BYTES`. It used to move only streamed error bodies and replays: a plain
    send kept a fixed 32 MiB whatever the variable said. Here a 600-byte cap refuses the stand-in's reply (a
    ~900-byte body) and names the variable; the same reply under the default is read."""
    body = chat_body([("get_weather", json.dumps({"city": "P" * 500}))])
    assert 600 < len(json.dumps(body)) < 32 * 1024 * 1024
    server.script(Step(body=body), Step(body=body))
    capped = cli("send", WEATHER, "-p", "openai", "--base-url", server.base_url(), "--retries", "0", "-f", "json",
                 OPENAI_API_KEY=OPENAI_KEY, TOOLCHOICE_LIMIT_REPLY_BYTES="600")
    assert capped.returncode == 1
    error = json.loads(capped.stdout)["error"]
    assert "larger than 600 bytes" in error and "TOOLCHOICE_LIMIT_REPLY_BYTES" in error
    read = cli("send", WEATHER, "-p", "openai", "--base-url", server.base_url(), "-f", "json",
               OPENAI_API_KEY=OPENAI_KEY)
    assert read.returncode == 0 and json.loads(read.stdout)["error"] is None


def test_issue16_error_lines_never_print_the_key(tmp_path):
    """Issue 16, finding 2: "`toolchoice render .env` prints `…not the scalar 'OPENAI_API_KEY=sk-…'`; the same
    with a key passed as `--tool-choice`"."""
    key = "sk-contract-issue16-canary-abcdef0123456789"
    dotenv = write(tmp_path, ".env", f"OPENAI_API_KEY={key}\n")
    for args in (["render", dotenv, "-p", "openai"], ["render", WEATHER, "-p", "openai", "--tool-choice", key]):
        result = cli(*args, OPENAI_API_KEY=key)
        assert result.returncode == 2
        assert key[-12:] not in result.stdout + result.stderr


def test_issue16_probe_transport_failure_is_no_rejection_and_saves_nothing(tmp_path):
    """Issue 16, finding 12: "Transport failures are not rejections: inconclusive, non-zero exit, nothing saved as
    fact." Issue 29 then named a question whose samples never arrived "did not arrive" (and the ones not asked
    after it "not asked"), keeping "inconclusive" for mixed answers: that spelling is held here."""
    overlay = tmp_path / "caps.json"
    result = cli("probe", "-p", "openai", "--base-url", f"http://127.0.0.1:{closed_port()}/v1", "--repeat", "1",
                 "--retries", "0", "-f", "json", "--save", str(overlay), OPENAI_API_KEY=OPENAI_KEY)
    assert result.returncode == 1 and not overlay.exists()
    assert {q["result"] for q in json.loads(result.stdout)["questions"]} <= {"did not arrive", "not asked"}


def test_issue16_python_m_entry_exists():
    """Issue 16: "The test suite runs from `python -m pytest` without the venv's `bin` on PATH" — through
    `python -m toolchoice.cli`."""
    assert importlib.util.find_spec("toolchoice.cli.__main__") is not None


def test_issue6_a_measured_rejection_warns_in_render(server, tmp_path, monkeypatch):
    """Issue 6: with `--capabilities FILE`, render "use[s] measured facts for that endpoint (e.g. warn that
    `required` is rejected there) with the overlay named in the ledger". The overlay is the one `probe --save`
    writes for an endpoint that answers `tool_choice: "required"` with the provider's 400 and everything else
    with a call (the questions asked one at a time, so each answer follows its own request)."""
    call = Step(body=chat_body([("get_weather", '{"city": "Paris"}')]))
    refusal = Step.error("openai", 400, "'required' is not supported by this server")

    def answer() -> Step:
        return refusal if server.requests[-1].json.get("tool_choice") == "required" else call

    monkeypatch.setattr(server, "next_step", answer)
    overlay = tmp_path / "caps.json"
    probed = cli("probe", WEATHER, "-p", "openai", "--base-url", server.base_url(), "--repeat", "1", "--retries", "0",
                 "--concurrency", "1", "-f", "json", "--save", str(overlay), OPENAI_API_KEY=OPENAI_KEY)
    questions = {q["feature"]: q["result"] for q in json.loads(probed.stdout)["questions"]}
    assert questions["required"] == "rejected" and overlay.is_file(), probed.stderr
    doc = as_json("render", WEATHER, "-p", "openai", "--tool-choice", "required", "--base-url", server.base_url(),
                  "--capabilities", str(overlay), "-f", "json")
    warnings = [e for e in doc["ledger"] if e["severity"] == "warning"]
    assert "capabilities.overlay" in codes(doc)
    assert any("required" in e["message"] and "rejected" in e["message"] for e in warnings), doc["ledger"]
