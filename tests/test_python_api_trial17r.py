"""A Python user's trial of the day's library surfaces (trial 17r, docs/python.md): ``trace_har.import_har`` as a
library call. Its errors quote no key (a key pasted where the provider id goes is its placeholder, as for
``import_saved``), its notes name the Python argument beside the command line's flag, and a type checker is told what
it returns (``SavedScenario`` for a ``sample``, as ``import_saved`` says). The HAR is written as HAR 1.2 lays out its
objects (``log.entries[]``, each ``request`` and ``response``), in-process."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

from toolchoice.providers import ToolchoiceError
from toolchoice.providers.core import saved_request, trace_har

KEY = "sk-proj-" + "Q1w2E3r4T5y6U7i8O9p0" * 3
BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
        "tool_choice": "required"}


def _entry(url: str) -> dict[str, typing.Any]:
    return {"startedDateTime": "2026-11-27T10:00:00Z", "time": 1, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
            "request": {"method": "POST", "url": url, "httpVersion": "HTTP/1.1", "cookies": [], "queryString": [],
                        "headers": [{"name": "Authorization", "value": f"Bearer {KEY}"}], "headersSize": -1,
                        "bodySize": -1, "postData": {"mimeType": "application/json", "text": json.dumps(BODY)}},
            "response": {"status": 500, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": -1, "mimeType": "text/plain", "text": "down"}, "redirectURL": "",
                         "headersSize": -1, "bodySize": -1}}


@pytest.fixture
def har(tmp_path: Path) -> Path:
    """Two calls to api.openai.com and one to a gateway toolchoice does not know, the key in its path too."""
    file = tmp_path / "s.har"
    entries = [_entry("https://api.openai.com/v1/chat/completions"), _entry("https://api.openai.com/v1/chat/completions"),
               _entry(f"https://llm.internal.example/{KEY}/v1/chat/completions")]
    file.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": entries}}),
                    encoding="utf-8")
    return file


def test_a_key_given_as_the_provider_is_quoted_by_its_placeholder(har: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/python.md: "a ToolchoiceError raised by a loader, a job or running_mock that quotes what you wrote ... names
    # every key set in the environment by its placeholder"; import_saved held to it, import_har quoted the key
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    for read in (trace_har.import_har, saved_request.import_saved):
        with pytest.raises(ToolchoiceError) as raised:
            read(har, provider=KEY)
        said = f"{raised.value} {raised.value.args} {raised.value.hint}"
        assert KEY not in said, read.__name__
    with pytest.raises(ToolchoiceError) as raised:
        trace_har.import_har(har, provider=KEY)
    assert "unknown provider '$OPENAI_API_KEY'" in str(raised.value)


def test_the_unknown_host_note_names_the_python_argument(har: Path) -> None:
    """A Python caller is told its argument (import_har's provider), not the command line's -p: the note's record
    carries both, and the command line spells its option where it draws it (tests/test_trace_har.py)."""
    listing = trace_har.import_har(har)
    assert isinstance(listing, trace_har.Listing)
    [note] = [n for n in listing.notes if n.code == "har.unknown_host"]
    assert note.message.endswith("not read; give provider=..., the API it speaks") and "-p" not in note.message
    assert "the API it speaks" in json.loads(json.dumps(listing.to_json()))["notes"][-1]["message"]


def test_the_listing_s_notes_quote_no_key_of_the_har(har: Path) -> None:
    # har.unknown_host quotes the gateway's path, whose key the Authorization header holds: the rows and a sample's
    # notes were redacted, the listing's notes were not (nor `trace FILE.har`'s, drawn from them)
    listing = trace_har.import_har(har)
    assert KEY not in repr(listing)
    [note] = [n for n in listing.notes if n.code == "har.unknown_host"]
    assert note.message.startswith("1 entry looks like an API request (POST /[redacted]/v1/chat/completions, ")
    assert KEY not in repr(trace_har.import_har(har, sample=1))


def test_a_type_checker_is_told_a_sample_is_one_saved_scenario() -> None:
    # as import_saved's overloads say: sample=N is a SavedScenario, none may be the Listing
    hints = [typing.get_type_hints(f, {**vars(trace_har), **vars(saved_request)}) for f in typing.get_overloads(
        trace_har.import_har)]
    assert [h["return"] for h in hints] == [saved_request.SavedScenario,
                                           saved_request.SavedScenario | trace_har.Listing]


@pytest.mark.parametrize("name, settings, said", [
    ("litellm", {"drop_params": "no"}, "settings['drop_params']: give True or False, not str"),
    ("litellm", {"drop_params": 1}, "settings['drop_params']: give True or False, not int"),
    ("vercel", {"active_tools": [1]}, "settings['active_tools'][0]: give a tool name (str), not int"),
    ("vercel", {"active_tools": {"get_weather": True}}, "settings['active_tools']: give tool names (a list of str, or "
                                                        "one str), not dict"),
])
def test_a_dialect_setting_of_the_wrong_type_is_one_wrong_argument(name: str, settings: dict[str, typing.Any],
                                                                   said: str) -> None:
    # docs/python.md, "Wrong arguments": {"drop_params": "no"} was read as True (bool("no")) and the request
    # shown without the parameters litellm drops; [1] was "1: not a tool of <scenario>"
    from toolchoice.providers import WrongArgument, load_scenario_text
    from toolchoice.providers.core import dialects, jobs

    scenario = load_scenario_text("tools: [{name: get_weather, parameters: {type: object}}]\ntool_choice: required\n"
                                  "messages: [{role: user, content: hi}]\n")
    with pytest.raises(WrongArgument) as raised:
        dialects.apply(name, jobs.render(scenario, "gemini"), scenario, settings)
    assert str(raised.value).startswith(said), raised.value
    assert isinstance(raised.value, TypeError)
    [kept] = dialects.apply("vercel", jobs.render(scenario, "openai"), scenario, {"active_tools": "get_weather"})
    assert kept.to_json()["active_tools"] == ["get_weather"]  # one name as a str: a list of one, as before


def test_the_listing_is_plain_data_as_trace_s_json_prints_it(har: Path) -> None:
    # json.dumps(listing) wrote each note as a bare [severity, code, message] list; the command line's document is
    # the truth outside this call: `toolchoice trace FILE.har -f json`
    from cli import run_cli

    listing = trace_har.import_har(har)
    assert isinstance(listing, trace_har.Listing)
    printed = json.loads(run_cli(["trace", str(har), "-f", "json"]).stdout)
    assert listing.to_json() == {key: printed[key] for key in ("samples", "notes", "replay")}
    assert json.loads(json.dumps(listing.to_json()))["notes"][-1]["code"] == "har.unknown_host"
