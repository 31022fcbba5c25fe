"""Tools imported with `from:` and `toolchoice tools`: every format read from files shaped like the SDK
types (tests/data/tools, SOURCES.md) and real upstream listings (tests/data/schemas: BFCL, GitHub's MCP
server), detection, the ledger notes on every provider, and bad imports as one line with exit 2."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario

from cli import run_cli

DATA = Path(__file__).resolve().parent / "data"
TOOLS = DATA / "tools"
SCHEMAS = DATA / "schemas"
WEATHER = {"type": "object", "properties": {"location": {"type": "string", "description":
           "City and country e.g. Bogotá, Colombia"}}, "required": ["location"], "additionalProperties": False}


def toolchoice(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe, "the toolchoice console script must be installed next to this Python (pip install -e '.[test]')"
    env = {k: v for k, v in os.environ.items() if k != "TOOLCHOICE_DEBUG"}
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def scenario_with(tmp_path: Path, tools: list, **extra: object) -> Path:
    doc = {"tools": tools, "messages": [{"role": "user", "content": "hi"}], **extra}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def original(name: str) -> object:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))["original"]


def ledger_codes(scenario, provider="openai"):
    return [(e.code, e.message) for e in translate(provider, scenario, RenderOptions()).ledger]


# ---- each format ---------------------------------------------------------------------------------

def test_openai_chat_tools(tmp_path):
    shutil.copy(TOOLS / "openai-chat.json", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "openai-chat.json"}]))
    (tool,) = sc.tools
    assert (tool.name, tool.description, tool.parameters, tool.strict) == (
        "get_weather", "Get current temperature for a given location.", WEATHER, True)
    assert ("info", "import.format", "openai-chat.json: 1 tool read as OpenAI chat tools") in sc.notes


def test_openai_responses_tools_leave_hosted_tools_out_with_a_warning(tmp_path):
    shutil.copy(TOOLS / "openai-responses.json", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "openai-responses.json"}]))
    assert [(t.name, t.parameters, t.strict) for t in sc.tools] == [("get_weather", WEATHER, True)]
    codes = [(n.severity, n.code) for n in sc.notes]
    assert ("info", "import.format") in codes and ("warning", "import.skipped") in codes
    assert "web_search" in next(n.message for n in sc.notes if n.code == "import.skipped")
    assert "OpenAI Responses tools" in sc.notes[0].message


def test_anthropic_tools_keep_cache_control_and_leave_server_tools_out(tmp_path):
    shutil.copy(TOOLS / "anthropic.yaml", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "anthropic.yaml"}]))
    (tool,) = sc.tools
    assert tool.parameters == {"type": "object", "properties": {"location": {
        "type": "string", "description": "The city and state, e.g. San Francisco, CA"}}, "required": ["location"]}
    assert dict(tool.fields) == {"cache_control": {"type": "ephemeral"}}
    messages = {n.code: n.message for n in sc.notes}
    assert "Anthropic tools" in messages["import.format"] and "import.dropped" not in messages
    assert "web_search" in messages["import.skipped"]
    anthropic = translate("anthropic", sc, RenderOptions())
    assert anthropic.request.body["tools"][0]["cache_control"] == {"type": "ephemeral"}


def test_gemini_schema_becomes_json_schema(tmp_path):
    shutil.copy(TOOLS / "gemini.json", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "gemini.json"}]))
    (tool,) = sc.tools
    assert tool.parameters == {
        "type": "object",
        "properties": {
            "attendees": {"type": "array", "items": {"type": "string"}, "description": "List of people attending the meeting."},
            "date": {"type": "string", "description": "Date of the meeting (e.g., '2024-07-29')"},
            "topic": {"type": ["string", "null"], "description": "The subject or topic of the meeting."},
        },
        "required": ["attendees", "date"],
    }
    note = next(n for n in sc.notes if n.code == "import.gemini_schema").message
    assert "nullable" in note and "propertyOrdering dropped" in note


def test_gemini_tools_wrapper_with_parameters_json_schema(tmp_path):
    shutil.copy(TOOLS / "gemini-tools.json", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "gemini-tools.json"}]))
    (tool,) = sc.tools
    assert tool.parameters["properties"]["color_temp"] == {"type": "string", "enum": ["daylight", "cool", "warm"]}
    messages = {n.code: n.message for n in sc.notes}
    assert "Gemini function declarations" in messages["import.format"] and "import.dropped" not in messages
    # behavior is FunctionDeclaration's own field: read, then dropped by the translator with the SDK's reason
    assert tool.fields == {"behavior": "BLOCKING"}
    dropped = [m for code, m in ledger_codes(sc, "gemini") if code == "tool.field_dropped"]
    assert len(dropped) == 1 and "BidiGenerateContent" in dropped[0]


def test_gemini_declarations_keep_the_response_schema_in_either_spelling(tmp_path):
    """google-genai 3.6.1 FunctionDeclaration: response_json_schema (alias responseJsonSchema), response."""
    out = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    (tmp_path / "g.json").write_text(json.dumps({"functionDeclarations": [
        {"name": "a", "parametersJsonSchema": {"type": "object"}, "responseJsonSchema": out},
        {"name": "b", "parameters_json_schema": {"type": "object"}, "response_json_schema": out}]}), encoding="utf-8")
    sc = load_scenario(scenario_with(tmp_path, [{"from": "g.json"}]))
    assert [t.fields for t in sc.tools] == [{"response_json_schema": out}] * 2
    body = translate("gemini", sc, RenderOptions()).request.body
    assert [d["responseJsonSchema"] for d in body["tools"][0]["functionDeclarations"]] == [out, out]


def test_mcp_listing_keeps_the_input_schema_and_says_what_was_dropped(tmp_path):
    listing = {"tools": [original("github-mcp-issue-write.json"), original("github-mcp-push-files.json")]}
    (tmp_path / "github.json").write_text(json.dumps(listing), encoding="utf-8")
    sc = load_scenario(scenario_with(tmp_path, [{"from": "github.json"}]))
    assert [t.name for t in sc.tools] == ["issue_write", "push_files"]
    assert sc.tools[1].parameters == listing["tools"][1]["inputSchema"]
    assert sc.tools[0].description == listing["tools"][0]["description"]
    dropped = [n.message for n in sc.notes if n.code == "import.dropped"]
    assert dropped == ["tool 'issue_write': _meta, annotations not imported (a function tool has no field for them)",
                       "tool 'push_files': annotations not imported (a function tool has no field for it)"]
    assert "an MCP tools/list result" in sc.notes[0].message


def test_bfcl_function_docs_become_json_schema_with_bfcl_own_mapping(tmp_path):
    (tmp_path / "bfcl.json").write_text(json.dumps(original("bfcl-exec-multiple-13-tuple-float.json")), encoding="utf-8")
    sc = load_scenario(scenario_with(tmp_path, [{"from": "bfcl.json"}]))
    distance = sc.tool("get_distance")
    # BFCL's GORILLA_TO_OPENAPI: dict -> object, tuple -> array, float -> number
    assert distance.parameters == {"type": "object", "properties": {
        "pointA": {"type": "array", "description": "The first point.", "items": {"type": "number"}},
        "pointB": {"type": "array", "description": "The second point.", "items": {"type": "number"}}},
        "required": ["pointA", "pointB"]}
    notes = [(n.severity, n.code, n.message) for n in sc.notes]
    assert ("info", "import.format", "bfcl.json: 4 tools read as BFCL function docs") in notes
    assert any(code == "import.bfcl_lossy" and sev == "warning" and "'get_distance'" in msg for sev, code, msg in notes)


def test_bfcl_any_and_json_lines(tmp_path):
    """BFCL's multi-turn function docs are JSON Lines; 'any' becomes string as BFCL sends it."""
    java = original("bfcl-simple-java-1-any-hashmap.json")
    files = original("bfcl-multi-turn-gorilla-file-system.json")
    (tmp_path / "fs.jsonl").write_text("".join(json.dumps(f) + "\n" for f in files), encoding="utf-8")
    (tmp_path / "java.json").write_text(json.dumps(java), encoding="utf-8")
    sc = load_scenario(scenario_with(tmp_path, [{"from": "fs.jsonl"}, {"from": "java.json"}]))
    assert len(sc.tools) == 18 + 1
    java_tool = sc.tools[-1]
    assert "any" not in json.dumps(java_tool.parameters).replace('"any', "")  # no BFCL type name left
    assert any(n.code == "import.bfcl_lossy" and "any becomes string" in n.message for n in sc.notes)
    # one note per thing said, naming every tool it is about (issue 29: not one line per tool)
    dropped = [n.message for n in sc.notes if n.code == "import.dropped"]
    assert any("'cat'" in m and m.endswith("response not imported (a function tool has no field for it)")
               for m in dropped), dropped
    assert len(dropped) < 18


def test_import_notes_reach_every_providers_ledger_first(tmp_path):
    shutil.copy(TOOLS / "anthropic.yaml", tmp_path)
    sc = load_scenario(scenario_with(tmp_path, [{"from": "anthropic.yaml"}, {"name": "inline", "description": "x"}],
                                     tool_choice="required"))
    for pid in PROVIDER_IDS:
        t = translate(pid, sc, RenderOptions())
        assert [e.code for e in t.ledger[:len(sc.notes)]] == [n.code for n in sc.notes], pid
        assert t.request is not None, (pid, t.ledger)
        assert "get_weather" in json.dumps(t.request.body) and "inline" in json.dumps(t.request.body), pid


def test_tools_command_prints_neutral_yaml_that_imports_again(tmp_path):
    (tmp_path / "bfcl.json").write_text(json.dumps(original("bfcl-multiple-5-format-date-tuple.json")), encoding="utf-8")
    result = toolchoice("tools", "bfcl.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# info import.format: bfcl.json: 3 tools read as BFCL function docs\n")
    doc = yaml.safe_load(result.stdout)
    assert [t["name"] for t in doc["tools"]] == ["weather.get_by_city_date", "weather.get_forecast_by_coordinates",
                                                 "weather.get_by_coordinates_date"]
    (tmp_path / "neutral.yaml").write_text(result.stdout, encoding="utf-8")
    again = toolchoice("tools", "neutral.yaml", "--format", "json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert data["tools"] == doc["tools"]
    assert data["ledger"] == [{"severity": "info", "code": "import.format",
                               "message": "neutral.yaml: 3 tools read as toolchoice tools (name, description, parameters)"}]


# ---- bad imports: one line with file:line, exit 2 ---------------------------------------------------

def bad(tmp_path: Path, files: dict[str, str], tools_yaml: str) -> subprocess.CompletedProcess[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(f"tools:\n{tools_yaml}messages:\n  - {{role: user, content: hi}}\n", encoding="utf-8")
    # in-process (tests/cli.py: the console script's entry, exit code and streams); the installed command in a real
    # process is test_tools_command_prints_neutral_yaml_that_imports_again's
    env = {k: v for k, v in os.environ.items() if k != "TOOLCHOICE_DEBUG"}
    return run_cli(["render", "s.yaml", "-p", "openai", "-f", "json", "--live-mcp"], cwd=tmp_path, env=env)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_missing_file(tmp_path):
    line = one_line(bad(tmp_path, {}, "  - name: a\n  - from: nowhere.json\n"))
    assert line == "toolchoice: error: s.yaml:3: from: nowhere.json: no such file (check the path)"


def test_unknown_format(tmp_path):
    line = one_line(bad(tmp_path, {"t.json": '{"servers": {"a": 1}}'}, "  - from: t.json\n"))
    assert line.startswith("toolchoice: error: t.json:1: no tool list found")


def test_ambiguous_file(tmp_path):
    text = json.dumps([{"name": "a", "input_schema": {"type": "object"}},
                       {"type": "function", "function": {"name": "b"}}], indent=1)
    line = one_line(bad(tmp_path, {"t.json": text}, "  - from: t.json\n"))
    assert line.startswith("toolchoice: error: t.json:1: ambiguous: the tools read as different formats "
                           "(tool 1 as Anthropic tools, tool 2 as OpenAI chat tools)")
    both = json.dumps([{"name": "a", "input_schema": {"type": "object"}, "inputSchema": {"type": "object"}}], indent=1)
    line = one_line(bad(tmp_path, {"u.json": both}, "  - from: u.json\n"))
    assert line.startswith("toolchoice: error: u.json:2: ambiguous tool: it reads as Anthropic tools and as an MCP")


def test_non_object_schema_names_its_line(tmp_path):
    text = "tools:\n  - name: ok\n    inputSchema: {type: object}\n  - name: echo\n    inputSchema:\n      type: string\n"
    line = one_line(bad(tmp_path, {"mcp.yaml": text}, "  - from: mcp.yaml\n"))
    assert line == ("toolchoice: error: mcp.yaml:6: the schema of tool 'echo' must describe an object, not type "
                    "'string' (a tool's arguments are an object: wrap the value in an object property)")
    listed = "tools:\n  - name: echo\n    inputSchema: [1, 2]\n"
    line = one_line(bad(tmp_path, {"list.yaml": listed}, "  - from: list.yaml\n"))
    assert line.startswith("toolchoice: error: list.yaml:3: the schema of tool 'echo' must be a JSON Schema object")


def test_duplicate_names_across_sources(tmp_path):
    shutil.copy(TOOLS / "openai-chat.json", tmp_path)
    line = one_line(bad(tmp_path, {}, "  - name: get_weather\n  - from: openai-chat.json\n"))
    assert line == ("toolchoice: error: s.yaml:3:5: duplicate tool name 'get_weather' (imported by from: "
                    "openai-chat.json) (first declared on line 2) (tool names must be unique: rename or remove one)")


def test_mcp_command_that_does_not_exist(tmp_path):
    line = one_line(bad(tmp_path, {}, '  - from: {mcp: "no-such-mcp-server-xyz --stdio"}\n'))
    assert line == ("toolchoice: error: s.yaml:2: mcp: no-such-mcp-server-xyz --stdio: no such command: "
                    "no-such-mcp-server-xyz (check the command, or give its full path)")


def test_missing_mcp_extra_says_what_to_install(tmp_path, monkeypatch):
    from toolchoice.providers.core import mcp_client
    from toolchoice.providers.core.model import ToolchoiceError

    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` raises ImportError, as without the extra
    with pytest.raises(ToolchoiceError) as err:
        mcp_client.list_tools_stdio(f"{sys.executable} -c pass", timeout=5)
    assert err.value.one_line() == ("importing tools from an MCP server needs the MCP Python SDK "
                                    "(pip install 'toolchoice[mcp]')")


def test_plain_render_does_not_load_the_importer():
    code = ("import sys; from toolchoice.providers.core.scenario import load_scenario; "
            f"load_scenario({str(DATA.parent.parent / 'configs' / 'weather.yaml')!r}); "
            "print(sorted(m for m in sys.modules if 'tool_import' in m or 'mcp' in m.split('.')[0] or 'httpx' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_tool_files_fit_the_sdk_types():
    """The test files are what each SDK accepts: its TypedDicts (strictly, tests/sdk_types.check) or models."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from sdk_types import check

    from anthropic.types import ToolParam, WebSearchTool20250305Param
    from google.genai import types as genai
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam, WebSearchToolParam

    chat = json.loads((TOOLS / "openai-chat.json").read_text(encoding="utf-8"))
    assert check(chat[0], ChatCompletionFunctionToolParam) == []
    responses = json.loads((TOOLS / "openai-responses.json").read_text(encoding="utf-8"))
    assert check(responses[0], FunctionToolParam) == [] and check(responses[1], WebSearchToolParam) == []
    anthropic = yaml.safe_load((TOOLS / "anthropic.yaml").read_text(encoding="utf-8"))
    assert check(anthropic[0], ToolParam) == [] and check(anthropic[1], WebSearchTool20250305Param) == []
    gemini = genai.Tool.model_validate(json.loads((TOOLS / "gemini.json").read_text(encoding="utf-8")))
    assert gemini.function_declarations[0].parameters.properties["topic"].nullable is True
    wrapped = json.loads((TOOLS / "gemini-tools.json").read_text(encoding="utf-8"))
    assert genai.Tool.model_validate(wrapped["tools"][0]).function_declarations[0].parameters_json_schema


def test_mcp_listings_fit_the_mcp_types():
    mcp_types = pytest.importorskip("mcp.types")
    listing = {"tools": [original("github-mcp-issue-write.json"), original("github-mcp-push-files.json")]}
    assert [t.name for t in mcp_types.ListToolsResult.model_validate(listing).tools] == ["issue_write", "push_files"]


def test_an_mcp_server_in_a_tool_file_is_kept_and_named_with_where_to_declare_it_elsewhere(tmp_path):
    """A Responses tool list holding an MCP server: a scenario's from: keeps the server as a hosted tool
    (tests/test_tool_file_hosted.py); where tool lists are read without a file (a trace's recorded tools, a body
    the mock reads) it is left out with a note that says how a scenario declares it (tools: - type: mcp)."""
    from toolchoice.providers.core.tool_import import convert

    listing = [{"type": "function", "name": "get_time", "parameters": {"type": "object", "properties": {}}},
               {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp"}]
    (tmp_path / "tools.json").write_text(json.dumps(listing))
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - from: tools.json\nmessages: [{role: user, content: hi}]\n")
    sc = load_scenario(path)
    assert [t.name for t in sc.tools] == ["get_time"] and [t.label for t in sc.native_tools] == ["mcp server 'deepwiki'"]
    assert "import.skipped" not in [n.code for n in sc.notes]
    note = next(n.message for n in convert(listing, "tools").notes if n.code == "import.skipped")
    assert "mcp server 'deepwiki'" in note and "type: mcp" in note and "no neutral form" not in note


def test_tools_says_when_a_scenario_could_not_hold_what_it_prints(tmp_path):
    """`tools` prints every tool it reads (a starter to cut down); a scenario holding more than the tools limit is
    refused at load. The printout says so first (here with the limit lowered to 5), and not at the limit itself."""
    import os

    from cli import run_cli

    for count, warned in ((5, False), (6, True)):
        path = tmp_path / f"t{count}.json"
        path.write_text(json.dumps([{"type": "function", "function": {"name": f"t{i}", "parameters": {"type": "object"}}}
                                    for i in range(count)]), encoding="utf-8")
        result = run_cli(["tools", str(path)], env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": "5"})
        assert result.returncode == 0, result.stderr
        assert ("# warning import.over_limit: 6 tools: a scenario takes at most 5 items (limit tools)"
                in result.stdout) == warned, result.stdout[:400]
        scenario = tmp_path / f"s{count}.yaml"
        scenario.write_text(result.stdout + "messages:\n  - {role: user, content: hi}\n", encoding="utf-8")
        loaded = run_cli(["render", str(scenario), "-p", "openai", "-f", "json"],
                         env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": "5"})
        assert (loaded.returncode == 2) == warned, loaded.stderr
