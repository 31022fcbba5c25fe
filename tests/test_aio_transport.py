"""The aiohttp-backed client (providers/core/aio_transport.py, used from transport.AIOHTTP_MIN_REQUESTS requests) held to every fault
and transport test: the tests of test_hardening_faults.py, test_transport.py and test_send_cli.py run here
a second time with $TOOLCHOICE_HTTP_CLIENT=aiohttp, so each request goes out on aiohttp's connections
(the same stand-in servers and sockets on 127.0.0.1, the same expectations). Plus the choice itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_hardening_faults import *  # noqa: E402,F401,F403 - collected again, through aiohttp
from test_send_cli import *  # noqa: E402,F401,F403
from test_transport import *  # noqa: E402,F401,F403

from toolchoice.providers.core import transport  # noqa: E402

# Not collected again: these choose no client by $TOOLCHOICE_HTTP_CLIENT, so here they ran exactly as in their own
# files. They send nothing (a refusal before any connection, a dry run, the key and retry rules), build their client
# themselves (``send_async``'s own httpx client, ``new_async_client(aio=...)`` parametrized on both clients there), or
# start a process that reads no such variable (imports, the own-process TLS check with ``aio=True``). Found by a run of
# this file with ``http_clients.aiohttp_wanted`` (the only reader of the variable) counting its calls per test: none
# for these, and no child that could read it. A test those files add is collected here again, as before.
NOT_AGAIN = (
    "test_an_out_of_range_port_is_bad_input_with_a_clear_message",  # test_hardening_faults
    # test_send_cli
    "test_missing_key_is_bad_input_before_any_connection", "test_dry_run_is_exactly_render_and_opens_no_socket",
    "test_a_refused_translation_is_never_sent", "test_the_http_stack_loads_without_trio_yet_trio_still_imports_afterwards",
    "test_the_http_stack_loads_without_h2_which_still_imports_afterwards",
    "test_import_without_holds_an_optional_module_back_only_while_importing",
    "test_import_without_redoes_an_import_that_needs_the_optional_module",
    "test_import_without_keeps_an_optional_module_already_loaded",
    # test_transport
    "test_key_placeholder_resolved_and_redaction_map_built", "test_first_set_variable_wins_and_placeholder_names_the_first",
    "test_missing_key_names_every_variable_and_is_bad_input", "test_missing_key_fails_before_any_connection",
    "test_optional_key_drops_the_auth_header_when_unset",
    "test_user_header_placeholders_are_resolved_as_secrets_or_named_when_missing",
    "test_key_placeholder_in_url_is_resolved_but_shown_as_placeholder", "test_redact_replaces_every_occurrence_longest_first",
    "test_retry_after_ms_wins_then_seconds_then_http_date", "test_retried_statuses", "test_client_errors_are_not_retried",
    "test_x_should_retry_overrides_the_status",
    "test_backoff_doubles_from_half_a_second_to_eight_with_at_most_25_percent_jitter",
    "test_next_wait_is_bounded_by_count_server_wait_and_total_budget", "test_body_bytes_headers_and_key_arrive_as_prepared",
    "test_retry_after_ms_is_waited_for_real", "test_retry_after_seconds_and_http_date_are_honoured",
    "test_exponential_backoff_until_retries_run_out", "test_client_errors_are_final_at_once",
    "test_a_server_wait_beyond_the_limit_is_not_waited_for", "test_total_budget_stops_retrying",
    "test_dropped_connection_is_retried", "test_connection_refused_after_all_retries_comes_back_as_a_transport_error",
    "test_read_timeout_is_reported_and_bounded", "test_malformed_json_and_html_bodies_come_back_as_text",
    "test_an_echoed_key_is_redacted_from_body_text_and_headers", "test_an_escaped_echo_of_the_key_is_redacted_too",
    "test_a_bad_url_is_bad_input_not_a_crash", "test_async_send_retries_like_the_blocking_one",
    "test_transport_is_not_imported_by_the_core_package",
    "test_a_process_of_its_own_imports_aiohttp_without_a_ca_read_and_still_verifies_tls",
    "test_plain_http_only_sees_the_proxies_httpx_takes_from_the_environment",
    "test_an_attempt_is_bounded_as_a_whole_when_the_body_trickles", "test_a_compressed_reply_is_read_decoded",
    "test_a_gzip_bomb_stops_at_the_size_cap_on_either_client", "test_a_reply_in_another_charset_is_read_in_it",
    "test_a_proxy_from_the_environment_carries_the_request_on_either_client",
)
for _name in NOT_AGAIN:
    del globals()[_name]  # (a KeyError here: a test renamed in its own file; take it out of the list)


@pytest.fixture(autouse=True)
def through_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "aiohttp")


def test_the_client_is_aiohttps_only_where_many_requests_go_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers.core.aio_transport import Client

    timeouts = transport.Timeouts.from_total(30)
    [forced] = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"], requests=1)
    assert isinstance(forced, Client)
    monkeypatch.delenv(transport.HTTP_CLIENT_ENV)
    few = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"],
                                      requests=transport.AIOHTTP_MIN_REQUESTS - 1)
    assert len(few) == 10 and not any(isinstance(c, Client) for c in few)  # httpx: clients of 5 connections
    [many] = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"],
                                         requests=transport.AIOHTTP_MIN_REQUESTS)
    assert isinstance(many, Client)
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "httpx")
    assert not transport.aiohttp_wanted(10_000)
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "aiohttp")
    assert not transport.aiohttp_wanted(10_000, transport=object())  # an injected transport is always used


def test_proxies_from_the_environment_go_through_aiohttp_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers.core.aio_transport import Transport

    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    client = transport.new_async_client(transport.Timeouts.from_total(30), 5, aio=True)
    proxied = [t for pattern, t in client._mounts.items() if t is not None]
    assert proxied and all(isinstance(t, Transport) and str(t.proxy.url) == "http://127.0.0.1:3128" for t in proxied)


# ---- a whole request without httpx's objects: what send_async reads is what httpx would give it ----------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_names = st.sampled_from([b"Content-Type", b"content-type", b"Retry-After", b"X-Request-Id", b"Set-Cookie", b"x-\xc3\xa9",
                          b"retry-after-ms", b"X-Latin"])
_values = st.binary(max_size=12).filter(lambda v: b"\r" not in v and b"\n" not in v) | st.sampled_from(
    [b"application/json; charset=utf-8", b"text/html; charset=ISO-8859-1", b"text/plain; charset=\"utf-16\"",
     b"application/json; charset=nonsense", b"application/json;CHARSET=latin-1", b"caf\xc3\xa9", b"caf\xe9"])


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(st.lists(st.tuples(_names, _values), max_size=6))
def test_headers_and_encoding_read_as_httpx_reads_them(raw: list[tuple[bytes, bytes]]) -> None:
    import httpx

    from toolchoice.providers.core.aio_transport import encoding_as_httpx, headers_as_httpx

    truth = httpx.Response(200, headers=raw)
    assert headers_as_httpx(raw) == dict(truth.headers.items())
    try:
        expected = truth.encoding
    except ValueError:  # a NUL in the charset's name: httpx raises, the reply is read as UTF-8 here
        expected = "utf-8"
    assert encoding_as_httpx(headers_as_httpx(raw)) == expected


def test_a_whole_request_goes_out_without_httpx_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """The aiohttp client's whole requests take aio_transport.fetch (what the tests above then hold), and the
    server sees the headers httpx's own client would send (its defaults merged with the request's)."""
    import asyncio

    from servers import StandIn, Step, fixture
    from toolchoice.providers.core import aio_transport
    from toolchoice.providers.core.model import Request

    calls: list[object] = []
    real = aio_transport.fetch

    async def counted(*args: object) -> object:
        calls.append(args)
        return await real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(aio_transport, "fetch", counted)
    body = fixture("openai", "openai-chat-single-strict")
    headers = {"Authorization": "Bearer $OPENAI_API_KEY", "X-Trace": "a"}

    async def both(url: str) -> tuple[dict[str, str], dict[str, str]]:
        request = Request("POST", url, headers, {"model": "m"}, key_env=("OPENAI_API_KEY",))
        seen = []
        for aio in (True, False):
            async with transport.new_async_client(transport.Timeouts.from_total(30), 2, aio=aio) as client:
                r = await transport.send_async(request, environ={"OPENAI_API_KEY": "sk-test-0123456789abcdef"},
                                               client=client)
                assert r.status == 200 and r.body == body
            seen.append(server.requests[-1].headers)
        return seen[0], seen[1]

    with StandIn("openai", default=Step(body=body)) as server:
        through_aiohttp_direct, through_httpx = asyncio.run(both(server.base_url() + "/chat/completions"))
    assert len(calls) == 1
    assert through_aiohttp_direct == through_httpx
