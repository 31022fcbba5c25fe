"""The ledger table's messages that quote JSON (trial13h): `tool_choice.mapped`'s `required → {"type":"function",
"function":{...}}`, `parallel.mapped`, a wire value in any entry, at 60, 80, 100 and 120 columns without colour, in
`render` (its pretty view and --ledger-only, the table send and parse draw too). rich folded the JSON at any
character (`{"allowed":["search_docs` over `","read_file"]`); now it breaks between members and elements, or after a
key before a scalar, each string and number whole, or its start and a visible "…" where it alone is wider than the
column. The messages' words are the ledger's: the same command's `-f json` holds them, and the JSON they quote."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_call_layout import assert_scalars_whole, environment

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (60, 80, 100, 120)
NAME = "lookup_the_current_weather_for_a_city_by_its_name_" + "x" * 14  # 64: a tool name's most; wider than 56
PROVIDERS = "openai,openai-responses,anthropic,gemini,cohere"


def quoted(message: str) -> list[object]:
    """Every JSON object or array a message quotes, as the standard library's decoder reads it at each bracket."""
    out, decoder, at = [], json.JSONDecoder(), 0
    while at < len(message):
        if message[at] in "[{":
            try:
                value, end = decoder.raw_decode(message, at)
            except ValueError:
                at += 1
                continue
            out.append(value)
            at = end
        else:
            at += 1
    return out


def tables(text: str) -> str:
    """The ledger tables alone (render's pretty view also prints the body, JSON that the terminal wraps)."""
    lines, out, inside = text.splitlines(), [], False
    for line in lines:
        inside = inside or line.startswith("┏")
        if inside:
            out.append(line)
        if line.startswith("└"):
            inside = False
    return "\n".join(out)


def message_text(table: str) -> str:
    """The message column's text, every line of it joined without spaces: a three-column table's last cell, a
    one-column table's only one."""
    cells = [line.strip("│").split("│")[-1] for line in table.splitlines() if line.startswith("│")]
    return "".join("".join(cells).split())


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory) -> dict:
    """allowed-subset.yaml (long wire objects) and a scenario naming a tool of 64 characters with parallel calls off
    (anthropic's `{"type":"tool","name":...,"disable_parallel_tool_use":true}`), each with its `-f json` document."""
    folder = tmp_path_factory.mktemp("ledger")
    (folder / "long.yaml").write_text(
        f"tools:\n  - name: {NAME}\n    parameters: {{type: object, properties: {{city: {{type: string}}}}}}\n"
        f"tool_choice: {NAME}\nparallel_tool_calls: false\nmessages:\n  - {{role: user, content: Weather?}}\n",
        encoding="utf-8")
    out = {}
    for name, path in (("allowed", ROOT / "configs" / "allowed-subset.yaml"), ("long", folder / "long.yaml")):
        done = run_cli(["render", str(path), "-p", PROVIDERS, "-f", "json"], env=environment(80), cwd=folder)
        assert done.returncode == 0, done.stderr
        document = json.loads(done.stdout)
        assert len(document) == 5, document
        out[name] = (path, document)
    return out


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", ["allowed", "long"])
@pytest.mark.parametrize("view", ["--ledger-only", "pretty"])
def test_a_ledger_message_s_json_breaks_only_between_members(scenarios, name, columns, view):
    path, document = scenarios[name]
    done = run_cli(["render", str(path), "-p", PROVIDERS] + (["--ledger-only"] if view == "--ledger-only" else []),
                   env=environment(columns), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    drawn = tables(done.stdout)
    lines = drawn.splitlines()
    assert len(lines) > 20 and all(len(line) <= columns for line in lines), drawn
    assert not [line for line in lines if line.endswith(" ")], drawn
    messages = [entry["message"] for provider in document for entry in provider["ledger"]]
    wires = [provider[key] for provider in document for key in ("requested_tool_choice", "effective_tool_choice")]
    wires = [w for w in wires if isinstance(w, (dict, list))] + [v for m in messages for v in quoted(m)]
    assert any(NAME in json.dumps(w) for w in wires) if name == "long" else len(wires) > 8, wires
    mapped = [m for provider in document for m in (e["message"] for e in provider["ledger"]
                                                   if e["code"] == "tool_choice.mapped")]
    assert len(mapped) == 5 and all(quoted(m) for m in mapped), mapped
    # every key and scalar whole, or (a scalar wider than the column: the 64-character name at 60) its start and "…"
    assert_scalars_whole(drawn, wires, shortened_ok=name == "long")
    text = message_text(drawn)
    for message in messages:  # the ledger's words, every one in its order (the breaks are spaces or line ends)
        words = "".join(message.split())
        if "…" in drawn and NAME in message:
            head = words.split(NAME[:20])[0]
            assert head in text, (message, drawn)
        else:
            assert words in text, (message, drawn)
    if name == "long" and columns >= 80:  # the name's whole line has room: never shortened there
        assert "…" not in drawn, drawn


# prose without brackets: a bracket left open before the JSON is read past a few times only (json_spans)
_WORDS = st.lists(st.text(st.sampled_from("ab→(),:'\" "), min_size=1, max_size=12), max_size=4)
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-999, 999) | st.text(st.sampled_from('ab ,"[]{}:é'), max_size=12),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("ab:", max_size=5), inner,
                                                                                 max_size=4), max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(_WORDS, st.lists(st.dictionaries(st.text("ab", max_size=4), _JSON, min_size=1, max_size=3), min_size=1,
                        max_size=2), st.integers(4, 40))
def test_prose_lines_keep_quoted_json_s_scalars_whole(words, values, width):
    """Any prose quoting compact JSON: lines no wider than the width, joined the message again (spaces aside; a "…"
    only where one key or scalar alone is wider), and each JSON string or number on one line."""
    from toolchoice.cli.call_lines import prose_lines

    texts = [json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in values]
    line = " ".join(w for pair in zip(words + [""] * len(texts), texts) for w in pair if w) + " end"
    lines = prose_lines(line, width)
    if len(line) <= width:
        assert lines is None
        return
    assert lines is not None and all(len(part) <= width for part in lines), lines
    if any("…" in part for part in lines):
        return
    assert "".join("".join(lines).split()) == "".join(line.split()), lines
    for text in texts:
        for scalar in re.findall(r'"(?:[^"\\]|\\.)*"|-?\d+', text):
            if len(scalar) + 2 <= width and scalar in line.replace(text, "", 1) + text:
                assert any(scalar in part for part in lines), (scalar, lines)


def test_json_after_a_bracket_left_open_is_still_found():
    """A message that quotes JSON cut short (`enum ["celsius","fahr`, request_parts' [:120]) and then a whole value:
    the whole one is found (what json.loads reads), the cut one is prose."""
    from toolchoice.cli.call_lines import json_spans

    whole = '{"type":"function","function":{"name":"get_weather"}}'
    line = f'enum ["celsius","fahr removed (unsupported); [a, b] stay; sent {whole}'
    assert [line[a:b] for a, b in json_spans(line)] == [whole]
    assert json.loads(whole)
