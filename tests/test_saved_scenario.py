"""`toolchoice trace SAVED` (docs/traces.md, "A saved request as a scenario"): what an app put on the wire, saved by a
real `proxy --save` / `mock --save` on 127.0.0.1 with an official SDK (openai, anthropic) as the client
(tests/saved_recorder.py), becomes the neutral scenario, held to what the SDK was given and got back and to the saved
bodies; that scenario is rendered on two other providers and checked with their official SDK types, and sent to their
mock; bad input is one line; and the round trip: a scenario rendered for P, saved, read back gives the same
scenario for the fields P's wire carries (and is a fixed point after one trip), for every shipped config on every
provider and for generated scenarios (Hypothesis) on eight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli import run_cli
from saved_recorder import (ANTHROPIC_TOOLS, KEY, OPENAI_TOOLS, QUESTION, RESULT, SYSTEM, WEATHER, Recorded,
                            record_anthropic, record_openai)
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the SDKs' model deprecation notices


@pytest.fixture(scope="module")
def openai_saved(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_openai(tmp_path_factory.mktemp("openai-proxy"))


@pytest.fixture(scope="module")
def anthropic_saved(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_anthropic(tmp_path_factory.mktemp("anthropic-mock"))


def _trace(*args: str) -> tuple[dict[str, Any], list[str]]:
    result = run_cli(["trace", *args, "-f", "json"], env={"PATH": "", "NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    assert KEY not in result.stdout + result.stderr
    return json.loads(result.stdout), result.stderr.splitlines()


def _body(recorded: Recorded, sample: int) -> dict[str, Any]:
    return json.loads((recorded.folder / f"sample-{sample:03d}.request.json").read_text(encoding="utf-8"))["body"]


def _sdk_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools the app gave its SDK, in the scenario's form."""
    out = []
    for tool in tools:
        function = tool.get("function", tool)
        out.append({"name": function["name"], "description": function["description"],
                    "parameters": function.get("parameters", function.get("input_schema"))})
    return out


# ---- an OpenAI app through the proxy ------------------------------------------------------------------------------


def test_the_forced_step_the_openai_sdk_sent_through_the_proxy_is_the_scenario(openai_saved):
    data, notes = _trace(str(openai_saved.folder), "--sample", "1")
    body = _body(openai_saved, 1)
    assert data["tools"] == _sdk_tools(OPENAI_TOOLS)
    assert data["tool_choice"] == {"tool": "get_weather"}
    assert data["system"] == SYSTEM and data["messages"] == [{"role": "user", "content": QUESTION}]
    settings = data["providers"]["openai"]
    assert settings == {"model": openai_saved.model, "max_tokens": 300, "temperature": 0.2,
                        "extra": {"metadata": body["metadata"], "seed": body["seed"]}}
    assert body["seed"] == 7 and body["metadata"] == {"app": "weather-bot"}  # as the app gave them, kept as sent
    (kept,) = [n for n in notes if "saved.kept" in n]
    assert "metadata, seed" in kept and "providers.openai.extra" in kept
    assert not [n for n in notes if n.startswith("warning")]  # rendered back for openai: the recorded body again
    assert translate("openai", load_scenario_text(json.dumps(data), "s")).request.body == body


def test_the_step_with_the_result_carries_the_sdk_s_call_and_the_result(openai_saved):
    data, notes = _trace(str(openai_saved.folder), "--sample", "2")
    assert data["tool_choice"] == "auto" and data["parallel_tool_calls"] is False
    assert data["messages"] == [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "tool_calls": [{"id": openai_saved.call_id, "name": "get_weather",
                                              "arguments": openai_saved.arguments}]},
        {"role": "tool", "tool_call_id": openai_saved.call_id, "content": RESULT}]
    # the SDK leaves content out of the assistant turn; toolchoice writes content: null there: the same message
    assert not [n for n in notes if n.startswith("warning")], notes


def test_the_openai_step_rendered_on_anthropic_and_gemini_conforms_to_their_sdk_types(openai_saved, tmp_path):
    from test_sdk_conformance import validate

    data, _ = _trace(str(openai_saved.folder), "--sample", "2")
    scenario = load_scenario_text(json.dumps(data), "saved.yaml")
    anthropic = translate("anthropic", scenario)
    gemini = translate("gemini", scenario)
    assert validate("anthropic", anthropic) == [] and validate("gemini", gemini) == []
    a, g = anthropic.request.body, gemini.request.body
    assert a["system"] == SYSTEM and a["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert a["messages"][1]["content"] == [{"type": "tool_use", "id": openai_saved.call_id, "name": "get_weather",
                                            "input": openai_saved.arguments}]
    assert a["messages"][2]["content"][0]["tool_use_id"] == openai_saved.call_id
    assert "seed" not in a and "metadata" not in a  # OpenAI's own fields stay under providers.openai
    assert g["systemInstruction"]["parts"] == [{"text": SYSTEM}]
    assert g["contents"][1]["parts"][0]["functionCall"]["args"] == openai_saved.arguments
    assert g["toolConfig"]["functionCallingConfig"]["mode"] == "AUTO"


def test_the_forced_openai_step_sent_to_the_anthropic_mock_is_obeyed(openai_saved, tmp_path):
    from toolchoice.providers.core.mock.server import running_mock

    scenario = tmp_path / "step1.yaml"
    scenario.write_text(run_cli(["trace", str(openai_saved.folder / "sample-001.request.json")]).stdout)
    with running_mock("anthropic") as mock:
        result = run_cli(["send", str(scenario), "-p", "anthropic", "--base-url", mock.base_url, "-f", "json"],
                         env={"ANTHROPIC_API_KEY": KEY, "PATH": ""})
    assert result.returncode == 0, result.stderr
    (record,) = mock.records  # what the Anthropic mock read off the wire
    assert record["requested"] == {"type": "tool", "name": "get_weather"} and record["offered_tools"] == [
        "get_weather", "get_time"]
    sent = json.loads(result.stdout)
    assert sent["requested_tool_choice"] == {"tool": "get_weather"} and sent["verdict"]["category"] == "obeyed"
    assert sent["request"]["body"]["system"] == SYSTEM
    assert KEY not in result.stdout + result.stderr


def test_a_streamed_request_s_other_fields_are_kept_and_the_rest_is_said(tmp_path):
    """openai-python streaming with fields the scenario has no key for: rendered back for openai, the scenario is
    the recorded body but for the stream (said: send with --stream) and the deprecated max_tokens (said: sent as
    max_completion_tokens)."""
    import openai

    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai", save_dir=tmp_path) as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        list(client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": QUESTION}],
                                            tools=OPENAI_TOOLS, tool_choice="required", stream=True,
                                            stream_options={"include_usage": True}, max_tokens=64, logprobs=True,
                                            store=False, user="u-7"))
    data, notes = _trace(str(tmp_path / "sample-001.request.json"))
    body = _body(Recorded(tmp_path, "", "", {}), 1)
    assert data["providers"]["openai"]["extra"] == {k: body[k] for k in ("logprobs", "store", "user")}
    again = translate("openai", load_scenario_text(json.dumps(data), "s")).request.body
    recorded = {k: v for k, v in body.items() if k not in ("stream", "stream_options", "max_tokens")}
    assert again == {**recorded, "max_completion_tokens": body["max_tokens"]}
    # the SDK's own headers (their names vary with its version) are named, not carried: test_leftovers23j
    assert [n for n in notes if "saved.headers_not_carried" in n and "user-agent" in n]
    said = sorted(n for n in notes if "saved." in n and "saved.imported" not in n and "headers_not_carried" not in n)
    assert said == ["info saved.differs: max_tokens: sent as max_completion_tokens when rendered back for openai (the "
                    "same value, 64)",
                    "info saved.kept: logprobs, store, user: no neutral form; kept as written in providers.openai.extra "
                    "(sent to openai only)",
                    "warning saved.not_carried: stream: true is not carried (the request streamed: send with --stream)",
                    'warning saved.not_carried: stream_options: {"include_usage": true} is not carried (the request '
                    "streamed: send with --stream)"]


# ---- an Anthropic app into the mock ---------------------------------------------------------------------------------


def test_the_anthropic_sdk_s_steps_are_the_scenario_and_what_differs_is_said(anthropic_saved):
    first, notes = _trace(str(anthropic_saved.folder), "--sample", "1")
    body = _body(anthropic_saved, 1)
    assert first["tools"] == _sdk_tools(ANTHROPIC_TOOLS)
    assert first["tool_choice"] == {"tool": "get_weather"} and first["parallel_tool_calls"] is False
    assert first["system"] == SYSTEM
    assert first["providers"]["anthropic"] == {
        "model": anthropic_saved.model, "max_tokens": 512, "headers": {"anthropic-beta": "token-efficient-tools-2025-02-19"},
        "extra": {"metadata": body["metadata"]}}
    assert any("saved.headers" in n for n in notes) and any("saved.kept" in n and "metadata" in n for n in notes)
    second, notes = _trace(str(anthropic_saved.folder / "sample-002.request.json"))
    assert second["messages"][1:] == [
        {"role": "assistant", "tool_calls": [{"id": anthropic_saved.call_id, "name": "get_weather",
                                              "arguments": anthropic_saved.arguments}]},
        {"role": "tool", "tool_call_id": anthropic_saved.call_id, "content": RESULT}]
    # the system prompt went as one text block; the scenario writes the text: rendered back it is a string, and said
    # (nothing but the form: the block held no more than type and text)
    assert not [n for n in notes if "saved.differs" in n]
    (blocks,) = [n for n in notes if "saved.system_blocks" in n]
    assert blocks == ("info saved.system_blocks: system: sent as 1 block of text; the scenario keeps the text, rendered "
                      "back for anthropic as a string: the same prompt, only its form differs")


def test_the_anthropic_steps_render_on_openai_and_gemini_as_their_sdk_types_take_them(anthropic_saved):
    from test_sdk_conformance import validate

    data, _ = _trace(str(anthropic_saved.folder), "--sample", "1")
    scenario = load_scenario_text(json.dumps(data), "saved.yaml")
    openai, gemini = translate("openai", scenario), translate("gemini", scenario)
    assert validate("openai", openai) == [] and validate("gemini", gemini) == []
    assert openai.request.body["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert openai.request.body["parallel_tool_calls"] is False
    assert "metadata" not in openai.request.body and "anthropic-beta" not in openai.request.headers
    assert gemini.request.body["toolConfig"]["functionCallingConfig"] == {"mode": "ANY",
                                                                         "allowedFunctionNames": ["get_weather"]}


# ---- fields beside a neutral one, system blocks ------------------------------------------------------------------------


def _saved_file(tmp_path: Path, provider: str, url: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    path = tmp_path / f"{provider}.request.json"
    path.write_text(json.dumps({"method": "POST", "url": url, "headers": {}, "body": body}), encoding="utf-8")
    return _trace(str(path), "-p", provider)


def _again(provider: str, data: dict[str, Any]) -> dict[str, Any]:
    return translate(provider, load_scenario_text(json.dumps(data), "s")).request.body


def test_members_beside_a_neutral_setting_are_kept_in_extra_and_merged_back(tmp_path):
    """Gemini's topK and thinkingConfig.includeThoughts beside the temperature and the thinking budget, Anthropic's
    thinking.display beside the budget: each is kept in extra as the member the rendering lacks, which extra merges
    into the translated object, so the scenario renders back to the recorded body."""
    gemini = {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}],
              "systemInstruction": {"parts": [{"text": SYSTEM}], "role": "user"},
              "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
              "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "d", "parameters": WEATHER}]}],
              "generationConfig": {"temperature": 0.2, "topK": 40, "maxOutputTokens": 100,
                                   "thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True}}}
    data, notes = _saved_file(tmp_path, "gemini", "/v1beta/models/gemini-2.5-flash:generateContent", gemini)
    assert data["providers"]["gemini"]["extra"] == {"systemInstruction": {"role": "user"}, "generationConfig": {
        "topK": 40, "thinkingConfig": {"includeThoughts": True}}}
    assert data["providers"]["gemini"]["temperature"] == 0.2 and data["providers"]["gemini"]["max_tokens"] == 100
    assert _again("gemini", data) == gemini
    (kept,) = [n for n in notes if "saved.kept" in n]
    assert kept.startswith("info saved.kept: generationConfig.thinkingConfig.includeThoughts, generationConfig.topK, "
                           "systemInstruction.role: no neutral form")
    assert not [n for n in notes if n.startswith("warning")], notes
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 2000, "messages": [{"role": "user", "content": QUESTION}],
                 "thinking": {"type": "enabled", "budget_tokens": 1024, "display": "summarized"},
                 "tools": ANTHROPIC_TOOLS, "tool_choice": {"type": "auto"}}
    data, notes = _saved_file(tmp_path, "anthropic", "/v1/messages", anthropic)
    assert data["providers"]["anthropic"]["extra"] == {"thinking": {"display": "summarized"}}
    assert data["providers"]["anthropic"]["thinking"] == {"type": "on", "budget": 1024}
    assert _again("anthropic", data) == anthropic and not [n for n in notes if n.startswith("warning")], notes
    # edited, the neutral setting still rules: the kept member is merged beside the new budget
    data["providers"]["anthropic"]["thinking"]["budget"] = 1536
    assert _again("anthropic", data)["thinking"] == {"type": "enabled", "budget_tokens": 1536, "display": "summarized"}
    # a member beside the tool choice is kept: extra adds it beside the choice the scenario's tool_choice renders
    gemini["toolConfig"]["retrievalConfig"] = {"languageCode": "en"}
    data, notes = _saved_file(tmp_path, "gemini", "/v1beta/models/gemini-2.5-flash:generateContent", gemini)
    assert data["providers"]["gemini"]["extra"]["toolConfig"] == {"retrievalConfig": {"languageCode": "en"}}
    assert data["tool_choice"] == "required" and _again("gemini", data) == gemini
    assert not [n for n in notes if n.startswith("warning")], notes
    assert "toolConfig.retrievalConfig.languageCode" in next(n for n in notes if "saved.kept" in n)
    # edited, the neutral choice still rules and the kept member stays beside it
    data["tool_choice"] = "auto"
    assert _again("gemini", data)["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"},
                                                    "retrievalConfig": {"languageCode": "en"}}


def test_a_system_prompt_in_blocks_keeps_its_text_and_says_exactly_what_is_lost(tmp_path):
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": QUESTION}],
            "system": [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
                       {"type": "text", "text": "Use metric units."}]}
    data, notes = _saved_file(tmp_path, "anthropic", "/v1/messages", body)
    assert data["system"] == f"{SYSTEM}\nUse metric units."  # the text of both blocks, as the API joins them
    assert "extra" not in data["providers"]["anthropic"]  # a string cannot take a block's member back
    (lost,) = [n for n in notes if "saved.system_blocks" in n]
    assert lost == ("warning saved.system_blocks: system: sent as 2 blocks of text; the scenario keeps the text, "
                    "rendered back for anthropic as a string; lost (no neutral form, and extra cannot merge into it): "
                    'block 1\'s cache_control {"ttl": "1h", "type": "ephemeral"}')
    assert not [n for n in notes if "saved.differs" in n]
    assert {k: v for k, v in _again("anthropic", data).items() if k != "system"} == {
        k: v for k, v in body.items() if k != "system"}


def test_extra_merges_an_object_that_only_adds_and_replaces_any_other(tmp_path):
    """request_parts.merge_extra: an object of new members goes into the translated object (at any depth); an object
    that changes a translated member replaces it whole, as before (a tool_choice written as it should go)."""
    text = ("tools: [{name: get_weather, parameters: {type: object}}]\ntool_choice: get_weather\n"
            "messages: [{role: user, content: hi}]\nproviders:\n  gemini:\n    temperature: 0.5\n    extra:\n"
            "      generationConfig: {topK: 3, thinkingConfig: {includeThoughts: true}}\n"
            "      toolConfig: {functionCallingConfig: {mode: AUTO}}\n")
    t = translate("gemini", load_scenario_text(text, "s.yaml"))
    assert t.request.body["generationConfig"] == {"temperature": 0.5, "topK": 3,
                                                  "thinkingConfig": {"includeThoughts": True}}
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}  # changes a member: replaced
    merged = [e.message for e in t.ledger if e.code == "extra.merged"]
    assert merged == ["extra.generationConfig.topK = 3 added to the body",
                      'extra.generationConfig.thinkingConfig = {"includeThoughts":true} added to the body']
    assert [e.code for e in t.ledger if e.code == "extra.overrides"] == ["extra.overrides"]
    # an empty object adds nothing: it replaces, as before
    empty = translate("gemini", load_scenario_text(text.replace("{topK: 3, thinkingConfig: {includeThoughts: true}}",
                                                                "{}"), "s.yaml"))
    assert empty.request.body["generationConfig"] == {} and "extra.overrides" in {e.code for e in empty.ledger}
    # the tool choice's own field takes new members beside the translated choice (Gemini's retrievalConfig, a
    # ToolConfig member beside functionCallingConfig in google-genai's types) ...
    text = text.replace("toolConfig: {functionCallingConfig: {mode: AUTO}}", "toolConfig: {retrievalConfig: {}}")
    t = translate("gemini", load_scenario_text(text, "s.yaml"))
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames":
                                                                      ["get_weather"]}, "retrievalConfig": {}}
    assert "extra.toolConfig.retrievalConfig = {} added to the body" in [e.message for e in t.ledger]
    # ... but an object naming a member of the choice is the choice as written: it replaces whole, even where it
    # only adds at a depth (the translated allowedFunctionNames is not kept under a written functionCallingConfig)
    text = text.replace("toolConfig: {retrievalConfig: {}}", "toolConfig: {functionCallingConfig: {mode: ANY}}")
    t = translate("gemini", load_scenario_text(text, "s.yaml"))
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}
    assert "extra.overrides" in {e.code for e in t.ledger}
    # Bedrock's toolConfig holds the tools beside toolChoice (botocore's bedrock-runtime ToolConfiguration: tools
    # required, toolChoice optional): a written toolChoice replaces the choice and keeps the tools (it replaced the
    # whole toolConfig, tools and all)
    bedrock = ("tools: [{name: get_weather, parameters: {type: object}}]\ntool_choice: required\n"
               "messages: [{role: user, content: hi}]\nproviders:\n  bedrock:\n    extra:\n"
               "      toolConfig: {toolChoice: {auto: {}}}\n")
    t = translate("bedrock", load_scenario_text(bedrock, "s.yaml"))
    assert t.request.body["toolConfig"]["toolChoice"] == {"auto": {}}
    assert [tool["toolSpec"]["name"] for tool in t.request.body["toolConfig"]["tools"]] == ["get_weather"]
    assert [e.message for e in t.ledger if e.code == "extra.overrides"] == [
        'extra.toolConfig.toolChoice replaces the translated value {"any":{}} with {"auto":{}}']


# ---- the committed saves of google-genai and boto3 ---------------------------------------------------------------------

SAVED = ROOT / "tests" / "data" / "saved"


def _committed(name: str, sample: int) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    folder = SAVED / name
    data, notes = _trace(str(folder), "--sample", str(sample))
    body = json.loads((folder / f"sample-{sample:03d}.request.json").read_text(encoding="utf-8"))["body"]
    return data, notes, body


def test_google_genai_s_saved_steps_render_back_to_what_it_sent_but_the_said_places():
    """google-genai 3.6.1 through `proxy --save` (tests/data/saved/gemini-genai-proxy): top_k and include_thoughts are
    kept and merged back; the SDK's snake_case thinking_budget comes back as the API's thinkingBudget, and its
    parameters_json_schema as parameters, each said."""
    data, notes, body = _committed("gemini-genai-proxy", 1)
    assert data["tools"] == _sdk_tools(OPENAI_TOOLS) and data["tool_choice"] == {"tool": "get_weather"}
    assert data["system"] == SYSTEM and data["messages"] == [{"role": "user", "content": QUESTION}]
    settings = data["providers"]["gemini"]
    assert settings == {"model": "gemini-2.5-flash", "max_tokens": 300, "temperature": 0.2,
                        "thinking": {"type": "on", "budget": 1024},
                        "extra": {"systemInstruction": {"role": "user"},
                                  "generationConfig": {"topK": 40.0, "thinkingConfig": {"include_thoughts": True}}}}
    again = _again("gemini", data)
    assert again["generationConfig"] == {"maxOutputTokens": 300, "temperature": 0.2, "topK": 40.0,
                                         "thinkingConfig": {"thinkingBudget": 1024, "include_thoughts": True}}
    assert {k: v for k, v in again.items() if k not in ("tools", "generationConfig")} == {
        k: v for k, v in body.items() if k not in ("tools", "generationConfig")}
    said = [n for n in notes if "saved.differs" in n]
    assert said[0].startswith("warning saved.differs: tools: rendered back for gemini it differs: at "
                              "tools[0].functionDeclarations[0].parameters_json_schema: recorded")
    assert said[1] == ("info saved.differs: generationConfig: rendered back for gemini it differs: at generationConfig."
                       "thinkingConfig.thinking_budget: sent as thinkingBudget (the same value, another spelling of the "
                       "field)")
    second, notes, body = _committed("gemini-genai-proxy", 2)
    assert second["tool_choice"] == "auto" and second["messages"][1]["tool_calls"][0]["name"] == "get_weather"
    assert second["messages"][2]["content"] == json.dumps({"output": RESULT}) or second["messages"][2]["content"] == RESULT


def test_boto3_s_saved_converse_steps_render_back_to_what_it_sent_but_the_cache_point():
    """boto3 1.44.8's Converse into `mock --save` (tests/data/saved/bedrock-converse-mock): inferenceConfig.topP is
    kept beside maxTokens and temperature, additionalModelRequestFields whole; the cachePoint block after the system
    text has no neutral form and is said, exactly."""
    data, notes, body = _committed("bedrock-converse-mock", 1)
    assert data["tools"] == _sdk_tools(OPENAI_TOOLS) and data["tool_choice"] == {"tool": "get_weather"}
    assert data["providers"]["bedrock"]["extra"] == {"inferenceConfig": {"topP": 0.9},
                                                     "additionalModelRequestFields": {"top_k": 40}}
    again = _again("bedrock", data)
    assert again["system"] == body["system"][:1] and again == {**body, "system": body["system"][:1]}
    (lost,) = [n for n in notes if n.startswith("warning")]
    assert lost.endswith('lost (no neutral form, and extra cannot merge into it): block 2 whole ({"cachePoint": '
                         '{"type": "default"}})')
    second, notes, body = _committed("bedrock-converse-mock", 2)
    assert second["tool_choice"] == "auto"
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "tool"]
    assert second["messages"][2]["content"] == RESULT


def test_the_committed_saves_are_what_the_sdks_send_now(tmp_path):
    """The recorder run afresh (google-genai through the proxy, boto3's -- else botocore's -- Converse into the mock)
    saves the committed bodies again: the committed files are the SDKs' wire, not a hand edit."""
    from saved_recorder import record_bedrock, record_gemini

    for name, record in (("gemini-genai-proxy", record_gemini), ("bedrock-converse-mock", record_bedrock)):
        (tmp_path / name).mkdir()
        fresh = record(tmp_path / name)
        for sample in (1, 2):
            got = json.loads((fresh.folder / f"sample-{sample:03d}.request.json").read_text(encoding="utf-8"))
            kept = json.loads((SAVED / name / f"sample-{sample:03d}.request.json").read_text(encoding="utf-8"))
            assert (got["url"], got["body"]) == (kept["url"], kept["body"]), (name, sample)
            assert KEY not in json.dumps(got)


# ---- the folder, the listing, bad input -------------------------------------------------------------------------------


def test_a_folder_of_several_samples_is_listed(openai_saved):
    result = run_cli(["trace", str(openai_saved.folder)])
    assert result.returncode == 0
    assert result.stdout.startswith(f"# {openai_saved.folder} holds 2 samples: pick one with --sample N\n")
    listed = yaml.safe_load(result.stdout)["samples"]
    assert [(s["sample"], s["provider"], s["offered_tools"]) for s in listed] == [
        (1, "openai", ["get_weather", "get_time"]), (2, "openai", ["get_weather", "get_time"])]


def _bad(tmp_path: Path) -> list[tuple[list[str], str]]:
    (tmp_path / "empty").mkdir()
    (tmp_path / "sample-001.request.json").write_text('{"url": "/v1/chat/completions", "body": {"model": "m"}}')
    (tmp_path / "sample-002.request.json").write_text('{"url":\n')
    (tmp_path / "other.json").write_text("[1, 2]")
    (tmp_path / "sample-003.request.json").write_text(
        '{"url": "/v1/messages", "body": {"model": "m", "max_tokens": 5, "messages": []}}')
    (tmp_path / "sample-004.request.json").write_text(  # a value of a kind the API's validation refuses
        '{"url": "/v1/chat/completions", "body": {"model": "m", "messages": [{"role": "assistant", "tool_calls": true}]}}')
    one = str(tmp_path / "sample-001.request.json")
    return [([str(tmp_path / "empty")], "no sample-NNN.request.json in the folder"),
            ([one], "no sample-001.reply.json beside it names the provider"),
            ([one, "-p", "openai"], "openai's API cannot read this body: Missing required parameter: 'messages'"),
            ([str(tmp_path / "sample-002.request.json")], "sample-002.request.json:2:1: not JSON"),
            ([str(tmp_path / "other.json"), "-p", "openai"], "not a saved request"),
            ([str(tmp_path / "sample-003.request.json"), "-p", "openai"],
             "POST /v1/messages is not a request of openai's API"),
            ([str(tmp_path / "sample-004.request.json"), "-p", "openai"],  # the API's 400, as the mock answers it
             "openai's API cannot read this body: Invalid type for 'messages[0].tool_calls': expected an array, but "
             "got a boolean instead."),
            ([str(tmp_path), "--sample", "9"], "no sample 9 (the folder holds 1, 2, 3, 4)"),
            ([one, "--sample", "1"], "--sample picks a sample in a folder"),
            ([str(tmp_path / "nothing" / "sample-001.request.json")], "no such file")]


def test_bad_input_is_one_line_naming_the_file_exit_2(tmp_path):
    for args, words in _bad(tmp_path):
        result = run_cli(["trace", *args])
        assert result.returncode == 2, (args, result.stdout)
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"toolchoice: error: {args[0]}") and words in line, (args, line)
        assert "Traceback" not in result.stderr and result.stdout == ""


def test_saved_requests_traces_and_json_scenarios_are_read_by_one_json_reader(tmp_path):
    """bounded.read_json_file / json_documents / utf8_text: a saved request, a trace and a .json scenario that are not
    UTF-8 or not JSON are one line naming file:line:col where the text stops being what it should be, each with its
    own hint (a JSON Lines trace is read one document a line, in one pass: the line that is not JSON is named)."""
    cases = [(b"\xff\xfe{\x00", ":1:1: not UTF-8 text (UTF-16) (save the file as UTF-8)\n"),
             (b'{"url": "/v1/chat/completions",\n "body": {"model": "m"\n "x": 1}}',
              ":3:2: not JSON (Expecting ',' delimiter) (give a sample-NNN.request.json"),
             (b"  \n", ": the file is empty (give a sample-NNN.request.json"),
             (b"[" * 101 + b"]" * 101, ":1: nests deeper than 100 levels (raise it with TOOLCHOICE_LIMIT_JSON_DEPTH")]
    path = tmp_path / "sample-001.request.json"
    for content, words in cases:
        path.write_bytes(content)
        result = run_cli(["trace", str(path), "-p", "openai"])
        assert result.returncode == 2 and result.stderr.startswith(f"toolchoice: error: {path}{words}"), result.stderr
        assert result.stderr.count("\n") == 1 and result.stdout == ""
    trace = tmp_path / "t.json"
    trace.write_text('{"resourceSpans": []}\n{"resourceSpans": []}\n{"resourceSpans": [}\n', encoding="utf-8")
    result = run_cli(["trace", str(trace)])
    assert result.stderr == (f"toolchoice: error: {trace}:3:20: not JSON (Expecting value) (give an OTLP/JSON trace "
                             "export, one object or one per line)\n")
    trace.write_text('{\n  "resourceSpans": [\n    {"a": 1}\n    {"b": 2}\n  ]\n}\n', encoding="utf-8")
    result = run_cli(["trace", str(trace)])  # one document over lines: where it stops, not its first line
    assert result.stderr.startswith(f"toolchoice: error: {trace}:4:5: not JSON (Expecting ',' delimiter)")
    scenario = tmp_path / "s.json"
    scenario.write_bytes(b"\xff\xfe{\x00")
    result = run_cli(["render", str(scenario), "-p", "openai"])
    assert result.stderr == f"toolchoice: error: {scenario}:1:1: not UTF-8 text (UTF-16) (save the file as UTF-8)\n"


def test_a_request_past_the_file_limit_is_refused_in_one_line(tmp_path):
    path = tmp_path / "sample-001.request.json"
    path.write_text(json.dumps({"url": "/v1/chat/completions", "body": {"messages": [], "pad": "x" * 3000}}))
    result = run_cli(["trace", str(path), "-p", "openai"], env={"TOOLCHOICE_LIMIT_FILE_BYTES": "1000", "PATH": ""})
    assert result.returncode == 2 and "larger than" in result.stderr and len(result.stderr.strip().splitlines()) == 1


# ---- the round trip ------------------------------------------------------------------------------------------------------


def _neutral(scenario: Any) -> dict[str, Any]:
    """The fields with a neutral form; call ids by order of appearance (a host may rewrite them: Mistral's 9
    alphanumerics), a tool's schema as ``Tool.schema()`` (no parameters = the empty object)."""
    ids: dict[str, str] = {}
    for m in scenario.messages:
        for c in m.tool_calls:
            ids.setdefault(c.id, f"call_{len(ids)}")
    return {"tools": [(t.name, t.description, t.schema(), scenario.tool_is_strict(t)) for t in scenario.tools],
            "tool_choice": scenario.tool_choice.to_json() if scenario.tool_choice else None,
            "parallel_tool_calls": scenario.parallel_tool_calls, "system": scenario.system,
            "messages": [(m.role, m.content, [(ids[c.id], c.name, c.arguments) for c in m.tool_calls],
                          ids.get(m.tool_call_id or "", m.tool_call_id), m.is_error) for m in scenario.messages]}


def _trip(provider: str, scenario: Any, folder: Path) -> tuple[Any, Any]:
    """``scenario`` rendered for ``provider``, saved as `send --save` saves it, read back: (the scenario, its body)."""
    from toolchoice.providers.core.saved_request import import_saved

    translation = translate(provider, scenario)
    if translation.request is None:
        return None, None
    path = folder / "sample-001.request.json"
    path.write_text(json.dumps(translation.request.to_json()), encoding="utf-8")
    back = import_saved(path, None, provider)
    return load_scenario_text(json.dumps(back.data), "back"), translation


CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
# What each API's wire cannot say, so a trip through it cannot bring it back (each a ledger entry of the rendering)
LOST = {"tool_choice": "not sent where the API has no such field or word (Ollama; Cohere's auto), or emulated",
        "parallel_tool_calls": "where the API has no such switch (Gemini, Bedrock, Cohere, Ollama, DeepSeek, ...)"}


def _round_trip(provider: str, scenario: Any, folder: Path, name: str) -> None:
    back, translation = _trip(provider, scenario, folder)
    if back is None:
        return  # refused on this provider (the ledger says why): nothing on the wire to read back
    again, translation_again = _trip(provider, back, folder)
    # a fixed point after one trip: the wire is the same, and so is what is read from it
    assert translation_again.request.body == translation.request.body, (name, provider)
    assert _neutral(again) == _neutral(back), (name, provider)
    codes = {e.code for e in translation.ledger}
    changed = {e.code for e in translation.ledger if e.severity != "info"}
    expected, got = _neutral(scenario), _neutral(back)
    lost = set()  # what P's wire does not carry, as the rendering's ledger says
    if any(code.startswith("parallel.") for code in codes):
        lost.add("parallel_tool_calls")  # parallel.unsupported (info where true is the API's only way)
    if translation.effective_tool_choice is None or any(c.startswith("tool_choice.") for c in changed):
        lost.add("tool_choice")  # not sent (Ollama has no field; Cohere no auto), or emulated
    if any(c.startswith(("tool_choice.", "tools.", "tool.", "strict.", "schema.")) for c in changed):
        lost.add("tools")  # an allowed subset sent as fewer tools, a schema rewritten for the API
    if any(c.startswith(("history.", "system.", "reasoning.")) for c in changed):
        lost |= {"system", "messages"}
    for field in expected:
        if field not in lost:
            assert got[field] == expected[field], (name, provider, field, changed)
    assert lost <= set(LOST) | {"tools", "system", "messages"}


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_a_scenario_rendered_saved_and_read_back_is_the_same_scenario(provider, tmp_path):
    for config in CONFIGS:
        _round_trip(provider, load_scenario(config), tmp_path, config.name)


def _scenarios() -> Any:
    """Scenarios of one to three tools, any neutral tool_choice, a system prompt or none, and a history of calls with
    their results (Hypothesis)."""
    from hypothesis import strategies as st

    words = st.text(alphabet="abcdefgh xyz", min_size=1, max_size=10).map(str.strip).filter(bool)
    names = st.lists(st.sampled_from(["get_weather", "get_time", "search", "read_file"]), min_size=1, max_size=3,
                     unique=True)

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        tools = [{"name": n, "description": draw(words), "parameters": {"type": "object", "properties": {
            "q": {"type": "string"}}, "required": ["q"]}} for n in draw(names)]
        tool_names = [t["name"] for t in tools]
        choice = draw(st.sampled_from(["auto", "none", "required", *[{"tool": n} for n in tool_names], None]))
        data: dict[str, Any] = {"tools": tools, "messages": [{"role": "user", "content": draw(words)}]}
        if choice is not None:
            data["tool_choice"] = choice
        parallel = draw(st.sampled_from([None, True, False]))
        if parallel is not None:
            data["parallel_tool_calls"] = parallel
        if draw(st.booleans()):
            data["system"] = draw(words)
        for turn in range(draw(st.integers(0, 2))):
            calls = [{"id": f"call_{turn}_{i}", "name": draw(st.sampled_from(tool_names)), "arguments": {"q": draw(words)}}
                     for i in range(draw(st.integers(1, 2)))]
            data["messages"].append({"role": "assistant", "tool_calls": calls})
            data["messages"] += [{"role": "tool", "tool_call_id": c["id"], "content": draw(words)} for c in calls]
            data["messages"].append({"role": "user", "content": draw(words)})
        return data

    return build()


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere",
                                      "mistral", "ollama"])
def test_the_round_trip_holds_for_generated_scenarios(provider, tmp_path):
    from hypothesis import given, settings

    @settings(max_examples=25, deadline=None, database=None, derandomize=True)
    @given(_scenarios())
    def check(data: dict[str, Any]) -> None:
        _round_trip(provider, load_scenario_text(json.dumps(data), "generated"), tmp_path, json.dumps(data))

    check()


# ---- --scenario-out ------------------------------------------------------------------------------------------------------


def test_scenario_out_writes_what_stdout_shows_and_never_overwrites_without_force(tmp_path):
    folder = str(SAVED / "openai-chat-proxy")
    env = {"PATH": "", "NO_COLOR": "1"}
    shown = run_cli(["trace", folder, "--sample", "1"], env=env)
    out = tmp_path / "step1.yaml"
    wrote = run_cli(["trace", folder, "--sample", "1", "--scenario-out", str(out)], env=env)
    assert wrote.returncode == 0 and wrote.stdout == f"wrote {out}: try `toolchoice render {out} -p openai`\n"
    assert out.read_text(encoding="utf-8") == shown.stdout
    out.write_text("mine", encoding="utf-8")
    again = run_cli(["trace", folder, "--sample", "2", "--scenario-out", str(out)], env=env)
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr == f"toolchoice: error: {out} exists (give another name, or --force to overwrite it)\n"
    assert out.read_text(encoding="utf-8") == "mine"
    forced = run_cli(["trace", folder, "--sample", "2", "--scenario-out", str(out), "--force", "-f", "json"], env=env)
    assert forced.returncode == 0 and json.loads(out.read_text(encoding="utf-8"))["tool_choice"] == "auto"
    assert "info saved.imported" in forced.stderr  # --format json: the notes on stderr, as without the option
    listing = run_cli(["trace", folder, "--scenario-out", str(tmp_path / "two.yaml")], env=env)
    assert listing.returncode == 2 and "holds 2 samples: --scenario-out writes one scenario" in listing.stderr
    assert not (tmp_path / "two.yaml").exists()
    alone = run_cli(["trace", folder, "--sample", "1", "--force"], env=env)
    assert alone.returncode == 2 and "no --scenario-out is given" in alone.stderr


def test_key_shaped_values_a_hand_made_save_holds_become_variables_the_scenario_sends_with_allow_env(tmp_path):
    """A key's shape in a *-beta header, a key in a body field named for a credential and a key's shape in another
    field kept in extra: the scenario holds each as the $NAME the literal-key refusal names (never the value), a
    saved.key_env note says where, and the scenario reads back and renders with --allow-env for those names."""
    beta, shaped, literal = "sk-ant-api03-" + "A" * 30, "sk-proj-" + "b1C2" * 12, "plaintext-secret-123"
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
            "metadata": {"user_id": "u1", "api_key": literal, "note": shaped}, "top_k": 5}
    path = tmp_path / "anthropic.request.json"
    path.write_text(json.dumps({"method": "POST", "url": "https://api.anthropic.com/v1/messages",
                                "headers": {"anthropic-beta": beta}, "body": body}), encoding="utf-8")
    result = run_cli(["trace", str(path), "-p", "anthropic", "--scenario-out", str(tmp_path / "s.yaml")],
                     env={"PATH": "", "NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "s.yaml").read_text(encoding="utf-8")
    for value in (beta, shaped, literal):
        assert value not in text + result.stdout + result.stderr
    data = yaml.safe_load(text)
    assert data["providers"]["anthropic"]["headers"] == {"anthropic-beta": "$ANTHROPIC_BETA"}
    assert data["providers"]["anthropic"]["extra"] == {
        "metadata": {"user_id": "u1", "api_key": "$API_KEY", "note": "$MY_API_KEY"}, "top_k": 5}
    notes = [line for line in text.splitlines() if line.startswith("# ")]
    assert notes[-1] == (
        "# warning saved.key_env: 3 key-shaped value(s) in the request where the scenario would show them, written as "
        "a variable: providers.anthropic.headers.anthropic-beta as $ANTHROPIC_BETA; providers.anthropic.extra.metadata"
        ".api_key as $API_KEY; providers.anthropic.extra.metadata.note as $MY_API_KEY (export each key in its variable "
        "and send with --allow-env ANTHROPIC_BETA --allow-env API_KEY --allow-env MY_API_KEY; from Python, "
        'RenderOptions(allow_env=("ANTHROPIC_BETA", "API_KEY", "MY_API_KEY")))')
    assert not any("saved.not_carried" in n or "saved.differs" in n for n in notes)  # the same request, said once
    env = {"PATH": "", "NO_COLOR": "1", "ANTHROPIC_BETA": "beta-x", "API_KEY": "key-y", "MY_API_KEY": "key-z"}
    rendered = run_cli(["render", str(tmp_path / "s.yaml"), "-p", "anthropic", "-f", "json", "--allow-env",
                        "ANTHROPIC_BETA", "--allow-env", "API_KEY", "--allow-env", "MY_API_KEY"], env=env)
    assert rendered.returncode == 0, rendered.stderr
    request = json.loads(rendered.stdout)["request"]
    assert request["headers"]["anthropic-beta"] == "$ANTHROPIC_BETA"
    assert request["body"]["metadata"] == {"user_id": "u1", "api_key": "$API_KEY", "note": "$MY_API_KEY"}
    assert [e["code"] for e in json.loads(rendered.stdout)["ledger"]].count("env.allowed") == 3


def test_two_keys_of_one_name_get_two_variables_and_a_scheme_word_stays(tmp_path):
    """Two different keys where the refusal would name MY_API_KEY for both: MY_API_KEY and MY_API_KEY_2; the same key
    twice: one variable; "Bearer <key>" in a credential field keeps its scheme word."""
    one, two = "sk-proj-" + "c2D3" * 12, "gsk_" + "D" * 30  # sk-proj- and 40 or more: an OpenAI key (key_looks)
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
            "metadata": {"a": one, "b": two, "c": one}, "user": "u", "prediction_auth": {"token": "Bearer abcdefgh12345"}}
    data, lines = _saved_file(tmp_path, "openai", "https://api.openai.com/v1/chat/completions", body)
    extra = data["providers"]["openai"]["extra"]
    assert extra["metadata"] == {"a": "$MY_API_KEY", "b": "$MY_API_KEY_2", "c": "$MY_API_KEY"}
    assert extra["prediction_auth"] == {"token": "Bearer $TOKEN"}
    assert "--allow-env MY_API_KEY --allow-env MY_API_KEY_2 --allow-env TOKEN" in lines[-1]
    assert all(v not in "\n".join(lines) for v in (one, two, "abcdefgh12345"))
