"""`send --format json`, `compare --send --format json` and `run --format json`'s steps carry `"sent_choice"` and
`"sent_parallel"` as `render --format json` does (`Translation.to_json`): where `providers.<id>.extra` writes the
tool_choice or the parallel setting, what the verdict judges, at which body path, and whether extra wrote it there.

Real sends, in-process, to `toolchoice mock` servers on 127.0.0.1 (one per family for the module). The truth is
outside the code: the bodies the servers received (their `save_dir`), each `at` walked there and checked against the
official SDK's request type (openai's and anthropic's TypedDicts, google-genai's ToolConfig); the neutral forms
expected are the scenario language's own (docs/scenarios.md: a forced tool is `{tool: NAME}`), written here, not
computed; the documents validate against the schemas `toolchoice schema` publishes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from sdk_types import held_by_sdk, missing  # noqa: E402

pytestmark = pytest.mark.skipif(missing("openai", "anthropic", "google.genai", "jsonschema"),
                                reason="needs openai, anthropic, google-genai and jsonschema")

FAMILIES = ("openai", "anthropic", "gemini")
TOOLS = [{"name": name, "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                       "required": ["city"]}} for name in ("f", "g")]
# what each family's extra writes: g forced, parallel calls allowed, in the API's own words (openai
# ChatCompletionNamedToolChoiceParam and parallel_tool_calls; anthropic ToolChoiceToolParam with
# disable_parallel_tool_use; google-genai FunctionCallingConfig, REST spelling)
EXTRA = {"openai": {"tool_choice": {"type": "function", "function": {"name": "g"}}, "parallel_tool_calls": True},
         "anthropic": {"tool_choice": {"type": "tool", "name": "g", "disable_parallel_tool_use": False}},
         "gemini": {"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["g"]}}}}
FORCED_G = {"tool_choice": {"tool": "g"}, "source": "extra"}  # the scenario language's forced g, from extra
ENV = {"OPENAI_API_KEY": "unused", "ANTHROPIC_API_KEY": "unused", "GEMINI_API_KEY": "unused",
       "NO_PROXY": "127.0.0.1", "COLUMNS": "100"}


@pytest.fixture(scope="module")
def mocks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from contextlib import ExitStack

    from toolchoice.providers.core.mock.server import running_mock

    folder = tmp_path_factory.mktemp("received")
    with ExitStack() as stack:
        yield {p: stack.enter_context(running_mock(p, save_dir=folder / p)) for p in FAMILIES}


@pytest.fixture(scope="module")
def validators() -> dict[str, Any]:
    import jsonschema

    return {name: jsonschema.Draft202012Validator(json.loads(run_cli(["schema", name]).stdout))
            for name in ("render", "send", "compare", "run")}


def scenario(folder: Path, mocks: dict[str, Any], extra: bool = True, loop: dict[str, Any] | None = None) -> str:
    """A scenario forcing f with parallel calls off, each family on its mock; ``extra``: each family's EXTRA."""
    data: dict[str, Any] = {
        "tools": TOOLS, "tool_choice": "f", "parallel_tool_calls": False,
        "messages": [{"role": "user", "content": "weather in Paris"}],
        "providers": {p: {"base_url": m.base_url, **({"extra": EXTRA[p]} if extra else {})} for p, m in mocks.items()}}
    if loop is not None:
        data["loop"] = loop
    path = folder / "scenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def sent(args: list[str], folder: Path, mocks: dict[str, Any]) -> tuple[Any, dict[str, list[dict[str, Any]]]]:
    """The command's JSON document and the bodies each mock received while it ran, in order."""
    before = {p: len(m.records) for p, m in mocks.items()}
    done = run_cli([*args, "-f", "json", "--retries", "0"], env=ENV, cwd=folder)
    assert done.returncode == 0, done.stderr
    received = {}
    for p, m in mocks.items():
        numbers = [r["n"] for r in m.records[before[p]:]]
        received[p] = [json.loads((m.save_dir / f"sample-{n:03d}.request.json").read_text())["body"] for n in numbers]
    return json.loads(done.stdout), received


def body_at(body: dict[str, Any], path: list[str]) -> Any:
    for key in path:
        body = body[key]
    return body


def holds_openai(document: dict[str, Any], body: dict[str, Any]) -> None:
    """What OpenAI's document says extra sends is in the body received, where the SDK's request type holds it."""
    from openai.types.chat.completion_create_params import CompletionCreateParamsBase

    assert document["sent_choice"] == {**FORCED_G, "at": ["tool_choice"]}
    assert document["sent_parallel"] == {"parallel_tool_calls": True, "at": ["parallel_tool_calls"], "source": "extra"}
    for key, written in (("sent_choice", EXTRA["openai"]["tool_choice"]), ("sent_parallel", True)):
        at = document[key]["at"]
        assert body_at(body, at) == written
        held_by_sdk(CompletionCreateParamsBase, at, written)


def test_send_json_says_what_extra_sends_one_sample_and_several(tmp_path: Path, mocks: dict[str, Any],
                                                                validators: dict[str, Any]) -> None:
    path = scenario(tmp_path, mocks)
    one, received = sent(["send", path, "-p", "openai"], tmp_path, mocks)
    assert len(received["openai"]) == 1
    holds_openai(one, received["openai"][0])
    assert [c["name"] for c in one["verdict"]["calls"]] == ["g"] and one["verdict"]["category"] == "obeyed"
    assert list(validators["send"].iter_errors(one)) == []
    rendered = json.loads(run_cli(["render", path, "-p", "openai", "-f", "json"], env=ENV, cwd=tmp_path).stdout)
    assert {k: rendered[k] for k in ("sent_choice", "sent_parallel")} == {k: one[k] for k in ("sent_choice",
                                                                                             "sent_parallel")}
    several, received = sent(["send", path, "-p", "openai", "-n", "2"], tmp_path, mocks)
    assert len(received["openai"]) == 2 and several["samples"] == 2
    for body in received["openai"]:
        holds_openai(several, body)
    assert list(validators["send"].iter_errors(several)) == []
    wrong = {**one, "sent_parallel": {**one["sent_parallel"], "source": "scenario"}}
    assert list(validators["send"].iter_errors(wrong))  # the schema holds the source to its two words


def test_send_json_without_extra_has_both_keys_null(tmp_path: Path, mocks: dict[str, Any],
                                                    validators: dict[str, Any]) -> None:
    document, received = sent(["send", scenario(tmp_path, mocks, extra=False), "-p", "openai"], tmp_path, mocks)
    assert document["sent_choice"] is None and document["sent_parallel"] is None
    body = received["openai"][0]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    assert body["parallel_tool_calls"] is False  # the scenario's, as asked
    assert list(validators["send"].iter_errors(document)) == []


def test_compare_send_json_says_what_extra_sends_on_each_family(tmp_path: Path, mocks: dict[str, Any],
                                                                validators: dict[str, Any]) -> None:
    from anthropic.types.message_create_params import MessageCreateParamsBase
    from google.genai import types

    document, received = sent(["compare", scenario(tmp_path, mocks), "--send", "-p", ",".join(FAMILIES)], tmp_path,
                              mocks)
    assert list(validators["compare"].iter_errors(document)) == []
    entries = {entry["provider"]: entry for entry in document["providers"]}
    assert {p: len(bodies) for p, bodies in received.items()} == {p: 1 for p in FAMILIES}
    holds_openai(entries["openai"], received["openai"][0])

    on_anthropic, body = entries["anthropic"], received["anthropic"][0]
    assert on_anthropic["sent_choice"] == {**FORCED_G, "at": ["tool_choice"]}
    assert on_anthropic["sent_parallel"] == {"parallel_tool_calls": True,
                                             "at": ["tool_choice", "disable_parallel_tool_use"], "source": "extra"}
    for key in ("sent_choice", "sent_parallel"):
        held_by_sdk(MessageCreateParamsBase, on_anthropic[key]["at"], body_at(body, on_anthropic[key]["at"]))
    assert body_at(body, on_anthropic["sent_parallel"]["at"]) is False  # disable false: parallel calls allowed

    on_gemini, body = entries["gemini"], received["gemini"][0]
    assert on_gemini["sent_choice"] == {**FORCED_G, "at": ["toolConfig", "functionCallingConfig"]}
    assert on_gemini["sent_parallel"] is None  # Gemini's wire has no parallel setting: the scenario's holds
    config = types.ToolConfig.model_validate({on_gemini["sent_choice"]["at"][1]:
                                              body_at(body, on_gemini["sent_choice"]["at"])})
    assert config.function_calling_config is not None
    assert config.function_calling_config.allowed_function_names == ["g"]
    assert {p: [c["name"] for c in e["verdict"]["calls"]] for p, e in entries.items()} == {p: ["g"] for p in FAMILIES}


def test_run_json_steps_say_what_extra_sends(tmp_path: Path, mocks: dict[str, Any],
                                             validators: dict[str, Any]) -> None:
    loop = {"max_steps": 2, "results": {"f": "sunny", "g": "sunny"}}
    document, received = sent(["run", scenario(tmp_path, mocks, loop=loop), "-p", "openai"], tmp_path, mocks)
    assert list(validators["run"].iter_errors(document)) == []
    steps = document["runs"][0]["loops"][0]["steps"]
    assert len(steps) == len(received["openai"]) == 2
    for step, body in zip(steps, received["openai"]):
        holds_openai(step, body)
