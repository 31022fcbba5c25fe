"""Anthropic Messages streamed: the events folded into the Reply ``anthropic.parse_reply`` makes of a whole message
(loaded only when streaming, through ``anthropic.stream_assembler``)."""

from __future__ import annotations

from typing import Any

from .anthropic_server_blocks import ToolSearches, stop_details
from .core.model import ProviderError, Usage
from .core.parsing import StreamAssembler, caller_of, int_or_none, join_text
from .core.translation import compact


class MessagesStreamAssembler(StreamAssembler):
    """Messages stream events → the Reply ``parse_reply`` makes of the whole message.

    ``content_block_start`` opens block ``index`` (a ``tool_use`` block is a call with its id and
    name); ``content_block_delta`` adds ``text_delta`` text, ``input_json_delta`` argument pieces,
    ``thinking_delta``/``signature_delta`` reasoning; ``message_delta`` brings ``stop_reason`` and the
    output token count; ``message_stop`` ends the stream; an ``error`` event is the reply's error
    (anthropic-sdk-python ``types/raw_message_stream_event.py``). Input tokens come from
    ``message_start`` (a later ``message_delta`` count wins).

    The thinking's signatures are kept as the SDK's message accumulator keeps them (the reply's reasoning items, by
    which the proxy follows the thinking: ``Assembly.handed``): a ``thinking`` block opens with ``signature: ""``
    and a ``signature_delta``
    (``RawContentBlockDeltaEvent {delta, index, type}`` whose delta is ``SignatureDelta {signature, type}``,
    "Delivered in a `signature_delta` event just before the block's `content_block_stop` event":
    anthropic 2.14.0 ``types/signature_delta.py``) sets it — ``lib/streaming/_messages.py`` accumulate_event:
    ``content.signature = event.delta.signature`` — and a ``redacted_thinking`` block arrives whole in its
    ``content_block_start`` with its ``data``. The reply carries them as ``parse_reply`` does (``Reply.reasoning``):
    each ``thinking`` block's text (its ``thinking_delta`` pieces joined, as the accumulator's
    ``content.thinking += event.delta.thinking``) with its signature, each ``redacted_thinking`` block's data, in
    block order, each with the number of tool calls before it."""

    final_event = "message_stop"
    done_marker = None  # anthropic 2.14.0 _streaming.py Stream.__stream__ has no [DONE] test: it reads to the end

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self.blocks: dict[Any, Any] = {}  # index -> block type
        self.texts: dict[Any, list[str]] = {}  # text blocks' pieces, in block order
        self.searches = ToolSearches()  # tool search blocks (their start events carry them whole but the input)
        self.stop_details: dict[str, Any] | None = None
        self.unnamed = False  # an event came without its event: line (said once)
        self.signatures: dict[Any, str] = {}  # thinking block index -> its signature (the last signature_delta's)
        self.thinking: dict[Any, Any] = {}  # thinking/redacted_thinking block index -> [pieces | data, calls before]

    def finish(self) -> Any:
        from .core.model import ReasoningItem

        for index, (held, position) in self.thinking.items():  # in block order, as parse_reply's thinking_item makes
            self.reasoning.append(ReasoningItem("anthropic", encrypted=held, redacted=True, position=position)
                                  if isinstance(held, str) else
                                  ReasoningItem("anthropic", text="".join(held), signature=self.signatures.get(index),
                                                position=position))
        assembly = super().finish()
        searches = self.searches.calls()
        if not searches and self.stop_details is None:
            return assembly
        return assembly._replace(reply=assembly.reply._replace(server_calls=searches, stop_details=self.stop_details))

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            if event.text.startswith("[DONE]"):  # no event: line, skipped ('if sse.event is None'); else sse.json()
                from .core.stream_assembly import done_skipped, done_unreadable

                self.findings.append(done_skipped(event.text, "anthropic 2.14.0 skips an event without its event: "
                                                  "line") if event.name == "message" else done_unreadable(
                    event.text, f"anthropic 2.14.0 parses event {event.name}'s data as JSON and raises"))
            return False
        if event.name == "message" and not self.unnamed:  # no event: line (the SSE default; no Anthropic event's name)
            self.unnamed = True
            from .core.stream_assembly import Finding

            self.findings.append(Finding("stream.framing", "events without their event: line: anthropic 2.14.0 skips "
                                         "them (_streaming.py: 'if sse.event is None: continue'), so its user gets no "
                                         "message"))
        kind = data.get("type", event.name)
        if kind == "content_block_delta":
            index, delta = data.get("index"), data.get("delta")
            if not isinstance(delta, dict):
                return False
            dtype = delta.get("type")
            if dtype == "input_json_delta":
                if self.blocks.get(index, "tool_use") == "tool_use":
                    self.calls.delta(index, delta.get("partial_json"))
                    return True
            elif dtype == "text_delta" and isinstance(delta.get("text"), str):
                self.texts.setdefault(index, []).append(delta["text"])
            elif dtype == "thinking_delta":
                self.count("reasoning_chars", delta.get("thinking"))
                held = self.thinking.get(index)
                if held is not None and isinstance(held[0], list) and isinstance(delta.get("thinking"), str):
                    held[0].append(delta["thinking"])  # the accumulator: content.thinking += event.delta.thinking
            elif dtype == "signature_delta":
                self.extras["signatures"] = self.extras.get("signatures", 0) + 1
                if self.blocks.get(index) == "thinking" and isinstance(delta.get("signature"), str):
                    self.signatures[index] = delta["signature"]  # assigned, as the SDK's accumulator does
        elif kind == "content_block_start":
            index, block = data.get("index"), data.get("content_block")
            if not isinstance(block, dict):
                return False
            self.blocks[index] = block.get("type")
            if block.get("type") == "tool_use":
                call = self.calls.open(index, block.get("id"), block.get("name"))
                call.whole, call.caller = block.get("input"), caller_of(block.get("caller"))
                return True
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"]:
                self.texts.setdefault(index, []).append(block["text"])
            elif block.get("type") == "thinking":
                if isinstance(block.get("signature"), str):
                    self.signatures[index] = block["signature"]  # "" until its signature_delta
                start = block.get("thinking")
                self.thinking[index] = [[start] if isinstance(start, str) and start else [], len(self.calls.by_key)]
            elif block.get("type") == "redacted_thinking" and isinstance(block.get("data"), str):
                self.thinking[index] = [block["data"], len(self.calls.by_key)]  # redacted_thinking_block.py: whole
            elif block.get("type") in ("server_tool_use", "tool_search_tool_result", "mcp_tool_use", "mcp_tool_result"):
                self.searches.add(block)
        elif kind == "message_start":
            message = data.get("message") if isinstance(data.get("message"), dict) else {}
            self._usage(message.get("usage"))
        elif kind == "message_delta":
            delta = data.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("stop_reason"), str):
                self.finish_reason = delta["stop_reason"]
            if isinstance(delta, dict):
                self.stop_details = stop_details(delta) or self.stop_details
            self._usage(data.get("usage"))
        elif kind == "message_stop":
            self.done = True
        elif kind == "error":
            error = data.get("error") if isinstance(data.get("error"), dict) else {}
            etype, message = error.get("type"), error.get("message")
            self.fail(ProviderError(None, etype if isinstance(etype, str) else None,
                                    message if isinstance(message, str) else compact(data)))
        return False

    def _usage(self, usage: Any) -> None:
        """Counts present in ``usage`` replace the ones so far (output_tokens is cumulative)."""
        if isinstance(usage, dict):
            self.usage = Usage(int_or_none(usage.get("input_tokens")) if "input_tokens" in usage
                               else self.usage.input_tokens,
                               int_or_none(usage.get("output_tokens")) if "output_tokens" in usage
                               else self.usage.output_tokens)

    def reply_text(self) -> str | None:
        return join_text(["".join(parts) for index, parts in self.texts.items()
                          if self.blocks.get(index, "text") == "text"])
