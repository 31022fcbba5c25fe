"""`--gateway` / `providers.<id>.gateway: true`: a base URL that stands in front of the API's own host (a gateway,
a proxy, `toolchoice mock`) keeps that host's rules: its refusals refuse and its changes are made, so the body is
the one rendered without a base URL. Without it, a base URL replaces the host (tests/test_host_rules.py).

The truth is outside the code under test:
- Mistral's 400 for an id not of 9 alphanumerics, as recorded in tests/data/responses/errors/
  error-mistral-400-tool-call-id.json (zed-industries/zed#53034): "Tool call id was ... but must be a-z, A-Z, 0-9,
  with a length of 9."; `toolchoice mock -p mistral` answers it (tests/test_mock_mistral_ids.py holds the mock to
  the recording through the official SDK), so a 200 there means the ids sent were 9 of [a-zA-Z0-9].
- OpenAI's 400 for 129 tools: "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an
  array with length 129 instead." (vishalmysore/Tools4AI#16, with the length of this request).
- docs/commands.md's exit codes: 3 a translation refused, 1 a provider error.
- The shipped history configs/none-with-history.yaml: its call id is toolu_01A (underscore: not Mistral's form).
Real servers on 127.0.0.1 (`running_mock`, in a thread); the CLI in-process.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.model import ProviderSettings, RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

from cli import run_cli

ROOT = Path(__file__).parent.parent
SHIPPED = str(ROOT / "configs" / "none-with-history.yaml")
SHIPPED_ID = "toolu_01A"
MISTRAL_KEY = "sk-mistral-gateway-test-7f3a9c"
OPENAI_KEY = "sk-openai-gateway-test-4b8e21"
RECORDED_400 = json.loads((Path(__file__).parent / "data" / "responses" / "errors" /
                           "error-mistral-400-tool-call-id.json").read_text(encoding="utf-8"))
MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")  # facts mistral.tool_call_id: "a-z, A-Z, 0-9, with a length of 9"
OPENAI_129 = ("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with "
              "length 129 instead.")
REFUSED, FAILED = 3, 1  # docs/commands.md, exit codes


def env(name: str, key: str) -> dict[str, str]:
    return {name: key, "PATH": "/usr/bin:/bin"}


def sent_ids(body: dict[str, Any]) -> list[str]:
    ids = []
    for message in body["messages"]:
        ids += [call["id"] for call in message.get("tool_calls") or ()]
        if message["role"] == "tool":
            ids.append(message["tool_call_id"])
    return ids


def no_key(done: Any, key: str, *more: Any) -> None:
    assert key not in done.stdout and key not in done.stderr
    for thing in more:
        assert key not in json.dumps(thing)


# ---- the Mistral mock previews the API only with --gateway ----

@pytest.mark.parametrize("command", ["send", "run"])
def test_the_mistral_mock_behind_gateway_gets_rewritten_ids_and_answers_200(command: str) -> None:
    with running_mock("mistral") as mock:
        fronted = run_cli([command, SHIPPED, "-p", "mistral", "--base-url", mock.base_url, "--gateway", "-f", "json"],
                          env=env("MISTRAL_API_KEY", MISTRAL_KEY))
        replaced = run_cli([command, SHIPPED, "-p", "mistral", "--base-url", mock.base_url, "-f", "json"],
                           env=env("MISTRAL_API_KEY", MISTRAL_KEY))
        records = list(mock.records)
    assert [r["status"] for r in records] == [200, 400]
    assert fronted.returncode == 0, fronted.stderr
    document = json.loads(fronted.stdout)
    request = document["request"] if command == "send" else document["runs"][0]["loops"][0]["steps"][0]["request"]
    ids = sent_ids(request["body"])
    assert len(ids) == 2 and all(MISTRAL_ID.fullmatch(i) for i in ids) and SHIPPED_ID not in ids
    assert ids[0] == ids[1]  # the call and its result still pair
    # without --gateway the ids go as written, and the mock answers what the API answers
    assert replaced.returncode == FAILED
    said = RECORDED_400["message"].replace("toolu_01VpEm654HvfMoRcrE3Hgdc6", SHIPPED_ID)
    assert said in replaced.stdout
    no_key(fronted, MISTRAL_KEY, records)
    no_key(replaced, MISTRAL_KEY)


def test_the_config_key_is_the_flags_equivalent(tmp_path: Path) -> None:
    with running_mock("mistral") as mock:
        text = Path(SHIPPED).read_text(encoding="utf-8").replace(
            "providers:\n", f"providers:\n  mistral: {{base_url: \"{mock.base_url}\", gateway: true}}\n")
        path = tmp_path / "gateway.yaml"
        path.write_text(text, encoding="utf-8")
        done = run_cli(["send", str(path), "-p", "mistral", "-f", "json"], env=env("MISTRAL_API_KEY", MISTRAL_KEY))
        # a --base-url on the command line replaces the file's URL, and the file's word about it: --gateway again
        other = run_cli(["send", str(path), "-p", "mistral", "--base-url", mock.base_url, "-f", "json"],
                        env=env("MISTRAL_API_KEY", MISTRAL_KEY))
        again = run_cli(["send", str(path), "-p", "mistral", "--base-url", mock.base_url, "--gateway", "-f", "json"],
                        env=env("MISTRAL_API_KEY", MISTRAL_KEY))
        statuses = [r["status"] for r in mock.records]
    assert statuses == [200, 400, 200]
    assert done.returncode == 0 and again.returncode == 0 and other.returncode == FAILED
    assert all(MISTRAL_ID.fullmatch(i) for i in sent_ids(json.loads(done.stdout)["request"]["body"]))
    ledger = {e["code"]: e for e in json.loads(done.stdout)["ledger"]}
    assert ledger["history.ids_rewritten"]["severity"] == "info"
    assert "providers.mistral.gateway" in ledger["endpoint.base_url"]["message"]
    no_key(done, MISTRAL_KEY)


def test_a_gateway_key_that_is_not_true_or_false_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("messages:\n  - {role: user, content: hi}\nproviders:\n  mistral:\n    gateway: yes please\n",
                    encoding="utf-8")
    done = run_cli(["render", str(path), "-p", "mistral"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}:5" in done.stderr and "providers.mistral.gateway" in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2


# ---- OpenAI's 129 tools: refused before sending at a gateway, sent with a warning elsewhere ----

def test_129_tools_are_refused_before_sending_with_gateway_and_sent_without(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text("tools:\n" + "".join(f"  - name: t{i}\n" for i in range(129)) + "tool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    with running_mock("openai") as mock:
        fronted = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--gateway", "-f", "json"],
                          env=env("OPENAI_API_KEY", OPENAI_KEY))
        assert mock.records == []  # refused before sending: nothing reached the server
        replaced = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "-f", "json"],
                           env=env("OPENAI_API_KEY", OPENAI_KEY))
        records = list(mock.records)
    assert fronted.returncode == REFUSED
    refused = {e["code"]: e for e in json.loads(fronted.stdout)["ledger"]}["tools.over_limit"]
    assert refused["severity"] == "error" and "Expected an array with maximum length 128" in refused["message"]
    assert [r["status"] for r in records] == [400]  # sent: the mock answers the API's 400
    assert replaced.returncode == FAILED and OPENAI_129 in replaced.stdout
    warned = {e["code"]: e for e in json.loads(replaced.stdout)["ledger"]}["tools.over_limit"]
    assert warned["severity"] == "warning" and "--gateway" in warned["message"]
    no_key(fronted, OPENAI_KEY)
    no_key(replaced, OPENAI_KEY, records)


# ---- render: the body with --gateway is the one without a base URL ----

GATEWAY_URL = "https://llm-gateway.example.internal/v1"
BLANK_AND_PLAN = """\
tools:
  - name: read_file
    parameters: {type: object, properties: {path: {type: string}}}
  - name: f
    strict: true
    parameters: {type: object, properties: {}, additionalProperties: false}
parallel_tool_calls: false
messages:
  - {role: user, content: read a.txt}
  - role: assistant
    content: "  "
    tool_calls: [{id: call_1, name: read_file, arguments: {path: a.txt}}]
  - {role: tool, tool_call_id: call_1, content: "x"}
  - role: assistant
    content: I will read it again.
    tool_calls: [{id: call_2, name: read_file, arguments: {path: a.txt}}]
  - {role: tool, tool_call_id: call_2, content: "x"}
"""


@pytest.mark.parametrize("provider", ["mistral", "anthropic", "bedrock", "cohere", "together", "huggingface", "openai"])
def test_render_with_gateway_gives_the_body_rendered_without_a_base_url(tmp_path: Path, provider: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BLANK_AND_PLAN, encoding="utf-8")

    def body(*extra: str) -> Any:
        done = run_cli(["render", str(path), "-p", provider, "-f", "json", *extra], env={"PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    own, fronted = body(), body("--base-url", GATEWAY_URL, "--gateway")
    replaced = body("--base-url", GATEWAY_URL)
    assert json.dumps(fronted["request"]["body"]) == json.dumps(own["request"]["body"])  # byte for byte
    assert fronted["request"]["url"].startswith(GATEWAY_URL)
    if provider != "openai":  # api.openai.com changes nothing of this history; each of the others does
        assert replaced["request"]["body"] != own["request"]["body"]
    own_codes = [(e["code"], e["severity"]) for e in own["ledger"]]
    fronted_codes = [(e["code"], e["severity"]) for e in fronted["ledger"] if e["code"] != "endpoint.base_url"]
    assert fronted_codes == [c for c in own_codes if c[0] != "region.default"]


def test_what_each_host_changes_is_made_at_a_gateway() -> None:
    """The hosts' rules, from their sources: Mistral's id form (facts mistral.tool_call_id); Anthropic's 400 for a
    blank text block ('text content blocks must be non-empty'); Cohere's text beside calls in tool_plan (vercel/ai
    #5794); Together's row: no strict, no parallel_tool_calls."""
    made = load_scenario_text(BLANK_AND_PLAN, "s.yaml")
    at = RenderOptions(base_url=GATEWAY_URL, gateway=True)
    mistral = translate("mistral", made, at).request.body
    assert all(MISTRAL_ID.fullmatch(i) for i in sent_ids(mistral))
    anthropic = translate("anthropic", made, at).request.body["messages"][1]["content"]
    assert [block["type"] for block in anthropic] == ["tool_use"]  # the blank text beside the call left out
    cohere = translate("cohere", made, at).request.body["messages"][3]
    assert cohere["tool_plan"] == "I will read it again." and "content" not in cohere
    together = translate("together", made, at).request.body
    assert "parallel_tool_calls" not in together and "strict" not in json.dumps(together["tools"])


def test_gateway_without_a_base_url_changes_nothing_and_says_so() -> None:
    made = load_scenario_text(BLANK_AND_PLAN, "s.yaml")
    own = translate("mistral", made, RenderOptions())
    flagged = translate("mistral", made, RenderOptions(gateway=True))
    assert flagged.request.body == own.request.body and flagged.request.url == "https://api.mistral.ai/v1/chat/completions"
    [said] = [e for e in flagged.ledger if e.code == "endpoint.gateway"]
    assert said.severity == "info" and "changes nothing" in said.message
    assert [e for e in flagged.ledger if e.code != "endpoint.gateway"] == list(own.ledger)


def test_strict_still_refuses_at_a_replaced_host_and_gateway_needs_nothing_of_it() -> None:
    made = load_scenario_text(BLANK_AND_PLAN, "s.yaml")
    assert translate("mistral", made, RenderOptions(base_url=GATEWAY_URL, strict=True)).refused
    assert not translate("mistral", made, RenderOptions(base_url=GATEWAY_URL, strict=True, gateway=True)).refused


def test_deepseek_strict_at_a_gateway_keeps_the_gateways_url() -> None:
    """DeepSeek takes strict tools only at https://api.deepseek.com/beta (its function-calling guide); where a
    gateway fronts the API, no source says which of its paths maps there: its URL is kept, with a warning."""
    made = load_scenario_text("tools:\n  - name: f\n    strict: true\n    parameters: {type: object, properties: {}, "
                              "additionalProperties: false}\nmessages:\n  - {role: user, content: hi}\n", "s.yaml")
    t = translate("deepseek", made, RenderOptions(base_url=GATEWAY_URL, gateway=True))
    assert t.request.url == GATEWAY_URL + "/chat/completions"
    [said] = [e for e in t.ledger if e.code == "strict.beta_endpoint"]
    assert said.severity == "warning" and "https://api.deepseek.com/beta" in said.message
    assert t.request.body["tools"][0]["function"]["strict"] is True


def test_probe_source_refusals_follow_gateway() -> None:
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.probe import source_refusals

    made = load_scenario_text("tool_choice: required\nmessages:\n  - {role: user, content: hi}\n", "s.yaml")
    cap, settings = CAPABILITIES["openai"], ProviderSettings()
    replaced = RenderOptions(base_url=GATEWAY_URL)
    assert source_refusals(translate("openai", made, replaced), cap, replaced, settings) == ["tool_choice.without_tools"]
    fronted = RenderOptions(base_url=GATEWAY_URL, gateway=True)
    t = translate("openai", made, fronted)
    assert t.refused and source_refusals(t, cap, fronted, settings) == []


def test_probe_whose_every_question_the_gateway_refuses_says_nothing_was_sent(tmp_path: Path) -> None:
    """Every question refused before sending (129 tools: api.openai.com's 128-tool rule holds at a gateway): the
    title's endpoint was blank ("probe openai ·  · default model"); it says nothing was sent."""
    scenario = tmp_path / "s.yaml"
    tools = "".join(f"  - {{name: t{i}, parameters: {{type: object, properties: {{}}}}}}\n" for i in range(129))
    scenario.write_text(f"tools:\n{tools}messages:\n  - {{role: user, content: hi}}\n", encoding="utf-8")
    done = run_cli(["probe", str(scenario), "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--gateway",
                    "--tool-choice", "required", "--repeat", "1", "--retries", "0"],
                   env={**env("OPENAI_API_KEY", OPENAI_KEY), "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"})
    title = " ".join(done.stdout.split("┏")[0].split())
    assert title.startswith("probe openai · (nothing sent) ·"), done.stdout
    assert "not asked" in done.stdout and OPENAI_KEY not in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["render", "send", "compare", "probe", "run", "parse"])
def test_every_command_with_base_url_takes_gateway(command: str) -> None:
    done = run_cli([command, "--help"], env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert "--base-url" in done.stdout and "--gateway" in done.stdout


def test_parse_gateway_needs_a_scenario(tmp_path: Path) -> None:
    reply = tmp_path / "r.json"
    reply.write_text("{}", encoding="utf-8")
    done = run_cli(["parse", str(reply), "-p", "openai", "--gateway"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "--gateway needs --scenario" in done.stderr


def test_python_callers_get_a_named_error_for_a_gateway_that_is_not_a_bool() -> None:
    from toolchoice.providers.core import jobs

    made = load_scenario_text("messages:\n  - {role: user, content: hi}\n", "s.yaml")
    with pytest.raises(TypeError, match="options.gateway"):
        jobs.translations(made, ["openai"], RenderOptions(gateway="yes"))  # type: ignore[arg-type]


# ---- hosts a source names as the API's own (not replaced: no --gateway needed) ----

@pytest.mark.parametrize("provider, base_url", [
    # cohere 7.3.1 client.py fix_base_url: 'if "cohere.com" in base_url or "cohere.ai" in base_url'
    ("cohere", "https://api.cohere.ai"),
    # botocore 1.44.8 bedrock-runtime endpoint rule set: bedrock-runtime-fips.{Region}.{dnsSuffix} and the
    # dual-stack {dualStackDnsSuffix} forms (aws: amazonaws.com, api.aws)
    ("bedrock", "https://bedrock-runtime-fips.us-east-1.amazonaws.com"),
    ("bedrock", "https://bedrock-runtime.eu-west-1.api.aws"),
    ("bedrock", "https://bedrock-runtime-fips.us-gov-west-1.api.aws"),
    # AWS PrivateLink: vpce-<endpoint id>.<service>.<region>.vpce.amazonaws.com, regional and zonal
    ("bedrock", "https://vpce-0fe5b17a0707d6abc-29p5708s.bedrock-runtime.us-east-1.vpce.amazonaws.com"),
    ("bedrock", "https://vpce-0fe5b17a0707d6abc-29p5708s-us-east-1a.bedrock-runtime.us-east-1.vpce.amazonaws.com"),
])
def test_a_sourced_own_host_keeps_the_hosts_rules(provider: str, base_url: str) -> None:
    made = load_scenario_text(BLANK_AND_PLAN, "s.yaml")
    t = translate(provider, made, RenderOptions(base_url=base_url))
    code = "history.text_as_tool_plan" if provider == "cohere" else "history.blank_text_dropped"
    assert {e.severity for e in t.ledger if e.code == code} == {"info"}
    assert t.request.body == translate(provider, made, RenderOptions()).request.body


@pytest.mark.parametrize("provider, base_url", [
    ("cohere", "https://api.cohere.ai.example.org"),
    ("bedrock", "https://bedrock-runtime-fips.us-east-1.amazonaws.com.example.org"),
    ("bedrock", "https://x.bedrock-runtime.us-east-1.vpce.amazonaws.com"),  # not a vpce- endpoint id
    ("huggingface", "https://api-inference.huggingface.co/v1"),  # no source says it serves the router's chat API
])
def test_a_host_that_only_looks_like_one_is_replaced(provider: str, base_url: str) -> None:
    made = load_scenario_text(BLANK_AND_PLAN, "s.yaml")
    t = translate(provider, made, RenderOptions(base_url=base_url))
    warned = [e for e in t.ledger if e.severity == "warning" and "--gateway" in e.message]
    assert warned, [(e.code, e.severity) for e in t.ledger]


def test_doctor_lists_a_base_url_that_fronts_the_host(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("messages:\n  - {role: user, content: hi}\nproviders:\n"
                    "  mistral: {base_url: \"http://127.0.0.1:8080/v1\", gateway: true}\n"
                    "  openai: {base_url: \"http://127.0.0.1:8081/v1\"}\n", encoding="utf-8")
    done = run_cli(["doctor", str(path), "-f", "json"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["base_url_overrides"] == [
        {"provider": "mistral", "base_url": "http://127.0.0.1:8080/v1", "gateway": True},
        {"provider": "openai", "base_url": "http://127.0.0.1:8081/v1", "gateway": False}]
    pretty = run_cli(["doctor", str(path)], env={"PATH": "/usr/bin:/bin"}).stdout
    assert "http://127.0.0.1:8080/v1 (gateway" in pretty and "8081/v1 (gateway" not in pretty


@pytest.mark.parametrize("gateway", [True, False])
def test_azure_without_its_resource_names_the_setting_it_stands_for(gateway: bool) -> None:
    """Azure's own URL is https://{your-resource-name}.openai.azure.com/openai/deployments/... (Azure's REST
    reference); without providers.azure.endpoint the line named only the path ("replaces /openai/deployments/X")."""
    made = load_scenario_text((ROOT / "configs" / "weather.yaml").read_text(), "weather.yaml")
    at = RenderOptions(base_url=GATEWAY_URL, gateway=gateway)
    [line] = [e.message for e in translate("azure", made, at).ledger if e.code == "endpoint.base_url"]
    assert "providers.azure.endpoint + /openai/deployments/" in line, line
    assert ("stands in front of" in line) is gateway and " /openai/" not in line.split("+")[0]
