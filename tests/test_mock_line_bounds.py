"""`toolchoice mock`'s pretty line is bounded: a tool_choice of a megabyte made a line of a megabyte, a tools list of
thousands of names one of hundreds of kilobytes. Each text in the line is shown up to 1,000 characters, then how
many more there are; each list up to 4,000 characters, then how many more items; --format jsonl keeps every field
whole and --save every body (docs/mock.md). Huge requests are sent to a real mock on 127.0.0.1 and their lines
checked against the requests as sent."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core.mock.server import running_mock

LONG_CHOICE = "w" * 1_000_000
LONG_NAME = "t" * 200_000
SHORT_NAMES = [f"tool_{i}" for i in range(3000)]


def _tool(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": {}}}}


def _post(base_url: str, body: dict[str, Any]) -> int:
    host, port = base_url.split("//")[1].split("/")[0].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("POST", "/v1/chat/completions", json.dumps(body).encode(),
                           {"content-type": "application/json", "authorization": "Bearer sk-test"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.fixture(scope="module")
def exchanges(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], Path]:
    """Two huge requests to a real mock: a tool_choice word of 1,000,000 characters; 3,001 tools, one named with
    200,000 characters, which the tool_choice names."""
    saved = tmp_path_factory.mktemp("saved")
    messages = [{"role": "user", "content": "hi"}]
    with running_mock("openai", save_dir=saved) as mock:
        first = _post(mock.base_url, {"model": "gpt-4o", "messages": messages, "tools": [_tool("get_time")],
                                      "tool_choice": LONG_CHOICE})
        second = _post(mock.base_url, {"model": "gpt-4o", "messages": messages,
                                       "tools": [_tool(LONG_NAME)] + [_tool(name) for name in SHORT_NAMES],
                                       "tool_choice": {"type": "function", "function": {"name": LONG_NAME}}})
        records = mock.wait_for(2)
    assert (first, second) == (400, 400)  # a word outside OpenAI's set; a name longer than 64 characters
    return records, saved


def _drawn(record: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> str:
    from toolchoice.cli.mock_cmd import _pretty

    capsys.readouterr()
    _pretty(record)
    (line,) = capsys.readouterr().out.splitlines()
    return line


def test_a_tool_choice_of_a_megabyte_is_a_line_of_a_few_kilobytes(exchanges: Any,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = exchanges
    line = _drawn(records[0], capsys)
    assert len(line) < 4000
    # the first and last 500 characters as sent, around how many more: 1,000,000 - 1,000
    assert line.startswith("#1  /v1/chat/completions  whole  tool_choice " + "w" * 500
                           + "…[999,000 more characters]…" + "w" * 500 + " → ")
    assert "w" * 501 not in line
    # what the user needs is all there: the status, and the refusal in the API's recorded words
    assert "  400  -  findings: error tool_choice.word: " in line
    assert line.endswith("error mock.refused: Invalid value: '…'. Supported values are: 'none', 'auto', and "
                         "'required'.")


def test_a_tools_list_of_thousands_is_cut_with_how_many_more(exchanges: Any,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = exchanges
    line = _drawn(records[1], capsys)
    assert len(line) < 20000
    tools = re.search(r"  tools \[(.*?)\]  ", line)
    assert tools is not None
    shown = tools[1].split(", ")
    assert shown[0] == "t" * 500 + "…[199,000 more characters]…" + "t" * 500  # the long name, cut in its middle
    more = re.fullmatch(r"…\[([\d,]+) more tools\]", shown[-1])
    assert more is not None
    names = shown[1:-1]
    assert names == SHORT_NAMES[:len(names)] and names  # in the request's order, whole
    assert 1 + len(names) + int(more[1].replace(",", "")) == 1 + len(SHORT_NAMES)  # every tool counted
    assert "t" * 501 not in line and "400" in line and "findings: error " in line  # each copy cut


def test_the_jsonl_record_and_the_saved_body_keep_everything(exchanges: Any,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Where docs/mock.md says the whole is: --format jsonl's line (the record as it is written) and --save's files."""
    from toolchoice.cli.mock_cmd import MockFormat, _printer

    records, saved = exchanges
    capsys.readouterr()
    printer = _printer(MockFormat.jsonl)
    for record in records:
        printer(record)
    first, second = (json.loads(text) for text in capsys.readouterr().out.splitlines())
    assert first["requested"] == LONG_CHOICE
    assert second["offered_tools"] == [LONG_NAME, *SHORT_NAMES]
    bodies = "".join(path.read_text(encoding="utf-8") for path in sorted(saved.rglob("*")) if path.is_file())
    assert LONG_CHOICE in bodies and bodies.count(LONG_NAME) >= 2  # the tool and the tool_choice naming it


def test_the_summary_bounds_each_message_and_keeps_its_words(capsys: pytest.CaptureFixture[str]) -> None:
    """The pretty printer's closing lines on stderr say what each warning meant, quoting its message: a result of a
    call with an id of 300,000 characters no answer of the mock made (mock.result_unknown_call) is bounded as the
    lines are, the message's own words after the id kept."""
    from toolchoice.cli.mock_cmd import WORDS_AT_MOST, _Pretty, _summary

    long_id = "c" * 300_000
    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": long_id, "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": long_id, "content": "noon"}]
    with running_mock("openai") as mock:
        assert _post(mock.base_url, {"model": "gpt-4o", "messages": messages, "tools": [_tool("get_time")]}) == 200
        (record,) = mock.wait_for(1)
    (finding,) = [f for f in record["findings"] if f["code"] == "mock.result_unknown_call"]
    assert long_id in finding["message"]  # the record keeps it whole
    printer = _Pretty()
    capsys.readouterr()
    printer(record)
    _summary("toolchoice mock: stopped after 1 requests, 0 refused", printer)
    captured = capsys.readouterr()
    (line,) = captured.out.splitlines()
    assert len(line) < 3000
    assert "  results " + "c" * 500 + "…[299,000 more characters]…" + "c" * 500 + "←#?" in line
    explained = [text for text in captured.err.splitlines() if "mock.result_unknown_call" in text]
    assert len(explained) == 1 and len(explained[0]) < WORDS_AT_MOST + 100
    assert "c" * (WORDS_AT_MOST // 2 + 1) not in explained[0] and "more characters]" in explained[0]
    tail = finding["message"].split(long_id)[-1]  # what the message says after the id
    assert tail and explained[0].endswith(tail[-400:])
