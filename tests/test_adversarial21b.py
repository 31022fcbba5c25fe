"""Adversarial round 21b on the twenty-first session's merges: the duplicate-key checks (bounded.duplicate_line,
stream.duplicate_key), --tool-choice's YAML checks, HAR replay's resumed reading (saved_prefix), and the rest that
landed that day. Each test is an attack; those that found a defect failed before its fix."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cli import run_cli, user_env
from toolchoice.providers.core import bounded
from toolchoice.providers.core.model import ToolchoiceError


# ---- bounded.duplicate_line: the line of the object naming a key twice -------------------------------------------

def _python_scanner_line(text: str, at: int = 0) -> int | None:
    """The standard library's pure-Python scanner, which tells where each object starts: the truth the line is
    checked against (what duplicate_line read before, at ~3.5x the C scanner's cost)."""
    from json.decoder import JSONObject
    from json.scanner import py_make_scanner

    found: list[int] = []

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> Any:
        try:
            return JSONObject(s_and_end, *args)
        except bounded.DuplicateKey:
            if not found:
                found.append(s_and_end[0].count("\n", 0, s_and_end[1]) + 1)
            raise

    decoder = json.JSONDecoder(object_pairs_hook=bounded.unique_keys)
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)
    try:
        decoder.raw_decode(text, at)
    except (ValueError, RecursionError):
        pass
    return found[0] if found else None


_WORDS = ['a', 'b', '{', '}', '"', '\\', '{"a": 1, "a": 2}', 'x\ny', '\\"}', 'k']


def _random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(5 if depth < 5 else 2)
    if kind == 0:
        return rng.choice(_WORDS)
    if kind == 1:
        return rng.randrange(100)
    if kind == 2:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(_WORDS): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _with_a_key_twice(rng: random.Random, value: Any) -> str:
    """``value``'s JSON, indented at random, with one of its objects (or a new one) naming a key twice."""
    text = json.dumps(value, indent=rng.choice([None, 1, 2]))
    spots = [i for i, c in enumerate(text) if c == "{" and text[i + 1:i + 2] != "}"]
    twice = '"dup": 1, "dup": 2' + ("" if not spots else ", ")
    if spots and rng.random() < 0.8:
        # only an object's opening brace outside strings: json.dumps writes '{"' there, and '\\"{' inside them
        spots = [i for i in spots if text[i + 1] in '"\n ' and (i == 0 or text[i - 1] != '\\')]
    at = rng.choice(spots) if spots else None
    if at is None or text[at - 1:at] == '"':
        return json.dumps([value, {"dup": 1, "dup2": 0}]).replace('"dup2"', '"dup"')
    return text[:at + 1] + twice + text[at + 1:]


def test_duplicate_line_agrees_with_the_python_scanner_on_random_documents() -> None:
    rng = random.Random(2111)
    checked = 0
    for _ in range(400):
        text = _with_a_key_twice(rng, _random_value(rng, 0))
        try:
            json.loads(text, object_pairs_hook=bounded.unique_keys)
            continue  # the spot was inside a string: no key twice after all
        except bounded.DuplicateKey:
            pass
        except ValueError:
            continue
        assert bounded.duplicate_line(text) == _python_scanner_line(text), text
        checked += 1
    assert checked > 200


def test_duplicate_line_from_a_later_document_of_json_lines() -> None:
    text = '{"a": "{"}\n{"b": "}\\"{"}\n{"c":\n {"d": 1,\n "d": 2}}\n'
    at = text.index('{"c"')
    assert bounded.duplicate_line(text, at) == _python_scanner_line(text, at) == 4


def test_duplicate_line_does_not_read_the_text_again_with_the_pure_python_scanner(monkeypatch) -> None:
    """A 10 MB file naming a key twice at its end was read again by json's pure-Python scanner for the line: 3.4 s
    (a 50 MB file, its limit raised: ~17 s); now the C scanner counts the objects and a scan of braces finds the one
    (1.2 s for 10 MB). The pure-Python scanner is held off here: the line still comes."""
    import json.scanner

    def refused(*_: Any) -> Any:
        raise AssertionError("the pure-Python scanner was used")

    monkeypatch.setattr(json.scanner, "py_make_scanner", refused)
    text = "[\n" + ",\n".join('{"k": "}{\\"", "v": [1, {}]}' for _ in range(200)) + ',\n{"a": 1,\n "a": 2}]'
    with pytest.raises(bounded.DuplicateKey) as caught:
        bounded.json_loads(text, object_pairs_hook=bounded.unique_keys)
    assert caught.value.line == 202


# ---- stream.duplicate_key: a key named twice in events' data ------------------------------------------------------

def test_a_stream_naming_a_new_key_twice_in_every_event_gives_few_findings() -> None:
    """200,000 events each naming its own key twice: 200,000 findings (41 MB of text), and the keys said compared
    whole after each read (44 s: quadratic). Now the first TWICE_SAID keys are said, then one line for the rest."""
    from toolchoice.providers.core.stream_framing import TWICE_SAID, EventDecoder

    decoder = EventDecoder("sse")
    for start in range(0, 2000, 10):
        decoder.feed(b"".join(f'data: {{"k{i}": 0, "k{i}": 1}}\n\n'.encode() for i in range(start, start + 10)))
    decoder.close()
    said = [f for f in decoder.findings if f.code == "stream.duplicate_key"]
    assert len(said) == TWICE_SAID + 1
    assert "more keys are named twice" in said[-1].message
    assert len({f.message for f in said}) == len(said)


def test_a_huge_key_named_twice_is_cut_in_its_finding() -> None:
    from toolchoice.providers.core.stream_framing import EventDecoder

    key = "k" * 100_000
    decoder = EventDecoder("sse")
    decoder.feed(f'data: {{"{key}": 0, "{key}": 1}}\n\n'.encode())
    decoder.close()
    (said,) = [f for f in decoder.findings if f.code == "stream.duplicate_key"]
    assert len(said.message) < 600 and "kkk…" in said.message


# ---- --tool-choice YAML ----------------------------------------------------------------------------------------------

def _choice_error(text: str) -> str:
    from toolchoice.providers.core.choice import parse_cli_value

    with pytest.raises(ToolchoiceError) as caught:
        parse_cli_value(text)
    return caught.value.message


def test_tool_choice_keys_1_and_true_are_not_one_key_written_twice() -> None:
    """YAML's 1 and true are equal in a Python set: `{1: a, true: b}` was "the key true is written twice"."""
    assert _choice_error("{1: a, true: b}") == "--tool-choice: keys must be strings, not 1"
    assert _choice_error("{tool: a, 1: x, 1: y}") == "--tool-choice: the key 1 is written twice"


@pytest.mark.parametrize("text", ["{tool: &x [*x]}", "{type: function, function: &f {name: *f}}"])
def test_tool_choice_alias_loop_is_named_not_quoted_as_a_python_repr(text: str) -> None:
    """An alias inside its own anchor: the error quoted Python's repr of the loop, {'tool': [[...]]}."""
    said = _choice_error(text)
    assert "alias refers to a mapping or list that contains it" in said and "[...]" not in said and "{...}" not in said


def test_tool_choice_an_alias_used_twice_is_not_a_loop() -> None:
    from toolchoice.providers.core.choice import parse_cli_value

    assert parse_cli_value("{a: &y {b: 1}, c: *y, d: [*y, *y]}") == {"a": {"b": 1}, "c": {"b": 1},
                                                                   "d": [{"b": 1}, {"b": 1}]}


def test_a_tool_file_with_nan_before_a_key_twice_is_refused_at_the_line(tmp_path) -> None:
    """NaN turned the file from the JSON reading (which refuses it) to the lenient one after YAML, whose refusal of the
    key twice named the file only."""
    from toolchoice.providers.core.tool_import import import_file

    path = tmp_path / "tools.json"
    path.write_text('{"name": "a", "x": NaN,\n "y": {"x": 1,\n "x": 2}}', encoding="utf-8")
    with pytest.raises(ToolchoiceError) as caught:
        import_file(path)
    assert caught.value.line == 2 and 'the key "x" is written twice' in caught.value.message


# ---- HAR replay's resumed reading: the same scenario as the whole text's ---------------------------------------------

_ODD = ["x\x85y", "a\u2028b", "\ud800", "\x7f", "é", "", " ", "[b]x[/b]", "1", None, 1, True, ["a"], {"a": 1}]


def _message(rng: random.Random, n: int) -> Any:
    kind = rng.randrange(9)
    if kind == 0:
        return {"role": "user", "content": rng.choice(_ODD)}
    if kind == 1:
        return {"role": "assistant", "content": f"ok {n}"}
    if kind == 2:
        return {"role": "assistant", "tool_calls": [{"id": f"c{n % 5}", "name": "get_weather", "arguments": rng.choice(
            [{"city": "x"}, '{"city": "y"}', "nope", None, [1]])}]}
    if kind == 3:
        return {"role": "tool", "tool_call_id": f"c{rng.randrange(5)}", "content": "r"}
    if kind == 4:
        return {"role": rng.choice(["system", "developer"]), "content": "sys"}
    if kind == 5:
        return {"role": rng.choice(["bogus", ["system"], None, 1, "model"]), "content": "x"}
    if kind == 6:
        return rng.choice([None, 1, "text", []])
    if kind == 7:
        return {"role": "user", "content": [{"type": "text", "text": "t"}]}
    return {"role": "assistant", "content": None, "reasoning_content": "think"}


def test_the_resumed_reading_of_a_growing_conversation_is_the_whole_reading() -> None:
    """Differential: each call's scenario read on from the previous call's messages (saved_prefix.resumed) against
    the loader reading the whole text, over conversations that grow as an agent's do, with odd messages, leading
    system messages that change between calls, a top-level system:, and tool_choice values."""
    from toolchoice.providers.core import saved_prefix
    from toolchoice.providers.core.saved_request import _escaped
    from toolchoice.providers.core.scenario import _loaded

    tools = [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]

    def whole(data: dict[str, Any]) -> Any:
        try:
            return _loaded(_escaped(json.dumps(data, ensure_ascii=False)), "f.json")
        except ToolchoiceError as exc:
            return exc.message

    rng = random.Random(21)
    compared = 0
    for _ in range(50):
        saved_prefix._LAST.clear()
        lead: list[Any] = [{"role": "system", "content": "S"}] * rng.randrange(3)
        conversation: list[Any] = []
        for _step in range(5):
            for _ in range(rng.randrange(1, 3)):
                n = len(conversation)
                conversation.append(_message(rng, n) if rng.random() < 0.2 else {"role": "user", "content": f"u{n}"})
            if rng.random() < 0.2:
                lead = [{"role": rng.choice(["system", "developer"]), "content": "S2"}] * rng.randrange(3)
            data: dict[str, Any] = {"tools": tools, "messages": lead + conversation}
            if rng.random() < 0.2:
                data["tool_choice"] = rng.choice(["auto", "required", {"tool": "get_weather"}, "bogus"])
            if rng.random() < 0.1:
                data["system"] = "top"
            got = saved_prefix.resumed("f.json", data, _escaped)
            if got is not None:
                assert got == whole(data), json.dumps(data)
                compared += 1
    assert compared > 60


# ---- a huge key named twice: quoted cut, in every message that names it ------------------------------------------

def test_a_key_of_200000_characters_written_twice_is_quoted_cut() -> None:
    key = "Q" * 200_000
    with pytest.raises(bounded.DuplicateKey) as caught:
        bounded.json_loads(json.dumps({key: 1})[:-1] + f', "{key}": 2}}', object_pairs_hook=bounded.unique_keys)
    assert caught.value.key == key and len(str(caught.value)) < 200 and "QQQ…\" is written twice" in str(caught.value)


def test_trace_tool_definitions_naming_a_huge_key_twice_warn_in_a_short_line(tmp_path) -> None:
    """The trace's warning comment quoted the whole key: a line of 200 KB in the scenario written out."""
    key = "Q" * 200_000
    tools = ('[{"type": "function", "name": "get_time", "%s": 1, "%s": 2, "parameters": {"type": "object"}}]'
             % (key, key))
    span = {"traceId": "0" * 31 + "1", "spanId": "0" * 15 + "1", "name": "chat m", "kind": 3,
            "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.provider.name", "value": {"stringValue": "openai"}},
                {"key": "gen_ai.input.messages", "value": {"stringValue":
                                                           '[{"role": "user", "parts": [{"type": "text", '
                                                           '"content": "hi"}]}]'}},
                {"key": "gen_ai.tool.definitions", "value": {"stringValue": tools}}]}
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    done = run_cli(["trace", str(path)], env=user_env())
    assert done.returncode == 0, done.stderr
    (said,) = [line for line in done.stdout.splitlines() if "gen_ai.tool.definitions" in line]
    assert "twice" in said and len(said) < 600 and max(len(line) for line in done.stdout.splitlines()) < 600


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_json_bytes_with_a_bom_naming_a_key_twice_say_the_line(encoding: str) -> None:
    """json.loads reads bytes with a BOM (and UTF-16); their line was looked for in the bytes decoded as plain UTF-8,
    where the BOM (or every second NUL) stopped the reading: no line (a step's reply file, run --replay)."""
    raw = '{"a": 1,\n "b": {"c": 1,\n  "c": 2}}'.encode(encoding)
    with pytest.raises(bounded.DuplicateKey) as caught:
        bounded.json_loads(raw, object_pairs_hook=bounded.unique_keys)
    assert caught.value.line == 2


def test_a_replayed_reply_file_with_a_bom_and_a_key_twice_is_refused_at_its_line(tmp_path) -> None:
    from toolchoice.providers.core import loop

    (tmp_path / "step-01.response.json").write_text(json.dumps({
        "id": "x", "object": "chat.completion", "model": "gpt-4o", "choices": [{
            "index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}),
        encoding="utf-8")
    (tmp_path / "step-01.reply.json").write_text('{"x": 1,\n "reply": {"tool_calls": [],\n "tool_calls": []}}',
                                                 encoding="utf-8-sig")
    with pytest.raises(ToolchoiceError) as caught:
        loop.load_replay(str(tmp_path), "openai")
    assert "written twice" in str(caught.value) and "step-01.reply.json:2" in str(caught.value)


@pytest.mark.parametrize("text", ["{<<: {tool: get_time}, tool: get_weather}", "{<<: {tool: get_time}}"])
def test_tool_choice_merge_keys_are_refused_in_the_scenario_readers_words(text: str) -> None:
    """A key merged and written again (YAML's override) was "the key tool is written twice"; a scenario's tool_choice
    refuses merge keys whole: the option now says the same."""
    assert _choice_error(text) == "--tool-choice: YAML merge keys (<<) are not supported"


def test_a_from_file_name_holding_nul_is_one_line_not_an_internal_error(tmp_path) -> None:
    """`from: "x\\0y.json"` reached os.open's ValueError (embedded null byte): exit 70, "internal error"."""
    scenario = tmp_path / "nul.yaml"
    scenario.write_text('tools: [{from: "x\\0y.json"}]\nmessages: [{role: user, content: hi}]\n', encoding="utf-8")
    done = run_cli(["render", str(scenario), "-p", "openai"], env=user_env())
    assert done.returncode == 2 and "internal error" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert "nul.yaml:1" in line and "no such file" in line


def test_the_resumed_reading_refuses_what_the_whole_text_passes_its_text_bound_with(monkeypatch) -> None:
    """The parts' characters counted against expanded_bytes as the whole text's are: a resumed reading never takes a
    conversation the whole reading refuses as too much text (a small bound, conversations growing past it)."""
    from toolchoice.providers.core import saved_prefix
    from toolchoice.providers.core.saved_request import _escaped
    from toolchoice.providers.core.scenario import _loaded

    monkeypatch.setenv("TOOLCHOICE_LIMIT_EXPANDED_BYTES", "3000")
    rng = random.Random(3)
    compared = refused = 0
    for _ in range(25):
        saved_prefix._LAST.clear()
        conversation: list[Any] = []
        for _step in range(10):
            conversation += [{"role": "user", "content": "x" * rng.randrange(10, 400)},
                             {"role": "assistant", "content": "y" * rng.randrange(1, 50)}]
            data = {"tools": [{"name": "t" * rng.randrange(1, 60)}],
                    "messages": [{"role": "system", "content": "s" * rng.randrange(0, 300)}] + conversation}
            got = saved_prefix.resumed("f.json", data, _escaped)
            try:
                want: Any = _loaded(_escaped(json.dumps(data, ensure_ascii=False)), "f.json")
            except ToolchoiceError:
                want = None
                refused += 1
            if got is not None:
                assert got == want
                compared += 1
    saved_prefix._LAST.clear()
    assert compared > 20 and refused > 20


def test_the_nearest_file_name_is_found_whatever_the_case(tmp_path) -> None:
    """`toolchoice tools SRV.PY` beside srv.py said "check the path": difflib's ratio of the two is 0.33."""
    (tmp_path / "srv.py").write_text("print(1)\n", encoding="utf-8")
    with pytest.raises(ToolchoiceError) as caught:
        bounded.read_file(tmp_path / "SRV.PY")
    assert caught.value.hint == f"did you mean {tmp_path / 'srv.py'}?"


def test_a_har_body_nested_past_json_depth_is_said_so_not_called_not_json(tmp_path) -> None:
    """A recorded request nested past json_depth was "request.postData.text is not JSON (the JSON nests too deeply
    ...)": JSON it is; the bound is what stops it (bounded.Unreadable's words, never "not JSON")."""
    from har_loops import loop_har

    path = loop_har(tmp_path / "loop.har", 4, "sk-test-" + "a" * 24)
    har = json.loads(path.read_text(encoding="utf-8"))
    post = har["log"]["entries"][2]["request"]["postData"]
    body = json.loads(post["text"])
    nested: dict[str, Any] = {}
    inner = nested
    for _ in range(150):
        inner["a"] = {}
        inner = inner["a"]
    body["metadata"] = nested
    post["text"] = json.dumps(body)
    path.write_text(json.dumps(har), encoding="utf-8")
    done = run_cli(["run", "--replay", str(path), "-p", "openai"], env=user_env())
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "log.entries[2]" in line and "nests too deeply" in line and "not JSON" not in line


def test_json_starting_with_blank_lines_names_the_line_of_its_key_twice(tmp_path) -> None:
    """json.loads takes text starting with blank lines, raw_decode (which the line is found with) does not: a tool
    file or a parse FILE starting with an empty line was refused naming the file only."""
    from toolchoice.providers.core.tool_import import import_file

    assert bounded.duplicate_line('\n\n {"a": 1,\n "b": {"c": 1, "c": 2}}') == 4
    path = tmp_path / "tools.json"
    path.write_text('\n\n[{"name": "a",\n "name": "b"}]\n', encoding="utf-8")
    with pytest.raises(ToolchoiceError) as caught:
        import_file(path)
    assert caught.value.line == 3  # (parse FILE reads a server's reply as send does since 2026-11-28: not refused)


def test_a_dev_fd_link_past_any_descriptor_is_refused_not_an_internal_error() -> None:
    """/dev/fd/N is written to descriptor N (save._stream_named); an N past a C int made os.dup raise OverflowError,
    which no one caught: exit 70. No descriptor is written here (none has that number)."""
    from pathlib import Path

    from toolchoice.providers.core.errors import ArgumentError
    from toolchoice.providers.core.save import write_atomic

    with pytest.raises(ArgumentError) as caught:
        write_atomic(Path("/dev/fd/99999999999999999999"), "x", "trace_out")
    assert "Bad file descriptor" in str(caught.value)
