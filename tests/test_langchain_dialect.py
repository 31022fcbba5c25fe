"""`--dialect langchain` held to what LangChain's own code sent or raised, recorded offline with the
partner packages (tests/data/langchain/, SOURCES.md there; recorder: tests/dialect/record_langchain.py).
Every recorded case (11 wrappers, two more Bedrock model ids, ChatAnthropic with thinking, three Bedrock Claude
models with thinking and Bedrock DeepSeek V3 with each reasoning_effort; 9 tool_choice spellings, 1 and 2 tools,
parallel_tool_calls unset/false/true; and
bind_tools(strict=True/False) on {name, description, parameters} dicts, a nested tool among them) is rendered by
toolchoice and compared field by field."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from urllib.parse import urlsplit

import pytest

from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario
from toolchoice.providers.langchain_dialect import VERSIONS, WRAPPERS, apply
from toolchoice.providers.langchain_rules import bedrock_choice_support

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests/data/langchain"
SCENARIO = ROOT / "tests/dialect/weather.yaml"
# a recording of a wrapper built with settings beyond the model: the scenario that carries them
SCENARIOS = {"ChatAnthropic-thinking": ROOT / "tests/dialect/weather-thinking.yaml",
             **{f"ChatBedrockConverse-{v}": ROOT / f"tests/dialect/weather-bedrock-{v}.yaml"
                for v in ("thinking", "adaptive", "opus-4-8-adaptive", "deepseek-v3-reasoning-effort-high",
                          *(f"deepseek-v3-effort-{e}" for e in ("none", "low", "medium", "high")))}}
NESTED = ROOT / "tests/dialect/nested.yaml"  # the recorder's nested tool, bound with strict=True
RECORDINGS = {path.stem: json.loads(path.read_text()) for path in sorted(DATA.glob("*.json"))}
# the body fields each wire family carries tools, tool_choice and parallel_tool_calls in
# (ChatMistralAI puts bind_tools(strict=...) at the top level; Bedrock's thinking rides additionalModelRequestFields)
FIELDS = {"openai": ("tools", "tool_choice", "parallel_tool_calls", "strict"), "anthropic": ("tools", "tool_choice"),
          "gemini": ("tools", "toolConfig"), "bedrock": ("toolConfig", "additionalModelRequestFields"),
          "ollama": ("tools", "tool_choice")}


def described(case: dict[str, Any]) -> bool:
    """The dialect describes bind_tools(strict=...) with the tools as {name, description, parameters} dicts; the
    recorder also passed strict with OpenAI-format dicts, which langchain-core leaves unchanged (held below)."""
    return "strict" not in case or case.get("tool_spelling") == "function"


def cases() -> list[Any]:
    out = []
    for stem, recording in RECORDINGS.items():
        for case in filter(described, recording["cases"]):
            if case.get("tool_set") == "nested" and stem in SCENARIOS:
                continue  # the nested tool is declared with the plain settings only (nested.yaml)
            choice, parallel = json.dumps(case["tool_choice"]), case["parallel_tool_calls"]
            label = f"{stem}-{case['tools']}tools-{choice}-parallel={parallel}" + (
                f"-{case.get('tool_spelling', 'openai')}-strict={case['strict']}" if "strict" in case else "") + (
                "-nested" if case.get("tool_set") == "nested" else "")
            out.append(pytest.param(stem, case, id=label))
    return out


@functools.cache
def _base(path: Path = SCENARIO) -> Any:
    """The scenario, read once for all the cases (each takes a copy with its own tools and settings)."""
    return load_scenario(path)


def render(provider: str, model: str, case: dict[str, Any], path: Path = SCENARIO):
    base = _base(path)
    scenario = base._replace(tools=base.tools[:case["tools"]], parallel_tool_calls=case["parallel_tool_calls"],
                             strict=case.get("strict"))
    names = scenario.tool_names
    scenario = scenario._replace(tool_choice=parse_tool_choice(case["tool_choice"], names))
    api = translate(provider, scenario, RenderOptions(model=model))
    return apply(api, scenario)


@pytest.mark.parametrize("stem, case", cases())
def test_dialect_matches_what_langchain_sent_or_raised(stem: str, case: dict[str, Any]) -> None:
    recording = RECORDINGS[stem]
    path = NESTED if case.get("tool_set") == "nested" else SCENARIOS.get(stem, SCENARIO)
    view = render(recording["provider"], recording["model"], case, path)
    codes = [e.code for e in view.translation.ledger]
    for warned in case.get("warnings", []):  # what the wrapper warns is said in the ledger
        assert any(warned in e.message for e in view.translation.ledger if e.code.startswith("dialect.")), warned
    if case["outcome"] == "refused":
        assert view.translation.request is None
        refusals = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert len(refusals) == 1
        assert refusals[0].endswith(" ".join(case["error"].split()))
        assert f"raises in {case['step']}" in refusals[0]
        return
    assert case["outcome"] == "sent"
    assert "dialect.refused" not in codes
    body = view.translation.request.body
    family = {"openai-responses": "openai", "groq": "openai", "mistral": "openai", "fireworks": "openai",
              "deepseek": "openai", "huggingface": "openai"}.get(recording["provider"], recording["provider"])
    for field in FIELDS[family]:
        assert body.get(field) == case["body"].get(field), field


def test_the_request_goes_where_the_wrapper_sent_it() -> None:
    """The URL of every recorded send (its query left out by the recorder), at the providers' default endpoints:
    ChatGoogleGenerativeAI posts to the Gemini API's v1 with google-genai 3.x, ChatDeepSeek to /v1, ChatOllama
    to 127.0.0.1 (tests/data/langchain/SOURCES.md)."""
    for stem, recording in RECORDINGS.items():
        for case in filter(described, recording["cases"]):
            if case["outcome"] == "sent" and case.get("tool_set") != "nested":
                view = render(recording["provider"], recording["model"], case, SCENARIOS.get(stem, SCENARIO))
                if "endpoint_url" in recording:  # sent to a stand-in on 127.0.0.1 (botocore's endpoint_url)
                    assert urlsplit(view.translation.request.url).path == urlsplit(case["url"]).path, stem
                    continue
                assert view.translation.request.url == case["url"], stem
                api_url = view.api.request.url if view.api.request else None  # None: toolchoice refuses it
                assert api_url != case["url"] or not [
                    e for e in view.translation.ledger if e.message.startswith("url:")], stem


def test_a_url_the_user_chose_is_kept_and_a_new_gemini_version_is_a_warning() -> None:
    base = _base()
    case = {"tools": 2, "tool_choice": "auto", "parallel_tool_calls": None}
    view = render("gemini", "gemini-2.5-flash", case)
    urls = [e for e in view.translation.ledger if e.code == "dialect.differs" and e.message.startswith("url:")]
    assert [e.severity for e in urls] == ["warning"] and "google-genai" in urls[0].message
    scenario = base._replace(tool_choice=parse_tool_choice("auto", base.tool_names))
    api = translate("gemini", scenario, RenderOptions(model="gemini-2.5-flash", base_url="https://proxy.example"))
    view = apply(api, scenario)
    assert api.request.url == "https://proxy.example/v1beta/models/gemini-2.5-flash:generateContent"
    assert view.translation.request.url == api.request.url
    assert not [e for e in view.translation.ledger if e.message.startswith("url:")]


def test_chat_anthropic_with_thinking_drops_a_forced_choice_the_api_refuses() -> None:
    """toolchoice refuses tool_choice get_weather with thinking on (Anthropic answers an error); ChatAnthropic
    warns and sends the request without it (ChatAnthropic-thinking.json), and --dialect langchain shows that."""
    result = run("render", str(SCENARIOS["ChatAnthropic-thinking"]), "-p", "anthropic", "--tool-choice",
                 "get_weather", "--dialect", "langchain", "-f", "json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["api"]["request"] is None and view["effective_tool_choice"] is None
    assert view["requested_tool_choice"] == {"tool": "get_weather"}
    body = view["request"]["body"]
    assert "tool_choice" not in body and body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["model"] == "claude-sonnet-4-5" and body["max_tokens"] == 4096
    codes = {e["code"]: e for e in view["ledger"]}
    assert "Dropping tool_choice to avoid an API error" in codes["dialect.warns"]["message"]
    assert "thinking.forced_choice" in codes and "dialect.api_refused" not in codes


def test_strict_on_openai_format_dicts_does_not_reach_the_declarations() -> None:
    """Why the dialect describes bind_tools(strict=...) on {name, description, parameters} dicts: with the
    OpenAI-format dicts every wrapper sent the tools as without strict (langchain-core's convert_to_openai_tool
    returns a {type: function} dict as is); ChatMistralAI still sends strict at the top level, and ChatHuggingFace
    raises as it does for the function dicts."""
    for stem, recording in RECORDINGS.items():
        plain = {json.dumps(c["tool_choice"]): c for c in recording["cases"]
                 if c["tools"] == 2 and c["parallel_tool_calls"] is None and "strict" not in c
                 and "tool_spelling" not in c}
        function = {(json.dumps(c["tool_choice"]), c.get("strict")): c for c in recording["cases"]
                    if c.get("tool_spelling") == "function" and "tool_set" not in c}
        for case in (c for c in recording["cases"] if "strict" in c and not described(c)):
            choice = json.dumps(case["tool_choice"])
            if recording["wrapper"] in ("ChatMistralAI", "ChatHuggingFace"):
                assert {k: v for k, v in case.items() if k != "tool_spelling"} == {
                    k: v for k, v in function[choice, case["strict"]].items() if k != "tool_spelling"}, stem
                continue
            # (ChatDeepSeek's strict=True still moves to the beta endpoint: the URL is not about the declarations)
            assert {k: v for k, v in case.items() if k not in ("strict", "url")} == {
                k: v for k, v in plain[choice].items() if k != "url"}, (stem, choice)


def test_chat_bedrock_converse_with_thinking_downgrades_a_forcing_choice_to_auto() -> None:
    """ChatBedrockConverse-thinking.json: Claude Sonnet 4.5 with thinking enabled; toolchoice refuses `any` (Bedrock
    answers 'Thinking may not be enabled when tool_choice forces tool use.'); the wrapper warns and sends auto."""
    result = run("render", str(SCENARIOS["ChatBedrockConverse-thinking"]), "-p", "bedrock", "--tool-choice", "any",
                 "--dialect", "langchain", "-f", "json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["api"]["request"] is None
    assert view["request"]["body"]["toolConfig"]["toolChoice"] == {"auto": {}}
    assert view["request"]["body"]["additionalModelRequestFields"] == {"thinking": {"type": "enabled",
                                                                                    "budget_tokens": 2048}}
    codes = {e["code"]: e for e in view["ledger"]}
    assert "tool_choice='any' is not supported when thinking is enabled. Downgrading to tool_choice='auto'." in \
        codes["dialect.warns"]["message"]
    assert "thinking.forced_choice" in codes and "dialect.api_refused" not in codes


def test_deepseek_v3_reasoning_effort_on_bedrock_is_thinking_only_above_medium() -> None:
    """ChatBedrockConverse-deepseek-v3-effort-*.json: reasoning_effort in additional_model_request_fields is sent as
    written, and only `high` (above medium) makes the wrapper downgrade a forcing choice to auto; the constructor's
    reasoning_effort field is warned about and dropped (-reasoning-effort-high.json), so `any` goes out as any."""
    def sent(stem: str, choice: str) -> dict[str, Any]:
        return next(c for c in RECORDINGS[stem]["cases"] if c["tool_choice"] == choice and c["tools"] == 2
                    and c["parallel_tool_calls"] is None and "strict" not in c)
    for effort in ("none", "low", "medium", "high"):
        stem = f"ChatBedrockConverse-deepseek-v3-effort-{effort}"
        result = run("render", str(SCENARIOS[stem]), "-p", "bedrock", "--tool-choice", "any", "--dialect", "langchain",
                     "-f", "json")
        assert result.returncode == 0, result.stderr
        view = json.loads(result.stdout)
        recorded = sent(stem, "any")["body"]
        assert view["request"]["body"]["toolConfig"]["toolChoice"] == recorded["toolConfig"]["toolChoice"]
        assert view["request"]["body"]["additionalModelRequestFields"] == {"reasoning_effort": effort}
        warns = [e["message"] for e in view["ledger"] if e["code"] == "dialect.warns"]
        assert len(warns) == (effort == "high"), effort
    assert recorded["toolConfig"]["toolChoice"] == {"auto": {}}
    ignored = RECORDINGS["ChatBedrockConverse-deepseek-v3-reasoning-effort-high"]
    assert ignored["constructor_warnings"] == [
        "reasoning_effort is not supported for model deepseek.v3-v1:0; ignoring."]
    tools = sent("ChatBedrockConverse-deepseek-v3-effort-none", "any")["body"]["toolConfig"]["tools"]
    assert sent("ChatBedrockConverse-deepseek-v3-reasoning-effort-high", "any")["body"] == {
        "toolConfig": {"tools": tools, "toolChoice": {"any": {}}}}


def test_bedrock_deepseek_with_thinking_takes_auto_only_whatever_its_version() -> None:
    """langchain-aws 1.9.1 ChatBedrockConverse.validate_environment: `elif "deepseek" in base_model and "r1-v1" not in
    base_model: if thinking_enabled_in_params(...): ("auto",) else ("auto", "any")`, and thinking_enabled_in_params
    reads thinking.type for an id without deepseek.v3 (not recorded: no such id in its model profiles)."""
    assert bedrock_choice_support("us.deepseek.v4-v1:0", {"thinking": {"type": "enabled"}}) == ("auto",)
    assert bedrock_choice_support("us.deepseek.v4-v1:0", {}) == ("auto", "any")
    assert bedrock_choice_support("us.deepseek.v4-v1:0", {"reasoning_effort": "high"}) == ("auto", "any")
    assert bedrock_choice_support("deepseek.r1-v1:0", {"thinking": {"type": "enabled"}}) == ()


def test_strict_true_on_the_command_line_shows_each_wrappers_spelling(tmp_path: Path) -> None:
    """A scenario with strict: true: ChatOpenAI sends function.strict with LangChain's strict schema, ChatGroq
    leaves strict out, ChatMistralAI puts it at the top level, ChatDeepSeek moves to /beta (the recordings)."""
    text = SCENARIO.read_text().replace("tool_choice: auto", "tool_choice: auto\nstrict: true")
    path = tmp_path / "strict-weather.yaml"
    path.write_text(text)
    result = run("render", str(path), "-p", "openai,groq,mistral,deepseek", "--dialect", "langchain", "-f", "json")
    views = {v["provider"]: v for v in json.loads(result.stdout)}
    expected = {stem: next(c for c in RECORDINGS[stem]["cases"] if c.get("tool_spelling") == "function"
                           and c["strict"] is True and c["tool_choice"] == "auto")
                for stem in ("ChatOpenAI", "ChatGroq", "ChatMistralAI", "ChatDeepSeek")}
    for stem, case in expected.items():
        view = views[RECORDINGS[stem]["provider"]]
        assert view["bind_tools"].endswith("strict=True)"), stem
        for field in FIELDS["openai"]:
            assert view["request"]["body"].get(field) == case["body"].get(field), (stem, field)
        assert view["request"]["url"] == case["url"], stem
    assert views["openai"]["api"]["request"] is None  # toolchoice refuses the schema as strict (unit is optional)
    assert any(e["code"] == "dialect.differs" and "leaves strict out" in e["message"] for e in views["groq"]["ledger"])


def test_tools_that_differ_in_strict_have_no_bind_tools_spelling(tmp_path: Path) -> None:
    """bind_tools(strict=...) applies to every tool: one strict tool beside a plain one keeps the API request."""
    text = SCENARIO.read_text().replace("  - name: get_time\n", "  - name: get_time\n    strict: true\n")
    path = tmp_path / "mixed.yaml"
    path.write_text(text)
    result = run("render", str(path), "-p", "anthropic", "--dialect", "langchain", "-f", "json")
    view = json.loads(result.stdout)[0] if result.stdout.startswith("[") else json.loads(result.stdout)
    assert view["request"] is not None and view["request"] == view["api"]["request"] and view["bind_tools"] is None
    [entry] = [e for e in view["ledger"] if e["code"] == "dialect.no_spelling"]
    assert entry["severity"] == "warning" and "differ in strict" in entry["message"]


def test_every_wrapper_the_issue_names_is_recorded_and_described() -> None:
    recorded = {(r["wrapper"], r["provider"]) for r in RECORDINGS.values()}
    assert {p for _, p in recorded} == set(WRAPPERS)
    assert {w for w, _ in recorded} >= {"ChatOpenAI", "ChatAnthropic", "ChatGroq", "ChatMistralAI", "ChatFireworks",
                                       "ChatOllama", "ChatHuggingFace", "ChatGoogleGenerativeAI", "ChatDeepSeek",
                                       "ChatBedrockConverse"}
    assert any(r["use_responses_api"] for r in RECORDINGS.values())


def test_the_versions_the_module_describes_are_the_recorded_ones() -> None:
    for recording in RECORDINGS.values():
        for distribution, version in recording["versions"].items():
            assert VERSIONS[distribution] == version, distribution


# ---- the command line: `render` and `compare` with --dialect -----------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402

from cli import run_cli  # noqa: E402

CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
FAMILY_FIELDS = {"openai": FIELDS["openai"], "openai-responses": FIELDS["openai"], "groq": FIELDS["openai"],
                 "mistral": FIELDS["openai"], "fireworks": FIELDS["openai"], "deepseek": FIELDS["openai"],
                 "huggingface": FIELDS["openai"], "anthropic": FIELDS["anthropic"], "gemini": FIELDS["gemini"],
                 "bedrock": FIELDS["bedrock"], "ollama": FIELDS["ollama"]}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(args)


@pytest.mark.parametrize("choice", ["auto", "none", "any", "required", True, False, None, "get_weather",
                                    {"type": "function", "function": {"name": "get_weather"}}],
                         ids=lambda c: json.dumps(c))
def test_render_dialect_langchain_on_the_command_line_matches_the_recordings(choice: Any) -> None:
    """Two tools, parallel unset, every wrapper the scenario lists: `render --dialect langchain -f json`."""
    cli_value = json.dumps(choice) if not isinstance(choice, str) else choice
    result = run("render", str(SCENARIO), "--tool-choice", cli_value, "--dialect", "langchain", "-f", "json")
    views = {v["provider"]: v for v in json.loads(result.stdout)}
    assert set(views) == set(WRAPPERS)
    refused = False
    for stem, recording in RECORDINGS.items():
        if stem.startswith("ChatBedrockConverse-") or stem in SCENARIOS:
            continue  # other model ids and settings: covered in-process above
        case = next(c for c in recording["cases"] if c["tools"] == 2 and c["parallel_tool_calls"] is None
                    and c["tool_choice"] == choice and "strict" not in c and "tool_spelling" not in c)
        view = views[recording["provider"]]
        assert view["dialect"] == "langchain" and view["wrapper"].startswith(recording["wrapper"])
        if case["outcome"] == "refused":
            refused = True
            assert view["request"] is None
            assert any(e["code"] == "dialect.refused" and e["message"].endswith(" ".join(case["error"].split()))
                       for e in view["ledger"])
        else:
            body = view["request"]["body"]
            for field in FAMILY_FIELDS[recording["provider"]]:
                assert body.get(field) == case["body"].get(field), (stem, field)
        assert view["api"]["request"] is not None  # the API-correct request is shown beside it
    assert result.returncode == (3 if refused else 0), result.stderr


def test_each_difference_from_the_api_request_is_a_ledger_entry() -> None:
    result = run("render", str(SCENARIO), "-p", "anthropic", "--tool-choice", "none", "--dialect", "langchain",
                 "-f", "json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["request"]["body"]["tool_choice"] == {"type": "tool", "name": "none"}  # the recording's
    assert view["api"]["request"]["body"]["tool_choice"] == {"type": "none"}  # Anthropic's ToolChoiceNone
    differs = [e for e in view["ledger"] if e["code"] == "dialect.differs"]
    assert len(differs) == 1 and differs[0]["severity"] == "warning"
    assert '{"type":"tool","name":"none"}' in differs[0]["message"] and '{"type":"none"}' in differs[0]["message"]
    assert view["bind_tools"] == "ChatAnthropic.bind_tools(tools, tool_choice='none')"


def test_where_langchain_agrees_with_the_api_no_difference_is_reported() -> None:
    result = run("render", str(SCENARIO), "-p", "openai", "--tool-choice", "get_weather", "--dialect", "langchain",
                 "-f", "json")
    view = json.loads(result.stdout)
    assert view["request"] == view["api"]["request"]
    assert "dialect.differs" not in [e["code"] for e in view["ledger"]]


def test_a_provider_without_a_described_wrapper_keeps_the_api_request() -> None:
    result = run("render", str(SCENARIO), "-p", "azure", "--dialect", "langchain", "-f", "json")
    view = json.loads(result.stdout)
    assert view["wrapper"] is None and view["request"] == view["api"]["request"]
    assert "dialect.no_wrapper" in [e["code"] for e in view["ledger"]]


def test_an_allowed_subset_has_no_langchain_spelling() -> None:
    result = run("render", str(ROOT / "configs/allowed-subset.yaml"), "-p", "openai", "--dialect", "langchain",
                 "-f", "json")
    view = json.loads(result.stdout)
    assert view["request"] == view["api"]["request"]
    assert [e["severity"] for e in view["ledger"] if e["code"] == "dialect.no_spelling"] == ["warning"]


def test_curl_and_pretty_show_the_langchain_request_and_the_refusal() -> None:
    curl = run("render", str(SCENARIO), "-p", "huggingface,groq", "--tool-choice", "true", "--dialect", "langchain",
               "-f", "curl")
    assert curl.returncode == 3
    assert "# huggingface: refused: ChatHuggingFace raises in bind_tools" in curl.stdout
    assert "# groq: refused: ChatGroq raises in bind_tools, nothing is sent: ValueError: tool_choice can only be " \
           "True when there is one tool. Received 2 tools." in curl.stdout
    pretty = run("render", str(SCENARIO), "-p", "fireworks", "--tool-choice", "required", "--dialect", "langchain")
    assert pretty.returncode == 0, pretty.stderr
    assert "LangChain ChatFireworks" in pretty.stdout and "dialect.differs" in pretty.stdout


@pytest.mark.parametrize("fmt", ["json", "curl"])
def test_dialect_api_is_byte_identical_to_no_dialect(fmt: str) -> None:
    for config in CONFIGS:
        plain = run("render", str(config), "-p", "all", "-f", fmt)
        api = run("render", str(config), "-p", "all", "-f", fmt, "--dialect", "api")
        assert (api.stdout, api.stderr, api.returncode) == (plain.stdout, plain.stderr, plain.returncode), config.name
    plain = run("compare", str(CONFIGS[0]), "-f", "markdown")
    assert run("compare", str(CONFIGS[0]), "-f", "markdown", "--dialect", "api").stdout == plain.stdout


def test_compare_dialect_langchain_json_markdown_and_no_send() -> None:
    data = run("compare", str(SCENARIO), "--tool-choice", "any", "--dialect", "langchain", "-f", "json")
    assert data.returncode == 3  # ChatHuggingFace refuses tool_choice with two tools
    document = json.loads(data.stdout)
    assert document["dialect"] == "langchain" and len(document["providers"]) == len(WRAPPERS)
    by_provider = {p["provider"]: p for p in document["providers"]}
    assert by_provider["openai"]["request"]["body"]["tool_choice"] == "required"  # ChatOpenAI maps any
    assert by_provider["huggingface"]["request"] is None
    table = run("compare", str(SCENARIO), "--tool-choice", "any", "--dialect", "langchain", "-f", "markdown")
    header = table.stdout.splitlines()[0]
    assert "langchain wrapper" in header and "API tool_choice" in header
    assert "| ChatFireworks |" in table.stdout
    sent = run("compare", str(SCENARIO), "--dialect", "langchain", "--send")
    assert sent.returncode == 2 and sent.stdout == ""
    assert len(sent.stderr.strip().splitlines()) == 1 and "dry run" in sent.stderr


def test_bad_dialect_is_one_line_and_exit_2() -> None:
    result = run("render", str(SCENARIO), "--dialect", "langgraph")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


IMPORTS = """
import atexit, sys
sys.argv = ["toolchoice"] + sys.argv[1:]
from toolchoice.cli.app import main


def loaded():  # at exit: main ends the process itself (app._exit_now), running the atexit handlers first
    print("DIALECT_LOADED" if "toolchoice.providers.langchain_dialect" in sys.modules else "DIALECT_NOT_LOADED")
    print("HTTPX_LOADED" if "httpx" in sys.modules else "HTTPX_NOT_LOADED")


atexit.register(loaded)
main()
"""


def test_the_dialect_module_is_imported_only_with_dialect_langchain_and_never_httpx() -> None:
    def imports(*args: str) -> str:
        result = subprocess.run([sys.executable, "-c", IMPORTS, "render", str(SCENARIO), "-f", "json", *args],
                                capture_output=True, text=True, timeout=120)
        return result.stdout

    assert "DIALECT_NOT_LOADED" in imports()
    assert "DIALECT_NOT_LOADED" in imports("--dialect", "api")
    out = imports("--dialect", "langchain")
    assert "DIALECT_LOADED" in out and "HTTPX_NOT_LOADED" in out
