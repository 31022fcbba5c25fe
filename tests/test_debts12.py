"""Four debts left knowingly in session 11, each paid and held here against truth from outside the code: the real
command's output, the real mock on 127.0.0.1, jsonschema's own validator, PyYAML's own composer.

1. A skip's reason names no provider: the job (and the row, the record) that carries it does, once.
2. The mock's argument maker reads a string's ``pattern`` with the ``regex`` package alone (bounded in time), not
   behind a gate of Python's ``re``, which cannot read ``\\p{Lu}`` and refused such a pattern any match.
3. ``unevaluatedProperties`` beside ``patternProperties``: the names matched in bounded time, as the other keywords.
4. A ``.json`` file's one JSON parse also tells how deep it nests: libyaml's events are not parsed a second time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli
from test_readme import KEY_VARS, ROOT


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k not in ("COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", "NO_PROXY": "127.0.0.1", **extra})
    return env


# ---- 1. a skip's reason and its provider -------------------------------------------------------------------------

def test_compare_send_s_record_of_a_skipped_provider_names_it_once_in_its_provider_field(tmp_path: Path) -> None:
    """`compare --send -f json` with only OpenAI's key: anthropic's record said `"error": "skipped: anthropic: no API
    key: set ANTHROPIC_API_KEY"` beside `"provider": "anthropic"`. The reason names no provider; the record's
    provider field does, and the provider that was sent to (the real mock) answered."""
    import yaml

    from toolchoice.providers.core.mock.server import running_mock

    data = yaml.safe_load((ROOT / "configs" / "weather.yaml").read_text(encoding="utf-8"))
    with running_mock("openai") as mock:
        data["providers"] = {"openai": {"base_url": mock.base_url}}
        (tmp_path / "s.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
        done = run_cli(["compare", "s.yaml", "-p", "openai,anthropic", "--send", "-f", "json"],
                       env=environment(OPENAI_API_KEY="sk-unused-0123456789"), cwd=tmp_path)
        assert len(mock.records) == 1
    assert done.returncode == 0, done.stderr
    records = {r["provider"]: r for r in json.loads(done.stdout)["providers"]}
    assert records["anthropic"]["error"] == "skipped: no API key: set ANTHROPIC_API_KEY"
    assert records["anthropic"]["reply"] is None and records["openai"]["error"] is None


def test_nothing_to_send_says_each_provider_once_before_its_reason() -> None:
    """With no key at all, the one line says each provider and then its reason as the row would: `anthropic: skipped:
    no API key: set ANTHROPIC_API_KEY` (it was built by cutting `skipped: anthropic: ` out of the reason)."""
    failed = run_cli(["compare", str(ROOT / "configs" / "weather.yaml"), "-p", "anthropic,gemini", "--send"],
                     env=environment(COLUMNS="200"))
    assert failed.returncode == 2, failed.stderr
    line = failed.stderr.removeprefix("toolchoice: error: ")
    assert line.startswith("nothing to send: anthropic: skipped: no API key: set ANTHROPIC_API_KEY; "
                           "gemini: skipped: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY ("), line


def test_a_loop_step_s_skip_names_no_provider_and_send_s_error_names_it(tmp_path: Path) -> None:
    """The reason a job carries (a loop step's `error`, run's `✘ skipped: ...` cell) names no provider: the loop's
    rule and column name it. The error `send` raises stands alone on stderr, so it names its provider."""
    from toolchoice.providers import load_scenario
    from toolchoice.providers.core import jobs, loop

    scenario = load_scenario(ROOT / "configs" / "weather.yaml")
    saved = {name: os.environ.pop(name) for name in KEY_VARS if name in os.environ}
    try:
        translation = jobs.translations(scenario, ["openai"])[0]
        job = loop.live_prepare({})(translation, scenario)
    finally:
        os.environ.update(saved)
    assert job.prepared is None and job.skipped == "skipped: no API key: set OPENAI_API_KEY"
    sent = run_cli(["send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai"], env=environment(), cwd=tmp_path)
    assert sent.returncode == 2
    assert sent.stderr.startswith("toolchoice: error: openai: no API key: set OPENAI_API_KEY"), sent.stderr


# ---- 2. the mock's arguments for a pattern -------------------------------------------------------------------------

# regex reads \p{Lu} (a Unicode property, as the Rust regex crate OpenAI documents does); Python's re refuses it
UPPER = r"^\p{Lu}+$"
# regex's backtracking runs past any bound on the texts the mock tries ("example", ...): fits none, in bounded time
PATHOLOGICAL = r"^(?:(?:.|.)+)+(?=[!])"


def _request(pattern: str) -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "required",
            "tools": [{"type": "function", "function": {"name": "label", "parameters": {
                "type": "object", "properties": {"code": {"type": "string", "pattern": pattern}},
                "required": ["code"]}}}]}


def test_the_mock_fills_a_pattern_only_regex_reads_and_bounds_a_pathological_one() -> None:
    """The real mock (its own process: a pattern that ran unbounded would hold its GIL, not the test's) answers
    `^\\p{Lu}+$` with upper-case letters, as Unicode's categories say (it answered "example", which no such pattern
    takes), and a pattern regex backtracks on for ever with an answer at all."""
    import httpx

    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe
    proc = subprocess.Popen([exe, "mock", "-p", "openai", "--port", "0", "--max-requests", "2"], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                                                    "TOOLCHOICE_LIMIT_PATTERN_SECONDS": "0.2"})
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        answers = [httpx.post(f"{url}/chat/completions", json=_request(p), timeout=60,
                              headers={"authorization": "Bearer sk-unused"}) for p in (UPPER, PATHOLOGICAL)]
        proc.communicate(timeout=30)
    finally:
        proc.kill()
    made = [json.loads(a.json()["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])["code"]
            for a in answers]
    assert made[0] and all(unicodedata.category(c) == "Lu" for c in made[0]), made
    assert isinstance(made[1], str), made


# ---- 3. unevaluatedProperties beside patternProperties -------------------------------------------------------------

SLOW = "^(a|aa)+$"  # Python's backtracking re takes ~1.6^n steps on n a's and a '!': 2^48 at 80


def test_unevaluated_properties_beside_a_slow_pattern_is_bounded_in_time(tmp_path: Path) -> None:
    """`unevaluatedProperties: false` written before `patternProperties`: jsonschema found the evaluated names
    with its own `re.search`, before the bounded `patternProperties` keyword ran, and backtracked for ever on the
    model's property name (a real process, so an unbounded match fails the test by its timeout, not by hanging)."""
    from servers import StandIn, Step

    call = {"id": "c1", "type": "function", "function": {"name": "label", "arguments": json.dumps(
        {"a" * 80 + "!": "x"})}}
    reply = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
                                                                 "tool_calls": [call]}}]}
    (tmp_path / "slow.yaml").write_text(
        "tools:\n  - name: label\n    parameters:\n      type: object\n      unevaluatedProperties: false\n"
        f"      patternProperties: {{'{SLOW}': {{type: string}}}}\n"
        "tool_choice: required\nmessages: [{role: user, content: hi}]\n", encoding="utf-8")
    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe
    with StandIn("openai", default=Step(body=reply)) as server:
        done = subprocess.run([exe, "send", "slow.yaml", "-p", "openai", "--base-url", server.base_url("openai"),
                               "-f", "json"], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                              env={**os.environ, "OPENAI_API_KEY": "sk-unused-0123456789",
                                   "TOOLCHOICE_LIMIT_PATTERN_SECONDS": "0.2"})
    assert done.returncode in (0, 4), done.stderr
    errors = json.loads(done.stdout)["verdict"]["calls"][0]["errors"]
    assert any("patternProperties pattern" in e and "took more than 0.2 seconds" in e for e in errors), errors


def _schemas() -> list[tuple[dict[str, Any], list[Any]]]:
    """Schemas whose unevaluatedProperties depends on every keyword that evaluates a name, with instances."""
    names = [{}, {"a": 1}, {"x1": 1}, {"x1": "s"}, {"b": 1}, {"a": 1, "x2": 2, "zz": 3}, {"kind": "k", "extra": 1},
             {"c": True, "d": 1}, {"q": [1]}, 5]
    shapes: list[dict[str, Any]] = [
        {"properties": {"a": {}}, "patternProperties": {"^x": {"type": "integer"}}, "unevaluatedProperties": False},
        {"unevaluatedProperties": {"type": "integer"}, "patternProperties": {"^x": {"type": "string"}}},
        {"allOf": [{"patternProperties": {"^x": {}}}], "anyOf": [{"properties": {"a": {}}}, {"required": ["b"]}],
         "oneOf": [{"properties": {"zz": {}}}, {"required": ["q"]}], "unevaluatedProperties": False},
        {"if": {"properties": {"kind": {"const": "k"}}, "required": ["kind"]},
         "then": {"patternProperties": {"^ex": {}}}, "else": {"properties": {"a": {}}}, "unevaluatedProperties": False},
        {"dependentSchemas": {"c": {"patternProperties": {"^d$": {}}}}, "properties": {"c": {}},
         "unevaluatedProperties": False},
        {"$ref": "#/$defs/base", "$defs": {"base": {"patternProperties": {"^[ab]$": {}}}},
         "additionalProperties": {"type": "integer"}, "unevaluatedProperties": False},
        {"additionalProperties": True, "unevaluatedProperties": False},
        {"properties": {"a": True}, "unevaluatedProperties": {"type": "string"}},
    ]
    return [(shape, names) for shape in shapes]


@pytest.mark.parametrize("draft", ["https://json-schema.org/draft/2020-12/schema",
                                   "https://json-schema.org/draft/2019-09/schema"])
def test_bounded_unevaluated_properties_says_what_jsonschema_says(draft: str) -> None:
    """With patterns that cannot backtrack, the bounded validator finds exactly jsonschema's own errors (message,
    place, keyword) for unevaluatedProperties beside every keyword that evaluates a name, in both drafts that have
    it (2019-09 counts them by its own rules, and has $recursiveRef)."""
    from jsonschema import validators

    from toolchoice.providers.core import schema_patterns

    verdicts = set()
    for shape, instances in _schemas():
        schema = {"$schema": draft, **shape}
        cls = validators.validator_for(schema)
        theirs, ours = cls(schema), schema_patterns.bounded(cls)(schema)
        for instance in instances:
            said = [[(e.message, list(e.absolute_path), e.validator) for e in v.iter_errors(instance)]
                    for v in (theirs, ours)]
            assert said[0] == said[1], (shape, instance)
            verdicts.add((shape.get("unevaluatedProperties") is False, bool(said[0])))
    assert verdicts == {(True, True), (True, False), (False, True), (False, False)}  # each kind of answer met


# ---- 4. a .json file parsed once before composing ------------------------------------------------------------------

def _composed_depth(node: Any, depth: int = 0) -> int:
    """The depth of the deepest node PyYAML composes (the root at 0)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        children = [child for pair in node.value for child in pair]
    elif isinstance(node, yaml.SequenceNode):
        children = node.value
    else:
        return depth
    return max((_composed_depth(child, depth + 1) for child in children), default=depth)


@pytest.mark.parametrize("text", ["{}", "[]", "1", '"s"', "null", '{"a": []}', '{"a": [1]}', '[[[[]]]]', '[[[[0]]]]',
                                  '{"a": {"b": {"c": {}}}, "d": [[{"e": 1}]]}', '[{"k": {"x": [[]]}}, 2, {}]'])
def test_the_depth_the_json_parse_finds_is_the_one_yaml_composes(text: str) -> None:
    """What ``strict_json``'s parse tells of a document's nesting (so libyaml's events are not parsed again to
    bound it) is the depth PyYAML's own composer builds from the same text, at every limit around it."""
    import yaml

    from toolchoice.providers.core import yaml_input

    depth = _composed_depth(yaml.compose(text, Loader=yaml.SafeLoader))
    for limit in range(0, depth + 2):
        assert yaml_input._json_deeper_than(json.loads(text), limit) == (depth > limit), (text, limit)


def test_a_json_file_past_the_composers_depth_is_refused_as_before(tmp_path: Path) -> None:
    """A `.json` tool file nested past the reader's bound (that the JSON decoder reads) is still refused in one line
    naming the file and the line, as the composer's depth checks said it."""
    from toolchoice.providers.core.yaml_input import MAX_DEPTH

    depth = MAX_DEPTH + 5
    (tmp_path / "deep.json").write_text('{"tools": [{"name": "a", "parameters": {"type": "object", "x":\n'
                                        + "[" * depth + "]" * depth + "}}]}\n", encoding="utf-8")
    failed = run_cli(["render", "deep.json", "-p", "openai"], env=environment(), cwd=tmp_path)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    assert "deep.json:2:" in failed.stderr and f"nest more than {MAX_DEPTH} levels deep" in failed.stderr, \
        failed.stderr
