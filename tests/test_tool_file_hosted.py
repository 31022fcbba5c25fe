"""Hosted tools in a ``from:`` tool file (core/hosted_import.py): an exported OpenAI Responses tool list keeps its
MCP server, read as the same entry written in a scenario's ``tools:`` is (core/native_tools.py).

The tool list is a real one: the ``tools`` a Response echoed (tests/data/responses/openai-responses/
openai-responses-mcp-call.json, recorded by vercel/ai, SOURCES.md there: ``allowed_tools`` and ``headers`` are
``null``) beside the Responses function tool and hosted ``web_search`` of tests/data/tools/openai-responses.json.
Rendered bodies are held to the SDK request types (openai 3.57.0, anthropic 2.14.0, google-genai)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli import run_cli
from sdk_types import check, missing
from test_native_tools import DOCS_ENV, header_reaches_the_server_never_the_output
from toolchoice.providers import load_scenario, parse_reply, translate
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import NativeTool, RenderOptions, ToolchoiceError

DATA = Path(__file__).resolve().parent / "data"
RECORDED = json.loads((DATA / "responses" / "openai-responses" / "openai-responses-mcp-call.json").read_text())
FUNCTION_AND_WEB_SEARCH = json.loads((DATA / "tools" / "openai-responses.json").read_text())
(SERVER,) = RECORDED["tools"]  # {"type": "mcp", "allowed_tools": null, "headers": null, ..., "server_label": "dmcp"}
SERVER_AS_SET = {k: v for k, v in SERVER.items() if v is not None}  # what was set: null is the echo of "not set"
TAKERS = {"openai-responses", "anthropic", "gemini"}  # the modules that render an MCP server (test_native_tools)


def tool_file(tmp_path: Path, tools: list[Any], name: str = "tools.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(tools, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def scenario_file(tmp_path: Path, tools_yaml: str, choice: str | None = None) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"tools:\n{tools_yaml}messages: [{{role: user, content: What is new on the web?}}]\n"
                    + (f"tool_choice: {choice}\n" if choice else ""), encoding="utf-8")
    return path


def exported(tmp_path: Path, choice: str | None = None) -> Any:
    tool_file(tmp_path, [*FUNCTION_AND_WEB_SEARCH, SERVER])
    return load_scenario(scenario_file(tmp_path, "  - from: tools.json\n", choice))


def notes(s: Any) -> dict[str, str]:
    return {n.code: n.message for n in s.notes}


def codes(t: Any) -> list[str]:
    return [e.code for e in t.ledger]


# ---- read as the inline form is -----------------------------------------------------------------------------


def test_the_server_of_an_exported_tool_list_is_kept_as_the_inline_form_gives_it(tmp_path: Path):
    s = exported(tmp_path)
    assert [t.name for t in s.tools] == ["get_weather"]
    inline = scenario_file(tmp_path, "  - name: get_weather\n  - " + json.dumps(SERVER_AS_SET) + "\n")
    assert s.native_tools == load_scenario(inline).native_tools == (NativeTool("mcp", SERVER_AS_SET),)
    said = notes(s)
    assert said["import.hosted"].startswith("tools.json: 1 hosted tool kept") and "mcp server 'dmcp'" in said["import.hosted"]
    assert "allowed_tools, headers null: read as not set" in said["import.hosted"]  # every change is in the ledger
    assert "web_search" in said["import.skipped"] and "dmcp" not in said["import.skipped"]


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_sends_the_server_as_written_and_the_sdk_type_takes_the_body(tmp_path: Path):
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    s = exported(tmp_path, choice="{type: mcp, server_label: dmcp}")
    t = translate("openai-responses", s)
    assert not t.refused, t.ledger
    body = t.request.body
    assert [tool["type"] for tool in body["tools"]] == ["function", "mcp"]
    assert body["tools"][1] == SERVER_AS_SET
    assert check(body, ResponseCreateParamsNonStreaming) == []
    assert "import.hosted" in codes(t) and "tool.native" in codes(t)
    assert "tool_choice.native_target" not in codes(t)  # the forced server is declared (by the file)
    elsewhere = translate("openai-responses", exported(tmp_path, choice="{type: mcp, server_label: other}"))
    assert "tool_choice.native_target" in codes(elsewhere)


def test_a_call_on_the_files_server_obeys_required(tmp_path: Path):
    from toolchoice.providers.core.verdict import verdict

    s = exported(tmp_path, choice="required")
    t = translate("openai-responses", s)
    reply = parse_reply("openai-responses", RECORDED)  # the real reply: an mcp_call on dmcp, no function call
    assert not reply.tool_calls and [c.server for c in reply.server_calls] == ["dmcp"]
    judged = verdict(s, reply, t)
    assert judged["category"] == "obeyed" and "dmcp/web_search_exa" in judged["reasons"][0]


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_renders_its_connector_form(tmp_path: Path):
    from anthropic.types.beta.message_create_params import MessageCreateParamsNonStreaming

    t = translate("anthropic", exported(tmp_path))
    body = t.request.body
    assert body["mcp_servers"] == [{"type": "url", "url": SERVER["server_url"], "name": "dmcp"}]
    assert body["tools"][1:] == [{"type": "mcp_toolset", "mcp_server_name": "dmcp"}]
    assert check(body, MessageCreateParamsNonStreaming) == []
    assert "tool.native_beta" in codes(t)


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_gemini_renders_its_mcp_servers_form(tmp_path: Path):
    from google.genai import types

    t = translate("gemini", exported(tmp_path))
    hosted = t.request.body["tools"][1]
    assert hosted == {"mcpServers": [{"name": "dmcp", "streamableHttpTransport": {"url": SERVER["server_url"]}}]}
    assert types.Tool.model_validate(hosted).mcp_servers[0].name == "dmcp"


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_every_other_provider_drops_it_and_says_so(tmp_path: Path, provider: str):
    t = translate(provider, exported(tmp_path))
    dropped = [e.message for e in t.ledger if e.code == "tool.native_dropped"]
    if provider in TAKERS:
        assert not dropped and "dmcp" in json.dumps(t.request.body)
    else:
        assert [m.split(" is not sent")[0] for m in dropped] == ["tool mcp server 'dmcp'"]
        assert "dmcp" not in json.dumps(t.request.body) and "mcp.exa.ai" not in json.dumps(t.request.body)


def test_programmatic_and_code_execution_tools_are_kept_too(tmp_path: Path):
    tool_file(tmp_path, [FUNCTION_AND_WEB_SEARCH[0], {"type": "programmatic_tool_calling"},
                         {"type": "code_execution_20250825", "name": "code_execution"}])
    s = load_scenario(scenario_file(tmp_path, "  - from: tools.json\n"))
    assert s.native_tools == (NativeTool("programmatic_tool_calling"), NativeTool("code_execution_20250825"))
    assert translate("openai-responses", s).request.body["tools"][1:] == [{"type": "programmatic_tool_calling"}]


# ---- the same checks, pointing into the tool file ------------------------------------------------------------


def test_a_literal_secret_in_the_file_is_refused_on_its_line(tmp_path: Path):
    secret = "sk-literal-0123456789abcdef"
    path = tool_file(tmp_path, [FUNCTION_AND_WEB_SEARCH[0], dict(SERVER_AS_SET, headers={"Authorization": f"Bearer {secret}"})])
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if secret in text)
    scenario = scenario_file(tmp_path, "  - from: tools.json\n")
    for args in (["render", str(scenario), "-p", "openai-responses"], ["tools", str(path)]):
        result = run_cli(args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        (error,) = result.stderr.strip().splitlines()
        assert error.startswith(f"toolchoice: error: {path}:{line}:")
        assert "headers.Authorization of mcp tool 'dmcp' must be an $ENV reference" in error
        assert "write its name with $" in error  # what to do
        assert secret not in result.stdout + result.stderr


@pytest.mark.parametrize("name, text, line, words", [
    ("tools.yaml", "- type: mcp\n  server_label: gh\n  connector_id: connector_gmial\n", 3,
     "connector_id 'connector_gmial' is not one of openai's connectors"),
    ("tools.yaml", "- type: mcp\n  server_label: gh\n  server_url: https://a.example/mcp\n  authorization: tok\n", 4,
     "authorization of mcp tool 'gh' must be an $ENV reference"),
    ("tools.jsonl", '{"type": "programmatic_tool_calling"}\n{"type": "mcp", "server_label": "a"}\n', 2,
     "exactly one of server_url, connector_id and tunnel_id"),
    ("tools.jsonl", '{"type": "programmatic_tool_calling"}\n{"type": "programmatic_tool_calling"}\n', 2,
     "duplicate tool programmatic_tool_calling (first declared on line 1)"),
    ("tools.json", '[\n  {"type": "code_execution_20250825",\n   "name": "run"}\n]\n', 3, "always code_execution"),
])
def test_bad_hosted_entries_are_one_line_errors_in_the_tool_file(tmp_path: Path, name, text, line, words):
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario(scenario_file(tmp_path, f"  - from: {name}\n"))
    assert (caught.value.path, caught.value.line) == (str(tmp_path / name), line)
    assert words in caught.value.message and "\n" not in str(caught.value)


def test_json_lines_errors_name_the_row_and_column_where_the_file_has_them(tmp_path: Path):
    """JSON Lines rows are read as one list, each row on the line it has in the file: a bad value in a later
    row, after a function row and a blank line, is named at its own line and column (the first row alone too)."""
    good = '{"type": "mcp", "server_label": "a", "server_url": "https://a.example/mcp"}'
    bad = '{"type": "mcp", "server_label": "b", "server_url": 5}'
    function = '{"type": "function", "name": "f", "parameters": {"type": "object"}}'
    for text, line in ((f"{function}\n\n{good}\n{bad}\n", 4), (f"{bad}\n{good}\n", 1), (f"{good}\n\n\n{bad}\n", 4)):
        (tmp_path / "tools.jsonl").write_text(text, encoding="utf-8")
        with pytest.raises(ToolchoiceError) as caught:
            load_scenario(scenario_file(tmp_path, "  - from: tools.jsonl\n"))
        assert (caught.value.line, caught.value.column) == (line, bad.index("5") + 1), text
        assert "server_url of mcp tool 'b' must be a non-empty string" in caught.value.message
    (tmp_path / "tools.jsonl").write_text(f"{function}\n{good}\n\n" + good.replace('"a"', '"c"') + "\n")
    scenario = load_scenario(scenario_file(tmp_path, "  - from: tools.jsonl\n"))
    assert [t.label for t in scenario.native_tools] == ["mcp server 'a'", "mcp server 'c'"]


def test_a_server_label_in_the_file_and_inline_is_refused_either_way(tmp_path: Path):
    tool_file(tmp_path, [*FUNCTION_AND_WEB_SEARCH, SERVER])
    inline = '  - {type: mcp, server_label: dmcp, server_url: "https://b.example/mcp"}\n'
    for tools, line, words in ((inline + "  - from: tools.json\n", 3,
                                "duplicate mcp server_label 'dmcp', imported by from: tools.json (first declared on line 2)"),
                               ("  - from: tools.json\n" + inline, 3,
                                "duplicate mcp server_label 'dmcp' (first declared on line 2, imported by from: tools.json)")):
        path = scenario_file(tmp_path, tools)
        result = run_cli(["render", str(path), "-p", "openai-responses"])
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr.startswith(f"toolchoice: error: {path}:{line}:") and words in result.stderr


def test_hosted_kinds_toolchoice_does_not_know_are_still_left_out_with_the_note(tmp_path: Path):
    tool_file(tmp_path, [FUNCTION_AND_WEB_SEARCH[0], {"type": "code_interpreter", "container": {"type": "auto"}},
                         {"type": "bash_20250124", "name": "bash"}, SERVER])
    s = load_scenario(scenario_file(tmp_path, "  - from: tools.json\n"))
    assert [t.label for t in s.native_tools] == ["mcp server 'dmcp'"]
    skipped = notes(s)["import.skipped"]
    assert "left out: code_interpreter, bash" in skipped and "no neutral form" in skipped
    body = json.dumps(translate("openai-responses", s).request.body)
    assert "code_interpreter" not in body and "bash" not in body


def test_the_tools_command_prints_them_as_a_scenario_declares_them(tmp_path: Path):
    path = tool_file(tmp_path, [*FUNCTION_AND_WEB_SEARCH, SERVER])
    result = run_cli(["tools", str(path)])
    assert result.returncode == 0, result.stderr
    listed = yaml.safe_load(result.stdout)["tools"]
    assert [t.get("name") or t["type"] for t in listed] == ["get_weather", "mcp"] and listed[1] == SERVER_AS_SET
    assert "# info import.hosted: " in result.stdout
    again = tmp_path / "again.yaml"
    again.write_text(yaml.safe_dump({"tools": listed, "messages": [{"role": "user", "content": "hi"}]}))
    assert load_scenario(again).native_tools == exported(tmp_path).native_tools
    as_json = json.loads(run_cli(["tools", str(path), "-f", "json"]).stdout)
    assert as_json["tools"][1] == SERVER_AS_SET and "import.hosted" in [e["code"] for e in as_json["ledger"]]


# ---- a $ENV header from the file reaches the server and no output --------------------------------------------


def test_a_header_variable_in_the_file_is_sent_and_never_shown(tmp_path: Path):
    tool_file(tmp_path, [FUNCTION_AND_WEB_SEARCH[0], dict(SERVER_AS_SET, headers={"X-Key": "$DOCS_KEY"})])
    path = scenario_file(tmp_path, "  - from: tools.json\n")
    refused = run_cli(["render", str(path), "-p", "openai-responses"], env=DOCS_ENV)
    assert "env.not_allowed" in refused.stdout + refused.stderr  # read only when allowed, as inline
    header_reaches_the_server_never_the_output(path, DOCS_ENV)


# ---- nothing new for a scenario without hosted tools in its files --------------------------------------------


def test_a_file_without_hosted_tools_does_not_load_the_hosted_reader(tmp_path: Path):
    tool_file(tmp_path, FUNCTION_AND_WEB_SEARCH)
    path = scenario_file(tmp_path, "  - from: tools.json\n")
    code = ("import sys; from toolchoice.providers import load_scenario; s = load_scenario(sys.argv[1]); "
            "print(len(s.native_tools), 'toolchoice.providers.core.hosted_import' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["0", "False"], out.stderr
