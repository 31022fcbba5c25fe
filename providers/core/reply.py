"""Every provider's error body, read into one ProviderError (and one line).

Shapes (see tests/data/responses/errors/SOURCES.md for the recorded bodies):
- OpenAI and its kin (Groq, DeepSeek, Azure, OpenRouter, vLLM, llama.cpp, llama-cpp-python, Ollama's
  /v1): ``{"error": {"message", "type", "code", "param"}}``; Groq adds ``failed_generation``; Azure
  adds ``innererror``; llama-cpp-python answers 500 with ``type: internal_server_error`` and often an
  empty message.
- Anthropic: ``{"type": "error", "error": {"type", "message"}, "request_id"}``.
- Gemini: ``{"error": {"code", "message", "status", "details"}}`` (sometimes inside a list).
- Bedrock and Cohere: ``{"message": ...}``; Bedrock's type travels in the ``x-amzn-ErrorType`` header.
- Mistral: ``{"object": "error", "message", "type", "param", "code"}`` where ``message`` may be an
  object holding a ``detail`` list; 422 validation errors ``{"detail": [{"loc", "msg", "type"}]}``
  (the FastAPI shape, also what llama-cpp-python and vLLM answer on a bad request).
- Ollama native: ``{"error": "..."}``.
- Anything else (an HTML proxy page, plain text): the status and the start of the body.

``provider_error`` never raises.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from .bounded import json_value
from .model import ProviderError, Reply, quoted
from .redaction import printable

MAX_MESSAGE = 1000
BODY_START = 200

_WS = re.compile(r"\s+")
_TAGS = re.compile(r"<[^>]+>")


def _one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """One line of at most ``limit`` characters, without terminal escapes a server may have sent."""
    text = _WS.sub(" ", printable(text)).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _detail_list(items: list[Any]) -> str:
    """FastAPI/pydantic validation details: ``msg (loc.path)`` joined by '; '."""
    parts = []
    for item in items:
        if isinstance(item, dict):
            msg = item.get("msg") or item.get("message") or quoted(item)
            loc = item.get("loc")
            where = ".".join(str(p) for p in loc) if isinstance(loc, list) and loc else ""
            parts.append(f"{msg} ({where})" if where else str(msg))
        else:
            parts.append(str(item))
    return "; ".join(parts)


def _text(value: Any) -> str:
    """A message field that may be a string, a ``{"detail": [...]}`` object or anything else."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("detail"), list):
        return _detail_list(value["detail"])
    if isinstance(value, dict) and isinstance(value.get("detail"), str):
        return value["detail"]
    if isinstance(value, list):
        return _detail_list(value)
    return quoted(value)


def _str_or_none(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def _word(value: Any) -> str | None:
    """A type-like string (``invalid_request_error``, ``INVALID_ARGUMENT``), not a number."""
    return value if isinstance(value, str) and value and not value.isdigit() else None


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    if not headers:
        return None
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _aws_type(headers: Mapping[str, str] | None, body: Mapping[str, Any]) -> str | None:
    """AWS error type: the x-amzn-ErrorType header (``Name:uri``), else a body ``__type``
    (``ns#Name``); cleaned as the AWS SDKs do (first of a comma list, before ':', after '#')."""
    raw = _header(headers, "x-amzn-errortype") or _str_or_none(body.get("__type"))
    if not raw:
        return None
    return _one_line(raw.split(",", 1)[0].split(":", 1)[0].rsplit("#", 1)[-1]).strip() or None


def _from_error_object(err: Mapping[str, Any], status: int | None) -> ProviderError:
    message = _text(err.get("message"))
    kind = _word(err.get("type")) or _word(err.get("status"))  # Gemini: status
    code = err.get("code")
    if not kind and isinstance(code, str) and not code.isdigit():
        kind = code  # Azure: {"code": "content_filter", ...}
    extras = []
    if isinstance(code, str) and code and code != kind and not code.isdigit():
        extras.append(f"code {code}")
    inner = err.get("innererror")
    if isinstance(inner, dict) and inner.get("code"):
        extras.append(f"innererror {inner['code']}")
    if err.get("failed_generation"):
        extras.append(f"failed_generation: {_text(err['failed_generation'])}")
    if not message and isinstance(err.get("details"), list) and err["details"]:
        message = quoted(err["details"])
    if not message:
        message = "(empty message)"
    if extras:
        message += " [" + "; ".join(extras) + "]"
    return ProviderError(status, kind, _one_line(message))


def _looks_html(text: str) -> bool:
    start = text.lstrip()[:200].lower()
    return start.startswith("<!doctype html") or start.startswith("<html") or "<head" in start or "<body" in start


def _non_json(status: int | None, text: str) -> ProviderError:
    if not text.strip():
        return ProviderError(status, None, "empty response body")
    if _looks_html(text):
        title = re.search(r"<title[^>]*>(.*?)</title>", text, re.IGNORECASE | re.DOTALL)
        shown = _one_line(_TAGS.sub(" ", text), BODY_START)
        label = f"HTML page \"{_one_line(title.group(1), 120)}\"" if title else "HTML page"
        return ProviderError(status, None, f"non-JSON response ({label}): {shown}")
    return ProviderError(status, None, f"non-JSON response: {_one_line(text, BODY_START)}")


def provider_error(provider: str, status: int | None, body: Any, *,
                   headers: Mapping[str, str] | None = None) -> ProviderError:
    """Read an error response. ``body`` is the parsed JSON, or the raw text when it was not JSON
    (a string that parses as JSON is read as JSON). Never raises."""
    try:
        if status is not None and 300 <= status < 400:
            return _redirect(status, headers)
        return _read(provider, status, body, headers)
    except Exception as exc:  # noqa: BLE001 - an error reader must not fail
        return ProviderError(status, None, _one_line(f"unreadable error body ({type(exc).__name__}): "
                                                     f"{quoted(body)}", BODY_START))


def _redirect(status: int, headers: Mapping[str, str] | None) -> ProviderError:
    """A 3xx: redirects are never followed (a key must not travel to a host nobody named), so say
    where the server points instead."""
    location = _header(headers, "location")
    where = f"to {_one_line(location, BODY_START)}" if location else "without a Location header"
    return ProviderError(status, "redirect", f"the server redirects {where}; redirects are not followed "
                                             "(give the final URL as the base URL if you trust it)")


def _read(provider: str, status: int | None, body: Any, headers: Mapping[str, str] | None) -> ProviderError:
    del provider  # every shape is recognized by its form; the name is for the caller's line
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if isinstance(body, str):
        try:
            body = json_value(body)
        except ValueError:
            return _non_json(status, body)
    if isinstance(body, list):
        first = next((item for item in body if isinstance(item, dict)), None)
        if first is None:
            return ProviderError(status, None, _one_line(quoted(body), BODY_START))
        body = first
    if body is None:
        return ProviderError(status, None, "empty response body")
    if not isinstance(body, dict):
        return ProviderError(status, None, _one_line(f"error body is JSON {type(body).__name__}: {quoted(body)}",
                                                     BODY_START))
    err = body.get("error")
    if isinstance(err, dict):
        return _from_error_object(err, status)
    if isinstance(err, str):  # Ollama native; some proxies
        return ProviderError(status, None, _one_line(err or "(empty message)"))
    if "detail" in body and "message" not in body:  # FastAPI / Mistral 422
        return ProviderError(status, None, _one_line(_text(body["detail"]) or "(empty detail)"))
    for key in ("message", "Message"):
        if key in body:  # Bedrock, Cohere, Mistral {"object": "error", ...}
            kind = _aws_type(headers, body) or _word(body.get("type"))
            message = _text(body[key]) or "(empty message)"
            code = body.get("code")
            if isinstance(code, str) and code and code != kind:
                message += f" [code {code}]"
            return ProviderError(status, kind, _one_line(message))
    return ProviderError(status, _aws_type(headers, body), _one_line(f"unrecognized error body: {quoted(body)}",
                                                                       BODY_START * 2))


_SUCCESS_KEYS = ("choices", "candidates", "output", "content", "tool_calls", "stop_reason", "finish_reason",
                 "done", "usage", "usageMetadata")


def looks_like_error(body: Any) -> bool:
    """Whether a saved body with no status is an error envelope rather than a reply (for `parse`)."""
    if isinstance(body, list):
        return bool(body) and all(isinstance(i, dict) and "error" in i for i in body)
    if not isinstance(body, dict):
        return True
    if any(key in body for key in _SUCCESS_KEYS):
        return False
    if body.get("type") == "error" or body.get("object") == "error":
        return True
    if "error" in body and body["error"] not in (None, {}, ""):
        return True
    if "detail" in body:
        return True
    message = body.get("message", body.get("Message"))
    return isinstance(message, str)


def read_reply(provider: str, status: int | None, body: Any, text: str = "", *,
               headers: Mapping[str, str] | None = None) -> Reply:
    """Any answer (or a saved body) → a normalized Reply; every failure becomes ``Reply.error``.

    ``body`` is the parsed JSON or None; ``text`` the raw text (used when ``body`` is None). A
    non-2xx status, a body that is not JSON, an error envelope (even with 200) and a body the
    provider's parser cannot read are all errors. ``status`` None means unknown (``parse``)."""
    from .model import ToolchoiceError
    from .registry import parse_reply

    failed = status is not None and not 200 <= status < 300
    if failed or body is None or looks_like_error(body):
        return Reply(error=provider_error(provider, status, body if body is not None else text, headers=headers))
    try:
        return parse_reply(provider, body)
    except ToolchoiceError as exc:
        message = exc.message.removeprefix(f"{provider}: ")
        return Reply(error=ProviderError(status, "unreadable_reply", _one_line(message)))
