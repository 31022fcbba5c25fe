"""`toolchoice mock -p anthropic` reads the request's anthropic-version header (facts anthropic.api_version,
anthropic.version_words).

Truth from outside the code: the anthropic SDK installed (2.14.x) as a real client on 127.0.0.1, the version it
sends read off the wire (the mock's saved request) and from its own _constants.py; Anthropic's versions page's
words for 2026-10-21 as the fact holds them ("The temperature, top_p, and top_k request parameters are removed. A
request that sends any of them returns a 400"). Every request the SDK builds itself is answered 200 under its
default version; a body that sends a removed field through extra_body is the SDK's BadRequestError, in Anthropic's
envelope, quoting the fact's words and marked as toolchoice's (the API's own message is not recorded).

A version the API has not (a made-up date, two headers) is the API's recorded 400, held to the body
directus-labs/extensions#285 logged (tests/data/responses/errors/error-anthropic-invalid-version.json:
'anthropic-version: "2023-10-01" is not a valid version') and to what the SDK raises on it from a stand-in; until
2026-11-28 it was 200.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from toolchoice.providers.core.choice_shape_words import ANTHROPIC_VERSIONS
from toolchoice.providers.core.fact_values import VersionRemoves
from toolchoice.providers.core.facts import fact
from toolchoice.providers.core.mock.server import Running, running_mock
from toolchoice.providers.core.refusal_words import UNRECORDED

anthropic = pytest.importorskip("anthropic")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::UserWarning")

KEY = "sk-ant-test-version-0123456789abcdef"
MODEL = "claude-sonnet-5"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [{"name": "get_weather", "description": "Weather.", "input_schema": WEATHER}]
USER = [{"role": "user", "content": "Weather in Paris?"}]
SAID = fact("anthropic.api_version").value
assert isinstance(SAID, VersionRemoves)
RECORDED = json.loads((Path(__file__).parent / "data" / "responses" / "errors"
                       / "error-anthropic-invalid-version.json").read_text(encoding="utf-8"))
RECORDED_VALUE = "2023-10-01"  # the header directus-labs/extensions#285 sent


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_mock("anthropic", save_dir=tmp_path_factory.mktemp("saved")) as running:
        yield running


def _client(mock: Running, version: str | None = None) -> Any:
    return anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0,
                               default_headers={"anthropic-version": version} if version else None)


def _saved(mock: Running) -> dict[str, Any]:
    """The request the mock saved last (its headers as sent, keys redacted)."""
    assert mock.save_dir is not None
    newest = max(Path(mock.save_dir).glob("sample-*.request.json"))
    return json.loads(newest.read_text())


class Weather(BaseModel):
    city: str


def test_the_sdk_speaks_the_version_that_removes_the_fields_and_everything_it_builds_is_answered(mock: Running) -> None:
    """anthropic 2.14's default anthropic-version is the fact's version; its request types have no temperature,
    top_p or top_k, so what it builds itself (create, stream, parse, beta create, every tool_choice form,
    thinking) never sends one, and the mock answers each 200."""
    from anthropic import _constants

    assert _constants.ANTHROPIC_API_VERSION == SAID.version
    client = _client(mock)
    before = len(mock.records)
    for choice in ({"type": "auto"}, {"type": "any"}, {"type": "tool", "name": "get_weather"}, {"type": "none"}):
        client.messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS, tool_choice=choice)
    sent = _saved(mock)["headers"]
    assert {k.lower(): v for k, v in sent.items()}[SAID.header] == SAID.version  # read off the wire
    client.messages.create(model=MODEL, max_tokens=4096, messages=USER, tools=TOOLS, thinking={"type": "adaptive"})
    with client.messages.stream(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS) as stream:
        assert stream.get_final_message().stop_reason == "tool_use"
    parsed = client.messages.parse(model=MODEL, max_tokens=512, messages=USER, output_format=Weather)
    assert isinstance(parsed.parsed_output, Weather)
    client.beta.messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS,
                                betas=["mcp-client-2025-11-20"])
    lines = mock.records[before:]
    assert [line["status"] for line in lines] == [200] * 8
    assert not [f for line in lines for f in line["findings"] if f["code"] == "api_version.removed_field"]


@pytest.mark.parametrize("extra", [{"temperature": 0.5}, {"temperature": 1}, {"top_p": 0.9}, {"top_k": 5},
                                   {"top_k": 5, "temperature": 0.2}])
@pytest.mark.parametrize("stream", [False, True])
def test_a_removed_field_under_the_sdks_version_is_the_400(mock: Running, extra: dict[str, Any], stream: bool) -> None:
    """A field the version removes, sent through extra_body (the SDK has no argument for it), is answered 400 in
    Anthropic's envelope with the versions page's words from the fact, naming the fields sent, marked as
    toolchoice's words; a streamed request gets the 400, not a stream."""
    client = _client(mock)
    with pytest.raises(anthropic.BadRequestError) as refused:
        if stream:
            with client.messages.stream(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS,
                                        extra_body=extra) as events:
                events.get_final_message()
        else:
            client.messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS, extra_body=extra)
    assert refused.value.status_code == 400
    body = refused.value.body
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    message = body["error"]["message"]
    assert SAID.words in message and message.endswith(UNRECORDED)
    named = message.partition(":")[0].split(", ")
    assert named == [field for field in SAID.fields if field in extra]
    line = mock.records[-1]
    assert line["status"] == 400 and line["stream"] is stream
    [finding] = [f for f in line["findings"] if f["code"] == "api_version.removed_field"]
    assert finding["severity"] == "error" and finding["message"] == message
    assert "mock.refused" not in [f["code"] for f in line["findings"]]  # said once


@pytest.mark.parametrize("version", ["2023-06-01", None])
def test_another_version_takes_the_fields_as_before(mock: Running, version: str | None) -> None:
    """toolchoice's own 2023-06-01, or no anthropic-version at all (a raw client): temperature is read as before."""
    import httpx

    if version is None:
        answer = httpx.post(mock.base_url + "/v1/messages", headers={"x-api-key": KEY},
                            json={"model": MODEL, "max_tokens": 512, "messages": USER, "temperature": 0.5,
                                  "top_k": 5})
        assert answer.status_code == 200
    else:
        _client(mock, version).messages.create(model=MODEL, max_tokens=512, messages=USER,
                                               extra_body={"temperature": 0.5, "top_k": 5})
    assert mock.records[-1]["status"] == 200
    assert "api_version.removed_field" not in [f["code"] for f in mock.records[-1]["findings"]]


def test_the_version_refusal_does_not_hide_the_bodys_own(mock: Running) -> None:
    """A forced tool_choice with manual thinking and temperature under 2026-10-21: the version's 400 answers (the
    body's fields are checked against the version before the choice is judged), and the line names it."""
    with pytest.raises(anthropic.BadRequestError) as refused:
        _client(mock).messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=USER, tools=TOOLS,
                                      tool_choice={"type": "any"}, thinking={"type": "enabled", "budget_tokens": 1024},
                                      extra_body={"temperature": 0.3})
    assert SAID.words in refused.value.body["error"]["message"]
    codes = [f["code"] for f in mock.records[-1]["findings"]]
    assert codes[0] == "api_version.removed_field"


def test_the_proxy_says_it_and_passes_the_request_on(mock: Running) -> None:
    """`toolchoice proxy` in front of the mock (the upstream): the proxy's line has the finding, the request goes on
    as sent and the upstream's 400 comes back."""
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Server

    handler = ProxyHandler("anthropic", mock.base_url)
    with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
        client = anthropic.Anthropic(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(anthropic.BadRequestError) as refused:
            client.messages.create(model=MODEL, max_tokens=512, messages=USER, extra_body={"top_p": 0.9})
        ok = client.messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS)
        unknown = _refused_by(proxy.base_url, RECORDED_VALUE)
        records = proxy.wait_for(3)  # each line follows its answer
    assert SAID.words in refused.value.body["error"]["message"]  # the mock upstream's 400, passed back
    assert ok.stop_reason == "tool_use"
    assert unknown.status_code == 400 and unknown.body["error"] == RECORDED["error"]  # passed on, answered upstream
    first, second, third = records
    assert "api_version.removed_field" in [f["code"] for f in first["findings"]] and first["status"] == 400
    assert "api_version.removed_field" not in [f["code"] for f in second["findings"]]
    assert "api_version.unknown" in [f["code"] for f in third["findings"]] and third["status"] == 400


def _refused_by(base_url: str, version: str) -> Any:
    """What the SDK raises for a request sent under ``version`` (its default header replaced)."""
    client = anthropic.Anthropic(base_url=base_url, api_key=KEY, max_retries=0,
                                 default_headers={"anthropic-version": version})
    with pytest.raises(anthropic.APIStatusError) as raised:
        client.messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS)
    return raised.value


def test_the_versions_the_page_names_hold_the_sdks_and_toolchoices_own() -> None:
    """The versions the mock takes are the SDK's own (2.14's ANTHROPIC_API_VERSION) and toolchoice's 2023-06-01, with
    2023-01-01, the page's first."""
    from anthropic import _constants

    from toolchoice.providers.anthropic import API_VERSION

    assert {_constants.ANTHROPIC_API_VERSION, API_VERSION, "2023-01-01"} == set(ANTHROPIC_VERSIONS)


def test_a_version_the_api_has_not_is_the_recorded_400_through_the_sdk(mock: Running) -> None:
    """The SDK against a stand-in answering the recorded body, then against the mock, with the recorded header:
    the same exception class, status and body but the request id (the mock's own)."""
    from servers import StandIn, Step

    with StandIn("anthropic", Step.recorded_error(400, "error-anthropic-invalid-version")) as stand_in:
        expected = _refused_by(stand_in.base_url("anthropic"), RECORDED_VALUE)
    got = _refused_by(mock.base_url, RECORDED_VALUE)
    assert type(got) is type(expected) is anthropic.BadRequestError
    assert got.status_code == expected.status_code == 400
    assert {**got.body, "request_id": None} == {**expected.body, "request_id": None} == {**RECORDED, "request_id": None}
    line = mock.records[-1]
    assert line["status"] == 400 and line["calls"] == []
    [finding] = [f for f in line["findings"] if f["code"] == "api_version.unknown"]
    assert RECORDED_VALUE in finding["message"] and "anthropic.version_words" in finding["message"]


@pytest.mark.parametrize("version", ["2024-10-22", "2023-06-02", "2026-10-21-beta", "latest"])
def test_another_made_up_version_is_refused_in_the_same_words_naming_it(mock: Running, version: str) -> None:
    """sseshachala/conductai#2179: '2024-10-22' made every request 400; the words name the value as sent."""
    refused = _refused_by(mock.base_url, version)
    assert refused.status_code == 400
    assert refused.body["error"] == {**RECORDED["error"], "message": RECORDED["error"]["message"].replace(
        RECORDED_VALUE, version)}


@pytest.mark.parametrize("version", ANTHROPIC_VERSIONS)
def test_each_version_the_page_names_is_answered(mock: Running, version: str) -> None:
    reply = _client(mock, version).messages.create(model=MODEL, max_tokens=512, messages=USER, tools=TOOLS)
    assert reply.stop_reason == "tool_use" and mock.records[-1]["status"] == 200


def test_two_version_headers_are_one_comma_joined_value_and_the_400_names_both(mock: Running) -> None:
    """decolua/9router#1227 (a client that sent the header twice): 'anthropic-version: "2023-06-01, 2023-06-01" is not
    a valid version'. Sent as two header lines over a raw socket, the mock joins them (RFC 9110 5.3) and refuses
    them as the API does; until 2026-11-28 it kept the last and answered 200."""
    import socket
    from urllib.parse import urlsplit

    body = json.dumps({"model": MODEL, "max_tokens": 512, "messages": USER}).encode()
    where = urlsplit(mock.base_url)
    head = (f"POST /v1/messages HTTP/1.1\r\nhost: {where.netloc}\r\nx-api-key: {KEY}\r\n"
            "anthropic-version: 2023-06-01\r\nAnthropic-Version: 2023-06-01\r\ncontent-type: application/json\r\n"
            f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(head + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.split()[1] == b"400"
    reply = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert reply["error"] == {"type": "invalid_request_error",
                              "message": 'anthropic-version: "2023-06-01, 2023-06-01" is not a valid version'}


def test_the_unknown_version_answers_before_the_bodys_own_refusal(mock: Running) -> None:
    """A forced tool_choice with manual thinking under a made-up version: the version's 400 (the header is checked
    before the translator judges the choice), the line naming the version first."""
    client = anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0,
                                 default_headers={"anthropic-version": RECORDED_VALUE})
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=USER, tools=TOOLS,
                               tool_choice={"type": "any"}, thinking={"type": "enabled", "budget_tokens": 1024})
    assert refused.value.body["error"] == RECORDED["error"]
    assert [f["code"] for f in mock.records[-1]["findings"]][0] == "api_version.unknown"


def _rendered(version: str) -> Any:
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text

    scenario = load_scenario_text(json.dumps({"tools": [{"name": "get_weather", "parameters": WEATHER}],
                                              "messages": USER, "providers": {"anthropic": {
                                                  "headers": {"anthropic-version": version}}}}), "v.yaml")
    return translate("anthropic", scenario, RenderOptions(model=MODEL))


@pytest.mark.parametrize("version", [RECORDED_VALUE, "2024-10-22", *ANTHROPIC_VERSIONS])
def test_render_warns_of_a_version_exactly_when_the_mock_refuses_it_in_the_recorded_words(mock: Running,
                                                                                         version: str) -> None:
    """A version in providers.anthropic.headers that the API has not: render warns (api_version.unknown) quoting the
    recorded body's words and still sends it (the headers may be meant for another base_url); the request as
    rendered, sent to the mock, is the 400 exactly when render warned."""
    import httpx

    t = _rendered(version)
    warned = [e for e in t.ledger if e.code == "api_version.unknown"]
    assert t.request.headers["anthropic-version"] == version and not t.refused
    sent = httpx.post(mock.base_url.rstrip("/") + "/v1/messages", json=t.request.body,
                      headers={**t.request.headers, "x-api-key": KEY}, timeout=10)
    if version in ANTHROPIC_VERSIONS:
        assert warned == [] and sent.status_code == 200, (warned, sent.text)
    else:
        assert [e.severity for e in warned] == ["warning"] and sent.status_code == 400
        words = RECORDED["error"]["message"].replace(RECORDED_VALUE, version)
        assert f"'{words}'" in warned[0].message and sent.json()["error"]["message"] == words
