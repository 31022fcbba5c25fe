"""What a provider's row declares for the shared path (``Capability.marks``, core/family_marks.py), and the jobs the
command line handed to the library (doctor's report, parse's and run's sniffs). The shared modules name no family:
their words come from the rows, and each row's words are held to the API's own (SDK types, recorded bodies)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from tests.cli import run_cli, user_env
from toolchoice.providers.core import scenario_messages, verdict
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.family_marks import NONE, Finish, Marks, Pasted, Traced
from toolchoice.providers.core.model import ProviderSettings, Reply, ToolchoiceError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
# the shared modules whose family words moved into the rows' marks
READERS = ("translation.py", "trace_import.py", "verdict.py", "scenario_messages.py", "sniff.py", "loop_save.py",
           "doctor.py")
# the trace formats' own vocabulary for providers (ARCHITECTURE.md): read there, and named there on purpose
VOCABULARY = {"PROVIDER_NAMES", "EVENT_MESSAGES_FORMAT"}


def _declared_words() -> set[str]:
    """Every word a row's marks declare, and the ids of the rows that declare any: what the readers must not spell.
    A scenario's own key (``reasoning_content:``, openai_chat's ``REASONING_TEXT_KEYS``; a call's ``thought_signature:``)
    is a neutral word there."""
    from toolchoice.providers.core.registry import reasoning_text_keys

    words: set[str] = set()
    for pid, cap in CAPABILITIES.items():
        m = cap.marks
        if m == NONE:
            continue
        words.add(pid)
        words |= set(m.reasoning_refusals) | {f.reason for f in m.finishes}
        if m.pasted is not None:
            words |= {m.pasted.name, *m.pasted.system_keys, *(role[2] for role in m.pasted.roles if len(role) > 2)}
    return words - set(reasoning_text_keys()) - set(scenario_messages.CALL_KEYS)


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module's code (docstrings and the trace vocabulary left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skipped.add(id(body[0].value))
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in VOCABULARY for t in targets):
                skipped |= {id(n) for n in ast.walk(node)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped]


def test_the_shared_modules_spell_no_word_a_row_declares() -> None:
    """Before the marks, translation.py named azure, bedrock, openrouter and gemini, trace_import.py openai-responses,
    verdict.py the thought-signature and thinking words and Gemini's finish reasons, scenario_messages.py Gemini's and
    Anthropic's forms: each is now its row's, and the readers find them there."""
    words = _declared_words()
    assert {"gemini", "Gemini", "Anthropic", "systemInstruction", "MISSING_THOUGHT_SIGNATURE", "openai-responses",
            "bedrock", "azure", "openrouter", "OpenAI chat", "OpenAI's legacy API"} <= words  # spelled there before
    found = []
    for name in READERS:
        for line, text in _strings(ROOT / "providers" / "core" / name):
            found += [f"{name}:{line}: {word!r} in {text!r}" for word in sorted(words)
                      if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]
    assert found == []


# the shared modules cleaned of every family's name (issue 28, point 2): no row id, module, reasoning family or SDK
CLEANED = ("trace_import.py", "tool_import_limits.py", "loop_lint.py", "stream_framing.py", "trace_scenario.py")


def _family_names() -> set[str]:
    """Every row's id and module, each module's reasoning family, the SDK names the marks hold: what a cleaned
    module spells nowhere in its code, in any case, as a word or a part of one (``openai-chat``, ``anthropic_``)."""
    from toolchoice.providers.core.family_marks import SSE_SDKS
    from toolchoice.providers.core.registry import reasoning_families

    names = {pid for pid in CAPABILITIES} | {cap.module for cap in CAPABILITIES.values()}
    return (names | set(reasoning_families()) | {sdk.name for sdk in SSE_SDKS}) - {"together"}  # an English word


def test_the_cleaned_modules_spell_no_family_s_name() -> None:
    """Before: trace_import defaulted to "openai-chat", tool_import_limits picked a body by "anthropic_" or
    "cohere_", loop_lint's way out named Anthropic and its beta header, stream_framing's notes the SDKs,
    trace_scenario's trace.provider_mapped the Gemini API and Vertex AI (now gemini's module's TRACED_NAMES)."""
    names = _family_names()
    assert {"openai-chat", "anthropic", "cohere", "mistralai", "google-genai", "openai_chat"} <= names
    found = []
    for name in CLEANED:
        for line, text in _strings(ROOT / "providers" / "core" / name):
            found += [f"{name}:{line}: {word!r} in {text!r}" for word in sorted(names)
                      if re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text, re.IGNORECASE)]
    assert found == []


def test_the_scan_finds_a_family_word_where_one_is_written(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Gemini in a docstring."""\nPROVIDER_NAMES = {"gemini": "gemini"}\n'
                      'HINT = "a message with parts (Gemini\'s form)"\n', encoding="utf-8")
    assert [text for _, text in _strings(module)] == ["a message with parts (Gemini's form)"]


# ---- each row's words are the API's own ------------------------------------------------------------------------


def test_a_finish_reason_a_row_marks_is_one_its_sdk_defines() -> None:
    from google.genai import types

    reasons = {f.reason for f in CAPABILITIES["gemini"].marks.finishes}
    assert reasons == {"MISSING_THOUGHT_SIGNATURE", "TOO_MANY_TOOL_CALLS"}
    assert reasons <= set(types.FinishReason.__members__)


@pytest.mark.parametrize("body, provider", [("error-gemini-missing-thought-signature.json", "gemini"),
                                            ("error-deepseek-missing-reasoning-content.json", "deepseek")])
def test_a_recorded_refusal_holds_its_row_s_words_and_is_a_request_error(body: str, provider: str) -> None:
    message = json.loads((DATA / "responses" / "reasoning" / body).read_text(encoding="utf-8"))["error"]["message"]
    assert any(word in message.lower() for word in CAPABILITIES[provider].marks.reasoning_refusals)
    done = run_cli(["parse", str(DATA / "responses" / "reasoning" / body), "-p", provider, "-s",
                    str(ROOT / "configs" / "weather.yaml"), "-f", "json"], env=user_env())
    assert json.loads(done.stdout)["verdict"]["category"] == "request_error"


def test_the_responses_shape_a_trace_files_under_openai_is_the_sdk_s() -> None:
    """The traced shape: Responses' create takes ``input`` and no ``messages``, and its reply's ``object`` is
    "response" (openai's types); a recorded OpenInference Responses call is read as openai-responses."""
    from openai.types.responses import Response, response_create_params

    traced = CAPABILITIES["openai-responses"].marks.traced
    assert traced is not None and traced.recorded_as == "openai"
    keys = response_create_params.ResponseCreateParamsBase.__annotations__
    assert traced.request_key in keys and traced.not_key not in keys
    assert Response.model_fields["object"].annotation.__args__ == (traced.reply_object,)
    from toolchoice.providers.core.trace_import import traced_as

    assert traced_as("openai", {"input": "hi", "model": "m"}, None) == "openai-responses"
    assert traced_as("openai", {"messages": []}, {"object": "response"}) == "openai-responses"
    assert traced_as("openai", {"messages": []}, {"object": "chat.completion"}) is None
    assert traced_as("anthropic", {"input": "hi"}, None) is None


def test_every_setting_a_row_marks_is_a_scenario_setting_and_the_ledger_names_its_row(tmp_path: Path) -> None:
    from toolchoice.providers.core.translation import ONE_PROVIDER_SETTINGS

    marked = {key: pid for pid, cap in CAPABILITIES.items() for key in cap.marks.settings}
    assert ONE_PROVIDER_SETTINGS == marked and set(marked) <= set(ProviderSettings._fields)
    assert list(ONE_PROVIDER_SETTINGS) == [k for k in ProviderSettings._fields if k in marked]  # the ledger's order
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}]\nproviders:\n"
                        "  openai: {region: us-east-1, schema_form: auto}\n", encoding="utf-8")
    ledger = json.loads(run_cli(["render", str(scenario), "-p", "openai", "-f", "json"], env=user_env()).stdout)["ledger"]
    unread = [e["message"] for e in ledger if e["code"] == "settings.unread"]
    assert unread == ["providers.openai.region is not read for openai: it is bedrock's setting (move it under "
                      "providers.bedrock, or remove it)",
                      "providers.openai.schema_form is not read for openai: it is gemini's setting (move it under "
                      "providers.gemini, or remove it)"]


# ---- a row's marks reach the readers: a new row's are read as the others' ----------------------------------------


@pytest.fixture
def marked_row(monkeypatch: pytest.MonkeyPatch):
    """ollama's row with marks of a made-up API, the readers' caches cleared before and after."""
    marks = Marks(finishes=(Finish("LOOP_LIMIT", "the made-up loop stopped", request_error=False),
                            Finish("NO_STATE", "the made-up state is missing", request_error=True)),
                  reasoning_refusals=("made-up state missing",),
                  pasted=Pasted("Madeup", system_keys=("madeupSystem",), roles=(("bot", "assistant"),),
                                call_wrapper="call", call_form="{call: {name, args}}"),
                  traced=Traced("groq", "prompt", "messages", "madeup.reply"))
    monkeypatch.setitem(CAPABILITIES, "ollama", CAPABILITIES["ollama"]._replace(marks=marks))
    verdict._marks.cache_clear(), scenario_messages._pasted.cache_clear()
    yield
    verdict._marks.cache_clear(), scenario_messages._pasted.cache_clear()


def test_a_row_s_finish_reasons_and_refusal_words_reach_the_verdict(marked_row: None) -> None:
    from toolchoice.providers.core.model import ProviderError, Scenario, ToolChoice

    assert verdict.reasoning_refusal(Reply(finish_reason="NO_STATE")) == (
        "finish reason NO_STATE: the made-up state is missing")
    assert verdict.reasoning_refusal(Reply(finish_reason="LOOP_LIMIT")) is None
    error = ProviderError(400, None, "Made-up state missing for call 2")
    assert "missing reasoning state" in verdict.reasoning_refusal(Reply(error=error))
    judged = verdict.verdict(Scenario("s", tool_choice=ToolChoice("none")), Reply(text="hi", finish_reason="LOOP_LIMIT"),
                             None)
    assert judged["obeyed"] and "finish reason LOOP_LIMIT: the made-up loop stopped" in judged["reasons"]


def test_a_row_s_pasted_forms_reach_the_scenario_reader(marked_row: None, tmp_path: Path) -> None:
    from toolchoice.providers.core.scenario import load_scenario_text

    with pytest.raises(ToolchoiceError) as said:
        load_scenario_text("madeupSystem: hi\ntools: [{name: t}]\nmessages: [{role: user, content: hi}]\n", "s.yaml")
    assert "unknown key 'madeupSystem' in the scenario (Madeup's system instruction)" in said.value.one_line()
    assert "-p ollama" in said.value.one_line()
    with pytest.raises(ToolchoiceError) as said:
        load_scenario_text("tools: [{name: t}]\nmessages: [{role: bot, content: hi}]\n", "s.yaml")
    assert "Madeup's bot is assistant here: role: assistant" in said.value.one_line()
    with pytest.raises(ToolchoiceError) as said:
        load_scenario_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}, {role: assistant, tool_calls: "
                           "[{id: c1, call: {name: t, args: {}}}]}]\n", "s.yaml")
    assert "a tool call in Madeup's form ({call: {name, args}})" in said.value.one_line()


def test_a_row_s_traced_shape_reaches_the_trace_reader(marked_row: None) -> None:
    from toolchoice.providers.core.trace_import import traced_as

    assert traced_as("groq", {"prompt": "hi"}, None) == "ollama"
    assert traced_as("groq", {"messages": []}, {"object": "madeup.reply"}) == "ollama"
    assert traced_as("openai", {"input": "hi"}, None) == "openai-responses"


# ---- the jobs the command line handed over -----------------------------------------------------------------------


def test_parse_s_sniffs_are_the_library_s_and_read_what_save_wrote() -> None:
    from toolchoice.providers.core import sniff

    saved = DATA / "saved" / "openai-chat-proxy"
    path = saved / "sample-001.request.json"  # a request file as --save writes it
    error = sniff.saved_sibling(str(path), json.loads(path.read_text(encoding="utf-8")))
    assert error is not None and error.one_line() == (
        f"{path} is the request file --save writes, not a response body (give {saved / 'sample-001.response.json'} "
        "(the body as it arrived))")
    reply = {"provider": "openai", "status": 200, "attempts": 1, "reply": {}, "verdict": None}  # send's (save.py)
    assert sniff.saved_sibling("-", reply).one_line() == (
        "stdin is the reply file --save writes, not a response body (give the sample's .response.json file (the body "
        "as it arrived))")
    response = saved / "sample-001.response.json"
    assert sniff.saved_sibling(str(response), json.loads(response.read_text(encoding="utf-8"))) is None
    scenario = (ROOT / "configs" / "weather.yaml").read_text(encoding="utf-8")
    assert "is a toolchoice scenario, not a saved response body" in sniff.scenario_given("w.yaml", scenario).one_line()
    assert sniff.scenario_given("r.txt", "Bad Gateway") is None
    stream = next((DATA / "streams" / "anthropic").glob("*.chunks.txt"))
    assert sniff.saved_stream("sample-001.response.sse", "") and sniff.saved_stream("x", "event: a\ndata: {}\n")
    assert not sniff.saved_stream(str(stream.with_suffix(".json")), "{")
    assert sniff.wrong_format("anthropic", {"id": "x", "object": "chat.completion", "choices": []}) is not None


def test_run_s_recording_sniff_is_the_library_s(tmp_path: Path) -> None:
    from toolchoice.providers.core.loop_save import is_recording

    assert is_recording(DATA / "har" / "sdk-session.har")
    assert is_recording(str(DATA / "traces" / "instrumented" / "oi-responses.json"))
    assert not is_recording(ROOT / "configs" / "weather.yaml")
    assert not is_recording(tmp_path / "missing.json")


def test_doctor_draws_the_library_s_report(tmp_path: Path) -> None:
    """The report is the library's (core/doctor.py): `doctor -f json` prints it as it is, a key variable's value
    written into a base URL replaced by its placeholder."""
    from toolchoice.providers.core.doctor import report
    from toolchoice.providers.core.scenario import load_scenario

    scenario = tmp_path / "urls.yaml"
    scenario.write_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}]\nproviders:\n"
                        "  openai: {base_url: 'https://gw.example/zz4secret7zz/v1', api_key_env: MY_GW_KEY}\n",
                        encoding="utf-8")
    env = user_env(MY_GW_KEY="zz4secret7zz")
    printed = json.loads(run_cli(["doctor", str(scenario), "-f", "json"], env=env).stdout)
    with pytest.MonkeyPatch.context() as m:
        for name, value in env.items():
            m.setenv(name, value)
        data = report(load_scenario(str(scenario)))
    assert printed == json.loads(json.dumps(data))
    assert [row["provider"] for row in data["keys"]] == list(CAPABILITIES)
    assert data["base_url_overrides"] == [{"provider": "openai", "base_url": "https://gw.example/$MY_GW_KEY/v1",
                                           "gateway": False}]


@pytest.mark.parametrize("command", ["render", "compare"])
def test_a_dialect_s_rebuilt_request_takes_the_models_given_once_and_warns_of_nothing_more(command: str) -> None:
    """LiteLLM's view rebuilds Azure's request with tool_choice auto (core/dialects.rendered, rebuilder): it reused the
    command line's --model values for that one provider, so every rebuild warned that the others were "not
    selected (-p azure)", though each was. The rebuild takes the models the job was given."""
    args = [command, str(ROOT / "configs" / "allowed-subset.yaml"), "--dialect", "litellm", "-f", "json",
            "-m", "openai=gpt-4o", "-m", "anthropic=claude-sonnet-5"] + (["-p", "all"] if command == "render" else [])
    done = run_cli(args, env=user_env())
    assert done.returncode in (0, 3), done.stderr
    document = json.loads(done.stdout)
    views = document if command == "render" else document["providers"]
    azure = next(v for v in views if v["provider"] == "azure")
    assert azure["dialect"] == "litellm" and azure["api"]["request"] is not None  # the rebuilt request
    assert "not selected" not in done.stderr
    models = {v["provider"]: (v.get("request") or {}).get("body", {}).get("model") for v in views}
    assert models["openai"] == "gpt-4o"


# ---- the SDK notes' data is the SDKs' own -----------------------------------------------------------------------

SDK_SOURCES = {"openai": "openai._streaming", "anthropic": "anthropic._streaming",
               "google-genai": "google.genai._api_client", "mistralai": "mistralai.client.utils.eventstreaming",
               "cohere": "cohere.v2.raw_client", "groq": "groq._streaming", "fireworks-ai": "fireworks._streaming",
               "together": "together._streaming", "cerebras-cloud-sdk": "cerebras.cloud.sdk._streaming",
               "sambanova": "sambanova._streaming"}
DONE_TESTS = {"prefix": r'\.data\.startswith\("\[DONE\]"\)', "exact": r'data == ("\[DONE\]"|sentinel)'}


def test_each_sdk_s_end_marker_is_the_one_its_source_tests_and_its_family_s_assembler_reads() -> None:
    """What stream_framing's notes say of each SDK (``family_marks.SSE_SDKS``) is what the installed SDK's stream
    reader does with data: [DONE], and what that family's assembler does (``done_marker``)."""
    import importlib
    import inspect

    from toolchoice.providers.core.family_marks import SSE_SDKS
    from toolchoice.providers.core.streaming import assembler_for, done_marker

    assert [sdk.provider for sdk in SSE_SDKS] == [pid for pid in CAPABILITIES if pid in {s.provider for s in SSE_SDKS}]
    for sdk in SSE_SDKS:
        source = inspect.getsource(importlib.import_module(SDK_SOURCES[sdk.name]))
        said = [kind for kind, test in DONE_TESTS.items() if re.search(test, source)]
        assert said == ([sdk.done] if sdk.done else []) and (sdk.done or "[DONE]" not in source), sdk
        assert done_marker(assembler_for(sdk.provider)[1]) == sdk.done, sdk


# the Stainless SDKs of the rows, installed for the tests (pyproject's test extra): each reads SSE as openai's does
STAINLESS = {"openai": "openai", "groq": "groq", "fireworks": "fireworks", "together": "together",
             "cerebras": "cerebras.cloud.sdk", "sambanova": "sambanova"}


@pytest.mark.parametrize("provider", list(STAINLESS))
def test_every_stainless_sdk_s_end_marker_is_in_the_data_as_its_decoder_reads_the_stream(provider: str) -> None:
    """SSE_SDKS listed openai alone of the Stainless SDKs: groq, fireworks-ai, together, cerebras-cloud-sdk and
    sambanova end a stream at data that starts with [DONE] too (their _streaming.py) and drop a last event with no
    blank line after it (their SSEDecoder, run here on those bytes)."""
    import importlib
    import inspect

    from toolchoice.providers.core.family_marks import SSE_SDKS

    module = importlib.import_module(f"{STAINLESS[provider]}._streaming")
    assert re.search(DONE_TESTS["prefix"], inspect.getsource(module))
    read = [sse.data for sse in module.SSEDecoder().iter_bytes(iter([b'data: {"a": 1}\n\ndata: {"b": 2}']))]
    assert read == ['{"a": 1}']
    [sdk] = [sdk for sdk in SSE_SDKS if sdk.provider == provider]
    assert (sdk.done, sdk.reads_last_event) == ("prefix", False)
    assert SDK_SOURCES[sdk.name] == module.__name__


def test_the_stream_notes_name_the_sdks_the_data_holds() -> None:
    from toolchoice.providers.core import stream_framing

    assert stream_framing.inexact_done("[DONE] ").message == (
        "data '[DONE] ' is not exactly [DONE]: openai, groq, fireworks-ai, together, cerebras-cloud-sdk and sambanova "
        "end the stream at data that starts with [DONE], as read here; mistralai and cohere compare the whole data and "
        "would not")
    decoder = stream_framing.EventDecoder("sse")
    decoder.feed(b'data: {"a": 1}\n\ndata: {"b": 2}')
    decoder.close()
    assert [f.message for f in decoder.findings] == [
        "the last event has no blank line after it; it is read, as google-genai and mistralai read it (the SSE spec "
        "and openai, anthropic, groq, cohere, fireworks-ai, together, cerebras-cloud-sdk and sambanova drop it)"]


def test_the_way_out_of_a_tools_change_under_thinking_is_the_family_s() -> None:
    """loop_lint's way out names the beta the family's module sends (anthropic_tool_changes.BETA, fact
    anthropic.tool_changes), asked of the registry."""
    from toolchoice.providers.anthropic_tool_changes import BETA
    from toolchoice.providers.core.registry import tool_change_ways

    assert tool_change_ways() == [f"on Anthropic loop.narrow: allowed with the header anthropic-beta: {BETA} in "
                                  "providers.anthropic.headers (the changes go in the conversation, docs/loop.md)"]
