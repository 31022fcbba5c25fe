"""Trial 12g: a new user reads README.md, follows it and the docs it links, and runs each command; what confused
them, held here (the doc fixes are held by test_readme, test_doc_commands, test_doc_links, test_doc_vocabulary).
In-process (tests/cli.py): what is checked is what the command prints, not a process."""

from __future__ import annotations

import json
import os
import re

import pytest

from cli import run_cli
from test_readme import KEY_VARS, ROOT


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k not in ("COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", **extra})
    return env


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    """The README's keyless first run: `toolchoice init scenario.yaml` (two tools, a named tool_choice)."""
    folder = tmp_path_factory.mktemp("trial12g")
    assert run_cli(["init", "scenario.yaml"], env=environment(), cwd=folder).returncode == 0
    return folder / "scenario.yaml"


@pytest.mark.parametrize("columns", [80, 60])
def test_a_dialect_card_s_label_stays_whole_when_its_value_goes_to_the_next_line(scenario, columns):
    """`compare --dialect vercel` at 80 columns folded Anthropic's card as "· API" / "tool_choice" / "{...}": the
    label cut in two, each half on a line of its own. A label's words now stay on one line."""
    providers = ["anthropic", "openai", "openrouter", "vllm", "bedrock"]
    result = run_cli(["compare", str(scenario), "-p", ",".join(providers), "--dialect", "vercel"],
                     env=environment(COLUMNS=str(columns)))
    assert result.returncode == 0, result.stderr
    cards = result.stdout.split("└")[0].split("├")  # the box alone: the notes under it are prose
    assert len(cards) == len(providers)
    for card in cards:
        lines = [line.strip("│ ").rstrip() for line in card.splitlines()]
        assert not any(line.endswith((" API", "· API")) or line.startswith("tool_choice") for line in lines), card
        assert "API tool_choice" in "\n".join(lines), card


def test_concurrency_s_help_says_per_provider_as_the_shared_table_does():
    """`--concurrency` said "Requests in flight at once" in --help while docs/commands.md said "per provider"
    (the runner's bound is per provider: compare --send -k 1 over two providers has two in flight)."""
    from toolchoice.cli.app import COMMANDS, _command

    app = _command(None)
    helps = {name: p.help for name in COMMANDS for p in app.commands[name].params if "--concurrency" in p.opts}
    assert set(helps) == {"send", "compare", "probe", "run"}
    assert all("per provider" in text for text in helps.values()), helps
    row = next(line for line in (ROOT / "docs" / "commands.md").read_text().splitlines()
               if line.startswith("| `-k`, `--concurrency"))
    assert "per provider" in row


@pytest.mark.parametrize("columns", [200, 80, 60])
def test_the_matrix_says_what_its_args_column_means(columns):
    """`toolchoice providers` showed an `args` column (string / object) that no legend explained. (At 60 columns
    the matrix is its marks alone, trial13a: the legend says where the arguments form is.)"""
    result = run_cli(["providers"], env=environment(COLUMNS=str(columns)))
    assert result.returncode == 0
    matrix = result.stdout.split("dated facts")[0]
    legend = " ".join(matrix.split())
    if columns == 60:
        assert " args " not in legend and "arguments form (JSON text or an object)" in legend, matrix
        assert "toolchoice providers -p ID" in legend, matrix
        return
    assert "args" in matrix
    assert "args: a tool call's arguments in replies, as JSON text (string) or an object" in legend
    # what the column says is the capability rows' own value
    rows = json.loads(run_cli(["providers", "--format", "json"], env=environment()).stdout)
    assert {row["arguments"] for row in rows} == {"string", "object"}


def _refusals(scenario, *extra: str) -> dict[str, str]:
    result = run_cli(["compare", str(scenario), "-p", "ollama,fireworks,cerebras,gemini,bedrock", "--dialect",
                      "litellm", "--tool-choice", "any", "-f", "json", *extra], env=environment())
    providers = json.loads(result.stdout)["providers"]
    return {p["provider"]: e["message"] for p in providers for e in p["ledger"] if e["code"] == "dialect.refused"}


def test_a_litellm_refusal_names_drop_params_only_where_it_would_send(scenario):
    """LiteLLM's UnsupportedParamsError says "set `litellm.drop_params=True`", and a new user had to find that
    toolchoice's flag for it is `--drop-params`. The refusal now says so where that flag makes LiteLLM send, and
    not where LiteLLM raises with drop_params too (Gemini's and Bedrock's "any", docs/litellm.md)."""
    refused = _refusals(scenario)
    hinted = {p for p, message in refused.items() if "; --drop-params shows what drop_params=True sends instead"
              in message}
    assert {"gemini", "bedrock"} <= set(refused) - hinted
    assert hinted >= {"ollama", "cerebras"}
    # the hint's claim, held to the command: with --drop-params the hinted ones send, the others still raise
    dropped = _refusals(scenario, "--drop-params")
    assert not hinted & set(dropped)
    assert set(refused) - hinted == set(dropped)
    assert not any("--drop-params" in message for message in dropped.values())


def test_the_readme_s_refusal_and_gateway_links_land_on_their_sections():
    """README and three pages sent the reader to render.md for "Whose rule a refusal is" and "A base URL in front
    of the API's own host", bold paragraphs deep in its ledger section; they are headings now, linked by anchor
    (test_doc_links holds that the anchors resolve)."""
    render = (ROOT / "docs" / "render.md").read_text()
    assert "\n### Whose rule a refusal is\n" in render
    assert "\n### A base URL in front of the API's own host: `--gateway`\n" in render
    pages = {"README.md": "docs/render.md#whose-rule-a-refusal-is",
             "docs/probe.md": "render.md#a-base-url-in-front-of-the-apis-own-host---gateway",
             "docs/commands.md": "render.md#a-base-url-in-front-of-the-apis-own-host---gateway",
             "docs/real-model.md": "render.md#whose-rule-a-refusal-is",
             "docs/mock.md": "render.md#a-base-url-in-front-of-the-apis-own-host---gateway"}
    for page, link in pages.items():
        text = (ROOT / page).read_text()
        assert f"]({link})" in text, page
        assert not re.search(r"\]\((?:docs/)?render\.md\), \"(?:Whose rule|A base URL)", text), page
    every = "\n".join(p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    assert not re.search(r"\]\((?:docs/)?render\.md\),\s+\"(?:Whose rule|A base URL)", every)


@pytest.mark.parametrize("typed, meant", [("OpenAI", "openai"), ("Anthropic", "anthropic"), ("llama.cpp", "llamacpp"),
                                          ("openai_responses", "openai-responses"), ("google", "gemini"),
                                          ("aws", "bedrock"), ("gemnii", "gemini")])
def test_a_provider_id_spelled_as_people_say_it_gets_the_id_in_the_hint(scenario, typed, meant):
    """`-p OpenAI` or `-p google` answered with the list of twenty ids and no pointer (difflib is case-sensitive
    and knows no titles); the hint now names the id, and following it renders."""
    result = run_cli(["render", str(scenario), "-p", typed], env=environment())
    assert result.returncode == 2
    assert result.stderr.strip() == f"toolchoice: error: unknown provider '{typed}' (did you mean {meant}?)"
    assert run_cli(["render", str(scenario), "-p", meant, "-f", "json"], env=environment()).returncode == 0


def test_a_scenario_s_provider_key_gets_the_same_hint_with_its_line(scenario, tmp_path):
    text = scenario.read_text()
    assert "\n  openai: " in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("\n  openai: ", "\n  OpenAI: "))
    line = text[:text.index("\n  openai: ") + 1].count("\n") + 1
    result = run_cli(["render", str(bad)], env=environment())
    assert result.returncode == 2
    assert result.stderr.strip() == (f"toolchoice: error: {bad}:{line}:3: unknown provider 'OpenAI' "
                                     "(did you mean openai?)")


def test_a_word_no_id_or_title_holds_still_gets_the_list(scenario):
    from toolchoice.providers.core.capabilities import PROVIDER_IDS

    for word in ("xyz", "chat"):  # "chat": in several rows' titles, so no one row is meant ("claude": anthropic,
        # since trial15g, tests/test_bad_input.py)
        result = run_cli(["render", str(scenario), "-p", word], env=environment())
        assert result.stderr.strip() == (f"toolchoice: error: unknown provider '{word}' "
                                         f"(providers: {', '.join(PROVIDER_IDS)})"), word


def test_a_scenario_from_stdin_is_titled_stdin(scenario):
    """`cat scenario.yaml | toolchoice compare - -p openai` was titled "- · dry run (nothing sent)", a stray dash;
    it is "stdin", as `parse` names it, in the titles and the summary of several scenarios, while the command it
    suggests keeps the `-` a shell takes."""
    text = scenario.read_text()
    compared = run_cli(["compare", "-", "-p", "openai"], env=environment(COLUMNS="80"), input=text)
    assert compared.returncode == 0
    assert compared.stdout.splitlines()[0] == "stdin · dry run (nothing sent)"
    rendered = run_cli(["render", "-"], env=environment(COLUMNS="80"), input=text)
    assert rendered.stdout.splitlines()[0] == "stdin · 2 providers · dry run (nothing sent)"
    assert "`toolchoice render - -p ID` shows one provider's exact request" in " ".join(rendered.stdout.split())
    several = run_cli(["compare", "-", str(scenario), "-p", "openai"], env=environment(COLUMNS="200"), input=text)
    assert "\n  0  stdin: rendered (warnings allowed)\n" in several.stdout + several.stderr


@pytest.mark.parametrize("columns", [80, 60])
def test_the_top_help_says_where_to_start_and_its_commands_run(tmp_path, columns):
    """`toolchoice` (or `--help`) listed fifteen commands and no first step; its closing lines now give the
    README's keyless start, each command on a line of its own, and they run as shown."""
    import shlex

    result = run_cli(["--help"], env=environment(COLUMNS=str(columns)))
    assert result.returncode == 0
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    start = lines.index("Start here (no key, no network needed):")
    assert lines[start + 1:start + 4] == ["toolchoice init scenario.yaml", "toolchoice compare scenario.yaml -p all",
                                          "toolchoice COMMAND --help: that command's options"]
    for line in lines[start + 1:start + 3]:
        ran = run_cli(shlex.split(line)[1:], env=environment(COLUMNS=str(columns)), cwd=tmp_path)
        assert ran.returncode == 0, (line, ran.stderr)
    assert "Start here" not in run_cli(["render", "--help"], env=environment(COLUMNS=str(columns))).stdout


def test_the_mock_s_line_for_a_refused_request_says_why_as_the_client_was_told(capsys):
    """The openai client sent `tool_choice="get_weather"` (a bare name, which Chat Completions refuses) and got a
    400 with the reason, but the mock's own line said only `findings: error mock.refused`: a framework that
    swallows the 400 left the user with a code. The line now carries the words the client got; a 200's findings
    stay codes."""
    from openai import BadRequestError, OpenAI

    from toolchoice.cli.mock_cmd import _pretty
    from toolchoice.providers.core.mock.server import running_mock

    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="unused", max_retries=0)
        with pytest.raises(BadRequestError) as refused:
            client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}], tools=tools,
                                           tool_choice="get_weather")  # type: ignore[arg-type]
        history = [{"role": "user", "content": "hi"},
                   {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {
                       "name": "get_weather", "arguments": '{"city": "Oslo"}'}}]},
                   {"role": "tool", "tool_call_id": "call_1", "content": "snow"}]  # a call no answer here made
        client.chat.completions.create(model="gpt-4o", messages=history, tools=tools, tool_choice="auto")
        records = list(mock.records)
    told = refused.value.body["message"]  # type: ignore[index]
    # the API's recorded words name the value, their envelope the field (fact openai.tool_choice_value_words)
    assert "'get_weather'" in told and refused.value.body["param"] == "tool_choice"  # type: ignore[index]
    capsys.readouterr()
    _pretty(records[0])
    _pretty(records[1])
    first, second = capsys.readouterr().out.splitlines()
    assert "  400  -  " in first and first.endswith(f", error mock.refused: {told}"), first
    assert "findings: error tool_choice.word: Invalid value for 'tool_choice': 'get_weather' is not one of" in first
    assert "  200  " in second and second.endswith("findings: warning mock.result_unknown_call"), second


@pytest.mark.parametrize("command, option, value, taken_by", [
    (["send", "-p", "openai"], "--dialect", "vercel", ["render", "compare"]),
    (["render", "-p", "openai"], "--send", None, ["compare"]),
    (["run", "-p", "openai"], "--ledger-only", None, ["render"])])
def test_an_option_of_other_commands_is_named_with_them(scenario, command, option, value, taken_by):
    """`toolchoice send SCENARIO -p openai --dialect vercel` said "No such option: --dialect" and no more: a user
    who had just read "--dialect on render and compare" in the README could not tell a typo from a wrong command.
    The line now names the commands that take it, and they do."""
    args = [command[0], str(scenario), *command[1:], option, *([value] if value else [])]
    result = run_cli(args, env=environment())
    assert result.returncode == 2
    assert result.stderr.strip() == (f"toolchoice: error: No such option: {option} ({option} is an option of "
                                     f"{', '.join(taken_by)}; see toolchoice {command[0]} --help)")
    for other in taken_by:  # parsed there (--help: nothing runs, nothing is sent)
        ran = run_cli([other, str(scenario), "-p", "openai", option, *([value] if value else []), "--help"],
                      env=environment())
        assert ran.returncode == 0 and option in ran.stdout, (other, ran.stderr)


def test_an_option_no_command_takes_keeps_the_plain_line(scenario):
    result = run_cli(["render", str(scenario), "--no-such-flag"], env=environment())
    assert result.returncode == 2
    line = result.stderr.strip()
    assert line.startswith("toolchoice: error: No such option: --no-such-flag") and "is an option of" not in line
    assert line.endswith(" (see toolchoice render --help)")


def test_a_finding_of_nearly_every_provider_says_which_are_left_out():
    """The set-up's first command (`compare configs/planner-trap.yaml -p all`) closed with
    `pitfall.required_trap (openai, openai-responses, ... huggingface)`: nineteen ids over three lines at 80
    columns, for "all but ollama". Ten or more compared and at most three left out, the line names those."""
    trap = str(ROOT / "configs" / "planner-trap.yaml")
    shown = run_cli(["compare", trap, "-p", "all"], env=environment(COLUMNS="80"))
    data = json.loads(run_cli(["compare", trap, "-p", "all", "-f", "json"], env=environment()).stdout)
    providers = [p["provider"] for p in data["providers"]]
    trapped = [p["provider"] for p in data["providers"] if any(e["code"] == "pitfall.required_trap"
                                                                for e in p["ledger"])]
    left_out = [p for p in providers if p not in trapped]
    assert len(providers) == 20 and 1 <= len(left_out) <= 3
    assert f"\npitfall.required_trap (every provider but {', '.join(left_out)}): " in shown.stdout
    # fewer compared: the ids, as the README's eight-provider example shows them
    few = run_cli(["compare", trap, "-p", "openai,anthropic,gemini,ollama"], env=environment(COLUMNS="80"))
    assert "\npitfall.required_trap (openai, anthropic, gemini): " in few.stdout
