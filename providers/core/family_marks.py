"""What a provider's row declares for the shared path to read without importing the family's module: light data
(``Capability.marks``), no imports. The shared modules name no family: they read these from the rows
(``capabilities.CAPABILITIES``), in the rows' order, so a new family's marks are its row's.

- ``settings``: the ``providers.<id>`` settings only this provider reads (``translation.start``: written under
  another provider they do nothing, ledger ``settings.unread``).
- ``traced``: how a call a trace files under another row's provider name is this row's API (``trace_import``).
- ``reasoning_refusals``: words of the API's error saying the request lacks reasoning state it needs back
  (``verdict.reasoning_refusal``: ``request_error``, the request's problem, not the model's).
- ``finishes``: finish reasons of the API the verdict says something of (``verdict``).
- ``pasted``: the API's own forms of a system prompt or a message, pasted into a scenario (``scenario_messages``:
  said as what they are, with the way to write them).

Beside the rows, ``SSE_SDKS``: how the official SDKs of some rows read the end of an SSE stream (``stream_framing``'s
notes on a stream that ends oddly compare them).
"""

from __future__ import annotations

from typing import NamedTuple


class Traced(NamedTuple):
    """A traced call that is this row's API though the trace names ``recorded_as``'s provider: its request has
    ``request_key`` and not ``not_key``, or its recorded reply's ``object`` is ``reply_object``."""
    recorded_as: str
    request_key: str
    not_key: str
    reply_object: str


class Finish(NamedTuple):
    """A finish reason the verdict speaks of: ``said`` follows "finish reason <reason>: "; ``request_error``: the
    request's problem (the verdict's ``request_error``), else a reason beside the verdict."""
    reason: str
    said: str
    request_error: bool = False


class Pasted(NamedTuple):
    """The API's own forms a scenario may have pasted: ``name`` says whose; ``system_form``: its system prompt's form
    written as ``system:`` (``"parts"``: ``{parts: [...]}``, ``"blocks"``: a list of content blocks);
    ``system_keys``: its request's top-level key for the system prompt written at a scenario's top;
    ``message_parts``: a message written with its ``parts`` (its contents' form); ``roles``: its role words → ours
    (role, ours, and whose word where that is not ``name``); ``call_wrapper``: the key an assistant's tool call nests
    its name and arguments under, and ``call_form``: that call's shape in words."""
    name: str
    system_form: str = ""
    system_keys: tuple[str, ...] = ()
    message_parts: bool = False
    roles: tuple[tuple[str, ...], ...] = ()
    call_wrapper: str = ""
    call_form: str = ""


class Marks(NamedTuple):
    settings: tuple[str, ...] = ()
    traced: Traced | None = None
    reasoning_refusals: tuple[str, ...] = ()
    finishes: tuple[Finish, ...] = ()
    pasted: Pasted | None = None


NONE = Marks()


class SseSdk(NamedTuple):
    """How ``provider``'s official SDK (the package ``name``) reads the end of an SSE stream, as its source has it:
    ``done``, at ``data: [DONE]`` it stops where the data starts with it ("prefix"), is exactly it ("exact"), or never
    looks (None: the family's assembler's ``done_marker`` is the same); ``reads_last_event``: an event the stream ends
    inside (no blank line after it) is read, where the SSE spec drops it."""
    provider: str
    name: str
    done: str | None
    reads_last_event: bool


# in the rows' order; the sources, as each family's stream assembler cites them for its done_marker
SSE_SDKS = (
    SseSdk("openai", "openai", "prefix", False),  # openai 3.57.0 openai/_streaming.py SSEDecoder, Stream.__stream__
    SseSdk("anthropic", "anthropic", None, False),  # anthropic 2.14.0 _streaming.py Stream.__stream__
    SseSdk("gemini", "google-genai", None, True),  # google-genai 3.6.1 _api_client.py _iter_response_stream
    SseSdk("mistral", "mistralai", "exact", True),  # mistralai 3.7.0 client/utils/eventstreaming.py _parse_event
    # the other Stainless SDKs: the same Stream.__stream__ and SSEDecoder as openai's, in each one's _streaming.py
    SseSdk("groq", "groq", "prefix", False),  # groq 1.7.0 groq/_streaming.py
    SseSdk("cohere", "cohere", "exact", False),  # cohere 7.3.1 v2/raw_client.py chat_stream
    SseSdk("fireworks", "fireworks-ai", "prefix", False),  # fireworks-ai 1.2.30 fireworks/_streaming.py
    SseSdk("together", "together", "prefix", False),  # together 3.1.1 together/_streaming.py
    SseSdk("cerebras", "cerebras-cloud-sdk", "prefix", False),  # 1.91.0 cerebras/cloud/sdk/_streaming.py
    SseSdk("sambanova", "sambanova", "prefix", False),  # sambanova 1.13.0 sambanova/_streaming.py
)
