"""`toolchoice trace`'s listing of runs (samples) is written by ``cli.output.yaml_list``: libyaml's emitter for the
items it writes as PyYAML's does, PyYAML's for the rest. Held here to ``yaml_text({key: items})`` — the one every
other YAML output is written by, PyYAML's own emitter — byte for byte, over hand-made and generated listings
(unicode, invisible characters, characters past U+FFFF, long texts, long keys, numbers, nesting)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from toolchoice.cli.output import _plain, yaml_list, yaml_text

pytestmark = pytest.mark.skipif(not hasattr(yaml, "CSafeDumper"), reason="PyYAML without libyaml: yaml_text is used")


def test_a_listing_mixing_both_emitters_is_the_text_pyyaml_writes():
    """Written out by hand: an invisible character double-quoted (yaml_text's rule), an emoji as written, a text
    YAML would read as a mapping single-quoted, numbers and null plain."""
    items = [{"trace_id": "a1", "llm_calls": 2, "first_message": "x\u200by"},
             {"trace_id": "b2", "llm_calls": 1, "first_message": "\U0001F600 hi"},
             {"trace_id": "c3", "llm_calls": 10, "first_message": "plain: text", "model": None}]
    expected = ('runs:\n- trace_id: a1\n  llm_calls: 2\n  first_message: "x\u200by"\n'
                '- trace_id: b2\n  llm_calls: 1\n  first_message: \U0001F600 hi\n'
                "- trace_id: c3\n  llm_calls: 10\n  first_message: 'plain: text'\n  model: null\n")
    assert yaml_list("runs", items) == expected == yaml_text({"runs": items})
    assert [_plain(i) for i in items] == [False, False, True]  # both emitters wrote a part


def test_a_shared_object_keeps_pyyaml_s_anchor():
    shared = {"type": "function"}
    items = [{"requested": shared}, {"requested": shared}]
    assert yaml_list("samples", items) == "samples:\n- requested: &id001\n    type: function\n- requested: *id001\n"


def test_an_empty_listing():
    assert yaml_list("runs", []) == "runs: []\n"


def _listings() -> Any:
    from hypothesis import strategies as st

    text = st.one_of(
        # what libyaml writes (_plain): printable text of the first plane, long enough to fold
        st.text(st.characters(categories=["L", "N", "P", "S"], max_codepoint=0xFFFF) | st.just(" "), max_size=250),
        st.text(max_size=12),  # any code point: controls, separators, format characters, surrogates, astral
        st.text(st.characters(codec="utf-8"), max_size=300),
        st.text(st.sampled_from(list("ab -:#'\"\\\n\té中\u200b\u202e\xa0\u2028\ufeff\U0001F600")), max_size=400),
        st.sampled_from(["", "null", "yes", "007", "1e3", "- x", "a: b", "#c", "~", " lead", "trail "]),
    )
    scalar = st.one_of(text, st.integers(), st.floats(), st.booleans(), st.none())
    key = st.one_of(st.sampled_from(["trace_id", "llm_calls", "provider", "model", "first_message", "sample"]),
                    st.text(max_size=140))
    value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(key, inner, max_size=3)), max_leaves=6)
    return st.lists(st.dictionaries(key, value, min_size=1, max_size=4), max_size=8)


def test_generated_listings_are_written_as_pyyaml_writes_them():
    from hypothesis import given, settings

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(_listings())
    def check(items: list[dict[str, Any]]) -> None:
        assert yaml_list("runs", items) == yaml_text({"runs": items})
        plain.append(sum(map(_plain, items)))

    plain: list[int] = []
    check()
    # libyaml wrote a fair share of the items (97 of the 150 listings' items here on 2026-11-28, hypothesis 6.170.17;
    # the draws move with Hypothesis' version, and 0 would mean yaml_list never used libyaml)
    assert sum(plain) > 50
