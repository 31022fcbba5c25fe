"""The errors toolchoice raises: one line a person can act on, and a record beside the words.

``ToolchoiceError`` is a problem toolchoice can name (bad input, by default); each subclass says what kind, and its
``exit_code`` the command's exit code. No I/O, no imports but typing's: this module is on `render`'s start-up path
(``model`` hands these names on, where most of the code imports them from)."""

from typing import Callable, Iterator


class ToolchoiceError(Exception):
    """What toolchoice raises for a problem it can name: printed as one line, never a traceback.
    The subclass says what kind of problem it is, and its ``exit_code`` the command's exit code::

        ToolchoiceError          exit 2: bad input (a scenario, an option, a file) — the default
        ├── MissingKey           exit 2: a key or a variable a request needs is not set
        ├── NothingToSend        exit 2: compare_send was given no translation it can send
        ├── OutOfRange           exit 2: a job's argument (repeat, min_obeyed) outside what it takes
        ├── ArgumentError        exit 2: what an argument names (a folder, a port) cannot be used
        ├── BadReply             exit 1: a response body that is not the provider's reply
        └── WrongArgument        exit 2: a Python caller's argument of the wrong type (also a TypeError)
    """

    exit_code = 2
    # the record of words that name an argument (``named``): ``said_parts`` (the message) and ``hint_parts`` (the hint),
    # each split where it names one, and ``names``, the argument named at each split; none: the words name none
    said_parts: tuple[str, ...] = ()
    hint_parts: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None, hint: str | None = None) -> None:
        self.message, self.path, self.line, self.column, self.hint = message, path, line, column, hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.path:
            where = self.path
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        text = f"{where}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def spelled(self, spell: Callable[[str], str]) -> str:
        """``one_line()`` with each argument its words name (``names``) called ``spell(name)``: the command line's
        option (cli/exits.py), where the library says a Python caller's word (``RenderOptions(base_url=...)``)."""
        if not self.names:
            return self.one_line()
        message, hint = _joined(self, spell, self.message, self.hint)
        return ToolchoiceError(message, path=self.path, line=self.line, column=self.column, hint=hint).one_line()


# a Python caller's word for an argument the library's words name (``named``); else the argument's own name
PYTHON_WORDS = {"base_url": "RenderOptions(base_url=...)"}


def named(said: str | tuple[str, ...], *hint_parts: str, names: tuple[str, ...],
          spelling: dict[str, str] | None = None) -> ToolchoiceError:
    """The ``ToolchoiceError`` whose words name arguments: ``said`` (the message) and ``hint_parts`` (the hint; none:
    no hint) split where they name one, ``names`` the argument named at each split, said's first. Its words are a
    Python caller's (``spelling``, else ``PYTHON_WORDS``: ``check RenderOptions(base_url=...)``); the command line
    spells each as its option with ``spelled`` (``check --base-url``)."""
    error = ToolchoiceError("")
    error.said_parts, error.hint_parts, error.names = (said if isinstance(said, tuple) else ()), hint_parts, names
    words = {**PYTHON_WORDS, **(spelling or {})}
    message, hint = _joined(error, lambda name: words.get(name, name), said if isinstance(said, str) else "")
    ToolchoiceError.__init__(error, message, hint=hint)
    return error


def _joined(error: ToolchoiceError, spell: Callable[[str], str], said: str, hint: str | None = None
            ) -> tuple[str, str | None]:
    """``error``'s message and hint from its parts, each argument they name called ``spell(name)``; ``said`` and
    ``hint`` where it has no parts."""
    names = iter(error.names)
    return (_interleaved(error.said_parts, names, spell) if error.said_parts else said), \
        (_interleaved(error.hint_parts, names, spell) if error.hint_parts else hint)


def _interleaved(parts: tuple[str, ...], names: Iterator[str], spell: Callable[[str], str]) -> str:
    """``parts`` joined, the argument named at each split (the next of ``names``) called ``spell(name)``."""
    return parts[0] + "".join(spell(next(names)) + part for part in parts[1:])


class Named(str):
    """Words in a record (not an error) that name an argument, as a Python caller reads them (``openai: obeyed 0/4
    (0%), below min_obeyed 0.5``: a ``str``), with the record the command line spells its options from (``parts``
    split where they name one, ``names`` the argument at each; cli/exits.py: ``below --min-obeyed 0.5``). A JSON
    document, the library's and the command line's alike, names each as its field (``as_field``: a HAR's ``give
    provider=...`` is ``give provider``, the rows' ``provider``)."""

    parts: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    def spelled(self, spell: Callable[[str], str]) -> str:
        return _interleaved(self.parts, iter(self.names), spell)

    def as_field(self) -> str:
        """These words, each argument named as a JSON document's field: ``har.provider`` is ``provider``."""
        return self.spelled(lambda name: name.rpartition(".")[2])

    def mapped(self, change: Callable[[str], str]) -> "Named":
        """These words with ``change`` applied to them and to each part (redacted: a key they quote), record kept."""
        words = Named(change(self))
        words.parts, words.names = tuple(change(part) for part in self.parts), self.names
        return words


def named_words(*parts: str, names: tuple[str, ...], spelling: dict[str, str] | None = None) -> Named:
    """``parts`` joined by the arguments ``names`` names (a Python caller's words: ``spelling``, else
    ``PYTHON_WORDS``, else the name), with their record."""
    words = {**PYTHON_WORDS, **(spelling or {})}
    said = Named(_interleaved(parts, iter(names), lambda name: words.get(name, name)))
    said.parts, said.names = parts, names
    return said


class MissingKey(ToolchoiceError):
    """A key (or a variable a header names) that sending needs is not set. The record beside the words (set where it
    is raised, ``transport.prepare``): ``provider``; ``of`` what: "key", "header" or "mcp tool"; ``variables``: a key's,
    any one of which will do, else the ones the header or mcp tool needs; ``local``: the request goes to a server on
    this machine (which checks no key); ``key_help``: what the provider's module says someone without the key does
    (Bedrock's short-term key from IAM credentials), also in the words. The command line draws its own words from it
    (cli/exits.py)."""

    provider, of, local = "", "key", False
    variables: tuple[str, ...] = ()
    key_help = ""  # what the provider's module says someone without the key does (its KEY_HELP), in the words too


class NothingToSend(ToolchoiceError):
    """``compare_send`` given translations none of which can be sent. The record beside the words: ``skipped``, each
    provider with why nothing goes to it (``(provider, reason)``, the reason as its job's ``skipped`` says it), and
    ``missing``, the ``MissingKey`` of each provider skipped for want of a key or a variable (none when every
    translation was refused). The words are a Python caller's; the command line draws its own (cli/exits.py)."""

    skipped: tuple[tuple[str, str], ...] = ()
    missing: tuple[MissingKey, ...] = ()


class OutOfRange(ToolchoiceError):
    """A job's argument outside what it takes, said in a Python caller's words (``min_obeyed 95: give a rate from 0
    to 1 (e.g. min_obeyed=0.95)``). The record: ``argument`` (the parameter), ``value`` (as shown), ``takes`` (what
    it takes), ``example`` (a value it takes, or "") and ``lead`` (the words before it: "e.g."); without an example,
    ``hint`` (naming no argument) or none. The command line draws its own words from it, the argument named as its
    option (cli/exits.py). Made by ``out_of_range``."""

    argument, value, takes, example, lead = "", "", "", "", "e.g."


def out_of_range(argument: str, value: str, takes: str, example: str = "", *, lead: str = "e.g.",
                 hint: str | None = None) -> OutOfRange:
    """The ``OutOfRange`` error for ``argument`` given ``value`` (as shown), with its record; ``hint``: the hint when
    there is no ``example`` (words that name no argument)."""
    error = OutOfRange(f"{argument} {value}: give {takes}", hint=f"{lead} {argument}={example}" if example else hint)
    error.argument, error.value, error.takes, error.example, error.lead = argument, value, takes, example, lead
    return error


class ArgumentError(ToolchoiceError):
    """What one argument names cannot be used (a folder to save into, a file to write), the words starting with the
    argument's name: the library's with the parameter's (``save /tmp/out: not a folder``), the command line's with
    its option's (``--save /tmp/out: not a folder``). The record: ``argument`` (the parameter), ``said`` (the words
    after its name, as the library says them), ``hint_parts`` (the hint, split where it names an argument; none: no
    hint), ``said_parts`` (``said`` split so, when it names another argument) and ``names`` (the argument named at
    each split, said's first; none: ``argument`` at each). Made by ``argument_error``; ``spelled(spell)`` is its one
    line with each argument it names called ``spell(name)`` (cli/exits.py: the command line's options)."""

    argument, said = "", ""
    hint_parts: tuple[str, ...] = ()
    said_parts: tuple[str, ...] = ()
    names: tuple[str, ...] = ()

    def spelled(self, spell: Callable[[str], str]) -> str:
        said, hint = self._words(spell)
        return ToolchoiceError(f"{spell(self.argument)}{said}", path=self.path, line=self.line, column=self.column,
                               hint=hint).one_line()

    def _words(self, spell: Callable[[str], str]) -> tuple[str, str | None]:
        """``said`` and the hint, each argument they name called ``spell(name)``."""
        names = iter(self.names or (self.argument,) * (len(self.said_parts) + len(self.hint_parts)))
        said = _interleaved(self.said_parts or (self.said,), names, spell)
        return said, _interleaved(self.hint_parts, names, spell) if self.hint_parts else None


def argument_error(argument: str, said: str | tuple[str, ...], *hint_parts: str, names: tuple[str, ...] = (),
                   spelling: dict[str, str] | None = None) -> ArgumentError:
    """The ``ArgumentError`` of ``argument`` (a parameter's name), its words ``argument + said``; the hint is
    ``hint_parts`` joined by the argument's name. Words that name another argument: ``said`` a tuple split where
    they do, ``names`` the argument named at each split (said's, then the hint's), called as ``spelling`` says
    (``{"stream": "RenderOptions(stream=True)"}``; else by its name)."""
    error = ArgumentError("")
    error.argument, error.hint_parts, error.names = argument, hint_parts, names
    error.said_parts, error.said = (said, "") if isinstance(said, tuple) else ((), said)
    error.said, hint = error._words(lambda name: (spelling or {}).get(name, name))  # the library's words
    ToolchoiceError.__init__(error, f"{argument}{error.said}", hint=hint)
    return error


class BadReply(ToolchoiceError):
    """A response body that cannot be read as the provider's reply."""

    exit_code = 1


class WrongArgument(ToolchoiceError, TypeError):
    """A library call given a value of the wrong type (``call_args``): toolchoice's error, and a TypeError."""
