"""Text from outside (tool names and descriptions, a model's answer and arguments, ledger messages that quote
them) in the markdown toolchoice writes (`compare`, `compare --send`, `send` and `run` with ``--format markdown``),
which ends up rendered: a pull-request comment, a CI job's summary. There it must read as written, never as
emphasis, a link or an image, a code span, strike-through, HTML or an entity, nor end its table cell.

CommonMark lets a backslash escape any ASCII punctuation; only the characters that can start markup are
escaped, so that JSON and identifiers stay readable in the raw text: ``\\`` `` ` `` ``*`` ``[`` ``]`` ``<`` ``>``
``~`` ``&`` ``|``, and ``_`` where it can emphasize (not inside a word: ``get_weather`` stays as it is).

GFM also links text with no markup at all ("Autolinks (extension)", https://github.github.com/gfm/ 6.9): ``www.``
and a domain, ``http://``, ``https://`` or ``ftp://`` (any case) and a domain, and an e-mail address (alone or after
``mailto:`` / ``xmpp:``). cmark-gfm, GitHub's renderer, finds the first two while it parses, so a backslash
before the ``.`` of ``www.`` or the ``:`` of the scheme stops them. It finds addresses afterwards in each text
node, where escapes and entities are already undone (``a\\@b.example`` is still a link); so an ``@`` after a
character an address can hold gets ``<wbr>`` after it: an empty element, allowed by GitHub's sanitizer
(html-pipeline's ``SanitizationFilter``), that ends the text node and shows nothing. After the ``@``, not before:
html-pipeline's ``MentionFilter`` reads ``@name`` at a text node's start as a mention (``(?:^|\\W)@name``, in each text
node outside code and links), so ``foo<wbr>@bar now`` pinged the user bar, and a bare ``@name`` in a model's answer
pinged that user where the page was posted; ``@<wbr>name`` is neither a mention nor an address. ``@org/team`` too:
html-pipeline's ``TeamMentionFilter`` reads it as a team's mention (every member notified), so it is written
``@<wbr>org/team`` as well (an npm package's ``@scope/name`` shows the same).
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"[\\`*\[\]<>~&|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])"
                      r"|(?i:(?<=www)\.|(?:(?<=http)|(?<=https)|(?<=ftp)):(?=//))"  # a www or URL autolink
                      r"|(?<=[\w.+-])(?P<at>@)(?=[\w-])"  # an e-mail autolink
                      r"|(?<![\w.+-])(?P<mention>@)(?=[0-9A-Za-z])")  # a user or team (@org/team) mention
_BACKTICKS = re.compile(r"`+")


def _escape(match: re.Match[str]) -> str:
    return "@<wbr>" if match.group("at") or match.group("mention") else "\\" + match.group()


def escaped(text: str) -> str:
    """``text`` with every character that could start markdown markup backslash-escaped, and no autolink."""
    return _SPECIAL.sub(_escape, text)


def cell(text: str, newline: str = "<br>") -> str:
    """``text`` for a table cell: escaped, on one line (a line break becomes ``newline``: ``<br>``, which with
    ``<wbr>`` is the only HTML toolchoice writes itself, or a space)."""
    return escaped(text).replace("\r\n", "\n").replace("\r", "\n").replace("\n", newline)


def code(text: str) -> str:
    """``text`` as a code span in a table cell: fenced with more backticks than any run it holds (a code span
    shows backslashes as they are), its pipes escaped (GFM reads ``\\|`` in a cell before the code span)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    inner = " ".join(text.splitlines()).replace("|", "\\|")
    if inner.startswith("`") or inner.endswith("`"):
        inner = f" {inner} "
    return f"{fence}{inner}{fence}"


_BLOCK_START = re.compile(r"[ \t]*(?:[#>+=-]|[0-9]+[.)])")  # what starts a heading, a quote, a list or a setext line


def line(text: str) -> str:
    """``text`` as the rest of a line of its own (after a list's ``- ``): ``cell``'s, and what would start a block
    there (a heading's ``#``, a quote's ``>``, a list's ``-``, ``+`` or ``1.``) escaped too."""
    out = cell(text)
    found = _BLOCK_START.match(out)
    return out if found is None else out[:found.end() - 1] + "\\" + out[found.end() - 1:]


def fenced(text: str) -> list[str]:
    """``text`` as a fenced code block whose fence is longer than any run of backticks it holds, so nothing in it
    closes the block or is read as markup."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, text, fence]
