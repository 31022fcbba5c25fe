"""The Python API as an agent builder met it (trial 14d: a pytest file of their own, written from docs/python.md alone,
rendering for three providers, sending a forced choice to ``running_mock``, a scripted loop, a probe, a compare).

Each friction is held here: ``compare_send`` with nothing to send told a Python caller "without --send ... put
`toolchoice mock -p ID` in front" (now ``NothingToSend``: Python words, a record, the command line's own words drawn
from it, byte for byte what it printed before); ``min_obeyed`` and ``repeat`` out of range named ``--min-obeyed`` and
``--repeat N`` (now ``OutOfRange``, the same way); ``loop.load_replay("folder", provider)``, whose folder the docs
give as any folder, raised AttributeError on a ``str``, as ``jobs.probe`` did on a ``model`` that is not a ``str`` and
on ``tool_choice="required"`` (it takes a ``ToolChoice``, as ``LoopOptions.override`` does). Each piece of advice is followed, on a real server on
127.0.0.1, and the send obeys."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from toolchoice.providers import (ArgumentError, LoopOptions, MissingKey, NothingToSend, OutOfRange, RenderOptions,
                                  ToolChoice, ToolchoiceError, WrongArgument, load_scenario_dict, running_mock)
from toolchoice.providers.core import jobs, loop, runner

from cli import run_cli

WEATHER = str(Path(__file__).resolve().parents[1] / "configs" / "weather.yaml")
SCENARIO = {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                              "required": ["city"]}}],
            "tool_choice": {"tool": "get_weather"}, "messages": [{"role": "user", "content": "Weather in Paris?"}]}
CLI_WORDS = ("--", "this command", "`toolchoice", "export ")
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture(scope="module")
def mocks():
    with running_mock("openai") as openai, running_mock("anthropic") as anthropic:
        yield {"openai": openai, "anthropic": anthropic}


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def nothing_to_send(call) -> NothingToSend:
    with pytest.raises(NothingToSend) as caught:
        call()
    return caught.value


def test_nothing_to_send_speaks_python_and_doing_as_it_says_sends(no_keys: pytest.MonkeyPatch, mocks) -> None:
    scenario = load_scenario_dict(SCENARIO)
    problem = nothing_to_send(lambda: jobs.compare_send(scenario, jobs.translations(scenario, ["openai", "anthropic"])))
    words = str(problem)
    assert words.startswith("nothing to send: openai: skipped: no API key: set OPENAI_API_KEY; anthropic: skipped: "
                            "no API key: set ANTHROPIC_API_KEY (") and not any(w in words for w in CLI_WORDS), words
    assert isinstance(problem, ToolchoiceError) and problem.exit_code == 2
    assert problem.skipped == (("openai", "skipped: no API key: set OPENAI_API_KEY"),
                               ("anthropic", "skipped: no API key: set ANTHROPIC_API_KEY"))
    assert [(m.provider, m.variables, m.of, m.local) for m in problem.missing] == [
        ("openai", ("OPENAI_API_KEY",), "key", False), ("anthropic", ("ANTHROPIC_API_KEY",), "key", False)]
    # as it says: jobs.render needs no key; a server on 127.0.0.1 that checks none, its base URL as
    # RenderOptions(base_url=...), each provider's key variable set to any value
    assert "jobs.render needs no key" in words and "running_mock(provider)" in words, words
    assert all(t.request is not None for t in jobs.render(scenario, ["openai", "anthropic"]))
    assert "RenderOptions(base_url=...)" in words and "set to any value" in words, words
    translations = []
    for missing in problem.missing:
        no_keys.setenv(missing.variables[0], "any value")
        translations += jobs.translations(scenario, missing.provider,
                                          RenderOptions(base_url=mocks[missing.provider].base_url))
    sent = jobs.compare_send(scenario, translations, settings=runner.SendSettings(retries=0))
    assert sent.code == 0 and [j.first.verdict["category"] for j in sent.jobs] == ["obeyed", "obeyed"]


def test_one_provider_without_its_key_is_skipped_with_the_error_behind_it(no_keys: pytest.MonkeyPatch, mocks) -> None:
    no_keys.setenv("OPENAI_API_KEY", "any value")
    scenario = load_scenario_dict(SCENARIO)
    translations = [*jobs.translations(scenario, "openai", RenderOptions(base_url=mocks["openai"].base_url)),
                    *jobs.translations(scenario, "anthropic")]
    openai, anthropic = jobs.compare_send(scenario, translations, settings=runner.SendSettings(retries=0)).jobs
    assert openai.skipped is None and openai.skipped_for is None and openai.first.verdict["obeyed"]
    assert anthropic.skipped == "skipped: no API key: set ANTHROPIC_API_KEY"
    assert isinstance(anthropic.skipped_for, MissingKey) and anthropic.skipped_for.variables == ("ANTHROPIC_API_KEY",)


def test_to_a_local_server_the_words_are_an_assignment_that_sends(no_keys: pytest.MonkeyPatch, mocks) -> None:
    scenario = load_scenario_dict(SCENARIO)
    translations = jobs.translations(scenario, "openai", RenderOptions(base_url=mocks["openai"].base_url))
    problem = nothing_to_send(lambda: jobs.compare_send(scenario, translations))
    assert problem.missing[0].local and not any(w in str(problem) for w in CLI_WORDS), str(problem)
    assignment = re.search(r'e\.g\. (os\.environ\["\w+"\] = "\w+")', str(problem))
    assert assignment, str(problem)
    exec(assignment.group(1), {"os": os})  # noqa: S102 - the advice, as written (no_keys restores the variable)
    assert jobs.compare_send(scenario, translations, settings=runner.SendSettings(retries=0)).code == 0


def test_every_translation_refused_says_where_the_reason_is(no_keys: pytest.MonkeyPatch) -> None:
    scenario = load_scenario_dict(SCENARIO)
    refused = jobs.translations(scenario, ["ollama"], RenderOptions(emulate=False))
    assert refused[0].request is None
    problem = nothing_to_send(lambda: jobs.compare_send(scenario, refused))
    assert problem.missing == () and problem.skipped[0][1].startswith("refused: ")
    assert "ledger" in problem.hint and not any(w in problem.hint for w in CLI_WORDS), problem.hint
    errors = [e.message for e in refused[0].ledger if e.severity == "error"]
    assert errors and all(message in str(problem) for message in errors)


def test_a_header_variable_not_set_is_named_in_python_words(no_keys: pytest.MonkeyPatch) -> None:
    no_keys.setenv("OPENAI_API_KEY", "any value")
    no_keys.delenv("TEAM_TOKEN", raising=False)
    scenario = load_scenario_dict({**SCENARIO, "providers": {"openai": {"headers": {"X-Team": "$TEAM_TOKEN"}}}})
    translations = jobs.translations(scenario, "openai", RenderOptions(allow_env=("TEAM_TOKEN",)))
    problem = nothing_to_send(lambda: jobs.compare_send(scenario, translations))
    assert [(m.of, m.variables) for m in problem.missing] == [("header", ("TEAM_TOKEN",))]
    assert "set TEAM_TOKEN in os.environ" in str(problem) and "export" not in str(problem), str(problem)


def test_the_command_line_keeps_its_own_words_byte_for_byte() -> None:
    # the line compare --send printed before the library's words changed (main at 8b78009)
    done = run_cli(["compare", WEATHER, "-p", "anthropic,gemini", "--send"], env={"PATH": os.environ.get("PATH", "")})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("toolchoice: error: nothing to send: anthropic: skipped: no API key: set ANTHROPIC_API_KEY; "
                           "gemini: skipped: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (without --send, compare "
                           "is a dry run that needs no key; to send without one, put `toolchoice mock -p ID` in front "
                           "(docs/mock.md))\n")


@pytest.mark.parametrize("job", ["send", "compare_send"])
def test_min_obeyed_out_of_range_names_the_argument(monkeypatch: pytest.MonkeyPatch, job: str) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "any value")
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url="http://127.0.0.1:9/v1"))
    call = (lambda: jobs.send(scenario, translation, min_obeyed=95)) if job == "send" else (
        lambda: jobs.compare_send(scenario, [translation], min_obeyed=95))
    with pytest.raises(OutOfRange) as caught:
        call()
    problem = caught.value
    assert str(problem) == "min_obeyed 95: give a rate from 0 to 1 (e.g. min_obeyed=0.95)"
    assert (problem.argument, problem.value, problem.takes, problem.example) == ("min_obeyed", "95", "a rate from 0 to 1",
                                                                                 "0.95")
    assert jobs.send(scenario, translation, min_obeyed=float(problem.example), repeat=2,
                     settings=runner.SendSettings(retries=0)).code == 4  # taken: 0 of 2 obeyed (port 9)


def test_repeat_out_of_range_says_no_option() -> None:
    scenario = load_scenario_dict(SCENARIO)
    with pytest.raises(OutOfRange) as caught:
        jobs.run(scenario, "openai", repeat=0)
    assert str(caught.value) == "repeat 0: give a whole number from 1 to 1,000"
    assert caught.value.argument == "repeat" and caught.value.example == ""


def test_the_command_line_names_its_option_byte_for_byte() -> None:
    # the line `--min-obeyed nan` printed before (main at 8b78009): nan passes the option's own 0..1 range
    done = run_cli(["send", WEATHER, "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--repeat", "2",
                    "--min-obeyed", "nan", "--retries", "0"],
                   env={"PATH": os.environ.get("PATH", ""), "OPENAI_API_KEY": "unused"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "toolchoice: error: --min-obeyed nan: give a rate from 0 to 1 (e.g. --min-obeyed 0.95)\n"


def test_load_replay_takes_the_folder_as_a_str(monkeypatch: pytest.MonkeyPatch, mocks, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
    looped = load_scenario_dict({**SCENARIO, "tool_choice": "auto", "loop": {
        "max_steps": 2, "steps": [{"tool_choice": "get_weather"}, {"tool_choice": "auto"}],
        "stop": {"when": "no_tool_call"}, "results": {"get_weather": "18 °C"}}})
    local = LoopOptions(render=RenderOptions(base_url=mocks["openai"].base_url))
    first = jobs.run(looped, "openai", local, save=str(tmp_path))
    replay = loop.load_replay(str(tmp_path), "openai")  # docs/python.md: load_replay(folder, provider)
    again = jobs.run(looped, "openai", local, replay=replay)
    assert [s.verdict for s in again.runs[0].steps] == [s.verdict for s in first.runs[0].steps]
    with pytest.raises(ToolchoiceError) as caught:
        loop.load_replay(str(tmp_path), "sk-test-0123456789abcdef")  # a key where the provider id goes
    assert "sk-test" not in str(caught.value) and "$OPENAI_API_KEY" in str(caught.value)


@pytest.mark.parametrize(("argument", "value", "words"), [
    ("model", 3, "model: give a model id (str) or None, not int"),
    ("tool_choice", "required", "tool_choice: give a ToolChoice or None, not str (e.g. ToolChoice(\"required\"), or "
                                'ToolChoice("named", name="get_weather"))'),
])
def test_probe_refuses_a_wrong_type_at_the_door(argument: str, value: object, words: str) -> None:
    with pytest.raises(WrongArgument) as caught:  # it was an AttributeError deep in the first question
        jobs.probe("openai", repeat=1, **{argument: value})
    assert str(caught.value) == words


def test_probe_asks_only_the_questions_of_the_tool_choice_it_is_given(monkeypatch: pytest.MonkeyPatch, mocks) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "any value")
    options = RenderOptions(base_url=mocks["openai"].base_url)
    probed = jobs.probe("openai", repeat=1, options=options, tool_choice=ToolChoice("required"))
    asked = [q["question"] for q in probed["questions"]]
    assert "required" in asked and "none" not in asked and "auto" not in asked, asked
    assert {q["question"]: q["result"] for q in probed["questions"]}["required"] == "honored"


SAVE_WORDS = "{name} {path}: cannot create the folder: File exists (name a folder, not a file: {name} holds one file per sample)"


@pytest.mark.parametrize("job", ["send", "compare_send", "run", "running_mock"])
def test_a_save_folder_that_is_a_file_is_named_by_the_argument(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                               job: str) -> None:
    # it said "--save PATH: ... --save holds one file per sample" to a caller who wrote save= (or save_dir=)
    monkeypatch.setenv("OPENAI_API_KEY", "any value")
    a_file = tmp_path / "a-file"
    a_file.write_text("", encoding="utf-8")
    scenario = load_scenario_dict({**SCENARIO, "loop": {"max_steps": 1}})
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url="http://127.0.0.1:9/v1"))
    calls = {"send": lambda: jobs.send(scenario, translation, save=str(a_file)),
             "compare_send": lambda: jobs.compare_send(scenario, [translation], save=tmp_path),  # its folder per provider
             "run": lambda: jobs.run(scenario, "openai", save=a_file),
             "running_mock": lambda: running_mock("openai", save_dir=a_file).__enter__()}
    if job == "compare_send":
        a_file = tmp_path / "openai"
        a_file.write_text("", encoding="utf-8")
    with pytest.raises(ArgumentError) as caught:
        calls[job]()
    name = "save_dir" if job == "running_mock" else "save"
    assert str(caught.value) == SAVE_WORDS.format(name=name, path=a_file)
    assert (caught.value.argument, caught.value.said) == (name, f" {a_file}: cannot create the folder: File exists")


@pytest.mark.parametrize("command", [["send", WEATHER, "-p", "openai", "--base-url", "http://127.0.0.1:9/v1"],
                                     ["mock", "-p", "openai"]])
def test_the_command_line_names_save_as_before(tmp_path: Path, command: list[str]) -> None:
    # the line both commands printed before (main at 8b78009)
    a_file = tmp_path / "a-file"
    a_file.write_text("", encoding="utf-8")
    done = run_cli([*command, "--save", str(a_file)],
                   env={"PATH": os.environ.get("PATH", ""), "OPENAI_API_KEY": "unused"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolchoice: error: {SAVE_WORDS.format(name='--save', path=a_file)}\n"


def test_a_folder_another_job_saves_into_is_refused_in_python_words(monkeypatch: pytest.MonkeyPatch, mocks,
                                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "any value")
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url=mocks["openai"].base_url))
    with running_mock("openai", save_dir=tmp_path):  # the folder is held while the block runs
        with pytest.raises(ToolchoiceError) as caught:
            jobs.send(scenario, translation, save=tmp_path)
    assert str(caught.value) == (f"save {tmp_path}: another toolchoice run is saving into this folder (their samples "
                                 "would mix) (save into another folder, or wait until that run ends)")
    assert jobs.send(scenario, translation, save=tmp_path).code == 0  # free again once the block ended


def test_every_error_the_library_raises_is_exported_from_the_package() -> None:
    import inspect

    import toolchoice.providers
    from toolchoice.providers.core import errors

    raised = {name for name, value in vars(errors).items()
              if inspect.isclass(value) and issubclass(value, errors.ToolchoiceError)}
    assert raised <= set(toolchoice.providers.__all__), raised - set(toolchoice.providers.__all__)
    assert all(getattr(toolchoice.providers, name) is getattr(errors, name) for name in raised)


def test_a_key_pasted_as_the_save_folder_is_not_in_the_error_or_its_record(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    key = "sk-test-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    pasted = tmp_path / key
    pasted.write_text("", encoding="utf-8")
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(ArgumentError) as caught:
        jobs.send(scenario, translation, save=pasted)
    problem = caught.value
    assert "$OPENAI_API_KEY" in str(problem) and "$OPENAI_API_KEY" in problem.said
    assert key not in repr((str(problem), problem.args, problem.said, problem.hint_parts)), problem.said
    from toolchoice.cli.exits import in_command_words

    assert key not in in_command_words(problem) and in_command_words(problem).startswith("--save ")
