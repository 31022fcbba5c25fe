"""Start-up of the commands the range 993dd89..main touched, held without timing: what a fresh interpreter's
``sys.modules`` holds after the command ran (bench/command_imports.py measures every command against a base tree;
bench/README.md "Range 993dd89..main"). A command imports only what it uses (ARCHITECTURE.md)."""

from __future__ import annotations

import json
import os

import pytest

from test_render_imports import command_in_child

# what no render loads, whatever its dialect but the library's own (litellm, vercel): HTTP, the bounded matcher of the judge, LiteLLM's rules,
# the capability facts and their typed values (the mock's and `providers`' business)
RENDER_NEVER = ("httpx", "httpcore", "regex", "litellm", "toolchoice.providers.litellm_rules",
                "toolchoice.providers.litellm_dialect", "toolchoice.providers.vercel_dialect",
                "toolchoice.providers.vercel_rules", "toolchoice.providers.core.schema_patterns",
                "toolchoice.providers.core.facts", "toolchoice.providers.core.fact_values",
                "toolchoice.providers.core.choice_word_facts", "toolchoice.providers.core.refusal_words",
                "toolchoice.providers.core.choice_shape_words")


def _modules(*args: str) -> tuple[int, set[str]]:
    seen = command_in_child(*args, env={**os.environ, "COLUMNS": "80"})
    return seen["code"], set(seen["modules"])


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("extra", [["-f", "json"], [], ["--dialect", "langchain", "-f", "json"],
                                   ["--dialect", "langchain"]])
def test_render_loads_no_http_matcher_rules_or_facts(extra: list[str]) -> None:
    code, modules = _modules("render", "configs/weather.yaml", "-p", "anthropic", *extra)
    assert code == 0
    assert _loaded(modules, RENDER_NEVER) == []


@pytest.mark.parametrize("dialect", ["litellm", "vercel"])
def test_render_of_a_library_dialect_loads_its_rules_and_nothing_else_of_the_list(dialect: str) -> None:
    code, modules = _modules("render", "configs/weather.yaml", "-p", "openai", "--dialect", dialect, "-f", "json")
    assert code == 0
    assert _loaded(modules, RENDER_NEVER) == [f"toolchoice.providers.{dialect}_dialect",
                                              f"toolchoice.providers.{dialect}_rules"]


@pytest.mark.parametrize("form", ["json", "markdown"])
def test_compare_json_and_markdown_do_not_load_the_pretty_tables_folding(form: str) -> None:
    # cli/hanging.py folds the pretty table's cells (trial11c); 993dd89's compare -f json did not load it
    code, modules = _modules("compare", "configs/weather.yaml", "-p", "all", "-f", form)
    assert code == 0
    assert "toolchoice.cli.hanging" not in modules
    assert "rich" not in modules


def test_the_mock_compiles_a_pattern_once_for_all_its_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    # the mock fills a string with a pattern by trying up to 18 texts (core/mock/arguments.py), each matched in
    # bounded time (core/schema_patterns.py); regex.compile's own cache cost more than the match (main at 6edbb87:
    # 133 -> 330 µs a request with two patterns, bench/README.md "Range 993dd89..main")
    import regex

    from toolchoice.providers.core import schema_patterns
    from toolchoice.providers.core.mock.service import MockService

    compiled: list[str] = []
    real = regex.compile

    def counting(pattern: str, *args: object, **kwargs: object) -> object:
        compiled.append(pattern)
        return real(pattern, *args, **kwargs)

    monkeypatch.setattr(regex, "compile", counting)
    monkeypatch.setattr(schema_patterns, "_COMPILED", {})
    body = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "weather?"}],
                       "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
                           "type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                                                            "ref": {"type": "string", "pattern": "^zz[0-9]+q$"}},
                           "required": ["code", "ref"]}}}], "tool_choice": "required"}).encode()
    service = MockService("openai")
    for _ in range(3):
        status, _headers, answer = service.handle("POST", "/v1/chat/completions",
                                                  {"content-type": "application/json"}, body)[:3]
        assert status == 200
        arguments = json.loads(json.loads(answer)["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])
        assert arguments["code"] == "ABC"  # the first try that fits (what 993dd89's mock sent too)
    assert sorted(compiled) == ["^[A-Z]{3}$", "^zz[0-9]+q$"]
