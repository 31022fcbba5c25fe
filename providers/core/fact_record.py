"""One dated fact: the providers it concerns, what it states, the primary source it was read at (the citation,
then CITE_END and the words quoted) and the date it was last checked there (core/facts.py holds the table)."""

from __future__ import annotations

from typing import NamedTuple

# A ledger message names a fact by its citation (``cited``), the part of the source before CITE_END; the words
# quoted follow it.
CITE_END = " — "


class Fact(NamedTuple):
    id: str
    providers: tuple[str, ...]
    statement: str
    source: str
    verified: str  # ISO date

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "providers": list(self.providers), "statement": self.statement,
                "source": self.source, "verified": self.verified}
