"""A stream's reasoning state has one record: its reply's (``Reply.reasoning``, calls' signatures), which the proxy
reads as it reads a whole answer's (``call_origins.reply_reasoning``; ``Assembly.handed`` is that reading, no list of
its own). So whatever state a stream hands out that a client sends back must be in the reply.

Gemini may end a stream with a chunk whose one part holds the thoughtSignature alone, no text (a text answer's
signature coming last); google-genai keeps that part as it came (``types.Part.thought_signature``, text None), so a
client sends it back. Truth from outside: google-genai's own ``GenerateContentResponse`` reading each chunk's JSON.
"""

from __future__ import annotations

import json

SIGNATURE = "EjQKMgEMOdbHAbc="  # base64, as the API writes a thoughtSignature (google-genai reads it to bytes)


def test_a_gemini_streams_signature_on_a_part_of_its_own_is_in_the_reply_and_followed() -> None:
    from google.genai import types

    from toolchoice.providers.core.mock.call_origins import CallOrigins, Sent, reply_reasoning
    from toolchoice.providers.core.model import Message, ReasoningItem
    from toolchoice.providers.core.stream_framing import Event
    from toolchoice.providers.core.streaming import assembler_for

    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}]}, "index": 0}]},
              {"candidates": [{"content": {"role": "model", "parts": [{"thoughtSignature": SIGNATURE}]},
                               "finishReason": "STOP", "index": 0}]}]
    parts = [part for chunk in chunks
             for part in types.GenerateContentResponse.model_validate_json(json.dumps(chunk)).candidates[0].content.parts]
    assert parts[1].text is None and parts[1].thought_signature  # the SDK keeps the part: a client sends it back
    sent = types.Content(role="model", parts=parts).model_dump(mode="json", exclude_none=True, by_alias=True)
    assert sent["parts"][1] == {"thoughtSignature": SIGNATURE}
    assembler = assembler_for("gemini")[1]
    for chunk in chunks:
        assembler.feed(Event("message", chunk, json.dumps(chunk)))
    assembly = assembler.finish()
    reply = assembly.reply
    assert reply.text == "Sunny." and not assembly.findings
    assert [(item.signature, item.text, item.position) for item in reply.reasoning] == [(SIGNATURE, None, 0)]
    assert assembly.handed == tuple(reply_reasoning(reply)) == (SIGNATURE,)
    # the proxy remembers it with its request and follows a turn that sends it back (on the answer's text part, where
    # a client that keeps one signature per text answer puts it, as run --stream's history does)
    origins = CallOrigins()
    origins.made(1, [], reasoning=reply_reasoning(reply))
    history = (Message("user", "Weather in Paris?"),
               Message("assistant", "Sunny.", reasoning=(ReasoningItem("gemini", signature=SIGNATURE),)),
               Message("user", "And tomorrow?"))
    assert origins.reasoning_from(Sent(history)) == [1]
