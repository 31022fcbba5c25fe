"""Every --format json document the commands print validates against the schema the product publishes for it
(`toolchoice schema NAME`, cli/schemas/), and every key it holds is one the schema names: REAL outputs over the
widest inputs the repo holds, validated with the validator the schema's `$schema` names (Draft 2020-12).

- `parse` of every recorded reply body and error body (tests/data/responses and /work/shared/data/responses, each
  with its SOURCES.md; the paired bodies of tests/data/streams) and every recorded stream
  (tests/data/streams/SOURCES.md), each read by its own provider family: the document against `schema parse`,
  its reply against the `reply` of `send` and `compare`. Among them an Anthropic refusal (stop_details), Responses
  MCP and Anthropic tool search bodies (server_calls), thinking models (reasoning), Gemini signatures and
  Responses programmatic calls (a tool call's signature, caller). A recorded body given a second choice (what
  `n: 2` answers) and OpenRouter's top-level `provider` (the upstream that answered: openrouter SDK 1.3.84, as
  providers/openai_chat.py's `_upstream` cites) cover `choices` and `upstream`.
- `send`, `compare --send`, `run` and `probe` against the mock (`running_mock`, one per provider id, real
  sockets on 127.0.0.1): every provider, streamed per wire family, --repeat, n choices, a refusal, recorded
  error bodies and a refused connection; probe's saved overlay; every jsonl line the mocks wrote (`schema mock`).
- `render` and dry `compare` over configs/*.yaml.
- The definitions the files share are the same in each; the enums they close match the code's own lists.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.mock.server import running_mock

from cli import run_cli
from servers import StandIn, Step
from streams import STREAMS, fixture_lines, framed

ROOT = Path(__file__).resolve().parents[1]
RESPONSES = ROOT / "tests" / "data" / "responses"
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})
OPENAI_STYLE = {p for p, c in CAPABILITIES.items() if c.module == "openai_chat"}
# The first provider id of each wire family (the module its capability row names): streams differ per family.
FAMILY_HEADS = list({c.module: p for p, c in reversed(list(CAPABILITIES.items()))}.values())


def env() -> dict[str, str]:
    """No proxy, a placeholder for every provider's key (the mock takes any), 160 columns."""
    return {"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "160", **{k: "sk-schema-conformance" for k in KEY_VARS}}


@functools.cache
def _schema_text(name: str) -> str:
    result = run_cli(["schema", name])
    assert result.returncode == 0, result.stderr
    return result.stdout


def schema(name: str) -> dict[str, Any]:
    """``toolchoice schema NAME``'s document (a fresh copy)."""
    return json.loads(_schema_text(name))


_VALIDATORS: dict[str, Any] = {}


def named_only(cls: Any) -> Any:
    """``cls`` (the validator ``$schema`` names) that also reports a key an object node does not name: one whose
    schema says ``type: object`` and lists ``properties`` without ``additionalProperties``. Such a key validates,
    yet `toolchoice schema` would not say what it is: every field a command prints is documented."""
    plain = cls.VALIDATORS["properties"]

    def properties(validator: Any, names: dict[str, Any], instance: Any, node: dict[str, Any]) -> Iterator[Any]:
        yield from plain(validator, names, instance, node)
        if validator.is_type(instance, "object") and "object" in str(node.get("type")) and not (
                {"additionalProperties", "patternProperties"} & set(node)):
            unnamed = sorted(set(instance) - set(names))
            if unnamed:
                yield jsonschema.ValidationError(f"keys the schema does not name: {unnamed}")

    return jsonschema.validators.extend(cls, {"properties": properties})


def problems(instance: Any, name: str, definition: str | None = None) -> list[str]:
    """Why ``instance`` fails the published schema ``name`` (or its ``$defs/definition``), as
    ``path: message`` lines; [] when it validates and every key it holds is named (``named_only``)."""
    key = f"{name}#{definition or ''}"
    if key not in _VALIDATORS:
        document = schema(name)
        cls = jsonschema.validators.validator_for(document)
        cls.check_schema(document)
        if definition is not None:
            document = {"$schema": document["$schema"], "$defs": document["$defs"],
                        "$ref": f"#/$defs/{definition}"}
        _VALIDATORS[key] = named_only(cls)(document)
    return [line for e in _VALIDATORS[key].iter_errors(instance) for line in said(e)]


def said(error: jsonschema.ValidationError) -> list[str]:
    """An error as ``path: message`` lines; a oneOf/anyOf failure as the errors of its closest branch (the one
    with the fewest)."""
    if not error.context:
        return [f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}"]
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for inner in error.context:
        branches.setdefault(inner.schema_path[0], []).append(inner)
    return [line for inner in min(branches.values(), key=len) for line in said(inner)]


# ---- parse: every recorded body and stream --------------------------------------------------------------


def body_provider(path: Path) -> str:
    """The provider id whose format a recorded body is in: its folder, else its file name's prefix."""
    if path.parent.name in PROVIDER_IDS:
        return path.parent.name
    if path.parent.parent == STREAMS:  # a stream's paired body, from the stream's own provider
        return path.parent.name
    stem = path.stem.removeprefix("error-")
    named = {"llama-cpp": "llamacpp", "html": "openai", "openai-chat": "openai"}
    for prefix, provider in named.items():
        if stem.startswith(prefix):
            return provider
    return max((p for p in PROVIDER_IDS if stem.startswith(p + "-")), key=len)


SHARED = Path("/work/shared/data/responses")  # /work/shared/data/README.md: the same sources, where present
_OWN = sorted(p for folder in (RESPONSES, STREAMS) for p in folder.rglob("*")
              if p.suffix in (".json", ".html") and not p.name.endswith(".expect.json"))
BODIES = _OWN + sorted(p for p in SHARED.glob("*.json") if not p.name.endswith(".expect.json")
                       and p.name not in {own.name for own in _OWN})
STREAM_FILES = sorted(p for p in STREAMS.rglob("*") if p.name.endswith((".chunks.txt", ".ndjson")))


def parsed(path: Path, provider: str, *extra: str) -> dict[str, Any]:
    result = run_cli(["parse", str(path), "-p", provider, "-f", "json", *extra], env=env())
    assert result.returncode in (0, 1, 3, 4), (path.name, result.stderr)
    return json.loads(result.stdout)


def check_parse(document: dict[str, Any]) -> list[str]:
    return problems(document, "parse") + [f"{name}: {p}" for name in ("send", "compare")
                                          for p in problems(document["reply"], name, "reply")]


def test_every_recorded_body_parses_to_a_document_its_schemas_take(tmp_path: Path) -> None:
    assert len(BODIES) >= 60
    seen: set[str] = set()
    found = {}
    for path in BODIES:
        document = parsed(path, body_provider(path))
        seen |= set(document["reply"]) | {f"call.{k}" for c in document["reply"]["tool_calls"] for k in c}
        seen |= {"an error"} if document["error"] else set()
        found[path.name] = check_parse(document)
    # judged against a scenario: the verdict and the ledger too
    judged = parsed(RESPONSES / "anthropic" / "anthropic-refusal-stop-details.json", "anthropic",
                    "-s", str(ROOT / "configs" / "weather.yaml"))
    found["judged"] = check_parse(judged)
    assert judged["verdict"] and judged["ledger"]
    assert {k: v for k, v in found.items() if v} == {}
    # the recorded bodies reach the reply's optional fields (else this test proves less than it says)
    assert {"reasoning", "server_calls", "stop_details", "call.signature", "call.caller", "an error"} <= seen


def test_several_choices_and_an_upstream_validate(tmp_path: Path) -> None:
    """Two choices (the recorded OpenAI body with a second choice added, as n=2 answers) and an OpenRouter reply
    naming its upstream: the recorded body with OpenRouter's documented top-level ``provider``."""
    body = json.loads((RESPONSES / "openai" / "openai-chat-parallel.json").read_text())
    second = {**body["choices"][0], "index": 1, "message": {"role": "assistant", "content": "Sunny."},
              "finish_reason": "stop"}
    (tmp_path / "two.json").write_text(json.dumps({**body, "choices": [body["choices"][0], second]}))
    (tmp_path / "routed.json").write_text(json.dumps({**body, "provider": "Groq"}))
    two = parsed(tmp_path / "two.json", "openai", "-s", str(ROOT / "configs" / "weather.yaml"))
    routed = parsed(tmp_path / "routed.json", "openrouter")
    assert len(two["reply"]["choices"]) == 2 and two["verdict"]["choices"]
    assert routed["reply"]["upstream"] == "Groq"
    assert check_parse(two) + check_parse(routed) == []


def test_every_recorded_stream_parses_to_a_document_its_schemas_take(tmp_path: Path) -> None:
    assert len(STREAM_FILES) >= 15
    found = {}
    for path in STREAM_FILES:
        provider = path.parent.name
        framed_path = tmp_path / path.name
        framed_path.write_bytes(framed(provider, fixture_lines(provider, path.name), done=provider in OPENAI_STYLE))
        document = parsed(framed_path, provider, "--stream")
        assert "stream" in document
        found[path.name] = check_parse(document)
    assert {k: v for k, v in found.items() if v} == {}


# ---- send, compare --send, run, probe against the mock ---------------------------------------------------


@pytest.fixture(scope="module")
def mocks() -> Iterator[dict[str, Any]]:
    """One mock per provider id, each on its own thread and port."""
    import contextlib

    with contextlib.ExitStack() as stack:
        yield {p: stack.enter_context(running_mock(p)) for p in PROVIDER_IDS}


def pointed(tmp_path: Path, mocks: dict[str, Any], config: str = "weather.yaml",
            settings: dict[str, dict[str, Any]] | None = None) -> Path:
    """``configs/<config>`` with every provider's base_url on its mock (``settings``: more settings per id)."""
    import yaml

    scenario = yaml.safe_load((ROOT / "configs" / config).read_text())
    providers = scenario.setdefault("providers", {})
    for provider, mock in mocks.items():
        providers[provider] = {**(providers.get(provider) or {}), "base_url": mock.base_url,
                               **(settings or {}).get(provider, {})}
    path = tmp_path / f"pointed-{config}"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    return path


def ran(args: list[str]) -> dict[str, Any] | list[Any]:
    result = run_cli([*args, "-f", "json"], env=env())
    assert result.returncode in (0, 1, 3, 4, 5), (args, result.returncode, result.stderr)
    return json.loads(result.stdout)


def test_send_to_every_provider_plain_streamed_repeated_and_with_choices(tmp_path: Path, mocks: dict) -> None:
    scenario = str(pointed(tmp_path, mocks, settings={  # several choices (docs/send.md, docs/parse.md)
        "openai": {"extra": {"n": 2}}, "gemini": {"extra": {"generationConfig": {"candidateCount": 2}}}}))
    found = {}
    for provider in PROVIDER_IDS:
        document = ran(["send", scenario, "-p", provider])
        assert document["status"] == 200 and len(document["reply"].get("choices", ())) == (  # type: ignore[index]
            2 if provider in ("openai", "gemini") else 0), provider
        found[provider] = problems(document, "send")
    for provider in FAMILY_HEADS:
        found[f"{provider} --stream"] = problems(ran(["send", scenario, "-p", provider, "--stream"]), "send")
    found["-n 3"] = problems(ran(["send", scenario, "-p", "anthropic", "-n", "3"]), "send")
    found["-n 2 --stream"] = problems(ran(["send", scenario, "-p", "openai", "-n", "2", "--stream"]), "send")
    found["two scenarios"] = problems(ran(["send", scenario, scenario, "-p", "gemini"]), "send")
    refused = ran(["send", str(ROOT / "configs/think-forced.yaml"), "-p", "anthropic"])
    found["refused"] = problems(refused, "send")
    lines = [line for mock in mocks.values() for line in mock.records]
    found["mock lines"] = sorted({p for line in lines for p in problems(line, "mock")})
    assert {k: v for k, v in found.items() if v} == {}


def test_compare_send_over_every_provider_validates(tmp_path: Path, mocks: dict) -> None:
    scenario = str(pointed(tmp_path, mocks))
    found = {"plain": problems(ran(["compare", scenario, "-p", "all", "--send"]), "compare"),
             "stream -n 2": problems(ran(["compare", scenario, "-p", "openai,anthropic,bedrock", "--send",
                                          "--stream", "-n", "2"]), "compare")}
    keyless = {k: v for k, v in env().items() if k != "ANTHROPIC_API_KEY"}  # anthropic is skipped: no key
    skipped = run_cli(["compare", scenario, "-p", "openai,anthropic", "--send", "-f", "json"], env=keyless)
    document = json.loads(skipped.stdout)
    assert "ANTHROPIC_API_KEY" in document["providers"][1]["error"], document["providers"][1]
    found["a provider skipped"] = problems(document, "compare")
    assert {k: v for k, v in found.items() if v} == {}


def test_run_against_the_mock_validates(tmp_path: Path, mocks: dict) -> None:
    scenario = str(pointed(tmp_path, mocks, "planner-loop.yaml"))
    found = {}
    for provider in FAMILY_HEADS:
        found[provider] = problems(ran(["run", scenario, "-p", provider]), "run")
    found["stream -n 2"] = problems(ran(["run", scenario, "-p", "openai", "--stream", "--repeat", "2"]), "run")
    found["two providers"] = problems(ran(["run", scenario, "-p", "anthropic,gemini"]), "run")
    failed = ran(["run", str(ROOT / "configs" / "planner-loop.yaml"), "-p", "openai", "--base-url",
                  "http://127.0.0.1:9/v1", "--retries", "0"])  # nothing listens on port 9: the loop ends in error
    assert failed["runs"][0]["loops"][0]["ended"]["reason"] == "error"  # type: ignore[index]
    found["failed"] = problems(failed, "run")
    assert {k: v for k, v in found.items() if v} == {}


def test_probe_against_the_mock_validates_and_so_does_its_saved_overlay(tmp_path: Path, mocks: dict) -> None:
    found = {}
    for provider in ("openai", "anthropic", "gemini"):
        saved = tmp_path / f"{provider}.overlay.json"
        document = ran(["probe", "-p", provider, "--base-url", mocks[provider].base_url, "--model", "m", "-n", "1",
                        "--save", str(saved)])
        found[provider] = problems(document, "probe")
        found[f"{provider} overlay"] = problems(json.loads(saved.read_text()), "probe", "overlay")
    unreachable = ran(["probe", "-p", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "-n", "1",
                       "--retries", "0"])  # nothing listens on port 9 (discard): not measured, exit 1
    found["unreachable"] = problems(unreachable, "probe")
    assert {q["result"] for q in unreachable["questions"]} >= {"not asked"}  # type: ignore[index]
    assert {k: v for k, v in found.items() if v} == {}


def test_failed_sends_validate(tmp_path: Path) -> None:
    """Recorded error bodies (tests/data/responses/errors/SOURCES.md), an nginx HTML page, a cut JSON body and a
    refused connection: send's document names the error and still validates."""
    with StandIn("openai") as server:
        server.script(Step.recorded_error(400, "error-openai-tool-choice-without-tools"), Step.html(502),
                      Step.malformed(), Step.recorded_error(500, "error-llama-cpp-python-500"))
        base = server.base_url("openai")
        documents = [ran(["send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", base,
                          "--retries", "0"]) for _ in range(4)]
    documents.append(ran(["send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url",
                          "http://127.0.0.1:9/v1", "--retries", "0"]))
    assert all(d["error"] for d in documents), [d["error"] for d in documents]  # type: ignore[index]
    assert [p for d in documents for p in problems(d, "send")] == []


def test_documents_cut_short_by_ctrl_c_validate(tmp_path: Path, mocks: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after the samples arrived (KeyboardInterrupt from the runner, where a real SIGINT lands while replies
    are awaited; test_interrupt_and_save sends the real signal): send --repeat keeps ``partial`` {done, requested},
    compare --send ``partial: true``; both documents still validate."""
    from toolchoice.providers.core import runner

    real = runner.run

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run", interrupted)
    scenario = str(pointed(tmp_path, mocks))
    results = {"send": run_cli(["send", scenario, "-p", "openai", "-n", "2", "-f", "json"], env=env()),
               "compare": run_cli(["compare", scenario, "-p", "openai,anthropic", "--send", "-f", "json"], env=env())}
    assert {name: r.returncode for name, r in results.items()} == {"send": 130, "compare": 130}
    send, compare = (json.loads(r.stdout) for r in results.values())
    assert send["partial"] == {"done": 2, "requested": 2} and compare["partial"] is True
    assert problems(send, "send") + problems(compare, "compare") == []


def test_an_openrouter_upstream_in_a_sent_reply_validates(tmp_path: Path) -> None:
    """OpenRouter's reply names the upstream that answered (top-level ``provider``): the send document keeps it."""
    body = json.loads((RESPONSES / "openai" / "openai-chat-single-strict.json").read_text())
    with StandIn("openai") as server:
        server.script(Step(body={**body, "provider": "Groq"}))
        document = ran(["send", str(ROOT / "configs" / "weather.yaml"), "-p", "openrouter",
                        "--base-url", server.base_url("openai")])
    assert document["reply"]["upstream"] == "Groq"  # type: ignore[index]
    assert problems(document, "send") == []


# ---- dry runs: render and compare over every shipped scenario ----------------------------------------------


def test_render_and_dry_compare_over_every_config_name_every_field() -> None:
    configs = sorted((ROOT / "configs").glob("*.yaml"))
    found = {}
    for config in configs:
        found[f"render {config.name}"] = problems(ran(["render", str(config), "-p", "all"]), "render")
        found[f"compare {config.name}"] = problems(ran(["compare", str(config), "-p", "all"]), "compare")
    found["render --stream"] = problems(ran(["render", *map(str, configs), "-p", "all", "--stream"]), "render")
    assert {k: v for k, v in found.items() if v} == {}


# ---- the schema files agree with each other and with the code's vocabularies ----------------------------------

SHARED_DEFS = ("send", "compare", "parse", "run")


def test_a_definition_shared_by_several_schemas_is_the_same_in_each() -> None:
    """send, compare, parse and run describe one reply, verdict, stream...: a fix in one file is made in all."""
    shared = ("ledger", "request", "reply", "server_call", "verdict", "call_check", "latency", "stream", "result",
              "sent_choice", "sent_parallel")
    differ, held = [], {}
    for name in SHARED_DEFS:
        for key in shared:
            node = schema(name)["$defs"].get(key)
            if node is not None and held.setdefault(key, (name, node))[1] != node:
                differ.append(f"{key}: {held[key][0]} and {name}")
    assert differ == []
    assert all(key in schema(n)["$defs"] for n in SHARED_DEFS for key in ("reply", "server_call", "verdict", "stream"))
    # what extra makes the verdict judge: render's document (Translation.to_json) spells it as send's, compare's and
    # run's steps do
    assert all(schema(n)["$defs"][key] == schema("render")["$defs"][key] for n in ("send", "compare", "run")
               for key in ("sent_choice", "sent_parallel"))


def test_the_closed_lists_are_the_codes_own() -> None:
    """The enums the schemas close over: every reasoning family a provider module writes, every kind of server
    call the parsers make, every probe result."""
    from toolchoice.providers import openai_responses
    from toolchoice.providers.core import probe
    from toolchoice.providers.core.registry import family_modules

    defs = schema("send")["$defs"]
    families = defs["reply"]["properties"]["reasoning"]["items"]["properties"]["family"]["enum"]
    assert sorted(families) == sorted({m.REASONING_FAMILY for m in family_modules()})
    assert set(openai_responses.SERVER_CALLS) <= set(defs["server_call"]["properties"]["kind"]["enum"])
    assert schema("probe")["$defs"]["result"]["enum"] == list(probe.RESULTS)


def test_a_custom_tool_call_validates(tmp_path: Path) -> None:
    """A custom (free-text) tool call, in Chat Completions' and Responses' form (test_custom_tools' bodies, checked
    there against openai-python's chat_completion_message_custom_tool_call.py and response_custom_tool_call.py):
    shown with kind and input instead of arguments."""
    from test_custom_tools import CHAT_REPLY, RESPONSES_REPLY

    found = {}
    for provider, body in (("openai", CHAT_REPLY), ("openai-responses", RESPONSES_REPLY)):
        path = tmp_path / f"{provider}.json"
        path.write_text(json.dumps(body))
        document = parsed(path, provider)
        assert document["reply"]["tool_calls"][0]["kind"] == "custom"
        found[provider] = check_parse(document)
    assert {k: v for k, v in found.items() if v} == {}
