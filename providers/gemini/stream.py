"""``streamGenerateContent?alt=sse`` chunks → the ``Reply`` ``parse_reply`` makes of one body."""

from __future__ import annotations

from typing import Any

from ..core.model import ReasoningItem, Usage
from ..core.parsing import StreamAssembler, int_or_none
from ..core.reply import provider_error
from .parse import read_usage

STREAM_FRAMING = "sse"


class GeminiStreamAssembler(StreamAssembler):
    """``streamGenerateContent?alt=sse`` chunks → the Reply ``parse_reply`` makes of one body.

    Each chunk is a GenerateContentResponse; ``candidates[0].content.parts`` add text and
    ``functionCall`` parts, which usually arrive whole (name + args). With streamed function-call
    arguments (Gemini 3 / Vertex ``partialArgs``: a part with ``name`` and ``willContinue``, then
    parts whose ``partialArgs`` carry ``jsonPath`` and a ``stringValue`` piece or a number/bool/null
    value, then an empty ``functionCall``) the pieces are joined per path. The last chunk carries
    ``finishReason``; there is no other end-of-stream event, so a stream without one is cut short.
    With ``candidateCount`` > 1 each candidate is assembled by its ``index`` (left out for 0: its
    place in the list), the others each by one of their own (``Reply.choices``, as ``parse_reply``).

    Every part's ``thoughtSignature`` is counted (``signatures``): google-genai keeps each chunk's parts as they came
    (``types.Part.thought_signature``), and a client sends them back in the content it read. The reply carries them
    as ``parse_reply`` does, and the proxy follows the thinking by them there (``Assembly.handed``): a functionCall
    part's on its call (``ToolCall.signature``), thought parts as reasoning items (consecutive ones joined into one,
    the last signature kept), a signed text part's (an empty one too) as an item of its own, and so a part holding
    the signature alone, which a stream may end with (google-genai keeps it: ``Part(thought_signature=...)``)."""

    final_event = "a chunk with finishReason"
    done_marker = None  # google-genai 3.6.1 _api_client.py _iter_response_stream has no end marker: it parses every data

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self._open: Any = None  # key of a call whose arguments are still streaming
        self._partial: dict[Any, dict[str, Any]] = {}
        self._others: dict[int, GeminiStreamAssembler] = {}  # candidates but 0 (candidateCount > 1), by index
        self.carried = False  # a chunk carried candidate 0
        self._thought: Any = None  # the thought item still open ([text pieces, signature, calls before])

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            if event.text.startswith("[DONE]"):  # a chat stream's end; never Gemini's (it ends at finishReason)
                from ..core.stream_assembly import Finding

                self.findings.append(Finding("stream.framing", "data: [DONE] is no Gemini chunk: google-genai 3.6.1 "
                                             "cannot read the stream (_api_client.py: UnknownApiResponseError, "
                                             "'Failed to parse response as JSON'), so its user gets no reply"))
            return False
        if "candidates" not in data and data.get("error") is not None:
            error = data.get("error")
            self.fail(provider_error(self.provider, int_or_none(error.get("code")) if isinstance(error, dict)
                                     else None, data))
            return False
        if isinstance(data.get("usageMetadata"), dict):
            usage = read_usage(data["usageMetadata"])
            if usage != Usage():
                self.usage = usage
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            feedback = data.get("promptFeedback")
            if isinstance(feedback, dict) and isinstance(feedback.get("blockReason"), str):
                self.finish_reason, self.done = feedback["blockReason"], True
            return False
        if len(candidates) == 1 and (not isinstance(candidates[0], dict) or candidates[0].get("index", 0) == 0):
            return self._candidate(candidates[0] if isinstance(candidates[0], dict) else {})
        from ..core.choices import fed_by_index  # candidateCount > 1: each by its index (0 may be left out)

        return fed_by_index(self, candidates, lambda c, at: c.get("index", at) if isinstance(c, dict) else None,
                            lambda assembler, candidate: assembler._candidate(candidate))

    def _candidate(self, first: dict[str, Any]) -> bool:
        self.carried = True  # a chunk carried this candidate (core/choices.assembled)
        if isinstance(first.get("finishReason"), str):
            self.finish_reason, self.done = first["finishReason"], True
        content = first.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        called = False
        for part in parts if isinstance(parts, list) else ():
            if not isinstance(part, dict):
                continue
            signature = part.get("thoughtSignature") if isinstance(part.get("thoughtSignature"), str) else None
            if part.get("thoughtSignature"):
                self.extras["signatures"] = self.extras.get("signatures", 0) + 1
            if isinstance(part.get("functionCall"), dict):
                call = self._call(part["functionCall"])
                if signature is not None and call is not None and call.signature is None:
                    call.signature = signature  # parse_reply: the functionCall part's thoughtSignature
                called, self._thought = True, None
            elif part.get("thought") is True:
                self.count("reasoning_chars", part.get("text"))
                self._thinking(part.get("text"), signature)
            elif isinstance(part.get("text"), str):
                self.text.append(part["text"])
                self._thought = None
                if signature is not None:  # a signed answer part, as parse_reply keeps it
                    self.reasoning.append(ReasoningItem("gemini", signature=signature, position=len(self.calls.by_key)))
            elif signature:  # a part holding the signature alone (a stream's last chunk): kept as a signed text part's
                self.reasoning.append(ReasoningItem("gemini", signature=signature, position=len(self.calls.by_key)))
        return called

    def _thinking(self, text: Any, signature: str | None) -> None:
        """A thought part: consecutive ones (a thought streamed over chunks) are one item, as the whole reply's one
        thought part is, its text joined and the signature the last that came (parse_reply's item)."""
        held = self._thought
        if held is None:
            self._thought = held = [[], None, len(self.calls.by_key)]
            self.reasoning.append(held)
        if isinstance(text, str):
            held[0].append(text)
        if signature is not None:
            held[1] = signature

    def _call(self, call: dict[str, Any]) -> Any:
        if "partialArgs" in call or (self._open is not None and not call.get("name")):
            if self._open is None:  # argument pieces no call opened: a finding, kept as their own call
                self._open = len(self.calls.by_key)
                self.calls.delta(self._open, None)
            key = self._open
            for piece in call.get("partialArgs") or ():
                if isinstance(piece, dict):
                    self._piece(key, piece)
            self.calls.by_key[key].deltas += 1
            if not call.get("willContinue"):
                self._open = None
                self.calls.by_key[key].whole = _unflatten(self._partial.pop(key, {}))
            return self.calls.by_key[key]
        key = len(self.calls.by_key)
        opened = self.calls.open(key, call.get("id"), call.get("name"))
        opened.deltas = 1
        if call.get("willContinue"):
            self._open = key
            self._partial[key] = {}
        else:
            opened.whole = call.get("args") if call.get("args") is not None else {}
        return opened

    def _piece(self, key: Any, piece: dict[str, Any]) -> None:
        path = piece.get("jsonPath")
        if not isinstance(path, str):
            return
        values = self._partial.setdefault(key, {})
        if "stringValue" in piece:
            values[path] = (values.get(path) or "") + str(piece["stringValue"])
        elif "numberValue" in piece:
            values[path] = piece["numberValue"]
        elif "boolValue" in piece:
            values[path] = piece["boolValue"]
        elif "nullValue" in piece:
            values[path] = None

    def finish(self) -> Any:
        for each in (self, *self._others.values()):
            for key in list(each._partial):  # arguments still streaming when the stream ended
                each.calls.by_key[key].whole = _unflatten(each._partial.pop(key))
            each.reasoning[:] = [item if isinstance(item, ReasoningItem) else  # open thought items made whole
                                 ReasoningItem("gemini", text="".join(item[0]) if item[0] else None, signature=item[1],
                                               position=item[2]) for item in each.reasoning]
        assembly = super().finish()
        if not self._others:
            return assembly
        from ..core.choices import assembled

        return assembled(assembly, self._others, self.carried)


def _unflatten(values: dict[str, Any]) -> dict[str, Any]:
    """``{"$.a.b": 1, "$.c": "x"}`` → ``{"a": {"b": 1}, "c": "x"}`` (object paths; an index
    ``[n]`` step makes a list)."""
    import re

    out: dict[str, Any] = {}
    for path, value in values.items():
        steps = [s for s in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", path)]
        target: Any = out
        for i, (name, index) in enumerate(steps):
            last = i == len(steps) - 1
            step: Any = name if name else int(index)
            nxt: Any = value if last else ({} if steps[i + 1][0] else [])
            if isinstance(target, dict):
                target = target.setdefault(step, nxt) if not last else target.__setitem__(step, nxt)
            elif isinstance(target, list):
                while len(target) <= step:
                    target.append(None)
                if last:
                    target[step] = nxt
                else:
                    if target[step] is None:
                        target[step] = nxt
                    target = target[step]
    return out


def stream_assembler(provider: str) -> GeminiStreamAssembler:
    return GeminiStreamAssembler(provider)