"""A tool call drawn in a column narrower than it (trial12b): `compare --send` (once and -n 5) and `run`'s step table
at 60, 80 and 120 columns, without colour (as piped), break a call only where an argument ends (after its bracket,
after a comma) or shorten it with a visible "…": never inside a key or a value (`{"city":"exam` over `ple"}`, or
`"steps":` over `[...]`). The arguments each row should show come from the same command's `-f json` document (what
the mock answered, what the replay holds), not from the drawing code. `python -m toolchoice` is the console script
(a real process: the module runpy finds is the check)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (60, 80, 120)
LONG = "a_value_longer_than_the_calls_column_at_sixty"  # its call 75 long: under the cell's cut (80)


def environment(columns: int) -> dict[str, str]:
    return {"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb", "NO_PROXY": "127.0.0.1",
            "OPENAI_API_KEY": "unused", "ANTHROPIC_API_KEY": "unused"}


def assert_laid_out(text: str, columns: int) -> None:
    lines = text.splitlines()
    assert all(len(line) <= columns for line in lines), text
    assert not [line for line in lines if line.endswith(" ")], text


def assert_whole(text: str, pieces: list[str]) -> None:
    """Wherever a piece starts on a line, the line holds it whole, or its start up to a "…" (shortened)."""
    for piece in pieces:
        head = piece[:6]
        for line in text.splitlines():
            at = line.find(head)
            while at >= 0:
                rest = line[at:]
                shown = rest.startswith(piece) or any(rest.startswith(piece[:k] + "…") for k in range(6, len(piece)))
                assert shown, (piece, line, text)
                at = line.find(head, at + 1)


@pytest.fixture(scope="module")
def sent(tmp_path_factory) -> dict:
    """`compare --send` (once, and -n 5) against two `toolchoice mock` servers per width; a tool of four arguments,
    and one whose argument is longer than any line (shortened, never folded)."""
    from toolchoice.providers.core.mock.server import running_mock

    folder = tmp_path_factory.mktemp("calls")
    out: dict = {}
    with running_mock("openai") as openai, running_mock("anthropic") as anthropic:
        for name, properties, required in (
                ("four", "{city: {type: string}, units: {type: string, enum: [celsius, fahrenheit]}, "
                         "days: {type: integer}, detailed: {type: boolean}}", "[city, units, days, detailed]"),
                ("long", f"{{city: {{type: string}}, note: {{type: string, enum: [{LONG}]}}}}", "[city, note]")):
            (folder / f"{name}.yaml").write_text(
                f"tools:\n  - name: get_weather\n    parameters: {{type: object, properties: {properties}, "
                f"required: {required}, additionalProperties: false}}\ntool_choice: required\n"
                "messages:\n  - {role: user, content: Weather in Paris?}\n"
                f"providers:\n  openai: {{base_url: '{openai.base_url}'}}\n"
                f"  anthropic: {{base_url: '{anthropic.base_url}'}}\n", encoding="utf-8")
            command = ["compare", f"{name}.yaml", "--send", "--retries", "0"]
            done = run_cli(command + ["-f", "json"], env=environment(80), cwd=folder)
            assert done.returncode == 0, done.stderr
            out[name] = json.loads(done.stdout)
            for columns in WIDTHS:
                for n in (1, 5):
                    done = run_cli(command + ["-n", str(n)], env=environment(columns), cwd=folder)
                    assert done.returncode == 0, done.stderr
                    out[(name, columns, n)] = done.stdout
    return out


def _arguments(document: dict) -> list[dict]:
    """Each provider's call arguments, as the JSON document records the reply."""
    return [call["arguments"] for provider in document["providers"] for call in provider["reply"]["tool_calls"]]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("n", (1, 5))
def test_compare_send_breaks_a_call_only_between_its_arguments(sent, columns, n):
    text = sent[("four", columns, n)]
    assert_laid_out(text, columns)
    arguments = _arguments(sent["four"])
    assert len(arguments) == 2 and all(len(a) == 4 for a in arguments), arguments
    pieces = [json.dumps({key: value}, separators=(",", ":"))[1:-1] for a in arguments for key, value in a.items()]
    assert_whole(text, pieces)
    # every argument of both providers' calls is shown whole (none needed shortening at these widths)
    for piece in set(pieces):
        assert sum(line.count(piece) for line in text.splitlines()) == pieces.count(piece), (piece, text)
    # the tool_choice on the wire, JSON too, is broken so (anthropic's {"type":"any"} read `{"type":"any` over `"}`)
    wires = [w if isinstance(w, str) else json.dumps(w, separators=(",", ":"))
             for w in (p["effective_tool_choice"] for p in sent["four"]["providers"])]
    assert '{"type":"any"}' in wires
    for wire in wires:
        assert any(wire in line for line in text.splitlines()), (wire, text)


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("n", (1, 5))
def test_an_argument_wider_than_its_column_is_shortened_not_folded(sent, columns, n):
    text = sent[("long", columns, n)]
    assert_laid_out(text, columns)
    piece = json.dumps({"note": LONG}, separators=(",", ":"))[1:-1]
    assert LONG in json.dumps(_arguments(sent["long"]))
    assert_whole(text, [piece])  # a folded piece (`"note":"a_value_lon` over `ger_than...`) fails here
    assert '"note":"a_val' in text and ("…" in text or piece in text), text


LOOP = ["run", "configs/planner-loop.yaml", "-p", "openai", "--model", "gemma-3-270m", "--replay",
        "tests/data/loops/planner-loop-gemma-270m"]


@pytest.fixture(scope="module")
def loop_arguments() -> list[str]:
    """The replayed steps' calls' arguments (`run -f json`), as run's table writes them (json.dumps): each key with
    its value's first character, and every string value."""
    done = run_cli(LOOP + ["-f", "json"], env=environment(80), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    pieces: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                pieces.add(f"{json.dumps(key)}: {json.dumps(inner)[0]}")
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
        elif isinstance(value, str) and value:
            pieces.add(json.dumps(value, ensure_ascii=False))

    text = json.dumps(json.loads(done.stdout))
    at = text.find('"arguments": ')
    while at >= 0:
        value, _ = json.JSONDecoder().raw_decode(text, at + len('"arguments": '))
        walk(value)
        at = text.find('"arguments": ', at + 1)
    assert pieces, done.stdout
    return sorted(pieces)


@pytest.mark.parametrize("columns", WIDTHS)
def test_run_s_step_table_breaks_a_call_only_between_its_arguments(loop_arguments, columns):
    done = run_cli(LOOP, env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert_laid_out(done.stdout, columns)
    assert_whole(done.stdout, loop_arguments)
    # step 1's array element: whole where the column holds it, else its start and a "…" (never `"insert_data_f` over
    # `ile_record",`)
    assert '"insert_data_file_record"' in done.stdout or '"insert_data_f' in done.stdout and "…" in done.stdout


_KEYS = st.text(st.sampled_from('ab,"[]{}: \\é'), min_size=1, max_size=6)
_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-99, 99) | _KEYS,
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                       max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=4), st.booleans(), st.integers(4, 40))
def test_call_lines_break_only_where_json_allows(arguments, spaced, width):
    """The lines of any call (arguments any JSON json.dumps writes, compact or spaced): none wider than the width;
    joined they are the call again (a "…" only where one piece alone is wider); each break after the call's
    bracket, a comma or an opening bracket outside a string (the quotes before it balanced); an argument broken
    inside only where it does not fit a line whole."""
    from toolchoice.cli.call_lines import call_lines

    text = json.dumps(arguments, ensure_ascii=False, **({} if spaced else {"separators": (",", ":")}))
    line = f"get_weather({text})"
    lines = call_lines(line, width)
    if len(line) <= width:
        assert lines is None
        return
    assert lines is not None and all(len(part) <= width for part in lines), lines
    if any("…" in part for part in lines):
        return
    assert "".join(lines).replace(" ", "") == line.replace(" ", "")
    # an argument (a key and its value, as json.dumps writes it) that fits a line with what goes with it (the
    # first one's "{", a comma, the last one's "})": 3 at most) is on one
    separators = (", ", ": ") if spaced else (",", ":")
    for key, value in arguments.items():
        argument = json.dumps({key: value}, ensure_ascii=False, separators=separators)[1:-1]
        if len(argument) + 3 <= width:
            assert any(argument in part for part in lines), (argument, lines)
    at = 0
    for part in lines[:-1]:
        at = line.index(part, at) + len(part)
        if at < len("get_weather(") and len("get_weather(") > width:
            continue  # the name and its bracket wider than a line: broken by the word rule (trial15e), shown whole
        before = line[:at].rstrip(" ")
        assert before.endswith(("(", ",", "[", "{")) and not before.endswith("({"), (before, lines)
        # outside a string: the quotes before the break are balanced (json.dumps escapes every quote in a string)
        assert before.replace('\\\\', "").replace('\\"', "").count('"') % 2 == 0, (before, lines)


def test_python_m_toolchoice_is_the_console_script(tmp_path):
    """`python -m toolchoice` (the namespace's __main__, cli/entry/__main__.py) runs the same command as the
    `toolchoice` script: the same output and exit code, in a real process, from a folder outside the checkout."""
    script = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert script, "the console script is installed beside this interpreter"
    for args in (["--version"], ["render", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "-f", "json"],
                 ["render", str(tmp_path / "missing.yaml")]):
        by_module = subprocess.run([sys.executable, "-m", "toolchoice", *args], capture_output=True, text=True,
                                   cwd=tmp_path, timeout=120)
        by_script = subprocess.run([script, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert (by_module.returncode, by_module.stdout, by_module.stderr) == \
            (by_script.returncode, by_script.stdout, by_script.stderr), args
    assert by_module.returncode == 2 and "missing.yaml" in by_module.stderr


# ---- the tool_choice on the wire, dry run (trial13a) -----------------------------------------------------------
# `compare` without --send, `render` (its summary table and one provider's wire line) and run's step table folded the
# wire's JSON inside a value (`{"type":"allowed_to` over `ols",...`, `"search_` over `docs"`). Now it breaks between
# members and elements, or after a key where a member is wider than its column: every string and number whole, or
# its start and a visible "…" where it alone is wider than the column. The scalars each row should show come from
# the same command's `-f json` (the effective tool_choice), not from the drawing code.

LONG_NAME = "lookup_the_current_weather_for_a_city_by_its_name"  # 50: wider than the wire column at 60 and 80


def _scalars(value: object) -> list[str]:
    """Every key (with its colon) and every string or number of a JSON value, as compact JSON writes them."""
    out: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            out.append(json.dumps(key, ensure_ascii=False) + ":")
            out += _scalars(inner)
    elif isinstance(value, list):
        for inner in value:
            out += _scalars(inner)
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        out.append(json.dumps(value, ensure_ascii=False))
    return out


def assert_scalars_whole(text: str, wires: list[object], shortened_ok: bool = False) -> None:
    """Each key and scalar of the wires is shown whole (or, where ``shortened_ok``, its start and a "…"), and none is
    folded: no line (or table cell) ends in a proper start of it (`"search_` at a cell's edge, `docs"` below)."""
    import re

    for piece in {p for wire in wires for p in _scalars(wire)}:
        whole = piece in text
        cut = shortened_ok and re.search(re.escape(piece[:min(10, len(piece) - 1)]) + r"[^\n│]*…", text)
        assert whole or cut, (piece, text)
        for k in range(3, len(piece)):
            edge = re.search(re.escape(piece[:k]) + r"(?= *(│|$))", text, re.M)
            assert edge is None, (piece, text[max(0, edge.start() - 300):edge.end() + 300])


@pytest.fixture(scope="module")
def wire_scenarios(tmp_path_factory) -> dict:
    """allowed-subset.yaml (long wire objects) and a scenario naming a tool of 50 characters, each with its
    effective tool_choices from `compare -p all -f json`."""
    folder = tmp_path_factory.mktemp("wire")
    (folder / "long.yaml").write_text(
        f"tools:\n  - name: {LONG_NAME}\n    parameters: {{type: object, properties: {{city: {{type: string}}}}}}\n"
        f"tool_choice: {LONG_NAME}\nmessages:\n  - {{role: user, content: Weather in Paris?}}\n", encoding="utf-8")
    out = {}
    for name, path in (("allowed", ROOT / "configs" / "allowed-subset.yaml"), ("long", folder / "long.yaml")):
        done = run_cli(["compare", str(path), "-p", "all", "-f", "json"], env=environment(80), cwd=folder)
        assert done.returncode == 0, done.stderr
        wires = [p["effective_tool_choice"] for p in json.loads(done.stdout)["providers"]]
        out[name] = (path, [w for w in wires if isinstance(w, (dict, list))])
    assert any(LONG_NAME in json.dumps(w) for w in out["long"][1])
    return out


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("command", ["compare", "render"])
def test_the_dry_run_s_wire_column_breaks_json_only_between_members(wire_scenarios, columns, command):
    path, wires = wire_scenarios["allowed"]
    done = run_cli([command, str(path), "-p" if command == "compare" else "--format", "all" if command == "compare"
                    else "pretty"], env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert_laid_out(done.stdout, columns)
    assert_scalars_whole(done.stdout, wires)  # each fits its column at 60: none is shortened either
    assert "…" not in done.stdout.split("*: differs")[0], done.stdout


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_scalar_wider_than_the_wire_column_is_cut_with_an_ellipsis(wire_scenarios, columns):
    path, wires = wire_scenarios["long"]
    done = run_cli(["compare", str(path), "-p", "all"], env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert_laid_out(done.stdout, columns)
    assert_scalars_whole(done.stdout, wires, shortened_ok=True)
    table = done.stdout.split("*: differs")[0]
    if f'"{LONG_NAME}"' not in table:  # shortened where it must be: its start and "…", never folded or dropped
        assert f'"{LONG_NAME[:10]}' in table and "…" in table, table


@pytest.mark.parametrize("columns", WIDTHS)
def test_one_provider_s_wire_line_breaks_between_members(wire_scenarios, columns):
    """`render -p openai` (and run --dry-run, send --dry-run: the same drawing): the wire form on lines of its own
    where it does not fit beside its label, broken between members."""
    path, wires = wire_scenarios["allowed"]
    done = run_cli(["render", str(path), "-p", "openai,gemini"], env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    # each provider's lines from its title to its request line (the body is indented JSON; the ledger's messages
    # are prose that quotes JSON, folded as text)
    heads = [part.split("\nPOST")[0] for part in done.stdout.split("── ")[1:]]
    assert len(heads) == 2 and all("on the wire" in head for head in heads), done.stdout
    head = "\n".join(heads)
    assert all(len(line) <= columns for line in head.splitlines()), head
    assert_scalars_whole(head, [wires[0]] + [w for w in wires if "allowedFunctionNames" in json.dumps(w)])


@pytest.mark.parametrize("columns", WIDTHS + (100,))
def test_run_s_step_table_keeps_the_wire_s_values_whole(columns):
    done = run_cli(LOOP + ["-f", "json"], env=environment(80), cwd=ROOT)
    wires = [step["effective_tool_choice"] for run in json.loads(done.stdout)["runs"]
             for loop in run["loops"] for step in loop["steps"]]
    wires = [w for w in wires if isinstance(w, dict)]
    assert wires, done.stdout
    done = run_cli(LOOP, env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert_laid_out(done.stdout, columns)
    assert_scalars_whole(done.stdout, wires)  # `"plan_tool_call"}}` whole: a column of 12 read `"plan_tool_…`


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-999, 999) | _KEYS,
                            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
                            max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEYS, _JSON_VALUES, min_size=1, max_size=4) | st.lists(_JSON_VALUES, min_size=1, max_size=4),
       st.integers(4, 40))
def test_json_lines_keep_every_scalar_whole(value, width):
    """The lines of any JSON object or array (compact, as the wire cell writes it): none wider than the width;
    joined they are the text again (a "…" only where one key or scalar alone is wider); each break after a comma,
    an opening bracket, or a key's colon before a scalar, or between two closing brackets, outside a string."""
    from toolchoice.cli.call_lines import json_lines

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    lines = json_lines(text, width)
    if len(text) <= width:
        assert lines is None
        return
    assert lines is not None and all(len(part) <= width for part in lines), lines
    if any("…" in part for part in lines):  # only where a key or a value, with the brackets around it, is wider
        import re

        atoms = re.finditer(r'[\[{]*("(?:[^"\\]|\\.)*"(?::[\[{]*)?|-?\d+|true|false|null)[\]}]*,?', text)
        assert max(len(m.group()) for m in atoms) > width, (lines, width)
        return
    assert "".join(lines) == text
    at = 0
    for part in lines[:-1]:
        at += len(part)
        before, after = text[:at], text[at:]
        # or between two closing brackets (a run of them wider than a line: trial13f)
        assert before.endswith((",", "[", "{", ":")) or (before.endswith(("]", "}")) and after.startswith(("]", "}"))), (
            before, lines)
        if before.endswith(":"):
            assert not after.startswith(("{", "[")), (before, lines)
        assert before.replace('\\\\', "").replace('\\"', "").count('"') % 2 == 0, (before, lines)
