"""A sent sample keeps the reply's body once, as the bytes that arrived (`runner.Sample.raw`): `raw_text` decodes
them and `raw_json` parses them when asked, as the body was read to judge it, so what is shown and saved is
unchanged (bench/parse_memory.py measures what this saves).

The truth is the body a stand-in server on 127.0.0.1 sent (tests/servers.py; the recorded OpenAI reply,
tests/data/responses/openai/SOURCES.md, with its call's arguments replaced), read back from `--save`'s file and
from `send --raw --format json`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from servers import StandIn, Step  # noqa: E402
from test_loop import KEY, env, openai_body, toolchoice  # noqa: E402

from toolchoice.providers.core import jobs, runner  # noqa: E402
from toolchoice.providers.core.model import RenderOptions  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

SCENARIO = """\
tools:
  - {name: search, parameters: {type: object, properties: {query: {type: string}}}}
tool_choice: required
messages: [{role: user, content: find cats}]
"""


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def sent_body(charset: str = "utf-8") -> bytes:
    """The recorded reply, its call's arguments holding text a str keeps at 4 bytes a character (an emoji)
    and a character outside ASCII, laid out as a server lays it out (not as json.dumps would)."""
    body = openai_body([("c1", "search", {"query": "chats \U0001F431 café"})])
    return json.dumps(body, ensure_ascii=False, indent=1).encode(charset)


@pytest.mark.parametrize("charset", ["utf-8", "utf-16"])
def test_a_samples_body_is_the_bytes_that_arrived_read_as_text_and_json_when_asked(charset: str) -> None:
    body = sent_body(charset)
    scenario = load_scenario_text(SCENARIO, "s.yaml")
    with StandIn("openai", Step(body=body, content_type=f"application/json; charset={charset}")) as server:
        [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=server.base_url()))
        result = jobs.send(scenario, translation, settings=runner.SendSettings(retries=0))
    sample = result.samples[0]
    assert sample.raw == body and sample.parsed is runner.FROM_RAW  # held once, as it arrived ...
    assert sample.raw_text == body.decode(charset)  # ... read in the server's charset when asked
    assert sample.raw_json == json.loads(body.decode(charset)) and sample.raw_is_json
    assert sample.reply.tool_calls[0].arguments == {"query": "chats \U0001F431 café"}
    assert result.code == 0


def test_send_save_and_raw_show_the_body_as_it_arrived(tmp_path: Path) -> None:
    body = sent_body()
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", default=Step(body=body)) as server:
        printed = toolchoice("send", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                             "--repeat", "3", "--raw", "--format", "json", "--save", str(tmp_path / "saved"))
    assert printed.returncode == 0, printed.stderr
    document = json.loads(printed.stdout)
    raws = [r["raw"] for r in document["results"]]
    assert raws == [json.loads(body)] * 3  # --raw: each parsed body, parsed again from the bytes it kept
    for n in (1, 2, 3):  # --save: the bytes as they arrived
        assert (tmp_path / "saved" / f"sample-{n:03d}.response.json").read_bytes() == body


def test_a_body_that_is_not_json_is_shown_and_saved_as_its_text(tmp_path: Path) -> None:
    text = "upstream said: no \U0001F431 here\n"
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", default=Step(status=502, body=text.encode(), content_type="text/plain")) as server:
        printed = toolchoice("send", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                             "--raw", "--format", "json", "--save", str(tmp_path / "saved"))
    assert json.loads(printed.stdout)["raw"] == text
    assert (tmp_path / "saved" / "sample-001.response.txt").read_text(encoding="utf-8") == text
