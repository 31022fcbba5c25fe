"""``NameRule``, a fact's value for the tool names an API takes: its own leaf module, so render can read the name-rule
facts (core/name_rule_facts.py) without loading core/fact_values.py."""

from __future__ import annotations

from typing import NamedTuple


class NameRule(NamedTuple):
    """The tool names an API's own source says it takes: ``pattern`` (the whole name must match it, re.fullmatch), and
    what it allows in the ledger's words (``words``); a name breaking it is refused (core/name_rule_facts.py)."""

    pattern: str
    words: str
