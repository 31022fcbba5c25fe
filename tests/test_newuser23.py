"""Trial 23c, a new user's first hour (README first, no key, a scenario written from scratch with mistakes, the mock
as the provider): what it found, held.

Each test runs the real command-line entry (tests/cli.py) and holds what it says to truth from outside the code
that says it: the file the test wrote (where its wrong value is, found by searching the text), a real mock server
on 127.0.0.1, the JSON Schema type names of the specification."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli import refused, run_cli, user_env

# JSON Schema 2020-12, Validation 6.1.1: "null", "boolean", "object", "array", "number", "string", "integer"
SPEC_TYPES = {"null", "boolean", "object", "array", "number", "string", "integer"}


def _place(text: str, written: str) -> tuple[int, int]:
    """The 1-based line and column where ``written`` is in ``text`` (the value the user typed)."""
    for number, line in enumerate(text.splitlines(), 1):
        if written in line:
            return number, line.index(written) + 1
    raise AssertionError(f"{written!r} not in the file")


def _refused_at(tmp_path: Path, text: str, written: str) -> str:
    """`render` of ``text`` refused, its line naming the line and column where ``written`` is."""
    (tmp_path / "s.yaml").write_text(text)
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    number, column = _place(text, written)
    assert f"s.yaml:{number}:{column}:" in line, line
    return line


def _rendered(tmp_path: Path, text: str) -> dict:
    """The request body `render -p openai -f json` makes of ``text``, which loads."""
    (tmp_path / "s.yaml").write_text(text)
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, (text, done.stderr)
    return json.loads(done.stdout)["request"]["body"]


# ---- 1. a wrong type in a tool's schema: "s1.yaml:2: ... 'strin' is not valid under any of the given schemas" ----
# (the line was the tool's, five lines above the typo; the words were jsonschema's and named no type)

TYPO = """\
tools:
  - name: search
    description: Search the web.
    parameters:
      type: object
      properties:
        q: {type: strin}
      required: [q]
messages:
  - {role: user, content: find cats}
"""


def test_a_type_typo_in_a_tool_schema_names_its_own_line_and_column_and_the_type_meant(tmp_path: Path) -> None:
    line = _refused_at(tmp_path, TYPO, "strin}")
    meant = re.search(r"did you mean (\w+)\?", line)
    assert meant and meant.group(1) in SPEC_TYPES, line
    listed = re.search(r"the types are ([a-z, ]+)", line)
    assert listed and set(listed.group(1).strip().split(", ")) == SPEC_TYPES, line
    _rendered(tmp_path, TYPO.replace("strin}", meant.group(1) + "}"))


def test_a_bare_type_word_as_a_property_is_shown_the_schema_to_write(tmp_path: Path) -> None:
    text = ("tools:\n  - {type: function, function: {name: a, parameters: {type: object, properties: {x: string}}}}\n"
            "messages: [{role: user, content: hi}]\n")
    shown = re.search(r"must be a schema, (\{type: string\})", line := _refused_at(tmp_path, text, "string}"))
    assert shown, line
    _rendered(tmp_path, text.replace("x: string", "x: " + shown.group(1)))


def test_a_wrong_schema_in_a_tool_file_read_by_from_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text("- name: f\n  parameters: {type: object, properties: {a: {type: strng}}}\n")
    (tmp_path / "s.yaml").write_text("tools:\n  - from: tools.yaml\nmessages: [{role: user, content: hi}]\n")
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert "s.yaml:2:" in line and "tools.yaml" in line.partition("s.yaml:2:")[2], line


# ---- 2. the starter `init` writes, run as run --help shows against the mock: ten forced steps, ten error results ----

def test_the_starter_scenario_runs_against_the_mock_to_an_answer_with_every_result_given(tmp_path: Path) -> None:
    """What the mock received (its saved requests) is the truth: step 2 carries step 1's call answered by a real
    result, not an error, with the call's own argument in it, and the loop asks no third time."""
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    with running_mock("openai", save_dir=tmp_path / "seen") as mock:
        done = run_cli(["run", "scenario.yaml", "-p", "openai", "--base-url", mock.base_url, "--retries", "0"],
                       env=user_env(OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    requests = sorted((tmp_path / "seen").glob("*.request.json"))
    assert len(requests) == 2, requests
    messages = json.loads(requests[1].read_text())["body"]["messages"]
    (call,) = messages[-2]["tool_calls"]
    city = json.loads(call["function"]["arguments"])["city"]
    result = messages[-1]
    assert result["role"] == "tool" and result["tool_call_id"] == call["id"], result
    assert city in result["content"] and not result["content"].startswith("error"), result


@pytest.mark.parametrize("name", ["scenario.yaml", "scenario.json"])
def test_the_starter_loop_warns_of_nothing_in_a_dry_run(name: str, tmp_path: Path) -> None:
    assert run_cli(["init", name], env=user_env(), cwd=tmp_path).returncode == 0
    done = run_cli(["run", name, "-p", "openai", "--dry-run"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "loop.cannot_end" not in done.stdout and "loop.no_results" not in done.stdout, done.stdout


# ---- 3. BFCL function docs with one mistyped type: "must describe an object, not type 'dict'; wrap the value" ----
# (BFCL's own docs write `"type": "dict"` for the arguments: gorilla bfcl_eval/constants/type_mappings.py maps
# dict -> object; the hint sent the author to wrap an object that already was one)

BFCL_DOCS = [{"name": "get_distance", "description": "Distance between two cities.",
              "parameters": {"type": "dict", "properties": {"origin": {"type": "string"},
                                                            "unit": {"type": "strng"}}, "required": ["origin"]}}]


@pytest.mark.parametrize("how", ["tools", "from"])
def test_bfcl_docs_with_a_type_typo_name_the_typo_and_its_line_not_dict(how: str, tmp_path: Path) -> None:
    text = json.dumps(BFCL_DOCS, indent=2)
    (tmp_path / "bfcl.json").write_text(text)
    (tmp_path / "s.yaml").write_text("tools:\n  - from: bfcl.json\nmessages: [{role: user, content: hi}]\n")
    words = ["tools", "bfcl.json"] if how == "tools" else ["render", "s.yaml", "-p", "openai"]
    line = refused(run_cli(words, env=user_env(), cwd=tmp_path))
    number, _ = _place(text, '"strng"')
    assert f"bfcl.json:{number}" in line and "'strng'" in line, line
    assert "wrap the value" not in line, line
    (tmp_path / "bfcl.json").write_text(text.replace('"strng"', '"string"'))
    assert run_cli(words, env=user_env(), cwd=tmp_path).returncode == 0


# ---- 4. required: [query] beside properties: {q: ...}: rendered without a word, judged later as wrong arguments ----

REQUIRED_TYPO = """\
tools:
  - name: search
    parameters:
      type: object
      properties:
        query_text: {type: string}
      required: [query_txt]
tool_choice: search
messages: [{role: user, content: find cats}]
"""


def test_a_required_name_no_property_describes_is_a_warning_with_the_name_meant(tmp_path: Path) -> None:
    import jsonschema

    import yaml

    schema = yaml.safe_load(REQUIRED_TYPO)["tools"][0]["parameters"]
    with pytest.raises(jsonschema.ValidationError):  # a call giving every described argument fails the schema
        jsonschema.validate({"query_text": "cats"}, schema)
    (tmp_path / "s.yaml").write_text(REQUIRED_TYPO)
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = [e for e in json.loads(done.stdout)["ledger"] if e["code"] == "schema.required_unknown"]
    assert len(said) == 1 and said[0]["severity"] == "warning", said
    assert "'query_txt'" in said[0]["message"] and "did you mean 'query_text'?" in said[0]["message"], said
    (tmp_path / "s.yaml").write_text(REQUIRED_TYPO.replace("[query_txt]", "[query_text]"))
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert "schema.required_unknown" not in done.stdout
    # allOf may describe it: valid and meant, so no warning
    (tmp_path / "s.yaml").write_text(REQUIRED_TYPO.replace("      required: [query_txt]\n",
                                                           "      allOf: [{properties: {query_txt: {type: string}}}]\n"
                                                           "      required: [query_txt]\n"))
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0 and "schema.required_unknown" not in done.stdout, done.stdout


# ---- 5. tool_choice half-shapes: "names a tool with null", "not a form toolchoice knows" with no form to write ----

HALF = """\
tools:
  - {name: search, parameters: {type: object, properties: {q: {type: string}}, required: [q]}}
  - {name: fetch, parameters: {type: object, properties: {url: {type: string}}, required: [url]}}
tool_choice: CHOICE
messages: [{role: user, content: find cats}]
"""
# What the provider's own wire takes for a named choice (openai 3.57.0 ChatCompletionNamedToolChoiceParam:
# {"type": "function", "function": {"name": ...}}; anthropic ToolChoiceToolParam: {"type": "tool", "name": ...})
WIRE = {"function": {"type": "function", "function": {"name": "search"}}, "tool": {"type": "tool", "name": "search"}}


@pytest.mark.parametrize("kind, provider", [("function", "openai"), ("tool", "anthropic")])
def test_a_named_choice_without_its_name_is_shown_the_whole_shape(kind: str, provider: str, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", f"{{type: {kind}}}"))
    line = refused(run_cli(["render", "s.yaml", "-p", provider], env=user_env(), cwd=tmp_path))
    assert "names no tool" in line and "null" not in line, line
    shape = re.search(r"\(or (\{type: .*?\}\})\)|\(or (\{type: tool, .*?\})\)", line)
    assert shape, line
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", shape.group(1) or shape.group(2)))
    done = run_cli(["render", "s.yaml", "-p", provider, "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["body"]["tool_choice"] == WIRE[kind]


@pytest.mark.parametrize("written", ["{allowed_tools: [search, fetch]}", "{tools: [search, fetch], mode: required}"])
def test_a_subset_under_another_key_is_shown_the_allowed_form(written: str, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", written))
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    form = re.search(r"write tool_choice: (\{allowed: \[[^]]*\], mode: required\})", line)
    assert form, line
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", form.group(1)))
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sent = json.loads(done.stdout)["request"]["body"]["tool_choice"]  # openai AllowedToolChoice: mode and tools
    assert sent["type"] == "allowed_tools" and sent["allowed_tools"]["mode"] == "required", sent
    assert {t["function"]["name"] for t in sent["allowed_tools"]["tools"]} == {"search", "fetch"}, sent


def test_an_allowed_list_written_as_one_word_is_shown_the_brackets(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", "{allowed: search, mode: required}"))
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    fixed = re.search(r"write it in brackets: (\[search\])", line)
    assert fixed, line
    (tmp_path / "s.yaml").write_text(HALF.replace("CHOICE", f"{{allowed: {fixed.group(1)}, mode: required}}"))
    assert run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path).returncode == 0


# ---- 6. `tools` printed an MCP listing with {type: int} as good YAML (exit 0, no word); pasted, render refused it ----

def test_tools_warns_of_a_schema_a_scenario_would_refuse(tmp_path: Path) -> None:
    listing = {"tools": [{"name": "lookup", "inputSchema": {"type": "object", "properties": {"n": {"type": "int"}}}}]}
    (tmp_path / "listing.json").write_text(json.dumps(listing))
    shown = run_cli(["tools", "listing.json"], env=user_env(), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    (tmp_path / "tools.yaml").write_text(shown.stdout)  # as the docs say: `toolchoice tools ... > tools.yaml`
    (tmp_path / "s.yaml").write_text("tools:\n  - from: tools.yaml\nmessages: [{role: user, content: hi}]\n")
    refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))  # the truth: refused
    warned = [line for line in shown.stdout.splitlines() if line.startswith("# warning import.schema_invalid")]
    assert len(warned) == 1 and "'lookup'" in warned[0] and "'int'" in warned[0], shown.stdout
    data = json.loads(run_cli(["tools", "listing.json", "-f", "json"], env=user_env(), cwd=tmp_path).stdout)
    assert [e["code"] for e in data["ledger"] if e["severity"] == "warning"] == ["import.schema_invalid"], data


# ---- 7. loop.results: get_weather: "18 C in {city}" went to the model braces and all, without a word ---------

def test_a_literal_result_that_looks_like_a_template_is_said_and_the_template_form_fills_it(tmp_path: Path) -> None:
    """The mock's saved request is the truth: what the model was sent as the result."""
    from toolchoice.providers.core.mock.server import running_mock

    literal = ("tools:\n  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}, "
               "required: [city]}}\ntool_choice: get_weather\nmessages: [{role: user, content: Weather in Paris?}]\n"
               'loop:\n  after_call: auto\n  results:\n    get_weather: "18 C in {city}"\n')
    (tmp_path / "scenario.yaml").write_text(literal)
    with running_mock("openai", save_dir=tmp_path / "seen") as mock:
        done = run_cli(["run", "scenario.yaml", "-p", "openai", "--base-url", mock.base_url, "--retries", "0"],
                       env=user_env(OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sent = json.loads(sorted((tmp_path / "seen").glob("*.request.json"))[1].read_text())["body"]["messages"][-1]
    assert sent["content"] == "18 C in {city}", sent  # braces and all
    said = " ".join(done.stdout.split())
    assert "loop.literal_field" in said and "{template:" in said, done.stdout
    (tmp_path / "scenario.yaml").write_text(literal.replace('get_weather: "18 C in {city}"',
                                                            'get_weather: {template: "18 C in {city}"}'))
    dry = run_cli(["run", "scenario.yaml", "-p", "openai", "--dry-run"], env=user_env(), cwd=tmp_path)
    assert dry.returncode == 0 and "loop.literal_field" not in dry.stdout, dry.stdout


# ---- 8. providers: {openai: {tool_choice: any}}: "unknown key" and sixteen known keys, none of them the way ---------

PER_PROVIDER = """\
tools:
  - {name: search, parameters: {type: object, properties: {q: {type: string}}, required: [q]}}
tool_choice: auto
messages: [{role: user, content: find cats}]
providers:
  openai: SETTINGS
"""


def test_a_tool_choice_under_a_provider_is_shown_the_top_level_and_extra(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(PER_PROVIDER.replace("SETTINGS", "{tool_choice: required}"))
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    number, column = _place(PER_PROVIDER, "SETTINGS")
    assert f"s.yaml:{number}:{column + 1}:" in line and "top level" in line, line
    written = re.search(r"(providers\.openai\.extra): \{tool_choice: \.\.\.\}", line)
    assert written, line
    (tmp_path / "s.yaml").write_text(PER_PROVIDER.replace("SETTINGS", "{extra: {tool_choice: required}}"))
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["body"]["tool_choice"] == "required"


def test_a_model_id_alone_under_a_provider_is_shown_the_model_key(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(PER_PROVIDER.replace("SETTINGS", "gpt-4.1"))
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    written = re.search(r"write providers\.openai: (\{model: gpt-4\.1\})", line)
    assert written, line
    (tmp_path / "s.yaml").write_text(PER_PROVIDER.replace("SETTINGS", written.group(1)))
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["request"]["body"]["model"] == "gpt-4.1", done.stderr


# ---- 9. a tool result written {role: tool, id: c1}: "unknown key 'id'" and the known keys, none named as meant ----

def test_a_tool_result_s_id_is_shown_tool_call_id(tmp_path: Path) -> None:
    text = ("tools:\n  - {name: a}\nmessages:\n  - {role: user, content: hi}\n  - role: assistant\n"
            "    tool_calls: [{id: c1, name: a, arguments: {}}]\n  - {role: tool, id: c1, content: ok}\n")
    written = re.search(r"write (tool_call_id: c1)", line := _refused_at(tmp_path, text, "id: c1, content"))
    assert written, line
    sent = _rendered(tmp_path, text.replace("id: c1, content", written.group(1) + ", content"))["messages"][-1]
    # openai ChatCompletionToolMessageParam
    assert sent == {"role": "tool", "tool_call_id": "c1", "content": "ok"}, sent


# ---- 10. an indent too few and a list written as something else: what the line said and where it sent the author ----

INDENT = {
    # parameters: left empty, its `type: object` one indent short: was "only function and custom tools are supported"
    "type beside name": ("tools:\n  - name: a\n    parameters:\n    type: object\nmessages: [{role: user, content: hi}]\n",
                         "type: object", "parameters:"),
    # properties: left empty, its entries beside it: was "None is not of type 'object' (at properties)"
    "properties empty": ("tools:\n  - name: a\n    parameters:\n      type: object\n      properties:\n"
                         "      x: {type: string}\nmessages: [{role: user, content: hi}]\n", "properties:\n", "properties:"),
}


@pytest.mark.parametrize("case", sorted(INDENT))
def test_an_indent_too_few_is_said_as_one_and_two_more_spaces_load(case: str, tmp_path: Path) -> None:
    text, wrong, under = INDENT[case]
    (tmp_path / "s.yaml").write_text(text)
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert "indent" in line and "two spaces more" in line and "not supported" not in line, line
    assert "None is not" not in line, line
    # the fix the words give: the lines after `under` indented two spaces more
    lines = text.splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if under in l) + 1
    end = next(i for i, l in enumerate(lines) if l.startswith("messages:"))
    fixed = "".join(lines[:start] + ["  " + l for l in lines[start:end]] + lines[end:])
    (tmp_path / "s.yaml").write_text(fixed)
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, (fixed, done.stderr)
    sent = json.loads(done.stdout)["request"]["body"]["tools"][0]["function"]["parameters"]
    assert sent["type"] == "object" and wrong.strip().rstrip(":") in fixed, sent


@pytest.mark.parametrize("text, fix", [
    ("tools:\n  name: a\nmessages: [{role: user, content: hi}]\n", "start each tool with '- '"),
    ("tools:\n  - get_weather\nmessages: [{role: user, content: hi}]\n", "write - name: get_weather"),
    ("tools:\n  - name: a\nmessages: hi\n", "- {role: user, content: ...}"),
])
def test_a_list_written_as_something_else_is_shown_the_list_item(text: str, fix: str, tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(text)
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert fix in line.partition(" (")[2], line


def test_a_bare_type_null_is_said_and_the_quoted_null_loads(tmp_path: Path) -> None:
    """JSON Schema's type names include "null" (2020-12 Validation 6.1.1); YAML 1.2 reads a bare null as no value, which
    no type is: it rendered as "type": null (no JSON Schema) without a word."""
    text = "tools:\n  - {name: a, parameters: {type: object, properties: {x: {type: null}}}}\nmessages: [{role: user, content: hi}]\n"
    line = _refused_at(tmp_path, text, "null}")
    assert "quote 'null'" in line, line
    x = _rendered(tmp_path, text.replace("type: null", "type: 'null'"))["tools"][0]["function"]["parameters"]["properties"]["x"]
    assert x == {"type": "null"}, x
