"""Adversarial round on session 13's new surfaces (trial13f): the wire column's JSON breaking (call_lines.json_lines)
in the dry runs, limits in seconds taking a decimal (and every limit's largest value), `providers -p`, the Python
API's door checks. Each test failed before its fix; the commands run in-process (tests/cli.py), the files read are
real files."""

from __future__ import annotations

import io
import json
import sys

import pytest

from cli import run_cli

KEY = "sk-adversarial13-0123456789abcdef"
HUGE = "999999999999999999"  # the largest value a TOOLCHOICE_LIMIT_<NAME> takes (18 digits: meant, no bound)


def environment(columns: int, **more: str) -> dict[str, str]:
    return {"OPENAI_API_KEY": KEY, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb", **more}


def scenario_with_wire(tmp_path, tool_choice: object) -> str:
    """A scenario whose openai body's tool_choice is ``tool_choice`` as written (``extra``: merged last)."""
    document = {"tools": [{"name": "get_weather", "description": "d",
                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
                "tool_choice": {"tool": "get_weather"}, "messages": [{"role": "user", "content": "hi"}],
                "providers": {"openai": {"extra": {"tool_choice": tool_choice}}}}
    (tmp_path / "s.yaml").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return "s.yaml"


def wire_lines(stdout: str) -> list[str]:
    """render's wire form on lines of its own: the lines after '→  on the wire', up to the request's POST."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "→  on the wire") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("POST"))
    return lines[start:end]


# A tool_choice string holding zero-width joiners (an emoji family, a name copied from a web page): the console
# writes each out as \u200d (redaction.visible: a terminal must not join or hide it), six cells where rich counts
# none. render's wire line was laid out before that, so rich folded it again inside the string:
# `"👩\u200d👩\u200d👧\u200d👦👩\u200d👩\u2` over `00d👧\u200d…`, four lines where one shortened line was meant.
@pytest.mark.parametrize("columns", [40, 60, 80])
def test_render_s_wire_line_is_measured_as_shown(tmp_path, columns):
    from rich.cells import cell_len

    name = scenario_with_wire(tmp_path, {"name": "👩\u200d👩\u200d👧\u200d👦" * 30})
    done = run_cli(["render", name, "-p", "openai"], env=environment(columns), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    wire = wire_lines(done.stdout)
    assert wire == ['{"name":', wire[1]] and wire[1].endswith("…"), wire  # the key, then the string shortened
    assert wire[1].startswith('"👩\\u200d👩\\u200d') and cell_len(wire[1]) <= columns, wire
    assert "\u200d" not in done.stdout  # written out, never raw


# A tool_choice nested 90 deep (a gateway's extra: field, a dialect's object): its value ends in 90 closing
# brackets, one piece with the scalar before them, so the wire column shortened it: `1}}}}…}…` at 40 columns, the
# closing brackets past the line lost in every layout (render's wire line, compare's column, run's step table).
@pytest.mark.parametrize("wire", [json.loads('{"a":' * 90 + "1" + "}" * 90), json.loads("[" * 90 + "]" * 90)])
@pytest.mark.parametrize("columns", [40, 60])
def test_a_deeply_nested_wire_form_is_drawn_whole(tmp_path, wire, columns):
    name = scenario_with_wire(tmp_path, wire)
    text = json.dumps(wire, separators=(",", ":"))
    done = run_cli(["render", name, "-p", "openai"], env=environment(columns), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = wire_lines(done.stdout)
    assert "".join(lines) == text and all(len(line) <= columns for line in lines), lines
    compared = run_cli(["compare", name, "-p", "openai", "-f", "pretty"], env=environment(columns), cwd=tmp_path)
    cells = [line.split("│")[2].strip() for line in compared.stdout.splitlines() if line.count("│") >= 3]
    assert "".join(cell for cell in cells if cell and set(cell) <= set(text)) == text, compared.stdout


def test_json_lines_break_a_run_of_closers_only_where_it_must():
    """The common wire forms are laid out as before: the breaks between closers come last."""
    from toolchoice.cli.call_lines import json_least, json_lines

    named = '{"type":"function","function":{"name":"get_weather"}}'
    assert json_lines(named, 40) == ['{"type":"function",', '"function":{"name":"get_weather"}}']
    assert json_least(named) == len('"get_weather"}}')  # the column's least width: unchanged
    # where a value and its closers were shortened together (`"get_weather"…`), the closers go on
    assert json_lines(named, 14) == ['{"type":', '"function",', '"function":{', '"name":', '"get_weather"}', '}']
    assert json_lines('{"a":"' + "x" * 50 + '"}', 20) == ['{"a":', '"' + "x" * 18 + "…"]  # a scalar: as before
    assert json_lines("[" * 6 + "1" + "]" * 6, 4) == ["[[[[", "[[1]", "]]]]", "]"]  # was `1]]…`: two lost


# The largest value a limit takes (18 digits, what a user writes for "no bound") made every read of a whole stream
# ask for that many bytes at once: `stream.read(cap + 1)` is a buffer of the requested size first, so
# `parse -`, a scenario on stdin, `trace FILE` and a snapshot check were `internal error: MemoryError` (exit 70).
def test_a_limit_raised_to_its_largest_reads_stdin_and_files(tmp_path, monkeypatch):
    from pathlib import Path

    from toolchoice.cli.parse_cmd import read_bytes
    from toolchoice.providers.core import bounded, snapshot, trace_import

    body = tmp_path / "body.json"
    body.write_bytes(b'{"choices": []}')
    for name in ("FILE_BYTES", "STREAM_BYTES"):
        monkeypatch.setenv(f"TOOLCHOICE_LIMIT_{name}", HUGE)
    with open(body, "rb") as stream:  # a real stdin: a buffered binary stream under a text one
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8"))
        assert bounded.read_stdin_text() == '{"choices": []}'
    with open(body, "rb") as stream:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8"))
        assert read_bytes(Path("-"), "", "") == b'{"choices": []}'
    trace = tmp_path / "trace.json"
    trace.write_text('{"resourceSpans": []}', encoding="utf-8")
    assert trace_import.read_spans(trace) == []
    assert snapshot._snapshot_text(body, "x") == '{"choices": []}'


def test_read_at_most_stops_one_past_the_cap(tmp_path):
    from toolchoice.providers.core.bounded import CHUNK, read_at_most

    data = tmp_path / "data"
    data.write_bytes(b"x" * (CHUNK + 10))
    with open(data, "rb") as stream:
        assert len(read_at_most(stream, CHUNK + 3)) == CHUNK + 4
    with open(data, "rb") as stream:
        assert len(read_at_most(stream, CHUNK * 4)) == CHUNK + 10
    assert read_at_most(io.StringIO("abc"), 1) == "ab" and read_at_most(io.BytesIO(b""), 5) == b""


# TOOLCHOICE_LIMIT_PATTERN_SECONDS at its largest (or any value past ~9.2e12 seconds, which the decimal form
# reaches in 16 characters: 9999999999999.9): the regex package counts its timeout in microseconds in 64 bits and
# times out at once past that, so every pattern of every tool was "took more than 999999999999999999 seconds" and
# no call's arguments were checked, where the user had asked for no bound at all.
@pytest.mark.parametrize("seconds", [HUGE, "9999999999999.9"])
def test_a_pattern_limit_past_the_regex_package_s_clock_still_matches(monkeypatch, seconds):
    from toolchoice.providers.core import schema_patterns

    monkeypatch.setenv("TOOLCHOICE_LIMIT_PATTERN_SECONDS", seconds)
    monkeypatch.setattr(schema_patterns, "_SLOW", set())
    assert schema_patterns.matches("^[a-z]+$", "paris", whole=True)
    assert not schema_patterns.matches("^[a-z]+$", "Paris!", whole=True)


# ---- the Python API's doors -------------------------------------------------------------------------------------

def _rate_limited():
    """An httpx transport answering 429 to every request, and the list of requests it got."""
    import httpx

    seen: list[object] = []

    def answer(request):
        seen.append(request)
        return httpx.Response(429, json={"error": {"message": "slow down", "type": "rate_limit"}})

    return httpx.MockTransport(answer), seen


@pytest.fixture(scope="module")
def rendered():
    from toolchoice.providers import load_scenario_dict
    from toolchoice.providers.core import jobs

    scenario = load_scenario_dict({"tools": [{"name": "get_weather", "parameters": {"type": "object"}}],
                                   "tool_choice": "required", "messages": [{"role": "user", "content": "hi"}]})
    return scenario, jobs.render(scenario, ["openai"])[0]


# SendSettings.sleep is awaited between retries. time.sleep (the first sleep a Python user reaches for) or any
# function that returns nothing to await made every retried sample an internal error quoting "TypeError: object
# NoneType can't be used in 'await' expression" -- after blocking the event loop for the wait -- where a wrong
# argument is refused in the caller's words.
def test_a_sleep_that_is_not_async_is_refused_in_the_caller_s_words(rendered, monkeypatch):
    import time

    from toolchoice.providers import SendSettings, WrongArgument
    from toolchoice.providers.core import jobs

    scenario, translation = rendered
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    transport, seen = _rate_limited()
    with pytest.raises(WrongArgument, match=r"^settings\.sleep: give an async function"):
        jobs.send(scenario, translation, settings=SendSettings(sleep=time.sleep, transport=transport, retries=1))
    assert seen == []  # refused at the door: nothing sent
    with pytest.raises(WrongArgument, match=r"^settings\.sleep: .*returned NoneType, not something to await"):
        jobs.send(scenario, translation, settings=SendSettings(sleep=lambda seconds: None, transport=transport,
                                                               retries=1))
    assert len(seen) == 1  # the first answer asked for the retry the sleep could not wait for


# A number too large for a float (or for Python to write out: over 4,300 digits) passed the type check and then
# raised OverflowError (math.isfinite) or ValueError (writing it into the refusal), not the ToolchoiceError naming
# the field.
def test_numbers_too_large_to_write_out_are_refused_by_their_field(rendered):
    from toolchoice.providers import LoopOptions, SendSettings, ToolchoiceError
    from toolchoice.providers.core import jobs

    scenario, translation = rendered
    cases = [(lambda: jobs.send(scenario, translation, settings=SendSettings(timeout=10**400)), "settings.timeout"),
             (lambda: jobs.send(scenario, translation, settings=SendSettings(retries=10**5000)), "settings.retries"),
             (lambda: jobs.send(scenario, translation, repeat=10**5000), "repeat"),
             (lambda: jobs.run(scenario, ["openai"], LoopOptions(results_timeout=10**400)), "options.results_timeout")]
    for call, field in cases:
        with pytest.raises(ToolchoiceError) as raised:
            call()
        assert str(raised.value).startswith(f"{field} (a number of about "), raised.value
        assert len(str(raised.value)) < 200


def test_a_transport_without_aclose_is_refused_at_the_door(rendered):
    from toolchoice.providers import SendSettings, WrongArgument
    from toolchoice.providers.core import jobs

    scenario, translation = rendered

    class HalfTransport:  # handle_async_request alone: the client's aclose() was an AttributeError after the send
        async def handle_async_request(self, request):  # pragma: no cover - never reached
            raise AssertionError

    with pytest.raises(WrongArgument, match=r"^settings\.transport: give an httpx async transport"):
        jobs.send(scenario, translation, settings=SendSettings(transport=HalfTransport()))


# ---- compare --send's calls cell -------------------------------------------------------------------------------

# A server's tool name that is no valid name (markup, an escape, a joiner: `[b]x` ESC `[31m` ZWJ `z`), drawn as
# `[b]x[/]\u001b[31m\u200dz`: the calls layout read a call's name from its last letters (`u200dz(`) and broke the
# line there, `...\u001b[31m\` over `u200dz(`, a name cut in two inside an escape (as a cut stream's
# `sample N cut: NAME(` line does too).
@pytest.mark.parametrize("columns", [60, 80])
def test_a_server_s_odd_tool_name_is_never_broken_inside(tmp_path, columns):
    from servers import StandIn, Step, fixture
    from streams import CITY_WEATHER_SCENARIO

    body = fixture("openai", "openai-chat-single-strict")
    call = body["choices"][0]["message"]["tool_calls"][0]
    call["function"].update(name="[b]x[/]\x1b[31m\u200dz", arguments='{"city": "Paris", "days": 3, "unit": "c"}')
    (tmp_path / "s.yaml").write_text(CITY_WEATHER_SCENARIO, encoding="utf-8")
    with StandIn("openai", default=Step(body=body)) as server:
        done = run_cli(["compare", "s.yaml", "-p", "openai", "--send", "--retries", "0", "--base-url",
                        server.base_url("openai")], env=environment(columns, NO_PROXY="127.0.0.1"), cwd=tmp_path)
    assert "Traceback" not in done.stderr and done.returncode in (0, 4), done.stderr
    assert all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
    assert "[b]x[/]\\u001b[31m\\u200dz(" in done.stdout, done.stdout  # the name whole on its line, as shown


def test_a_call_s_name_is_read_as_a_whole_word():
    from toolchoice.cli.call_lines import call_lines

    odd = 'sample 1 cut: [b]x\\u001b[31m\\u200dz({"city": "Paris", "days": 3})'
    assert call_lines(odd, 38) == ["sample 1 cut: [b]x\\u001b[31m\\u200dz(", '{"city": "Paris", "days": 3})']
    assert call_lines(odd, 30) == ["sample 1 cut:", "[b]x\\u001b[31m\\u200dz(", '{"city": "Paris", "days": 3})']
    assert call_lines("sample 1 cut: " + "n" * 70 + '({"city": "Paris"})', 38) is None  # longer than any API takes
    assert call_lines('sample 1 cut: get_weather({"city": "Paris", "days": 3})', 30) == [
        "sample 1 cut: get_weather(", '{"city": "Paris", "days": 3})']


# ---- Bedrock's strict facts ------------------------------------------------------------------------------------

# fact bedrock.strict_models names Claude Opus 4.5 by the fragment claude-opus-4-5, found anywhere in the model id:
# anthropic.claude-opus-4-50 (or a point release claude-opus-4-5-1) read "AWS names claude-opus-4-5 among the
# models that take it", a claim no source makes. The model rules end a version so (model_rules._V); so now does this.
@pytest.mark.parametrize("model, named", [
    ("anthropic.claude-opus-4-50", False), ("anthropic.claude-opus-4-5-1", False),
    ("us.anthropic.claude-opus-4-5-20251101-v1:0", True), ("anthropic.claude-opus-4-6-v1", True)])
def test_bedrock_strict_names_a_model_only_where_its_version_ends(tmp_path, model, named):
    from pathlib import Path

    scenario = Path(__file__).resolve().parents[1] / "configs" / "strict-schema.yaml"
    done = run_cli(["render", str(scenario), "-p", "bedrock", "--model", model, "-f", "json"], env=environment(120))
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    (entry,) = [e for e in (document[0] if isinstance(document, list) else document)["ledger"]
                if e["code"] == "strict.mapped"]
    assert ("AWS names claude-opus-4-" in entry["message"]) is named, entry["message"]
    assert (f"whether {model} enforces it is unsettled" in entry["message"]) is not named, entry["message"]


# ---- providers --model -f markdown -----------------------------------------------------------------------------

# `providers --model ID -f markdown` printed the JSON document (-f json's), where the help offers markdown; with -p
# it filtered that JSON. Now a markdown table of the same facts, each rule's source under it, the model id (the
# user's) with its pipes escaped so it cannot add a column.
def test_providers_model_markdown_is_markdown_of_the_json_s_facts():
    json_done = run_cli(["providers", "--model", "claude-opus-4-6", "-p", "bedrock,anthropic", "-f", "json"],
                        env=environment(80))
    done = run_cli(["providers", "--model", "claude-opus-4-6", "-p", "bedrock,anthropic", "-f", "markdown"],
                   env=environment(80))
    assert done.returncode == 0 and not done.stdout.lstrip().startswith(("[", "{")), done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| `")]
    facts = [(entry["provider"], fact) for entry in json.loads(json_done.stdout) for fact in entry["facts"]]
    assert len(rows) == len(facts) and facts, done.stdout
    for row, (provider, fact) in zip(rows, facts):
        value = str(fact["value"]).lower() if isinstance(fact["value"], bool) else str(fact["value"])
        assert row == f"| `{provider}` | {fact['fact']} | {value} | {fact['rule']} |", row
        assert f"- **{fact['rule']}**: " in done.stdout
    odd = run_cli(["providers", "--model", "x|y", "-p", "bedrock", "-f", "markdown"], env=environment(80))
    assert odd.stdout.splitlines()[0].startswith("model rules for x\\|y "), odd.stdout


# ---- time: an allowed list of many tools -----------------------------------------------------------------------

class _Counted(str):
    """A tool name that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        type(self).compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


# {allowed: [...every tool...]} over 10,000 tools (the tools limit): each allowed name was looked up in the tuple of
# tool names, and each tool in the allowed tuple, once per provider: 10^8 comparisons, 2.5 s a provider of the 16 s
# `compare -p openai,openai-responses,anthropic,gemini` took (3.6 s now at 80 columns). Counted at 2,000 tools.
def test_an_allowed_list_of_many_tools_is_read_and_planned_in_linear_time():
    from toolchoice.providers import load_scenario_dict
    from toolchoice.providers.core.choice import parse_tool_choice
    from toolchoice.providers.core.registry import translate

    names = tuple(_Counted(f"tool_{i}") for i in range(2000))
    _Counted.compared = 0
    choice = parse_tool_choice({"allowed": [_Counted(n) for n in names], "mode": "required"}, names)
    assert choice is not None and len(choice.allowed) == 2000 and _Counted.compared < 20_000, _Counted.compared
    scenario = load_scenario_dict({"tools": [{"name": n, "parameters": {"type": "object"}} for n in names[:2]],
                                   "tool_choice": "required", "messages": [{"role": "user", "content": "hi"}]})
    tools = tuple(scenario.tools[0]._replace(name=_Counted(n)) for n in names)
    scenario = scenario._replace(tools=tools, tool_choice=choice)
    _Counted.compared = 0
    translate("anthropic", scenario)
    assert _Counted.compared < 100_000, _Counted.compared


# The same wire form in compare's column: json_lines asked rich for the width of ~2 million pieces of plain ASCII
# (importing it each time), 6 s of the 16.
def test_json_lines_counts_plain_ascii_without_rich(monkeypatch):
    import rich.cells

    from toolchoice.cli.call_lines import json_lines

    asked = []
    real = rich.cells.cell_len
    monkeypatch.setattr(rich.cells, "cell_len", lambda text, *a: asked.append(text) or real(text, *a))
    wire = json.dumps({"type": "allowed_tools", "mode": "required", "tools": [
        {"type": "function", "name": f"tool_{i:05d}_" + "x" * 50} for i in range(2000)]}, separators=(",", ":"))
    lines = json_lines(wire, 30)
    assert lines and all(len(line) <= 30 for line in lines) and asked == [], len(asked)
    assert json_lines('{"name":"天気を取得する関数名前天気を取得する関数"}', 20) == ['{"name":', '"天気を取得する関数…']


# A tool_choice that is a *string* of brackets (extra: {tool_choice: "[[[[..."}, drawn bare, as a word is) is read
# as JSON by the wire column, its depth one more at each '[': json_lines split it one level a pass, each pass over
# every break, and `compare` with 20,000 of them ran for minutes (killed at 2). Counted: the passes over parts.
def test_a_string_of_brackets_is_laid_out_in_a_bounded_number_of_passes(monkeypatch, tmp_path):
    from toolchoice.cli import call_lines

    passes = []
    real = call_lines.cell_len
    monkeypatch.setattr(call_lines, "cell_len", lambda text: passes.append(1) or real(text))
    lines = call_lines.json_lines("[" * 3000, 40)
    assert lines and all(len(line) <= 40 for line in lines) and len(passes) < 1000, len(passes)
    monkeypatch.undo()
    name = scenario_with_wire(tmp_path, "[" * 20000)
    done = run_cli(["compare", name, "-p", "openai"], env=environment(80), cwd=tmp_path)
    assert done.returncode == 0 and "[[[[" in done.stdout, done.stderr


# run's step table at 120 columns (short headers, no borders: output.fitted_table) laid the wire's JSON out before
# its zero-width joiners were written out as \u200d, so rich folded the string inside:
# `"👩\u200d👩\u200d👧\u200d👦👩\u200d👩` over `\u200d👧\u200d👦…` over `00d👦…`. (At 80 and 60, one record a row,
# it was measured as shown.)
def test_run_s_step_table_measures_the_wire_as_shown(tmp_path):
    from rich.cells import cell_len
    from servers import StandIn

    document = json.loads((tmp_path / scenario_with_wire(tmp_path, {"name": "👩\u200d👩\u200d👧\u200d👦" * 30})).read_text())
    document["loop"] = {"max_steps": 1}
    (tmp_path / "s.yaml").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    with StandIn("openai") as server:
        done = run_cli(["run", "s.yaml", "-p", "openai", "--retries", "0", "--base-url", server.base_url("openai")],
                       env=environment(120, NO_PROXY="127.0.0.1"), cwd=tmp_path)
    assert "Traceback" not in done.stderr and done.returncode in (0, 1, 4), done.stderr
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if '{"name":' in line)
    column = lines[at].index('{"name":')
    below = lines[at + 1][column:].split("  ")[0]
    assert below.startswith('"👩\\u200d') and below.endswith("…") and '\\u200d' not in lines[at + 2][column:], lines
    assert all(cell_len(line) <= 120 for line in lines)


# The names toolchoice.providers loads when first asked for (SendSettings, LoopOptions, running_mock) were missing
# from dir(): a REPL's tab completion, the way a new user finds them, did not offer them.
def test_the_package_s_later_names_are_in_its_dir():
    import toolchoice.providers as package

    assert {"SendSettings", "LoopOptions", "running_mock", "MissingKey", "BadReply"} <= set(dir(package))
    assert set(package.__all__) <= set(dir(package))
