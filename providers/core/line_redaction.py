"""Redacting a job's many JSON texts line by line, each distinct line once (``LineRedaction``).

`run --repeat` spools each loop's document redacted (loop_tally.LoopSpool), and every loop is laid out alike: the
scenario's tools, messages and request again at each step of each loop. Redacting each loop's whole text read all of
it again: ~0.28 ms a 13 kB loop of two steps, the largest of a step's own costs (bench/README.md, trial 22f).

What ``Redactor.text`` does to a text it does to each of its lines alone, and the same: no look of a key
(key_looks: a prefix's key, a member's name and value, a URL's ``?key=``), no spelling or piece of a key given by
value and no placeholder holds a newline, and no search looks past one, but where this module redacts the whole text
(tests/test_line_redaction.py holds each case):

- an AWS secret access key is taken anywhere in a text that holds an access key id anywhere
  (``key_looks._aws_secret_spans``): a text holding ``AKIA`` or ``ASIA``;
- a match that ends at an escape's backslash takes the escaped character too (``redaction._whole_escapes``): a text
  holding a backslash before a newline (JSON text never does);
- a key or a placeholder holding a newline: every text while the job has one.
"""

from __future__ import annotations

from typing import Mapping

from .redaction import Redactor
from .shown_text import visible_json

KEPT_CHARACTERS = 4 * 1024 * 1024  # the lines kept redacted, at most (then those of the last text alone)


class LineRedaction:
    """``Redactor(secrets).text``, each distinct line of the texts it is given redacted once. ``secrets``: the job's,
    read at each call (a loop resolves a key at a later step: the lines kept are forgotten then). ``visible``: the
    redacted JSON text made visible too (``visible_json``, which reads each line alone and writes no newline), each
    line kept so: the lines a spooled loop shares with the others are looked at once, not at every loop."""

    def __init__(self, secrets: Mapping[str, str], visible: bool = False) -> None:
        self.secrets = secrets
        self.visible = visible
        self._items: tuple[tuple[str, str], ...] | None = None
        self._redactor = Redactor({})
        self._by_line = True
        self._kept: dict[str, str] = {}
        self._size = 0

    def __call__(self, text: str) -> str:
        items = tuple(self.secrets.items())
        if items != self._items:
            self._items, self._redactor, self._kept, self._size = items, Redactor(dict(items)), {}, 0
            forms = [form for form, _ in self._redactor._forms] + [name for _, name in items]
            self._by_line = not any("\n" in form for form in forms)
        if not self._by_line or "AKIA" in text or "ASIA" in text or "\\\n" in text:
            return self._whole(text)
        lines = text.split("\n")
        kept = self._kept
        new = list(set(lines).difference(kept))  # in any order: each line is redacted alone
        if new:
            done = self._whole("\n".join(new)).split("\n")
            if len(done) != len(new):  # cannot be (no placeholder holds a newline): the whole text, then
                return self._whole(text)
            kept.update(zip(new, done))
            self._size += sum(map(len, new))
            if self._size > KEPT_CHARACTERS:  # the lines other texts held are forgotten
                kept = self._kept = {line: kept[line] for line in set(lines)}
                self._size = sum(map(len, kept))
        return "\n".join(map(kept.__getitem__, lines))

    def _whole(self, text: str) -> str:
        done = self._redactor.text(text)
        return visible_json(done) if self.visible else done
