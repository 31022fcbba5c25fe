"""`run --stream` continues a thinking model's tool loop as `run` does (found by trial15m).

A streamed reply carried no reasoning state, so a streamed loop's second request left the thinking out: toolchoice
itself refused Anthropic's (``thinking.tool_history``, exit 3) and the other families' went out without the state their
APIs want back. Each family's stream assembler now fills the reply's reasoning (``Reply.reasoning``, Gemini's call
signatures) as its ``parse_reply`` fills it from the whole reply.

Truth from outside the code: the non-streamed path, whose request bodies are held by recorded bodies already — step 2's
request body of ``run --stream`` must be byte-identical to ``run``'s against the same answers (the mock on 127.0.0.1,
in-process; a fresh mock per run, as the mock numbers its answers' ids and signatures by request). DeepSeek's
``reasoning_content`` (which the mock does not hand out) is checked against a stand-in serving a recorded
deepseek-reasoner body whole and as the chunks DeepSeek's guide describes (``delta.reasoning_content`` pieces, then
``delta.tool_calls``; api-docs.deepseek.com/api_samples/thinking_mode_api_example_streaming). The assemblers' reasoning against the official
SDKs' own stream accumulators is in tests/test_proxy_streamed_thinking.py (anthropic-python ``accumulate_event``,
botocore's event parser) and below (openai-python's ``ResponseStreamState``, google-genai's parts).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import yaml

from streams import Script, StreamServer, ndjson, paced, sse

from cli import run_cli
from test_schemas_and_vocabulary import validate
from toolchoice.providers.core.mock.server import running_mock

TOOLS = [{"name": "get_weather", "description": "Weather for a city.",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]

# family -> (model settings, what step 2's body must carry back: a test that cannot pass without the reasoning)
FAMILIES: dict[str, tuple[dict[str, Any], Any]] = {
    "anthropic": ({"model": "claude-sonnet-4-6", "max_tokens": 4096, "thinking": True},
                  lambda b: b["messages"][1]["content"][0]["type"] == "thinking"
                  and b["messages"][1]["content"][0]["signature"]),
    "bedrock": ({"model": "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "thinking": True},
                lambda b: b["messages"][1]["content"][0]["reasoningContent"]["reasoningText"]["signature"]),
    "gemini": ({"model": "gemini-3-pro-preview", "thinking": True},
               lambda b: b["contents"][1]["parts"][0]["thoughtSignature"]),
    "openai-responses": ({"model": "gpt-5", "thinking": {"effort": "low"}},
                         lambda b: b["input"][1]["type"] == "reasoning" and b["input"][1]["encrypted_content"]),
    "ollama": ({"model": "qwen3", "thinking": True}, lambda b: b["messages"][1]["thinking"]),
}


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1", ANTHROPIC_API_KEY="x", OPENAI_API_KEY="x",
               GEMINI_API_KEY="x", DEEPSEEK_API_KEY="x", AWS_BEARER_TOKEN_BEDROCK="x", AWS_REGION="us-east-1")
    return out


def scenario(tmp_path: Any, provider: str, settings: dict[str, Any], tools: list[dict[str, Any]] = TOOLS) -> str:
    path = tmp_path / f"{provider}.yaml"
    path.write_text(yaml.safe_dump({"tools": tools, "tool_choice": "auto",
                                    "messages": [{"role": "user", "content": "Weather in Paris?"}],
                                    "providers": {provider: settings},
                                    "loop": {"max_steps": 3, "results": {tools[0]["name"]: "sunny"}}}, sort_keys=False))
    return str(path)


def steps(result: Any) -> list[dict[str, Any]]:
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    return json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]


def body(step: dict[str, Any]) -> bytes:
    """The request body as sent, but the field that asks for a stream (the one way the two runs' bodies differ)."""
    sent = {k: v for k, v in step["request"]["body"].items() if k not in ("stream", "stream_options")}
    return json.dumps(sent, sort_keys=False, ensure_ascii=False).encode()


def codes(step: dict[str, Any]) -> list[str]:
    """The step's ledger codes, but the ones only a stream has (stream.requested)."""
    return [entry["code"] for entry in step["ledger"] if not entry["code"].startswith("stream.")]


def run_against_mock(path: str, provider: str, *stream: str) -> list[dict[str, Any]]:
    with running_mock(provider) as mock:  # one per run: the mock numbers its answers' ids and signatures
        return steps(run_cli(["run", path, "-p", provider, "--base-url", mock.base_url, "--gateway", "--retries", "0",
                              "-f", "json", *stream], env=env()))


@pytest.mark.parametrize("provider", list(FAMILIES))
def test_run_stream_sends_step_2_as_run_does(tmp_path: Any, provider: str) -> None:
    settings, carried = FAMILIES[provider]
    path = scenario(tmp_path, provider, settings)
    whole, streamed = run_against_mock(path, provider), run_against_mock(path, provider, "--stream")
    assert len(whole) == len(streamed) == 2
    assert streamed[1]["request"]["body"].get("stream") is not False or provider == "ollama"
    assert carried(whole[1]["request"]["body"])  # the reasoning goes back (a test that cannot pass without it)
    assert body(streamed[1]) == body(whole[1])
    assert codes(streamed[1]) == codes(whole[1]) and "thinking.tool_history" not in codes(streamed[1])


def test_send_stream_json_shows_the_reasoning_send_shows(tmp_path: Any) -> None:
    """`send --stream -f json`'s reply holds the thinking (text, signature) `send -f json`'s holds."""
    settings, _ = FAMILIES["anthropic"]
    path = scenario(tmp_path, "anthropic", settings)
    replies, documents = [], []
    for stream in ((), ("--stream",)):
        with running_mock("anthropic") as mock:
            result = run_cli(["send", path, "-p", "anthropic", "--base-url", mock.base_url, "--gateway", "--retries", "0",
                              "-f", "json", *stream], env=env())
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        documents.append(document)
        replies.append(document["runs"][0]["reply"] if "runs" in document else document["reply"])
    assert replies[1]["reasoning"] == replies[0]["reasoning"]
    assert replies[0]["reasoning"][0]["signature"] and replies[0]["reasoning"][0]["text"]
    validate(documents[1], "send")  # the schema send -f json documents already hold the reasoning under


# ---- DeepSeek thinking mode: reasoning_content ------------------------------------------------------------------

RECORDED = os.path.join(os.path.dirname(__file__), "data", "responses", "reasoning", "deepseek-reasoner-tool-call.json")


def deepseek_answers() -> tuple[list[Script], list[Script]]:
    """The recorded deepseek-reasoner tool call and a text answer, whole and as chunks."""
    with open(RECORDED, encoding="utf-8") as f:
        whole = json.load(f)
    message = whole["choices"][0]["message"]
    call = message["tool_calls"][0]
    thought = message["reasoning_content"]
    base = {"id": whole["id"], "object": "chat.completion.chunk", "created": whole["created"], "model": whole["model"]}

    def chunk(delta: dict[str, Any], finish: Any = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    cut = [thought[:40], thought[40:120], thought[120:]]
    chunks = [chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
              *(chunk({"content": None, "reasoning_content": piece}) for piece in cut),
              chunk({"content": "", "reasoning_content": None}),
              chunk({"tool_calls": [{"index": 0, "id": call["id"], "type": "function",
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]}),
              chunk({"tool_calls": [{"index": 0, "function": {"arguments": call["function"]["arguments"]}}]}),
              chunk({"content": None}, "tool_calls"),
              {**base, "choices": [], "usage": whole["usage"]}]
    text = {**whole, "choices": [{"index": 0, "message": {"role": "assistant", "content": "Sunny.",
                                                          "reasoning_content": "It is sunny."},
                                  "logprobs": None, "finish_reason": "stop"}]}
    text_chunks = [chunk({"role": "assistant", "content": None, "reasoning_content": "It is sunny."}),
                   chunk({"content": "Sunny.", "reasoning_content": None}), chunk({"content": ""}, "stop")]
    json_script = [Script(paced(json.dumps(b).encode(), 1 << 16, 0.0), content_type="application/json")
                   for b in (whole, text)]
    sse_script = [Script(paced(sse(c, done=True), 1 << 16, 0.0)) for c in (chunks, text_chunks)]
    return json_script, sse_script


def test_deepseek_reasoning_content_goes_back_from_a_streamed_loop(tmp_path: Any) -> None:
    weather = [{"name": "weather", "description": "Weather for a location.", "parameters": {  # the recorded call's
        "type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}]
    path = scenario(tmp_path, "deepseek", {"model": "deepseek-v4-flash", "thinking": True}, weather)
    whole_scripts, stream_scripts = deepseek_answers()
    got = []
    for scripts, stream in ((whole_scripts, ()), (stream_scripts, ("--stream",))):
        with StreamServer(*scripts) as server:
            got.append(steps(run_cli(["run", path, "-p", "deepseek", "--base-url", server.url, "--gateway",
                                      "--retries", "0", "-f", "json", *stream], env=env())))
    whole, streamed = got
    assert whole[1]["request"]["body"]["messages"][1]["reasoning_content"].startswith("The user is asking")
    assert body(streamed[1]) == body(whole[1])


# ---- Ollama: thinking pieces ------------------------------------------------------------------------------------

def test_ollama_streamed_thinking_is_the_whole_replys() -> None:
    """ollama api/types.go ChatResponse lines: message.thinking pieces, then the call, then done."""
    from toolchoice.providers import ollama
    from toolchoice.providers.core.stream_framing import Event

    lines = [{"model": "qwen3", "message": {"role": "assistant", "content": "", "thinking": piece}, "done": False}
             for piece in ("The user ", "wants Paris.")]
    lines.append({"model": "qwen3", "message": {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, "done": False})
    lines.append({"model": "qwen3", "message": {"role": "assistant", "content": ""}, "done": True,
                  "done_reason": "stop", "prompt_eval_count": 5, "eval_count": 7})
    assembler = ollama.stream_assembler("ollama")
    for line in lines:
        assembler.feed(Event("message", line, json.dumps(line)))
    whole = ollama.parse_reply("ollama", {"model": "qwen3", "message": {
        "role": "assistant", "content": "", "thinking": "The user wants Paris.", "tool_calls": lines[2]["message"][
            "tool_calls"]}, "done": True, "done_reason": "stop", "prompt_eval_count": 5, "eval_count": 7})
    assert assembler.finish().reply.reasoning == whole.reasoning and whole.reasoning[0].text == "The user wants Paris."
    assert ndjson(lines)  # the framing the stand-ins write (tests/streams.py)


# ---- the Responses API: openai-python's stream state as truth ---------------------------------------------------

def test_responses_streamed_reasoning_is_what_openai_pythons_stream_state_completes() -> None:
    """Events shaped as openai-python 3.57.0 types them (``ResponseOutputItemAddedEvent``/``DoneEvent`` whose item is a
    ``ResponseReasoningItem {id, summary, content, encrypted_content}``, a function call, ``ResponseCompletedEvent``)
    folded by the SDK's ``ResponseStreamState`` (what ``responses.stream(...).get_final_response()`` returns) and by
    the assembler: the reply's reasoning is what ``parse_reply`` reads of the SDK's final response — and, without the
    final event, what the done items carried."""
    from openai._models import construct_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    from toolchoice.providers import openai_responses
    from toolchoice.providers.core.stream_framing import Event

    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Look it up."}],
                 "encrypted_content": "gAAAAABpZ2VuY3J5cHRlZA=="}
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
            "arguments": '{"city":"Paris"}', "status": "completed"}
    response = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5", "status": "completed",
                "output": [reasoning, call], "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                "usage": {"input_tokens": 5, "output_tokens": 7, "total_tokens": 12,
                          "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 4}}}
    events = [
        {"type": "response.created", "sequence_number": 0, "response": {**response, "status": "in_progress",
                                                                        "output": [], "usage": None}},
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0,
         "item": {**reasoning, "summary": [], "encrypted_content": None}},
        {"type": "response.reasoning_summary_text.delta", "sequence_number": 2, "item_id": "rs_1", "output_index": 0,
         "summary_index": 0, "delta": "Look it up."},
        {"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": reasoning},
        {"type": "response.output_item.added", "sequence_number": 4, "output_index": 1,
         "item": {**call, "arguments": "", "status": "in_progress"}},
        {"type": "response.function_call_arguments.delta", "sequence_number": 5, "item_id": "fc_1", "output_index": 1,
         "delta": '{"city":"Paris"}'},
        {"type": "response.output_item.done", "sequence_number": 6, "output_index": 1, "item": call},
        {"type": "response.completed", "sequence_number": 7, "response": response},
    ]
    state = ResponseStreamState(input_tools=[], text_format=None)  # type: ignore[arg-type]
    for cut in (len(events), len(events) - 1):  # with the final event, and cut before it
        assembler = openai_responses.stream_assembler("openai-responses")
        for data in events[:cut]:
            if cut == len(events):
                state.handle_event(construct_type(type_=ResponseStreamEvent, value=data))
            assembler.feed(Event(data["type"], data, json.dumps(data)))
        reply = assembler.finish().reply
        final = state._completed_response
        assert final is not None and [item.type for item in final.output] == ["reasoning", "function_call"]
        whole = openai_responses.parse_reply("openai-responses", final.model_dump(mode="json"))
        assert reply.reasoning == whole.reasoning and reply.tool_calls == whole.tool_calls
        assert [(i.id, i.summary, i.encrypted, i.position) for i in reply.reasoning] == [
            ("rs_1", ("Look it up.",), "gAAAAABpZ2VuY3J5cHRlZA==", 0)]


# ---- Gemini: google-genai's types as truth ----------------------------------------------------------------------

def test_gemini_streamed_signatures_are_the_whole_replys() -> None:
    """Chunks made with google-genai 3.6.1's own types (``types.Part.thought_signature``: bytes, base64 on the wire):
    a thought over two chunks, then a signed ``functionCall`` part; the reply carries what ``parse_reply`` reads of the
    same parts in one body (the thought once, the call with its signature)."""
    from google.genai import types

    from toolchoice.providers import gemini
    from toolchoice.providers.core.stream_framing import Event

    def chunk(*parts: types.Part, finish: str | None = None) -> dict[str, Any]:
        candidate = types.Candidate(content=types.Content(role="model", parts=list(parts)), index=0,
                                    finish_reason=finish)
        return types.GenerateContentResponse(candidates=[candidate]).model_dump(mode="json", by_alias=True,
                                                                                exclude_none=True)

    signed = types.Part(function_call=types.FunctionCall(name="get_weather", args={"city": "Paris"}),
                        thought_signature=b"\x12\x34signed")
    chunks = [chunk(types.Part(text="The user ", thought=True)), chunk(types.Part(text="wants Paris.", thought=True)),
              chunk(signed, finish="STOP")]
    assembler = gemini.stream_assembler("gemini")
    for data in chunks:
        assembler.feed(Event("message", data, json.dumps(data)))
    reply = assembler.finish().reply
    whole = gemini.parse_reply("gemini", chunk(types.Part(text="The user wants Paris.", thought=True), signed,
                                               finish="STOP"))
    assert reply.reasoning == whole.reasoning and reply.tool_calls == whole.tool_calls
    assert reply.tool_calls[0].signature == chunks[2]["candidates"][0]["content"]["parts"][0]["thoughtSignature"]


# ---- Cohere: thinking content -----------------------------------------------------------------------------------

def test_cohere_streamed_thinking_is_the_whole_replys() -> None:
    """cohere-python 7.3.1's own stream types (``ChatContentStartEventDeltaMessageContent {thinking, text, type}``,
    ``ChatContentDeltaEventDeltaMessageContent {thinking, text}``): a thinking content streamed in pieces is the one
    ``thinking`` item ``parse_reply`` reads of the whole message."""
    from cohere import types

    from toolchoice.providers import cohere
    from toolchoice.providers.core.stream_framing import Event

    def start(index: int, kind: str) -> Any:
        return types.ChatContentStartEvent(type="content-start", index=index, delta=types.ChatContentStartEventDelta(
            message=types.ChatContentStartEventDeltaMessage(content=types.ChatContentStartEventDeltaMessageContent(
                type=kind, **{kind: ""}))))

    def delta(index: int, **content: str) -> Any:
        return types.ChatContentDeltaEvent(type="content-delta", index=index, delta=types.ChatContentDeltaEventDelta(
            message=types.ChatContentDeltaEventDeltaMessage(content=types.ChatContentDeltaEventDeltaMessageContent(
                **content))))

    events = [start(0, "thinking"), delta(0, thinking="Paris is "), delta(0, thinking="in France."),
              start(1, "text"), delta(1, text="Sunny."),
              types.ChatMessageEndEvent(type="message-end", delta=types.ChatMessageEndEventDelta(finish_reason="COMPLETE"))]
    assembler = cohere.stream_assembler("cohere")
    for event in events:
        data = event.model_dump(mode="json", exclude_none=True)
        assembler.feed(Event(data["type"], data, json.dumps(data)))
    reply = assembler.finish().reply
    whole = cohere.parse_reply("cohere", {"message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Paris is in France."}, {"type": "text", "text": "Sunny."}]},
        "finish_reason": "COMPLETE"})
    assert reply.reasoning == whole.reasoning and whole.reasoning[0].text == "Paris is in France."
    assert reply.text == whole.text == "Sunny."


# ---- Anthropic: MessageStream.get_final_message() as truth --------------------------------------------------------

def test_anthropic_streamed_reasoning_is_what_message_stream_returns(tmp_path: Any) -> None:
    """anthropic-python 2.14.0's ``messages.stream(...).get_final_message()`` against the mock, and ``send --stream``
    against a fresh mock (the same first answer): the reply's reasoning is the final message's thinking blocks, text
    and signature, as ``parse_reply`` reads that message."""
    from anthropic import Anthropic

    from toolchoice.providers import anthropic

    settings, _ = FAMILIES["anthropic"]
    with running_mock("anthropic") as mock:
        with Anthropic(base_url=mock.base_url, api_key="x", max_retries=0) as client:
            with client.messages.stream(model=settings["model"], max_tokens=4096,
                                        thinking={"type": "enabled", "budget_tokens": 1024},
                                        tools=[{"name": t["name"], "description": t["description"],
                                                "input_schema": t["parameters"]} for t in TOOLS],
                                        messages=[{"role": "user", "content": "Weather in Paris?"}]) as stream:
                final = stream.get_final_message()
    with running_mock("anthropic") as mock:
        result = run_cli(["send", scenario(tmp_path, "anthropic", settings), "-p", "anthropic", "--base-url",
                          mock.base_url, "--gateway", "--retries", "0", "--stream", "-f", "json"], env=env())
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    reply = document["runs"][0]["reply"] if "runs" in document else document["reply"]
    blocks = [block for block in final.content if block.type == "thinking"]
    assert blocks and [(item["text"], item["signature"]) for item in reply["reasoning"]] == [
        (block.thinking, block.signature) for block in blocks]
    assert reply["reasoning"] == anthropic.parse_reply("anthropic", final.model_dump(mode="json")).to_json()["reasoning"]
