"""OpenAI Responses streamed: the events folded into the Reply ``openai_responses.parse_reply`` makes of the final
response object (loaded only when streaming, through ``openai_responses.stream_assembler``)."""

from __future__ import annotations

from typing import Any

from .core import translation
from .core.model import ProviderError, ServerCall, ToolCall
from .core.parsing import StreamAssembler, caller_of, custom_display
from .openai_responses_reply import SERVER_CALLS, _failure, _finish, _usage, parse_reply, server_call

_FINAL_EVENTS = ("response.completed", "response.incomplete", "response.failed")


class ResponsesStreamAssembler(StreamAssembler):
    """Responses API events → the Reply ``parse_reply`` makes of the final response object.

    A call opens with ``response.output_item.added`` (item type ``function_call``: ``call_id``,
    ``name``), its arguments come as ``response.function_call_arguments.delta`` pieces (matched by
    ``item_id``, else ``output_index``), and ``...arguments.done`` / ``output_item.done`` carry the
    whole text; the concatenated pieces are what is decoded, and a differing ``done`` text is a
    finding. Text is ``response.output_text.delta`` and ``response.refusal.delta``; finish reason,
    usage and a failure come from the final ``response.completed|incomplete|failed`` event
    (openai-python ``types/responses/response_stream_event.py``). The reply carries the final
    response's reasoning items (``ResponseReasoningItem``; the proxy follows their ids and encrypted content:
    ``Assembly.handed``) as ``parse_reply`` reads them (id, summary, content text, encrypted_content, the calls
    before each); without a final response, the ones ``response.output_item.done`` carried whole."""

    final_event = "response.completed (or response.incomplete/failed)"
    done_marker = "prefix"  # openai 3.57.0 _streaming.py Stream.__stream__: 'if sse.data.startswith("[DONE]")'

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self._items: dict[str, Any] = {}  # item id -> call key
        self.server: list[ServerCall] = []  # mcp_call / mcp_approval_request / program items, when done
        self._custom: dict[Any, list[Any]] = {}  # custom_tool_call key -> [call id, name, input pieces, deltas]
        self._final: list[Any] = []  # the final event's response.output (what the SDK returns as the reply)
        self._reasoned: list[Any] = []  # output items, done, up to each reasoning item (for its position)

    def finish(self) -> Any:
        assembly = super().finish()
        calls, deltas, findings = list(assembly.reply.tool_calls), list(assembly.deltas), assembly.findings
        if self._custom:  # in output order with the function calls (keys are output_index when the events give it)
            keys = [*self.calls.by_key, *self._custom]
            calls += [ToolCall(cid, name or "", None, input="".join(parts), **custom_display("".join(parts)))
                      for cid, name, parts, _ in self._custom.values()]
            deltas += [count for *_, count in self._custom.values()]
            order = sorted(range(len(keys)), key=lambda i: (not isinstance(keys[i], int), keys[i]
                                                            if isinstance(keys[i], int) else 0, i))
            calls, deltas = [calls[i] for i in order], [deltas[i] for i in order]
        whole = self._final_reply()
        final = list(whole.tool_calls)
        if final and _shown(final) != _shown(calls):
            if calls:  # openai-python's get_final_response() returns the final object: its calls are the reply
                from .core.stream_assembly import Finding

                findings += (Finding("stream.final_mismatch", f"the deltas made {repr(_shown(calls))[:160]} but the "
                                     f"final response lists {repr(_shown(final))[:160]}; the final response is kept"),)
            calls, deltas = final, [0] * len(final)
        reply = assembly.reply._replace(tool_calls=tuple(calls), reasoning=whole.reasoning or self._reasoning())
        if self.server:
            reply = reply._replace(server_calls=tuple(self.server))
        return assembly._replace(reply=reply, deltas=tuple(deltas), findings=findings)

    def _final_reply(self) -> Any:
        """The final response's output as ``parse_reply`` reads it (its calls and reasoning items: what
        ``get_final_response()`` returns); an empty Reply when there is none or it cannot be read."""
        from .core.model import Reply

        try:
            return parse_reply(self.provider, {"output": self._final}) if self._final else Reply()
        except Exception:  # noqa: BLE001 - a final object that cannot be read leaves the deltas as the reply
            return Reply()

    def _reasoning(self) -> tuple[Any, ...]:
        """Without a final response: the reasoning items ``response.output_item.done`` carried whole
        (``ResponseOutputItemDoneEvent.item``), read as ``parse_reply`` reads them."""
        try:
            return parse_reply(self.provider, {"output": self._reasoned}).reasoning if self._reasoned else ()
        except Exception:  # noqa: BLE001 - an item that cannot be read is left out
            return ()

    def _key(self, data: dict[str, Any]) -> Any:
        item_id = data.get("item_id")
        if isinstance(item_id, str) and item_id in self._items:
            return self._items[item_id]
        return data.get("output_index", item_id)

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            return False
        kind = data.get("type", event.name)
        if kind == "response.function_call_arguments.delta":
            self.calls.delta(self._key(data), data.get("delta"))
            return True
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            if isinstance(data.get("delta"), str):
                self.text.append(data["delta"])
        elif kind == "response.output_item.added":
            item = data.get("item")
            if isinstance(item, dict) and item.get("type") == "custom_tool_call":
                key = data.get("output_index", item.get("id"))
                if isinstance(item.get("id"), str):
                    self._items[item["id"]] = key
                self._custom[key] = [item.get("call_id", item.get("id")), item.get("name"), [], 0]
                return True
            if isinstance(item, dict) and item.get("type") == "function_call":
                key = data.get("output_index", item.get("id"))
                if isinstance(item.get("id"), str):
                    self._items[item["id"]] = key
                call = self.calls.open(key, item.get("call_id"), item.get("name"))
                call.caller = caller_of(item.get("caller"))
                if isinstance(item.get("arguments"), str) and item["arguments"]:
                    call.parts.append(item["arguments"])
                return True
        elif kind == "response.custom_tool_call_input.delta":
            return self._custom_piece(self._key(data), data.get("delta"))
        elif kind in ("response.function_call_arguments.done", "response.output_item.done",
                      "response.custom_tool_call_input.done"):
            self._done(kind, data)
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            self.count("reasoning_chars", data.get("delta"))
        elif kind in _FINAL_EVENTS:
            final = data.get("response") if isinstance(data.get("response"), dict) else {}
            self._final = final.get("output") if isinstance(final.get("output"), list) else []
            self.done = True
            self.finish_reason, self.usage = _finish(final), _usage(final.get("usage"))
            self.error = _failure(final.get("error")) or self.error
        elif kind == "error":
            code, message = data.get("code"), data.get("message")
            self.fail(ProviderError(None, code if isinstance(code, str) else None,
                                    message if isinstance(message, str) else translation.compact(data)))
        return False

    def _custom_piece(self, key: Any, text: Any) -> bool:
        """A custom tool call's input delta (its call opened by output_item.added, else a finding)."""
        if key not in self._custom:
            from .core.stream_assembly import Finding

            self.findings.append(Finding("stream.unknown_index", f"an input delta for call {key}, which no start event "
                                         "opened; kept as its own call"))
            self._custom[key] = [None, None, [], 0]
        call = self._custom[key]
        if isinstance(text, str):
            call[2].append(text)
        call[3] += 1
        return True

    def _done(self, kind: str, data: dict[str, Any]) -> None:
        item = data.get("item")
        if kind == "response.output_item.done" and isinstance(item, dict) and item.get("type") in (
                "reasoning", "function_call", "custom_tool_call"):
            self._reasoned.append(item)
        custom = self._custom.get(self._key(data) if kind.startswith("response.custom") else
                                  data.get("output_index", item.get("id") if isinstance(item, dict) else None))
        if custom is not None:  # a custom tool call's whole input: kept when no piece came
            whole = data.get("input") if kind.startswith("response.custom") else (item or {}).get("input")
            if isinstance(whole, str) and not custom[2]:
                custom[2].append(whole)
            return
        if kind == "response.output_item.done":
            if isinstance(item, dict) and item.get("type") in SERVER_CALLS:
                self.server.append(server_call(item))  # the done event carries the whole item
                return
            if not isinstance(item, dict) or item.get("type") != "function_call":
                return
            key = data.get("output_index", item.get("id"))
            call = self.calls.open(key, item.get("call_id"), item.get("name"))
            whole = item.get("arguments")
        else:
            call = self.calls.by_key.get(self._key(data))
            whole = data.get("arguments")
        if call is None or not isinstance(whole, str):
            return
        if not call.parts:
            call.parts.append(whole)
        elif "".join(call.parts) != whole:
            from .core.stream_assembly import Finding

            self.findings.append(Finding("stream.arguments_mismatch", f"call {call.key}: the argument deltas join "
                                         f"to {''.join(call.parts)[:80]!r} but {kind} says {whole[:80]!r}; the "
                                         "deltas are kept"))


def _shown(calls: Any) -> list[tuple[Any, ...]]:
    """Calls as (id, name, arguments or input) to compare the deltas' calls with the final response's."""
    return [(c.id, c.name, c.input if c.is_custom else (c.arguments if c.arguments is not None else c.raw_arguments))
            for c in calls]
