"""Session 17 leftovers (trial17t): run's step view caps a reply's calls as the pretty reply view does; a Responses
save's function_call item id and status said with the API's own words; a model id given as the provider hinted from
the capability rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli import run_cli

KEY = "sk-leftovers17t-canary-0123456789"


def _env(**more: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))} | {"OPENAI_API_KEY": KEY} | more


# ---- run's step view: a reply of 300 calls ----------------------------------------------------------------------------

def test_runs_step_view_draws_the_first_calls_and_says_how_many_more(tmp_path: Path) -> None:
    """The pretty reply view draws 200 calls (sample_view.CALLS_SHOWN, trial17q); run's step table drew every call of a
    step, one a line. It takes the same cap; --format json keeps all 300."""
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    (tmp_path / "s.yaml").write_text("tools:\n  - {name: t, description: d, parameters: {type: object}}\n"
                                     "tool_choice: required\nmessages:\n  - {role: user, content: go}\n"
                                     "loop:\n  max_steps: 1\n", encoding="utf-8")
    calls = ", ".join("{name: t, arguments: {n: %d}}" % i for i in range(300))
    (tmp_path / "script.yaml").write_text("replies:\n" + f"  - calls: [{calls}]\n" * 2, encoding="utf-8")  # a run each
    with running_mock("openai", script=load_script(str(tmp_path / "script.yaml"))) as mock:
        args = ["run", str(tmp_path / "s.yaml"), "-p", "openai", "--base-url", mock.base_url, "--retries", "0"]
        drawn = run_cli(args, env=_env(COLUMNS="80"))
        whole = run_cli([*args, "-f", "json"], env=_env())
    assert drawn.returncode in (0, 4), drawn.stdout + drawn.stderr
    assert '{"n": 199}' in drawn.stdout and '{"n": 200}' not in drawn.stdout, drawn.stdout[-2000:]
    assert "… and 100 more calls (-f json shows all)" in " ".join(drawn.stdout.split()).replace("│", ""), \
        drawn.stdout[-2000:]
    [loop] = json.loads(whole.stdout)["runs"][0]["loops"]
    assert [c["arguments"] for c in loop["steps"][0]["reply"]["tool_calls"]] == [{"n": i} for i in range(300)]
    assert KEY not in drawn.stdout + drawn.stderr + whole.stdout


# ---- a model id given as the provider: the hint from the capability rows -----------------------------------------------

def _literals(kind: object) -> list[str]:
    import typing

    found: list[str] = []
    for arg in typing.get_args(kind):
        found += [arg] if isinstance(arg, str) else _literals(arg)
    return found


def test_a_model_id_of_the_sdks_given_as_the_provider_names_the_row_whose_prefixes_hold_it() -> None:
    """`-p gpt-4o` is hinted `-p openai -m gpt-4o` from the openai row's model_prefixes (core held the table of
    families until trial17t). Truth from outside: the SDKs' own model ids (openai 3.57.0 types/shared/chat_model.py
    ChatModel, anthropic types/model_param.py ModelParam): each with a version number is hinted to its own API, never
    another; a name with no digit (gpt-audio-mini, codex-mini-latest) is not taken for a model id, nor is chatgpt-…,
    whose first word is an other name of the openai row (`-p chatgpt`: "did you mean openai?")."""
    from anthropic.types.model_param import ModelParam
    from openai.types.shared.chat_model import ChatModel

    from toolchoice.providers.core.capabilities import CAPABILITIES, provider_hint

    for provider, ids in (("openai", _literals(ChatModel)), ("anthropic", _literals(ModelParam))):
        assert len(ids) > 10, ids
        for model in ids:
            hint = provider_hint(model)
            if any(c.isdigit() for c in model) and not model.startswith("chatgpt-"):
                assert hint == f"{model} looks like a model: -p {provider} -m {model}", (model, hint)
            else:
                assert "looks like a model" not in hint, (model, hint)
    # each family word and other name belongs to one row, and hints that row
    prefixes = [p for cap in CAPABILITIES.values() for p in cap.model_prefixes]
    names = [n for cap in CAPABILITIES.values() for n in cap.other_names]
    assert len(prefixes) == len(set(prefixes)) and len(names) == len(set(names)), (prefixes, names)
    for provider, cap in CAPABILITIES.items():
        for prefix in cap.model_prefixes:
            assert provider_hint(f"{prefix}-9-x") == f"{prefix}-9-x looks like a model: -p {provider} -m {prefix}-9-x"
        for name in cap.other_names:
            assert provider_hint(name) == f"did you mean {provider}?", name


# ---- trace SAVED: a Responses save's function_call item id and status -------------------------------------------------

def test_a_responses_saves_function_call_status_is_an_echo_and_its_id_a_pairing(tmp_path: Path) -> None:
    """The openai SDK's own loop (the function-calling guide's `input += response.output`) sends the mock's
    function_call item back with its `id` and `status`; `trace --sample 2` warned that both were not rendered back.
    status "completed" is the API's echo of its output (the SDK's words, read from the SDK here): an info note; the id is
    what the API pairs with a reasoning item: still a warning, saying so; an "incomplete" status keeps the plain one."""
    import inspect

    from openai import OpenAI
    from openai.types.responses import response_function_tool_call_param

    from toolchoice.providers.core.mock.server import running_mock
    from toolchoice.providers.core.saved_request import import_saved

    tools = [{"type": "function", "name": "get_weather", "description": "Weather in a city.", "strict": True,
              "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                             "additionalProperties": False}}]
    with running_mock("openai-responses", save_dir=tmp_path) as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        items: list = [{"role": "user", "content": "weather in Paris?"}]
        first = client.responses.create(model="gpt-4o", input=items, tools=tools, tool_choice="required")
        [call] = [o for o in first.output if o.type == "function_call"]
        items += [*first.output, {"type": "function_call_output", "call_id": call.call_id, "output": "sunny"}]
        client.responses.create(model="gpt-4o", input=items, tools=tools)
    sent = json.loads((tmp_path / "sample-002.request.json").read_text(encoding="utf-8"))["body"]["input"][1]
    assert sent["type"] == "function_call" and sent["id"] == call.id and sent["status"] == "completed", sent
    notes = [f"{n.severity} {n.message}" for n in import_saved(tmp_path, 2).notes if n.code == "saved.differs"]
    assert "'Populated when items are returned via API.'" in notes[1]  # the words quoted are the SDK's
    source = " ".join(inspect.getsource(response_function_tool_call_param).split())
    assert "Populated when items are returned via API." in source and "The unique ID of the function tool call." in source
    assert notes[1].startswith('info input[1].status: recorded "completed", not rendered back for openai-responses: '
                               "the API's echo of its own output item"), notes
    assert notes[0].startswith(f'warning input[1].id: recorded "{call.id}", not rendered back for openai-responses: '
                               "the item id"), notes
    assert "was provided without its required 'reasoning' item" in notes[0] and len(notes) == 2, notes
    assert KEY not in str(notes)
    # a status that says more than the echo: the plain difference, a warning
    saved = tmp_path / "sample-002.request.json"
    document = json.loads(saved.read_text(encoding="utf-8"))
    document["body"]["input"][1]["status"] = "incomplete"
    saved.write_text(json.dumps(document), encoding="utf-8")
    notes = [f"{n.severity} {n.message}" for n in import_saved(tmp_path, 2).notes if n.code == "saved.differs"]
    assert notes[1] == ('warning input: rendered back for openai-responses it differs: at input[1].status: recorded '
                        '"incomplete", not rendered'), notes
