"""Bad input never crashes: the installed `toolchoice` refuses every file in tests/data/bad/ and every bad
command-line value with exit code 2 and exactly one line on stderr (see tests/data/bad/README.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import PROVIDER_IDS

from cli import run_cli

BAD = Path(__file__).resolve().parent / "data" / "bad"
CONFIGS = Path(__file__).resolve().parent.parent / "configs"
CASES = sorted(p.stem for p in BAD.glob("*.yaml"))
MARKER = "toolchoice-pwned-marker"  # what the object-tag files try to create in the working directory


def toolchoice() -> list[str]:
    """The CLI as this interpreter runs it: `python -m pytest` works without the venv's bin on PATH."""
    return [sys.executable, "-m", "toolchoice.cli"]


def run(args: list[str], cwd: Path, process: bool = False) -> subprocess.CompletedProcess[str]:
    """`toolchoice ARGS` in-process (tests/cli.py: the console script's entry, its exit code); with
    ``process`` in a real interpreter, for the check that the installed entry point exits the same way."""
    env = {k: v for k, v in os.environ.items() if k != "TOOLCHOICE_DEBUG"}
    env["NO_COLOR"] = "1"
    if not process:
        return run_cli(args, env=env, cwd=cwd)
    return subprocess.run(toolchoice() + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bad-input-cwd")


VALUES_READ: dict[str, int] = {}  # how many values the reader built before it refused the file (alias-bomb's)


@pytest.fixture(scope="module")
def results(workdir: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    """Run the whole corpus once, in-process; for the alias bomb, the values the reader built are counted."""
    from toolchoice.providers.core import yaml_input

    out = {}
    for name in CASES:
        if name != "alias-bomb":
            out[name] = run(["render", str(BAD / f"{name}.yaml"), "--format", "json"], workdir)
            continue
        value, count = yaml_input.Reader.value, [0]

        def counted(self: yaml_input.Reader, node: object) -> object:
            count[0] += 1
            return value(self, node)

        yaml_input.Reader.value = counted  # type: ignore[method-assign]
        try:
            out[name] = run(["render", str(BAD / f"{name}.yaml"), "--format", "json"], workdir)
        finally:
            yaml_input.Reader.value = value  # type: ignore[method-assign]
        VALUES_READ[name] = count[0]
    return out


def test_corpus_is_big_enough_and_paired():
    assert len(CASES) >= 30
    expects = sorted(p.stem for p in BAD.glob("*.expect"))
    assert expects == CASES, "every NAME.yaml needs a NAME.expect and vice versa"


def test_corpus_covers_the_required_kinds():
    required = {"malformed-indent", "setting-wrong-type", "unknown-top-key", "unknown-provider",
                "unknown-tool-in-tool-choice", "duplicate-tools", "result-before-call", "dangling-tool-call-id",
                "object-tag-apply", "empty", "binary", "merge-key", "infinite-number", "latin1"}
    assert required <= set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_bad_file_is_refused_with_one_line(name, results, workdir):
    done = results[name]
    path = str(BAD / f"{name}.yaml")
    expected = (BAD / f"{name}.expect").read_text(encoding="utf-8").replace("{path}", path)
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stdout == ""
    assert done.stderr == expected
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"toolchoice: error: {path}:")
    assert done.returncode == 2
    # the error names the line (after the path): "{path}:LINE:" or "{path}:LINE:COL:"
    line = done.stderr[len(f"toolchoice: error: {path}:"):].split(":")[0]
    assert line.isdigit() and int(line) >= 1


def test_object_tags_never_execute(results, workdir):
    tagged = [name for name in CASES if "!!python/" in (BAD / f"{name}.yaml").read_text(errors="replace")]
    assert len(tagged) >= 3
    for name in tagged:
        assert results[name].returncode == 2
    assert not (workdir / MARKER).exists()
    assert not (Path.cwd() / MARKER).exists()


def test_alias_bomb_is_refused_after_a_bounded_read(results):
    """The corpus run above (its message is alias-bomb.expect): refused with exit 2 once the reader has built its
    1,000,000 values, of the 10^9 the aliases expand to: the work is counted, not timed (its time is
    bench/alias_bomb.py's)."""
    assert results["alias-bomb"].returncode == 2
    assert 0 < VALUES_READ["alias-bomb"] <= 1_000_001 + 100, VALUES_READ  # the limit, and the nesting on the way


# ---- bad command-line input ----------------------------------------------------------------

WEATHER = str(CONFIGS / "weather.yaml")


@pytest.mark.parametrize("args, expected", [
    (["render", WEATHER, "--provider", "open-ai"],
     "toolchoice: error: unknown provider 'open-ai' (did you mean openai?)\n"),
    (["render", WEATHER, "--provider", "google,claude"],  # the maker's or the model's name, not the id
     "toolchoice: error: unknown provider 'google' (did you mean gemini?)\n"),
    (["render", WEATHER, "--provider", "claude"],
     "toolchoice: error: unknown provider 'claude' (did you mean anthropic?)\n"),
    (["render", WEATHER, "--provider", "openai,zzzzzz"],
     f"toolchoice: error: unknown provider 'zzzzzz' (providers: {', '.join(PROVIDER_IDS)})\n"),
    (["render", WEATHER, "--tool-choice", "get_wether"],
     "toolchoice: error: --tool-choice: tool_choice names 'get_wether', which is not a declared tool "
     "(declared: get_weather, get_time) (did you mean get_weather?)\n"),
    (["render", WEATHER, "--tool-choice", "{tool: get_weather"],
     "toolchoice: error: --tool-choice '{tool: get_weather' is not valid YAML/JSON: expected ',' or '}', but got "
     "'<stream end>' (close every { and [ it opens, e.g. --tool-choice '{tool: get_weather}')\n"),
    (["render", WEATHER, "--tool-choice", "{type: tool, name: get_time, disable_parallel_tool_use: true}"],
     "toolchoice: error: --tool-choice: disable_parallel_tool_use inside tool_choice is Anthropic's wire form "
     "(write parallel_tool_calls: false at the top level instead)\n"),
    (["render", WEATHER, "--tool-choice", "[get_weather]"],
     "toolchoice: error: --tool-choice: tool_choice must be a word, a tool name or an object, not list "
     '["get_weather"] (a list of tool names, as pydantic-ai\'s tool_choice takes it, is written get_weather here)\n'),
    (["render", WEATHER, "--tool-choice", "{a: !!python/object/apply:os.system [touch toolchoice-pwned-marker]}"],
     "toolchoice: error: --tool-choice '{a: !!python/object/apply:os.system [touch toolchoice-pwn...' is not valid "
     "YAML/JSON: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object/apply:os.system' "
     "(quote it for the shell, e.g. --tool-choice '{tool: get_weather}')\n"),
    (["send", WEATHER, "-p", "openai", "--base-url", "--retries", "0"],  # the URL forgotten: an option taken for it
     "toolchoice: error: --base-url --retries: '--retries' is an option's name, taken as the URL; write the URL "
     "right after --base-url (give scheme://host[:port]/path only)\n"),
    (["render", WEATHER, "--tool-choice", "requried"],  # a keyword misspelled: the keyword, not only the tools
     "toolchoice: error: --tool-choice: tool_choice names 'requried', which is not a declared tool "
     "(declared: get_weather, get_time) (did you mean required?)\n"),
    (["render", WEATHER, "--tool-choice"],  # an option of render given without its value: no "an option of" others
     "toolchoice: error: Option '--tool-choice' requires an argument. (see toolchoice render --help)\n"),
    (["compare", WEATHER, "-p", "openai", "anthropic"],  # the second provider taken for a second scenario
     "toolchoice: error: anthropic: no such file; it is a provider id, taken for a scenario file (name a provider "
     "with -p anthropic; several, where a command takes them: -p openai,anthropic or -p openai -p anthropic)\n"),
    (["render", "no-such-scenario.yaml", "--format", "json"],
     "toolchoice: error: no-such-scenario.yaml: no such file (check the path)\n"),
    (["render", ".", "--format", "json"],
     "toolchoice: error: .: is a directory, not a scenario file (name a .yaml file)\n"),
])
def test_bad_command_line(args, expected, workdir):
    done = run(args, workdir)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", expected)
    assert not (workdir / MARKER).exists()


def test_bad_file_and_bad_provider_still_give_one_line(workdir):
    """A bad file with a bad --provider: still exactly one line (the first problem found), from the installed
    entry point in a real process (exit code 2 as the shell sees it)."""
    done = run(["render", str(BAD / "unknown-tool-key.yaml"), "--provider", "nope"], workdir, process=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("toolchoice: error: ")


def test_installed_package_is_this_checkout():
    """The test above uses the installed script; make sure it runs this checkout's code."""
    done = subprocess.run([sys.executable, "-c", "import toolchoice.providers.core.scenario as s; print(s.__file__)"],
                          capture_output=True, text=True, timeout=60)
    assert Path(done.stdout.strip()).resolve() == (Path(__file__).resolve().parent.parent / "providers" / "core" / "scenario.py")
