"""Adversarial round 19b (trial19l) on session 19's merges: the Anthropic mock's comma-joined repeated headers and its
anthropic-version refusal quoting the header, Gemini's parametersJsonSchema $ref judging, the warning line, and run
--replay's refusals to write over the recording. Each test failed before its fix; commands run in-process
(tests/cli.py: the console script's own entry) where no real process is the check.

The truth is outside the code under test: raw HTTP/1.1 requests on a socket (two header lines, as decolua/9router#1227's
client sent them), the API's recorded 400 for an undefined $ref (tests/data/responses/errors), RFC 6901's array index,
the operating system's own symbolic and hard links, and the saved loop of tests/data/loops (a real model's run)."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from cli import refused, run_cli, user_env
from toolchoice.providers.core.mock.server import Running, running_mock

ROOT = Path(__file__).resolve().parents[1]
SAVED = ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m"
PLANNER = str(ROOT / "configs" / "planner-loop.yaml")
TRAP = str(ROOT / "configs" / "planner-trap.yaml")
ODD = "zq9Plain8Secret7Value6adv19b"  # a key of no known shape: only its header names it a key


# ---- a key header sent twice: each of its keys is a key, wherever the mock quotes it ----------------------------------

@pytest.fixture(scope="module")
def anthropic_mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_mock("anthropic", save_dir=tmp_path_factory.mktemp("saved19b")) as running:
        yield running


def _raw(mock: Running, lines: list[str]) -> bytes:
    body = json.dumps({"model": "claude-sonnet-5", "max_tokens": 64,
                       "messages": [{"role": "user", "content": "hi"}]}).encode()
    where = urlsplit(mock.base_url)
    head = (f"POST /v1/messages HTTP/1.1\r\nhost: {where.netloc}\r\n" + "".join(f"{line}\r\n" for line in lines)
            + f"content-type: application/json\r\nconnection: close\r\ncontent-length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(head + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_key_header_sent_twice_keeps_both_keys_out_of_the_mocks_lines_and_saves(anthropic_mock: Running) -> None:
    """The mock joins a header sent twice into one value (RFC 9110 5.3: "KEY1, KEY2"), and its api_version.unknown
    quotes the anthropic-version header as it came. A client sending x-api-key twice whose anthropic-version holds
    the first key (a header pasted in the wrong place) had that key in the 400's message, the jsonl line and every
    saved file: the keys it named were read off the joined value as its last word alone. Each key is named now."""
    answer = _raw(anthropic_mock, [f"x-api-key: {ODD}", "x-api-key: other-key-0123456789",
                                   f"anthropic-version: {ODD}"])
    assert answer.split(b"\r\n", 1)[0].split()[1] == b"400"
    assert b'anthropic-version: \\"$X_API_KEY\\" is not a valid version' in answer  # the API's words, key named
    anthropic_mock.wait_for(1)
    assert ODD not in json.dumps(anthropic_mock.records)
    assert anthropic_mock.save_dir is not None
    saved = {p.name: p.read_text(encoding="utf-8") for p in Path(anthropic_mock.save_dir).iterdir()}
    assert saved and not [name for name, text in saved.items() if ODD in text]


def test_transfer_encoding_chunked_twice_is_a_400_saying_so(anthropic_mock: Running) -> None:
    """Two `Transfer-Encoding: chunked` lines are one field, "chunked, chunked" (RFC 9110 5.3), now that the mock
    joins them: it answered 501 "Transfer-Encoding other than chunked is not supported", which is not what was sent.
    RFC 9112 6.1: chunked is never applied twice (and 6.3: not last, the length cannot be told), a 400 naming both."""
    for codings in (["chunked", "chunked"], ["chunked, gzip"]):
        answer = _raw(anthropic_mock, ["x-api-key: k", *(f"transfer-encoding: {c}" for c in codings)])
        assert answer.split(b"\r\n", 1)[0].split()[1] == b"400", answer[:200]
        assert b"chunked must be given once, as the last coding (given: chunked, " in answer, answer[-300:]


# ---- the API's words: a value filled in is data, never read for another value's place ----------------------------------

OPENAI_WORDS = "Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."  # the fact's recording


@pytest.mark.parametrize("choice", ["any{tool_index}", "a{version}b"])
def test_a_tool_choice_holding_a_place_name_is_echoed_as_sent(choice: str) -> None:
    """The OpenAI mock's 400 for an out-of-set string quotes it ('Invalid value: VALUE. ...'). The recorded words were
    filled one place after another, each in the text the last made: a value holding '{tool_index}' made the row look
    unrecorded (toolchoice's own sentence answered instead of the API's), '{version}' was replaced by
    the header and the model, so the echo was not what was sent."""
    from toolchoice.providers.core.mock.service import MockService

    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": tools, "tool_choice": choice}
    answer = MockService("openai").handle("POST", "/v1/chat/completions", {"anthropic-version": "2023-06-01"},
                                          json.dumps(body).encode())
    error = json.loads(answer.body)["error"]
    assert answer.status == 400 and (error["param"], error["code"]) == ("tool_choice", "invalid_value"), error
    assert error["message"] == OPENAI_WORDS.replace("bogus", choice)


def test_an_anthropic_version_holding_a_place_name_is_the_recorded_400_naming_it() -> None:
    """`anthropic-version: 2023{tool_index}`: the version, filled into the recorded words, was then searched for
    '{tool_index}', found, and the row dropped: the 400 said toolchoice's line instead of the API's words."""
    from toolchoice.providers.core.mock.service import MockService

    recorded = json.loads((ROOT / "tests" / "data" / "responses" / "errors"
                           / "error-anthropic-invalid-version.json").read_text(encoding="utf-8"))
    body = {"model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
    answer = MockService("anthropic").handle("POST", "/v1/messages", {"anthropic-version": "2023{tool_index}"},
                                             json.dumps(body).encode())
    assert answer.status == 400
    assert json.loads(answer.body)["error"] == {
        **recorded["error"], "message": recorded["error"]["message"].replace("2023-10-01", "2023{tool_index}")}


# ---- Gemini's $ref: a pointer step no array index reads is no internal error ------------------------------------------

def _gemini_body(ref: str) -> dict[str, Any]:
    schema = {"type": "object", "required": ["a"], "properties": {"a": {"$ref": ref}}}
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": schema}]}]}


@pytest.mark.parametrize("step", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])
def test_a_ref_into_a_list_by_no_index_is_the_recorded_400_not_an_internal_error(step: str) -> None:
    """`{"$ref": "#/required/²"}`: str.isdigit takes '²' and int() refuses it (and 5,000 digits, past Python's
    4,300), so the Gemini mock answered 500 "internal error: ValueError" and `render -p gemini` ended in an internal
    error, exit 70. RFC 6901's array index is ASCII digits: such a pointer resolves to nothing, which the API
    refuses in its recorded words (gemini.json_schema_ref_words); `#/required/0` still resolves."""
    from toolchoice.providers.core.mock.service import MockService

    recorded = json.loads((ROOT / "tests" / "data" / "responses" / "errors"
                           / "error-gemini-json-schema-ref-undefined.json").read_text(encoding="utf-8"))
    service = MockService("gemini")
    target = "/v1beta/models/gemini-3-flash-preview:generateContent"
    answer = service.handle("POST", target, {}, json.dumps(_gemini_body(f"#/required/{step}")).encode())
    assert answer.status == 400, answer.body
    said = json.loads(answer.body)["error"]
    assert (said["status"], said["message"]) == (recorded["error"]["status"],
                                                 "reference to undefined schema at properties.a")
    assert service.handle("POST", target, {}, json.dumps(_gemini_body("#/required/0")).encode()).status == 200


def test_render_of_a_ref_into_a_list_by_no_index_warns_and_exits_0(tmp_path: Path) -> None:
    """The same schema in a scenario: `render -p gemini` was "internal error: ValueError", exit 70; it warns
    schema.api_refuses with the API's words now, the request sent as written."""
    scenario = tmp_path / "ref.yaml"
    scenario.write_text('tools:\n  - name: f\n    parameters: {type: object, required: [a], properties: {a: {$ref: '
                        '"#/required/\\u00b2"}}}\nmessages: [{role: user, content: hi}]\n', encoding="utf-8")
    done = run_cli(["render", str(scenario), "-p", "gemini", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    said = [e for e in json.loads(done.stdout)["ledger"] if e["code"] == "schema.api_refuses"]
    assert [e["severity"] for e in said] == ["warning"] and "undefined schema at properties.a" in said[0]["message"]


def _doubling(depth: int) -> dict[str, Any]:
    """Parameters whose $defs each use the next one twice: inlined, 2**depth - 1 schemas from depth + 1 definitions."""
    defs: dict[str, Any] = {f"d{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/d{i + 1}"},
                                                                       "b": {"$ref": f"#/$defs/d{i + 1}"}}}
                            for i in range(depth)}
    defs[f"d{depth}"] = {"type": "string"}
    return {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}


@pytest.mark.parametrize("form", [None, "parameters"])
def test_references_that_double_at_each_definition_are_inlined_only_so_far(monkeypatch: pytest.MonkeyPatch,
                                                                           form: str | None) -> None:
    """Definitions each using the next twice: converting to Gemini's Schema inlined every use, 2**depth schemas from a
    scenario of a few hundred bytes (16 deep took `render -p gemini` 118 s; 30 would not end), whether the parameters
    were then sent converted (schema_form: parameters) or whole (the default: converting loses the references, so
    parametersJsonSchema is sent). At most INLINED_AT_MOST are inlined now (each inlined schema looks at its two
    references: twice as many looked at); past them the conversion is an error, as a reference back to itself is
    (refused with schema_form: parameters, else the parameters sent whole)."""
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text
    from toolchoice.providers.gemini import schema

    looked: list[str] = []
    reference = schema.SchemaConverter.reference
    monkeypatch.setattr(schema.SchemaConverter, "reference",
                        lambda self, node, path, refs: (looked.append(path), reference(self, node, path, refs))[1])
    data: dict[str, Any] = {"tools": [{"name": "f", "parameters": _doubling(12)}],
                            "messages": [{"role": "user", "content": "hi"}]}
    if form is not None:
        data["providers"] = {"gemini": {"schema_form": form}}
    t = translate("gemini", load_scenario_text(json.dumps(data), "doubling.yaml"), RenderOptions(model="gemini-3.5-flash"))
    assert 0 < len(looked) <= 2 * schema.INLINED_AT_MOST + 1 < 2 ** 12 - 1
    said = [e.message for e in t.ledger if e.code == "schema.ref_unresolved"]
    if form is None:
        [declaration] = t.request.body["tools"][0]["functionDeclarations"]
        assert declaration["parametersJsonSchema"] == _doubling(12) and said == []
        assert any(e.code == "schema.json_schema" for e in t.ledger)
    else:
        assert t.refused and len(said) == 1 and f"more than {schema.INLINED_AT_MOST:,} schemas" in said[0], said


# ---- a warning line is bounded as an error line is --------------------------------------------------------------------

def test_a_warning_quoting_a_huge_value_is_cut_as_an_error_line_is() -> None:
    """`--model anthropic=<120,000 characters>` with -p openai: the warning "that provider is not selected" quoted it
    whole, one 120 kB line on stderr, where an error line is cut at 1,800 characters keeping its start and end."""
    done = run_cli(["render", TRAP, "-p", "openai", "--model", "anthropic=" + "x" * 120_000, "-f", "json"],
               env=user_env())
    assert done.returncode == 0, done.stderr[:300]
    [line] = [line for line in done.stderr.splitlines() if line.startswith("toolchoice: warning: --model")]
    assert len(line) < 2_000 and "characters left out" in line and line.endswith("not used"), line[:200]


# ---- run --replay: the recording is kept however its folder is spelled ------------------------------------------------

def _runs(tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    shutil.copytree(SAVED, runs)
    return runs


def _files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("spelled", ["link", "dot-dot", "link-slash"])
def test_saving_a_replay_into_its_recording_is_refused_however_the_loop_folder_is_spelled(tmp_path: Path,
                                                                                        spelled: str) -> None:
    """`run --replay runs/openai/loop-001 --save runs` is refused (trial19f), but `--replay LINK` (a symbolic link to
    that loop folder) or `--replay runs/openai/loop-001/sub/..` passed: the check read the name as spelled, not the
    folder's, so --save cleared the recorded loop and wrote the replay's steps in its place."""
    runs = _runs(tmp_path)
    loop = runs / "openai" / "loop-001"
    (loop / "sub").mkdir()
    (tmp_path / "link").symlink_to(loop)
    replay = {"link": str(tmp_path / "link"), "dot-dot": str(loop / "sub" / ".."),
              "link-slash": str(tmp_path / "link") + "/"}[spelled]
    before = _files(runs)
    line = refused(run_cli(["run", PLANNER, "-p", "openai", "--replay", replay, "--save", str(runs)], env=user_env()))
    assert f"--save {runs}: it holds the recording being replayed" in line, line
    assert _files(runs) == before


@pytest.mark.parametrize("how", ["path", "hard-link"])
def test_trace_out_over_a_step_file_of_the_replayed_folder_is_refused(tmp_path: Path, how: str) -> None:
    """`run --replay runs --trace-out runs/openai/loop-001/step-01.response.json` wrote the OTLP trace over the
    recorded response the replay had just read (the check compared --trace-out with the folder only): the next
    replay's step 1 was no response. Refused now, before anything runs, as --trace-out over a HAR is."""
    runs = _runs(tmp_path)
    step = runs / "openai" / "loop-001" / "step-01.response.json"
    out = step
    if how == "hard-link":
        out = tmp_path / "trace.json"
        os.link(step, out)
    before = _files(runs)
    line = refused(run_cli(["run", PLANNER, "-p", "openai", "--replay", str(runs), "--trace-out", str(out)],
                           env=user_env()))
    assert f"--trace-out {out}" in line and "which this run reads" in line, line
    assert _files(runs) == before
    elsewhere = tmp_path / "elsewhere.json"
    ran = run_cli(["run", PLANNER, "-p", "openai", "--replay", str(runs), "--trace-out", str(elsewhere)],
                  env=user_env())
    assert ran.returncode in (0, 4), ran.stderr
    assert "resourceSpans" in json.loads(elsewhere.read_text(encoding="utf-8"))


# ---- run --replay FILE.har: a response body that is there but no text is said as what it is --------------------------

@pytest.mark.parametrize(("text", "kind"), [(5, "number"), (["a"], "array"), (True, "boolean")])
def test_a_har_response_text_that_is_no_string_is_said_as_what_it_is(tmp_path: Path, text: Any, kind: str) -> None:
    """A HAR entry whose response.content.text is a number, a list or true (a hand-edited or mis-exported file) was
    refused as "response.content.text is missing or empty: the HAR was saved without content", which sends the user
    to export again with content it has. The line says what the field holds now; null and "" keep the old words."""
    har = json.loads((ROOT / "tests" / "data" / "har" / "sdk-session.har").read_text(encoding="utf-8"))
    har["log"]["entries"][1]["response"]["content"]["text"] = text
    path = tmp_path / "odd.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    line = refused(run_cli(["run", "--replay", str(path), "--trace-id", "1", "-p", "openai"], env=user_env()))
    assert f"{path} log.entries[1]" in line and f"response.content.text is a JSON {kind}, not the body's text" in line
    assert "missing or empty" not in line, line
