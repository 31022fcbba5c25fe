"""pyproject says `requires-python = ">=3.10"`, and this machine has only 3.11: a regular expression with an atomic
group `(?>...)` or a possessive quantifier (`*+`, `++`, `?+`, `{m,n}+`), both new in Python 3.11 ("Added support
for atomic grouping and possessive quantifiers", docs.python.org/3/whatsnew/3.11.html, re), compiles here and raises
re.error on 3.10 when its module is imported. Two came in on 2026-11-28 (bounded.depth_ok's string scan,
markdown_text's mention). This reads every product module's patterns (the literal first argument of re.compile,
re.search, ... and of bytes patterns alike) for those two forms."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
NEW_IN_311 = re.compile(r"\(\?>|[*+?}]\+")
_ESCAPE, _CLASS = re.compile(r"\\[\s\S]"), re.compile(r"\[\^?\]?[^\]]*\]")


def _bare(pattern: str) -> str:
    """The pattern without its escapes and character classes, where ``*+`` or ``(?>`` are characters."""
    return _CLASS.sub("C", _ESCAPE.sub("e", pattern))


def _patterns(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_CALLS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))):
            value = node.args[0].value
            yield node.lineno, value.decode("latin-1") if isinstance(value, bytes) else value


def test_the_check_finds_both_forms():
    assert NEW_IN_311.search(_bare(r'"(?:[^"\\]++|\\[\s\S])*+"'))
    assert NEW_IN_311.search(_bare(r"@(?=(?>[a-z]+)(?!/))")) and NEW_IN_311.search(_bare(r"a{2}+"))
    assert not NEW_IN_311.search(_bare(r"a+\+b*(?:c)?[+*]+[!#$%&'*+.^_`|~-]{1,128}\(?>"))


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for folder in ("providers", "cli")
                                        for p in (ROOT / folder).rglob("*.py")))
def test_no_pattern_needs_python_311(path):
    found = [(line, pattern) for line, pattern in _patterns(ROOT / path) if NEW_IN_311.search(_bare(pattern))]
    assert not found, f"{path}: a 3.11-only regular expression at line(s) {[line for line, _ in found]}"
