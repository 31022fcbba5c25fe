"""The request's ``Host`` header field as RFC 9112 section 3.2 has a server judge it (``HOST_FIELD``, a dated fact):
an HTTP/1.1 request without one, any request with more than one Host line, or a Host whose value is not
``uri-host [ ":" port ]`` (RFC 9110 7.2, RFC 3986 3.2.2) is answered 400. ``server.read_request`` asks
``host_problem`` for every request the mock or the proxy reads; an HTTP/1.0 request may leave Host out.

Until 2026-11-28 the server joined two Host lines into one value, as RFC 9110 5.3 joins a list field's lines
(Host is not a list field), and took a request with none.
"""

from __future__ import annotations

import re

from ..fact_record import CITE_END, Fact

# trial 20d (2026-11-28): the rule the server follows, as the code keeps a fact (source, the words, the date). It
# concerns no provider: it is the server's own HTTP, so it is kept here, not in core/facts.py's provider table.
HOST_FIELD = Fact(
    "http.host_field", (),
    "A server answers 400 (Bad Request) to an HTTP/1.1 request that has no Host header field, and to any request "
    "with more than one Host header field line or a Host field value that is not uri-host [\":\" port]. The mock "
    "and the proxy answer such a request 400 in the provider's error envelope and close the connection, before it "
    "is judged or sent on; an HTTP/1.0 request may leave Host out (the rule names HTTP/1.1 messages)",
    "RFC 9112 (HTTP/1.1, STD 99, June 2022) section 3.2 'Request Target', "
    "https://www.rfc-editor.org/rfc/rfc9112#section-3.2, and RFC 9110 section 7.2 for the field's grammar (the "
    "sentence read in the search index's copies of the RFC: the index stores rfc-editor.org's and "
    "datatracker.ietf.org's pages but returns their opening only; the same words are quoted whole, each citing "
    "section 3.2, by a web server's issue copying the section (githubissues.com/thaisnishimoto/42sp_Webserv/7), an "
    "HTTP conformance suite's Host pages (mda2av.github.io/Http11Probe/docs/host-header) and a note quoting "
    "datatracker.ietf.org/doc/html/rfc9112#name-request-target)"
    f"{CITE_END}'A client MUST send a Host header field (Section 7.2 of [HTTP]) in all HTTP/1.1 request messages.' "
    "and 'A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a "
    "Host header field and to any request message that contains more than one Host header field line or a Host "
    "header field with an invalid field value.' (RFC 9112 3.2); 'Host = uri-host [ \":\" port ]' (RFC 9110 7.2)",
    "2026-11-28")

# uri-host [ ":" port ]: an IP-literal in brackets (IPv6 or IPvFuture), or a reg-name (which holds every IPv4
# address): unreserved, pct-encoded and sub-delims characters, possibly none (RFC 3986 3.2.2; an empty value is
# what a client sends for a target URI with no authority, RFC 9112 3.2). Each step of the pattern has one way to
# match a character (':' ends the host; '%' only starts an escape), so it reads any text in one pass.
_HOST_VALUE = re.compile(r"(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+)\]"
                         r"|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?")


def host_problem(field_lines: list[str], version: str) -> str | None:
    """Why the request's header field lines (``name: value``, as they came) get a 400 for Host, or None. The words
    name the rule and never quote the value (a key pasted into a header is never echoed)."""
    values = [value.strip(" \t") for name, _, value in (line.partition(":") for line in field_lines)
              if name.strip().lower() == "host"]
    if len(values) > 1:
        return f"{len(values)} Host header lines: a request carries one (RFC 9112 section 3.2)"
    if not values:
        return ("an HTTP/1.1 request without a Host header (RFC 9112 section 3.2)"
                if version == "HTTP/1.1" else None)
    if not _HOST_VALUE.fullmatch(values[0]):
        return "the Host header's value is not a host[:port] (RFC 9112 section 3.2, RFC 9110 section 7.2)"
    return None
