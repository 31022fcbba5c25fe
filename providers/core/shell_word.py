"""One word of a command a line tells the user to paste (`trace FILE.har`'s `run --replay` commands, `trace
--scenario-out`'s and init's `try` lines, render --snapshot's hint): a POSIX shell runs it as printed, and printing
it puts no control character on the terminal."""

from __future__ import annotations

from pathlib import Path

# a $'...' word's escapes (POSIX.1-2024's sh, bash, zsh, ksh93, busybox ash; not fish, nor dash 0.5.12, Debian 12's
# /bin/sh): the two that end or escape it, the usual blanks
_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shell_word(text: str) -> str:
    """``text`` as one shell word: ``shlex.quote``'s where nothing in it would act on a terminal; where something would
    (a character ``redaction.visible`` writes out: ESC, a bidi control, ...; a newline or a tab, which read as the
    line's end or a blank), a ``$'...'`` word that writes it as an escape: ``\\n``, or its bytes in three-digit octal
    (``\\033``; a file name's undecodable byte, Python's surrogate escape, as the byte it stands for). Printed as
    ``visible`` prints the name (``'a\\u001bb'``) or as the text is (a raw newline), the command named another file
    or ended at the line's end."""
    import shlex

    from .redaction import visible

    if visible(text) == text and "\n" not in text and "\t" not in text:
        return shlex.quote(text)
    out = []
    for char in text:
        if char in _NAMED:
            out.append(_NAMED[char])
        elif visible(char) == char:
            out.append(char)
        else:
            try:
                raw = char.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:  # a lone surrogate no file name holds: its code point's UTF-8 form
                raw = char.encode("utf-8", "surrogatepass")
            out.append("".join(f"\\{byte:03o}" for byte in raw))
    return "$'" + "".join(out) + "'"


def shell_path(path: str | Path) -> str:
    """A file name as a command's argument: ``shell_word``'s, with ``./`` before a name that starts with ``-`` (not an
    option)."""
    shown = str(path)
    return shell_word(f"./{shown}" if shown.startswith("-") else shown)
