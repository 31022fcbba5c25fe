"""HTTP Archives (HAR 1.2) of what the official SDKs put on the wire, as a debugging proxy between an app and the API
saves them: each SDK keeps its own default base URL (https://api.openai.com/v1, https://api.anthropic.com,
https://generativelanguage.googleapis.com) and is given an httpx transport (``Forward``) that passes every request,
as the SDK built it, to `toolchoice mock` on 127.0.0.1 and keeps the exchange: the request's method, URL, headers
(the key in clear, as a HAR holds it) and body, and the mock's answer (SSE streams as their text).

The HAR is written as the spec lays out its objects (HAR 1.2, Jan Odvarko; the text at github.com/ahmadnassri/har-spec
versions/1.2.md, read 2026-11-27): ``log`` {``version``, ``creator``, ``entries``}, each entry ``startedDateTime``,
``time``, ``request`` {``method``, ``url``, ``httpVersion``, ``cookies``, ``headers``, ``queryString``, ``postData``
{``mimeType``, ``text``}, ``headersSize``, ``bodySize``}, ``response`` {``status``, ``statusText``, ``httpVersion``,
``cookies``, ``headers``, ``content`` {``size``, ``mimeType``, ``text``}, ``redirectURL``, ``headersSize``,
``bodySize``}, ``cache``, ``timings`` {``send``, ``wait``, ``receive``}; -1 where a size is not known, as the spec
allows. No pip-installable HAR writer runs here (mitmproxy 12 needs Python 3.12; Playwright's ``record_har_path``
records a browser's traffic, not an SDK's): tests/test_trace_har.py writes them in-process with this module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

try:  # the transport the SDKs' own clients are made of (anthropic 2.x refuses an httpx.Client: it uses httpx2)
    import httpx2 as httpx
except ImportError:  # pragma: no cover - SDKs of before httpx2
    import httpx  # type: ignore[no-redef]

# the same conversation and tools as the saves' recorder, so a HAR's call reads as the saved request does
from saved_recorder import ANTHROPIC_TOOLS, OPENAI_TOOLS, QUESTION, RESULT, SYSTEM, TIME, WEATHER  # noqa: E402,F401


class Exchange(NamedTuple):
    request: httpx.Request
    body: bytes
    status: int
    headers: httpx.Headers
    content: bytes


class Forward(httpx.BaseTransport):
    """Each request the SDK sends, at the URL it built, answered by the mock at ``target`` (http://127.0.0.1:PORT)."""

    def __init__(self, target: str, exchanges: list[Exchange]) -> None:
        self.target = httpx.URL(target)
        self.exchanges = exchanges
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        url = request.url.copy_with(scheme=self.target.scheme, host=self.target.host, port=self.target.port)
        headers = [(k, v) for k, v in request.headers.multi_items() if k.lower() != "host"]
        answer = self.inner.handle_request(httpx.Request(request.method, url, headers=headers, content=body))
        content = answer.read()
        answer.close()
        kept = [(k, v) for k, v in answer.headers.multi_items() if k.lower() not in ("content-encoding", "content-length")]
        self.exchanges.append(Exchange(request, body, answer.status_code, httpx.Headers(kept), content))
        return httpx.Response(answer.status_code, headers=kept, content=content)

    def close(self) -> None:
        self.inner.close()


def _pairs(items: Any) -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in items]


def har_entry(exchange: Exchange, number: int) -> dict[str, Any]:
    """One HAR 1.2 entry of the exchange."""
    request, status = exchange.request, exchange.status
    mime = exchange.headers.get("content-type", "")
    text = exchange.content.decode("utf-8")
    entry: dict[str, Any] = {
        "startedDateTime": f"2026-11-27T21:00:{number:02d}.000Z", "time": 1,
        "request": {"method": request.method, "url": str(request.url), "httpVersion": "HTTP/1.1", "cookies": [],
                    "headers": _pairs(request.headers.multi_items()),
                    "queryString": _pairs(request.url.params.multi_items()), "headersSize": -1,
                    "bodySize": len(exchange.body)},
        "response": {"status": status, "statusText": httpx.codes.get_reason_phrase(status), "httpVersion": "HTTP/1.1",
                     "cookies": [], "headers": _pairs(exchange.headers.multi_items()),
                     "content": {"size": len(exchange.content), "mimeType": mime, "text": text},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(exchange.content)},
        "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
    if exchange.body:
        entry["request"]["postData"] = {"mimeType": request.headers.get("content-type", ""),
                                        "text": exchange.body.decode("utf-8")}
    return entry


def har(exchanges: list[Exchange], pages: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    entries = [har_entry(e, n) for n, e in enumerate(exchanges)]
    return {"log": {"version": "1.2", "creator": {"name": "toolchoice tests/har_recorder.py", "version": "1"},
                    "entries": [*pages, *entries]}}


def page_entry(url: str) -> dict[str, Any]:
    """An entry that is no API call (the app's page), as a browser records one."""
    return {"startedDateTime": "2026-11-27T20:59:59.000Z", "time": 1,
            "request": {"method": "GET", "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                        "headers": [{"name": "Accept", "value": "text/html"}], "queryString": [], "headersSize": -1,
                        "bodySize": 0},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": 15, "mimeType": "text/html", "text": "<html></html>\n"},
                         "redirectURL": "", "headersSize": -1, "bodySize": 15},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


class Truth(NamedTuple):
    """What each SDK was given and got back, in the order of the provider calls."""

    calls: list[dict[str, Any]]  # {provider, tool_choice as given, called: the tool the SDK read back}


def record(keys: dict[str, str], mocks: dict[str, str]) -> tuple[dict[str, Any], Truth]:
    """Two openai-python Chat Completions steps (a forced call; its result sent back, auto), a GET /v1/models the app
    makes on the way (no provider call), a streamed Chat Completions call under required, a Responses call, an
    anthropic-python streamed Messages call forcing a tool, and a google-genai generateContent under ANY. ``keys``:
    provider -> the key the SDK sends; ``mocks``: provider -> the mock's base URL."""
    import anthropic
    import openai
    from google import genai
    from google.genai import types

    exchanges: list[Exchange] = []
    truth: list[dict[str, Any]] = []

    def client(provider: str) -> httpx.Client:
        root = httpx.URL(mocks[provider])
        return httpx.Client(transport=Forward(f"{root.scheme}://{root.host}:{root.port}", exchanges))

    chat = openai.OpenAI(api_key=keys["openai"], max_retries=0, http_client=client("openai"))
    messages: list[Any] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]
    first = chat.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=OPENAI_TOOLS,
                                         tool_choice={"type": "function", "function": {"name": "get_weather"}},
                                         seed=7)
    call = first.choices[0].message.tool_calls[0]
    truth.append({"provider": "openai", "tool_choice": {"tool": "get_weather"}, "called": [call.function.name]})
    try:
        chat.models.list()  # the mock serves no /v1/models: an entry that is no provider call all the same
    except openai.APIError:
        pass
    messages += [first.choices[0].message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": call.id, "content": RESULT}]
    second = chat.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=OPENAI_TOOLS,
                                          tool_choice="auto", parallel_tool_calls=False)
    truth.append({"provider": "openai", "tool_choice": "auto",
                  "called": [c.function.name for c in second.choices[0].message.tool_calls or ()]})
    called: list[str] = []
    with chat.chat.completions.create(model="gpt-4o-mini", messages=messages[:2], tools=OPENAI_TOOLS,
                                      tool_choice="required", stream=True) as stream:
        for chunk in stream:
            for delta in (chunk.choices[0].delta.tool_calls or ()) if chunk.choices else ():
                if delta.function is not None and delta.function.name:
                    called.append(delta.function.name)
    truth.append({"provider": "openai", "tool_choice": "required", "called": called, "stream": True})

    responses = openai.OpenAI(api_key=keys["openai"], max_retries=0, http_client=client("openai-responses"))
    answer = responses.responses.create(model="gpt-4o-mini", input=QUESTION, instructions=SYSTEM, tool_choice="required",
                                        tools=[{"type": "function", "name": "get_weather", "parameters": WEATHER,
                                                "strict": False}])
    truth.append({"provider": "openai-responses", "tool_choice": "required",
                  "called": [i.name for i in answer.output if i.type == "function_call"]})

    claude = anthropic.Anthropic(api_key=keys["anthropic"], max_retries=0, http_client=client("anthropic"))
    with claude.messages.stream(model="claude-sonnet-5", max_tokens=300, system=SYSTEM, tools=ANTHROPIC_TOOLS,
                                tool_choice={"type": "tool", "name": "get_time"},
                                messages=[{"role": "user", "content": QUESTION}]) as stream:
        final = stream.get_final_message()
    truth.append({"provider": "anthropic", "tool_choice": {"tool": "get_time"}, "stream": True,
                  "called": [b.name for b in final.content if b.type == "tool_use"]})

    gemini = genai.Client(api_key=keys["gemini"], http_options=types.HttpOptions(httpx_client=client("gemini")))
    reply = gemini.models.generate_content(
        model="gemini-3.5-flash", contents=QUESTION,
        config=types.GenerateContentConfig(
            system_instruction=SYSTEM,
            tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name="get_weather",
                                                                                  description="Current weather for a city",
                                                                                  parameters_json_schema=WEATHER)])],
            tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY"))))
    truth.append({"provider": "gemini", "tool_choice": "required",
                  "called": [c.name for c in reply.function_calls or ()]})
    return har(exchanges, [page_entry("https://weather-app.example/")]), Truth(truth)


if __name__ == "__main__":  # python tests/har_recorder.py OUT.har: a HAR of the calls above (made-up keys)
    import sys

    from toolchoice.providers import running_mock

    providers = ("openai", "openai-responses", "anthropic", "gemini")
    with running_mock(providers[0]) as a, running_mock(providers[1]) as b, running_mock(providers[2]) as c, \
            running_mock(providers[3]) as d:
        made, _ = record({p: "not-a-key" for p in ("openai", "anthropic", "gemini")},
                         dict(zip(providers, (a.base_url, b.base_url, c.base_url, d.base_url))))
    Path(sys.argv[1]).write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")


def gemini_answer_as_stream_array(entries: list[dict[str, Any]]) -> None:
    """The recorded session's Gemini generateContent call (entry 7) made a streamGenerateContent call without
    alt=sse, which answers a JSON array of GenerateContentResponse: here the recorded answer in two chunks, its call,
    then its finish."""
    entry = entries[7]
    entry["request"]["url"] = entry["request"]["url"].replace(":generateContent", ":streamGenerateContent")
    answer = json.loads(entry["response"]["content"]["text"])
    finish = json.loads(json.dumps(answer))
    answer["candidates"][0].pop("finishReason", None)
    finish["candidates"][0]["content"]["parts"] = [{"text": ""}]
    entry["response"]["content"]["text"] = json.dumps([answer, finish])
