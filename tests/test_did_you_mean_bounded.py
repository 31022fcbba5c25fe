"""The did-you-mean of a missing file (bounded._missing_hint) and of every other word (choice.did_you_mean): one
matcher, difflib's get_close_matches, whose full comparisons are bounded on a folder of many long names alike."""

from __future__ import annotations

import difflib
import os
import random

import pytest

from toolchoice.providers.core import bounded, choice
from toolchoice.providers.core.model import ToolchoiceError


def _ratios(monkeypatch) -> list[int]:
    calls = [0]
    ratio = difflib.SequenceMatcher.ratio

    def counted(self):
        calls[0] += 1
        return ratio(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted)
    return calls


def _missing(path) -> str:
    with pytest.raises(ToolchoiceError) as caught:
        bounded.read_file(path)
    return caught.value.hint


def test_a_folder_of_long_names_alike_is_not_compared_in_full(tmp_path, monkeypatch):
    """1,000 names of 200 characters of `a` and `b` (each within difflib's quick bounds of the missing name's): a
    full comparison each took 3.1 s; now as many as NEAR_WORK characters allow (about 50)."""
    rng = random.Random(7)
    for i in range(1000):
        (tmp_path / ("".join(rng.choice("ab") for _ in range(200)) + f"{i:04d}")).touch()
    calls = _ratios(monkeypatch)
    _missing(tmp_path / "".join(rng.choice("ab") for _ in range(195)))
    assert 0 < calls[0] <= 60


def test_an_ordinary_folder_gets_difflibs_own_answer(tmp_path):
    """80 numbered runs beside the one asked for: the nearest as difflib's get_close_matches names it."""
    names = [f"run_{i:03d}.yaml" for i in range(80)] + ["weather.yaml", "Weather-Tools.YAML"]
    for name in names:
        (tmp_path / name).touch()
    for asked in ("run_081.yaml", "run_12.yaml", "weather.yml", "weather-tools.yaml", "zzz.json"):
        near = difflib.get_close_matches(asked.casefold(), [n.casefold() for n in names], n=1, cutoff=0.8)
        said = next((n for n in names if near and n.casefold() == near[0]), None)
        expected = f"did you mean {os.path.join(str(tmp_path), said)}?" if said else "check the path"
        assert _missing(tmp_path / asked) == expected


def test_choice_did_you_mean_is_the_same_matcher():
    assert choice.did_you_mean("requird", ("auto", "none", "required")) == "did you mean required?"
    assert choice.did_you_mean("xyz", ("auto", "none", "required")) is None
    assert choice.did_you_mean is bounded.did_you_mean
