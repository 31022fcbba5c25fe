"""A new user's trial, sixteenth round (trial16c): each behaviour a new user met and the fix holds, in-process."""

from __future__ import annotations

import pytest

from toolchoice.providers import load_scenario_text
from toolchoice.providers.core import loop

from cli import run_cli
from test_doc_commands import BOX, environment
from test_readme import ROOT

FORCED_LOOP = """
tools:
  - {name: search, parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
tool_choice: required
messages: [{role: user, content: Find the capital of France}]
loop: {max_steps: 5, results: {search: Paris}}
"""


def test_dry_run_s_later_steps_say_a_forced_loop_ends_only_at_max_steps():
    """`run --dry-run` of a loop forcing every call and no loop.steps said "step 2:" (as if step 3 differed) and
    "the loop ends when the model answers without a tool call", which the forced choice rules out (its own ledger
    warned loop.cannot_end)."""
    lines = loop.later_steps(load_scenario_text(FORCED_LOOP))
    assert lines[0].startswith('step 2 (and every later step): tool_choice "required"'), lines
    assert lines[-1].startswith("the loop ends only at max_steps 5 or when a step fails: from step 1 on every step "
                                "forces a call"), lines
    assert "loop.cannot_end" in lines[-1]
    # a loop that can end says so as before; two steps at most: no "every later step"
    can_end = load_scenario_text(FORCED_LOOP.replace("tool_choice: required", "tool_choice: auto"))
    assert loop.later_steps(can_end)[-1] == ("the loop ends when the model answers without a tool call, at max_steps 5, "
                                             "or when a step fails")
    two = load_scenario_text(FORCED_LOOP.replace("max_steps: 5", "max_steps: 2"))
    assert loop.later_steps(two)[0].startswith('step 2: tool_choice "required"')


@pytest.mark.parametrize("columns", [80, 60])
def test_five_providers_compared_keep_anthropic_s_wire_key_whole(columns):
    """`compare configs/planner-trap.yaml -p openai,anthropic,gemini,ollama,bedrock` at 80 columns cut the wire form
    to `"disable_parallel_tool_use…` to keep a tools column that said `1 sent` on every row (at 60: the strict
    column, `–` on every row); the wire's key is whole and the column given up is named under the table."""
    done = run_cli(["compare", "configs/planner-trap.yaml", "-p", "openai,anthropic,gemini,ollama,bedrock"],
                   env=environment(COLUMNS=str(columns)), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    table = [line for line in done.stdout.splitlines() if line[:1] in BOX]
    assert max(len(line) for line in table) <= columns
    assert not any("…" in line for line in table), done.stdout
    assert any('"disable_parallel_tool_use":true}' in line for line in table), done.stdout
    assert f"left out at {columns} columns: endpoint, tools" in done.stdout


def test_a_command_without_p_says_what_to_give():
    """`send FILE` without -p said only "Missing option '--provider' / '-p'."; `run FILE --replay DIR` without -p
    did too, though DIR names the provider its run was saved on."""
    done = run_cli(["send", "configs/weather.yaml"], env=environment(), cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("toolchoice: error: Missing option '--provider' / '-p'. (name a provider: -p openai; "
                           "`toolchoice providers` lists the ids; see toolchoice send --help)\n")
    saved = "tests/data/loops/planner-loop-gemma-270m"
    for replay in (["--replay", saved], [f"--replay={saved}"]):
        done = run_cli(["run", "configs/planner-loop.yaml", *replay], env=environment(), cwd=ROOT)
        assert done.returncode == 2
        assert f"(name a provider: {saved} holds a run saved on openai (-p openai replays it as recorded;" in done.stderr
    done = run_cli(["run", "configs/planner-loop.yaml"], env=environment(), cwd=ROOT)
    assert "(name a provider: -p openai, or several: -p openai,anthropic;" in done.stderr


@pytest.mark.parametrize("words, said", [
    (["python3", "server.py"], "give one source, not FILE and --mcp"),
    (["python3", "server.py", "stdio"], "Got unexpected extra argument(s) (stdio)"),
    (["npx", "-y", "@modelcontextprotocol/server-everything"], "No such option: -y")])
def test_tools_mcp_with_its_command_line_unquoted_says_to_quote_it(words, said):
    """`tools --mcp python3 server.py` said "give one source, not FILE and --mcp"; with one more word, "Got
    unexpected extra argument(s)"; `--mcp npx -y PKG` "No such option: -y": none said --mcp takes one argument."""
    done = run_cli(["tools", "--mcp", *words], env=environment(), cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    quoted = "'" + " ".join(words) + "'"
    assert done.stderr == (f"toolchoice: error: {said} (--mcp takes the server's whole command line as one argument: "
                           f"--mcp {quoted}; see toolchoice tools --help)\n")
    # quoted, an unknown option after it is only that
    done = run_cli(["tools", "--mcp", " ".join(words), "--bogus"], env=environment(), cwd=ROOT)
    assert done.stderr == "toolchoice: error: No such option: --bogus (see toolchoice tools --help)\n"


def test_a_local_server_not_started_is_said_with_what_to_do(tmp_path):
    """`send -p ollama` with no Ollama running ended "connection failed: All connection attempts failed (POST
    http://localhost:11434/api/chat) (after 3 attempts)": nothing said a server was missing, nor how to give one."""
    import json
    import socket

    with socket.socket() as refusing:  # bound, never listening: connections are refused
        refusing.bind(("127.0.0.1", 0))
        port = refusing.getsockname()[1]
        (tmp_path / "s.yaml").write_text(
            "tools: [{name: get_weather, parameters: {type: object, properties: {city: {type: string}}}}]\n"
            f"messages: [{{role: user, content: hi}}]\nproviders: {{vllm: {{base_url: 'http://127.0.0.1:{port}/v1'}}}}\n",
            encoding="utf-8")
        done = run_cli(["send", "s.yaml", "-p", "vllm", "--retries", "0", "-f", "json"], env=environment(),
                       cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error == (f"vllm: transport_error: connection failed: All connection attempts failed (POST "
                     f"http://127.0.0.1:{port}/v1/chat/completions): nothing listens at 127.0.0.1:{port} on this "
                     "machine; start your server (or toolchoice mock) there, or give its address with --base-url / "
                     "providers.<id>.base_url (after 1 attempt)")


@pytest.mark.parametrize("columns", [80, 60])
def test_the_command_list_folds_each_command_s_help_as_one_paragraph(columns):
    """`toolchoice --help` kept the line breaks of two docstrings: providers' "one provider in" over "full;", trace's
    "results)," over "or the one that sends", each a half-empty line."""
    done = run_cli(["--help"], env=environment(COLUMNS=str(columns)), cwd=ROOT)
    assert done.returncode == 0
    assert "one provider in full;" in done.stdout, done.stdout
    assert any(line.rstrip(" │").endswith(("results), or the one that sends a", "results), or the one that sends"))
               for line in done.stdout.splitlines()), done.stdout


PARALLEL_OFF = """
tools:
  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
  - {name: get_time, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
tool_choice: get_weather
parallel_tool_calls: false
messages: [{role: user, content: "Weather in Paris?"}]
"""


def test_a_wrapper_refusing_only_the_scenario_s_parallel_tool_calls_says_so(tmp_path):
    """`toolchoice init`'s scenario sets parallel_tool_calls: false; with --dialect langchain --tool-choice any,
    ChatGoogleGenerativeAI and ChatOllama were REFUSED with pydantic's and the client's words only, and a new user
    whose bind_tools(tools, tool_choice='any') passes no parallel_tool_calls read that their call fails."""
    import json

    (tmp_path / "s.yaml").write_text(PARALLEL_OFF, encoding="utf-8")
    for provider in ("gemini", "ollama"):
        done = run_cli(["render", "s.yaml", "-p", provider, "--dialect", "langchain", "--tool-choice", "any", "-f", "json"],
                       env=environment(), cwd=tmp_path)
        assert done.returncode == 3, done.stderr
        [refused] = [e["message"] for e in json.loads(done.stdout)["ledger"] if e["code"] == "dialect.refused"]
        assert "nothing is sent (the scenario's parallel_tool_calls is passed as bind_tools(..., parallel_tool_calls=" \
               "False): where your call does not pass it, leave it out of the scenario and the request is sent): " in refused
        # and so it is
        (tmp_path / "s.yaml").write_text(PARALLEL_OFF.replace("parallel_tool_calls: false\n", ""), encoding="utf-8")
        done = run_cli(["render", "s.yaml", "-p", provider, "--dialect", "langchain", "--tool-choice", "any", "-f", "json"],
                       env=environment(), cwd=tmp_path)
        assert done.returncode == 0 and "dialect.refused" not in done.stdout, done.stdout
        (tmp_path / "s.yaml").write_text(PARALLEL_OFF, encoding="utf-8")
    # a refusal the choice causes (ChatHuggingFace wants one tool for any tool_choice) names no parallel way out
    done = run_cli(["render", "s.yaml", "-p", "huggingface", "--dialect", "langchain", "-f", "json"], env=environment(),
                   cwd=tmp_path)
    refusals = [e["message"] for e in json.loads(done.stdout)["ledger"] if e["code"] == "dialect.refused"]
    assert refusals and "leave it out of the scenario" not in refusals[0]


def test_replaying_a_save_s_own_transcript_names_the_scenario_to_replay_with(tmp_path):
    """A new user replaying a saved run took the folder's scenario.yaml (the run's whole history) as SCENARIO: the
    replay ran with the history twice over and warned loop.call_id_reused, with no word of the mix-up."""
    from toolchoice.providers.core.loop_save import transcript_of

    saved = "tests/data/loops/planner-loop-gemma-270m"
    transcript = f"{saved}/openai/loop-001/scenario.yaml"
    done = run_cli(["run", transcript, "-p", "openai", "--replay", saved], env=environment(), cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"toolchoice: error: {transcript} is the transcript --save wrote in {saved} (the run's whole "
                           "history), not the scenario the run started from (replay with that one: toolchoice run "
                           f"configs/planner-loop.yaml --replay {saved} -p openai)\n")
    assert transcript_of(ROOT / "configs" / "planner-loop.yaml") is None
    # a description past the dump's width, folded at its spaces, is read whole
    folded = tmp_path / "scenario.yaml"
    folded.write_text("description: transcript of a toolchoice run of my\n  scenarios/a long name.yaml\ntools: []\n",
                      encoding="utf-8")
    assert transcript_of(folded) == "my scenarios/a long name.yaml"


@pytest.mark.parametrize("text, said", [("? 0:\n", "keys must be strings, not 0"),
                                        ("? [a]: 1\nparameters: {}\n", "keys must be strings, not ['a']")])
def test_the_tool_file_check_leaves_a_key_that_is_not_a_string_to_its_own_error(text, said):
    """The tool-file check read every top-level key's value as a string: a list as a key (`? [a]: 1`, found by
    tests/test_fuzz.py) raised TypeError where the loader refuses it in one line."""
    from toolchoice.providers.core.model import ToolchoiceError

    with pytest.raises(ToolchoiceError) as info:
        load_scenario_text(text)
    assert info.value.message == said
