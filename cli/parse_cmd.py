"""`toolchoice parse`: read a saved response body offline, exactly as `send` reads a live one.

Works on a body from `send --save` (``sample-NNN.response.json``), a provider's documented example,
or an error body. With ``--stream`` the file is a saved raw stream (SSE, NDJSON or AWS event-stream
bytes, or an SDK's one-payload-a-line chunk file), assembled as a live stream is. With ``--scenario``
the reply is judged against its tool_choice.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional, Sequence

import typer

from toolchoice.providers.core.model import Reply, ToolchoiceError, Translation

from . import exits
from .exits import handled
from .options import (ALLOW_ENV, LIVE_MCP, BASE_URL, CAPS, GATEWAY, MODEL, PROVIDER_ONE, TOOL_CHOICE, allowed_env,
                      format_option)
from .sample_view import print_ledger, print_reply


class ParseFormat(str, Enum):
    """parse's own formats: it took send's four and drew jsonl and markdown as pretty (its help said "pretty or
    json")."""
    pretty = "pretty"
    json = "json"


FORMAT = format_option(ParseFormat.pretty, "pretty or json")


def read_bytes(path: Path, missing: str, folder: str) -> bytes:
    """The bytes of a saved file; ``-`` reads stdin. ``missing``/``folder``: the hints when the path
    does not exist or is a folder."""
    from toolchoice.providers.core import bounded, limits

    if str(path) == "-":
        stdin = getattr(sys.stdin, "buffer", None)  # a text-only stdin (in-process runs): its text as UTF-8
        cap = limits.get("stream_bytes")
        data = bounded.read_at_most(stdin, cap) if stdin is not None else (
            bounded.read_at_most(sys.stdin, cap).encode("utf-8"))
        return bounded.cap_bytes(data, "<stdin>", "stream_bytes")
    if not path.exists() and not path.is_symlink():
        raise ToolchoiceError(f"{path}: no such file", hint=missing)
    if path.is_dir():
        raise ToolchoiceError(f"{path}: is a folder", hint=folder)
    # a device or FIFO is refused at once: /dev/zero was read to the 32 MB stream limit first (`-` reads stdin)
    return bounded.read_file(path, "reply", limit="stream_bytes", regular_only=True, stdin=True)


def read_body(path: Path) -> tuple[Any, str, tuple[str, ...]]:
    """(parsed JSON or None, raw text, the keys it names twice in one object) of a response file; ``-`` reads
    stdin. A saved reply is what a server wrote: a key written twice is read as ``send`` reads it, the last of the
    two as the official SDKs' ``json.loads`` reads it (``bounded.json_loads_twice``), and said, never refused (the
    user's own files, ``--scenario`` among them, are refused at file:line)."""
    if str(path) == "-":
        text = read_bytes(path, "", "").decode("utf-8-sig", errors="replace")
    else:
        text = read_bytes(path, "give a saved response body (JSON)", "name one sample-NNN.response.json file").decode(
            "utf-8-sig", errors="replace")
    from toolchoice.providers.core.bounded import TooManyDigits, Unreadable, digits_line, json_loads_twice

    try:
        body, twice = json_loads_twice(text)
        return body, text, twice
    except Unreadable as exc:  # nested too deeply, or an integer past Python's digit limit: said, not "non-JSON"
        line = digits_line(text) if isinstance(exc, TooManyDigits) else None
        raise ToolchoiceError(str(exc), path=str(path), line=line) from None
    except ValueError:
        from toolchoice.providers.core.sniff import scenario_given

        given = scenario_given(str(path), text)  # bad input, not a provider's non-JSON answer
        if given is not None:
            raise given from None
        return None, text, ()


def json_text(provider: str, reply: Reply, verdict: dict[str, Any] | None, translation: Translation | None,
              stream: Any, redactor: Any, reply_findings: Sequence[Any] = ()) -> str:
    """What ``--format json`` prints: ``parse_json``'s document, redacted (``output.json_document``). Built from the
    values as read where the document's one pass reads each string alone (``Redactor.document_alone``): redacting
    them as data first, as parse did until 2026-11-27, changes no byte there (tests/test_parse_json_one_pass.py) and
    cost a walk of the reply (bench/parse_json_pass.py). Where it reads the whole JSON text (a key of digits in the
    environment, a member's name holding a key), from the values redacted first, as before: the output differs there."""
    from toolchoice.providers.core.parse_record import parse_json

    from .output import dumps, json_document

    alone = redactor.document_alone(parse_json(provider, reply, verdict, translation, stream, reply_findings),
                                    dump=dumps)
    if alone is not None:
        return alone
    shown_reply, shown_verdict, shown_translation = redactor.data((reply, verdict, translation))
    return json_document(parse_json(provider, shown_reply, shown_verdict, shown_translation, stream, reply_findings),
                         redactor)


def _with_scenario(response: Path, provider: str, tool_choice: Optional[str], model: Optional[List[str]],
                   base_url: Optional[str], gateway: bool, strict: bool, no_emulate: bool,
                   capabilities: Optional[Path]) -> str:
    """The command given, with -s SCENARIO where it goes: the words to paste, the user's own as one shell word each."""
    from toolchoice.providers.core.shell_word import bash_only, shell_path, shell_word

    words = ["-" if str(response) == "-" else shell_path(response), "-p", shell_word(provider), "-s", "SCENARIO"]
    for flag, value in (("--tool-choice", tool_choice), *(("--model", m) for m in model or ()),
                        ("--base-url", base_url), ("--capabilities", capabilities)):
        if value is not None:
            words += [flag, shell_path(value) if isinstance(value, Path) else shell_word(value)]
    words += [flag for flag, on in (("--gateway", gateway), ("--strict", strict), ("--no-emulate", no_emulate)) if on]
    return f"name the scenario the request was built from: toolchoice parse {' '.join(words)}{bash_only(*words)}"


@handled
def parse(
    response: Path = typer.Argument(..., help="A saved response body (JSON), e.g. the .response.json file `send --save` writes; - for stdin.",
                                    show_default=False),
    provider: str = PROVIDER_ONE,
    scenario: Optional[Path] = typer.Option(None, "--scenario", "-s", help="Scenario to judge the reply against."),
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
    format: ParseFormat = FORMAT,
    strict: bool = typer.Option(False, "--strict", help="Judge against the request as `send --strict` would build "
                                "it (refused when its ledger has a warning)."),
    no_emulate: bool = typer.Option(False, "--no-emulate", help="Judge against the request as `send --no-emulate` "
                                    "would build it (native features only)."),
    capabilities: Optional[Path] = CAPS,
    allow_env: Optional[List[str]] = ALLOW_ENV,
    stream: bool = typer.Option(False, "--stream", help="The file is a saved raw stream (SSE, NDJSON or AWS "
                                "event-stream), assembled like a live one."),
    live_mcp: bool = LIVE_MCP,
) -> None:
    """Normalize a saved reply (tool calls, text, finish reason, usage) and judge it."""
    from toolchoice.providers.core.reply import read_reply

    from .inputs import one_provider, options_need

    provider = one_provider(provider, "parse", "a body is in one provider's format: name that one")
    if scenario is None:
        needs = [flag for flag, given in (("--tool-choice", tool_choice is not None), ("--model", bool(model)),
                                          ("--base-url", base_url is not None), ("--gateway", gateway), ("--strict", strict),
                                          ("--no-emulate", no_emulate), ("--capabilities", capabilities is not None))
                 if given]
        if needs:
            raise ToolchoiceError(f"{options_need(needs, '--scenario')} (the request to judge against is built from "
                                  "it)", hint=_with_scenario(response, provider, tool_choice, model, base_url, gateway,
                                                             strict, no_emulate, capabilities))
    translation = None
    judged = None
    if scenario is not None:
        from .inputs import scenario_with_override
        from .render_cmd import build_translations

        loaded = scenario_with_override(scenario, tool_choice, live=live_mcp, allow_env=allow_env, command="parse")
        translation = build_translations(loaded, [provider], model, base_url, strict, no_emulate, capabilities,
                                         allow_env=allow_env, gateway=gateway)[0]
    streamed = None
    twice: tuple[str, ...] = ()
    if stream:
        from toolchoice.providers.core.streaming import assemble_bytes

        data = read_bytes(response, "give a saved raw stream (send --stream --save)", "name one saved stream file")
        streamed = assemble_bytes(provider, data)
        reply = streamed.reply
    else:
        from toolchoice.providers.core.sniff import saved_sibling, saved_stream, wrong_format

        body, text, twice = read_body(response)
        sibling = saved_sibling(str(response), body)
        if sibling is not None:
            raise sibling
        if body is None and saved_stream(str(response), text):
            from .output import shown_path

            exits.warning_line(f"{shown_path(response)}: a saved stream, read here as one body: add --stream to "
                               "assemble its events")
        reply = read_reply(provider, None, body, text)
        mismatch = wrong_format(provider, body)
        if mismatch is not None:
            raise mismatch
        del body, text  # the reply is what is shown: the file's text and parsed JSON are not held beside it
    if scenario is not None:
        from toolchoice.providers.core.verdict import verdict

        judged = verdict(loaded, reply, translation)
        if twice:  # beside the verdict, as send says it (runner.judge)
            from toolchoice.providers.core.verdict import with_twice

            judged = with_twice(judged, twice)
    elif twice:  # no verdict to say it beside: a warning line each (the first TWICE_SAID, then one for the rest)
        from toolchoice.providers.core.verdict import twice_said

        for entry in twice_said(twice):
            exits.warning_line(f"{entry.code}: {entry.message}")
    import re

    from .output import emit_drawn, output_redactor

    extra_names: tuple[str, ...] = allowed_env(allow_env)
    if scenario is not None:
        settings = loaded.settings_for(provider)
        extra_names += tuple(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", " ".join(settings.headers.values())))
        extra_names += (settings.api_key_env,) if settings.api_key_env else ()
    redactor = output_redactor(extra_names)
    if format is ParseFormat.json:
        from .output import write_json

        from toolchoice.providers.core.verdict import twice_said

        # the reply's own findings in the document too (the lines above went to stderr alone, `ledger` is the request's)
        write_json(json_text(provider, reply, judged, translation, streamed, redactor, twice_said(twice)))
    else:
        # redacted before layout: a key wrapped or cut by the table must not survive in pieces
        shown_reply, shown_verdict, shown_translation = redactor.data((reply, judged, translation))

        def draw(console: Any) -> None:
            from rich.text import Text

            console.rule(Text.assemble((provider, "bold"), f" · {redactor.text(str(response))}"))
            print_reply(console, provider, shown_reply, shown_verdict if scenario is not None else None)
            if streamed is not None:  # its texts are redacted by the final pass over the drawing only
                from .stream_view import print_stream

                print_stream(console, streamed)
            if shown_translation is not None:
                print_ledger(console, shown_translation.ledger)

        emit_drawn(draw, redactor)
    if reply.error is not None:
        raise typer.Exit(exits.FAILED)
    code = exits.outcome([judged])
    if code != exits.OK:
        raise typer.Exit(code)
