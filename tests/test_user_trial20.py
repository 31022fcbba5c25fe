"""Trial 20g, a new user's first hour (no key, no network, README first): what it found, held.

README example 1's Ollama line advised "offer only that tool" for a scenario that offers one tool; `compare --json`
was answered "Possible options: --send" (a flag that sends, keys needed) and `--api-key` with nothing; `parse -f
jsonl` and `-f markdown` were taken and drawn as pretty; pydantic-ai's list form of tool_choice got the generic
spellings. Each test runs the real command-line entry (tests/cli.py) and holds what it says to truth from outside
the code that says it: the scenario file, the request body, the command's --help, the capability rows, the docs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from cli import refused, refused_saying, run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent


def _ignored(stdout: str) -> str:
    """The Ollama ledger's tool_choice.ignored message of a `compare -f json` document."""
    [ollama] = [p for p in json.loads(stdout)["providers"] if p["provider"] == "ollama"]
    [entry] = [e for e in ollama["ledger"] if e["code"] == "tool_choice.ignored"]
    return entry["message"]


def test_ollama_s_required_advice_reads_the_tools_the_request_offers(tmp_path: Path) -> None:
    """The planner trap offers one tool: the advice "or offer only that tool" asked for what the request already
    does (README example 1). With one tool it says that tool is the only one offered; with two it says which to
    keep ("that tool" had no tool to point at under required)."""
    scenario = yaml.safe_load((ROOT / "configs" / "planner-trap.yaml").read_text(encoding="utf-8"))
    [tool] = [t["name"] for t in scenario["tools"]]
    done = run_cli(["compare", "configs/planner-trap.yaml", "-p", "ollama", "-f", "json"], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    [ollama] = json.loads(done.stdout)["providers"]
    assert [t["function"]["name"] for t in ollama["request"]["body"]["tools"]] == [tool]
    message = _ignored(done.stdout)
    assert f"with only '{tool}' offered the model may still answer in text" in message, message
    assert "offer only" not in message and "any offered tool" not in message
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"with only '{tool}' offered the model may still answer in text" in readme

    two = tmp_path / "two.yaml"
    two.write_text(yaml.safe_dump({**scenario, "tools": [*scenario["tools"], {"name": "ask_user"}]}), encoding="utf-8")
    done = run_cli(["compare", str(two), "-p", "ollama", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    message = _ignored(done.stdout)
    assert "offer only the tool it must call" in message and "offer only that tool" not in message, message


def _formats(command: str) -> list[str] | None:
    """The --format values a command's --help lists (`<pretty|json|...>`), None where it has no --format."""
    help_text = run_cli([command, "--help"], env=user_env(200)).stdout
    found = re.search(r"--format\s+-f\s+<([a-z|]+)>", help_text)
    return found.group(1).split("|") if found else None


@pytest.mark.parametrize("command", ["render", "compare", "send", "run", "parse", "providers", "mock", "trace",
                                     "tools", "doctor", "probe"])
def test_a_format_given_as_its_own_option_says_it_is_formats_value(command: str) -> None:
    """`compare --json` said "(Possible options: --send)", click's nearest name: a flag that sends and needs keys.
    Every command with --format now names -f json where --help lists json, else the formats --help lists."""
    formats = _formats(command)
    assert formats and ("pretty" in formats or "yaml" in formats), formats  # every command here has a --format
    line = refused(run_cli([command, "--json"], env=user_env()))
    assert "Possible options" not in line and "--send" not in line, line
    if "json" in formats:
        assert "-f json" in line, line
    else:
        assert f"--format takes {', '.join(formats)} here" in line, line


def test_following_the_json_hint_gives_json() -> None:
    line = refused(run_cli(["compare", "configs/planner-trap.yaml", "-p", "openai", "--json"], env=user_env(),
                           cwd=ROOT))
    written = re.search(r"(-f \w+)", line).group(1).split()  # type: ignore[union-attr]
    done = run_cli(["compare", "configs/planner-trap.yaml", "-p", "openai", *written], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["providers"][0]["effective_tool_choice"] == "required"


@pytest.mark.parametrize("option", ["--api-key", "--key", "--token"])
def test_a_key_given_as_an_option_names_where_keys_come_from(option: str) -> None:
    """`send --api-key sk-...` said only "No such option" (and, for --token, nothing either): the line now says a
    key is read from the provider's variable, named as the capability rows name them, and never echoes the value."""
    from toolchoice.providers.core.capabilities import CAPABILITIES

    secret = "sk-proj-trial20gNeverShownAnywhere0123456789"
    for written in ([option, secret], [f"{option}={secret}"]):
        line = refused(run_cli(["send", "configs/planner-trap.yaml", "-p", "openai", *written], env=user_env(),
                               cwd=ROOT), secret)
        for provider in ("openai", "anthropic"):
            assert CAPABILITIES[provider].key_env[0] in line, line
        assert "toolchoice doctor" in line and "docs/keys.md" in line


def test_parse_takes_the_formats_its_help_and_page_name() -> None:
    """parse took send's four formats and drew jsonl and markdown as pretty, while its help said "pretty or json" and
    docs/parse.md `--format pretty|json`: a format it does not write is now refused."""
    page = (ROOT / "docs" / "parse.md").read_text(encoding="utf-8")
    named = re.search(r"\[--format ([a-z|]+)\]", page).group(1).split("|")  # type: ignore[union-attr]
    assert _formats("parse") == named == ["pretty", "json"]
    reply = "tests/data/responses/anthropic/anthropic-tool-search-regex.json"
    for unwritten in ("jsonl", "markdown"):
        refused_saying(run_cli(["parse", reply, "-p", "anthropic", "-f", unwritten], env=user_env(), cwd=ROOT),
                       f"'{unwritten}' is not one of 'pretty', 'json'")
    done = run_cli(["parse", reply, "-p", "anthropic", "-f", "json"], env=user_env(), cwd=ROOT)
    assert done.returncode == 0 and json.loads(done.stdout)["provider"] == "anthropic"


@pytest.mark.parametrize("names", [["get_weather"], ["get_weather", "get_time"]])
def test_pydantic_ai_s_list_of_names_says_how_the_scenario_writes_it(tmp_path: Path, names: list[str]) -> None:
    """docs/pydantic-ai.md: `['NAME']` is the name, `['A', 'B']` `{allowed: [A, B], mode: required}`. A user pasting
    the list got the generic spellings; the hint now gives the one to write, and what it gives renders: on OpenAI
    the named function, or allowed_tools of both in mode required."""
    page = " ".join((ROOT / "docs" / "pydantic-ai.md").read_text(encoding="utf-8").split())
    assert "`['NAME']` the name `NAME`, `['A', 'B']` `{allowed: [A, B], mode: required}`" in page
    made = run_cli(["init", str(tmp_path / "scenario.yaml")], env=user_env())  # the README's first command
    assert made.returncode == 0, made.stderr
    listed = "[" + ", ".join(names) + "]"
    line = refused_saying(run_cli(["render", str(tmp_path / "scenario.yaml"), "-p", "openai", "--tool-choice", listed],
                                  env=user_env()), "a list of tool names, as pydantic-ai's tool_choice takes it")
    written = re.search(r"is written (.+) here\)$", line.strip()).group(1)  # type: ignore[union-attr]
    done = run_cli(["render", str(tmp_path / "scenario.yaml"), "-p", "openai", "--tool-choice", written, "-f",
                    "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    choice = json.loads(done.stdout)["request"]["body"]["tool_choice"]
    if len(names) == 1:
        assert choice == {"type": "function", "function": {"name": names[0]}}
    else:
        assert choice["type"] == "allowed_tools" and choice["allowed_tools"]["mode"] == "required"
        assert [t["function"]["name"] for t in choice["allowed_tools"]["tools"]] == names


@pytest.mark.parametrize(("args", "written", "meant"), [
    (["compare", "configs/planner-trap.yaml", "-p", "openai,anthropic"], ["--dialect", "openai_agents"],
     "openai-agents"),
    (["compare", "configs/planner-trap.yaml", "-p", "openai,anthropic"], ["--dialect=LangChain"], "langchain"),
    (["compare", "configs/planner-trap.yaml", "-p", "openai,anthropic"], ["--dialect", "pydantic_ai"], "pydantic-ai"),
    (["render", "configs/planner-trap.yaml", "-p", "gemini"], ["-f", "JSON"], "json"),
    (["schema"], ["scenarios"], "scenario"),
])
def test_a_choice_written_a_case_or_a_dash_away_names_the_one_meant(args: list[str], written: list[str],
                                                                    meant: str) -> None:
    """A provider id's typo said "did you mean anthropic?", a dialect's or a format's only the list: the README
    writes `--dialect openai-agents` and pydantic-ai's own name is pydantic_ai. The one meant is among the values
    --help lists, and the command line with it runs."""
    command = args[0]
    help_text = " ".join(run_cli([command, "--help"], env=user_env(200)).stdout.split())
    assert meant in help_text
    line = refused_saying(run_cli([*args, *written], env=user_env(), cwd=ROOT), f"(did you mean {meant}? see ")
    assert line.count("did you mean") == 1
    fixed = [meant if w == written[-1] else w for w in written] if "=" not in written[-1] else \
        [written[-1].split("=")[0] + "=" + meant]
    done = run_cli([*args, *fixed], env=user_env(), cwd=ROOT)
    assert done.returncode in (0, 3), done.stderr  # 3: a dialect that refuses the trap's parallel setting


@pytest.mark.parametrize(("wrapper", "provider", "choice"), [("ChatAnthropic", "anthropic", "required"),
                                                              ("ChatAnthropic", "anthropic", "none"),
                                                              ("ChatFireworks", "fireworks", "required")])
def test_a_langchain_choice_read_as_a_tool_name_says_no_such_tool_is_declared(wrapper: str, provider: str,
                                                                              choice: str) -> None:
    """`compare --dialect langchain` showed ChatAnthropic's {"type":"tool","name":"required"} beside the API's
    {"type":"any"} and left the user to see that `required` had become a tool's name. The recording of the real
    wrapper (tests/data/langchain/, SOURCES.md there) sends it with tools that declare no such name; the ledger now
    says so."""
    recording = json.loads((ROOT / "tests" / "data" / "langchain" / f"{wrapper}.json").read_text(encoding="utf-8"))
    [case] = [c for c in recording["cases"] if c["tool_choice"] == choice and c["tools"] == 2
              and c["parallel_tool_calls"] is None and "strict" not in c and "tool_spelling" not in c]
    sent = case["body"]["tool_choice"]
    declared = [t.get("name") or t["function"]["name"] for t in case["body"]["tools"]]
    assert choice in json.dumps(sent) and choice not in declared
    done = run_cli(["render", "tests/dialect/weather.yaml", "-p", provider, "--dialect", "langchain", "--tool-choice",
                    choice, "-f", "json"], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["request"]["body"]["tool_choice"] == sent
    [differs] = [e["message"] for e in document["ledger"]
                 if e["code"] == "dialect.differs" and e["message"].startswith("tool_choice:")]
    assert f"a tool called '{choice}', which the request does not declare" in differs, differs


def test_compare_without_p_says_the_scenario_chose_its_providers(tmp_path: Path) -> None:
    """`init` says "try `toolchoice compare scenario.yaml`", and that showed two providers (the starter's providers:
    section) with no word of why, to a user who came to see every provider's wire. The title now says where the
    two came from and how to see them all; -p all then gives as many as `toolchoice providers` lists."""
    made = run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)
    assert made.returncode == 0 and "try `toolchoice compare scenario.yaml`" in made.stdout
    named = list(yaml.safe_load((tmp_path / "scenario.yaml").read_text(encoding="utf-8"))["providers"])
    every = json.loads(run_cli(["providers", "-f", "json"], env=user_env()).stdout)
    assert 1 < len(named) < len(every)
    for columns in (80, 60):
        done = run_cli(["compare", "scenario.yaml"], env=user_env(columns), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        title = " ".join(done.stdout.split("┏")[0].split())
        assert title == (f"scenario.yaml · dry run (nothing sent) · {len(named)} providers from its providers: "
                         f"(-p all: all {len(every)})"), title
        assert all(len(line) <= columns for line in done.stdout.splitlines())
    shown = run_cli(["compare", "scenario.yaml", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert [p["provider"] for p in json.loads(shown.stdout)["providers"]] == named
    everyone = run_cli(["compare", "scenario.yaml", "-p", "all"], env=user_env(), cwd=tmp_path)
    assert everyone.stdout.splitlines()[0] == "scenario.yaml · dry run (nothing sent)"
    assert len(json.loads(run_cli(["compare", "scenario.yaml", "-p", "all", "-f", "json"], env=user_env(),
                                  cwd=tmp_path).stdout)["providers"]) == len(every)


def test_render_curl_with_ledger_only_says_where_curl_puts_the_ledger() -> None:
    """`render -f curl --ledger-only` was told "--format json has each ledger in 'ledger'": right, but the curl the
    user asked for carries the warnings too, as comments. Said now, and held to what curl writes and json holds."""
    args = ["render", "configs/planner-trap.yaml", "-p", "ollama"]
    refused_saying(run_cli([*args, "-f", "curl", "--ledger-only"], env=user_env(), cwd=ROOT),
                   "--ledger-only is a pretty view", "-f curl writes the warnings as # comments above each command")
    line = refused(run_cli([*args, "-f", "json", "--ledger-only"], env=user_env(), cwd=ROOT))
    assert "curl" not in line
    curl = run_cli([*args, "-f", "curl"], env=user_env(), cwd=ROOT).stdout
    ledger = json.loads(run_cli([*args, "-f", "json"], env=user_env(), cwd=ROOT).stdout)["ledger"]
    warned = [f"# warning {e['code']}: {e['message']}" for e in ledger if e["severity"] == "warning"]
    assert warned and [line for line in curl.splitlines() if line.startswith("# warning")] == warned
