"""A response header's value as a ``transport.Response`` holds it, each distinct value read once per prepared request
(``ShownValues``).

Every sample of a job reads its answer's headers: ``printable`` then ``Redactor.text`` on each value, ~10 k
instructions a value (bench/README.md, trial 22f: 46 k a sample for four headers), though most values come back the
same from answer to answer (the content-type, the server's name). The values are kept by their text, so a value that
changes (a date, a request id, one that holds a key) is read as a value of its own; the redactor is the prepared
request's, which never changes (``Redactor`` is built once from its secrets).
"""

from __future__ import annotations

from .redaction import Redactor
from .shown_text import printable

KEPT_VALUES = 256  # distinct values kept, at most (then forgotten, and kept again as they come)
KEPT_CHARACTERS = 1024  # a longer value is read each time, not kept


class ShownValues:
    """``redactor.text(printable(value))``, remembered for each value up to KEPT_CHARACTERS long."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.kept: dict[str, str] = {}

    def __call__(self, value: str) -> str:
        shown = self.kept.get(value)
        if shown is None:
            shown = self.redactor.text(printable(value))
            if len(value) <= KEPT_CHARACTERS:
                if len(self.kept) >= KEPT_VALUES:
                    self.kept.clear()
                self.kept[value] = shown
        return shown
