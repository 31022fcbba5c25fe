"""`toolchoice trace FILE.har`: an HTTP Archive's provider calls, each one a saved request, its recorded response
judged (providers/core/trace_har.py). The HAR is what openai-python, anthropic-python and google-genai really sent,
at their own hosts, answered by `toolchoice mock` on 127.0.0.1 (tests/har_recorder.py, written in-process per the HAR
1.2 spec), with the SDKs' keys in its headers, as a debugging proxy saves them."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from cli import refused, run_cli
from har_recorder import gemini_answer_as_stream_array, page_entry, record
from toolchoice.providers import running_mock

# made of pieces so that no scanner takes this file for a leak; each in its issuer's shape (redaction.KEY_SHAPES)
OPENAI = "sk-proj-" + "Hq7dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
ANTHROPIC = "sk-ant-api03-" + "Qx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe_dc-BA"
GOOGLE = "AIza" + "SyQ1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q7r8"[:35]
HF = "hf_" + "QbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
PLAIN = "gw-" + "plain-7e6d5c4b3a29180f"  # no key's shape: known as a key only by the header it is sent in
KEYS = (OPENAI, ANTHROPIC, GOOGLE, HF, PLAIN)
PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Any]]:
    """The HAR the SDKs' calls make (with real-looking keys in their headers), beside what each SDK got back."""
    folder = tmp_path_factory.mktemp("har")
    with running_mock("openai") as a, running_mock("openai-responses") as b, running_mock("anthropic") as c, \
            running_mock("gemini") as d:
        mocks = dict(zip(PROVIDERS, (a.base_url, b.base_url, c.base_url, d.base_url)))
        har, truth = record({"openai": OPENAI, "anthropic": ANTHROPIC, "gemini": GOOGLE}, mocks)
    path = folder / "session.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    yield path, truth


def _copy(path: Path, tmp_path: Path, change: Any = None, name: str = "copy.har") -> Path:
    har = json.loads(path.read_text())
    if change is not None:
        change(har["log"]["entries"])
    out = tmp_path / name
    out.write_text(json.dumps(har), encoding="utf-8")
    return out


def test_every_provider_call_is_a_sample_in_order_with_its_reply_judged(recorded: tuple[Path, Any]) -> None:
    """The listing: one sample per provider call, in the HAR's order, its provider found from its host and path,
    what it asked as the SDK was given it, and the verdict on the response the mock gave; the page and the SDK's GET
    /v1/models counted and said once."""
    path, truth = recorded
    shown = run_cli(["trace", str(path), "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    listing = json.loads(shown.stdout)
    rows = listing["samples"]
    assert [r["provider"] for r in rows] == [t["provider"] for t in truth.calls]
    assert [r["sample"] for r in rows] == list(range(1, len(truth.calls) + 1))
    entries = json.loads(path.read_text())["log"]["entries"]
    for row, given in zip(rows, truth.calls):
        assert row["requested"] == given["tool_choice"], row
        assert row["request"] == "POST " + urlsplit(entries[row["entry"]]["request"]["url"]).path, row
        assert row["reply"].startswith("the recorded response (HTTP 200") and ": obeyed: " in row["reply"], row
        for name in given["called"]:
            assert f"called {name}" in row["reply"], row
    [other] = listing["notes"]
    assert other["code"] == "har.other_entries" and other["message"].startswith("2 of the 8 entries are no provider")
    assert "GET weather-app.example" in other["message"] and "GET api.openai.com/v1/models" in other["message"]
    text = run_cli(["trace", str(path)])
    assert text.stdout.count("har.other_entries") == 1 and "pick one with --sample N" in text.stdout.splitlines()[0]


def test_the_reply_read_is_what_the_sdk_read_streamed_or_whole(recorded: tuple[Path, Any]) -> None:
    """Each response body (JSON, or an SSE stream's text: Chat Completions chunks, Anthropic's events) read as the
    provider's reply holds the calls the SDK parsed from the same bytes."""
    from toolchoice.providers.core import trace_har

    path, truth = recorded
    har = trace_har.read_har(path)
    for call, given in zip(har.calls, truth.calls):
        reply, how = trace_har.recorded_reply(har, call)
        assert [c.name for c in reply.tool_calls] == given["called"], (call, how)
        assert ("a stream of" in how) == bool(given.get("stream")), how


def test_a_sample_is_the_scenario_its_request_gives_as_a_saved_request(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """`--sample N` prints the scenario `trace REQUEST.json -p PROVIDER` prints for the entry's url and body (the one
    reader of saved requests), its notes closed by the reply's verdict and the other entries."""
    path, _ = recorded
    entries = json.loads(path.read_text())["log"]["entries"]
    listing = json.loads(run_cli(["trace", str(path), "-f", "json"]).stdout)["samples"]
    for row in listing:
        entry = entries[row["entry"]]["request"]
        made = tmp_path / f"request-{row['sample']}.json"
        made.write_text(json.dumps({"url": entry["url"], "body": json.loads(entry["postData"]["text"])}))
        got = run_cli(["trace", str(path), "--sample", str(row["sample"]), "-f", "json"])
        want = run_cli(["trace", str(made), "-p", row["provider"], "-f", "json"])
        assert got.returncode == want.returncode == 0, got.stderr + want.stderr
        scenario, alone = json.loads(got.stdout), json.loads(want.stdout)
        assert scenario.pop("description").endswith(f"log.entries[{row['entry']}]: the {row['provider']} request as "
                                                    "it was sent")
        alone.pop("description")
        assert scenario == alone
        codes = [line.split(":", 1)[0] for line in got.stderr.splitlines()]
        assert codes[-2:] == ["info har.reply", "info har.other_entries"], got.stderr
    scenario_out = tmp_path / "one.yaml"
    wrote = run_cli(["trace", str(path), "--sample", "1", "--scenario-out", str(scenario_out)])
    assert wrote.returncode == 0 and "-p openai" in wrote.stdout
    assert run_cli(["render", str(scenario_out), "-p", "anthropic", "-f", "json"]).returncode == 0


def test_keys_in_headers_cookies_and_query_strings_never_appear(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """A HAR holds Authorization, x-api-key and x-goog-api-key in clear (the SDKs sent OpenAI's, Anthropic's and
    Google's keys), and here also a session cookie, a ?key= query and a gateway's key of no known shape, which the
    app also pasted into its prompt: no output of any form shows any of them, nor their last 12 characters."""
    path, _ = recorded

    def salt(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            request = entry["request"]
            request["cookies"].append({"name": "session", "value": HF})
            request["headers"] += [{"name": "Cookie", "value": f"session={HF}"},
                                   {"name": "helicone-auth", "value": f"Bearer {PLAIN}"}]
            if "googleapis" in request["url"]:
                request["url"] += f"?key={GOOGLE}"
                request["queryString"].append({"name": "key", "value": GOOGLE})
            if "postData" in request and "api.openai.com/v1/chat" in request["url"]:
                body = json.loads(request["postData"]["text"])
                body["messages"][-1 if body["messages"][-1]["role"] == "user" else 1]["content"] = f"use {PLAIN} please"
                request["postData"]["text"] = json.dumps(body)

    salted = _copy(path, tmp_path, salt)
    shown = [run_cli(["trace", str(salted), *args]) for args in ([], ["-f", "json"])]
    for n in range(1, 7):
        shown += [run_cli(["trace", str(salted), "--sample", str(n), *args]) for args in ([], ["-f", "json"])]
    out = tmp_path / "out.yaml"
    shown.append(run_cli(["trace", str(salted), "--sample", "1", "--scenario-out", str(out)]))
    texts = [r.stdout + r.stderr for r in shown] + [out.read_text()]
    assert all(r.returncode == 0 for r in shown), [r.stderr for r in shown]
    assert any("[redacted]" in t for t in texts)  # the prompt's pasted key is shown as redacted
    for key in KEYS:
        for piece in (key, key[-12:]):
            assert not any(piece in t for t in texts), key


def _listed_as(path: Path, copy: Path) -> dict[str, Any]:
    """``trace PATH -f json`` as the listing of ``copy`` reads: its file, and the replay commands that name it."""
    listed = json.loads(run_cli(["trace", str(path), "-f", "json"]).stdout)
    for replay in listed["replay"]:
        replay["command"] = replay["command"].replace(f"--replay {path} ", f"--replay {copy} ")
    return {**listed, "file": str(copy)}


def test_a_response_in_base64_reads_as_its_text(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """HAR 1.2's content.encoding "base64" (the spec: "Encoding used for response text field"): decoded, the same
    reply and verdict."""
    path, _ = recorded

    def encode(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            content = entry["response"]["content"]
            content["text"] = base64.b64encode(content["text"].encode()).decode()
            content["encoding"] = "base64"

    encoded = _copy(path, tmp_path, encode)
    assert json.loads(run_cli(["trace", str(encoded), "-f", "json"]).stdout) == _listed_as(path, encoded)

    def broken(entries: list[dict[str, Any]]) -> None:
        encode(entries)
        entries[1]["response"]["content"]["text"] = "not base64!"

    line = refused(run_cli(["trace", str(_copy(path, tmp_path, broken)), "--sample", "1"]))
    assert "copy.har log.entries[1]: response.content.text is not base64" in line, line


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_response_in_base64_wrapped_at_76_columns_reads_as_its_text(recorded: tuple[Path, Any], tmp_path: Path,
                                                                      newline: str) -> None:
    """RFC 2045 6.8's base64 (lines of at most 76 characters; Python's base64.encodebytes writes it), which HAR 1.2's
    "base64" does not forbid: read as the one-line form is. Only whitespace is taken out: a character outside the
    alphabet inside wrapped text is still refused, in one line naming file and entry."""
    path, _ = recorded

    def wrap(entries: list[dict[str, Any]], bad: bool = False) -> None:
        for entry in entries:
            content = entry["response"]["content"]
            lines = base64.encodebytes(content["text"].encode()).decode().splitlines()
            assert entry is not entries[1] or len(lines) > 2 and len(lines[0]) == 76  # wrapped, as RFC 2045 writes
            if bad and entry is entries[1]:
                lines[1] = lines[1][:10] + "*" + lines[1][11:]
            content["text"] = newline.join(lines) + newline
            content["encoding"] = "base64"

    wrapped = _copy(path, tmp_path, wrap)
    assert json.loads(run_cli(["trace", str(wrapped), "-f", "json"]).stdout) == _listed_as(path, wrapped)
    line = refused(run_cli(["trace", str(_copy(path, tmp_path, lambda e: wrap(e, True))), "--sample", "1"]))
    assert "copy.har log.entries[1]: response.content.text is not base64" in line, line


def test_a_response_not_recorded_or_an_error_is_said(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    path, _ = recorded

    def strip(entries: list[dict[str, Any]]) -> None:
        del entries[1]["response"]["content"]["text"]  # devtools leaves out a body it did not keep
        entries[3]["response"].update(status=429, content={"size": 60, "mimeType": "application/json", "text": json.dumps(
            {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}})})

    changed = _copy(path, tmp_path, strip)
    rows = json.loads(run_cli(["trace", str(changed), "-f", "json"]).stdout)["samples"]
    assert rows[0]["reply"] == "not judged: the HAR holds no response body for this entry"
    assert rows[1]["reply"].startswith("the recorded response (HTTP 429) is an error: ") and "Rate limit" in rows[1]["reply"]


def test_a_host_toolchoice_does_not_know_says_so_and_p_reads_it(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """A gateway's host: one line naming the file and the entry, saying to give -p; with -p openai its Chat
    Completions entries read (the known hosts' entries keep their provider)."""
    path, _ = recorded

    def gateway(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            entry["request"]["url"] = entry["request"]["url"].replace("https://api.openai.com",
                                                                      "https://llm-gw.internal.example")

    moved = _copy(path, tmp_path, lambda e: (gateway(e), e.__delitem__(slice(5, None))))
    line = refused(run_cli(["trace", str(moved)]), OPENAI)
    assert line.startswith(f"toolchoice: error: {moved} log.entries[1]: POST /v1/chat/completions at "
                           "llm-gw.internal.example, a host toolchoice does not know"), line
    assert line.endswith("(name the API it speaks with -p (openai, anthropic, ...))\n"), line
    rows = json.loads(run_cli(["trace", str(moved), "-p", "openai", "-f", "json"]).stdout)["samples"]
    assert [r["provider"] for r in rows] == ["openai", "openai", "openai"]
    mixed = _copy(path, tmp_path, gateway, "mixed.har")
    listing = json.loads(run_cli(["trace", str(mixed), "-f", "json"]).stdout)
    assert [r["provider"] for r in listing["samples"]] == ["anthropic", "gemini"]
    [unknown] = [n for n in listing["notes"] if n["code"] == "har.unknown_host"]
    assert unknown["severity"] == "warning" and unknown["message"].endswith("give provider, the API they speak")
    assert unknown["message"].startswith("4 entries look like API requests (POST /v1/chat/completions, "
                                         "log.entries[1]) at a host toolchoice does not know (llm-gw.internal.example)")
    read = json.loads(run_cli(["trace", str(mixed), "-p", "openai", "-f", "json"]).stdout)
    assert [r["provider"] for r in read["samples"]] == ["openai", "openai", "openai", "anthropic", "gemini"]
    [unknown] = [n for n in read["notes"] if n["code"] == "har.unknown_host"]  # /v1/responses: -p openai-responses
    assert unknown["message"].startswith("1 entry looks like an API request (POST /v1/responses, log.entries[5])")


@pytest.mark.parametrize("change,said", [
    (lambda h: h.update(log={"entries": {}}), "{file}: not an HTTP Archive (no log.entries list)"),
    (lambda h: h["log"]["entries"][2]["request"].pop("url"), "{file} log.entries[2]: not a HAR entry"),
    (lambda h: h["log"]["entries"][1]["request"]["postData"].update(text="{not json"),
     "{file} log.entries[1]: request.postData.text is not JSON"),
    (lambda h: h["log"]["entries"][1]["request"]["postData"].update(text="[" * 150 + "]" * 150),
     "{file} log.entries[1]: request.postData.text cannot be read: the JSON nests too deeply"),
    (lambda h: h["log"]["entries"][1]["request"].pop("postData"), "{file} log.entries[1]: POST /v1/chat/completions "
     "has no request.postData.text"),
    (lambda h: h["log"]["entries"][1]["request"]["postData"].update(text='{"messages": 3}'),
     "{file} log.entries[1]: openai's"),
    (lambda h: h["log"].update(entries=[page_entry("https://example.com/")]),
     "{file}: none of its 1 entries is a provider API call (hosts: example.com) (record the requests to the API "
     "itself (api.openai.com, api.anthropic.com, ...), or name a gateway's API with -p)"),
])
def test_bad_input_is_one_line_naming_the_file_and_entry(recorded: tuple[Path, Any], tmp_path: Path, change: Any,
                                                        said: str) -> None:
    path, _ = recorded
    har = json.loads(path.read_text())
    change(har)
    bad = tmp_path / "bad.har"
    bad.write_text(json.dumps(har))
    line = refused(run_cli(["trace", str(bad), "--sample", "1"]), *KEYS)
    assert said.format(file=bad) in line, line


def test_not_json_and_a_sample_out_of_range(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    path, _ = recorded
    bad = tmp_path / "cut.har"
    bad.write_text(path.read_text()[:500])
    assert refused(run_cli(["trace", str(bad)])).startswith(f"toolchoice: error: {bad}:1:")
    line = refused(run_cli(["trace", str(path), "--sample", "9"]))
    assert f"{path}: no sample 9 (the HAR holds 6 provider calls: 1-6)" in line, line
    named = tmp_path / "traffic.json"  # a HAR by its content, whatever its name
    named.write_text(path.read_text())
    assert json.loads(run_cli(["trace", str(named), "-f", "json"]).stdout)["samples"][0]["provider"] == "openai"


AWS = "AKIA" + "Q7Z2M4X9T1B6V3N8"
SAVED_BEDROCK = Path(__file__).parent / "data/saved/bedrock-converse-mock"  # boto3's Converse into `mock --save`


def test_a_bedrock_call_at_a_region_s_host_its_response_base64(tmp_path: Path) -> None:
    """What boto3's Converse sent and the mock answered (tests/data/saved/bedrock-converse-mock), as a HAR entry at
    a region's runtime host with its SigV4 Authorization (an AWS key id in clear) and the response body base64 as a
    proxy saves a body it keeps as bytes: read as bedrock's, the call the mock's own save records judged obeyed."""
    request = json.loads((SAVED_BEDROCK / "sample-001.request.json").read_text())
    saved = json.loads((SAVED_BEDROCK / "sample-001.reply.json").read_text())
    answer = (SAVED_BEDROCK / "sample-001.response.json").read_bytes()
    entry = page_entry("https://bedrock-runtime.eu-central-1.amazonaws.com" + request["url"])
    entry["request"].update(method="POST", headers=[{"name": "Authorization", "value": (
        f"AWS4-HMAC-SHA256 Credential={AWS}/20261127/eu-central-1/bedrock/aws4_request, SignedHeaders=host, "
        "Signature=" + "9f" * 32)}], postData={"mimeType": "application/json", "text": json.dumps(request["body"])})
    entry["response"]["content"] = {"size": len(answer), "mimeType": "application/json", "encoding": "base64",
                                    "text": base64.b64encode(answer).decode()}
    path = tmp_path / "bedrock.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                                        "entries": [entry]}}))
    shown = run_cli(["trace", str(path)])
    assert shown.returncode == 0, shown.stderr
    assert AWS not in shown.stdout + shown.stderr and AWS[-12:] not in shown.stdout + shown.stderr
    [line] = [x for x in shown.stdout.splitlines() if "har.reply" in x]
    [call] = saved["calls"]  # what the mock answered, as its save records it, under tool_choice {tool: get_weather}
    assert saved["tool_choice"] == {"tool": call["name"]}
    assert "the recorded response (HTTP 200): obeyed: " in line and f"called {call['name']}" in line, line
    assert "saved.imported: " + f"{path} log.entries[0]: POST {request['url'].split('?')[0]}" in shown.stdout


@pytest.mark.parametrize("host,port,providers", [
    ("api.openai.com", None, ["openai", "openai-responses"]), ("eu.api.openai.com", None, ["openai", "openai-responses"]),
    ("my-resource.openai.azure.com", None, ["azure"]), ("bedrock-runtime.us-west-2.amazonaws.com", None, ["bedrock"]),
    ("bedrock-runtime-fips.us-east-1.api.aws", None, ["bedrock"]), ("API.Anthropic.com.", None, ["anthropic"]),
    ("api.together.xyz", None, ["together"]), ("localhost", 11434, ["ollama"]), ("127.0.0.1", 8000, ["vllm"]),
    ("::1", 8080, ["llamacpp"]), ("127.0.0.1", 9999, []), ("api.openai.com.evil.example", None, []),
    ("generativelanguage.googleapis.com", None, ["gemini"]),
])
def test_a_host_is_an_api_s_by_the_rows(host: str, port: Any, providers: list[str]) -> None:
    """host_rules.api_of_host: the rows' own hosts and the other hosts of the same API their sources name."""
    from toolchoice.providers.core.host_rules import api_of_host

    assert api_of_host(host, port) == providers


def test_a_call_that_does_not_read_is_a_row_of_the_listing(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """In the listing a call whose body its API cannot read says so in its row; the others are listed as ever."""
    path, _ = recorded

    def spoil(entries: list[dict[str, Any]]) -> None:
        entries[3]["request"]["postData"]["text"] = '{"messages": 3}'

    rows = json.loads(run_cli(["trace", str(_copy(path, tmp_path, spoil)), "-f", "json"]).stdout)["samples"]
    assert rows[1]["problem"].startswith("openai's API cannot read this body: ") and "reply" not in rows[1], rows[1]
    assert all("reply" in r for r in rows if r is not rows[1])


def test_a_gemini_stream_as_a_json_array_reads_as_its_events(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """streamGenerateContent without alt=sse answers a JSON array of GenerateContentResponse: read as a stream of its
    items (here the recorded generateContent answer, in two chunks: its call, then its finish)."""
    path, truth = recorded
    changed = _copy(path, tmp_path, gemini_answer_as_stream_array)
    shown = run_cli(["trace", str(changed), "--sample", "6"])
    [line] = [x for x in shown.stdout.splitlines() if "har.reply" in x]
    assert "(HTTP 200, a stream of 2 events): obeyed: " in line and f"called {truth.calls[5]['called'][0]}" in line, line


def test_a_python_caller_reads_its_own_words(recorded: tuple[Path, Any], tmp_path: Path) -> None:
    """trace_har.import_har: a file of several calls is a Listing; one sample a SavedScenario; an unknown host's
    error names the provider argument, not -p."""
    from toolchoice.providers.core import trace_har
    from toolchoice.providers.core.model import ToolchoiceError

    path, truth = recorded
    listing = trace_har.import_har(str(path))
    assert isinstance(listing, trace_har.Listing) and len(listing.rows) == len(truth.calls)
    one = trace_har.import_har(path, sample=5)
    assert one.provider == "anthropic" and one.notes[-2].code == "har.reply"
    moved = _copy(path, tmp_path, lambda e: e.__setitem__(slice(None), [
        {**x, "request": {**x["request"], "url": x["request"]["url"].replace("api.openai.com", "gw.example")}}
        for x in e[:2]]))
    with pytest.raises(ToolchoiceError) as caught:
        trace_har.import_har(moved)
    assert "name the API it speaks with the provider argument" in str(caught.value) and "-p" not in str(caught.value)
