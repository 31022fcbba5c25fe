"""Adversarial round on the code landed in session 17 (trial17k): `trace FILE.har` given hostile archives, the key
rules, `send -f markdown`, dialects' extra choice, the verdict's parallel setting from extra, api_version refusals,
the mock's new refusals and loop.cannot_end's suggested edits. Each test failed before its fix. The truth is outside
the code under test: HTTP's own spellings of a credential (RFC 3986's userinfo, RFC 7617's Basic scheme, built here
with urllib and base64), the HAR 1.2 fields as a proxy writes them; the commands run in-process (tests/cli.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from cli import run_cli

# made of pieces, as the other key tests' are: a gateway's key of no known shape (known as a key only by where it is
# sent), and a Langfuse-style public:secret pair
PLAIN = "gw-" + "plain-7e6d5c4b3a29180f"
USER = "pk-" + "gateway-team-4"

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}]
BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}], "tools": TOOLS,
        "tool_choice": "required"}
# a gateway's 401 quoting the key it was given back (as OpenAI's "Incorrect API key provided: ..." does)
ECHO = json.dumps({"error": {"message": f"Incorrect API key provided: {PLAIN}", "type": "invalid_request_error"}})


def _entry(url: str, method: str = "POST", headers: list[dict[str, str]] | None = None, status: int = 401,
           answer: str = ECHO) -> dict[str, Any]:
    """One HAR 1.2 entry (``request`` {method, url, cookies, headers, queryString, postData}, ``response``
    {status, content {mimeType, text}}), as a debugging proxy saves it."""
    return {"startedDateTime": "2026-11-27T21:00:00.000Z", "time": 1,
            "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                        "headers": headers or [], "queryString": [], "headersSize": -1, "bodySize": -1,
                        **({"postData": {"mimeType": "application/json", "text": json.dumps(BODY)}}
                           if method == "POST" else {})},
            "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": -1, "mimeType": "application/json", "text": answer},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


def _har(tmp_path: Path, *entries: dict[str, Any]) -> Path:
    path = tmp_path / "session.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                                        "entries": list(entries)}}), encoding="utf-8")
    return path


def _shown(path: Path) -> str:
    said = []
    for args in ([], ["-f", "json"]):
        result = run_cli(["trace", str(path), *args])
        assert result.returncode == 0, result.stderr
        said.append(result.stdout + result.stderr)
    return "\n".join(said)


# ---- trace FILE.har: credentials spelled where HTTP puts them ------------------------------------------------------

def test_a_key_in_the_urls_userinfo_is_never_shown(tmp_path: Path) -> None:
    """RFC 3986 3.2.1: ``user:password@host`` (deprecated, still sent by clients given such a base URL); the
    password, as written (percent-encoded) and as read, is a credential: the gateway's 401 quoting it shows none."""
    for written in (PLAIN, quote(PLAIN + "/", safe="")):
        path = _har(tmp_path, _entry(f"https://{USER}:{written}@api.openai.com/v1/chat/completions"))
        shown = _shown(path)
        assert "HTTP 401" in shown and "Incorrect API key provided" in shown, shown
        assert PLAIN not in shown and PLAIN[-12:] not in shown, shown


def test_a_key_in_a_basic_authorization_is_never_shown(tmp_path: Path) -> None:
    """RFC 7617: ``Authorization: Basic base64(user-id ":" password)`` (Langfuse's public:secret key pair, a
    gateway's); what it decodes to is a credential, not only the base64."""
    basic = base64.b64encode(f"{USER}:{PLAIN}".encode()).decode()
    path = _har(tmp_path, _entry("https://api.openai.com/v1/chat/completions",
                                 headers=[{"name": "Authorization", "value": f"Basic {basic}"}]))
    shown = _shown(path)
    assert "HTTP 401" in shown and "Incorrect API key provided" in shown, shown
    assert PLAIN not in shown and PLAIN[-12:] not in shown, shown


def test_a_key_in_the_path_of_an_entry_that_is_no_provider_call_is_never_shown(tmp_path: Path) -> None:
    """An entry at an API's host that is no provider call is said with its path (GET api.openai.com/v1/...): the
    credentials its own headers hold are left out of it as the calls' are."""
    path = _har(tmp_path, _entry("https://api.openai.com/v1/chat/completions", status=200, answer="{}"),
                _entry(f"https://api.openai.com/v1/files/{PLAIN}", method="GET",
                       headers=[{"name": "Authorization", "value": f"Bearer {PLAIN}"}]))
    shown = _shown(path)
    assert "har.other_entries" in shown and "GET api.openai.com/v1/files/" in shown, shown
    assert PLAIN not in shown and PLAIN[-12:] not in shown, shown


@pytest.mark.parametrize("text", ["line \u2028 separated", "next\x85line", "csi \x9b2J and del \x7f", "para\u2029 end"])
def test_a_body_whose_text_yaml_reads_as_a_break_or_refuses_is_the_scenario_as_sent(tmp_path: Path,
                                                                                      text: str) -> None:
    """Valid JSON may hold any character but the C0 controls raw (RFC 8259 7); YAML reads NEL, LS and PS as line
    breaks (folded in a quoted scalar) and refuses C1 controls and DEL. A body holding them is read as sent: no
    refusal calling the JSON invalid, no "differs" note, and the scenario written holds the text as Python's JSON
    reader reads the body."""
    import yaml

    body = {**BODY, "messages": [{"role": "user", "content": text}]}
    assert json.loads(json.dumps(body, ensure_ascii=False))["messages"][0]["content"] == text  # the truth
    entry = _entry("https://api.openai.com/v1/chat/completions", status=200, answer="{}")
    entry["request"]["postData"]["text"] = json.dumps(body, ensure_ascii=False)
    path, out = _har(tmp_path, entry), tmp_path / "scenario.yaml"
    result = run_cli(["trace", str(path)])
    assert result.returncode == 0, result.stderr
    assert "saved.differs" not in result.stdout + result.stderr, result.stdout
    assert run_cli(["trace", str(path), "--scenario-out", str(out)]).returncode == 0
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["messages"][0]["content"] == text


LOOP_BASE = """tools:
  - name: search
    parameters: {type: object}
tool_choice: auto
messages:
  - {role: user, content: hi}
"""


# ---- loop lint: every edit it gives is YAML that reads as the tool's name -----------------------------------------

@pytest.mark.parametrize("name", ["on", "no", "null", "123", "true", "a: b", "x, y"])
def test_the_results_edit_for_any_tool_name_reads_as_that_name(name: str) -> None:
    """A tool named on, no, null or 123 (each a valid function name, ^[a-zA-Z0-9_-]+$) is offered with no result:
    the edit the lint gives, ``add loop: {results: {NAME: RESULT}}``, written into the scenario as it says, is a
    mapping whose key is that name to a YAML reader (PyYAML, YAML 1.1 reads on/no as booleans) and lets the scenario
    load with the tool's result given."""
    import yaml

    from toolchoice.providers.core import loop_lint
    from toolchoice.providers.core.scenario import load_scenario_text

    written = LOOP_BASE.replace("name: search", f"name: {json.dumps(name)}")
    [found] = loop_lint.no_results(load_scenario_text(written), None)
    edit = found.message.rsplit("; ", 1)[-1]
    assert edit.startswith("add loop: ") and edit.endswith(" to the scenario"), edit
    fragment = edit.removeprefix("add ").removesuffix(" to the scenario")
    assert list(yaml.safe_load(fragment)["loop"]["results"]) == [name], fragment
    assert loop_lint.no_results(load_scenario_text(written + fragment + "\n"), None) == []


# ---- the mock: a named-function object whose type is not "function" -----------------------------------------------

@pytest.fixture(scope="module")
def chat_mocks() -> Any:
    from toolchoice.providers import running_mock

    with running_mock("openai") as a, running_mock("deepseek") as b, running_mock("groq") as c:
        yield {"openai": a.base_url, "deepseek": b.base_url, "groq": c.base_url}


@pytest.mark.parametrize("choice", [{"type": "tool", "function": {"name": "get_weather"}},
                                    {"function": {"name": "get_weather"}}])
@pytest.mark.parametrize("provider", ["openai", "deepseek", "groq"])
def test_a_named_function_choice_must_say_type_function(chat_mocks: Any, provider: str, choice: Any) -> None:
    """openai-python's and groq-python's ChatCompletionNamedToolChoiceParam: ``type: Required[Literal["function"]]``
    (read from the SDKs here), as DeepSeek's reference (type and function both required) types it: an object holding
    the named function under another type, or none, is not that shape; the mock refuses it (tool_choice.shape) as it
    refuses {type: any}, instead of forcing the tool."""
    import typing

    import httpx
    from groq.types.chat.chat_completion_named_tool_choice_param import ChatCompletionNamedToolChoiceParam as Groq
    from openai.types.chat.chat_completion_named_tool_choice_param import ChatCompletionNamedToolChoiceParam as Named

    for sdk_type in (Named, Groq):
        kind = typing.get_type_hints(sdk_type, include_extras=True)["type"]
        assert typing.get_origin(kind) is typing.Required and typing.get_args(typing.get_args(kind)[0]) == ("function",)
    body = {**BODY, "tool_choice": choice, "tools": [{"type": "function", "function": {
        "name": "get_weather", "parameters": {"type": "object"}}}]}
    answer = httpx.post(chat_mocks[provider].rstrip("/") + "/chat/completions", json=body, timeout=10,
                        headers={"Authorization": "Bearer x"})
    assert answer.status_code == 400 and "tool_choice" in answer.json()["error"]["message"], answer.text[:300]


# ---- the choice extra sends: a JSON true or false is no tool_choice on any wire ------------------------------------

@pytest.mark.parametrize("written", ["true", "false"])
def test_extras_boolean_tool_choice_is_not_read_as_the_neutral_forms_true_or_false(written: str) -> None:
    """The scenario's neutral tool_choice reads true as required and false as unset; the wire does not:
    openai-python's ChatCompletionToolChoiceOptionParam is the three words or an object (read from the SDK here).
    extra sending ``tool_choice: true`` is not the scenario's required sent again (said nowhere), nor ``false`` a
    request with no choice: the ledger says it cannot be read back, and the verdict keeps the scenario's."""
    import typing

    from openai.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam

    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text

    members = typing.get_args(ChatCompletionToolChoiceOptionParam)
    assert typing.get_args(members[0]) == ("none", "auto", "required") and all(isinstance(m, type) for m in members[1:])
    scenario = load_scenario_text(LOOP_BASE.replace("tool_choice: auto", "tool_choice: required")
                                  + f"providers: {{openai: {{extra: {{tool_choice: {written}}}}}}}\n")
    translation = translate("openai", scenario, RenderOptions())
    assert translation.request.body["tool_choice"] is (written == "true")  # sent as extra writes it
    codes = [e.code for e in translation.ledger]
    assert "tool_choice.extra_unread" in codes and "tool_choice.from_extra" not in codes, translation.ledger
    assert translation.sent_choice is None


# ---- trace FILE.har: a host as DNS reads it ------------------------------------------------------------------------

def test_a_unicode_host_is_read_and_said_as_dns_reads_it(tmp_path: Path) -> None:
    """A client resolves a Unicode host by its IDNA form (RFC 3490 ToASCII, Python's idna codec here): full-width
    ａｐｉ.openai.com is api.openai.com, where the call went, so it is OpenAI's; Cyrillic аpi.openai.com is
    xn--pi-6kc.openai.com, a host toolchoice does not know, and is said in that form, not as a look-alike of
    api.openai.com."""
    wide, cyrillic = "\uff41\uff50\uff49.openai.com", "\u0430pi.openai.com"
    assert wide.encode("idna") == b"api.openai.com" and cyrillic.encode("idna") == b"xn--pi-6kc.openai.com"
    read = run_cli(["trace", str(_har(tmp_path, _entry(f"https://{wide}/v1/chat/completions", status=200,
                                                       answer="{}")))])
    assert read.returncode == 0 and "read as openai's request" in read.stdout, read.stderr
    other = run_cli(["trace", str(_har(tmp_path, _entry(f"https://{cyrillic}/v1/chat/completions")))])
    assert other.returncode == 2 and "xn--pi-6kc.openai.com" in other.stderr and cyrillic not in other.stderr, \
        other.stderr
