"""providers/errors.py against real recorded error bodies (tests/data/responses/errors/SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers.core.reply import looks_like_error, provider_error, read_reply


def error_line(provider, status, body):
    return provider_error(provider, status, body).one_line(provider)
from toolchoice.providers.core.model import ProviderError

ERRORS = Path(__file__).parent / "data" / "responses" / "errors"
RESPONSES = Path(__file__).parent / "data" / "responses"
EXPECTED = sorted(p for p in ERRORS.glob("error-*.expect.json"))
# Bedrock's error type travels in this header, not the body (botocore rest-json protocol); the value
# format "Name:uri" is how AWS sends it.
BEDROCK_HEADERS = {"x-amzn-ErrorType": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"}


def load(name: str):
    return json.loads((ERRORS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("expect_path", EXPECTED, ids=lambda p: p.name.removesuffix(".expect.json"))
def test_recorded_errors_match_their_expectations(expect_path: Path):
    expect = json.loads(expect_path.read_text(encoding="utf-8"))
    body = json.loads(expect_path.with_name(expect_path.name.replace(".expect.json", ".json")).read_text())
    headers = BEDROCK_HEADERS if expect["provider"] == "bedrock" else None
    err = provider_error(expect["provider"], expect["http_status"], body, headers=headers)
    assert err.status == expect["http_status"]
    assert err.type == expect["error_type"]
    assert err.message == " ".join(expect["error_message"].split())  # one line: whitespace runs collapsed


def test_one_line_format_matches_the_issue_example():
    line = error_line("anthropic", 400, load("error-anthropic-invalid-input-schema.json"))
    assert line.startswith("anthropic: 400 invalid_request_error: tools.17.custom.input_schema: "
                           "JSON schema is invalid.")
    gemini = error_line("gemini", 400, load("error-gemini-invalid-function-name.json"))
    assert "\n" not in gemini and gemini.startswith("gemini: 400 INVALID_ARGUMENT: The GenerateContentRequest proto")


def test_bedrock_without_the_header_has_no_type():
    err = provider_error("bedrock", 400, load("error-bedrock-toolchoice-not-supported.json"))
    assert err.type is None and err.message.startswith("This model doesn't support the toolConfig.toolChoice.tool")
    # the AWS JSON protocol's "__type" field ("namespace#Name") is read too
    aws = provider_error("bedrock", 400, {"__type": "com.amazon.coral.validate#ValidationException", "message": "m"})
    assert aws.type == "ValidationException"


def test_groq_failed_generation_is_shown():
    err = provider_error("groq", 400, load("error-groq-tool-use-failed.json"))
    assert err.type == "invalid_request_error"
    assert err.message.startswith("Failed to call a function. Please adjust your prompt.")
    assert "code tool_use_failed" in err.message
    assert 'failed_generation: web_search{"query": "SPFMV and SPCSV in the Pearl Of Africa 2016"' in err.message


def test_ollama_native_error_string():
    err = provider_error("ollama", 500, load("error-ollama-native.json"))
    assert err == ProviderError(500, None, "the model failed to generate a response")
    assert err.one_line("ollama") == "ollama: 500: the model failed to generate a response"


def test_cohere_message_only():
    err = provider_error("cohere", 400, load("error-cohere-invalid-request.json"))
    assert err == ProviderError(400, None, "invalid request: message must be at least 1 token long or tool "
                                           "results must be specified.")


def test_anthropic_overloaded_529():
    assert error_line("anthropic", 529, load("error-anthropic-overloaded.json")) == \
        "anthropic: 529 overloaded_error: Overloaded"


def test_llama_cpp_python_500_with_an_empty_message():
    # llama_cpp/server/errors.py wraps str(exc) of any exception; an AssertionError gives ""
    assert error_line("llamacpp", 500, load("error-llama-cpp-python-500.json")) == \
        "llamacpp: 500 internal_server_error: (empty message)"


def test_llama_cpp_python_plain_text_500():
    # an exception outside the route handler reaches Starlette's default "Internal Server Error" text
    line = error_line("llamacpp", 500, "Internal Server Error")
    assert line == "llamacpp: 500: non-JSON response: Internal Server Error"


def test_fastapi_and_mistral_422_detail_lists():
    detail = load("error-mistral-422-extra-forbidden.json")["message"]  # the bare {"detail": [...]} form
    err = provider_error("mistral", 422, detail)
    assert err == ProviderError(422, None, "Extra inputs are not permitted (body.tools.0.function.required)")
    assert provider_error("vllm", 401, {"detail": "Unauthorized"}).message == "Unauthorized"


def test_azure_error_code_is_the_type_and_a_numeric_status_is_not():
    # Azure OpenAI's envelope (Azure REST spec: code, message, param, type?, innererror?)
    body = {"error": {"code": "content_filter", "message": "The response was filtered.", "param": "prompt",
                      "status": 400, "innererror": {"code": "ResponsibleAIPolicyViolation"}}}
    err = provider_error("azure", 400, body)
    assert err.type == "content_filter"
    assert err.message == "The response was filtered. [innererror ResponsibleAIPolicyViolation]"


def test_openai_code_is_kept_when_it_adds_information():
    body = {"error": {"message": "Incorrect API key provided: $OPENAI_API_KEY.", "type": "invalid_request_error",
                      "param": None, "code": "invalid_api_key"}}
    assert error_line("openai", 401, body) == ("openai: 401 invalid_request_error: Incorrect API key provided: "
                                               "$OPENAI_API_KEY. [code invalid_api_key]")


def test_gemini_error_inside_a_list():
    body = [load("error-gemini-invalid-function-name.json")]
    assert provider_error("gemini", 400, body).type == "INVALID_ARGUMENT"


def test_html_proxy_page_shows_status_title_and_the_start_of_the_body():
    html = (ERRORS / "error-html-502-nginx.html").read_text()
    line = error_line("openai", 502, html)
    assert line == ('openai: 502: non-JSON response (HTML page "502 Bad Gateway"): 502 Bad Gateway 502 Bad Gateway '
                    "nginx")
    long = "<html><head><title>x</title></head><body>" + "word " * 200 + "</body></html>"
    assert len(provider_error("openai", 503, long).message) < 260


def test_json_text_is_read_as_json_and_bytes_are_accepted():
    text = (ERRORS / "error-groq-tool-choice-null.json").read_text()
    assert provider_error("groq", 400, text).type == "invalid_request_error"
    assert provider_error("groq", 400, text.encode()).type == "invalid_request_error"


@pytest.mark.parametrize("body, message", [
    (None, "empty response body"),
    ("", "empty response body"),
    ({}, "unrecognized error body: {}"),
    (42, "error body is JSON int: 42"),
    ({"error": {}}, "(empty message)"),
])
def test_odd_bodies(body, message):
    assert provider_error("openai", 500, body).message == message


# provider_error never raises and gives one line for any body and status: test_fuzz.py's
# test_provider_error_never_raises, for every provider (JSON and YAML values with NaN, damaged real
# bodies, text, bytes; statuses None, -5..1000).


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_never_raises_on_any_text(text):
    assert "\n" not in error_line("openai", 500, text)


def _success_bodies():
    for path in sorted(RESPONSES.glob("*/*.json")):
        if path.parent.name == "errors" or path.name.startswith("error-") or path.name.endswith(".expect.json"):
            continue
        yield path


@pytest.mark.parametrize("path", list(_success_bodies()), ids=lambda p: p.stem)
def test_recorded_replies_are_not_mistaken_for_errors(path: Path):
    assert not looks_like_error(json.loads(path.read_text()))


ERROR_BODIES = sorted(p for p in ERRORS.glob("error-*.json") if not p.name.endswith(".expect.json"))


@pytest.mark.parametrize("path", ERROR_BODIES, ids=lambda p: p.stem)
def test_recorded_errors_look_like_errors(path: Path):
    assert looks_like_error(json.loads(path.read_text()))


def test_read_reply_turns_every_failure_into_reply_error():
    success = json.loads((RESPONSES / "openai" / "openai-chat-single-strict.json").read_text())
    ok = read_reply("openai", 200, success)
    assert ok.error is None and ok.tool_calls[0].name == "get_weather"
    assert read_reply("openai", 400, load("error-openai-tool-choice-without-tools.json")).error.status == 400
    assert read_reply("openai", 200, None, "<html>").error.message.startswith("non-JSON response")
    in_200 = read_reply("anthropic", 200, load("error-anthropic-overloaded.json"))
    assert in_200.error.type == "overloaded_error"
    unreadable = read_reply("openai", 200, {"choices": "nope"})
    assert unreadable.error.type == "unreadable_reply"
    assert unreadable.error.one_line("openai").startswith("openai: 200 unreadable_reply: response body is not")


def test_an_aws_error_type_header_with_a_line_break_stays_on_one_line():
    """Found by test_fuzz: a header value is text from the server; the error line must stay one line."""
    from toolchoice.providers.core.reply import provider_error

    line = provider_error("bedrock", 400, {"message": "bad"}, headers={"x-amzn-ErrorType": "Validation\nException"})
    assert "\n" not in line.one_line("bedrock") and line.type == "Validation Exception"
