"""Which hosts take several choices (``n``; Gemini's ``candidateCount``), as each host's source says
(core/choice_facts.py, core/choice_count.py).

Truth from outside the code: groq 1.7.0's own docstring for ``n`` (read from the installed SDK here, and in
test_sdk_quotes.py with every other quote), Groq's recorded 400 for n=3/n=2 ("'n' : number must be at most 1",
invalid_request_error: llamastack/llama-stack's integration test and public ragas reports), and the groq SDK as a
real client over a socket on 127.0.0.1 against ``toolchoice mock -p groq``."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest

from toolchoice.providers.core.mock.server import running_mock

from cli import run_cli

KEY = "gsk-choice-hosts-test-7f2a"
GROQ_400 = "'n' : number must be at most 1"  # the API's recorded words (llamastack/llama-stack, ragas users)
SCENARIO = """\
tools:
  - name: get_weather
    description: Weather for a city
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: Weather in Paris?}
"""
USER = [{"role": "user", "content": "Weather in Paris?"}]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def _scenario(tmp_path: Path, provider: str, extra: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO + f"providers:\n  {provider}:\n    extra: {extra}\n", encoding="utf-8")
    return path


def _render(tmp_path: Path, provider: str, extra: str, *more: str) -> tuple[int, list[dict[str, str]]]:
    done = run_cli(["render", str(_scenario(tmp_path, provider, extra)), "-p", provider, *more, "-f", "json"])
    document = json.loads(done.stdout)
    return done.returncode, [e for e in document["ledger"] if e["code"] == "choices.unsupported"]


def test_groqs_own_sdk_says_only_n_1_is_taken() -> None:
    """The source the refusal stands on, read from the installed SDK (not from our table)."""
    spec = find_spec("groq")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("needs groq")
    text = (Path(next(iter(spec.submodule_search_locations))) / "types/chat/completion_create_params.py").read_text()
    assert "only n=1 is supported. Other values will result in\n    a 400 response." in text


@pytest.mark.parametrize("n, refused", [(2, True), (3, True), (1, False)])
def test_render_groq_refuses_n_past_1_with_the_apis_words(tmp_path: Path, n: int, refused: bool) -> None:
    code, found = _render(tmp_path, "groq", f"{{n: {n}}}")
    if refused:
        assert code == 3 and [e["severity"] for e in found] == ["error"]
        assert GROQ_400 in found[0]["message"] and "console.groq.com/docs/openai" in found[0]["message"]
    else:
        assert code == 0 and found == []


@pytest.mark.parametrize("n", [0, -1])
def test_render_groq_refuses_n_below_1_as_its_sdk_and_docs_say(tmp_path: Path, n: int) -> None:
    """groq 1.7.0: 'only n=1 is supported. Other values will result in a 400 response.'; console.groq.com/docs/openai:
    'If `N` is supplied, it must be equal to 1.' (n: 0 was sent with no word until 2026-11-27)."""
    code, found = _render(tmp_path, "groq", f"{{n: {n}}}")
    assert code == 3 and [e["severity"] for e in found] == ["error"], found
    assert "must be equal to 1" in found[0]["message"] and f"n: {n}" in found[0]["message"]


def test_the_deepseek_warning_quotes_the_apis_recorded_words(tmp_path: Path) -> None:
    code, found = _render(tmp_path, "deepseek", "{n: 3}")
    assert code == 0 and [e["severity"] for e in found] == ["warning"]
    assert "Invalid n value (currently only n = 1 is supported)" in found[0]["message"]
    assert "SakanaAI/AI-Scientist#177" in found[0]["message"]


def test_at_a_replaced_host_groqs_rule_is_a_warning_and_with_gateway_it_refuses(tmp_path: Path) -> None:
    code, found = _render(tmp_path, "groq", "{n: 2}", "--base-url", "http://127.0.0.1:9/v1")
    assert code == 0 and [e["severity"] for e in found] == ["warning"]
    assert "the rule of api.groq.com" in found[0]["message"]
    code, found = _render(tmp_path, "groq", "{n: 2}", "--base-url", "http://127.0.0.1:9/openai/v1", "--gateway")
    assert code == 3 and [e["severity"] for e in found] == ["error"]
    code, found = _render(tmp_path, "groq", "{n: 2}", "--base-url", "http://127.0.0.1:9/v1", "--strict")
    assert code == 3


@pytest.mark.parametrize("provider, extra, warned", [
    ("huggingface", "{n: 2}", True),  # huggingface_hub 2.4.0: n is UNUSED
    ("huggingface", "{n: 1}", False),
    ("fireworks", "{n: 129}", True),  # fireworks-ai 1.2.30: 'Required range: `1 <= x <= 128`'
    ("fireworks", "{n: 128}", False),
    ("cerebras", "{n: 2}", True),  # a recorded 400: '"n" > 1 is not currently supported'
    ("together", "{n: 2}", False),  # refused only when streamed (a recorded error)
    ("gemini", "{generationConfig: {candidateCount: 2}}", True),
    ("openai", "{n: 2}", False),  # openai 3.57.0 documents n
    ("mistral", "{n: 2}", False),  # mistralai 3.7.0 documents n
    ("sambanova", "{n: 2}", False),  # sambanova 1.13.0 documents n
    # DeepSeek's API's recorded 400 (SakanaAI/AI-Scientist#177, api.deepseek.com, 2025-01-14): 'Invalid n value
    # (currently only n = 1 is supported)'; no DeepSeek page states it: a warning, the request sent
    ("deepseek", "{n: 2}", True),
    ("deepseek", "{n: 1}", False),
    ("azure", "{n: 129}", True),  # azure-rest-api-specs 2024-10-21 inference.json: n "maximum": 128
    ("azure", "{n: 128}", False),
    ("xai", "{n: 2}", False),  # xai-sdk 1.21.0 asks for n completions
    ("vllm", "{n: 2}", False),  # vLLM's ChatCompletionRequest takes n: int | None = 1
    ("openrouter", "{n: 2}", False),  # no source says: nothing said
])
def test_each_host_says_what_its_source_says_of_n(tmp_path: Path, provider: str, extra: str, warned: bool) -> None:
    code, found = _render(tmp_path, provider, extra)
    assert code == 0
    assert [e["severity"] for e in found] == (["warning"] if warned else [])


def test_azure_warns_past_the_specs_maximum_with_its_words(tmp_path: Path) -> None:
    """The words are azure-rest-api-specs' own (inference/stable/2024-10-21/inference.json, createChatCompletionRequest)."""
    code, found = _render(tmp_path, "azure", "{n: 200}")
    assert code == 0 and [e["severity"] for e in found] == ["warning"]
    assert '"maximum": 128' in found[0]["message"] and "azure-rest-api-specs" in found[0]["message"]
    assert "n: 200" in found[0]["message"]


def test_together_warns_of_n_with_stream(tmp_path: Path) -> None:
    code, found = _render(tmp_path, "together", "{n: 2}", "--stream")
    assert code == 0 and [e["severity"] for e in found] == ["warning"]
    assert "Please disable `stream`" in found[0]["message"]


def test_the_groq_sdk_with_n_2_gets_the_apis_400_from_the_mock() -> None:
    groq = pytest.importorskip("groq")
    with running_mock("groq") as mock:
        client = groq.Groq(api_key=KEY, base_url=mock.base_url.removesuffix("/openai/v1").removesuffix("/v1"),
                           max_retries=0)
        with pytest.raises(groq.BadRequestError) as caught:
            client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=TOOLS,
                                           tool_choice="required", n=2)
        with pytest.raises(groq.BadRequestError) as streamed:  # streamed too: refused before a chunk is sent
            client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=TOOLS,
                                           tool_choice="required", n=2, stream=True)
        with pytest.raises(groq.BadRequestError) as none_asked:  # 'Other values will result in a 400 response.'
            client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=TOOLS,
                                           tool_choice="required", n=0)
        reply = client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=TOOLS,
                                               tool_choice="required", n=1)
    assert streamed.value.status_code == 400 and GROQ_400 in str(streamed.value.body)
    assert caught.value.status_code == 400
    body = caught.value.body  # recorded: {'error': {'message': "'n' : number must be at most 1", 'type': ...}}
    assert isinstance(body, dict) and body["error"]["message"] == GROQ_400, body
    assert body["error"]["type"] == "invalid_request_error", body
    assert len(reply.choices) == 1 and reply.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert none_asked.value.status_code == 400
    assert [r["status"] for r in mock.records] == [400, 400, 400, 200]


def test_send_to_the_groq_mock_warns_sends_and_gets_the_400(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, "groq", "{n: 2}")
    with running_mock("groq") as mock:
        done = run_cli(["send", str(scenario), "-p", "groq", "--base-url", mock.base_url, "-f", "json"],
                       env={"GROQ_API_KEY": KEY})
        gated = run_cli(["send", str(scenario), "-p", "groq", "--base-url", mock.base_url, "--gateway", "-f", "json"],
                        env={"GROQ_API_KEY": KEY})
        statuses = [r["status"] for r in mock.records]
    assert statuses == [400]  # the gateway send is refused before a socket is opened
    assert GROQ_400 in done.stdout and KEY not in done.stdout + gated.stdout
    assert gated.returncode == 3 and "choices.unsupported" in gated.stdout
