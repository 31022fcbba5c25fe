"""`toolchoice mock` and `toolchoice proxy`: a provider's API on 127.0.0.1, every request judged.

stdout: the base URL the provider's official SDK takes, then one line per request (JSON with
``--format jsonl``), each flushed as written; the summary goes to stderr when the server stops
(``--max-requests N``, SIGINT or SIGTERM). The library does the work (core/mock); this module
parses options and draws the lines.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from .exits import handled, warning_line

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class MockFormat(str, Enum):
    pretty = "pretty"
    jsonl = "jsonl"


PROVIDER = typer.Option(..., "--provider", "-p", help="Provider id whose API to serve.", show_default=False)
PORT = typer.Option(0, "--port", min=0, max=65535, help="Port to listen on (0: a free port).")
HOST = typer.Option("127.0.0.1", "--host", help="Address to bind (anything but loopback is warned about).")
SCRIPT = typer.Option(None, "--script", help="YAML script of replies and faults (see docs/mock.md).")
FORMAT = typer.Option(MockFormat.pretty, "--format", "-f", help="pretty or jsonl (one JSON object per request).")
SAVE = typer.Option(None, "--save", help="Keep each request and reply as files in this folder (keys redacted).")
MAX_REQUESTS = typer.Option(None, "--max-requests", min=1, help="Stop after N requests (refused ones count).")


@handled
def mock(provider: str = PROVIDER, port: int = PORT, host: str = HOST, script: Optional[Path] = SCRIPT,
         format: MockFormat = FORMAT, save: Optional[Path] = SAVE, max_requests: Optional[int] = MAX_REQUESTS) -> None:
    """Serve a provider's API on 127.0.0.1: validate each request as the API would, answer from its tool_choice."""
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import serve_mock

    provider = _one(provider, "mock")
    loaded = load_script(script) if script is not None else None
    _loopback_warning(host, "mock")
    printer = _printer(format)
    served = serve_mock(provider, script=loaded, host=host, port=port, save_dir=_save_dir(save),
                        max_requests=max_requests, on_url=_url_line, on_record=printer)
    _summary(served.line(), printer)


@handled
def proxy(provider: str = PROVIDER, upstream: str = typer.Option(..., "--upstream", help="The real API's base URL "
                                                                    "(as its SDK takes it).", show_default=False),
          port: int = PORT, host: str = HOST, format: MockFormat = FORMAT, save: Optional[Path] = SAVE,
          max_requests: Optional[int] = MAX_REQUESTS) -> None:
    """Judge every request and reply on their way to and from the real provider (streams pass unbuffered)."""
    from toolchoice.providers.core.mock.proxy import serve_proxy

    provider = _one(provider, "proxy")
    _loopback_warning(host, "proxy")
    printer = _printer(format)
    served = serve_proxy(provider, upstream, host=host, port=port, save_dir=_save_dir(save),
                         max_requests=max_requests, on_url=_url_line, on_record=printer)
    _summary(served.line(), printer)


def _one(provider: str, command: str) -> str:
    """The one provider whose API is served: `-p openai,anthropic` was "unknown provider 'openai,anthropic' (did you
    mean anthropic?)", and `-p all` was told what a Python caller passes instead."""
    from .inputs import one_provider

    return one_provider(provider, command, f"a {command} serves one provider's API: start one per provider, each on "
                                           "its own port (--port 0, the default, picks a free one)")


def _save_dir(save: Optional[Path]) -> Optional[Path]:
    if save is None:
        return None
    from toolchoice.providers.core.save import prepare_save_dir

    return prepare_save_dir(save)


def _loopback_warning(host: str, what: str) -> None:
    if not host.strip():  # bind() takes "" as every interface, and the base URL printed was http://:PORT/v1
        from toolchoice.providers.core.model import ToolchoiceError

        raise ToolchoiceError("--host is empty (an unset variable?)",
                              hint="leave --host out for 127.0.0.1, or give 0.0.0.0 for every interface")
    if host not in _LOOPBACK and not _loopback_address(host):
        warning_line(f"--host {host}: the {what} is reachable from other machines; it has no authentication")


def _loopback_address(host: str) -> bool:
    """An address of this machine alone: all of 127.0.0.0/8 and ::1 (RFC 1122 3.2.1.3, RFC 4291 2.5.3), written
    as ``ipaddress`` reads it (127.0.0.2, 0:0:0:0:0:0:0:1), where the names listed warned of 127.0.0.2."""
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _url_line(url: str) -> None:
    sys.stdout.write(url + "\n")
    sys.stdout.flush()


def _summary(line: str, printer: Any = None) -> None:
    """The summary line, then (pretty lines, which show only the codes) what each pitfall, warning and error code
    the lines showed means, once, with the requests it was on."""
    from toolchoice.providers.core.redaction import visible

    sys.stderr.write(line + "\n")
    for code, (numbers, message) in getattr(printer, "codes", {}).items():
        where = f"#{numbers[0]}" if len(numbers) == 1 else f"from #{numbers[0]}, {len(numbers)} requests"
        # escaped as the lines are (a tool name the message quotes shows as the client sent it, never acted on), and
        # bounded as they are (a message quoting a tool name of a megabyte)
        sys.stderr.write(visible(f"  {code} ({where}): {bounded(message, WORDS_AT_MOST)}").replace("\n", " ") + "\n")
    sys.stderr.flush()


class _Pretty:
    """The pretty printer, remembering the first message of each code worth explaining at the end (``codes``):
    a pitfall, a warning or an error, but not a verdict (its word says it) nor one whose words the line carries
    (an error of a refused or failed request, a request another API's proxy judges)."""

    def __init__(self) -> None:
        self.codes: dict[str, tuple[list[int], str]] = {}

    def __call__(self, line: dict[str, Any]) -> None:
        _pretty(line)
        for f in line["findings"]:
            code, message = f.get("code"), f.get("message")
            inline = code == "proxy.not_judged" or line["status"] != 200 and f.get("severity") == "error"
            if (not message or inline or code.startswith("verdict.")  # the line carried its words already
                    or not (code.startswith("pitfall.") or f.get("severity") in ("warning", "error"))):
                continue
            numbers, _ = self.codes.setdefault(code, ([], message))
            if not numbers or numbers[-1] != line["n"]:
                numbers.append(line["n"])


def _printer(format: MockFormat) -> Any:
    if format is MockFormat.jsonl:
        from .output import write_json

        def jsonl(line: dict[str, Any]) -> None:  # escaped as every output is: a JSON escape inside a string
            write_json(json.dumps(line, ensure_ascii=False))
            sys.stdout.flush()
        return jsonl
    return _Pretty()


LONG_TEXT = 65  # a text of the tool_choice this long or longer (past the usual 64-character tool name) is shown once
# A pretty line is bounded (docs/mock.md, "--format pretty"): each text in it from the request or the answer (the path,
# the tool_choice as sent and as read, a tool's name, a call's name and arguments, a result's id) is shown up to
# TEXT_AT_MOST characters, its start and its end around how many more there are; a finding's words (toolchoice's,
# 1,120 characters for mock.system_changed_with_thinking, or the API's, quoting what was sent) up to WORDS_AT_MOST;
# each list (tools, calls, results, reasoning) up to LIST_AT_MOST characters, the findings up to three times
# WORDS_AT_MOST, then how many more items. A tool_choice of 1 MB was a line of 1 MB (and, before LONG_TEXT, of 4 MB),
# 3,001 tools one of 432 KB. Nothing is lost: --format jsonl keeps every field whole, --save DIR every body.
TEXT_AT_MOST = 1000
WORDS_AT_MOST = 4000
LIST_AT_MOST = 4000


def bounded(text: str, most: int = TEXT_AT_MOST) -> str:
    """``text``, or its first and last ``most`` / 2 characters around a mark saying how many more there are between
    them: a name keeps its start and its end, a message quoting a long name its own words on either side."""
    if len(text) <= most:
        return text
    half = most // 2
    return f"{text[:half]}…[{len(text) - 2 * half:,} more characters]…{text[-half:]}"


def _listed(items: list[str], what: str, joiner: str = ", ", most: int = LIST_AT_MOST) -> str:
    """``items`` (each bounded already) joined, up to ``most`` characters (the first item always), then how many more
    there are."""
    shown: list[str] = []
    size = 0
    for item in items:
        if shown and size + len(joiner) + len(item) > most:
            more = len(items) - len(shown)
            return joiner.join(shown) + f"{joiner}…[{more:,} more {what}]"
        shown.append(item)
        size += len(item) + (len(joiner) if len(shown) > 1 else 0)
    return joiner.join(shown)


def _shown_once(requested: Any) -> Any:
    """What writes the pretty line's later copies of a long text of the tool_choice as sent (a string, or a string
    inside it), each as "…": its reading and the errors that quote it would repeat it three more times (bounded by
    the body limit only). The line shows it whole once, as sent; ``--format jsonl`` keeps every field whole."""
    texts: list[str] = []
    stack = [requested]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if len(value) >= LONG_TEXT:
                texts.append(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    if not texts:
        return lambda text: text
    forms = sorted({form for text in texts for form in (text, json.dumps(text, ensure_ascii=False)[1:-1])},
                   key=len, reverse=True)  # as the messages quote it, and inside the reading's JSON

    def once(text: str) -> str:
        for form in forms:
            text = text.replace(form, "…")
        return text
    return once


def _pretty(line: dict[str, Any]) -> None:
    """One plain line per request (data, never markup): n, path, the choice as sent → as read, tools, status,
    calls, findings; each text and each list bounded (``bounded``, ``_listed``)."""
    from toolchoice.providers.core.model import quoted, word_or_json

    from .output import write

    requested = "-" if line["requested"] is None else bounded(word_or_json(line["requested"]))
    once = _shown_once(line["requested"])  # a long tool_choice is written once, as sent; "…" stands for it after
    neutral = "-" if line["tool_choice"] is None else bounded(once(word_or_json(line["tool_choice"])))

    def called(calls: list[dict[str, Any]]) -> list[str]:
        return [f"{bounded(str(c['name']))}({bounded(quoted(c['arguments']))})" for c in calls]

    calls = (_listed(called(line["calls"]), "calls")
             or _listed([f"server call {bounded(str(c['server_label']))}/{bounded(str(c['name']))}"
                         for c in line.get("server_calls", ())], "server calls") or "text")
    if line.get("choices"):  # n > 1: each choice's calls (and, from the proxy, its verdict)
        calls = _listed([f"choice {c['index']}: " + (_listed(called(c["calls"]), "calls") or "text")
                         + (f" {c['verdict']}" if c.get("verdict") else "") for c in line["choices"]], "choices", " | ")
    codes = {f["code"] for f in line["findings"]}
    path = bounded(line["path"])
    if codes & {"proxy.not_judged", "mock.unknown_path"}:  # not a model endpoint of this API: its body was not read
        parts = [f"#{line['n']}", path, "not read", str(line["status"])]
    else:
        if line["status"] != 200:
            calls = "-"
        elif codes & {"proxy.too_large", "proxy.unread"}:  # the answer passed on unread: no calls or text to show
            calls = "not judged"
        tools = _listed([bounded(name) for name in line["offered_tools"]], "tools")
        parts = [f"#{line['n']}", path, "stream" if line["stream"] else "whole",
                 f"tool_choice {requested} → {neutral}", f"tools [{tools}]"]
        if line.get("thinking") is not None:  # a step switching it, or narrowing the tools under it, shows
            parts.append(f"thinking {line['thinking']}")
        if line.get("parallel_tool_calls") is not None:  # as on the wire: a reply of several calls then disobeys
            parts.append(f"parallel_tool_calls {str(line['parallel_tool_calls']).lower()}")
        parts += [str(line["status"]), calls]
    if line.get("results"):  # the results this step sends back, each with the step whose answer called the tool
        parts.append("results " + _listed([f"{bounded(str(r['id']))}←#{r['from'] if r['from'] is not None else '?'}"
                                           for r in line["results"]], "results"))
    if line.get("reasoning_from"):  # the thinking this step sends back, each with the step whose answer made it
        parts.append("reasoning " + _listed([f"←#{n if n is not None else '?'}" for n in line["reasoning_from"]],
                                            "turns"))
    # a refused request's error says why, as the client was told (a framework may swallow the 400), and so does a
    # request another API's proxy would judge (the -p to start it with); the others show their codes, their words
    # being in --format jsonl
    def said(f: dict[str, Any]) -> bool:
        return bool(f.get("message")) and (line["status"] != 200 and f["severity"] == "error"
                                           or (f["code"], f["severity"]) == ("proxy.not_judged", "warning"))

    findings = [f"{f['severity']} {f['code']}" + (f": {bounded(once(f['message']), WORDS_AT_MOST)}" if said(f) else "")
                for f in line["findings"]]
    if findings:
        parts.append("findings: " + _listed(findings, "findings", most=3 * WORDS_AT_MOST))
    # every control written out (``write``: ``visible``), not stripped: a tool name holding an escape shows as
    # `a\u001b[31mb` in the tools list as in the tool_choice JSON beside it, the same text the same way, as sent
    write("  ".join(parts).replace("\n", " "))
    sys.stdout.flush()


def upstream_for(provider: str) -> str | None:
    """The base URL `proxy -p PROVIDER` forwards to by default as its SDK takes it: the URL toolchoice posts to, up to
    where the path the SDK adds (the one the mock serves) begins; None for an unknown id or a URL that needs settings
    (Azure's resource)."""
    from urllib.parse import urlsplit

    from toolchoice.providers.core.jobs import render
    from toolchoice.providers.core.registry import mock_family
    from toolchoice.providers.core.scenario import load_scenario_text

    try:
        scenario = load_scenario_text("messages: [{role: user, content: hi}]\n")
        url = render(scenario, [provider])[0].request.url  # type: ignore[union-attr]
        module = mock_family(provider)
    except Exception:  # noqa: BLE001 - an unknown id, a refused request: no suggestion, the usage line stands
        return None
    parts = urlsplit(url)
    if "YOUR-" in url:
        return None
    base, path = getattr(module, "MOCK_BASE_PATH", ""), parts.path
    cuts = [cut for cut, char in enumerate(path) if char == "/"]
    for cut in reversed(cuts):  # the shortest tail the SDK adds that the mock serves
        if module.mock_route("POST", base + path[cut:]) is not None:
            return f"{parts.scheme}://{parts.netloc}{path[:cut]}"
    return None
