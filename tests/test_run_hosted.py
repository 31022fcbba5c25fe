"""`toolchoice run` with hosted tools: the Responses-only tool_choice forms (``{type: mcp, server_label, name?}``,
``{type: programmatic_tool_calling}``) in every format, with and without --repeat, against `toolchoice mock` on
127.0.0.1 (which answers them with the items openai 3.57.0 types/responses/response_output_item.py defines:
tests/test_native_tools_mock.py holds that to the SDK); `$NAME` MCP headers sent with --allow-env and never shown
or saved; the loop lint of a forced hosted call (it can end the loop, as the mock's loops show); the calls cell
of a reply holding calls the provider ran (real recorded bodies); the Wilson bounds of 0 and n successes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from servers import StandIn, Step  # noqa: E402

from toolchoice.providers.core.mock.server import running_mock  # noqa: E402
from toolchoice.providers.core.verdict import wilson  # noqa: E402

KEY = "sk-run-hosted-canary-0123456789abcdef"
SECRET = "docs-key-value-run-0123456789abcdef"
ENV = {"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY, "NO_PROXY": "127.0.0.1", "COLUMNS": "200"}

TOOLS = """tools:
  - {name: get_time, description: the time, parameters: {type: object, properties: {tz: {type: string}}}}
  - type: mcp
    server_label: dw
    server_url: https://mcp.deepwiki.com/mcp
    allowed_tools: [ask_question]
  - type: programmatic_tool_calling
"""

CHOICES = [
    ({"type": "mcp", "server_label": "dw"}, "{type: mcp, server_label: dw}"),
    ({"type": "mcp", "server_label": "dw", "name": "ask_question"},
     "{type: mcp, server_label: dw, name: ask_question}"),
    ({"type": "programmatic_tool_calling"}, "{type: programmatic_tool_calling}"),
]


def toolchoice(*args: str, env: dict[str, str] | None = None) -> Any:
    result = run_cli(args, env=ENV | (env or {}))
    assert KEY not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    return result


def native_scenario(tmp_path: Path, choice: dict[str, Any], max_steps: int = 3) -> Path:
    path = tmp_path / "hosted.yaml"
    path.write_text(f"{TOOLS}tool_choice: {json.dumps(choice)}\nmessages:\n  - {{role: user, content: hi}}\n"
                    f"loop:\n  max_steps: {max_steps}\n  results:\n    get_time: '12:00'\n")
    return path


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    with running_mock("openai-responses") as running:
        yield running


# ---- a native choice runs in every format, with and without --repeat (was: exit 70, unhashable dict) ----------


@pytest.mark.parametrize("repeat", [1, 3])
@pytest.mark.parametrize("choice,spelled", CHOICES, ids=["mcp", "mcp-named", "programmatic"])
def test_a_native_choice_runs_in_every_format(tmp_path: Path, mock: Any, choice: dict[str, Any], spelled: str,
                                              repeat: int) -> None:
    path = native_scenario(tmp_path, choice)
    common = ["run", str(path), "-p", "openai-responses", "--base-url", mock.base_url, "--repeat", str(repeat)]
    as_json = toolchoice(*common, "-f", "json")
    assert as_json.returncode == 0, as_json.stderr
    run = json.loads(as_json.stdout)["runs"][0]
    assert len(run["loops"]) == repeat
    for loop in run["loops"]:
        assert loop["steps"][0]["requested_tool_choice"] == choice
        assert loop["steps"][0]["effective_tool_choice"] == choice  # sent as written
        assert loop["steps"][0]["verdict"]["obeyed"] is True
    step1 = run["summary"]["steps"][0]
    assert (step1["reached"], step1["obeyed"]) == (repeat, repeat)
    pretty = toolchoice(*common)
    assert pretty.returncode == 0, pretty.stderr
    assert spelled in pretty.stdout  # the choice column: the native form as written, not "required"
    markdown = toolchoice(*common, "-f", "markdown")
    assert markdown.returncode == 0, markdown.stderr
    if repeat == 1:
        assert f"| 1 | {spelled} | {json.dumps(choice, separators=(',', ':'))} |" in markdown.stdout
    else:
        assert "| 1 | 3 | 3 | 100% |" in markdown.stdout


def test_a_forced_mcp_call_ends_the_loop_at_step_1_and_the_lint_says_so(tmp_path: Path, mock: Any) -> None:
    """What the mock does (the API runs the MCP call inside the reply: no function call) is what loop.hosted_call
    says, and loop.cannot_end ("can only end at max_steps") is not said."""
    path = native_scenario(tmp_path, {"type": "mcp", "server_label": "dw"})
    result = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", mock.base_url, "-f", "json")
    (loop,) = json.loads(result.stdout)["runs"][0]["loops"]
    assert loop["ended"] == {"reason": "no_tool_call", "step": 1, "error": None}
    step = loop["steps"][0]
    assert step["reply"]["server_calls"][0]["kind"] == "mcp_call" and step["reply"]["tool_calls"] == []
    codes = {e["code"]: e for e in step["ledger"]}
    assert "loop.cannot_end" not in codes
    said = codes["loop.hosted_call"]
    assert said["severity"] == "info" and "no_tool_call" in said["message"]
    assert said["message"].startswith('from step 1 on: {"type":"mcp","server_label":"dw"} forces a call to a '
                                      'hosted tool')
    pretty = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", mock.base_url)
    assert "mcp_call dw/ask_question" in pretty.stdout and "(no call)" not in pretty.stdout
    assert "loop.cannot_end" not in pretty.stdout


def test_the_summary_wilson_bounds_of_0_and_n_are_exact(tmp_path: Path, mock: Any) -> None:
    path = native_scenario(tmp_path, {"type": "mcp", "server_label": "dw"})
    result = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", mock.base_url, "-n", "3",
                        "-f", "json")
    summary = json.loads(result.stdout)["runs"][0]["summary"]
    never = summary["ended"]["max_steps"]  # 0 of 3 loops
    always = summary["ended"]["no_tool_call"]  # 3 of 3
    assert (never["count"], never["low"]) == (0, 0.0) and (always["count"], always["high"]) == (3, 1.0)
    # by hand: the Wilson upper bound at 0 of n is z²/(n + z²); z = 1.96 gives 3.8416 / 6.8416 = 0.5615
    assert abs(never["high"] - 0.5615) < 1e-4 and abs(always["low"] - (1 - 0.5615)) < 1e-4
    assert "e-1" not in result.stdout  # no float noise such as 5.55e-17


def test_wilson_against_published_intervals() -> None:
    # worked by hand with z = 1.96 (z² = 3.8416): 0 of 10 → upper z²/(n + z²) = 3.8416 / 13.8416 = 0.2775, lower 0;
    # 10 of 10 mirrors it; 5 of 10 → centre 0.5, half z·√(0.025 + z²/400) / (1 + z²/10) = 0.3646 / 1.3842
    # = 0.2634
    low, high = wilson(0, 10)
    assert low == 0.0 and abs(high - 0.2775) < 1e-4
    low, high = wilson(10, 10)
    assert high == 1.0 and abs(low - 0.7225) < 1e-4
    low, high = wilson(5, 10)
    assert abs(low - 0.2366) < 1e-4 and abs(high - 0.7634) < 1e-4


# ---- the loop lint of forced hosted calls, per provider ----------------------------------------------------------


def dry_codes(path: Path, provider: str) -> list[str]:
    result = toolchoice("run", str(path), "-p", provider, "--dry-run", "-f", "json")
    return [e["code"] for t in json.loads(result.stdout)["translations"] for e in t["ledger"]]


def test_required_with_hosted_tools_can_end_only_where_the_provider_sends_them(tmp_path: Path) -> None:
    path = tmp_path / "required.yaml"
    path.write_text("tools:\n  - {name: get_time, parameters: {type: object, properties: {}}}\n  - type: mcp\n"
                    "    server_label: dw\n    server_url: https://mcp.deepwiki.com/mcp\n"
                    "tool_choice: required\nmessages: [{role: user, content: hi}]\nloop: {max_steps: 4}\n")
    for provider in ("openai-responses", "anthropic"):  # both send the MCP server: a forced call may be run there
        found = dry_codes(path, provider)
        assert "loop.hosted_call" in found and "loop.cannot_end" not in found, provider
    found = dry_codes(path, "openai")  # Chat Completions drops it: every forced call is get_time's
    assert "tool.native_dropped" in found and "loop.cannot_end" in found and "loop.hosted_call" not in found
    rendered = toolchoice("render", str(path), "-p", "openai-responses", "-f", "json")
    assert "loop.hosted_call" in rendered.stdout and "loop.cannot_end" not in rendered.stdout


def test_a_function_only_loop_gets_no_hosted_call_note(tmp_path: Path) -> None:
    path = tmp_path / "plain.yaml"
    path.write_text("tools:\n  - {name: get_time, parameters: {type: object, properties: {}}}\n"
                    "tool_choice: required\nmessages: [{role: user, content: hi}]\nloop: {max_steps: 4}\n")
    found = dry_codes(path, "openai-responses")
    assert "loop.cannot_end" in found and "loop.hosted_call" not in found


# ---- the calls cell shows the calls the provider ran (real recorded replies) -------------------------------------


def test_the_calls_cell_shows_a_recorded_mcp_call(tmp_path: Path) -> None:
    # openai-responses-mcp-call.json: vercel/ai's recorded gpt-5-mini reply (SOURCES.md), an mcp_call on
    # server dmcp, tool web_search_exa, and no function call
    path = tmp_path / "mcp.yaml"
    path.write_text("tools:\n  - type: mcp\n    server_label: dmcp\n    server_url: https://mcp.exa.ai/mcp\n"
                    "tool_choice: required\nmessages: [{role: user, content: NYC mayor?}]\nloop: {max_steps: 2}\n")
    with StandIn("openai-responses", default=Step.reply("openai-responses", "openai-responses-mcp-call")) as stand_in:
        pretty = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url())
        markdown = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(),
                              "-f", "markdown")
    assert pretty.returncode == 0, pretty.stdout + pretty.stderr
    assert "mcp_call dmcp/web_search_exa" in pretty.stdout and "(no call)" not in pretty.stdout
    assert "| mcp_call dmcp/web_search_exa |" in markdown.stdout


def test_the_calls_cell_shows_an_anthropic_mcp_tool_use(tmp_path: Path) -> None:
    from test_native_tools import ANTHROPIC_MCP_REPLY  # written from anthropic 2.14.0's types, validated there

    path = tmp_path / "mcp.yaml"
    path.write_text("tools:\n  - type: mcp\n    server_label: deepwiki\n    server_url: https://mcp.deepwiki.com/mcp\n"
                    "tool_choice: required\nmessages: [{role: user, content: What is React?}]\nloop: {max_steps: 2}\n")
    with StandIn("anthropic", default=Step(body=ANTHROPIC_MCP_REPLY)) as stand_in:
        pretty = toolchoice("run", str(path), "-p", "anthropic", "--base-url", stand_in.base_url())
    assert pretty.returncode == 0, pretty.stdout + pretty.stderr
    assert "mcp_tool_use deepwiki/ask_question" in pretty.stdout and "(no call)" not in pretty.stdout


# ---- --allow-env: a $NAME MCP header reaches the server, never an output or a saved file -------------------------

HEADER_SCENARIO = """tools:
  - {name: get_weather, description: weather, parameters: {type: object, properties: {location: {type: string}}}}
  - type: mcp
    server_label: docs
    server_url: https://docs.example/mcp
    headers: {X-Key: $DOCS_KEY}
tool_choice: auto
messages: [{role: user, content: weather in SF}]
loop:
  max_steps: 2
  results: {get_weather: sunny}
"""


def echo_reply(text: str) -> dict[str, Any]:
    """A Responses reply holding only a message (openai 3.57.0 types/responses/response.py,
    response_output_message.py)."""
    return {"id": "resp_echo", "object": "response", "created_at": 1764147600, "status": "completed", "error": None,
            "model": "gpt-5.4-mini", "output": [{"type": "message", "id": "msg_echo", "role": "assistant",
                                                 "status": "completed", "content": [
                                                     {"type": "output_text", "text": text, "annotations": []}]}],
            "usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}}


@pytest.mark.parametrize("how", ["option", "setting"])
@pytest.mark.parametrize("form,repeat", [("pretty", 1), ("json", 1), ("markdown", 1), ("json", 2), ("pretty", 2)])
def test_allow_env_sends_the_header_and_keeps_the_reference(tmp_path: Path, form: str, repeat: int, how: str) -> None:
    path = tmp_path / "headers.yaml"
    path.write_text(HEADER_SCENARIO)
    save, trace = tmp_path / "saved", tmp_path / "trace.json"
    allow = ["--allow-env", "DOCS_KEY"] if how == "option" else []
    env = {"DOCS_KEY": SECRET} | ({"TOOLCHOICE_ALLOW_ENV": "DOCS_KEY"} if how == "setting" else {})
    # each loop: step 1 the recorded function call, step 2 a reply that echoes the secret (a server may)
    steps = [s for _ in range(repeat) for s in (Step.reply("openai-responses"), Step(body=echo_reply(f"key {SECRET}")))]
    with StandIn("openai-responses", *steps) as stand_in:
        result = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(), "-f", form,
                            "--repeat", str(repeat), "-k", "1", "--save", str(save), "--trace-out", str(trace),
                            *allow, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(stand_in.requests) == 2 * repeat
    for got in stand_in.requests:  # every step sends the value to the server
        assert got.json["tools"][1]["headers"] == {"X-Key": SECRET}
    assert SECRET not in result.stdout + result.stderr
    files = [p for p in save.rglob("*") if p.is_file()] + [trace]
    assert len(files) > 2
    for file in files:
        assert SECRET not in file.read_text(encoding="utf-8"), file
    request = json.loads((save / "openai-responses" / "loop-001" / "step-01.request.json").read_text())
    assert request["body"]["tools"][1]["headers"] == {"X-Key": "$DOCS_KEY"}
    assert "X-Key: $DOCS_KEY" in (save / "openai-responses" / "loop-001" / "scenario.yaml").read_text()
    reply = json.loads((save / "openai-responses" / "loop-001" / "step-01.reply.json").read_text())
    assert "env.allowed" in [e["code"] for e in reply["ledger"]]
    if form == "json" and repeat == 1:
        (loop,) = json.loads(result.stdout)["runs"][0]["loops"]
        assert loop["steps"][0]["request"]["body"]["tools"][1]["headers"] == {"X-Key": "$DOCS_KEY"}
        assert loop["final_answer"] == "key $DOCS_KEY"


def test_without_allow_env_the_step_is_refused_naming_an_option_run_has(tmp_path: Path) -> None:
    path = tmp_path / "headers.yaml"
    path.write_text(HEADER_SCENARIO)
    with StandIn("openai-responses") as stand_in:
        result = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(), "-f", "json",
                            env={"DOCS_KEY": SECRET})
    assert result.returncode == 3 and stand_in.requests == []  # refused before any request
    (loop,) = json.loads(result.stdout)["runs"][0]["loops"]
    (refused,) = [e for e in loop["steps"][0]["ledger"] if e["severity"] == "error"]
    assert refused["code"] == "env.not_allowed" and "pass --allow-env DOCS_KEY" in refused["message"]
    assert SECRET not in result.stdout + result.stderr
    helped = toolchoice("run", "--help")
    assert "--allow-env" in helped.stdout  # the option the message names exists


def test_allow_env_also_lets_a_loop_send_a_provider_header(tmp_path: Path) -> None:
    """The same option reads `$NAME` in providers.<id>.headers (the request's own headers) on every step."""
    path = tmp_path / "relay.yaml"
    path.write_text(HEADER_SCENARIO.replace("    headers: {X-Key: $DOCS_KEY}\n", "") +
                    "providers:\n  openai-responses:\n    headers: {X-Relay: $DOCS_KEY}\n")
    save = tmp_path / "saved"
    with StandIn("openai-responses", Step.reply("openai-responses"), Step(body=echo_reply("done"))) as stand_in:
        result = toolchoice("run", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(),
                            "--allow-env", "DOCS_KEY", "-f", "json", "--save", str(save), env={"DOCS_KEY": SECRET})
    assert result.returncode == 0, result.stdout + result.stderr
    assert [got.headers.get("x-relay") for got in stand_in.requests] == [SECRET, SECRET]
    assert SECRET not in result.stdout + result.stderr
    assert all(SECRET not in p.read_text(encoding="utf-8") for p in save.rglob("*") if p.is_file())


def test_a_call_repeated_to_max_steps_is_one_warning_line_in_the_pretty_view(tmp_path: Path, mock: Any) -> None:
    """A forced function call with no loop: section repeats to max_steps; the pretty view printed the same
    loop.repeated_call on every step (nine lines for a new user). One line now covers the run of steps, with the
    last step's count; the JSON keeps each step's own entry."""
    path = tmp_path / "forced.yaml"
    path.write_text("tools:\n  - {name: get_time, parameters: {type: object, properties: {tz: {type: string}}}}\n"
                    "tool_choice: get_time\nmessages:\n  - {role: user, content: hi}\nloop:\n  max_steps: 5\n"
                    "  results:\n    get_time: '12:00'\n")
    args = ["run", str(path), "-p", "openai-responses", "--base-url", mock.base_url]
    pretty = run_cli([*args], env={"OPENAI_API_KEY": "sk-x", "COLUMNS": "200"})
    lines = [line for line in pretty.stdout.splitlines() if "loop.repeated_call" in line]
    assert len(lines) == 1 and lines[0].startswith("  steps 2-5 warning loop.repeated_call: each makes the same call")
    assert "(5 in a row)" in lines[0]
    document = json.loads(run_cli([*args, "-f", "json"], env={"OPENAI_API_KEY": "sk-x"}).stdout)
    steps = document["runs"][0]["loops"][0]["steps"]
    assert [sum(e["code"] == "loop.repeated_call" for e in s["ledger"]) for s in steps] == [0, 1, 1, 1, 1]


def test_the_per_step_cards_at_60_columns_read_as_words(tmp_path: Path, mock: Any) -> None:
    """At 60 columns the per-step table of `run --repeat` becomes one card a step, each value after its header;
    the rate column's header is "%", and the card read "obeyed 2 · % 100%" (a new user). A header of no word is
    left out: "obeyed 2 · 100%"."""
    path = tmp_path / "rep.yaml"
    path.write_text("tools:\n  - {name: get_time, parameters: {type: object, properties: {tz: {type: string}}}}\n"
                    "tool_choice: get_time\nmessages:\n  - {role: user, content: hi}\nloop:\n  max_steps: 3\n"
                    "  after_call: auto\n  results:\n    get_time: '12:00'\n")
    out = run_cli(["run", str(path), "-p", "openai-responses", "--base-url", mock.base_url, "--repeat", "2"],
                  env={"OPENAI_API_KEY": "sk-x", "COLUMNS": "60"}).stdout
    cards = " ".join(line.strip("│ ") for line in out.splitlines() if line.startswith("│"))
    assert "obeyed 2 · 100% ·" in " ".join(cards.split()), cards
    assert "· % " not in cards and max(len(line) for line in out.splitlines()) <= 60


def test_a_step_naming_its_tools_sends_no_hosted_tool_and_says_so(tmp_path: Path) -> None:
    """A step's tools: are the tools sent (docs/loop.md), but the scenario's MCP server went out at every step and
    the lint called the step's required a hosted call (a trial). Now the step sends only what it names, the ledger
    says the hosted tools stay out, and a forced step that can only call get_weather cannot end the loop."""
    path = tmp_path / "step.yaml"
    path.write_text(f"{TOOLS}tool_choice: auto\nmessages:\n  - {{role: user, content: hi}}\n"
                    "loop:\n  max_steps: 3\n  steps:\n    - {tool_choice: required, tools: [get_time]}\n"
                    "  results:\n    get_time: '12:00'\n")
    result = run_cli(["run", str(path), "-p", "openai-responses", "--dry-run", "-f", "json"])
    assert result.returncode == 0, result.stderr
    (translation,) = json.loads(result.stdout)["translations"]
    assert [t.get("name") for t in translation["request"]["body"]["tools"]] == ["get_time"]
    codes = [e["code"] for e in translation["ledger"]]
    assert "loop.step_tools" in codes and "loop.cannot_end" in codes and "loop.hosted_call" not in codes
