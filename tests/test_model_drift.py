"""The model rules held to the newest SDKs' model lists and rule texts (audit of 2026-11-26).

A rule names a model family; the SDKs name the models that exist. These tests fail when an SDK release adds a model
no rule knows (where every model is meant to be known), or when the words a rule stands on change. Truth comes
from the SDK files read as text (no SDK import: the suite's time), never from the rules themselves:
- anthropic 2.14.0 types/model_param.py (ModelParam's literals); _constants.py (the API version it sends),
  types/message_create_params.py and types/tool_choice_param.py (fact anthropic.api_version, tenth audit pass);
- openai 3.57.0 types/shared/chat_model.py (ChatModel's literals and 'Deprecated values');
- botocore 1.44.8 bedrock-runtime service-2.json ToolChoice.tool ('Only supported by Anthropic Claude 3 and Amazon
  Nova models.');
- cohere 7.3.1 v2/client.py chat(tool_choice): 'only compatible with models [Command-r7b](...) and newer'.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sdk_types import botocore_session, missing
from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import model_rules


def _sdk_file(package: str, relative: str) -> str:
    """A file of an installed SDK as text, found without importing the package."""
    from importlib.util import find_spec

    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return (Path(list(spec.submodule_search_locations)[0]) / relative).read_text(encoding="utf-8")


def _literals(source: str, name: str) -> list[str]:
    """The string literals of ``name``'s Literal[...] in an SDK type file."""
    start = source.index(f"{name}: TypeAlias")
    body = source[start:source.index("]", source.index("Literal[", start))]
    return re.findall(r'"([^"]+)"', body)


def _claude_models() -> list[str]:
    return _literals(_sdk_file("anthropic", "types/model_param.py"), "ModelParam")


def _openai_models() -> list[str]:
    return _literals(_sdk_file("openai", "types/shared/chat_model.py"), "ChatModel")


TOOLS = ("tools:\n  - name: get_time\n    parameters: {type: object, properties: {tz: {type: string}}}\n"
         "messages: [{role: user, content: What time is it?}]\n")


def render(provider: str, model: str, choice: str, thinking: object = None, extra: dict | None = None):
    settings: dict[str, object] = {"model": model, "max_tokens": 4096, **(extra or {})}
    if thinking is not None:
        settings["thinking"] = thinking
    text = TOOLS + f"tool_choice: {choice}\nproviders:\n  {provider}: {json.dumps(settings)}\n"
    return translate(provider, load_scenario_text(text, "drift.yaml"))


def codes(t) -> set[str]:
    return {e.code for e in t.ledger}


# ---- Claude: every model the SDK names is known to a family rule -------------------------------------------------

@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_the_sdk_speaks_a_newer_api_version_whose_choice_and_thinking_types_toolchoice_writes() -> None:
    """Fact anthropic.api_version (tenth audit pass): toolchoice sends anthropic-version 2023-06-01 and the SDK the
    tests read sends 2026-10-21. That version's request type still has tools, tool_choice and thinking (and no
    sampling fields, the change it made), and its tool_choice union's members are the four types toolchoice sends
    for auto, required, none and a named tool. An SDK that moves to another API version fails here until that
    version's migration guide is read."""
    from toolchoice.providers import anthropic
    from toolchoice.providers.core.facts import fact

    stated = fact("anthropic.api_version").statement
    version = re.search(r'^ANTHROPIC_API_VERSION = "([0-9-]+)"$', _sdk_file("anthropic", "_constants.py"), re.M)
    assert version is not None and version.group(1) == "2026-10-21" and version.group(1) in stated
    assert anthropic.API_VERSION == "2023-06-01" and anthropic.API_VERSION in stated
    params = _sdk_file("anthropic", "types/message_create_params.py")
    base = params[params.index("class MessageCreateParamsBase("):params.index("class MessageCreateParamsNonStreaming(")]
    fields = set(re.findall(r"^    (\w+): ", base, re.M))
    assert {"tools", "tool_choice", "thinking"} <= fields and not fields & {"temperature", "top_p", "top_k"}
    union = _sdk_file("anthropic", "types/tool_choice_param.py")
    members = re.findall(r"from \.(tool_choice_\w+_param) import", union)
    types = {re.search(r'type: Required\[Literal\["(\w+)"\]\]', _sdk_file("anthropic", f"types/{m}.py")).group(1)
             for m in members}
    assert types == {"auto", "any", "tool", "none"}
    sent = set()
    for choice in ("auto", "required", "none", "{tool: get_time}"):
        request = render("anthropic", "claude-sonnet-5", choice).request
        assert request.headers["anthropic-version"] == anthropic.API_VERSION
        sent.add(request.body["tool_choice"]["type"])
    assert sent == types


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
@pytest.mark.parametrize("header,settings", [
    ("anthropic-version", {"temperature": 0.2}),
    ("anthropic-version", {"temperature": 1}),  # 'any of them': the default value too
    ("Anthropic-Version", {"temperature": 0.5}),  # a header's name has no case
    ("anthropic-version", {"extra": {"top_k": 5}}),
    ("anthropic-version", {"extra": {"top_p": 0.9, "temperature": 0.3}}),
])
def test_a_request_under_2026_10_21_that_sends_a_sampling_field_is_refused(header: str, settings: dict) -> None:
    """Fact anthropic.api_version (eleventh audit pass): Anthropic's Versions page says of 2026-10-21 'The
    temperature, top_p, and top_k request parameters are removed. A request that sends any of them returns a 400'.
    The fields refused are those the SDK speaking that version (anthropic 2.14.0, ANTHROPIC_API_VERSION 2026-10-21)
    no longer has in its request type; a request whose headers set that version and whose final body (extra merged)
    sends one is refused, naming it; toolchoice's own version sends the same body."""
    from toolchoice.providers.core.fact_values import VersionRemoves
    from toolchoice.providers.core.facts import fact

    said = fact("anthropic.api_version").value
    assert isinstance(said, VersionRemoves) and said.version == "2026-10-21" and said.header == "anthropic-version"
    assert re.search(r'^ANTHROPIC_API_VERSION = "2026-10-21"$', _sdk_file("anthropic", "_constants.py"), re.M)
    params = _sdk_file("anthropic", "types/message_create_params.py")
    base = params[params.index("class MessageCreateParamsBase("):params.index("class MessageCreateParamsNonStreaming(")]
    assert not set(re.findall(r"^    (\w+): ", base, re.M)) & set(said.fields)
    assert set(said.fields) == {"temperature", "top_p", "top_k"}
    sent = {"temperature", "top_p", "top_k"} & (set(settings) | set(settings.get("extra", {})))
    refused = render("anthropic", "claude-sonnet-5", "auto", extra={**settings, "headers": {header: "2026-10-21"}})
    assert refused.request is None
    [entry] = [e for e in refused.ledger if e.code == "api_version.removed_field"]
    assert entry.severity == "error" and said.words in entry.message
    assert all(field in entry.message for field in sent)
    for headers in ({}, {header: "2023-06-01"}):  # toolchoice's own version, or written: sent as before
        kept = render("anthropic", "claude-sonnet-5", "auto", extra={**settings, "headers": headers} if headers else
                      settings)
        assert kept.request is not None and sent <= set(kept.request.body), headers
        assert "api_version.removed_field" not in codes(kept)


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_under_2026_10_21_a_body_without_a_sampling_field_is_sent() -> None:
    t = render("anthropic", "claude-sonnet-5", "required", extra={"headers": {"anthropic-version": "2026-10-21"}})
    assert t.request is not None and t.request.headers["anthropic-version"] == "2026-10-21"
    assert "api_version.removed_field" not in codes(t)


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_the_sdk_lists_the_claude_models_the_audit_read() -> None:
    models = _claude_models()
    assert "claude-fable-5-2" in models and "claude-mythos-5-2" in models and "claude-opus-4-5" in models


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_every_claude_model_the_sdk_names_has_a_family_rule() -> None:
    """A Claude model released since the rules were read is unknown to them (the ledger says so, nothing is
    refused); this fails so that its documents are read and a rule is added with their words."""
    unknown = [m for m in _claude_models() if model_rules.unknown("anthropic", m)]
    assert unknown == [], f"no model rule knows {unknown}: read their model pages and add a rule"
    on_bedrock = [m for m in _claude_models() if model_rules.unknown("bedrock", f"anthropic.{m}-v1:0")]
    assert on_bedrock == []


@pytest.mark.parametrize("model", ["claude-fable-5-2", "claude-mythos-5-2"])
@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_fable_5_2_thinks_adaptively_always(provider: str, model: str) -> None:
    """whats-new-fable-5-2: 'Thinking: adaptive thinking is always on'; thinking-troubleshooting: extended thinking is
    rejected with a 400 on 'Claude 4.7 and later models'."""
    wire = model if provider == "anthropic" else f"anthropic.{model}"
    off = render(provider, wire, "auto", False)
    assert "thinking.always_on" in codes(off) and "model_rule.unknown" not in codes(off)
    body = off.request.body if provider == "anthropic" else off.request.body.get("additionalModelRequestFields", {})
    assert body.get("thinking", {}).get("type") != "disabled"
    budget = render(provider, wire, "auto", {"budget": 2048})
    assert "thinking.form" in codes(budget)


@pytest.mark.parametrize("model", ["claude-fable-5-2", "claude-mythos-5-2"])
@pytest.mark.parametrize("choice", ["required", "get_time"])
def test_fable_5_2_forced_choice_is_sent_since_no_source_refuses_it(model: str, choice: str) -> None:
    """The 5.2 pages list four breaking changes from 5.1, none about tool_choice; 5.1's refusal is not carried over
    on a guess."""
    t = render("anthropic", model, choice)
    assert not t.refused and "thinking.forced_choice" not in codes(t)
    assert t.request.body["tool_choice"]["type"] in ("any", "tool")


@pytest.mark.parametrize("model", ["claude-fable-5-2", "claude-mythos-5-2", "anthropic.claude-fable-5-2-v1:0"])
@pytest.mark.parametrize("choice", ["required", "get_time"])
def test_fable_5_2_forced_choice_is_said_unstated(model: str, choice: str) -> None:
    """A known model, one fact unstated: the ledger says that no source states whether the model takes a forcing
    tool_choice (with its always-on thinking), names the 5.1 refusal it may share and the override; the request
    goes out as written, nothing is called unknown."""
    provider = "bedrock" if model.startswith("anthropic.") else "anthropic"
    t = render(provider, model, choice)
    assert not t.refused and "model_rule.unknown" not in codes(t)
    [note] = [e for e in t.ledger if e.code == "model_rule.unstated"]
    assert note.severity == "info"
    assert "no source states whether" in note.message and "forcing tool_choice" in note.message
    assert "claude-5.2-always-adaptive" in note.message and "claude-5.1-no-forced-choice" in note.message
    assert f"providers.{provider}.rules.forced_tool_choice" in note.message
    # the general Thinking-page rule is not presented as settling this model's case
    assert not [e for e in t.ledger if e.code == "rule.applied" and "kept" in e.message]


@pytest.mark.parametrize("model, choice, thinking", [
    ("claude-fable-5-2", "auto", None),          # nothing forced: nothing to say
    ("claude-fable-5-1", "required", None),      # stated: refused with its source
    ("claude-fable-5", "required", None),        # no rule leaves the fact unstated there
    ("claude-opus-5-5", "get_time", None),
])
def test_unstated_is_said_only_where_a_family_leaves_the_fact_unset(model: str, choice: str, thinking: object) -> None:
    assert "model_rule.unstated" not in codes(render("anthropic", model, choice, thinking))


def test_an_override_states_the_fact_and_silences_the_note() -> None:
    text = TOOLS + ("tool_choice: required\nproviders:\n  anthropic: {model: claude-fable-5-2, max_tokens: 4096, "
                    "rules: {forced_tool_choice: false}}\n")
    t = translate("anthropic", load_scenario_text(text, "s.yaml"))
    assert t.refused and "model_rule.unstated" not in codes(t) and "thinking.forced_choice" in codes(t)


def test_every_unstated_fact_is_a_rule_key_the_rule_leaves_unset() -> None:
    for rule in model_rules.RULES:
        for key, why in rule.unstated.items():
            assert key in model_rules.RULE_KEYS and key not in rule.facts and rule.family, rule.name
            assert why.strip(), rule.name


# ---- OpenAI: family rules hold for the family's SDK members; the rest are said unknown -----------------------------

@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_the_gpt_5_6_rule_covers_every_gpt_5_6_model_the_sdk_names() -> None:
    members = [m for m in _openai_models() if m.startswith("gpt-5.6")]
    assert members  # gpt-5.6-sol, -terra, -luna in 3.57.0
    for model in members:
        fact = model_rules.rule_facts("openai", model).get("tools_reasoning_effort")
        assert fact is not None and fact.value == "none", model


# The GPT-6 members whose Chat Completions 400 with function tools is recorded (docs/fact-audit.md, fifth pass):
# gpt-6-astra (genkit-ai/genkit#6303, BerriAI/litellm#39631), gpt-6-sol (onyx-dot-app/onyx#15008). No other member's.
GPT_6_RECORDED = {"gpt-6-astra", "gpt-6-sol", "gpt-6.1-sol", "gpt-6-luna"}  # eighth pass: 6.1-sol, luna


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_the_gpt_6_rules_know_the_recorded_members_and_no_other() -> None:
    members = {m for m in _openai_models() if m.startswith("gpt-6")}
    assert GPT_6_RECORDED <= members
    known = {m for m in members if not model_rules.unknown("openai", m)}
    assert known == GPT_6_RECORDED


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_an_openai_model_no_rule_knows_is_said_unknown_and_sent() -> None:
    newest = [m for m in _openai_models() if m.startswith("gpt-6") and m not in GPT_6_RECORDED]
    assert newest
    for model in newest:
        t = render("openai", model, "required")
        assert not t.refused and "model_rule.unknown" in codes(t), model
        assert "reasoning_effort" not in t.request.body, model  # nothing added on a guess


def _responses_only_models() -> list[str]:
    """The ids openai's ResponsesModel adds to ChatModel: the SDK offers them for the Responses API only."""
    chat = set(_openai_models())
    return [m for m in _literals(_sdk_file("openai", "types/shared/responses_model.py"), "ResponsesModel")
            if m not in chat]


@pytest.mark.skipif(missing("openai"), reason="needs openai")
@pytest.mark.parametrize("provider", ["openai", "azure"])
def test_no_chat_completions_rule_takes_a_responses_only_model_by_its_family_name(provider: str) -> None:
    """gpt-5.6-cyber and gpt-5.5-pro share their family's names, but openai 3.57.0 lists them in ResponsesModel only:
    no Chat Completions source covers them, so no family rule knows them there (until the tenth audit pass the
    gpt-5.6 rule added reasoning_effort: none to gpt-5.6-cyber, and the gpt-5.2-5.5 rule refused gpt-5.5-pro's
    effort with tools). They are said unknown and sent as written; their ChatModel relatives keep their rules."""
    only = _responses_only_models()
    assert {"gpt-5.6-cyber", "gpt-5.5-pro", "gpt-5.5-pro-2026-04-23", "gpt-6-cyber"} <= set(only)
    assert [m for m in only if not model_rules.unknown(provider, m)] == []
    for model in ("gpt-5.6-cyber", "gpt-5.5-pro"):
        text = TOOLS + ("tool_choice: required\nproviders:\n  " + provider + ": "
                        + json.dumps({"model": model, "thinking": {"effort": "low"}}) + "\n")
        t = translate(provider, load_scenario_text(text, "drift.yaml"))
        assert not t.refused and "model_rule.unknown" in codes(t), model
        assert t.request.body.get("reasoning_effort") == "low", model  # as written: nothing refused or changed
    for model in ("gpt-5.6-sol", "gpt-5.5", "gpt-5.2-pro"):
        assert not model_rules.unknown(provider, model), model


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_every_openai_shutdown_date_in_the_sdk_is_an_end_of_life_entry() -> None:
    source = _sdk_file("openai", "types/shared/chat_model.py")
    block = source[source.index('"""Deprecated values:'):]
    dated = {}
    for item in re.split(r"\n- ", block)[1:]:
        found = re.search(r"Announced shutdown\s+date:\s+(\d{4}-\d{2}-\d{2})", item)
        if found:
            dated.update({m: found.group(1) for m in re.findall(r'"([^"]+)"', item.split("Announced")[0])})
    assert dated.get("gpt-3.5-turbo-1106") == "2026-09-28"  # the reader reads the docstring
    wrong = {m: (d, getattr(model_rules.retiring("openai", m), "date", None)) for m, d in dated.items()
             if getattr(model_rules.retiring("openai", m), "date", None) != d}
    assert wrong == {}


# ---- Bedrock's named toolChoice and Cohere's tool_choice: the SDK words the rules stand on -------------------------

@pytest.mark.skipif(missing("botocore"), reason="needs botocore")
def test_bedrock_named_choice_rule_is_the_service_models_words() -> None:
    shape = botocore_session().get_service_model("bedrock-runtime").shape_for("ToolChoice")
    doc = shape.members["tool"].documentation
    assert "Only supported by Anthropic Claude 3 and Amazon Nova models." in doc
    for model, named in (("anthropic.claude-3-5-sonnet-20240620-v1:0", True), ("us.amazon.nova-pro-v1:0", True),
                         ("anthropic.claude-fable-5-2", True), ("meta.llama3-1-70b-instruct-v1:0", False),
                         ("mistral.mistral-large-2407-v1:0", False)):
        assert model_rules.rule_facts("bedrock", model)["named_tool_choice"].value is named, model


@pytest.mark.skipif(missing("cohere"), reason="needs cohere")
def test_cohere_tool_choice_rule_is_the_sdks_words() -> None:
    doc = " ".join(_sdk_file("cohere", "v2/client.py").split())
    assert ("**Note**: This parameter is only compatible with models [Command-r7b](https://docs.cohere.com/v2/docs/"
            "command-r7b) and newer.") in doc
    for model, takes in (("command-r7b-12-2024", True), ("command-a-03-2025", True), ("command-r-plus", False),
                         ("command-r-08-2024", False)):
        assert model_rules.rule_facts("cohere", model)["tool_choice"].value is takes, model


# ---- Responses custom tools: the SDK's fields beyond toolchoice's custom-tool keys are named by the fact -------------

@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_custom_tool_fields_are_stated_and_sent() -> None:
    """Every field openai's CustomToolParam has beyond name, type, description and format is named by the fact and
    sent on Responses as the scenario writes it (it was refused as an unknown key until 2026-11-26)."""
    from toolchoice.providers.core.facts import fact
    from toolchoice.providers.core.scenario import CUSTOM_TOOL_KEYS

    source = _sdk_file("openai", "types/responses/custom_tool_param.py")
    body = source[source.index("class CustomToolParam("):]
    sdk = set(re.findall(r"\n    ([a-z_]+): ", body)) | set(re.findall(r'"([a-z_]+)": bool', source))
    assert {"name", "type", "description", "format"} <= sdk  # the reader reads the type
    beyond = sdk - set(CUSTOM_TOOL_KEYS) - {"type"}
    assert beyond == {"allowed_callers", "defer_loading", "async"}
    statement = fact("openai.custom_tool.responses").statement
    assert all(key in statement for key in beyond), (sorted(beyond), statement)
    values = {"allowed_callers": "[direct]", "defer_loading": "true", "async": "false"}
    for key in beyond:
        scenario = load_scenario_text(f"tools:\n  - {{type: custom, name: x, {key}: {values[key]}}}\ntool_choice: auto\n"
                                      "messages: [{role: user, content: hi}]\n", "c.yaml")
        t = translate("openai-responses", scenario)
        assert key in t.request.body["tools"][0] and "tool.field_dropped" not in codes(t), key


def test_providers_model_lists_the_unstated_fact_with_what_was_read() -> None:
    from cli import run_cli

    result = run_cli(["providers", "--model", "claude-fable-5-2", "--format", "json"])
    assert result.returncode == 0
    [entry] = [e for e in json.loads(result.stdout) if e["provider"] == "anthropic"]
    [unstated] = entry["unstated"]
    assert unstated["fact"] == "forced_tool_choice" and unstated["rule"] == "claude-5.2-always-adaptive"
    assert "Four changes from Claude Fable 5.1" in unstated["read"] and unstated["verified"] == "2026-11-27"  # re-read
    pretty = run_cli(["providers", "--model", "claude-fable-5-2"], env={"COLUMNS": "80"})
    assert "forced_tool_choice" in pretty.stdout and "no source states" in " ".join(pretty.stdout.split())
    assert "unstated" not in json.loads(run_cli(["providers", "--model", "claude-fable-5-1",
                                                  "--format", "json"]).stdout)[0]


def test_providers_model_lists_gpt_5_6_on_azure_as_refusing_another_effort_with_its_sources() -> None:
    """gpt-5.6 on Azure: until the ninth pass (2026-11-27) the rule stated no fact (agentgateway#2894, the one Azure
    recording then read, contradicted api.openai.com's); now every source read says an effort other than 'none' is the
    400 (anomalyco/opencode#40257, Gitlawb/openclaude#1957, agentgateway#2894, Microsoft's page as copies quote it),
    so the fact is other-refused; `providers --model` names it with what was read."""
    from cli import run_cli

    result = run_cli(["providers", "--model", "gpt-5.6-luna", "--format", "json"])
    assert result.returncode == 0
    [entry] = [e for e in json.loads(result.stdout) if e["provider"] == "azure"]
    [fact] = entry["facts"]
    assert entry["known"] and "unstated" not in entry
    assert (fact["fact"], fact["value"], fact["rule"]) == ("tools_reasoning_effort", "other-refused",
                                                            "azure-gpt-5.6-tools-effort")
    assert all(source in fact["source"] for source in ("anomalyco/opencode#40257", "agentgateway/agentgateway#2894",
                                                       "Gitlawb/openclaude#1957"))
