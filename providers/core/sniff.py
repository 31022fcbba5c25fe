"""Which wire family a reply body looks like, from the top-level fields each API documents.

Used when a body does not read as the provider asked for (``parse FILE -p anthropic`` on an OpenAI
body) to say which ``-p`` would read it. Shapes (success bodies only; error bodies read as errors):
OpenAI Chat Completions ``{object: "chat.completion", choices: [...]}``; OpenAI Responses
``{object: "response", output: [...]}``; Anthropic Messages ``{type: "message", content: [...],
stop_reason}``; Gemini ``{candidates: [...]}``; Bedrock Converse ``{output: {message}, stopReason}``;
Cohere v2 ``{id, message: {...}, finish_reason}``; Ollama ``{message: {...}, done, created_at}``.
"""

from __future__ import annotations

from typing import Any

# family module -> (what to call it, the -p to suggest)
FAMILIES: dict[str, tuple[str, str]] = {
    "openai_chat": ("an OpenAI Chat Completions reply", "openai (or any OpenAI-compatible id)"),
    "openai_responses": ("an OpenAI Responses reply", "openai-responses"),
    "anthropic": ("an Anthropic Messages reply", "anthropic"),
    "gemini": ("a Gemini generateContent reply", "gemini"),
    "bedrock": ("a Bedrock Converse reply", "bedrock"),
    "cohere": ("a Cohere v2 chat reply", "cohere"),
    "ollama": ("an Ollama /api/chat reply", "ollama"),
}


def family_of(body: Any) -> str | None:
    """The family module name whose documented reply shape ``body`` has, or None."""
    if not isinstance(body, dict):
        return None
    if isinstance(body.get("choices"), list) or body.get("object") == "chat.completion":
        return "openai_chat"
    if body.get("object") == "response" and isinstance(body.get("output"), list):
        return "openai_responses"
    if body.get("type") == "message" and isinstance(body.get("content"), list):
        return "anthropic"
    if isinstance(body.get("candidates"), list):
        return "gemini"
    if isinstance(body.get("output"), dict) and "stopReason" in body:
        return "bedrock"
    if isinstance(body.get("message"), dict) and "done" in body:
        return "ollama"
    if isinstance(body.get("message"), dict) and "finish_reason" in body:
        return "cohere"
    return None
