"""Trial 23d, display leftovers: each held to truth from outside the code that says it (a real bash reading the help
as printed, a real local server's body saved by `send --save`, the published JSON schema's validator, PyYAML
reading the tools listing back)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from servers import StandIn, Step

from cli import refused, run_cli, user_env
# a chat completion naming "name" twice in its function (get_time first, get_weather last) and "model" twice at its
# top, as a server wrote it; the scenario forcing get_weather
from test_duplicate_keys_replies import BODY, SCENARIO

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["render", "send", "run", "parse", "compare", "probe", "providers", "tools", "trace", "schema", "mock",
            "proxy", "doctor", "init"]


# ---- 1. the help's example commands whole at 60 columns -----------------------------------------------------

def _pasted(command: str, columns: int) -> list[str]:
    """The Examples section's command paragraphs, as printed (lines and all, trailing spaces too)."""
    shown = run_cli([command, "--help"], env=user_env(columns=columns))
    assert shown.returncode == 0, shown.stderr
    blocks: list[list[str]] = [[]]
    for line in shown.stdout.partition("Examples:")[2].splitlines():  # paragraphs: apart by a blank line
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return ["\n".join(b) for b in blocks if b and b[0].strip().startswith(("toolchoice ", "export "))]


def _bash_calls(block: str, where: Path) -> tuple[list[list[str]], str]:
    """What a real bash, in the folder ``where``, runs when ``block`` is pasted into it: each ``toolchoice`` call's
    words (a stand-in function appends them to a file: an example may redirect its output), and bash's stderr (a
    second line run alone: `--save: command not found`)."""
    calls_file = where / "calls"
    calls_file.write_text("")
    script = "toolchoice() { printf '%s\\0' \"$@\" >> \"$CALLS\"; printf '\\n' >> \"$CALLS\"; }\n" + block + "\n"
    done = subprocess.run([shutil.which("bash") or "/bin/bash", "--norc", "--noprofile", "-c", script],
                          capture_output=True, text=True, timeout=30, cwd=where, env={"CALLS": str(calls_file),
                                                                                       "PATH": "/usr/bin:/bin"})
    calls = [line.split("\0")[:-1] for line in calls_file.read_text().splitlines()]
    return calls, done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("command", COMMANDS)
def test_each_example_pasted_from_the_help_runs_as_one_command(command: str, columns: int, tmp_path: Path) -> None:
    """At 60 columns rich wrapped run's 65-character mock command (and compare's 75, render's and proxy's): pasted,
    the shell ran its first line alone and `--save runs` as a command of its own. Each paragraph as the help prints
    it is one command to bash, with the same words as the paragraph printed 400 columns wide."""
    wide = _pasted(command, 400)
    narrow = _pasted(command, columns)
    assert len(narrow) == len(wide) and wide, (wide, narrow)
    for at_width, whole in zip(narrow, wide):
        calls, errors = _bash_calls(at_width, tmp_path)
        assert not errors, (command, at_width, errors)
        if whole.strip().startswith("toolchoice "):
            assert calls == _bash_calls(whole, tmp_path)[0] and len(calls) == 1, (command, at_width, calls)


# ---- 2. parse FILE -f json without -s: the reply's duplicate keys in the document --------------------------

def _named_twice(raw: bytes) -> list[str]:
    """The keys ``raw`` names twice in one object, read by the standard library's own hook."""
    twice: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        keys = [k for k, _ in items]
        twice.extend(k for i, k in enumerate(keys) if k in keys[:i])
        return dict(items)

    json.loads(raw, object_pairs_hook=pairs)
    return twice


def test_parse_json_without_a_scenario_holds_the_reply_s_duplicate_keys(tmp_path: Path) -> None:
    """The `reply.duplicate_key` warnings went to stderr alone: the document's `ledger` is the request's, and
    without -s there is no verdict. A body saved by `send --save` from a real server on 127.0.0.1."""
    with StandIn("openai", default=Step(body=BODY)) as server:
        path = tmp_path / "s.yaml"
        path.write_text(SCENARIO.replace("URL", server.base_url("openai")))
        sent = run_cli(["send", str(path), "-p", "openai", "--save", str(tmp_path / "saved"), "--retries", "0"],
                       env=user_env(OPENAI_API_KEY="sk-test-display23d-0123456789"))
        assert sent.returncode == 0, sent.stderr
    saved = sorted((tmp_path / "saved").rglob("*.response.json"))
    assert len(saved) == 1 and saved[0].read_bytes() == BODY  # the body as the server wrote it
    twice = _named_twice(saved[0].read_bytes())
    assert sorted(twice) == ["model", "name"]
    schema = json.loads((ROOT / "cli" / "schemas" / "parse.schema.json").read_text(encoding="utf-8"))
    for judged in ([], ["-s", str(path)]):
        done = run_cli(["parse", str(saved[0]), "-p", "openai", "-f", "json", *judged], env=user_env())
        assert done.returncode == 0, done.stderr
        document = json.loads(done.stdout)
        jsonschema.Draft202012Validator(schema).validate(document)
        found = document.get("reply_findings")
        assert found is not None, sorted(document)
        assert [f["code"] for f in found] == ["reply.duplicate_key"] * len(twice)
        assert all(f["severity"] == "warning" for f in found)
        for key in twice:
            assert sum(f'"{key}" twice' in f["message"] for f in found) == 1, (key, found)
        assert document["reply"]["tool_calls"][0]["name"] == "get_weather"  # the last of the two
    # a body naming each key once: no such field (the document as before)
    once = tmp_path / "once.response.json"
    once.write_bytes(BODY.replace(b'"name": "get_time", ', b"").replace(b'"model": "first", ', b""))
    assert _named_twice(once.read_bytes()) == []
    plain = json.loads(run_cli(["parse", str(once), "-p", "openai", "-f", "json"], env=user_env()).stdout)
    assert "reply_findings" not in plain


# ---- 3. "--tool-choice, --model needs --scenario" -----------------------------------------------------------

def test_several_options_without_their_scenario_or_send_take_a_plural_verb(tmp_path: Path) -> None:
    body = ROOT / "tests" / "data" / "responses" / "openai" / "openai-chat-parallel.json"
    two = refused(run_cli(["parse", str(body), "-p", "openai", "--tool-choice", "auto", "--strict"], env=user_env()))
    assert "--tool-choice and --strict need --scenario" in two, two
    one = refused(run_cli(["parse", str(body), "-p", "openai", "--strict"], env=user_env()))
    assert "--strict needs --scenario" in one, one
    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    three = refused(run_cli(["compare", "scenario.yaml", "-p", "openai", "--repeat", "2", "--min-obeyed", "0.5",
                             "--save", "out"], env=user_env(), cwd=tmp_path))
    assert "--repeat, --min-obeyed and --save need --send" in three, three


# ---- 4. a long MCP description printed by `tools` ------------------------------------------------------------

def test_tools_prints_a_long_description_whole_and_as_pyyaml_writes_it(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`tools` now lays its YAML out with libyaml's emitter where it writes PyYAML's bytes (bench/tools_yaml.py: a
    20 MB description took ~30 s in PyYAML's Python emitter, ~1.4 us a character): the long description no longer
    goes through PyYAML's Python emitter. What it prints is what PyYAML's own SafeDumper writes for the listing read
    back, and nothing of the description is lost."""
    import yaml
    import yaml.emitter

    if getattr(yaml, "CSafeDumper", None) is None:
        pytest.skip("PyYAML without libyaml")
    through_python: list[int] = []
    analyze = yaml.emitter.Emitter.analyze_scalar

    def counted(self: object, scalar: str) -> object:
        through_python.append(len(scalar))
        return analyze(self, scalar)  # type: ignore[arg-type]

    monkeypatch.setattr(yaml.emitter.Emitter, "analyze_scalar", counted)

    description = "Reads the weather. " * 20_000 + "Ünïcode ☂ café."
    listing = {"tools": [{"name": "get_weather", "description": description,
                          "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}
    path = tmp_path / "listing.json"
    path.write_text(json.dumps(listing), encoding="utf-8")
    done = run_cli(["tools", str(path)], env=user_env())
    assert done.returncode == 0, done.stderr
    assert max(through_python, default=0) < len(description), "the description went through PyYAML's Python emitter"
    monkeypatch.undo()
    body = "".join(line + "\n" for line in done.stdout.splitlines() if not line.startswith("# "))
    read = yaml.safe_load(body)
    assert read["tools"][0]["description"] == description
    assert body == yaml.dump(read, Dumper=yaml.SafeDumper, sort_keys=False, allow_unicode=True, width=100)
