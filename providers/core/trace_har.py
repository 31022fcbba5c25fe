"""An HTTP Archive (HAR 1.2: what browser devtools, mitmproxy's HAR export, Charles, Proxyman, Playwright's
``record_har_path`` and HTTP Toolkit save) → the provider API calls it holds, each one a saved request
(``toolchoice trace FILE.har``): the scenario that sends it again, and its recorded response judged as the reply.

The field names are the spec's (HAR 1.2, Jan Odvarko; the text kept at github.com/ahmadnassri/har-spec
versions/1.2.md, read 2026-11-27): ``log.entries[]`` each with ``request`` (``method``, ``url``, ``headers[]``,
``cookies[]``, ``queryString[]``, ``postData`` {``mimeType``, ``text``}) and ``response`` (``status``,
``content`` {``mimeType``, ``text``, ``encoding``: "Encoding used for response text field e.g "base64""}).

Which entries are provider calls: the host is an API's own (``host_rules.api_of_host``, from the rows) and the path
one its module serves (``mock_route``, the reader ``mock`` and ``proxy`` judge with); ``provider`` (``-p``) names the
API of entries at a host toolchoice does not know. Every other entry is counted and said once. Nothing of an entry's
headers but a ``*-beta`` one is read; the credentials its headers, cookies and query string hold are redacted from
everything said (a HAR holds them in clear)."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, NamedTuple, overload
from urllib.parse import urlsplit

from .error_keys import says_no_key
from .har_credentials import credentials
from .har_replays import Replay
from .mock.read_prefix import resuming  # each call's history read on from the previous call's
from .model import LedgerEntry, ToolchoiceError

if TYPE_CHECKING:
    from .saved_request import SavedScenario

HINT = "give an HTTP Archive (HAR 1.2: {\"log\": {\"entries\": [...]}}) as a browser or a debugging proxy saves it"
MAX_ENTRIES = 100_000
LISTED = 200  # samples the listing judges; past them, where each is only
_SNIFF = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"log"\s*:')  # the spec: "This object MUST be present and its name
# MUST be "log"" (the root's one member); HAR files are UTF-8, a BOM allowed
_STREAMS = ("text/event-stream", "application/vnd.amazon.eventstream", "application/x-ndjson")


class Call(NamedTuple):
    sample: int  # 1-based, among the provider calls in the file's order
    index: int  # in log.entries
    provider: str
    method: str
    url: str
    request: dict[str, Any]
    response: Any  # the entry's response object (None when it has none)
    time: Any = None  # the entry's ``time``: "Total elapsed time of the request in milliseconds" (HAR 1.2)


class Listing(NamedTuple):
    """A file of several provider calls and no sample picked: a line for each, what else the file holds, and how to
    replay each conversation (``replays``)."""

    rows: list[dict[str, Any]]
    notes: list[LedgerEntry]
    replays: tuple[Replay, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As ``trace FILE.har --format json`` prints it (without its ``file``): ``samples``, the rows, ``notes``
        as ``{"severity", "code", "message"}`` dicts (``json.dumps`` of the tuple itself would drop their names), and
        ``replay``, a ``Replay`` dict a conversation."""
        return {"samples": self.rows, "notes": [note.to_json() for note in self.notes],
                "replay": [r.to_json() for r in self.replays]}

    def replay_lines(self) -> list[tuple[str, bool]]:
        """What the listing says under the samples, as (text, whole) lines: how to replay a conversation, a command
        each (whole: never folded; the first ``har_replays.SHOWN``, then how many more), or why one cannot be."""
        from .har_replays import replay_lines

        return replay_lines(self.replays)


class Har(NamedTuple):
    file: Path
    total: int  # entries
    calls: list[Call]
    others: list[tuple[int, str]]  # (index, "METHOD host") of the entries that are no provider call
    unknown: list[tuple[int, str, str]]  # (index, host, "METHOD path") of API-looking entries at unknown hosts
    secrets: dict[str, str]  # the credentials its headers, cookies and query strings hold -> [redacted]
    found: dict[str, str] = {}  # the keys the shown calls' bodies and responses hold by their look (_shown)
    bodies_read: Any = frozenset()  # the postData texts ``document`` read within the depth bound (read_har's set)


def is_har(path: Path) -> bool:
    """A file named ``*.har``, or a JSON file whose root opens with ``"log"`` (a HAR's one member)."""
    if path.suffix.lower() == ".har":
        return True
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as handle:
            return _SNIFF.match(handle.read(4096)) is not None
    except OSError:
        return False


def where(file: Path, index: int) -> str:
    return f"{file} log.entries[{index}]"


def read_har(path: Path, provider: str | None = None) -> Har:
    """The file's entries sorted into provider calls, API-looking calls at hosts toolchoice does not know, and the
    rest; bad input is one line naming the file (and the entry)."""
    from .bounded import read_json_file
    from .registry import check_provider

    name = str(path)
    document = read_json_file(path, "HAR", hint=HINT, regular_only=True)  # bounded: file_bytes, json_depth; no device
    log = document.get("log") if isinstance(document, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise ToolchoiceError(f"{name}: not an HTTP Archive (no log.entries list)", hint=HINT)
    if len(entries) > MAX_ENTRIES:
        raise ToolchoiceError(f"{name}: more than {MAX_ENTRIES:,} entries", hint="save the API requests alone")
    if provider is not None:
        provider = check_provider(provider)
    calls: list[Call] = []
    others: list[tuple[int, str]] = []
    unknown: list[tuple[int, str, str]] = []
    secrets: dict[str, str] = {}
    for index, entry in enumerate(entries):
        request = entry.get("request") if isinstance(entry, dict) else None
        method, url = (request.get("method"), request.get("url")) if isinstance(request, dict) else (None, None)
        if not isinstance(method, str) or not isinstance(url, str):
            raise ToolchoiceError(f"{where(path, index)}: not a HAR entry (its request has no method and url "
                                  "strings)", hint=HINT)
        try:
            parts = urlsplit(url)
            host, port = _dns_host(parts.hostname or ""), parts.port
        except ValueError:
            others.append((index, f"{method} (a URL that does not read)"))
            continue
        method = method.upper()
        found = _provider_of(host, port, method, parts.path or "/", provider)
        if found is not None:
            response = entry.get("response")
            calls.append(Call(len(calls) + 1, index, found, method, url, request,
                              response if isinstance(response, dict) else None, entry.get("time")))
            if len(calls) <= LISTED:  # the entries whose text is shown (a sample past them: _shown adds its own)
                credentials(request, parts, secrets)
        elif not (known := _known_host(host, port)) and method == "POST" and _spoken(parts.path or "/"):
            unknown.append((index, host, f"{method} {parts.path}"))
            if len(unknown) <= LISTED:
                credentials(request, parts, secrets)
        else:  # an API's own host: its path too (GET /v1/models); elsewhere the host (a page's assets)
            others.append((index, f"{method} {host}{parts.path if known else ''}"))
            if known and len(others) <= LISTED:  # its path is shown (notes: the first 200): a key its own request
                credentials(request, parts, secrets)  # sends may be in it (GET /v1/files/KEY)
    return Har(path, len(entries), calls, others, unknown, secrets, bodies_read=set())


def _dns_host(host: str) -> str:
    """A Unicode host as a client resolves it, its IDNA form (RFC 3490 ToASCII: full-width api.openai.com is
    api.openai.com; a look-alike in another script is its xn-- form, shown so); as written where that fails."""
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return host


@functools.lru_cache(maxsize=256)
def _hosted(host: str, port: int | None) -> tuple[str, ...]:
    """``host_rules.api_of_host``, once per host of the file (a browser's HAR repeats a few hosts many times)."""
    from .host_rules import api_of_host

    return tuple(api_of_host(host, port))


def _known_host(host: str, port: int | None) -> bool:
    return bool(_hosted(host, port))


def _provider_of(host: str, port: int | None, method: str, path: str, given: str | None) -> str | None:
    """The provider whose API the entry calls: one whose own host it is and whose module serves the path; at a host
    toolchoice does not know, ``given`` (-p) when its module serves the path."""
    from .registry import mock_family

    for provider in _hosted(host, port) or ((given,) if given else ()):
        if mock_family(provider).mock_route(method, path) is not None:
            return provider
    return None


@functools.lru_cache(maxsize=256)
def _spoken(path: str) -> bool:
    """Whether some provider module serves ``POST path`` (an API request at a host toolchoice does not know)."""
    from .capabilities import CAPABILITIES
    from .registry import mock_family

    return any(mock_family(p).mock_route("POST", path) is not None
               for p in dict((c.module, p) for p, c in CAPABILITIES.items()).values())


# ---- one call → a saved request, its scenario and its reply judged ------------------------------------------------

def document(har: Har, call: Call) -> dict[str, Any]:
    """The call as a saved request: its url, its JSON body (``postData.text``) and its ``*-beta`` headers."""
    from .bounded import DuplicateKey, Unreadable, json_loads, no_constant, unique_keys

    post = call.request.get("postData")
    text = post.get("text") if isinstance(post, dict) else None
    if not isinstance(text, str):
        raise ToolchoiceError(f"{where(har.file, call.index)}: {call.method} {_path(call.url)} has no "
                              "request.postData.text (the body as sent)", hint="save the HAR with the request bodies")
    try:  # a text read before is read again without its depth scan (a call's body is read ~5 times) nor the
        # Python hook that looked for a key named twice (it found none: the same dicts, json.loads' C objects)
        body = json.loads(text, parse_constant=no_constant) if text in har.bodies_read \
            else json_loads(text, parse_constant=no_constant, object_pairs_hook=unique_keys)
        if isinstance(har.bodies_read, set):
            har.bodies_read.add(text)
    except DuplicateKey as exc:  # the request as sent names a key twice: which one the API read is not known
        raise ToolchoiceError(f"{where(har.file, call.index)}: request.postData.text: {exc} (line {exc.line} of the "
                              "body)", hint="the API reads one of them, unknown which: send it with one") from None
    except Unreadable as exc:  # JSON past a bound (json_depth, the digit limit): said, never called "not JSON"
        raise ToolchoiceError(f"{where(har.file, call.index)}: request.postData.text cannot be read: {exc}") from None
    except ValueError as exc:
        raise ToolchoiceError(f"{where(har.file, call.index)}: request.postData.text is not JSON "
                              f"({str(exc).splitlines()[0][:120]})", hint="the body of an API request is JSON") from None
    if not isinstance(body, dict):
        raise ToolchoiceError(f"{where(har.file, call.index)}: request.postData.text is not a JSON object",
                              hint="the body of an API request is a JSON object")
    headers = call.request.get("headers")
    beta = {str(h["name"]): h["value"] for h in (headers if isinstance(headers, list) else ())
            if isinstance(h, dict) and isinstance(h.get("value"), str) and str(h.get("name", "")).lower().endswith("-beta")}
    return {"method": call.method, "url": call.url, "headers": beta, "body": body}


def _path(url: str) -> str:
    try:
        return urlsplit(url).path or "/"
    except ValueError:
        return "/"


def import_call(har: Har, call: Call, judged: bool = True) -> Any:
    """The call's SavedScenario, its notes closed with how its recorded response reads (``har.reply``; not with
    ``judged`` False: run --replay judges each reply as the loop's, and reads the response once, itself)."""
    from .saved_request import read_request

    label = Path(where(har.file, call.index))
    saved = read_request(label, call.method, _path(call.url), document(har, call), call.provider,
                         hint="the entry's request is not one toolchoice reads; pick another sample")
    return saved._replace(notes=[*saved.notes, *(_judged(har, call, saved) if judged else ()), *notes(har)])


def notes(har: Har) -> list[LedgerEntry]:
    """What the file holds beside its provider calls, said once: the other entries counted, and the API-looking
    entries at hosts toolchoice does not know."""
    said: list[LedgerEntry] = []
    if har.others:
        shown = ", ".join(dict.fromkeys(what for _, what in har.others[:200]))
        shown = shown if len(shown) <= 160 else shown[:157] + "..."
        said.append(LedgerEntry("info", "har.other_entries", f"{len(har.others)} of the {har.total} entries are no "
                                f"provider API call, not read ({shown})"))
    if har.unknown:
        hosts = ", ".join(dict.fromkeys(host for _, host, _ in har.unknown))
        looks = "entry looks like an API request" if len(har.unknown) == 1 else "entries look like API requests"
        they = "it speaks" if len(har.unknown) == 1 else "they speak"
        from .errors import named_words

        # what to give is a Python caller's argument here, the command line's option where it draws the note
        # (cli/exits.py: -p PROVIDER)
        said.append(LedgerEntry("warning", "har.unknown_host", named_words(
            f"{len(har.unknown)} {looks} ({har.unknown[0][2]}, log.entries[{har.unknown[0][0]}]) at a host "
            f"toolchoice does not know ({hosts[:120]}): not read; give ", f", the API {they}",
            names=("har.provider",), spelling={"har.provider": "provider=..."})))
    return said


def _judged(har: Har, call: Call, saved: Any) -> tuple[LedgerEntry, ...]:
    """``har.reply``: the recorded response read as the provider's reply and judged against the request's
    tool_choice; or said why it is not (no body recorded, a stream that does not assemble). Then each key its JSON
    names twice in one object (``reply.duplicate_key``: read and judged on the last, as the SDKs read it)."""
    from .bounded import keys_twice
    from .verdict import twice_said

    reply, how, found, _ = read_response(har, call)
    if reply is None:
        return (LedgerEntry("info", "har.reply", f"not judged: {how}"),)
    twice = twice_said(keys_twice(found[1]) if found else (), "the recorded response")  # read once more: listing only
    if reply.error is not None:
        return (LedgerEntry("warning", "har.reply", f"the recorded response ({how}) is an error: "
                            f"{reply.error.one_line(call.provider)}"), *twice)
    judged = verdict_of(saved, call.provider, reply)
    words = "; ".join(judged["reasons"][:3]) or ", ".join(c.name for c in reply.tool_calls) or "no call"
    return (LedgerEntry("info" if judged["obeyed"] else "warning", "har.reply",
                        f"the recorded response ({how}): {judged['category']}: {words}"), *twice)


def verdict_of(saved: Any, provider: str, reply: Any) -> dict[str, Any]:
    """The verdict on ``reply`` against the request the scenario renders for ``provider`` (the recorded one)."""
    from .saved_request import _check, translated
    from .verdict import verdict

    scenario = _check(saved.file, saved.data)
    try:
        translation = translated(provider, scenario)
    except ToolchoiceError:
        translation = None
    return verdict(scenario, reply, translation)


_B64_SPACE = dict.fromkeys(map(ord, " \t\r\n\v\f"))  # ASCII whitespace: any other character stays refused


def response_body(har: Har, call: Call) -> tuple[int, bytes, str] | None:
    """(status, the response body's bytes, its media type without parameters), decoded where ``content.encoding`` is
    base64; None where the entry holds no status or no body (devtools keeps none for some)."""
    response = call.response
    content = response.get("content") if response is not None else None
    status = response.get("status") if response is not None else None
    text = content.get("text") if isinstance(content, dict) else None
    if not isinstance(status, int) or isinstance(status, bool) or status <= 0 or not isinstance(text, str) or not text:
        return None
    mime = str(content.get("mimeType") or "").split(";")[0].strip().lower()
    return status, _content_bytes(har, call, content, text), mime


def recorded_reply(har: Har, call: Call) -> tuple[Any, str]:
    """(the Reply the entry's response holds, how it was read) — (None, why) when it holds none."""
    reply, how, _, _ = read_response(har, call)
    return reply, how


def read_response(har: Har, call: Call) -> tuple[Any, str, tuple[int, bytes, str] | None, list[Any] | None]:
    """``recorded_reply``'s (Reply, how) with what ``_recorded_body`` takes to answer run --replay's transport
    without reading the response again: ``response_body``'s (status, bytes, media type), and the JSON array of
    events read from it (a Gemini stream recorded as one), or None."""
    found = response_body(har, call)
    reply, how, events = _read_reply(har, call, found)
    return reply, how, found, events


def _read_reply(har: Har, call: Call, found: tuple[int, bytes, str] | None) -> tuple[Any, str, list[Any] | None]:
    """``recorded_reply``'s reading of ``found`` (``response_body``'s), with the JSON array of events where it read
    one (None where it read none: ``_recorded_body`` looks for one itself)."""
    from . import limits
    from .bounded import json_value
    from .reply import read_reply

    if found is None:
        return None, "the HAR holds no response body for this entry", None
    status, data, mime = found
    if mime in _STREAMS or not data.lstrip()[:1] in (b"{", b"["):
        return (*_streamed(call, data, status), None)
    if len(data) > limits.get("reply_bytes"):
        return None, f"the response is larger than {limits.shown('reply_bytes')}", None
    shown = data.decode("utf-8", "replace")
    try:
        body = json_value(shown)
    except ValueError:
        body = None
    if isinstance(body, list) and 200 <= status < 300 and _asked_stream(har, call):
        # Gemini's streamGenerateContent without alt=sse answers a JSON array of its responses: one event each
        return (*_streamed(call, "\n".join(json.dumps(item) for item in body).encode(), status), body)
    return read_reply(call.provider, status, body, shown), f"HTTP {status}", None


def _content_bytes(har: Har, call: Call, content: dict[str, Any], text: str) -> bytes:
    """``response.content.text`` as the bytes the server sent (base64 decoded where its ``encoding`` says so)."""
    if content.get("encoding") == "base64":
        try:  # RFC 2045 6.8 wraps base64 at 76 columns and HAR 1.2 forbids no line break: whitespace alone goes
            return base64.b64decode(text.translate(_B64_SPACE), validate=True)
        except (binascii.Error, ValueError):
            raise ToolchoiceError(f"{where(har.file, call.index)}: response.content.text is not base64, as its "
                                  "encoding says", hint=HINT) from None
    return text.encode("utf-8", "surrogatepass")


def _response_text(har: Har, call: Call) -> str | None:
    """The recorded response's text as sent (None: the HAR holds none)."""
    content = call.response.get("content") if call.response is not None else None
    text = content.get("text") if isinstance(content, dict) else None
    if not isinstance(text, str) or not text:
        return None
    return _content_bytes(har, call, content, text).decode("utf-8", "replace")


def _streamed(call: Call, data: bytes, status: int) -> tuple[Any, str]:
    from . import limits
    from .streaming import assemble_bytes

    if len(data) > limits.get("stream_bytes"):
        return None, f"the response is larger than {limits.shown('stream_bytes')}"
    streamed = assemble_bytes(call.provider, data)
    return streamed.reply, f"HTTP {status}, a stream of {streamed.events} events"


def _asked_stream(har: Har, call: Call) -> bool:
    """Whether the request asked for a stream: in its path (Gemini's, Bedrock's) or its body's ``stream``."""
    from .registry import mock_family

    route = mock_family(call.provider).mock_route(call.method, _path(call.url)) or {}
    try:
        body = document(har, call)["body"]
    except ToolchoiceError:
        return False
    return route.get("stream") is True or body.get("stream") is True


# ---- the file → one scenario, or the listing -------------------------------------------------------------------

@overload
def import_har(path: str | os.PathLike[str], sample: int, provider: str | None = None) -> SavedScenario: ...


@overload
def import_har(path: str | os.PathLike[str], sample: None = None, provider: str | None = None
               ) -> SavedScenario | Listing: ...


@says_no_key  # a key pasted as the provider is quoted by its placeholder (docs/python.md)
@resuming()
def import_har(path: str | os.PathLike[str], sample: int | None = None, provider: str | None = None
               ) -> SavedScenario | Listing:
    """One call's scenario (``SavedScenario``, its notes saying the reply's verdict and the other entries), or, for
    a file of several calls and no ``sample``: the ``Listing``, a line per call to pick one from."""
    from . import call_args

    path = call_args.path_arg(path)
    call_args.whole_number(sample, "sample", 0, optional=True)
    if provider is not None and not isinstance(provider, str):
        raise call_args.wrong("provider", "a provider id (str) or None", provider)
    har = read_har(path, provider)
    if not har.calls:
        raise _no_calls(har)
    from .har_conversations import follow

    if sample is None and len(har.calls) > 1:
        har = _shown(har, har.calls[:LISTED])
        steps = follow(exchanges(har, har.calls[:LISTED]))  # the calls' steps, as the mock follows a session
        return _redacted(har, Listing([describe(har, c, steps.get(c.sample)) if c.sample <= LISTED
                                       else {"sample": c.sample, "entry": c.index} for c in har.calls], notes(har),
                                      _replays(har, steps, provider)))
    number = 1 if sample is None else sample
    if not 1 <= number <= len(har.calls):
        raise ToolchoiceError(f"{path}: no sample {call_args.number_shown(number)} (the HAR holds {len(har.calls)} provider call"
                              f"{'s' if len(har.calls) != 1 else ''}: 1-{len(har.calls)})", hint="pick one of those")
    har = _shown(har, har.calls[max(0, number - LISTED):number])
    saved = import_call(har, har.calls[number - 1])
    # what broke between it and the calls before it (the LISTED calls up to it: a sample of a huge file stays cheap)
    steps = follow(exchanges(har, har.calls[max(0, number - LISTED):number]))
    if (step := steps.get(number)) is not None and step.findings:
        saved = saved._replace(notes=[*saved.notes, *(LedgerEntry(f["severity"], f["code"], f["message"])
                                                      for f in step.findings)])
    if sample is None:  # the file's one call: how run --replay replays it (none where it cannot), as a listing says
        saved = saved._replace(replays=tuple(r for r in _replays(har, steps, provider) if r.command))
    return _redacted(har, saved)


def _replays(har: Har, steps: dict[int, Any], provider: str | None) -> tuple[Replay, ...]:
    from .har_replays import grouped, replays

    return tuple(replays(har, *grouped(har.calls[:LISTED], steps), provider, lambda api: _regrouped(har.file, api),
                         lambda call: _first_streamed(har, call)))


def exchanges(har: Har, calls: list[Call], read: dict[int, Any] | None = None) -> Iterator[Any]:
    """The calls as ``har_conversations.follow`` reads them, one at a time: body, recorded status and reply.
    ``read``: gets ``read_response``'s reading of each response it reads, by sample (run --replay reads none again)."""
    from .har_conversations import Exchange

    for call in calls:
        try:
            body = document(har, call)["body"]
        except ToolchoiceError:
            body = None
        status = call.response.get("status") if call.response is not None else None
        try:
            reply = None
            if body is not None:
                found = read_response(har, call)
                reply = found[0]
                if read is not None:
                    read[call.sample] = found
        except ToolchoiceError:
            reply = None
        yield Exchange(call.sample, call.provider, call.method, _path(call.url), body,
                       status if isinstance(status, int) else None, reply)


def _no_calls(har: Har) -> ToolchoiceError:
    from .errors import named
    from .saved_request import PYTHON

    if har.unknown:
        index, host, what = har.unknown[0]
        return named((f"{where(har.file, index)}: {what} at {host}, a host toolchoice does not know",),
                     "name the API it speaks with ", " (openai, anthropic, ...)", names=("provider",), spelling=PYTHON)
    hosts = ", ".join(dict.fromkeys(what.split(" ", 1)[-1] for _, what in har.others[:50])) or "none"
    return named((f"{har.file}: none of its {har.total} entries is a provider API call (hosts: {hosts[:160]})",),
                 "record the requests to the API itself (api.openai.com, api.anthropic.com, ...), or name a gateway's "
                 "API with ", "", names=("provider",), spelling=PYTHON)


def _regrouped(file: Path, api: str) -> tuple[dict[int, list[Call]], list[Call]]:
    """The file's conversations as ``run --replay FILE -p api`` reads it (har_replays.replays' ``regroup``)."""
    from .har_conversations import follow
    from .har_replays import grouped

    reading = read_har(file, api)
    return grouped(reading.calls[:LISTED], follow(exchanges(reading, reading.calls[:LISTED])))


def _first_streamed(har: Har, call: Call) -> bool:
    """Whether the replay's first step answers with a recorded stream (``loop_replay._saved_stream``), which it
    replays only to a streamed request (as trace_har_replay._replies keeps a body: where the reply reads)."""
    from .loop_replay import _saved_stream

    reply, _, read, events = read_response(har, call)
    found = _recorded_body(har, call, read, events) if reply is not None else None
    return found is not None and _saved_stream(found[1], found[2])


def _recorded_body(har: Har, call: Call, found: tuple[int, bytes, str] | None = None,
                   events: list[Any] | None = None) -> tuple[int, bytes, str] | None:
    """(status, body, content type) of the call's recorded response as ``run --replay``'s transport answers with it;
    None where the entry holds none. ``found``: ``response_body``'s, where read already; ``events``: the JSON array of
    events ``_read_reply`` read from it (a 2xx answer to a request that asked a stream), where it read one."""
    found = response_body(har, call) if found is None else found
    if found is None:
        return None
    status, data, mime = found
    if events is None:  # (a body that is no JSON array is none: the request's body is not read again for it)
        events = _array(data) if 200 <= status < 300 and data.lstrip()[:1] == b"[" and _asked_stream(har, call) \
            else None
    if events is not None:  # Gemini's streamGenerateContent without alt=sse answers a JSON array of its events:
        # replayed as the SSE stream toolchoice asks for (alt=sse), one event an item, as recorded_reply reads it
        data, mime = b"".join(b"data: " + json.dumps(item).encode() + b"\r\n\r\n" for item in events), _STREAMS[0]
    kind = mime if mime in _STREAMS else ("application/json" if data.lstrip()[:1] in (b"{", b"[") else
                                          mime or "text/plain")
    return status, data, kind


def _array(data: bytes) -> list[Any] | None:
    from .bounded import json_value

    if data.lstrip()[:1] != b"[":
        return None
    try:
        found = json_value(data.decode("utf-8", "replace"))
    except ValueError:
        return None  # the step's reply says so as it is judged
    return found if isinstance(found, list) else None


def describe(har: Har, call: Call, step: Any = None) -> dict[str, Any]:
    """One line of the listing: the sample, its entry, provider and request, what it asked, and its reply's
    verdict (or why it does not read); ``step`` (har_conversations.Step): its conversation, the sample it
    continues and what broke between them."""
    from .registry import module_for

    row: dict[str, Any] = {"sample": call.sample, "entry": call.index, "provider": call.provider,
                           "request": f"{call.method} {_path(call.url)}"}
    try:
        saved = import_call(har, call)
    except ToolchoiceError as exc:
        row["problem"] = exc.message.removeprefix(f"{where(har.file, call.index)}: ")
        return _redacted(har, row)
    body = document(har, call)["body"]
    model = saved.data["providers"][call.provider] or {}
    if model.get("model"):
        row["model"] = model["model"]
    row["requested"] = saved.data.get("tool_choice", "(none sent)")
    row["offered_tools"] = list(module_for(call.provider).offered_tools(body))
    reply = next(n for n in saved.notes if n.code == "har.reply")
    row["reply"] = reply.message
    if step is not None:
        row["conversation"], row["step"] = step.conversation, step.step
        if step.continues is not None:
            row["continues"] = step.continues
        if step.findings:
            row["findings"] = [dict(f) for f in step.findings]
    return _redacted(har, row)


def _shown(har: Har, calls: list[Call]) -> Har:
    """``har`` whose secrets are also the credentials of ``calls`` (a sample past the first LISTED, and the calls
    before it that its findings quote) and the keys their bodies and recorded responses hold by their look
    (``body_secrets.body_keys``, as the mock and the proxy find them): a piece of one quoted where no look finds it
    (a finding that cuts a call's arguments at 200 characters, an AWS secret apart from its key id) is redacted by
    its value, as a save of the same exchange is."""
    from .mock.body_secrets import FOUND_AT_MOST

    secrets, found = dict(har.secrets), dict(har.found)
    for call in calls:
        try:
            credentials(call.request, urlsplit(call.url), secrets)
        except ValueError:
            pass
        post = call.request.get("postData")
        texts = [post.get("text") if isinstance(post, dict) else None]
        try:
            texts.append(_response_text(har, call))
        except ToolchoiceError:
            pass
        for text in texts:
            if isinstance(text, str) and len(found) < FOUND_AT_MOST:  # past them a key is still hidden whole
                found.update(_text_keys(text))
    return har._replace(secrets=secrets, found=found)


def _text_keys(text: str) -> dict[str, str]:
    """The keys a body's text holds by their look: its JSON's (each string, ``body_keys``), or the text's own (a
    stream's). Read with Python's reader alone: nothing of it is kept, and pattern_keys walks it without recursing."""
    from .key_looks import pattern_keys
    from .mock.body_secrets import FOUND_AT_MOST, body_keys

    try:
        return body_keys(json.loads(text))
    except (ValueError, RecursionError):
        return pattern_keys(text, FOUND_AT_MOST)


def _redacted(har: Har, value: Any) -> Any:
    """``value`` without the credentials the HAR's headers, cookies and query strings hold, wherever quoted."""
    if not har.secrets and not har.found:
        return value
    redactor = _redactor(tuple(har.secrets.items()), tuple(har.found.items()))
    from .errors import Named

    if isinstance(value, dict):
        return redactor.data(value)
    said = [n._replace(message=n.message.mapped(redactor.text) if isinstance(n.message, Named) else  # its record kept
                       redactor.text(n.message)) for n in value.notes]  # a path quoted by har.unknown_host
    replays = tuple(r._replace(command=None if r.command is None else redactor.text(r.command),  # the file's path
                               problem=None if r.problem is None else redactor.text(r.problem)) for r in value.replays)
    if isinstance(value, Listing):  # its rows are redacted one by one (describe)
        return value._replace(notes=said, replays=replays)
    return value._replace(data=redactor.data(value.data), notes=said, replays=replays)


@functools.lru_cache(maxsize=2)
def _redactor(secrets: tuple[tuple[str, str], ...], found: tuple[tuple[str, str], ...]) -> Any:
    """One Redactor for a HAR's secrets and found keys (a listing's 200 rows are redacted with it: one each cost ~80
    ms at 3,000 keys, a Bedrock session's SigV4 signatures differing on every request)."""
    from .mock.body_secrets import secrets as with_schemes
    from .redaction import Redactor

    return Redactor(with_schemes(dict(secrets)), found=dict(found))
