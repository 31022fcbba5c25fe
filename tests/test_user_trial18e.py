"""What a new user's first hour (session 18, trial18e) met and got changed: an engineer whose agent runs on Gemini and
Anthropic (Bedrock in production), with no key and no network, writing a support agent's scenario the way the docs
teach and making a newcomer's mistakes. Each test runs the real command-line entry (tests/cli.py) and reads what the
user sees: the table and its keys at 80 and 60 columns, the one-line errors (exit 2, no traceback), the loop's
advice, the probe's title, and `trace` given the files `run` wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cli import run_cli, refused_saying, user_env
from toolchoice.providers import running_mock

AGENT = """\
tools:
  - name: lookup_order
    description: Look up an order by id.
    parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
  - name: refund_order
    description: Refund an order.
    parameters: {type: object, properties: {order_id: {type: string}, amount: {type: number}}, required: [order_id]}
tool_choice: required
messages:
  - {role: system, content: You are a support agent.}
  - {role: user, content: "Refund order A-17 please"}
providers:
  gemini: {model: gemini-3.5-flash}
  anthropic: {model: claude-sonnet-5, max_tokens: 2048, thinking: adaptive}
  bedrock: {model: anthropic.claude-sonnet-5-v1:0, region: us-east-1}
loop:
  max_steps: 5
  after_call: auto
  results:
    lookup_order: {status: delivered, total: 42.0}
    refund_order: refunded
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("trial18e")
    (here / "agent.yaml").write_text(AGENT, encoding="utf-8")
    made = run_cli(["init", str(here / "scenario.yaml")], env=user_env())  # the README's first keyless command
    assert made.returncode == 0, made.stderr
    return here


# ---- compare: the keys under the table say only what the table shows ----------------------------------------------


def _keys(stdout: str) -> str:
    """The lines between the table and the findings: "left out at ...", the marks' and the ledger's key."""
    return " ".join(stdout.split("└")[-1].split("\n"))


def test_the_mark_key_is_there_when_a_marked_cell_is_drawn_and_gone_when_its_column_is_left_out(folder: Path) -> None:
    """At 60 columns the parallel column (Anthropic's `sent*` beside two `dropped`) and the ledger column are left out,
    yet the key said "*: differs from most providers · ledger: E errors, W warnings, I info" under a table with no
    star and no ledger."""
    wide = run_cli(["compare", str(folder / "scenario.yaml"), "-p", "gemini,anthropic,bedrock"], env=user_env(80))
    assert wide.returncode == 0, wide.stderr
    assert "sent*" in wide.stdout and "*: differs from most providers" in _keys(wide.stdout)
    assert "ledger: E errors, W warnings, I info" in _keys(wide.stdout)
    narrow = run_cli(["compare", str(folder / "scenario.yaml"), "-p", "gemini,anthropic,bedrock"], env=user_env(60))
    assert narrow.returncode == 0, narrow.stderr
    table = narrow.stdout.split("└")[0]
    assert "*" not in table and "ledger" not in table.split("┡")[0]  # neither a mark nor a ledger header drawn
    keys = _keys(narrow.stdout)
    assert "left out at 60 columns:" in keys and "parallel" in keys and "ledger" in keys
    assert "differs from most" not in keys and "E errors" not in keys
    assert "`toolchoice render SCENARIO -p ID` shows each provider's ledger" in keys
    assert all(len(line) <= 60 for line in narrow.stdout.splitlines())


def test_a_provider_that_sends_beside_two_that_refuse_is_not_marked_the_odd_one_out(folder: Path) -> None:
    """Manual thinking with `required` is refused on Anthropic and Bedrock; Gemini's `{"mode":"ANY"}*` and `2 sent*`
    were starred as differing from "most providers", which were the two REFUSED rows."""
    thinking = folder / "thinking.yaml"
    thinking.write_text(AGENT.replace("thinking: adaptive", "thinking: true").replace(
        "claude-sonnet-5,", "claude-sonnet-4-6,").replace("region: us-east-1}", "region: us-east-1, thinking: true}")
        .replace("anthropic.claude-sonnet-5-v1:0", "anthropic.claude-sonnet-4-6"), encoding="utf-8")
    done = run_cli(["compare", str(thinking), "-p", "gemini,anthropic,bedrock"], env=user_env(80))
    assert done.returncode == 3, done.stderr  # refused translations
    table = done.stdout.split("└")[0]
    assert table.count("REFUSED") == 2 and "*" not in table
    assert "differs from most" not in done.stdout
    assert "thinking.forced_choice (anthropic)" in done.stdout and "thinking.forced_choice (bedrock)" in done.stdout


# ---- the newcomer's spellings: one line saying what to write ------------------------------------------------------


@pytest.mark.parametrize(("written", "said"), [
    ("{type: required}", "write the word alone: tool_choice: required"),
    ("{any: true}", "write the word alone: tool_choice: any"),
    ("{toolChoice: {any: {}}}", "write the word alone: tool_choice: any"),
    ("{name: lookup_order}", "to force lookup_order, write tool_choice: lookup_order (or {tool: lookup_order})"),
    ("{type: tool, tool: refund_order}", "to force refund_order, write tool_choice: refund_order"),
    ("{mode: forced, x: 1}", "use {tool: NAME}, {allowed: [a, b], mode: auto}, or an OpenAI/Anthropic/Gemini/Bedrock"),
])
def test_a_tool_choice_object_no_form_reads_says_what_to_write(folder: Path, written: str, said: str) -> None:
    """Every such object got the same hint, the list of forms; an object naming a declared tool or holding a keyword
    now says the spelling that means it."""
    done = run_cli(["render", str(folder / "agent.yaml"), "-p", "bedrock", "--tool-choice", written], env=user_env())
    refused_saying(done, "--tool-choice: tool_choice object", "is not a form toolchoice knows", said)


@pytest.mark.parametrize(("written", "said"), [
    ("enabled", "providers.anthropic.thinking is not a thinking setting: str 'enabled' (write thinking: true ("),
    ("disabled", "(write thinking: false ("),
    ("4096", "providers.anthropic.thinking is not a thinking setting: int 4096 (write thinking: {budget: 4096} ("),
])
def test_thinking_in_the_apis_words_says_the_setting_that_sends_them(folder: Path, written: str, said: str) -> None:
    """`thinking: enabled` (Anthropic's type) read "must be true or false, not str 'enabled'" beside a hint listing
    adaptive and mappings: the message contradicted its own hint and named no setting."""
    scenario = folder / "thinking-words.yaml"
    scenario.write_text(AGENT.replace("thinking: adaptive", f"thinking: {written}"), encoding="utf-8")
    refused_saying(run_cli(["render", str(scenario), "-p", "anthropic"], env=user_env()), f"{scenario}:14:67:", said)


MESSAGES = """\
tools: [{name: lookup_order, parameters: {type: object, properties: {order_id: {type: string}}}}]
messages:
  - {role: user, content: Refund A-17}
"""


@pytest.mark.parametrize(("tail", "where", "said"), [
    ("  - {role: model, content: On it.}\n", ":4:12:", "unknown message role 'model' (Gemini's model is assistant "
                                                       "here: role: assistant)"),
    ("  - role: assistant\n    content: [{type: tool_use, id: toolu_1, name: lookup_order, input: {order_id: A-17}}]\n",
     ":5:14:", "an assistant message's content is text, not a list of content blocks (tool_use) (write the text as "
               "content: \"...\", a tool_use as the assistant message's tool_calls: [{id: call_1, name: NAME, "
               "arguments: {...}}], a tool_result as {role: tool, tool_call_id: call_1, content: ...}; or convert a "
               "request your agent sent: toolchoice trace REQUEST.json -p PROVIDER"),
    ("  - {role: user, content: [{type: tool_result, tool_use_id: toolu_1, content: delivered}]}\n", ":4:27:",
     "a user message's content is text, not a list of content blocks (tool_result)"),
    ("  - {role: user, parts: [{text: And refund it.}]}\n", ":4:18:", "a user message with parts (Gemini's form)"),
    ("  - role: assistant\n    tool_calls: [{id: c1, type: function, function: {name: lookup_order, arguments: "
     "'{\"order_id\": \"A-17\"}'}}]\n", ":5:43:",
     "a tool call in OpenAI chat's form ({id, type: function, function: {name, arguments}}) (write it flat: "
     "{id: call_1, name: NAME, arguments: {...}}"),
])
def test_a_message_pasted_in_an_apis_own_shape_says_how_to_write_it(folder: Path, tail: str, where: str,
                                                                   said: str) -> None:
    """Anthropic's content blocks read "content must be a string, not list [{'type': 'tool_use', ...}] (quote it if
    YAML read it as something else)"; Gemini's role "(role: user, assistant or tool)"; OpenAI's call "unknown key
    'function' in a tool call"."""
    scenario = folder / "pasted.yaml"
    scenario.write_text(MESSAGES + tail, encoding="utf-8")
    refused_saying(run_cli(["render", str(scenario), "-p", "anthropic"], env=user_env()), f"{scenario}{where}", said)


def test_the_conversion_the_hint_names_turns_such_a_request_into_a_scenario_render_takes(folder: Path) -> None:
    """The hint's way out, followed: the Anthropic request with its tool_use and tool_result blocks, saved as
    {url, body} and given to `trace -p anthropic`, comes out as the neutral messages."""
    request = folder / "request.json"
    request.write_text(json.dumps({"url": "https://api.anthropic.com/v1/messages", "body": {
        "model": "claude-sonnet-5", "max_tokens": 1024, "tool_choice": {"type": "any"},
        "tools": [{"name": "lookup_order", "input_schema": {"type": "object",
                                                            "properties": {"order_id": {"type": "string"}}}}],
        "messages": [{"role": "user", "content": "Refund A-17"},
                     {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup_order",
                                                        "input": {"order_id": "A-17"}}]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                   "content": "delivered"}]}]}}), encoding="utf-8")
    out = folder / "converted.yaml"
    done = run_cli(["trace", str(request), "-p", "anthropic", "--scenario-out", str(out)], env=user_env())
    assert done.returncode == 0, done.stderr
    messages = yaml.safe_load(out.read_text(encoding="utf-8"))["messages"]
    assert messages[1]["tool_calls"] == [{"id": "toolu_1", "name": "lookup_order", "arguments": {"order_id": "A-17"}}]
    assert messages[2] == {"role": "tool", "tool_call_id": "toolu_1", "content": "delivered"}
    rendered = run_cli(["render", str(out), "-p", "gemini,bedrock", "-f", "json"], env=user_env())
    assert rendered.returncode == 0, rendered.stderr


# ---- the loop: advice that does not lead back into the warning ----------------------------------------------------


def test_the_way_out_of_a_thinking_change_between_steps_is_not_the_setting_that_made_it(folder: Path) -> None:
    """Bedrock's Sonnet 5 takes a forcing choice only with thinking disabled: step 1 (`required`) sends it disabled,
    step 2 (`auto`, from loop.after_call: auto) the model's default. The warning's way out was "the same kind of
    tool_choice on every step (auto, or loop.after_call: auto)": the user had just written loop.after_call: auto.
    It now names the setting that keeps every step alike, and following it clears the warning."""
    done = run_cli(["run", str(folder / "agent.yaml"), "-p", "bedrock", "--dry-run", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "loop.tools_changed_with_thinking" in text
    assert ("Way out: set providers.bedrock.thinking: false (every step sends it disabled), or tool_choice auto on "
            "every step") in text
    assert "or loop.after_call: auto)" not in text
    followed = folder / "agent-thinking-off.yaml"
    followed.write_text(AGENT.replace("region: us-east-1}", "region: us-east-1, thinking: false}"), encoding="utf-8")
    again = run_cli(["run", str(followed), "-p", "bedrock", "--dry-run", "-f", "json"], env=user_env())
    assert again.returncode == 0, again.stderr
    assert "loop.tools_changed_with_thinking" not in again.stdout


@pytest.mark.parametrize(("loop", "said"), [
    ("stop: {tool: final_answer}", "loop.stop.tool 'final_answer' is not a declared tool (declare it under tools: (- "
                                   "{name: final_answer, description: Call when done, parameters: {type: object, "
                                   "properties: {answer: {type: string}}}}), or end on a text answer: stop: "
                                   "{when: no_tool_call}; declared tools: lookup_order, refund_order)"),
    ("stop: final_answer", "loop.stop must be a mapping (key: value), not the scalar 'final_answer' (write stop: "
                           "{tool: final_answer} to end the loop when final_answer is called)"),
])
def test_a_stop_tool_the_scenario_does_not_declare_says_how_to_offer_one(folder: Path, loop: str, said: str) -> None:
    """The loop.cannot_end warning says "offer a tool the model calls when it is done, and set loop.stop.tool: NAME";
    the newcomer wrote the name and no tool, and the line listed the declared tools only (`stop: final_answer`: no
    hint at all). There is no built-in stop tool: the line says how to declare one."""
    scenario = folder / "stop.yaml"
    scenario.write_text(AGENT.replace("  after_call: auto\n", f"  {loop}\n"), encoding="utf-8")
    refused_saying(run_cli(["run", str(scenario), "-p", "gemini", "--dry-run"], env=user_env()), said)


# ---- against the mock: the probe's title, and trace given what run wrote -------------------------------------------


@pytest.fixture(scope="module")
def bedrock(folder: Path):
    with running_mock("bedrock") as mock:
        yield mock.base_url


def test_probe_names_the_model_a_bedrock_scenario_sends_to(folder: Path, bedrock: str) -> None:
    """Converse names the model in the URL, not the body: the title read "· default model ·" while the URL beside it
    held the scenario's anthropic.claude-sonnet-5-v1:0."""
    done = run_cli(["probe", str(folder / "agent.yaml"), "-p", "bedrock", "--base-url", bedrock, "--tool-choice",
                    "auto", "--repeat", "1"], env=user_env(100, AWS_BEARER_TOKEN_BEDROCK="unused"))
    assert done.returncode == 0, done.stderr
    title = " ".join(done.stdout.split("┌")[0].split())
    assert "/model/anthropic.claude-sonnet-5-v1%3A0/converse · anthropic.claude-sonnet-5-v1:0 ·" in title, title
    assert "default model" not in title


def test_trace_given_what_run_wrote_points_at_the_files_it_reads(folder: Path, bedrock: str) -> None:
    """`trace runs/.../loop.json` said "not an OTLP/JSON trace export (no resourceSpans) (export the trace as OTLP/JSON:
    ...)", and `trace` of `run -f json`'s document the same: both are toolchoice's own files, whose scenario and step
    requests are beside them or a --save away."""
    saves = folder / "runs"
    env = user_env(AWS_BEARER_TOKEN_BEDROCK="unused")
    ran = run_cli(["run", str(folder / "agent.yaml"), "-p", "bedrock", "--base-url", bedrock, "--save", str(saves),
                   "-f", "json"], env=env)
    assert ran.returncode == 0, ran.stderr
    printed = folder / "run.json"
    printed.write_text(ran.stdout, encoding="utf-8")
    loop = saves / "bedrock" / "loop-001"
    line = refused_saying(run_cli(["trace", str(loop / "loop.json")], env=env),
                    f"{loop / 'loop.json'}: the record of a loop `run --save` wrote (loop.json); not an OTLP/JSON "
                    "trace export or a saved request (the scenario.yaml beside it is that loop's scenario with its "
                    "whole history", "toolchoice trace step-01.request.json")
    assert "resourceSpans" not in line
    refused_saying(run_cli(["trace", str(printed)], env=env), "the document `run --format json` prints",
             "run the loop with --save DIR: DIR/PROVIDER/loop-001/scenario.yaml")
    for named in ("scenario.yaml", "step-01.request.json"):  # what the line names is there and reads
        assert (loop / named).is_file()
    step = run_cli(["trace", str(loop / "step-01.request.json")], env=env)
    assert step.returncode == 0, step.stderr
