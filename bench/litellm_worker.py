"""Translate the bench corpus with LiteLLM's own request transformation, offline, and time it.

Run by bench/run.py with an interpreter that has litellm (never a toolchoice dependency):

    python bench/litellm_worker.py CORPUS.json [WARM_UP_S]
    stdin:  "round" (translate the whole corpus once) ... "quit"
    stdout: one JSON object per line: first {"ready": ..., "missing": ...}, then {"seconds": ..., "calls": ...}
            per round; "missing" names, per provider, the cases whose body lacks tools or tool_choice
            (LiteLLM drops some silently), so the comparison can be restricted to like-for-like work

Per provider: ``map_openai_params`` (tools, tool_choice, parallel_tool_calls) then ``transform_request``
(the body LiteLLM would POST), the two steps ``litellm.completion`` runs before the network; Gemini
goes through ``_transform_request_body`` because its config's ``transform_request`` is not offline.
Inputs are deep-copied before the clock starts (LiteLLM may edit the messages list in place).
Standard library + litellm only: this file must not import toolchoice.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import time
from typing import Any, Callable, cast

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no download of the price list at import

# toolchoice provider id -> LiteLLM provider name (openai-responses: not comparable offline, skipped)
LITELLM_PROVIDER: dict[str, str] = {
    "openai": "openai", "anthropic": "anthropic", "gemini": "gemini", "mistral": "mistral", "groq": "groq",
    "deepseek": "deepseek", "ollama": "ollama_chat", "bedrock": "bedrock", "cohere": "cohere_chat",
    "azure": "azure", "fireworks": "fireworks_ai", "together": "together_ai", "openrouter": "openrouter",
    "xai": "xai", "cerebras": "cerebras", "vllm": "hosted_vllm", "llamacpp": "llamafile", "huggingface": "huggingface",
}

Translate = Callable[[dict[str, Any]], dict[str, Any]]

# Where a request body carries the tools and the tool choice, by wire family: OpenAI-style and
# Anthropic/Cohere/Mistral `tools` + `tool_choice`; Bedrock Converse `toolConfig.tools` +
# `toolConfig.toolChoice`; Gemini `tools[].functionDeclarations` + `toolConfig.functionCallingConfig`.
TOOL_KEYS = frozenset({"tools", "functionDeclarations", "function_declarations"})
CHOICE_KEYS = frozenset({"tool_choice", "toolChoice", "functionCallingConfig", "function_calling_config"})


def wire_keys(body: Any, found: set[str] | None = None) -> set[str]:
    """The keys of TOOL_KEYS and CHOICE_KEYS that appear anywhere in ``body`` with a non-empty value."""
    found = set() if found is None else found
    if isinstance(body, dict):
        for key, value in body.items():
            if key in TOOL_KEYS or key in CHOICE_KEYS:
                if value not in (None, "", [], {}):
                    found.add(key)
            wire_keys(value, found)
    elif isinstance(body, (list, tuple)):
        for value in body:
            wire_keys(value, found)
    return found


def lacks(body: Any) -> list[str]:
    """What a request body lacks of the two: [], ["tools"], ["tool_choice"] or both."""
    keys = wire_keys(body)
    return [name for name, wanted in (("tools", TOOL_KEYS), ("tool_choice", CHOICE_KEYS)) if not keys & wanted]


def choice_label(request: dict[str, Any]) -> str:
    """A short name for a corpus request's tool_choice (for the report of what a side left out)."""
    choice = request.get("tool_choice")
    label = choice if isinstance(choice, str) else (choice or {}).get("type", "?")
    if isinstance(choice, dict) and choice.get("type") == "function":
        label = "function"
    return label + ("+parallel=false" if request.get("parallel_tool_calls") is False else "")


def translator(provider: str, model: str) -> Translate:
    from litellm.types.utils import LlmProviders
    from litellm.utils import ProviderConfigManager

    name = LITELLM_PROVIDER[provider]
    config = ProviderConfigManager.get_provider_chat_config(model=model, provider=LlmProviders(name))
    if config is None:
        raise RuntimeError(f"no LiteLLM chat config for {name}")

    def params(request: dict[str, Any]) -> dict[str, Any]:
        given = {k: request[k] for k in ("tools", "tool_choice", "parallel_tool_calls") if k in request}
        return config.map_openai_params(non_default_params=given, optional_params={}, model=model,
                                        drop_params=False)

    if name == "gemini":
        from litellm.llms.vertex_ai.gemini.transformation import _transform_request_body

        def gemini(request: dict[str, Any]) -> dict[str, Any]:
            body = _transform_request_body(messages=request["messages"], model=model, optional_params=params(request),
                                           custom_llm_provider="gemini", litellm_params={}, cached_content=None)
            return cast(dict[str, Any], body)
        return gemini

    def generic(request: dict[str, Any]) -> dict[str, Any]:
        return config.transform_request(model=model, messages=request["messages"], optional_params=params(request),
                                        litellm_params={}, headers={})
    return generic


def one_round(jobs: dict[str, tuple[Translate, list[dict[str, Any]]]], warm_up_s: float) -> dict[str, Any]:
    """Translate every request for every provider once with the clock running per provider, after
    ``warm_up_s`` seconds of the same passes untimed (as toolchoice's side: see bench/throughput.py)."""
    warm_until = time.perf_counter() + warm_up_s
    while time.perf_counter() < warm_until:
        for translate, requests in jobs.values():
            for request in copy.deepcopy(requests):
                try:
                    translate(request)
                except Exception:  # noqa: BLE001 - counted in the timed pass
                    pass
    per_provider: dict[str, float] = {}
    calls = errors = 0
    for provider, (translate, requests) in jobs.items():
        inputs = copy.deepcopy(requests)
        start = time.perf_counter()
        for request in inputs:
            try:
                translate(request)
            except Exception:  # noqa: BLE001 - counted and reported; an exception is still work done
                errors += 1
        per_provider[provider] = time.perf_counter() - start
        calls += len(requests)
    return {"seconds": sum(per_provider.values()), "calls": calls, "errors": errors, "per_provider": per_provider}


def main(corpus_path: str, warm_up_s: float) -> int:
    # stdout is the protocol (one JSON line each); LiteLLM prints on it ("Provider List: ..." when a model's provider
    # is not its own, since the 18th provider), which broke the first line: its prints go to the log instead
    protocol, sys.stdout = sys.stdout, sys.stderr
    try:
        import litellm  # noqa: F401
        from importlib.metadata import version
    except Exception as exc:  # noqa: BLE001
        print(json.dumps({"ready": False, "error": f"{type(exc).__name__}: {exc}"}), file=protocol, flush=True)
        return 0
    corpus = json.loads(open(corpus_path, encoding="utf-8").read())
    jobs: dict[str, tuple[Translate, list[dict[str, Any]]]] = {}
    skipped: dict[str, str] = {}
    failing: dict[str, dict[str, Any]] = {}
    missing: dict[str, dict[str, Any]] = {}  # provider -> cases whose body lacks tools or tool_choice
    for provider, model in corpus["models"].items():
        if provider not in LITELLM_PROVIDER:
            skipped[provider] = "no offline LiteLLM transformation for this API"
            continue
        try:
            translate = translator(provider, model)
        except Exception as exc:  # noqa: BLE001
            skipped[provider] = f"{type(exc).__name__}: {exc}"
            continue
        for request in corpus["requests"]:
            try:
                body = translate(copy.deepcopy(request))
            except Exception as exc:  # noqa: BLE001
                entry = failing.setdefault(provider, {"count": 0, "first": f"{type(exc).__name__}: {str(exc)[:160]}"})
                entry["count"] += 1
                continue
            absent = lacks(body)
            if absent:
                entry = missing.setdefault(provider, {"count": 0, "lacks": {}})
                entry["count"] += 1
                for name in absent:
                    by_choice = entry["lacks"].setdefault(name, {})
                    label = choice_label(request)
                    by_choice[label] = by_choice.get(label, 0) + 1
        jobs[provider] = (translate, corpus["requests"])
    print(json.dumps({"ready": True, "version": version("litellm"), "providers": list(jobs), "skipped": skipped,
                      "failing": failing, "missing": missing, "calls": len(jobs) * len(corpus["requests"])}), file=protocol,
          flush=True)
    for line in sys.stdin:
        if line.strip() != "round":
            break
        print(json.dumps(one_round(jobs, warm_up_s)), file=protocol, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.0))
