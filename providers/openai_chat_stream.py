"""OpenAI Chat Completions streamed: the chunks folded into the Reply ``openai_chat.parse_reply`` makes of a
whole body (loaded only when streaming, through ``openai_chat.stream_assembler``)."""

from __future__ import annotations

from typing import Any, Callable

from .core.model import Usage
from .core.parsing import StreamAssembler, int_or_none


# Where a host's own SDK ends a chat stream at data: [DONE] (stream_framing.DoneMarker): openai 3.57.0 (_streaming.py
# Stream.__stream__: 'if sse.data.startswith("[DONE]")') and the other Stainless SDKs at data that starts with it; these
# hosts' SDKs only at data that is exactly [DONE].
EXACT_DONE = {"mistral": "mistralai 3.7.0 client/utils/eventstreaming.py _parse_event: 'data == sentinel'"}


class ChatStreamAssembler(StreamAssembler):
    """Chat Completions chunks → the Reply ``parse_reply`` makes of the whole body.

    Calls are keyed by ``delta.tool_calls[].index``; the id and name come on a call's first delta
    only and its arguments as text pieces. Hosts that leave ``index`` out (Mistral sends each call
    whole, vercel/ai's mistral-tool-call recording) are keyed by id, and a piece with neither
    continues the last call. Each choice is assembled by its ``index`` (``n`` > 1: each chunk carries
    ``choices[].index``, as openai-python's ChatCompletionStreamState accumulates them), choice 0 by this
    assembler itself, the others each by one of their own (``Reply.choices``, as ``parse_reply`` reads
    a whole body). The stream ends with ``data: [DONE]``; usage comes in a chunk with ``usage`` (a last
    one with empty choices when stream_options.include_usage is sent). ``delta.reasoning_content`` (DeepSeek,
    llama.cpp; ``delta.reasoning``: vLLM) pieces are joined into the one reasoning item ``parse_reply`` makes of the
    message's, which a DeepSeek thinking-mode tool loop sends back."""

    final_event = "data: [DONE]"

    def __init__(self, provider: str, upstream: Callable[[dict[str, Any]], str | None] | None = None) -> None:
        super().__init__(provider)
        self.done_marker = "exact" if provider in EXACT_DONE else "prefix"
        self._ids: dict[str, Any] = {}
        self._last: Any = None
        self._upstream = upstream  # a router's: which upstream answered (openai_chat's HOSTS say which hosts route)
        self._others: dict[int, ChatStreamAssembler] = {}  # choices but 0 (n > 1), by index
        self.carried = False  # a chunk carried choice 0
        self.chunked = False  # a chunk arrived (an SDK's chunk file has no data: [DONE])
        self.thought: list[str] = []  # reasoning_content (or reasoning) pieces

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            if event.text == "[DONE]":
                self.done = True
            elif event.text.startswith("[DONE]"):  # reaches here only where the SDK ends at [DONE] exactly
                from .core.stream_assembly import done_unreadable

                self.findings.append(done_unreadable(event.text, "mistralai 3.7.0 compares the whole data with [DONE] "
                                                     "(utils/eventstreaming.py) and fails to read it as a chunk"))
            return False
        self.chunked = True
        if data.get("error") is not None:
            from .core.reply import provider_error

            self.fail(provider_error(self.provider, None, data))
            return False
        usage = data.get("usage")
        if isinstance(usage, dict):
            self.usage = Usage(int_or_none(usage.get("prompt_tokens")), int_or_none(usage.get("completion_tokens")))
        if self._upstream is not None and self.upstream is None:
            self.upstream = self._upstream(data)  # when a chunk carries the field a whole reply names its upstream by
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            return False
        if len(choices) == 1 and isinstance(choices[0], dict) and choices[0].get("index", 0) == 0:
            return self._choice(choices[0])
        from .core.choices import fed_by_index  # n > 1: each choice by its index

        return fed_by_index(self, choices, lambda c, _: c.get("index", 0) if isinstance(c, dict) else None,
                            lambda assembler, choice: assembler._choice(choice))

    def _choice(self, choice: dict[str, Any]) -> bool:
        self.carried = True  # a chunk carried this choice (core/choices.assembled: one no chunk carried is unknown)
        if isinstance(choice.get("finish_reason"), str):
            self.finish_reason = choice["finish_reason"]
        delta = choice.get("delta")
        if not isinstance(delta, dict):
            return False
        for field in ("content", "refusal"):  # (a refusal is text: parse_reply)
            if isinstance(delta.get(field), str):
                self.text.append(delta[field])
        if "reasoning_content" in delta or "reasoning" in delta:
            self.count("reasoning_chars", delta.get("reasoning_content") or delta.get("reasoning"))
            thought = next((t for t in (delta.get("reasoning_content"), delta.get("reasoning")) if isinstance(t, str)),
                           None)
            if thought is not None:  # parse_reply's one item of the message's reasoning_content (or reasoning)
                self.thought.append(thought)
        pieces = delta.get("tool_calls")
        if pieces is None:
            return False
        if not isinstance(pieces, list):  # the stream guard makes it a stream.malformed_event finding
            raise TypeError(f"delta.tool_calls is {type(pieces).__name__}, not a list")
        for piece in pieces:
            if not isinstance(piece, dict):
                raise TypeError(f"a delta.tool_calls entry is {type(piece).__name__}, not an object")
            self._piece(piece)
        return bool(pieces)

    def _piece(self, piece: dict[str, Any]) -> None:
        function = piece.get("function") if isinstance(piece.get("function"), dict) else {}
        call_id, name = piece.get("id"), function.get("name")
        key = piece.get("index")
        for field, value, kinds in (("index", key, (int,)), ("id", call_id, (str,)), ("function.name", name, (str,)),
                                    ("function", piece.get("function"), (dict,)),
                                    ("function.arguments", function.get("arguments"), (str,))):
            if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
                raise TypeError(f"a tool call's {field} is {type(value).__name__}")  # the guard: a finding
        if not isinstance(key, int) or isinstance(key, bool):
            if call_id:
                key = self._ids.get(call_id, ("id", call_id))
            else:
                key = self._last if self._last is not None else 0
        call = self.calls.by_key.get(key)
        if call is None and (call_id or name):
            call = self.calls.open(key, call_id, name)
        elif call is not None:
            self.calls.update(call, call_id, name)
        arguments = function.get("arguments")
        if call is None:
            self.calls.delta(key, arguments)
        elif isinstance(arguments, str):
            call.parts.append(arguments)
            call.deltas += 1
        if call_id:
            self._ids.setdefault(call_id, key)
        self._last = key

    def reply_text(self) -> str | None:
        return "".join(self.text) or None

    def finish(self) -> Any:
        if not self.carried and not self._others and self.error is None and (self.done or self.chunked):
            from .core.stream_assembly import Finding  # data: [DONE] alone, or chunks of usage only: no answer

            self.findings.append(Finding("stream.empty", "no chunk carried a choice" + (" before data: [DONE]" if
                                         self.done else "") + ": there is no answer to judge (openai-python's stream "
                                         "state has no choice in its completion)"))
        for each in (self, *self._others.values()):
            thought = "".join(each.thought)
            if thought:  # empty pieces alone ("reasoning_content": "" beside each content delta) are no reasoning
                from .core.model import ReasoningItem

                each.reasoning[:] = [ReasoningItem("openai-chat", text=thought)]
        assembly = super().finish()
        if not self._others:
            return assembly
        from .core.choices import assembled

        return assembled(assembly, self._others, self.carried)
