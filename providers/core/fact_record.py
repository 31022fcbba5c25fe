"""One dated fact: the providers it concerns, what it states, the primary source it was read at (the citation,
then CITE_END and the words quoted), the date it was last checked there, and, where the mock or a translator acts on
it, the value it states, typed (core/fact_values.py); core/facts.py holds the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # not loaded at run time: render loads the name rules' facts, never fact_values
    from .fact_values import FactValue

# A ledger message names a fact by its citation (``cited``), the part of the source before CITE_END; the words
# quoted follow it.
CITE_END = " — "


class Fact(NamedTuple):
    id: str
    providers: tuple[str, ...]
    statement: str
    source: str
    verified: str  # ISO date
    value: FactValue | None = None  # what the fact states, typed, where code acts on it

    def to_json(self) -> dict[str, object]:  # the value is said in the statement's words; not printed twice
        return {"id": self.id, "providers": list(self.providers), "statement": self.statement,
                "source": self.source, "verified": self.verified}

