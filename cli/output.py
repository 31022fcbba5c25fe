"""Turning translations into text: JSON, a paste-safe curl command, and rich's pretty view.

JSON and curl need nothing beyond the standard library; rich is imported only for pretty output.

Keys: every command redacts what it shows BEFORE layout (``Redactor.data`` on the records and
documents it is about to draw or dump), because rich wraps and cuts lines and a key split across two
lines, or cut to a prefix, can no longer be matched afterwards. ``emit_json`` / ``emit_drawn`` do
that for a document / a drawing and pass the finished text through the redactor once more as a net.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Callable, Iterable, NoReturn

from toolchoice.providers.core.model import Translation, wire_json
from toolchoice.providers.core.redaction import Redactor, environment_secrets, visible

from .ledger_view import SEVERITY_STYLE, ledger_table  # noqa: F401  (the ledger's table: its own module)


# Compact JSON text from which a document is indented by core/json_text.py (orjson) instead of the standard
# library's encoder, which indents in Python (~5 ms for 100 kB). Below it, orjson's import costs more than it
# saves; the compact text (C, a tenth of the indenting) tells the size.
LARGE_JSON = 32 * 1024


def dumps(value: Any, compact: str | None = None) -> str:
    """Indented JSON for the commands that print one document (render, tools, parse), as
    ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it (the sending commands' documents, which
    grow with N, always go through core/json_text.py). ``compact``: the value's compact text, if at hand."""
    import json

    if len(compact if compact is not None else json.dumps(value, ensure_ascii=False)) < LARGE_JSON:
        return json.dumps(value, indent=2, ensure_ascii=False)
    from toolchoice.providers.core.json_text import dumps_indented

    return dumps_indented(value)


def terminal_width() -> int:
    """The width plain text is folded at (doctor, run --dry-run): the terminal's ($COLUMNS), at least 40."""
    import shutil

    return max(40, shutil.get_terminal_size().columns)


def write(text: str, json_escapes: bool = False) -> None:
    """Text on stdout, every control character but tab and newline escaped visibly (``visible``; ``json_escapes``:
    text that holds JSON, such as a curl command's body, takes JSON's escape past U+FFFF)."""
    from toolchoice.providers.core.redaction import visible

    text = visible(text, json_escapes)
    sys.stdout.write(text)
    if not text.endswith("\n"):  # written apart: ``text + "\n"`` would copy a document of megabytes
        sys.stdout.write("\n")


def yaml_text(data: Any) -> str:
    """``data`` as YAML for ``write`` (block style, keys in their order, non-ASCII as written). A string holding a
    character ``write`` writes out as ``\\u200b`` (a zero-width space, a bidi override, a C1 control) is
    double-quoted, where that is YAML's own escape: in a plain or single-quoted scalar it would read back as six
    characters, and the scenario saved from the output would not be the one shown."""
    import yaml

    return _yaml_dump(data, yaml.SafeDumper)


def _yaml_dump(data: Any, base: Any) -> str:
    """``yaml_text``'s dump with the emitter ``base`` brings (PyYAML's, or libyaml's ``CSafeDumper``)."""
    import yaml

    from toolchoice.providers.core.redaction import visible

    class Dumper(base):  # type: ignore[misc, valid-type]
        pass

    def text(dumper: Any, value: str) -> Any:
        style = '"' if visible(value) != value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)


def yaml_list(key: str, items: list[Any]) -> str:
    """``yaml_text({key: items})``, byte for byte, ~4x sooner on a long list (a trace's 10,000 runs): the items
    whose every text libyaml's emitter writes as PyYAML's does (``_plain``) are written by it (``CSafeDumper``,
    when PyYAML has it), in runs of such items, the others by PyYAML's own. libyaml writes otherwise a character
    past U+FFFF (escaped), a long double-quoted text (folded elsewhere), a key of 128 bytes or more (``? ``):
    tests/test_trace_listing.py holds the two to the same bytes over generated listings."""
    import yaml

    fast = getattr(yaml, "CSafeDumper", None)
    if fast is None or not items or not _unshared(items):
        return yaml_text({key: items})
    parts: list[str] = []
    start = 0
    while start < len(items):
        plain = _plain(items[start])
        end = start + 1
        while end < len(items) and _plain(items[end]) == plain:
            end += 1
        chunk = _yaml_dump({key: items[start:end]}, fast if plain else yaml.SafeDumper)
        if not chunk.startswith(f"{key}:\n"):  # a key YAML quotes: no runs to join
            return yaml_text({key: items})
        parts.append(chunk if not parts else chunk[len(key) + 2:])  # "key:\n" once
        start = end
    return "".join(parts)


def _plain(value: Any, key: bool = False) -> bool:
    """Whether libyaml writes ``value`` as PyYAML does: texts of printable characters (no control, separator or
    format character: those are quoted and folded differently) of the Basic Multilingual Plane, keys short ASCII
    (not empty);
    numbers, booleans, None; lists and string-keyed mappings of such."""
    if isinstance(value, str):
        return value.isprintable() and (not value or max(value) < "\U00010000") and (
            not key or (value.isascii() and 0 < len(value) < 64))
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(k, True) and _plain(v) for k, v in value.items())
    return False


def _unshared(items: list[Any]) -> bool:
    """No list or mapping appears twice (PyYAML would write an anchor and an alias; runs dumped apart would not)."""
    seen: set[int] = set()
    stack: list[Any] = list(items)
    while stack:
        value = stack.pop()
        if isinstance(value, (list, dict)):
            if id(value) in seen:
                return False
            seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
    return True


def write_json(text: str) -> None:
    """``write`` for JSON text as ``json.dumps`` or ``core/json_text.py`` write it (redacted or not): their encoder
    escaped every C0 control already, so ``visible_json`` finds the rest (~0.4 ms for the 9 MB of an 8 MB reply's
    document, where ``visible``'s look over every character costs ~25 ms and more)."""
    from toolchoice.providers.core.redaction import visible_json

    text = visible_json(text)
    sys.stdout.write(text)
    if not text.endswith("\n"):
        sys.stdout.write("\n")


def shown_path(path: object) -> str:
    """A file path in a title, a header or a summary line: data, with its controls written out and a newline too
    (a file name holding one must not start a line of its own: a forged result, or a command under curl's
    ``# scenario`` comment that a shell would run). A tab stays, as ``visible`` keeps it: the fold measures it.
    ``-`` (the scenario read from stdin) is shown as ``stdin``, as `parse` names it: a title "- · dry run" read as
    a stray dash."""
    if str(path) == "-":
        return "stdin"
    return visible(str(path)).replace("\n", "\\u000a")


def wrapped(text: str, width: int) -> str:
    """Plain lines (the summary under the tables) folded to ``width`` terminal cells at word boundaries, each
    continuation indented under the text its line starts with ("  3  path: meaning" goes on under "path"). A line
    that fits is left as it is; nothing is dropped but the spaces a break stands for; a word longer than a line is
    folded. The text is data (scenario paths): it is never read as markup, and its controls are written out."""
    from rich.cells import cell_len
    from rich.text import Text

    from .word_breaks import wrap as word_wrap

    console = None
    out: list[str] = []
    for line in visible(text).split("\n"):  # measured as shown: a control character written out
        if cell_len(line.expandtabs(8) if "\t" in line else line) <= width:  # a tab: the cells to the next stop
            out.append(line)
            continue
        line = line.expandtabs(8)  # folded, it is spaces (as rich's wrap makes it)
        console = console or new_console()
        prefix = re.match(r" *(?:\d+ +)?", line).group()  # type: ignore[union-attr]
        if len(prefix) > width // 3:  # too narrow to keep the code column: the whole line folds
            prefix = ""
        indent = len(prefix)
        pieces = word_wrap(Text(line[len(prefix):]), console, width - indent, overflow="fold")
        out += [(prefix if i == 0 else " " * indent) + piece.plain.rstrip(" ") for i, piece in enumerate(pieces)]
    return "\n".join(out)


def shown_utf8_writer() -> Callable[[bytes], None]:
    """Where to write pieces of UTF-8 text already shown as ``write`` shows text (redacted, visible): the
    bytes as they are when stdout writes UTF-8 (no decoding and encoding again: a `run --repeat` document
    is megabytes), else decoded and written as text (a test's StringIO, another encoding)."""
    from .stdio import writes_utf8

    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None or not writes_utf8(out):
        return lambda data: out.write(data.decode("utf-8"))
    out.flush()  # what the text layer holds goes first

    def write_all(data: bytes) -> None:
        """Unbuffered (-u, $PYTHONUNBUFFERED), ``buffer`` is the raw file, whose write may take only part
        of a large piece (a signal during a write to a pipe): the rest is written, not dropped."""
        view = memoryview(data)
        try:
            while view:
                written = buffer.write(view)
                if written is None:  # a non-blocking stdout that is full: as a buffered writer reports it
                    raise BlockingIOError("stdout would block")
                view = view[written:]
        except BlockingIOError:
            raise
        except OSError:  # a full disk, a device error: reported once (exits.handled); what the buffer still holds
            point_stdout_at_devnull()  # (the document's head) would fail again at the exit, a second report and exit 120
            raise

    return write_all


def output_redactor(names: Iterable[str] = (), secrets: dict[str, str] | None = None) -> Redactor:
    """A redactor for every key this process could show: each provider key variable set in the
    environment, the ``names`` given (a scenario's header variables, --allow-env ones) and
    ``secrets`` (value -> placeholder, e.g. ``Prepared.secrets`` from the transport)."""
    found = environment_secrets(os.environ, tuple(names))
    found.update(secrets or {})
    return Redactor(found)


def emit_json(document: Any, redactor: Redactor) -> None:
    """A JSON document on stdout, every string redacted before it is laid out (so the output is still
    valid JSON, and a key is never cut by escaping or indentation): ``json_document``."""
    write_json(json_document(document, redactor))


def json_document(document: Any, redactor: Redactor) -> str:
    """What ``--format json`` prints of ``document``: ``redactor.text(dumps(redactor.data(document)))``, the data
    redacted and then its JSON text, done in one pass (``Redactor.document``: the text pass only over the strings it
    could still change; tests/test_redaction_one_pass.py holds the two equal)."""
    return redactor.document(document, dump=dumps)


def emit_drawn(draw: Callable[[Any], None], redactor: Redactor) -> None:
    """Draw with rich into a capture and write it. ``draw`` must be given redacted values already
    (``redactor.data(reply)``, ...): this last pass only catches what slipped through whole."""
    out = new_console(redactor)
    with out.capture() as captured:
        draw(out)
    sys.stdout.write(redactor.text(captured.get()))


def new_console(redactor: Redactor | None = None, **options: Any) -> Any:
    """The one printer: rich's Console for stdout, plain (no highlighting, no soft wrap), that reads no
    markup (``[schema, null]`` is text, ``read file[/b]`` too) and shows every control character of the
    text it lays out visibly (``redaction.visible``: no ESC or BEL from a tool name or a reply reaches the
    terminal), nor emoji codes (``:smile:`` stays as written); a closed pipe (``| head``) ends the command quietly with exit 0 instead of rich's exit 1."""
    console = _console_class()(**{"highlight": False, "soft_wrap": False, "markup": False, "emoji": False, **options})
    _controls_shown()
    console.redactor = redactor if redactor is not None else output_redactor()  # keys out BEFORE layout
    return console


_CONSOLE: Any = None


def _controls_shown() -> None:
    """rich deletes BEL, BS, VT, FF and CR when it builds a Text (rich.control.strip_control_codes), before
    ``shown`` below can write them out: text from outside lost characters silently while ESC was shown as
    \u001b. Every Text a command prints writes them out instead, as ``visible`` writes every control; set for
    each console a command makes, and put back when the command returns (``rich_restored``, app.run)."""
    import rich.text as rich_text

    rich_text.strip_control_codes = visible  # type: ignore[assignment]


def rich_restored() -> None:
    """rich's ``strip_control_codes`` as rich has it: a command run in a caller's process (``app.run``) leaves
    the caller's own rich output as it was."""
    text = sys.modules.get("rich.text")
    if text is not None:
        from rich.control import strip_control_codes

        text.strip_control_codes = strip_control_codes  # type: ignore[attr-defined]


def _console_class() -> Any:
    global _CONSOLE
    if _CONSOLE is not None:
        return _CONSOLE
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from toolchoice.providers.core.shown_text import SHOWN_CONTROL, visible

    from . import table_draw, word_breaks

    _controls_shown()

    def fit(console: Any, table: Any, options: Any) -> None:
        """A table never wider than the console: when even its narrowest layout (ids and codes unbroken)
        does not fit, every column may fold, so rich shrinks them and the right border stays on screen
        (rich would crop the lines instead)."""
        width = options.max_width
        if table.width is not None or getattr(table, "_fitted", False):
            return
        table._fitted = True
        if table_draw.laid_out_width(console, options, table) <= width:
            return
        for column in table.columns:
            column.no_wrap = False
            column.overflow = "fold"
            column.min_width = None

    def shown(console: Any, text: Any) -> Any:
        """``text`` with every key redacted (before it is wrapped or cut: a key folded into a narrow column
        can no longer be matched) and its control characters written out, styles kept."""
        redactor = getattr(console, "redactor", None)
        if redactor and redactor.contains(text.plain):
            text = Text(redactor.text(text.plain), style=text.style, justify=text.justify, overflow=text.overflow,
                        no_wrap=text.no_wrap, end=text.end)
        if not SHOWN_CONTROL.search(text.plain):
            return text
        out = Text(justify=text.justify, overflow=text.overflow, no_wrap=text.no_wrap, end=text.end)
        for segment in text.render(console, end=""):
            out.append(visible(segment.text), segment.style)
        return out

    class Printer(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            closed_pipe()

        def render_str(self, text: str, **kwargs: Any) -> Any:
            return shown(self, super().render_str(text, **kwargs))

        def render_lines(self, renderable: Any, options: Any = None, *, style: Any = None, pad: bool = True,
                         new_lines: bool = False) -> Any:
            if pad and not new_lines and options is not None:  # how a table asks for each cell
                lines = table_draw.padded_lines(self, renderable, options, style, shown)
                if lines is not None:
                    return lines
            return super().render_lines(renderable, options, style=style, pad=pad, new_lines=new_lines)

        def rule(self, title: Any = "", *, characters: str = "─", style: Any = "rule.line",
                 align: Any = "center") -> None:
            """rich's rule, but a title too long for its line (a long file path) is not cut to an ellipsis: the
            line goes alone, and the title is printed whole under it, folded."""
            text = title if isinstance(title, Text) else Text(title)
            if not text.plain or text.cell_len <= self.width - (4 if align == "center" else 2):
                super().rule(title, characters=characters, style=style, align=align)
                return
            super().rule(characters=characters, style=style)
            text = text.copy()
            text.plain = text.plain.replace("\n", " ")
            text.overflow = "fold"
            self.print(text)

        def render(self, renderable: Any, options: Any = None) -> Any:
            if isinstance(renderable, str):  # made a Text as rich makes it (render_str: shown), then drawn as one
                renderable = word_breaks.rendered(self, renderable, options)
            elif isinstance(renderable, Text):  # a URL, a path or a dotted name wider than its line breaks after a
                renderable = word_breaks.Wrapped(shown(self, renderable))  # `/`, a `.`, ... (word_breaks.wrap)
            elif isinstance(renderable, Table):
                fit(self, renderable, options or self.options)
                if table_draw.drawable(renderable):
                    return table_draw.drawn(self, renderable, options or self.options, shown)
            return super().render(renderable, options)

        def _render_buffer(self, buffer: Any) -> str:  # rich's last step from segments to the text written
            """No line ends in spaces (a title or caption padded to the width, the space a wrapped line broke at):
            without colour, taken off the text (``bare_line_ends``), else off the segments (``line_ends_bare``)."""
            if self.color_system is None:
                return table_draw.bare_line_ends(str(super()._render_buffer(buffer)))
            return str(super()._render_buffer(table_draw.line_ends_bare(buffer)))

    _CONSOLE = Printer
    return Printer


def point_stdout_at_devnull() -> None:
    """Point stdout at /dev/null: nothing more can reach the file it was, and the exit's flush must not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def closed_pipe() -> NoReturn:
    """The reader of stdout went away: point stdout at /dev/null (so the interpreter's last flush
    cannot fail again) and end the command as a success."""
    point_stdout_at_devnull()
    raise BrokenPipeError("stdout closed")


def translations_json(translations: list[Translation]) -> str:
    """One JSON document: an object for one provider, a list for several."""
    data = [t.to_json() for t in translations]
    return dumps(data[0] if len(data) == 1 else data)


def _shell_single(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _shell_header(name: str, value: str) -> str:
    """A header argument: double-quoted so $ENV_VAR placeholders expand, everything else literal; a "!" between
    single quotes, where an interactive bash does not expand history (in double quotes it does, and a backslash
    before it stays: the GNU Bash manual, 3.1.2.3 Double Quotes)."""
    from toolchoice.providers.core.request_parts import ENV_PLACEHOLDER

    def literal(text: str) -> str:
        return re.sub(r'(["\\`$])', r"\\\1", text)

    # the placeholders send reads ($NAME, ${NAME}) expand; any other $ is literal, as send sends it: `${NAME}` was
    # written \${NAME} (sent as written, where send sends the value) and `$Home`, `$NAMEx` expanded (to nothing)
    parts, last = [literal(f"{name}: ")], 0
    for found in ENV_PLACEHOLDER.finditer(value):
        parts += [literal(value[last:found.start()]), found.group(0)]
        last = found.end()
    escaped = "".join([*parts, literal(value[last:])])
    return f'"{escaped}"'.replace("!", "\"'!'\"")


def _shell_body(body: Any, body_env: tuple[tuple[Any, ...], ...]) -> tuple[str, list[str]]:
    """The body as one shell word for printf, and the variables it reads: single-quoted, except the ``$ENV``
    placeholders an MCP server's headers hold (``Request.body_env``), which close the quote and expand
    JSON-escaped, as send resolves them at send time (any other ``$`` in the body stays literal, as send leaves it)."""
    text = wire_json(body)
    if not body_env:
        return _shell_single(text), []
    from toolchoice.providers.core.request_parts import ENV_PLACEHOLDER

    mark = "tc" + os.urandom(8).hex()  # a stand-in for each placeholder that no body holds by chance
    while mark in text:
        mark = "tc" + os.urandom(8).hex()
    names: list[str] = []

    def marked(match: re.Match[str]) -> str:
        names.append(match.group(1) or match.group(2))
        return f"{mark}{len(names) - 1}{mark}"

    copy: Any = dict(body)
    for path in body_env:  # each container on the way copied: the request keeps its placeholders
        node = copy
        for key in path[:-1]:
            node[key] = dict(node[key]) if isinstance(node[key], dict) else list(node[key])
            node = node[key]
        if isinstance(node[path[-1]], str):
            node[path[-1]] = ENV_PLACEHOLDER.sub(marked, node[path[-1]])
    pieces = re.split(f"{mark}(\\d+){mark}", wire_json(copy))
    words = [_json_escaped_variable(names[int(piece)]) if odd else _shell_single(piece)
             for odd, piece in ((i % 2, piece) for i, piece in enumerate(pieces)) if odd or piece]
    return "".join(words), names


def _json_escaped_variable(name: str) -> str:
    """``$NAME`` expanded inside a JSON string as send writes it: its backslashes and double quotes escaped for
    JSON (POSIX sed: a value may hold them)."""
    return f'"$(printf \'%s\' "${{{name}:?{name} is not set}}" | sed \'s/[\\\\"]/\\\\&/g\')"'


def curl_command(t: Translation) -> str:
    """A paste-safe command: the ledger's warnings as comments (a refusal's errors on its first line), then the request. The body is
    piped by printf '%s', so curl sends it byte for byte (a heredoc would add a newline)."""
    notes = [f"# {e.severity} {e.code}: {' '.join(e.message.split())}" for e in t.ledger if e.severity == "warning"]
    if t.request is None:
        reasons = "; ".join(e.message for e in t.ledger if e.severity == "error")
        return "\n".join([f"# {t.provider}: refused: {reasons}", *notes])
    r = t.request
    body, names = _shell_body(r.body, r.body_env)
    # send refuses an unset $NAME an MCP header reads: so does the curl, before anything is sent
    guard = "".join(f': "${{{n}:?{n} is not set}}" && ' for n in dict.fromkeys(names))
    # -N: print each event as it arrives instead of buffering the stream
    lines = [f"# {t.provider}", *notes, f"{guard}printf '%s' {body} \\",
             f"| curl -sS{' -N' if r.stream else ''} -X {r.method} {_shell_single(r.url)} \\"]
    for name, value in r.headers.items():
        lines.append(f"  -H {_shell_header(name, value)} \\")
    lines.append("  --data-binary @-")
    return "\n".join(lines)


def translations_curl(translations: list[Translation]) -> str:
    return "\n\n".join(curl_command(t) for t in translations)


# Keys whose values are opaque reasoning state (signatures, encrypted reasoning): long, meaningless to read.
OPAQUE_KEYS = frozenset({"signature", "thoughtSignature", "encrypted_content", "redactedContent"})
_OPAQUE_SHOWN = 12
_SENTINEL = "skip_thought_signature_validator"  # Google's documented stand-in: a word, not a secret


def shorten_opaque(value: Any, key: str = "", parent: Any = None) -> Any:
    """A copy of a body for people: signatures and encrypted reasoning shortened to their first characters
    and length (JSON and curl output keep them whole). Redacted thinking's ``data`` is opaque too."""
    if isinstance(value, dict):
        return {k: shorten_opaque(v, k, value) for k, v in value.items()}
    if isinstance(value, list):
        return [shorten_opaque(v, key, parent) for v in value]
    opaque = key in OPAQUE_KEYS or (key == "data" and isinstance(parent, dict)
                                    and parent.get("type") == "redacted_thinking")
    if opaque and isinstance(value, str) and len(value) > _OPAQUE_SHOWN + 8 and value != _SENTINEL:
        return f"{value[:_OPAQUE_SHOWN]}…({len(value)} chars)"
    return value


def fitted_table(width: int, headers: list[str], rows: list[list[Any]], **options: Any) -> Any:
    """``table_fit.fitted_table``: a table whole at ``width`` (its own module, imported when a table is drawn)."""
    from .table_fit import fitted_table as fitted

    return fitted(width, headers, rows, **options)


def print_ledgers(translations: list[Translation], titles: dict[str, str]) -> None:
    """Only the ledgers, one heading per provider (render --ledger-only)."""
    from rich.text import Text

    console = new_console()
    for t in translations:
        console.rule(Text.assemble((t.provider, "bold"), f" · {titles.get(t.provider, '')}"))
        if t.request is None:
            console.print(Text("REFUSED: nothing would be sent", style="bold red"))
        console.print(ledger_table(t.ledger, console.width) if t.ledger else Text("(no ledger entries)", style="dim"))


# rich colours JSON with regexes and renders a span per token: ~0.3 s for a 250 kB request body (300 real tools),
# ~1.5 s for 1.3 MB, most of a `render`. Bodies past this size are shown plain on a terminal too; wherever colours
# do not show (a pipe, a file: rich has no colour system there) every body is, and the text is the same.
HIGHLIGHT_MAX = 64 * 1024


def json_view(console: Any, data: Any) -> Any:
    """JSON data laid out with two-space indents as rich's JSON view lays it out, coloured only where colours
    show; print it with ``soft_wrap=True`` (a long line is left whole for the terminal to wrap)."""
    import json

    compact = json.dumps(data, ensure_ascii=False)
    if console.color_system is not None and len(compact) <= HIGHLIGHT_MAX:
        from rich.json import JSON

        return JSON(compact, indent=2)
    return _Unstyled(console, dumps(data, compact))  # the text rich's JSON writes (json.dumps, indent 2)


class _Unstyled:
    """Text without styles, passed to the output as one piece, keys redacted and controls written out as every
    text is (``shown``): rich would make a Text of each line, wrap it and join them again (~0.5 s a MB)."""

    def __init__(self, console: Any, text: str) -> None:
        from toolchoice.providers.core.redaction import visible

        redactor = getattr(console, "redactor", None)
        self.text = visible(redactor.text(text) if redactor else text)

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        yield Segment(self.text)
        yield Segment.line()


def tokens_cell(input_tokens: Any, output_tokens: Any) -> str:
    """Tokens in and out as `send` words them (``tokens in 48 / out 19``), so a cell reads alone under the short
    header ``tokens`` or after it in one record a row: ``in 48 / out 19`` (a cell "48/19" said neither); run's
    tables and compare --send's rows."""
    return f"in {'–' if input_tokens is None else input_tokens} / out {'–' if output_tokens is None else output_tokens}"


def choice_text(value: Any) -> str:
    """``compare_records.choice_text``, imported when first drawn (`render -f json` never loads that module)."""
    from toolchoice.providers.core.compare_records import choice_text as text

    return text(value)


def _json_printed(console: Any, text: str, style: str) -> None:
    """A tool_choice's JSON on lines of its own, broken between its members and elements where it is wider than
    the console (``call_lines.json_lines``: a string or number never broken, shortened with "…" only where it is
    wider than a line alone); other text as rich folds it."""
    from rich.text import Text

    from .call_lines import json_lines

    lines = json_lines(visible(text), console.width)  # measured as shown: a ZWJ is drawn \u200d, six cells, not none
    console.print(Text("\n".join(lines) if lines is not None else text, style=style))


def print_pretty(translations: list[Translation], titles: dict[str, str]) -> None:
    from rich.text import Text

    console = new_console()
    for t in translations:
        console.rule(Text.assemble((t.provider, "bold"), f" · {titles.get(t.provider, '')}"))
        requested = Text.assemble(("tool_choice  ", "bold"), f"requested {choice_text(t.requested_tool_choice)}")
        style = "green" if t.request else "red"
        wire = Text(f"on the wire {choice_text(t.effective_tool_choice)}", style=style)
        if requested.cell_len + 5 + wire.cell_len <= console.width:
            console.print(Text.assemble(requested, "  →  ", wire))
        else:
            if requested.cell_len <= console.width:
                console.print(requested)
            else:  # its JSON on lines of its own, as the wire form's below
                console.print(Text.assemble(("tool_choice  ", "bold"), "requested"))
                _json_printed(console, choice_text(t.requested_tool_choice), "")
            if 13 + wire.cell_len <= console.width:  # a fold never cuts the label "on the wire" in two
                console.print(Text.assemble("          →  ", wire))
            else:  # the wire form on lines of its own, broken between its members (never inside a value)
                console.print(Text.assemble("          →  ", ("on the wire", style)))
                _json_printed(console, choice_text(t.effective_tool_choice), style)
        if t.request is None:
            console.print(Text("REFUSED: nothing would be sent", style="bold red"))
        else:
            r = t.request
            console.print(Text.assemble((f"{r.method} ", "bold"), r.url))
            for name, value in r.headers.items():
                console.print(Text.assemble(("  " + name + ": ", "dim"), value))
            # soft_wrap: a long JSON line is left whole for the terminal to wrap, never cut inside a value
            console.print(json_view(console, shorten_opaque(r.body)), soft_wrap=True)
        if t.ledger:
            console.print(ledger_table(t.ledger, console.width))
        console.print()
