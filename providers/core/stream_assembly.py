"""What a provider's stream assembler builds with (``parsing.StreamAssembler``, the base every provider
module subclasses, imports this when an assembler is made): the calls under construction, the stream
findings and the ``Assembly`` an assembler ends with. Loaded only when streaming."""

from __future__ import annotations

from typing import Any, NamedTuple

from .bounded import cut
from .calls import make_call
from .model import ProviderError, Reply, ToolCall


class Finding(NamedTuple):
    """A stream fault, as data: ``code`` (stream.*) and one line saying what happened."""

    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Assembly(NamedTuple):
    """What an assembler made of the events: the reply, argument deltas per call (aligned with
    ``reply.tool_calls``), stream faults and provider extras (reasoning text size, signatures). The reply carries
    the reasoning items (``Reply.reasoning``, calls' signatures) the family's ``parse_reply`` makes of the whole
    reply, so ``run --stream`` sends them back as ``run`` does: the one record of the stream's reasoning state."""

    reply: Reply
    deltas: tuple[int, ...] = ()
    findings: tuple[Finding, ...] = ()
    extras: dict[str, Any] = {}

    @property
    def handed(self) -> tuple[str, ...]:
        """The opaque reasoning state the stream handed out (thinking signatures, redacted data, thoughtSignatures,
        encrypted content, reasoning item ids), read from the reply as the proxy reads any reply's
        (core/mock/call_origins.py ``reply_reasoning``): no record of its own."""
        from .mock.call_origins import reply_reasoning

        return tuple(reply_reasoning(self.reply))


class CallParts:
    """One call under construction: id, name, argument pieces, how many deltas made it."""

    __slots__ = ("key", "id", "name", "parts", "deltas", "whole", "caller", "signature")

    def __init__(self, key: Any, call_id: str | None, name: str | None) -> None:
        self.key = key
        self.id = call_id
        self.name = name
        self.parts: list[str] = []
        self.deltas = 0
        self.whole: Any = None  # arguments that arrived as one object (Gemini, Ollama)
        self.caller: str | None = None  # who made the call (ToolCall.caller), when the stream says
        self.signature: str | None = None  # Gemini's thoughtSignature on the call's part (ToolCall.signature)


class Calls:
    """Calls by key (index or id), in the order they were opened, with the shared findings."""

    def __init__(self, findings: list[Finding]) -> None:
        self.by_key: dict[Any, CallParts] = {}
        self.findings = findings

    def open(self, key: Any, call_id: Any = None, name: Any = None) -> CallParts:
        call = self.by_key.get(key)
        if call is None:
            call = self.by_key[key] = CallParts(key, _text(call_id), _text(name))
            return call
        self.update(call, call_id, name)
        return call

    def update(self, call: CallParts, call_id: Any = None, name: Any = None) -> None:
        cid, cname = _text(call_id), _text(name)
        if cid:
            if call.id and call.id != cid:
                self.findings.append(Finding("stream.id_changed", f"call {call.key}'s id changed from {call.id} to "
                                             f"{cid}; the first is kept"))
            elif not call.id:
                call.id = cid
        if cname and call.name and call.name != cname:  # a later event naming another tool (an adversarial run)
            self.findings.append(Finding("stream.name_changed", f"call {call.key}'s name changed from {call.name} to "
                                         f"{cname}; the first is kept"))
        elif cname and not call.name:
            call.name = cname

    def delta(self, key: Any, text: Any, *, open_unknown: bool = True) -> CallParts | None:
        """An argument delta. For a key no start opened: a finding, and (``open_unknown``) a new call
        so the arguments are not lost."""
        call = self.by_key.get(key)
        if call is None:
            self.findings.append(Finding("stream.unknown_index", f"an argument delta for call {key}, which no "
                                         "start event opened" + ("; kept as its own call" if open_unknown else "")))
            if not open_unknown:
                return None
            call = self.open(key)
        if isinstance(text, str):
            call.parts.append(text)
        call.deltas += 1
        return call

    def build(self) -> tuple[tuple[ToolCall, ...], tuple[int, ...]]:
        calls = []
        for call in self.by_key.values():
            if call.whole is not None and not call.parts:
                built = make_call(call.id, call.name, call.whole)
            else:
                text = "".join(call.parts)
                if len(call.parts) > 1:  # the pieces, once joined, are not held beside the text (32 MiB of stream)
                    call.parts[:] = [text]
                built = make_call(call.id, call.name, text)
                del text
            if call.caller is not None:
                built = built._replace(caller=call.caller)
            if call.signature is not None:
                built = built._replace(signature=call.signature)
            if built.arguments_error is not None:
                self.findings.append(Finding("stream.arguments_invalid", f"call {call.key} ({call.name or 'no name'}): "
                                             f"the {call.deltas} argument deltas never formed valid JSON: "
                                             f"{built.arguments_error}"))
            calls.append(built)
        return tuple(calls), tuple(c.deltas for c in self.by_key.values())


def _text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def missing_final(what: str) -> Finding:
    return Finding("stream.no_final_event", f"the stream ended without {what}: the reply may be cut short")


def _done_data(text: str) -> str:
    return repr(cut(text, 40))


def done_skipped(text: str, how: str) -> Finding:
    """Data that starts with [DONE] where the family's SDK does not end the stream but skips it and reads on
    (``how`` says where it does so): read on here too, and said (benign: the reply is whole)."""
    return Finding("stream.done_skipped", f"data {_done_data(text)} is not this stream's end: {how}; read on here as "
                   "it does")


def done_unreadable(text: str, how: str) -> Finding:
    """Data that starts with [DONE] where the family's SDK neither ends the stream nor skips it, but fails on it."""
    return Finding("stream.framing", f"data {_done_data(text)} is not this stream's end, nor data its SDK can read: "
                   f"{how}, so its user gets no reply")


def error_event(provider: str, error: ProviderError) -> Finding:
    return Finding("stream.error_event", error.one_line(provider))
