"""One request in, one answer out, without sockets: routing, judging, script faults, the reply body
or stream events, and the jsonl record. ``server.py`` puts this behind asyncio streams."""

from __future__ import annotations

import json
import re
import threading
from typing import Any, Callable, NamedTuple
from urllib.parse import parse_qsl, urlsplit

from ..redaction import key_header, secret_field
from ..registry import check_provider, mock_family, module_for
from .body_secrets import GUARD_AT_MOST, body_keys, redacted, scrub_module, secrets
from .call_origins import CallOrigins, Sent, loop_findings, prefix_check
from .framing import CONTENT_TYPES, ENCODERS
from .judge import Answer, Judged, judge, plan_answers, prefix_tools, record
from .script import Script

MAX_BODY = 32 * 1024 * 1024  # the proxy keeps at most this much of an upstream answer (the limit mock_body_bytes')
_AWS_CREDENTIAL = re.compile(r"Credential=([A-Za-z0-9]+)/")


class Exchange(NamedTuple):
    """What to write back, and what to record."""

    status: int
    headers: dict[str, str]
    body: bytes | None  # a whole reply
    chunks: list[bytes] | None  # a stream, one bytes object per event
    record: dict[str, Any]
    delay: float = 0.0
    cut_after: int | None = None
    answer: Answer | None = None
    secrets: dict[str, str] = {}  # the MCP secrets the body held (body_secrets), value -> MARKER
    found: dict[str, str] = {}  # the keys the body held by their look (body_secrets.body_keys), value -> MARKER


def client_secrets(headers: dict[str, str], target: str) -> dict[str, str]:
    """The keys a client sent (every ``redaction.key_header``, ?key=, an AWS access key id) as value -> placeholder."""
    found: dict[str, str] = {}
    for name, value in headers.items():
        if value and key_header(name) and name.lower() != "x-amz-security-token":
            credential = _AWS_CREDENTIAL.search(value)
            if credential:
                found[credential.group(1)] = "$AWS_ACCESS_KEY_ID"
            else:  # each key of a header sent twice too (server.py joins them with ", "; the API may quote one)
                for part in (value, *value.split(",")) if "," in value else (value,):
                    found[part.strip().split(" ", 1)[-1].strip()] = f"${name.upper().replace('-', '_')}"
    for key, value in parse_qsl(urlsplit(target).query, keep_blank_values=True):
        if value and (key in ("key", "api-key") or secret_field(key)):  # ?key=, ?api_key=, ?access_token=
            found[value] = "$KEY"
    token = headers.get("x-amz-security-token")
    if token:
        found[token] = "$AWS_SESSION_TOKEN"
    return {value: name for value, name in found.items() if len(value) >= 8}


class MockService:
    """The provider's API as toolchoice knows it. ``count`` requests answered so far (refused ones too)."""

    def __init__(self, provider: str, script: Script | None = None) -> None:
        self.provider = check_provider(provider)
        self.module = mock_family(provider)  # the family's mock parts
        self.framing = module_for(provider).STREAM_FRAMING
        # a family serving several hosts is told which (mock_error, mock_reply, mock_events, mock_call_id)
        self.per_host = {"provider": self.provider} if getattr(self.module, "MOCK_PER_HOST", False) else {}
        self.script = script or Script()
        self.count = 0
        self.refused = 0
        self._counting = threading.Lock()  # large bodies are judged in worker threads (server.MockHandler)
        self.origins = CallOrigins()  # the calls this mock's answers made, for the results that come back

    def error(self, status: int, message: str, extra: dict[str, str] | None = None,
              param: str | None = None, fields: tuple[tuple[str, Any], ...] = ()) -> tuple[bytes, dict[str, str]]:
        """The family's error envelope; ``param``: the field its recorded envelope names (MockRead.refusal_param);
        ``fields``: the recorded body's other fields for API words (Judged.envelope, RefusalWords.envelope)."""
        body, headers = self.module.mock_error(status, message, **self.per_host, **({"param": param} if param else {}),
                                               **({"fields": dict(fields)} if fields else {}))
        return _dumps(body), {"content-type": "application/json", **headers, **(extra or {})}

    def handle(self, method: str, target: str, headers: dict[str, str], raw: bytes) -> Exchange:
        """Answer one request; a fault of the mock's own is a 500 in the provider's envelope, never a traceback."""
        try:
            return self._handle(method, target, headers, raw)
        except Exception as exc:  # noqa: BLE001 - the client gets an answer and the record says what happened
            from ..redaction import Redactor

            redactor = Redactor(self.body_secrets(raw))  # an exception's words may quote the body
            message = redactor.text(f"toolchoice mock: internal error: {type(exc).__name__}: {exc}")
            body, out = self.error(500, message)
            return Exchange(500, out, body, None, _bare(self.count, self.provider, urlsplit(target).path, 500,
                                                         "mock.internal_error", message + " (please report it)"))

    def _refuse(self) -> None:
        with self._counting:
            self.refused += 1

    def body_secrets(self, raw: bytes) -> dict[str, str]:
        """The MCP secrets in a raw body (body_secrets.MOCK_SECRETS), value -> MARKER; {} when it is no JSON."""
        try:
            return secrets(scrub_module(self.module, json.loads(raw)).values, GUARD_AT_MOST) if raw.strip() else {}
        except (ValueError, RecursionError):
            return {}

    def _handle(self, method: str, target: str, headers: dict[str, str], raw: bytes) -> Exchange:
        with self._counting:
            self.count += 1
            number = self.count
        path = urlsplit(target).path
        route = self.module.mock_route(method, path)
        if route is None:
            served = elsewhere(self.provider, method, path, "mock")
            said = f"{method} {path} is not an endpoint of this API{served}"
            # the API's 404 words; where another API's mock serves the path (openai-agents' /v1/responses at a
            # -p openai mock), what to do too: the framework's exception may be all its user sees
            other = f"; toolchoice mock: {said}" if served else ""
            body, out = self.error(404, f"Invalid URL ({method} {path}){other}")
            self._refuse()
            return Exchange(404, out, body, None, _bare(number, self.provider, path, 404, "mock.unknown_path", said))
        try:
            data = json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError) as exc:
            data = None
            judged = Judged(None, None, (), unparsed(exc), self._unparsed_words(exc))
        else:
            judged = judge(self.provider, self.module, data, route, headers)  # the body as sent
        shown = scrub_module(self.module, data)  # what is kept or echoed: its MCP secrets replaced
        kept = secrets(shown.values, GUARD_AT_MOST)
        found = body_keys(data)  # saved and printed as [redacted]; the answer is made from the body as sent
        named = {**client_secrets(headers, target), **kept}  # a client's key shown as its header's $NAME first
        step = self.script.step(number)
        delay = step.delay_ms / 1000.0 if step is not None else 0.0
        read = judged.read
        stream = bool(route.get("stream")) if route.get("stream") is not None else bool(read and read.stream)
        if step is not None and step.status is not None:
            extra = {"retry-after": _seconds(step.retry_after)} if step.retry_after is not None else {}
            message = step.message or _FAULT_MESSAGES.get(step.status, f"toolchoice mock: scripted status {step.status}")
            body, out = self.error(step.status, message, extra)
            line = self._traced(record(number, self.provider, path, judged, step.status, None, stream), judged)
            line["findings"].append({"severity": "info", "code": "mock.scripted_fault",
                                     "message": f"script line {step.line}: status {step.status}"})
            return Exchange(step.status, out, body, None, redacted(line, named, found), delay, secrets=kept,
                            found=found)
        if judged.refusal is not None or read is None:
            self._refuse()
            param = read.refusal_param if read is not None and judged.refusal == read.refusal else None
            status = judged.status  # 400, or the recorded answer's (xAI's 422)
            body, out = self.error(status, redacted(judged.refusal or "invalid request", named, found), param=param,
                                   fields=judged.envelope)
            line = self._traced(record(number, self.provider, path, judged, status, None, stream), judged)
            return Exchange(status, out, body, None, redacted(line, named, found), delay, secrets=kept, found=found)
        answer = plan_answers(judged, step, number)
        line = self._traced(record(number, self.provider, path, judged, 200, answer, stream), judged, answer, number)
        cut = step.cut_after if step is not None else None
        if cut is not None:  # the client gets a cut answer: the line says so, not only what the whole one held
            what = f"after {cut} event{'s' if cut != 1 else ''}" if stream else "after half of the body"
            line["findings"].append({"severity": "info", "code": "mock.scripted_fault",
                                     "message": f"script line {step.line}: the answer is cut {what} and the connection "
                                                "closed (cut_after)"})
        line = redacted(line, named, found)
        if stream:
            events = self.module.mock_events(answer, read, number, shown.body, **self.per_host)
            chunks = ENCODERS[self.framing](events)
            return Exchange(200, {"content-type": CONTENT_TYPES[self.framing]}, None, chunks, line, delay, cut, answer,
                            kept, found)
        return Exchange(200, {"content-type": "application/json"},
                        _dumps(self.module.mock_reply(answer, read, number, shown.body, **self.per_host)), None, line,
                        delay, cut, answer, kept, found)

    def _unparsed_words(self, exc: Exception) -> str:
        """The 400's words for a body that is not JSON: the family's recorded words (``mock_unparsed``), else these."""
        words = getattr(self.module, "mock_unparsed", None)
        said = words(exc, **self.per_host) if words is not None else None
        return said or "We could not parse the JSON body of your request."

    def _traced(self, line: dict[str, Any], judged: Judged, answer: Answer | None = None,
                number: int = 0) -> dict[str, Any]:
        """The line follows the agent loop (core/mock/call_origins.py): each call with the id the family's answer
        carries, the results this request adds with the request whose answer made each, a result no answer of this
        mock asked for, and a call of an earlier answer the history carries without its result (said once); the
        reasoning state the answer hands out is remembered with its request, tools, system prompt and (where the
        model runs the prefix check) the history it was sent."""
        read = judged.read
        sent = Sent(read.messages) if read is not None else None
        if read is not None and sent is not None:
            results = loop_findings(self.origins, sent, line["findings"], "mock", prefix_tools(judged),
                                    self.provider, read.model, read.system)
            if results:
                line["results"] = results
            handed = self.origins.reasoning_from(sent)  # the thinking sent back, and whose answer made it
            if handed:
                line["reasoning_from"] = handed
        if answer is not None:
            call_id = getattr(self.module, "mock_call_id", lambda call, **_: call.id)
            ids = [call_id(call, **self.per_host) for call in answer.calls]
            for entry, made in zip(line["calls"], ids):
                entry["id"] = made
            calls = [(made, call.name) for made, call in zip(ids, answer.calls)]
            for entry, each in zip(line.get("choices", ())[1:], answer.others):  # n > 1: every choice's calls
                for call_entry, call in zip(entry["calls"], each.calls):
                    call_entry["id"] = call_id(call, **self.per_host)
                    calls.append((call_entry["id"], call.name))
            if answer.others:
                line["choices"][0]["calls"] = [dict(entry) for entry in line["calls"]]
            handed = [a.signature for a in (answer, *answer.others) if a.signature is not None]  # thinking's state
            kept = sent if read is not None and handed and prefix_check(self.provider, read.model) else None
            self.origins.made(number, calls, prefix_tools(judged), read.system if read is not None else None, handed, kept)
        return line


_FAULT_MESSAGES = {429: "Rate limit reached (toolchoice mock script)", 500: "Internal server error (toolchoice mock script)",
                   503: "Service unavailable (toolchoice mock script)", 529: "Overloaded"}


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _bare(number: int, provider: str, path: str, status: int, code: str, message: str) -> dict[str, Any]:
    return {"n": number, "provider": provider, "path": path, "stream": False, "requested": None, "tool_choice": None,
            "offered_tools": [], "status": status, "calls": [],
            "findings": [{"severity": "error", "code": code, "message": message}]}


Recorder = Callable[[dict[str, Any]], None]


def elsewhere(provider: str, method: str, path: str, command: str) -> str:
    """Where another family's API has ``method path`` (openai-agents posts to /v1/responses by default, and a mock or
    proxy started with ``-p openai`` serves Chat Completions): the words that say which ``-p`` serves or judges it,
    or "" (a models list, a file upload: no family's model endpoint). Loads the other mock modules only here."""
    from ..capabilities import CAPABILITIES

    other, once = served_by(provider, method, path), ""
    twice = re.match(r"(/[^/]+)\1/", path)
    if other is None and twice:  # /v1/v1/messages: a client given this mock's /v1 URL, whose own paths add /v1
        other = served_by(provider, method, path[len(twice.group(1)):])
        once = f" once its repeated {twice.group(1)} is dropped (a base URL without {twice.group(1)})"
    if other is None:
        return ""
    return (f" ({CAPABILITIES[provider].title}) but {CAPABILITIES[other].title}'s{once}: start the {command} with "
            f"-p {other} to {'serve' if command == 'mock' else 'judge'} it")


def served_by(provider: str, method: str, path: str) -> str | None:
    """The provider of another family whose API has ``method path``, or None (``elsewhere``; ``trace`` of a saved
    request the save's provider does not serve). Loads the other mock modules only here."""
    from ..capabilities import CAPABILITIES

    own = CAPABILITIES[provider].module
    for other, row in CAPABILITIES.items():
        if row.module == own:
            continue
        try:
            takes = mock_family(other).mock_route(method, path) is not None
        except Exception:  # noqa: BLE001 - a family without a mock module, or a path it cannot read: not this one
            continue
        if takes:
            return other
    return None


def unparsed(exc: Exception, proxied: bool = False) -> tuple[Any, ...]:
    """Why a body that did not parse did not: JSON holding an integer past Python's digit limit, or nested past what
    Python's parser reads (RecursionError), is said in the line's finding, as this program's bound and not the
    client's fault (the mock's answer stays the API's words for a body it cannot parse; the proxy passes it on)."""
    from ..bounded import digits_past_limit
    from ..model import LedgerEntry

    digits = digits_past_limit(exc) if isinstance(exc, ValueError) else None
    if isinstance(exc, RecursionError):
        digits = "the body's JSON nests deeper than Python's JSON parser reads"
    if digits is None:
        return ()
    if proxied:
        return (LedgerEntry("warning", "mock.unjudged", f"{digits}: the request is passed on unjudged"),)
    return (LedgerEntry("error", "mock.refused", f"{digits}: answered as the API answers a body it cannot parse"),)
