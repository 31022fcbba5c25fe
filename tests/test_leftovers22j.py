"""Small leftovers of session 22, each held here and each failing before its fix: the mock's --script words in the
file's own YAML/JSON, a saved request holding a lone surrogate traced, init's $'...' name said as bash's, the schema
keyword typos through bounded's near-word, parse's flags without a scenario, the trace's provider mapping words and
the Stainless SDKs' [DONE]."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import refused, run_cli

# ---- mock --script: a wrong value said as the file says it (true, "x", null), not as Python's repr (True, 'x') ---


@pytest.mark.parametrize("name, text, line, said", [
    ("s.yaml", "replies:\n  - call: true\n", 2, "a tool name must be a non-empty string, not true"),
    ("s.yaml", "replies:\n  - call: yes\n", 2, "a tool name must be a non-empty string, not yes"),
    ("s.yaml", "replies:\n  - call:\n", 2, "a tool name must be a non-empty string, not nothing"),
    ("s.json", '{"replies": [{"text": true}]}\n', 1, "text must be a string, not true"),
    ("s.json", '{"replies": [{"status": "429"}]}\n', 1, 'status must be an HTTP error status 400-599, not "429"'),
    ("s.yaml", "steps:\n  true: {text: hi}\n", 2, "a step key must be a request number from 1, not true"),
    ("s.yaml", "replies:\n  - calls: [{name: null}]\n", 2, "a tool name must be a non-empty string, not nothing"),
    ("s.json", '{"replies": [{"phantom": ["a", false]}]}\n', 1, 'not ["a", false]'),
])
def test_a_script_s_wrong_value_is_said_in_the_file_s_own_words(tmp_path: Path, name: str, text: str, line: int,
                                                                said: str) -> None:
    """"not True" (Python's repr) where the file says true; "not 'x'" for a JSON "x"; "not None" for nothing."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    words = refused(run_cli(["mock", "-p", "openai", "--script", str(path)]))
    assert f"{path}:{line}:" in words and said in words, words
    for python in ("True", "False", "None", "'"):
        assert python not in words.split(": ", 1)[1].split(" (")[0], words


# ---- trace STEP.request.json: a saved request holding a lone surrogate is read, as run --save's transcript is ----


def test_a_saved_step_request_holding_a_lone_surrogate_is_traced_as_the_transcript_writes_it(tmp_path: Path) -> None:
    """A reply's JSON "\\ud800" escape (json.loads reads half a character, as the SDKs do) went into the next step's
    saved request, as send wrote it; `trace` on that file was refused in one line (the scenario reader refuses a
    lone surrogate). Now read as U+FFFD, as run --save's scenario.yaml writes it, and said in the ledger; a call's
    arguments (a JSON text the reading decodes) too."""
    import json

    from servers import StandIn, Step

    def reply(message: str) -> str:
        return ('{"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": 0, '
                f'"message": {message}, "finish_reason": "stop"}}]}}')

    called = reply('{"role": "assistant", "content": "half \\ud800 here", "tool_calls": [{"id": "call_1", "type": '
                   '"function", "function": {"name": "f", "arguments": "{\\"q\\": \\"x \\\\udc00 y\\"}"}}]}')
    assert json.loads(called)["choices"][0]["message"]["content"] == "half \ud800 here"  # what a JSON reader gets
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object, properties: {q: {type: string}}}}\n"
                    "tool_choice: auto\nmessages:\n  - {role: user, content: hi}\n"
                    "providers: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-test-key-0123456789"}
    with StandIn("openai", Step(body=called), Step(body=reply('{"role": "assistant", "content": "done"}'))) as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                          "--save", str(tmp_path / "saved")], env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    step = tmp_path / "saved" / "openai" / "loop-001" / "step-02.request.json"
    assert "half \ud800 here" in json.dumps(json.loads(step.read_text(encoding="utf-8")), ensure_ascii=False)
    out = tmp_path / "again.yaml"
    traced = run_cli(["trace", str(step), "--scenario-out", str(out)], env=env)
    assert traced.returncode == 0, traced.stderr
    written = out.read_text(encoding="utf-8")
    assert "# warning saved.lone_surrogate: 2 lone surrogates in the request" in written and "U+FFFD" in written
    assert "half \ufffd here" in written and "x \ufffd y" in written
    again = run_cli(["render", str(out), "-p", "openai", "-f", "json"], env=env)
    assert again.returncode == 0, again.stderr
    assert "half \ufffd here" in again.stdout


# ---- init: a $'...' name in the starter's try lines says the shells that read it, as every other such line does ---


def test_init_s_try_lines_say_bash_or_zsh_for_a_name_ending_in_a_newline(tmp_path: Path) -> None:
    """`init NAME` for a name that ends in a newline printed `$'s.yaml\\n'` in the starter's comment and in its
    "wrote" line without the note (shell_word.bash_only) that trace --scenario-out and the replay listing add: dash
    (Debian's /bin/sh) and fish read that word otherwise. The truth is bash: the printed word names the file."""
    import re
    import shutil
    import subprocess

    name = "s.yaml\n"
    done = run_cli(["init", name], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    note = "(in bash or zsh: a name in it ends in a newline, which dash and fish write on no one line)"
    assert done.stdout.rstrip("\n").endswith(f"` {note}"), done.stdout
    comment = (tmp_path / name).read_text(encoding="utf-8").split("\ntools:")[0]
    [word] = set(re.findall(r"toolchoice (?:compare|render) (\$'[^']*')", comment))
    assert f"#           {note}\n" in comment + "\n"
    bash = shutil.which("bash")
    if bash is not None:
        listed = subprocess.run([bash, "-c", f"printf %s {word} | od -c"], capture_output=True, text=True, check=True)
        assert "s   .   y   a   m   l  \\n" in listed.stdout
    plain = run_cli(["init", "p.yaml"], cwd=tmp_path)
    assert plain.stdout == "wrote p.yaml: try `toolchoice compare p.yaml`\n"
    assert "bash or zsh" not in (tmp_path / "p.yaml").read_text(encoding="utf-8")


# ---- schema keyword typos: bounded's near-word (did_you_mean's), not a second difflib call of its own -----------


def test_schema_check_finds_keyword_typos_through_bounded_s_near_word_with_difflib_s_answers() -> None:
    """keyword_typos called difflib.get_close_matches itself (cutoff 0.8 over the keywords), beside bounded's
    did_you_mean, the one bounded near-word of the product; now bounded's. Its answers are difflib's own (the
    truth: the stdlib called here), for typos, near misses, far words and a key past the bound."""
    import ast
    import difflib

    from toolchoice.providers.core import schema_check

    tree = ast.parse(Path(schema_check.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "difflib" not in imported and "nearest" in imported
    words = ["requried", "proprties", "itmes", "maxLenght", "minimun", "enumm", "additionalProperty", "descripton",
             "oneof", "AnyOf", "typ", "pattern_", "x", "city", "default_value", "formats", "requiredd", "contains_",
             "r" * 5000, "required" * 400, "unevaluatedPropertie"]
    schema = {word: {"type": "string"} for word in words}
    found = {word: meant for _, word, meant in schema_check.keyword_typos(schema)}
    for word in words:
        match = difflib.get_close_matches(word, sorted(schema_check.KEYWORDS), n=1, cutoff=0.8)
        assert found.get(word) == (match[0] if match else None), word
    assert found["requried"] == "required" and found["itmes"] == "items"


# ---- parse --tool-choice without -s: the command to give, the user's own words and the scenario where it goes ----


@pytest.mark.parametrize("extra", [["--tool-choice", "get_weather"],
                                   ["--tool-choice", "{tool: get_weather}", "--model", "gpt-4o", "--strict"]])
def test_parse_s_flags_without_a_scenario_give_the_command_with_one(tmp_path: Path, extra: list[str]) -> None:
    """"--tool-choice needs --scenario" with no example: now the command as given with -s SCENARIO where it goes;
    pasted with a real scenario for SCENARIO (by bash's word splitting, shlex here) it judges the reply."""
    import json
    import shlex

    root = Path(__file__).resolve().parents[1]
    reply = tmp_path / "my reply.json"
    reply.write_bytes((root / "tests" / "data" / "responses" / "openai" / "openai-chat-parallel.json").read_bytes())
    line = refused(run_cli(["parse", str(reply), "-p", "openai", *extra]))
    said = line.split("(name the scenario the request was built from: ", 1)[1].rstrip("\n").removesuffix(")")
    words = shlex.split(said)
    assert words[:2] == ["toolchoice", "parse"] and words[2:7] == [str(reply), "-p", "openai", "-s", "SCENARIO"]
    assert words[7:] == extra
    scenario = str(root / "configs" / "weather.yaml")
    done = run_cli([scenario if word == "SCENARIO" else word for word in words[1:]] + ["-f", "json"])
    assert done.returncode in (0, 4), done.stderr  # judged: obeyed, or not (exit 4: two calls for one forced)
    document = json.loads(done.stdout)
    assert document["requested_tool_choice"] == {"tool": "get_weather"}  # the scenario's is auto: the flag's
    assert document["verdict"]["obeyed"] is (done.returncode == 0)


# ---- trace.provider_mapped: why a Vertex AI name is gemini's, in gemini's words (its module), not core's ----------


@pytest.mark.parametrize("recorded, said", [
    ("gcp.vertex_ai", 'the recorded provider "gcp.vertex_ai" is toolchoice\'s gemini (the Gemini API: Vertex AI '
                      "speaks the same generateContent form)"),
    ("gcp.gemini", 'the recorded provider "gcp.gemini" is toolchoice\'s gemini')])
def test_a_vertex_ai_trace_is_said_to_be_gemini_s_in_the_family_s_words(tmp_path: Path, recorded: str,
                                                                       said: str) -> None:
    """The words moved from trace_scenario.py (core) to providers/gemini (TRACED_NAMES): the note is the same.
    OTel GenAI names Vertex AI's calls gcp.vertex_ai (gen_ai.provider.name's well-known values)."""
    import json

    from toolchoice.providers.core.registry import traced_name_note

    root = Path(__file__).resolve().parents[1]
    text = (root / "tests" / "data" / "traces" / "genai-structured-no-ids.json").read_text(encoding="utf-8")
    trace = tmp_path / "t.json"
    trace.write_text(text.replace('"gcp.gemini"', json.dumps(recorded)), encoding="utf-8")
    done = run_cli(["trace", str(trace), "-f", "json"])
    assert done.returncode == 0, done.stderr
    [line] = [x for x in done.stderr.splitlines() if "trace.provider_mapped" in x]
    assert line.endswith(said), line
    assert traced_name_note("openai", "vertex") == "" and traced_name_note("ollama", "vertex") == ""
