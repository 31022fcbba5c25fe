"""What a provider family declares in its own module (issue 28 point 2): its error envelope, its tool-file
format, the scenario keys its reasoning text comes under, and what an assistant turn without text looks like.
Each test holds a module's declaration to recorded bodies or files from outside the code (their sources are in
the folders' SOURCES.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolchoice.providers.core import reply
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.error_envelope import ErrorEnvelope
from toolchoice.providers.core.reply import merged
from toolchoice.providers.core.model import Message, Reply, ToolCall
from toolchoice.providers.core.registry import family_modules, module_for

DATA = Path(__file__).parent / "data"
ERRORS = DATA / "responses" / "errors"
BEDROCK_HEADERS = {"x-amzn-ErrorType": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"}
# each recorded error body → the provider that answered it (tests/data/responses/errors/SOURCES.md)
ANSWERED_BY = {"error-anthropic-invalid-input-schema.json": "anthropic", "error-anthropic-overloaded.json": "anthropic",
               "error-anthropic-top-level-anyof.json": "anthropic",
               "error-bedrock-toolchoice-not-supported.json": "bedrock", "error-cohere-invalid-request.json": "cohere",
               "error-gemini-invalid-function-name.json": "gemini",
               "error-gemini-function-calling-config-without-declarations.json": "gemini",
               "error-gemini-unknown-field.json": "gemini",
               "error-gemini-schema-items-missing.json": "gemini",
               "error-gemini-schema-required-undefined.json": "gemini",
               "error-gemini-json-schema-ref-undefined.json": "gemini",
               "error-groq-requested-tool-does-not-exist.json": "groq", "error-groq-tool-choice-null.json": "groq",
               "error-groq-tool-use-failed.json": "groq", "error-llama-cpp-python-500.json": "llamacpp",
               "error-mistral-422-extra-forbidden.json": "mistral",
               "error-mistral-400-tool-call-id.json": "mistral", "error-ollama-native.json": "ollama",
               "error-openai-tool-choice-without-tools.json": "openai",
               "error-openai-tools-reasoning-effort.json": "openai",
               "error-openai-unparsed-json.json": "openai",
               "error-openai-tools-reasoning-effort-gpt-5.6.json": "openai",
               "error-azure-tools-reasoning-effort-gpt-6-astra.json": "azure",
               "error-mistral-400-reasoning-effort.json": "mistral",
               "error-xai-422-tool-choice.json": "xai", "error-cohere-422-tool-choice.json": "cohere",
               "error-anthropic-invalid-version.json": "anthropic"}


def test_every_recorded_error_body_is_named_above():
    bodies = {p.name for p in ERRORS.glob("error-*.json") if not p.name.endswith(".expect.json")}
    assert bodies == set(ANSWERED_BY)


@pytest.mark.parametrize("name", sorted(ANSWERED_BY))
def test_a_recorded_error_is_read_by_its_own_module_s_envelope(name: str, monkeypatch):
    """The answering family's module alone knows its envelope: read with only its ERROR_ENVELOPES, the body gives
    the same error as with every module's."""
    provider = ANSWERED_BY[name]
    body = json.loads((ERRORS / name).read_text(encoding="utf-8"))
    headers = BEDROCK_HEADERS if provider == "bedrock" else None
    every = reply.provider_error(provider, 400, body, headers=headers)
    monkeypatch.setattr(reply, "_forms", lambda: merged(list(module_for(provider).ERROR_ENVELOPES)))
    alone = reply.provider_error(provider, 400, body, headers=headers)
    assert alone == every and not alone.message.startswith("unrecognized error body")
    assert reply.looks_like_error(body)


def test_every_module_declares_its_envelopes_with_a_source():
    for module in family_modules():
        envelopes = module.ERROR_ENVELOPES
        assert envelopes and all(isinstance(e, ErrorEnvelope) and len(e.source) > 20 for e in envelopes), module
        assert any(e.reply_keys for e in envelopes), module.__name__


def test_a_provider_s_own_reply_is_told_from_an_error_without_loading_the_other_families():
    code = ("import json, sys; from toolchoice.providers.core.reply import read_reply; "
            f"body = json.load(open({str(DATA / 'responses' / 'openai' / 'openai-chat-single-strict.json')!r})); "
            "r = read_reply('openai', 200, body); assert r.error is None, r; "
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('toolchoice.providers.') "
            "and m.count('.') == 2 and m.rsplit('.', 1)[1] != 'core'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    # openai_chat and its host rows (openai_chat_hosts): no other family
    assert out.stdout.split() == ["['openai_chat',", "'openai_chat_hosts']"], out.stdout + out.stderr


# ---- tool files -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("file, fmt, module", [("openai-chat.json", "openai-chat", "openai_chat"),
                                               ("openai-responses.json", "openai-responses", "openai_responses"),
                                               ("anthropic.yaml", "anthropic", "anthropic"),
                                               ("gemini.json", "gemini", "gemini")])
def test_a_family_s_tool_file_is_read_as_its_module_declares(file: str, fmt: str, module: str):
    """tests/data/tools/SOURCES.md: each file is what the family's SDK accepts (test_tool_import checks the types)."""
    from toolchoice.providers.core.tool_import import import_file
    from toolchoice.providers.core.tool_import_formats import formats

    imported = import_file(DATA / "tools" / file)
    declared = next(m.TOOL_FILE for m in family_modules() if m.__name__.rsplit(".", 1)[1] == module)
    assert imported.format == fmt == declared.format and formats()[fmt] is declared
    assert imported.notes[0].message.endswith(f"read as {declared.title}")


def test_the_formats_of_no_provider_stay_in_core():
    from toolchoice.providers.core.tool_import_formats import formats

    families = {m.TOOL_FILE.format for m in family_modules() if getattr(m, "TOOL_FILE", None)}
    assert families == {"openai-chat", "openai-responses", "anthropic", "gemini"}
    assert set(formats()) - families == {"toolchoice", "mcp", "bfcl"}


# ---- a scenario's family keys and the loop's empty content ----------------------------------------------

def test_reasoning_content_is_openai_chat_s_key(tmp_path):
    from toolchoice.providers.core.registry import reasoning_text_keys
    from toolchoice.providers.core.scenario import load_scenario

    assert reasoning_text_keys() == {"reasoning_content": "openai-chat"}
    path = tmp_path / "s.yaml"
    path.write_text("messages:\n  - {role: user, content: hi}\n  - role: assistant\n    reasoning_content: thought\n"
                    "    tool_calls: [{id: c1, name: f, arguments: {}}]\n  - {role: tool, tool_call_id: c1, content: ok}\n"
                    "tools:\n  - {name: f, parameters: {type: object}}\n")
    item, = load_scenario(str(path)).messages[1].reasoning
    assert (item.family, item.text) == ("openai-chat", "thought")


@pytest.mark.parametrize("provider", ["openai", "llamacpp", "anthropic", "gemini"])
def test_a_turn_with_calls_and_no_text_carries_what_the_module_says(provider: str):
    """llama-cpp-python's server rejects content null beside tool_calls (tests/realmodel/test_server_facts.py):
    openai_chat's hosts get "", the other families the turn as the reply was."""
    from toolchoice.providers.core.loop import settle_turn

    call = ToolCall(id="c1", name="f", arguments={})
    turn = Message("assistant", content=None, tool_calls=(call,))
    settled, notes = settle_turn(turn, Reply(tool_calls=(call,)), provider, [], 1)
    openai_chat = CAPABILITIES[provider].module == "openai_chat"
    assert settled.content == ("" if openai_chat else None)
    assert [n.code for n in notes] == (["loop.empty_content"] if openai_chat else [])


# ---- a body written in an SDK's reply shape (not a recording) fits that SDK's type ------------------------

BUILT_FROM_TYPES = {  # fixture → the SDK type its SOURCES.md says it was written from
    "sambanova/sambanova-get-weather-tool-call.json": ("sambanova", "sambanova.types.chat.chat_completion_response",
                                                       "ChatCompletionResponse"),
}


@pytest.mark.parametrize("fixture", sorted(BUILT_FROM_TYPES))
def test_a_body_written_from_an_sdk_type_fits_it(fixture: str):
    import importlib

    package, module, name = BUILT_FROM_TYPES[fixture]
    pytest.importorskip(package)
    body = json.loads((DATA / "responses" / fixture).read_text(encoding="utf-8"))
    model = getattr(importlib.import_module(module), name).model_validate(body)
    assert model.choices[0].message.tool_calls[0].function.arguments == body["choices"][0]["message"]["tool_calls"][0][
        "function"]["arguments"]
    assert set(body) <= set(type(model).model_fields)  # no field the type does not have


def test_the_benchmarks_name_a_model_for_every_provider_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/corpus.py's settings are the benchmarks' scenario (translation throughput, compare --send of every
    provider): a provider added to the table without them left `compare --send` unmeasurable (a KeyError)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_corpus", Path(__file__).resolve().parents[1] / "bench"
                                                  / "corpus.py")
    assert spec is not None and spec.loader is not None
    corpus = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, corpus)  # its dataclasses look their module up there
    spec.loader.exec_module(corpus)
    assert sorted(corpus.PROVIDER_SETTINGS) == sorted(CAPABILITIES)
    assert all(settings.get("model") for settings in corpus.PROVIDER_SETTINGS.values())
