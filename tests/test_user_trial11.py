"""Defects a new user hit in trial 11 (2026-11-27): README.md, the docs/ pages it links and every command's --help,
run as written at 60 and 80 columns, piped (no tty), and the Python API of docs/python.md from a fresh script.
Each test runs the real CLI entry (tests/cli.py); the truth is outside the drawing: the scenario's own words and
the request `render -f json` gives for the same command line."""

from __future__ import annotations

import json
import os

import pytest

from cli import run_cli
from test_readme import KEY_VARS, ROOT


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k not in ("COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", **extra})
    return env


# ---- 1. render's tool_choice line folded its own label at 60 columns --------------------------------------------

@pytest.mark.parametrize("columns", [60, 80, 100])
def test_render_s_tool_choice_line_keeps_its_labels_whole(columns):
    """`toolchoice render scenario.yaml -p anthropic` (the README's keyless first run) at 60 columns printed
    `tool_choice  requested {"tool":"get_weather"}  →  on the` and then `wire` alone on the next line: the label
    was cut in two and the wire form began a line as if it were the label's continuation."""
    args = ["render", str(ROOT / "configs" / "weather.yaml"), "-p", "anthropic", "--tool-choice", "get_weather"]
    result = run_cli(args, env=environment(COLUMNS=str(columns)))
    assert result.returncode == 0, result.stderr
    wire = json.loads(run_cli([*args, "-f", "json"], env=environment()).stdout)
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("tool_choice  requested "))
    end = next(i for i, line in enumerate(lines) if line.startswith("POST "))
    block = lines[start:end]
    assert all(len(line) <= columns for line in block), block
    assert any("on the wire" in line for line in block), block
    assert not any(line.rstrip().endswith(("on the", "on")) for line in block), block
    # the wire form the JSON gives is all there, folded only where the width forces it
    expected = json.dumps(wire["effective_tool_choice"], separators=(",", ":"))  # one provider: one document
    assert expected in "".join(line.strip() for line in block), block


# ---- 2. the repeated-call note named a value the user had to guess ("K") -------------------------------------

def test_the_repeated_call_note_names_a_setting_that_ends_the_loop_where_it_points(tmp_path):
    """The README's third example (a replayed loop) ends with `loop.stop.repeated_calls: K would end such a loop`:
    K is nowhere on the page, so the note did not say what to write. Its advice, written into the scenario as it
    reads, ends the replayed loop at the step it was printed for."""
    import re

    import yaml

    replay = ["--model", "gemma-3-270m", "--replay", str(ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m")]
    scenario = ROOT / "configs" / "planner-loop.yaml"
    result = run_cli(["run", str(scenario), "-p", "openai", *replay], env=environment(COLUMNS="200"))
    assert result.returncode == 0, result.stderr
    note = next(line for line in result.stdout.splitlines() if "loop.repeated_call:" in line)
    step = int(re.search(r"step (\d+) warning", note).group(1))
    advice = re.search(r"set (loop\.stop\.repeated_calls): (\d+) to end", note)
    assert advice, note
    data = yaml.safe_load(scenario.read_text())
    data["loop"]["stop"]["repeated_calls"] = int(advice.group(2))
    edited = tmp_path / "planner-loop.yaml"
    edited.write_text(yaml.safe_dump(data))
    ended = run_cli(["run", str(edited), "-p", "openai", *replay, "-f", "json"], env=environment())
    loop = json.loads(ended.stdout)["runs"][0]["loops"][0]
    assert loop["ended"]["step"] == step and loop["ended"]["reason"] != "max_steps", loop["ended"]


# ---- 3. the README's mock example left its request line unread -----------------------------------------------

def test_the_readme_s_mock_example_line_ends_as_the_readme_says(tmp_path, capsys):
    """The README sends configs/planner-trap.yaml to `toolchoice mock -p openai`; the mock's line ends
    `results call_1←#?  findings: ...` and nothing on the page said what that was. The README now quotes the end
    of that line: the line the mock draws for the README's own send ends so."""
    import re
    import shlex

    from toolchoice.cli.mock_cmd import _pretty
    from toolchoice.providers.core.mock.server import running_mock

    readme = (ROOT / "README.md").read_text()
    mock_line, block = re.search(r"^```bash\n(toolchoice mock -p openai [^\n]*)\n(.*?)\n", readme, re.M).groups()
    port = re.search(r"--port (\d+)", mock_line).group(1)  # the README's fixed port: its lines paste as written
    quoted = re.search(r"The mock's line for that request ends `([^`]+)`", readme.replace("\n", " ")).group(1)
    with running_mock("openai") as mock:
        assert f"http://127.0.0.1:{port}/v1" in block
        words = shlex.split(block.replace(f"http://127.0.0.1:{port}/v1", mock.base_url), comments=True)
        env = environment(**dict(word.split("=", 1) for word in words if "=" in word and not word.startswith("-")))
        sent = run_cli([w for w in words if "=" not in w or w.startswith("-")][1:], env=env, cwd=ROOT)
        records = list(mock.records)
    assert sent.returncode == 0, sent.stdout + sent.stderr
    capsys.readouterr()
    _pretty(records[0])
    line = capsys.readouterr().out.rstrip("\n")
    assert line.endswith(quoted), (line, quoted)


# ---- 4. probe's table ended without the next step --------------------------------------------------------------

def test_probe_s_table_says_how_to_keep_its_answers_and_the_advice_works(tmp_path):
    """`toolchoice probe -p openai --base-url URL` against the mock printed its table and stopped: what the
    answers are for (a capability overlay that render, compare, send and run take) was only on docs/probe.md.
    The pretty output now ends with that step; following it (--save FILE, then render --capabilities FILE at the
    same URL) gives a ledger whose facts come from the probe."""
    import re
    import shlex

    from toolchoice.providers.core.mock.server import running_mock

    env = environment(COLUMNS="80", OPENAI_API_KEY="sk-unused-0123456789")
    with running_mock("openai") as mock:
        probed = run_cli(["probe", "-p", "openai", "--base-url", mock.base_url, "-n", "1"], env=env, cwd=tmp_path)
        assert probed.returncode == 0, probed.stdout + probed.stderr
        hint = " ".join(line.strip() for line in probed.stdout.split("┘")[-1].splitlines())
        words = re.search(r"add `(--save FILE)` to this command, then give `(--capabilities FILE)` to render", hint)
        assert words, hint
        save, render = (shlex.split(words.group(i).replace("FILE", "caps.json")) for i in (1, 2))
        saved = run_cli(["probe", "-p", "openai", "--base-url", mock.base_url, "-n", "1", *save], env=env, cwd=tmp_path)
        assert saved.returncode == 0, saved.stdout + saved.stderr
    # both outputs stay within the 80 columns, the lines under the table too
    assert all(len(line) <= 80 for line in (probed.stdout + saved.stdout).splitlines()), probed.stdout + saved.stdout
    assert (tmp_path / "caps.json").is_file()
    ledger = run_cli(["render", *render, str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                      "-f", "json"], env=env, cwd=tmp_path)
    assert ledger.returncode == 0, ledger.stderr
    codes = [entry["code"] for entry in json.loads(ledger.stdout)["ledger"]]  # one provider: one document
    assert "capabilities.overlay" in codes, codes


# ---- 5. send without a key said only "set the key" ----------------------------------------------------------------

def test_send_without_a_key_names_the_keyless_way_and_it_works(tmp_path):
    """A new user without a key ran `toolchoice send configs/weather.yaml -p openai` and read `set OPENAI_API_KEY`:
    the README's keyless way (the mock) was not named. The line names it; done as it says, the send obeys."""
    import re
    import shlex

    from toolchoice.providers.core.mock.server import running_mock

    scenario = str(ROOT / "configs" / "weather.yaml")
    failed = run_cli(["send", scenario, "-p", "openai"], env=environment(COLUMNS="80"), cwd=tmp_path)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    advice = re.search(r"`(toolchoice mock -p openai)`, then this command with `(--base-url) URL` and `(\w+)=(\w+)`",
                       failed.stderr)
    assert advice, failed.stderr
    with running_mock(shlex.split(advice.group(1))[-1]) as mock:
        sent = run_cli(["send", scenario, "-p", "openai", advice.group(2), mock.base_url],
                       env=environment(COLUMNS="80", **{advice.group(3): advice.group(4)}), cwd=tmp_path)
    assert sent.returncode == 0 and "✔ obeyed" in sent.stdout, sent.stdout + sent.stderr


def test_compare_send_without_any_key_says_each_provider_once_and_what_to_do():
    """`toolchoice compare scenario.yaml -p anthropic --send` without a key printed
    `nothing to send: anthropic: skipped: anthropic: no API key: set ANTHROPIC_API_KEY`: the provider twice and no
    way on. One line, each provider named once, its key variable, and the dry run that needs none."""
    scenario = str(ROOT / "configs" / "weather.yaml")
    failed = run_cli(["compare", scenario, "-p", "anthropic,gemini", "--send"], env=environment(COLUMNS="80"))
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    line = failed.stderr
    assert line.count("anthropic") == 1 and line.count("gemini:") == 1, line
    assert "ANTHROPIC_API_KEY" in line and "GEMINI_API_KEY" in line
    assert "without --send" in line and "toolchoice mock" in line, line


# ---- 6. the Python API: the command line's `-p all` ---------------------------------------------------------------

def test_render_with_the_command_line_s_all_says_how_to_name_every_provider():
    """From a fresh script, `jobs.render(scenario, "all")` (the README's `-p all`) raised `unknown provider 'all'`
    with the twenty ids and no way on. The error names the import that lists them; done as it says, the render
    gives a translation per provider (twenty, as `toolchoice providers` lists)."""
    import importlib
    import re

    from toolchoice.providers import ToolchoiceError, load_scenario
    from toolchoice.providers.core import jobs

    scenario = load_scenario(ROOT / "configs" / "weather.yaml")
    with pytest.raises(ToolchoiceError) as raised:
        jobs.render(scenario, "all")
    advice = re.search(r"pass ([\w.]+)\.(\w+) \(every provider id\)", str(raised.value))
    assert advice, str(raised.value)
    ids = getattr(importlib.import_module(advice.group(1)), advice.group(2))
    rendered = jobs.render(scenario, ids)
    listed = run_cli(["providers", "-f", "json"], env=environment()).stdout
    assert [t.provider for t in rendered] == [row["provider"] for row in json.loads(listed)]


# ---- 7. `-p all,<typo>` dropped the typo without a word ---------------------------------------------------------

@pytest.mark.parametrize("command", ["render", "compare"])
def test_a_misspelt_provider_beside_all_is_bad_input(command):
    """`toolchoice render scenario.yaml -p all,foo` rendered the twenty providers and said nothing of `foo`:
    a typo beside `all` (`-p all,opneai`) passed silently, where
    `-p openai,foo` is bad input. Every name given is checked: exit 2, one line naming it."""
    scenario = str(ROOT / "configs" / "weather.yaml")
    failed = run_cli([command, scenario, "-p", "all,opneai"], env=environment(COLUMNS="80"))
    assert failed.returncode == 2 and failed.stdout == "", failed.stdout[:300]
    assert failed.stderr.count("\n") == 1 and "unknown provider 'opneai'" in failed.stderr, failed.stderr
    assert "openai" in failed.stderr.split("opneai'", 1)[1]  # the did-you-mean
    fine = run_cli([command, scenario, "-p", "all,openai", "-f", "json"], env=environment(COLUMNS="80"))
    assert fine.returncode in (0, 3), fine.stderr


# ---- 8. parse given a scenario read it as a provider's non-JSON error (exit 1) ----------------------------------

def test_parse_given_a_scenario_says_it_is_a_scenario_and_where_it_goes():
    """`toolchoice parse configs/weather.yaml -p openai` (the scenario where the saved reply goes) printed
    `openai: non-JSON response: # ...` and a verdict `error`, exit 1 — a provider's failure, by the README's table.
    It is bad input: exit 2, one line naming the file, what it is and the command that takes it; that command runs."""
    import re
    import shlex

    scenario = ROOT / "configs" / "weather.yaml"
    failed = run_cli(["parse", str(scenario), "-p", "openai"], env=environment(COLUMNS="80"))
    assert failed.returncode == 2 and failed.stdout == "", failed.stdout
    assert failed.stderr.count("\n") == 1 and "weather.yaml" in failed.stderr and "scenario" in failed.stderr
    advice = re.search(r"`(toolchoice render FILE -p ID)`", failed.stderr)
    assert advice, failed.stderr
    words = shlex.split(advice.group(1).replace("FILE", str(scenario)).replace("ID", "openai"))
    assert run_cli(words[1:], env=environment(COLUMNS="80")).returncode == 0
    # a saved error page that is not JSON stays what it was: the provider's answer, read as send reads it
    page = run_cli(["parse", "-", "-p", "openai"], env=environment(COLUMNS="80"),
                   input="<html><body>502 Bad Gateway</body></html>")
    assert page.returncode == 1 and "non-JSON response" in page.stdout + page.stderr


# ---- 9. init into a folder that does not exist ------------------------------------------------------------------

def test_init_into_a_missing_folder_says_to_make_it_and_then_writes(tmp_path):
    """`toolchoice init configs/mine.yaml` where configs/ does not exist said `cannot write configs/mine.yaml: No
    such file or directory` and nothing more. The line names the folder to make; made, the same command writes."""
    import re

    failed = run_cli(["init", "sub/mine.yaml"], env=environment(COLUMNS="80"), cwd=tmp_path)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    advice = re.search(r"make the folder (\S+) first", failed.stderr)
    assert advice, failed.stderr
    (tmp_path / advice.group(1)).mkdir()
    wrote = run_cli(["init", "sub/mine.yaml"], env=environment(COLUMNS="80"), cwd=tmp_path)
    assert wrote.returncode == 0 and (tmp_path / "sub" / "mine.yaml").is_file(), wrote.stderr


# ---- 10. run printed the same note under every step ----------------------------------------------------------------

def test_a_note_every_step_repeats_word_for_word_is_printed_once_with_its_steps(tmp_path):
    """configs/planner-loop.yaml with `providers.openai.base_url` (the mock's URL) run against `toolchoice mock`:
    each step printed `step N warning env.key_destination: $OPENAI_API_KEY is sent ... to 127.0.0.1:PORT, a base URL
    the scenario file sets`, the same words under every step (ten times for a ten-step loop). Said once, with
    the steps it holds for; `--format json` keeps it in every step's ledger."""
    import re

    import yaml

    from toolchoice.providers.core.mock.server import running_mock

    data = yaml.safe_load((ROOT / "configs" / "planner-loop.yaml").read_text())
    env = environment(COLUMNS="80", OPENAI_API_KEY="sk-unused-0123456789")
    with running_mock("openai") as mock:
        data["providers"] = {"openai": {"base_url": mock.base_url}}
        (tmp_path / "loop.yaml").write_text(yaml.safe_dump(data))
        shown = run_cli(["run", "loop.yaml", "-p", "openai"], env=env, cwd=tmp_path)
        document = run_cli(["run", "loop.yaml", "-p", "openai", "-f", "json"], env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    steps = json.loads(document.stdout)["runs"][0]["loops"][0]["steps"]
    held = [i + 1 for i, step in enumerate(steps) if any(e["code"] == "env.key_destination" for e in step["ledger"])]
    assert len(held) >= 2, held  # the note holds on several steps
    lines = [line for line in shown.stdout.splitlines() if "env.key_destination" in line]
    assert len(lines) == 1, shown.stdout
    span = re.search(r"steps (\d+)-(\d+) warning env\.key_destination", lines[0])
    assert span and [int(span.group(1)), int(span.group(2))] == [held[0], held[-1]], lines[0]


# ---- 11. render -f curl: what to do with the reply -----------------------------------------------------------------

def test_render_md_s_next_step_after_curl_judges_the_reply(tmp_path):
    """docs/render.md showed the curl command and stopped; a user who ran it had a reply and no word on judging it.
    The page's `parse` command, given the reply the mock answers to that request's bytes, gives the verdict."""
    import re
    import shlex

    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    page = (ROOT / "docs" / "render.md").read_text()
    command = re.search(r"`(toolchoice parse reply\.json [^`]+)`", page.replace("\n", " ")).group(1)
    words = shlex.split(command)
    provider = words[words.index("-p") + 1]
    args = ["render", str(ROOT / "configs" / "planner-trap.yaml"), "-p", provider, "-f", "json",
            "--tool-choice", words[words.index("--tool-choice") + 1]]
    with running_mock(provider) as mock:
        rendered = json.loads(run_cli([*args, "--base-url", mock.base_url, "--gateway"], env=environment()).stdout)
        request = rendered["request"]
        reply = httpx.post(request["url"], content=json.dumps(request["body"]).encode(),
                           headers={"Content-Type": "application/json", "x-goog-api-key": "unused"}, timeout=30)
    assert reply.status_code == 200, reply.text
    (tmp_path / "reply.json").write_bytes(reply.content)
    words = [str(ROOT / w) if w.startswith("configs/") else w for w in words]
    judged = run_cli([*words[1:], "-f", "json"], env=environment(), cwd=tmp_path)
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert json.loads(judged.stdout)["verdict"]["category"] == "obeyed"


# ---- 12. parse given send --save's other files -----------------------------------------------------------------------

def test_parse_given_the_saved_reply_or_request_names_the_response_file_beside_it(tmp_path):
    """`send --save out` writes sample-001.request.json, .response.json and .reply.json; the README calls what parse
    reads "a saved reply", so a new user gave it sample-001.reply.json: parse printed `unreadable_reply ... no
    choices` and exited 0 (the request file: 1). Both are bad input naming the file to give, which parse reads."""
    import re

    from toolchoice.providers.core.mock.server import running_mock

    scenario = str(ROOT / "configs" / "weather.yaml")
    env = environment(COLUMNS="80", OPENAI_API_KEY="sk-unused-0123456789")
    with running_mock("openai") as mock:
        sent = run_cli(["send", scenario, "-p", "openai", "--base-url", mock.base_url, "--save", "out"], env=env,
                       cwd=tmp_path)
    assert sent.returncode == 0, sent.stdout + sent.stderr
    for kind in ("reply", "request"):
        failed = run_cli(["parse", f"out/sample-001.{kind}.json", "-p", "openai"], env=env, cwd=tmp_path)
        assert failed.returncode == 2 and failed.stdout == "", (kind, failed.stdout)
        assert failed.stderr.count("\n") == 1, failed.stderr
        named = re.search(r"give (\S+\.response\.json)", failed.stderr)
        assert named, failed.stderr
        parsed = run_cli(["parse", named.group(1), "-p", "openai", "--scenario", scenario, "-f", "json"], env=env,
                         cwd=tmp_path)
        assert parsed.returncode == 0, parsed.stderr
        assert json.loads(parsed.stdout)["verdict"]["category"] == "obeyed"


# ---- 13. COLUMNS=0 printed nothing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["render", "configs/weather.yaml", "-p", "openai"],
                                  ["compare", "configs/weather.yaml", "-p", "openai,anthropic"],
                                  ["providers"], ["render", "--help"]])
def test_columns_zero_is_an_unknown_width_not_an_empty_page(args):
    """A pseudo-terminal whose size is unknown reports 0 columns, and shells then export COLUMNS=0 (a container
    started without a size, some CI runners). `render`, `compare` and `providers` printed nothing at all and exited 0;
    `--help` one blank line. Python's shutil.get_terminal_size reads COLUMNS=0 as not set: so does toolchoice, and
    the page is the one drawn at the width the terminal reports (here none: 80)."""
    zero = run_cli(args, env=environment(COLUMNS="0"), cwd=ROOT)
    eighty = run_cli(args, env=environment(COLUMNS="80"), cwd=ROOT)
    assert zero.returncode == eighty.returncode == 0, zero.stderr
    assert len(eighty.stdout) > 200
    assert zero.stdout == eighty.stdout


# ---- 14. --model PROVIDER=MODEL for a provider not selected -------------------------------------------------------

def test_a_model_for_a_provider_not_selected_is_said_and_an_empty_provider_is_bad_input():
    """`render scenario.yaml -p openai -m anthropic=claude-x` rendered openai with its default model and said nothing:
    a user who meant `-p anthropic` (or mistyped the model's provider) did not learn the model went nowhere. A
    warning names it; `-m =gpt-x` (no provider before '=') was sent as the model id "=gpt-x": bad input."""
    scenario = str(ROOT / "configs" / "weather.yaml")
    unused = run_cli(["render", scenario, "-p", "openai", "-m", "anthropic=claude-x", "-f", "json"], env=environment())
    assert unused.returncode == 0
    assert json.loads(unused.stdout)["request"]["body"]["model"] != "claude-x"
    assert "anthropic=claude-x" in unused.stderr and "not selected" in unused.stderr, unused.stderr
    used = run_cli(["render", scenario, "-p", "openai,anthropic", "-m", "anthropic=claude-x", "-f", "json"],
                   env=environment())
    assert used.stderr == "" and [d["request"]["body"]["model"] for d in json.loads(used.stdout)][1] == "claude-x"
    empty = run_cli(["render", scenario, "-p", "openai", "-m", "=gpt-x"], env=environment())
    assert empty.returncode == 2 and empty.stdout == "" and empty.stderr.count("\n") == 1, empty.stderr
    assert "--model =gpt-x" in empty.stderr


# ---- 15. render's summary: its last line ran past the width -------------------------------------------------------

@pytest.mark.parametrize("columns", [60, 80])
def test_render_s_summary_fits_the_width_and_its_next_step_runs(tmp_path, columns):
    """`toolchoice render scenario.yaml` (the init starter names two providers) draws the compare table and then
    `render scenario.yaml -p ID shows one provider's exact request (-p all: ...)`: 107 characters whole at 80
    columns (the terminal cut it where it liked), and not a command as written (no `toolchoice`). Folded to the
    width; the command it names, with a provider id for ID, renders that provider's request."""
    import re
    import shlex

    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    shown = run_cli(["render", "scenario.yaml"], env=environment(COLUMNS=str(columns)), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert all(len(line) <= columns for line in shown.stdout.splitlines()), shown.stdout
    text = " ".join(line.strip() for line in shown.stdout.splitlines())
    command = re.search(r"`(toolchoice render scenario\.yaml -p ID)` shows one provider's exact request", text)
    assert command, text
    one = run_cli(shlex.split(command.group(1).replace("ID", "anthropic"))[1:], env=environment(), cwd=tmp_path)
    assert one.returncode == 0 and "POST https://api.anthropic.com/v1/messages" in one.stdout


def test_compare_send_s_skipped_row_names_its_provider_once(tmp_path):
    """`compare -p openai,anthropic --send` with only OpenAI's key: the anthropic row's calls cell read
    `skipped: anthropic: no API key: set ANTHROPIC_API_KEY`, the provider again beside its own id."""
    import yaml

    from toolchoice.providers.core.mock.server import running_mock

    data = yaml.safe_load((ROOT / "configs" / "weather.yaml").read_text())
    env = environment(COLUMNS="80", OPENAI_API_KEY="sk-unused-0123456789")
    with running_mock("openai") as mock:
        data["providers"] = {"openai": {"base_url": mock.base_url}}
        (tmp_path / "s.yaml").write_text(yaml.safe_dump(data))
        shown = run_cli(["compare", "s.yaml", "-p", "openai,anthropic", "--send", "-f", "markdown"], env=env,
                        cwd=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    row = next(line for line in shown.stdout.splitlines() if line.startswith("| anthropic |"))
    assert row.count("anthropic") == 1 and "skipped: no API key: set ANTHROPIC_API_KEY" in row, row
