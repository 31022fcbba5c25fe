"""One word of a command a line tells the user to paste (`trace FILE.har`'s `run --replay` commands, `trace
--scenario-out`'s and init's `try` lines, render --snapshot's hint): bash, zsh, dash (Debian's /bin/sh) and fish
(3.4 or later) run it as printed, and printing it puts no control character on the terminal; but for a name that
ends in a newline, a ``$'...'`` word, which bash and zsh read (and POSIX.1-2024's sh, ksh93, busybox ash) and dash
0.5.12 (Debian 12, Ubuntu 24.04) and fish do not: the line that prints one says so (``bash_only``)."""

from __future__ import annotations

from pathlib import Path

# what stays as it is in printf's format: the rest of the text is its bytes in octal, `\033`. A backslash and a quote
# are too (fish reads `\\` and `\'` inside single quotes as escapes, POSIX shells do not), and `%` is printf's `%%`
_FORMAT_AS_IS = frozenset(map(chr, range(0x20, 0x7F))) - {"\\", "'", "%"}
# a $'...' word's escapes (POSIX.1-2024's sh, bash, zsh, ksh93, busybox ash; not fish, nor dash 0.5.12, Debian 12's
# /bin/sh): the two that end or escape it, the usual blanks
_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shell_word(text: str) -> str:
    """``text`` as one shell word. ``shlex.quote``'s where nothing in it would act on a terminal (its backslashes
    outside the quotes, as ``\\\\``: fish reads ``'a\\\\'`` as ``a\\``). Where something would (a character
    ``redaction.visible`` writes out: ESC, a bidi control, ...; a newline or a tab, which read as the line's end or a
    blank): ``"$(printf 'FORMAT')"``, the text as printf's format with each such character's bytes in three-digit
    octal (``\\033``; a file name's undecodable byte, Python's surrogate escape, as the byte it stands for), which
    POSIX sh and bash, zsh and fish each read. A text that ends in a newline, which a command substitution drops,
    is a ``$'...'`` word, read by bash and zsh (not dash 0.5.12 nor fish): no one-line word of theirs ends in one.
    Printed as ``visible`` prints the name (``'a\\u001bb'``) or as the text is (a raw newline), the command named
    another file or ended at the line's end."""
    import shlex

    from .redaction import visible

    if visible(text) == text and "\n" not in text and "\t" not in text:
        if "\\" not in text:
            return shlex.quote(text)
        return "\\\\".join(shlex.quote(part) if part else "" for part in text.split("\\"))
    if text.endswith("\n"):
        return _dollar_quoted(text)
    lead, rest = ("\\055", text[1:]) if text.startswith("-") else ("", text)  # the format (printf's first
    return "\"$(printf '" + lead + "".join(  # argument) is no option
        "%%" if char == "%" else char if char in _FORMAT_AS_IS or not char.isascii() and visible(char) == char
        else _octal(char) for char in rest) + "')\""


# what a line holding a $'...' word says after it: no one-line word of dash's or fish's ends in a newline (a command
# substitution drops it; a quoted raw newline is two lines)
BASH_ONLY = " (in bash or zsh: a name in it ends in a newline, which dash and fish write on no one line)"


def bash_only(*words: str) -> str:
    """``BASH_ONLY`` where one of ``words`` (``shell_word``'s) is a ``$'...'`` word, else ""."""
    return BASH_ONLY if any(word.startswith("$'") for word in words) else ""


def _dollar_quoted(text: str) -> str:
    from .redaction import visible

    return "$'" + "".join(_NAMED[char] if char in _NAMED else char if visible(char) == char else _octal(char)
                          for char in text) + "'"


def _octal(char: str) -> str:
    try:
        raw = char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate no file name holds: its code point's UTF-8 form
        raw = char.encode("utf-8", "surrogatepass")
    return "".join(f"\\{byte:03o}" for byte in raw)


def shell_path(path: str | Path) -> str:
    """A file name as a command's argument: ``shell_word``'s, with ``./`` before a name that starts with ``-`` (not an
    option)."""
    shown = str(path)
    return shell_word(f"./{shown}" if shown.startswith("-") else shown)
