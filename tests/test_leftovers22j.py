"""Small leftovers of session 22, each held here and each failing before its fix: the mock's --script words in the
file's own YAML/JSON, a saved request holding a lone surrogate traced, init's $'...' name said as bash's, the schema
keyword typos through bounded's near-word, parse's flags without a scenario, the trace's provider mapping words and
the Stainless SDKs' [DONE]."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import refused, run_cli

# ---- mock --script: a wrong value said as the file says it (true, "x", null), not as Python's repr (True, 'x') ---


@pytest.mark.parametrize("name, text, line, said", [
    ("s.yaml", "replies:\n  - call: true\n", 2, "a tool name must be a non-empty string, not true"),
    ("s.yaml", "replies:\n  - call: yes\n", 2, "a tool name must be a non-empty string, not yes"),
    ("s.yaml", "replies:\n  - call:\n", 2, "a tool name must be a non-empty string, not nothing"),
    ("s.json", '{"replies": [{"text": true}]}\n', 1, "text must be a string, not true"),
    ("s.json", '{"replies": [{"status": "429"}]}\n', 1, 'status must be an HTTP error status 400-599, not "429"'),
    ("s.yaml", "steps:\n  true: {text: hi}\n", 2, "a step key must be a request number from 1, not true"),
    ("s.yaml", "replies:\n  - calls: [{name: null}]\n", 2, "a tool name must be a non-empty string, not nothing"),
    ("s.json", '{"replies": [{"phantom": ["a", false]}]}\n', 1, 'not ["a", false]'),
])
def test_a_script_s_wrong_value_is_said_in_the_file_s_own_words(tmp_path: Path, name: str, text: str, line: int,
                                                                said: str) -> None:
    """"not True" (Python's repr) where the file says true; "not 'x'" for a JSON "x"; "not None" for nothing."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    words = refused(run_cli(["mock", "-p", "openai", "--script", str(path)]))
    assert f"{path}:{line}:" in words and said in words, words
    for python in ("True", "False", "None", "'"):
        assert python not in words.split(": ", 1)[1].split(" (")[0], words
