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
