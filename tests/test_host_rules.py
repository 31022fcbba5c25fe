"""A base URL that replaces a hosted API's own host: that API's refusals are warnings, and the request is sent.

The refusals below quote what api.openai.com, api.anthropic.com and Google's API answer (their dated facts); a
server that speaks the same wire format elsewhere may answer otherwise. docs/real-model.md points ``-p openai
--base-url`` at llama-cpp-python, which takes every one of these requests, so refusing them there was a refusal no
source states. ``--strict`` refuses them again. Rows for server software (vLLM, llama.cpp: a local default
endpoint) state what that software does wherever it runs, so their refusals hold at any base URL.

The words checked are the APIs' own, as the facts' sources quote them (not read from the code): OpenAI's
"'tool_choice' is only allowed when 'tools' are specified." (RageAgainstThePixel/OpenAI-DotNet#479), "array too
long. Expected an array with maximum length 128" (openai.tool_limit), vLLM's "When using `tool_choice`, `tools`
must be set." (vllm check_tool_usage). In-process, and one real server on 127.0.0.1 for what ``send`` does.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.model import RenderOptions, Scenario
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

from cli import run_cli
from servers import StandIn

ELSEWHERE = "http://127.0.0.1:8080/v1"
OPENAI_WITHOUT_TOOLS = "'tool_choice' is only allowed when 'tools' are specified."


def scenario(text: str) -> Scenario:
    return load_scenario_text(text, "s.yaml")


NO_TOOLS = scenario("tool_choice: required\nmessages:\n  - {role: user, content: hi}\n")
CALLED = """\
tools:
  - name: read_file
    parameters: {type: object, properties: {path: {type: string}}}
messages:
  - {role: user, content: read a.txt}
  - role: assistant
    tool_calls: [{id: call_1, name: read_file, arguments: {path: a.txt}}]
"""
UNANSWERED = scenario(CALLED + "  - {role: user, content: and now?}\n")
ANSWERED = scenario(CALLED + '  - {role: tool, tool_call_id: call_1, content: "x"}\n')
MANY_TOOLS = scenario("tools:\n" + "".join(f"  - name: t{i}\n" for i in range(129))
                      + "tool_choice: auto\nmessages:\n  - {role: user, content: hi}\n")


def codes(translation: Any, severity: str) -> list[str]:
    return [e.code for e in translation.ledger if e.severity == severity]


def entry(translation: Any, code: str) -> Any:
    [found] = [e for e in translation.ledger if e.code == code]
    return found


@pytest.mark.parametrize("provider, made, code", [
    ("openai", NO_TOOLS, "tool_choice.without_tools"),
    ("azure", NO_TOOLS, "tool_choice.without_tools"),
    ("openai-responses", NO_TOOLS, "tool_choice.without_tools"),
    ("anthropic", NO_TOOLS, "tool_choice.without_tools"),
    ("gemini", NO_TOOLS, "tool_choice.without_tools"),
    ("xai", NO_TOOLS, "tool_choice.without_tools"),
    ("openai", UNANSWERED, "history.missing_tool_result"),
    ("mistral", UNANSWERED, "history.missing_tool_result"),
    ("deepseek", UNANSWERED, "history.missing_tool_result"),
    ("openai-responses", UNANSWERED, "history.missing_tool_result"),
    ("anthropic", UNANSWERED, "history.missing_tool_result"),
    ("gemini", UNANSWERED, "history.missing_tool_result"),
    ("openai", MANY_TOOLS, "tools.over_limit"),
    ("groq", MANY_TOOLS, "tools.over_limit"),
])
def test_a_hosted_apis_refusal_is_a_warning_where_a_base_url_replaces_its_host(provider: str, made: Scenario,
                                                                               code: str) -> None:
    own = translate(provider, made, RenderOptions())
    assert own.refused and entry(own, code).severity == "error"  # at the API's own host: refused, as before
    there = translate(provider, made, RenderOptions(base_url=ELSEWHERE))
    assert not there.refused and there.request is not None
    assert not codes(there, "error")
    warned = entry(there, code)
    assert warned.severity == "warning"
    assert warned.message.startswith(entry(own, code).message)  # the API's words, whole, then whose rule it is
    assert ELSEWHERE in warned.message and "--strict" in warned.message
    assert there.request.url.startswith(ELSEWHERE)


def test_the_request_is_sent_as_written_tool_choice_and_all_129_tools() -> None:
    body = translate("openai", NO_TOOLS, RenderOptions(base_url=ELSEWHERE)).request.body
    assert body["tool_choice"] == "required" and "tools" not in body  # as the scenario wrote it
    assert OPENAI_WITHOUT_TOOLS in entry(translate("openai", NO_TOOLS, RenderOptions(base_url=ELSEWHERE)),
                                         "tool_choice.without_tools").message
    many = translate("openai", MANY_TOOLS, RenderOptions(base_url=ELSEWHERE))
    assert len(many.request.body["tools"]) == 129
    assert "Expected an array with maximum length 128" in entry(many, "tools.over_limit").message


def test_auto_without_tools_is_sent_rather_than_omitted_at_another_host() -> None:
    auto = scenario("tool_choice: auto\nmessages:\n  - {role: user, content: hi}\n")
    assert "tool_choice" not in translate("openai", auto, RenderOptions()).request.body  # api.openai.com: omitted
    there = translate("openai", auto, RenderOptions(base_url=ELSEWHERE))
    assert there.request.body["tool_choice"] == "auto"
    assert entry(there, "tool_choice.without_tools").severity == "warning"


def test_strict_refuses_it_again() -> None:
    there = translate("openai", UNANSWERED, RenderOptions(base_url=ELSEWHERE, strict=True))
    assert there.refused and "strict.refused" in codes(there, "error")


def test_a_base_url_written_in_the_scenario_counts_too() -> None:
    text = "providers:\n  openai: {base_url: \"http://127.0.0.1:8080/v1\"}\n" \
           "tool_choice: required\nmessages:\n  - {role: user, content: hi}\n"
    there = translate("openai", scenario(text), RenderOptions())
    assert not there.refused and entry(there, "tool_choice.without_tools").severity == "warning"


def test_a_base_url_that_names_the_apis_own_host_replaces_nothing() -> None:
    for base_url in ("https://api.openai.com/v1", "https://API.OpenAI.com:443/v1"):
        t = translate("openai", UNANSWERED, RenderOptions(base_url=base_url))
        assert t.refused and entry(t, "history.missing_tool_result").severity == "error", base_url


@pytest.mark.parametrize("base_url", [None, ELSEWHERE, "http://gpu-box.internal:8000/v1"])
def test_server_software_keeps_its_refusal_at_any_base_url(base_url: str | None) -> None:
    t = translate("vllm", NO_TOOLS, RenderOptions(base_url=base_url))
    found = entry(t, "tool_choice.without_tools")
    assert t.refused and found.severity == "error"
    assert "When using `tool_choice`, `tools` must be set." in found.message


def test_send_reaches_the_server_at_the_base_url_which_takes_it(tmp_path: Any) -> None:
    """A server that takes 129 tools (as llama-cpp-python does) gets the request, all of it."""
    path = str(tmp_path / "many.yaml")
    with open(path, "w", encoding="utf-8") as out:
        out.write("tools:\n" + "".join(f"  - name: t{i}\n" for i in range(129)) + "tool_choice: required\n"
                  "messages:\n  - {role: user, content: hi}\n")
    with StandIn("openai") as server:
        done = run_cli(["send", path, "-p", "openai", "--base-url", server.base_url(), "-f", "json"],
                       env={"OPENAI_API_KEY": "unused", "PATH": "/usr/bin:/bin"})
        assert len(server.requests) == 1
        assert len(server.requests[0].json["tools"]) == 129
    record = json.loads(done.stdout)
    text = json.dumps(record)
    assert "tools.over_limit" in text and '"warning"' in text
    assert done.returncode != 2 and "REFUSED" not in done.stdout


# ---- changes a hosted API's rule makes to what the user wrote: not made where a base URL replaces its host ----

BLANK_BESIDE_A_CALL = scenario("""\
tools:
  - name: read_file
    parameters: {type: object, properties: {path: {type: string}}}
messages:
  - {role: user, content: read a.txt}
  - role: assistant
    content: "  "
    tool_calls: [{id: call_1, name: read_file, arguments: {path: a.txt}}]
  - {role: tool, tool_call_id: call_1, content: "x"}
  - {role: assistant, content: " "}
  - {role: user, content: and now?}
""")


def texts(message: dict[str, Any]) -> list[str]:
    """The text blocks of an Anthropic ({type: text, text}, or a plain string) or Bedrock ({text}) message."""
    if isinstance(message["content"], str):
        return [message["content"]]
    return [block["text"] for block in message["content"] if "text" in block]


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_blank_text_is_sent_as_written_where_a_base_url_replaces_the_host(provider: str) -> None:
    """api.anthropic.com and Bedrock answer 400 to a blank text block ('text content blocks must be non-empty'):
    at their host a blank block beside a call is left out and a turn of blank text alone is refused. Elsewhere
    both blank texts go as the scenario wrote them ('  ' beside the call, ' ' alone), each with a warning."""
    own = translate(provider, BLANK_BESIDE_A_CALL, RenderOptions())
    assert own.refused and entry(own, "history.blank_text_dropped").severity == "info"
    there = translate(provider, BLANK_BESIDE_A_CALL, RenderOptions(base_url=ELSEWHERE))
    assert not there.refused and not codes(there, "error")
    messages = there.request.body["messages"]
    assert texts(messages[1]) == ["  "] and texts(messages[3]) == [" "]
    for code in ("history.blank_text_dropped", "history.blank_text"):
        warned = entry(there, code)
        assert warned.severity == "warning" and ELSEWHERE in warned.message and "--strict" in warned.message
    assert "left out" not in entry(there, "history.blank_text_dropped").message
    strict = translate(provider, BLANK_BESIDE_A_CALL, RenderOptions(base_url=ELSEWHERE, strict=True))
    assert strict.refused and "strict.refused" in codes(strict, "error")


def test_bedrock_keeps_its_wire_formats_rules_at_any_base_url() -> None:
    """The Converse service model (botocore data/bedrock-runtime/2023-09-30/service-2.json) types a tool's
    description and a system text block as NonEmptyString ({'type': 'string', 'min': 1}), which boto3 checks before
    sending, and says of ToolInputSchema 'The top level schema type must be object': the wire format's own rules, so
    a blank system, an empty description and a schema without type are changed (info) wherever the request goes.
    A message's text block is a plain String there: its blank text is the host's rule (above)."""
    made = scenario("system: \" \"\ntools:\n  - {name: ping, description: \"\"}\n"
                    "  - name: q\n    parameters: {properties: {s: {type: string}}}\n"
                    "messages:\n  - {role: user, content: hi}\n")
    there = translate("bedrock", made, RenderOptions(base_url=ELSEWHERE))
    assert "system" not in there.request.body
    ping, q = (t["toolSpec"] for t in there.request.body["toolConfig"]["tools"])
    assert "description" not in ping and q["inputSchema"]["json"]["type"] == "object"
    for code in ("system.empty_dropped", "tool.description_dropped", "schema.type_added"):
        assert entry(there, code).severity == "info"


def test_mistral_ids_are_sent_as_written_where_a_base_url_replaces_its_host() -> None:
    """api.mistral.ai answers 400 unless a tool-call id is 9 of [a-zA-Z0-9] ('Tool call id was call_1 but must be
    a-z, A-Z, 0-9, with a length of 9.', facts mistral.tool_call_id): there the ids are rewritten; a server
    elsewhere (vLLM with a newer Mistral tokenizer takes any non-empty id) gets the ids the scenario wrote."""
    own = translate("mistral", ANSWERED, RenderOptions())
    assert own.request.body["messages"][1]["tool_calls"][0]["id"] != "call_1"
    there = translate("mistral", ANSWERED, RenderOptions(base_url=ELSEWHERE))
    messages = there.request.body["messages"]
    assert messages[1]["tool_calls"][0]["id"] == "call_1" and messages[2]["tool_call_id"] == "call_1"
    warned = entry(there, "history.ids_rewritten")
    assert warned.severity == "warning" and ELSEWHERE in warned.message and "call_1→" not in warned.message
    assert "call_1" in warned.message


def test_a_base_url_naming_the_own_host_changes_nothing_of_these() -> None:
    for provider, made, base_url in (("anthropic", BLANK_BESIDE_A_CALL, "https://api.anthropic.com"),
                                     ("mistral", ANSWERED, "https://api.mistral.ai/v1")):
        same = translate(provider, made, RenderOptions(base_url=base_url))
        own = translate(provider, made, RenderOptions())
        assert [e for e in same.ledger if e.code != "endpoint.base_url"] == list(own.ledger)
        assert same.refused == own.refused and (own.refused or same.request.body == own.request.body)


def test_deepseek_strict_goes_to_its_beta_endpoint_when_the_base_url_names_its_own_host() -> None:
    """DeepSeek takes strict tools only at https://api.deepseek.com/beta (its function-calling guide); a base URL
    that names api.deepseek.com itself replaces nothing, so the request goes there as it does with no base URL.
    A base URL elsewhere is used as written."""
    made = scenario("tools:\n  - name: f\n    strict: true\n    parameters: {type: object, properties: {}, "
                    "additionalProperties: false}\ntool_choice: auto\nmessages:\n  - {role: user, content: hi}\n")
    for base_url in (None, "https://api.deepseek.com", "https://api.deepseek.com/v1"):
        t = translate("deepseek", made, RenderOptions(base_url=base_url))
        assert t.request.url == "https://api.deepseek.com/beta/chat/completions", base_url
        assert entry(t, "strict.beta_endpoint").severity == "info"
    there = translate("deepseek", made, RenderOptions(base_url=ELSEWHERE))
    assert there.request.url == ELSEWHERE + "/chat/completions" and "strict.beta_endpoint" not in codes(there, "info")


COHERE_PLAN_TEXT = """\
tools:
  - name: read_file
    parameters: {type: object, properties: {path: {type: string}}}
messages:
  - {role: user, content: read a.txt}
  - role: assistant
    content: I will read it.
    tool_calls: [{id: call_1, name: read_file, arguments: {path: a.txt}}]
  - {role: tool, tool_call_id: call_1, content: "x"}
"""
COHERE_PLAN = scenario(COHERE_PLAN_TEXT)


def test_cohere_text_beside_calls_is_sent_as_content_where_a_base_url_replaces_its_host() -> None:
    """api.cohere.com answers 'text content is not allowed when tool_calls are provided' (vercel/ai#5794), so there
    the text goes in tool_plan; cohere 7.3.1 types/assistant_message.py has content beside tool_calls, so a server
    elsewhere speaking Chat v2 gets the text where the scenario wrote it."""
    own = translate("cohere", COHERE_PLAN, RenderOptions()).request.body["messages"][1]
    assert own["tool_plan"] == "I will read it." and "content" not in own
    there = translate("cohere", COHERE_PLAN, RenderOptions(base_url=ELSEWHERE))
    sent = there.request.body["messages"][1]
    assert sent["content"] == "I will read it." and "tool_plan" not in sent and sent["tool_calls"]
    warned = entry(there, "history.text_as_tool_plan")
    assert warned.severity == "warning" and ELSEWHERE in warned.message
    thought = scenario(COHERE_PLAN_TEXT.replace("    content: I will read it.\n",
                                                "    reasoning: [{family: cohere, text: hmm}]\n"))
    assert "content" not in translate("cohere", thought, RenderOptions()).request.body["messages"][1]
    there = translate("cohere", thought, RenderOptions(base_url=ELSEWHERE))
    # cohere 7.3.1 AssistantMessageV2ContentOneItem: thinking items, sent alone (no blank text block added)
    assert there.request.body["messages"][1]["content"] == [{"type": "thinking", "thinking": "hmm"}]
    assert entry(there, "history.thinking_dropped").severity == "warning"


def test_anthropic_adds_the_type_its_wire_format_requires_at_any_base_url() -> None:
    """anthropic 2.14.0 types/tool_param.py InputSchemaTyped: 'type: Required[Literal["object"]]': the format's rule."""
    made = scenario("tools:\n  - name: q\n    parameters: {properties: {s: {type: string}}}\n"
                    "messages:\n  - {role: user, content: hi}\n")
    there = translate("anthropic", made, RenderOptions(base_url=ELSEWHERE))
    assert there.request.body["tools"][0]["input_schema"]["type"] == "object"
    assert entry(there, "schema.type_added").severity == "info"


# ---- fields a hosted row says its API lacks, which the OpenAI Chat wire format spells ----

STRICT_PARALLEL = scenario("tools:\n  - name: f\n    strict: true\n    parameters: {type: object, properties: {}, "
                           "additionalProperties: false}\nparallel_tool_calls: false\ntool_choice: auto\n"
                           "messages:\n  - {role: user, content: hi}\n")


@pytest.mark.parametrize("provider, feature", [
    ("together", "strict"), ("xai", "strict"), ("sambanova", "strict"), ("huggingface", "strict"),
    ("deepseek", "parallel"), ("together", "parallel"), ("huggingface", "parallel"),
])
def test_a_field_the_host_lacks_is_sent_as_written_where_a_base_url_replaces_it(provider: str, feature: str) -> None:
    """openai 2.x types/chat: FunctionDefinition has strict, CompletionCreateParams has parallel_tool_calls; the rows
    for these hosts say the host's API has no such switch, so there it is not sent. A server elsewhere speaking Chat
    Completions (vLLM takes parallel_tool_calls) gets the field the scenario wrote, with a warning."""
    own = translate(provider, STRICT_PARALLEL, RenderOptions())
    there = translate(provider, STRICT_PARALLEL, RenderOptions(base_url=ELSEWHERE))
    function = there.request.body["tools"][0]["function"]
    if feature == "strict":
        assert "strict" not in own.request.body["tools"][0]["function"] and function["strict"] is True
    else:
        assert "parallel_tool_calls" not in own.request.body and there.request.body["parallel_tool_calls"] is False
    warned = entry(there, f"{feature}.unsupported")
    assert warned.severity == "warning" and ELSEWHERE in warned.message and "--strict" in warned.message
    assert "not sent" not in warned.message and "dropped" not in warned.message


@pytest.mark.parametrize("provider, feature", [("llamacpp", "strict"), ("gemini", "parallel"), ("cohere", "parallel"),
                                               ("ollama", "parallel")])
def test_a_field_server_software_or_the_wire_format_lacks_stays_out(provider: str, feature: str) -> None:
    """llama.cpp's row states what the software does wherever it runs; Gemini's, Cohere's and Ollama's wire formats
    have no parallel field to send (google-genai ToolConfig, cohere 7.3.1 v2 chat, ollama api.ChatRequest)."""
    there = translate(provider, STRICT_PARALLEL, RenderOptions(base_url=ELSEWHERE))
    assert ELSEWHERE not in entry(there, f"{feature}.unsupported").message
    sent = json.dumps(there.request.body)
    assert ('"strict"' if feature == "strict" else "parallel_tool_calls") not in sent


@pytest.mark.parametrize("base_url", ["https://my-resource.openai.azure.com",
                                      "https://MY-RESOURCE.openai.azure.com/openai/deployments/gpt"])
def test_an_azure_resource_url_is_azures_own_host(base_url: str) -> None:
    """Azure's row has no fixed host ({endpoint}: the resource, https://{your-resource-name}.openai.azure.com in
    Microsoft's REST reference): a base URL on a resource's host replaces nothing, so Azure's refusals stand."""
    t = translate("azure", NO_TOOLS, RenderOptions(base_url=base_url))
    assert t.refused and entry(t, "tool_choice.without_tools").severity == "error"
    assert entry(translate("azure", NO_TOOLS, RenderOptions(base_url="https://openai.azure.com.example.org/v1")),
                 "tool_choice.without_tools").severity == "warning"  # a host that only begins like one


def test_send_gives_the_server_at_the_base_url_the_ids_as_written(tmp_path: Any) -> None:
    """A server that takes any id (as vLLM with a newer Mistral tokenizer does) gets call_1, not a rewritten id."""
    path = tmp_path / "ids.yaml"
    path.write_text("tools:\n  - name: read_file\n    parameters: {type: object, properties: {path: {type: string}}}\n"
                    "messages:\n  - {role: user, content: read a.txt}\n  - role: assistant\n"
                    "    tool_calls: [{id: call_1, name: read_file, arguments: {path: a.txt}}]\n"
                    "  - {role: tool, tool_call_id: call_1, content: x}\n", encoding="utf-8")
    with StandIn("mistral") as server:
        done = run_cli(["send", str(path), "-p", "mistral", "--base-url", server.base_url(), "-f", "json"],
                       env={"MISTRAL_API_KEY": "unused", "PATH": "/usr/bin:/bin"})
        assert len(server.requests) == 1, done.stderr
        sent = server.requests[0].json["messages"]
    assert sent[1]["tool_calls"][0]["id"] == "call_1" and sent[2]["tool_call_id"] == "call_1"
    assert "history.ids_rewritten" in done.stdout and done.returncode != 2


@pytest.mark.parametrize("base_url", ["https://bedrock-runtime.eu-west-1.amazonaws.com",
                                      "https://BEDROCK-RUNTIME.us-west-2.amazonaws.com/"])
def test_a_bedrock_regional_url_is_bedrocks_own_host(base_url: str) -> None:
    """Bedrock's row has a host per region (https://bedrock-runtime.{region}.amazonaws.com: AWS's Bedrock endpoints
    page and botocore's bedrock-runtime endpoint rules): a base URL naming a region's host replaces nothing, so
    Bedrock's rules stand there (the blank text left out, the blank turn refused), as with no base URL."""
    own = translate("bedrock", BLANK_BESIDE_A_CALL, RenderOptions())
    same = translate("bedrock", BLANK_BESIDE_A_CALL, RenderOptions(base_url=base_url))
    said = {"endpoint.base_url", "region.default"}  # the URL names the region: no default region is said
    assert [e for e in same.ledger if e.code not in said] == [e for e in own.ledger if e.code not in said]
    assert same.refused and entry(same, "history.blank_text_dropped").severity == "info"
    other = translate("bedrock", BLANK_BESIDE_A_CALL,
                      RenderOptions(base_url="https://bedrock-runtime.eu-west-1.amazonaws.com.example.org"))
    assert entry(other, "history.blank_text_dropped").severity == "warning"  # a host that only begins like one


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
@pytest.mark.parametrize("base_url", ["https://eu.api.openai.com/v1", "https://JP.api.openai.com/v1",
                                      "https://mtls-eu.api.openai.com/v1"])
def test_an_openai_data_residency_url_is_openais_own_host(provider: str, base_url: str) -> None:
    """OpenAI's regional hosts are its own (openai 3.57.0 _data_residency.py: "eu": "https://eu.api.openai.com/v1",
    ... "jp": "https://jp.api.openai.com/v1"; auth/_x509.py: "https://mtls-eu.api.openai.com/v1"): a base URL
    naming one replaces nothing, so api.openai.com's refusals stand there."""
    t = translate(provider, NO_TOOLS, RenderOptions(base_url=base_url))
    assert t.refused and entry(t, "tool_choice.without_tools").severity == "error"
    other = translate(provider, NO_TOOLS, RenderOptions(base_url="https://eu.api.openai.com.example.org/v1"))
    assert entry(other, "tool_choice.without_tools").severity == "warning"  # a host that only begins like one


@pytest.mark.parametrize("base_url", ["https://api.together.xyz/v1", "https://api.together.ai/v1"])
def test_togethers_api_hosts_are_its_own(base_url: str) -> None:
    """together 3.1.1 sends chat to api-inference.together.ai, its client's default host is api.together.ai
    (_client.py: base_url = f"https://api.together.ai") and its CLI counts api.together.xyz as Together's own
    (lib/cli/api/beta/jig/jig.py: ("api.together.ai", "api.together.xyz")): a base URL naming either replaces
    nothing, so Together's row applies there as with no base URL (strict and parallel_tool_calls not sent)."""
    own = translate("together", STRICT_PARALLEL, RenderOptions())
    same = translate("together", STRICT_PARALLEL, RenderOptions(base_url=base_url))
    assert [e for e in same.ledger if e.code != "endpoint.base_url"] == list(own.ledger)
    assert same.request.body == own.request.body and "parallel_tool_calls" not in same.request.body
