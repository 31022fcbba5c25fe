"""Defects a new user hit in trial 10 (2026-11-27): README.md and the docs/ pages it links, every command run as
written at 60 and 80 columns, piped and with --format json, against `toolchoice mock` where a key would be needed.
Each test runs the real CLI entry (tests/cli.py); the truth is outside the drawing: the provider's documented
host, the ids `--format json` gives, the scenario file's own check of the same URL."""

from __future__ import annotations

import json
import os
import re

import pytest

from cli import run_cli
from test_readme import KEY_VARS, ROOT

BOX = "┏┃┡│└┗╇┩━─┓┘┌├┼┤╭╰"


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k not in ("COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", **extra})
    return env


def cells(out: str) -> list[str]:
    """Every cell of every drawn table line, stripped."""
    found = []
    for line in out.splitlines():
        if line[:1] in "│┃":
            found += [cell.strip() for cell in re.split("[│┃]", line)[1:-1]]
    return found


# ---- 1. compare broke a host in two at 80 columns ------------------------------------------------------

@pytest.mark.parametrize("columns", [60, 80, 100])
def test_compare_never_breaks_a_host_in_two(tmp_path, columns):
    """`toolchoice compare scenario.yaml -p openai,anthropic --tool-choice required` (the README's "try another
    choice") at 80 columns drew `api.openai.` over `com` and `api.anthrop` over `ic.com`, while at 70 it left the
    endpoint column out and said so. A host is shown whole, or its column is left out with the caption."""
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    done = run_cli(["compare", "scenario.yaml", "-p", "openai,anthropic,gemini", "--tool-choice", "required"],
                   env=environment(COLUMNS=str(columns)), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # the hosts of each API's documented base URL (platform.openai.com, docs.anthropic.com, ai.google.dev)
    hosts = ("api.openai.com", "api.anthropic.com", "generativelanguage.googleapis.com")
    drawn = cells(done.stdout)
    for host in hosts:
        assert not any(cell and cell != host and host.startswith(cell) for cell in drawn), (host, done.stdout)
        assert host in drawn or f"left out at {columns} columns: endpoint" in done.stdout, done.stdout


# ---- 2. providers: the model rules and the dated facts broke their ids ----------------------------------

def _ids_of_the_matrix() -> tuple[set[str], set[str]]:
    rows = json.loads(run_cli(["providers", "-f", "json"], env=environment()).stdout)
    facts = {fact["id"] for row in rows for fact in row["facts"]}
    rules = {rule["name"] for row in rows for rule in row["model_rules"]}
    return facts, rules


@pytest.mark.parametrize("columns", [60, 80])
def test_providers_keeps_every_fact_and_rule_id_whole(columns):
    """`toolchoice providers` at 80 columns drew `together.named_choi` over `ce...` and
    `claude-5.1-no-force` over `d-choice`; at 60 nearly every id was cut in two. Every id `-f json` lists is on
    one line of the pretty output, and nothing is wider than the terminal (every fact and rule: `-p all`; the
    default view counts them, trial13a)."""
    facts, rules = _ids_of_the_matrix()
    assert facts and rules
    done = run_cli(["providers", "-p", "all"], env=environment(COLUMNS=str(columns)))
    assert done.returncode == 0, done.stderr
    words = set(re.findall(r"[\w.\-]+", done.stdout))
    assert not facts - words, sorted(facts - words)
    assert not rules - words, sorted(rules - words)
    assert max(len(line) for line in done.stdout.splitlines()) <= columns


@pytest.mark.parametrize("columns", [60, 80])
def test_providers_model_rules_keep_fact_and_rule_ids_whole(columns):
    """docs/providers.md's `toolchoice providers --model gemini-3-pro-preview` at 60 columns drew
    `signatures_requir` over `ed` and `bedrock-named-cho` over `ice-other`."""
    data = json.loads(run_cli(["providers", "--model", "gemini-3-pro-preview", "-f", "json"], env=environment()).stdout)
    ids = {fact[key] for entry in data for fact in entry["facts"] for key in ("fact", "rule")}
    assert ids
    done = run_cli(["providers", "--model", "gemini-3-pro-preview"], env=environment(COLUMNS=str(columns)))
    assert done.returncode == 0, done.stderr
    words = set(re.findall(r"[\w.\-]+", done.stdout))
    assert not ids - words, (sorted(ids - words), done.stdout)
    assert max(len(line) for line in done.stdout.splitlines()) <= columns


# ---- 3. --base-url that no client can send to was rendered as a request -------------------------------

@pytest.mark.parametrize("url", ["ftp://x", "http://[::1", "127.0.0.1:8000/v1", "http://host:99999/v1"])
@pytest.mark.parametrize("command", [["render", "-p", "openai"], ["compare", "-p", "openai"],
                                     ["send", "-p", "openai", "--dry-run"]])
def test_a_base_url_option_no_client_can_send_to_is_bad_input_as_in_the_scenario(tmp_path, url, command):
    """`toolchoice render scenario.yaml -p openai --base-url ftp://x` printed `POST ftp://x/chat/completions`
    and exited 0, where the same URL as the scenario's providers.openai.base_url is refused (exit 2) and `send`
    refuses it only once it would connect. The option is refused as the scenario key is: one line, exit 2."""
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    scenario = (tmp_path / "scenario.yaml").read_text()
    (tmp_path / "in-file.yaml").write_text(scenario.replace("openai: {model: gpt-5.4-mini}",
                                                            f'openai: {{model: gpt-5.4-mini, base_url: "{url}"}}'))
    in_file = run_cli([command[0], "in-file.yaml", *command[1:]], env=environment(), cwd=tmp_path)
    assert in_file.returncode == 2 and in_file.stdout == "", in_file  # the scenario's own check: the truth
    done = run_cli([command[0], "scenario.yaml", *command[1:], "--base-url", url], env=environment(), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.startswith("toolchoice: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "--base-url" in done.stderr and "Traceback" not in done.stderr


def test_a_key_in_a_refused_base_url_is_not_shown(tmp_path):
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    key = "sk-live-abcdef0123456789"
    done = run_cli(["render", "scenario.yaml", "-p", "openai", "--base-url", f"ftp://user:{key}@x/v1"],
                   env=environment(OPENAI_API_KEY=key), cwd=tmp_path)
    assert done.returncode == 2 and key not in done.stderr + done.stdout, done.stderr


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/v1", "https://example.test/openai/v1", "http://[::1]:8/v1"])
def test_a_good_base_url_option_still_renders(tmp_path, url):
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    done = run_cli(["render", "scenario.yaml", "-p", "openai", "--base-url", url, "-f", "json"], env=environment(),
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["url"] == url + "/chat/completions"


# ---- 4. a latency folded between its number and its unit ---------------------------------------------

def test_a_latency_never_folds_between_its_number_and_ms(tmp_path):
    """`send --stream` against `toolchoice mock` at 60 columns printed `POST http://127.0.0.1:PORT/v1/messages  →
    200  134` over `ms`, and `first tool delta 134` over `ms`. Over every width where the line folds, no line
    starts with the unit."""
    from toolchoice.providers.core.mock.server import running_mock

    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    with running_mock("anthropic") as mock:
        for columns in range(44, 81):
            for extra in ([], ["--stream"]):
                done = run_cli(["send", "scenario.yaml", "-p", "anthropic", "--base-url", mock.base_url,
                                "--retries", "0", *extra],
                               env=environment(COLUMNS=str(columns), ANTHROPIC_API_KEY="unused"), cwd=tmp_path)
                assert done.returncode == 0, done.stderr
                folded = [line for line in done.stdout.splitlines() if re.match(r"\s*ms\b", line)]
                assert not folded, (columns, extra, done.stdout)


# ---- 5. compare --send broke the variable a skipped provider needs ----------------------------------------

@pytest.mark.parametrize("columns", [60, 80])
def test_compare_send_keeps_the_variable_to_set_whole(tmp_path, columns):
    """`compare --send -p openai,anthropic` with only OPENAI_API_KEY set (docs/compare.md: "Providers without a key
    are skipped with the variable to set") drew `ANTHROPIC_AP` over `I_KEY` at 60 columns: the one thing to do."""
    from toolchoice.providers.core.mock.server import running_mock

    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    with running_mock("openai") as mock:
        done = run_cli(["compare", "scenario.yaml", "-p", "openai,anthropic", "--send", "--retries", "0",
                        "--base-url", mock.base_url],
                       env=environment(COLUMNS=str(columns), OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # whole within a cell line ("set ANTHROPIC_API_KEY" where the calls column is wide enough)
    assert any(re.search(r"(?<![\w])ANTHROPIC_API_KEY(?![\w])", cell) for cell in cells(done.stdout)), done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) <= columns


# ---- 6. the ledger folded the name a message says to set ---------------------------------------------------

@pytest.mark.parametrize("columns", [60, 80])
def test_the_ledger_keeps_a_name_to_set_whole(tmp_path, columns):
    """docs/send.md's `send ... --model gemma-3-270m` against `toolchoice mock` at 60 columns: the ledger's
    model_rule.unknown says what to do, "set them with providers.openai.rules", and drew `providers.openai.rul`
    over `es`; the base URL `http://127.0.0.1:PORT/v1` was cut before its `1`."""
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as mock:
        done = run_cli(["send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                        "--model", "gemma-3-270m", "--tool-choice", "required", "--retries", "0"],
                       env=environment(COLUMNS=str(columns), OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    ledger = done.stdout[done.stdout.index("ledger"):]
    words = set(re.findall(r"[\w.:/-]+", ledger))
    assert "providers.openai.rules" in words and mock.base_url in words, ledger
    assert max(len(line) for line in done.stdout.splitlines()) <= columns


@pytest.mark.parametrize("command", [["run", "scenario.yaml", "-p", "openai", "--dry-run"], ["probe", "-p", "openai"]])
def test_run_and_probe_refuse_such_a_base_url_the_same_way(tmp_path, command):
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    done = run_cli([*command, "--base-url", "ftp://x"], env=environment(), cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.startswith("toolchoice: error: --base-url ") and done.stderr.count("\n") == 1, done.stderr


# ---- 7. compare --send said a key is sent for a provider it skipped for want of that key ------------------

def test_a_skipped_provider_is_not_said_to_send_its_key(tmp_path):
    """`compare --send` with providers.<id>.base_url set for both and only OPENAI_API_KEY set printed
    "env.key_destination (anthropic): $ANTHROPIC_API_KEY is sent in header x-api-key to 127.0.0.1:PORT" under a
    row that says "skipped: ... no API key: set ANTHROPIC_API_KEY": nothing was sent there."""
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as openai, running_mock("anthropic") as anthropic:
        (tmp_path / "two.yaml").write_text(
            "tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}\n"
            "tool_choice: required\nmessages:\n  - {role: user, content: Weather in Paris?}\nproviders:\n"
            f"  openai: {{base_url: '{openai.base_url}'}}\n  anthropic: {{base_url: '{anthropic.base_url}'}}\n")
        done = run_cli(["compare", "two.yaml", "-p", "openai,anthropic", "--send", "--retries", "0"],
                       env=environment(COLUMNS="200", OPENAI_API_KEY="unused"), cwd=tmp_path)
        assert not anthropic.records  # skipped: nothing reached it
    assert done.returncode == 0, done.stderr
    assert "env.key_destination (openai): $OPENAI_API_KEY is sent" in done.stdout, done.stdout
    assert "(anthropic): $ANTHROPIC_API_KEY is sent" not in done.stdout, done.stdout


# ---- 8. "not a openai reply" --------------------------------------------------------------------------------

@pytest.mark.parametrize("pid", ["openai", "anthropic"])  # (Gemini reads a body without candidates as a reply)
def test_a_body_of_no_known_shape_is_said_in_a_sentence(tmp_path, pid):
    """`toolchoice parse r.json -p openai` of `{"foo": 1}` said "response body is not a openai reply: no choices";
    the body in another provider's format is said "not a reply in anthropic's format" (docs/parse.md)."""
    (tmp_path / "r.json").write_text('{"foo": 1}')
    done = run_cli(["parse", "r.json", "-p", pid, "-f", "json"], env=environment(), cwd=tmp_path)
    error = json.loads(done.stdout)["error"]
    assert f"not a reply in {pid}'s format" in error and f"a {pid} reply" not in error, error
