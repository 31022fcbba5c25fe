"""One option vocabulary across commands (walked from the app's own parameters), and the JSON Schemas
shipped in the package: every scenario validates, every --format json document validates."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer

from toolchoice.cli.app import COMMANDS, build
from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS

from cli import run_cli
from servers import StandIn, Step, fixture
from test_interface import TOOLS

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})


def commands() -> dict[str, object]:
    group = typer.main.get_command(build())
    return {name: group.commands[name] for name in COMMANDS}  # type: ignore[attr-defined]


def params(command: object) -> dict[str, object]:
    return {p.name: p for p in command.params}  # type: ignore[attr-defined]


# The vocabulary: a name means the same flags, default and bounds wherever it appears.
SHARED = {"provider", "tool_choice", "model", "base_url", "strict", "no_emulate", "capabilities", "timeout",
          "retries", "concurrency", "format", "repeat", "save", "raw", "min_obeyed"}
TRANSLATING = ("render", "compare", "send", "parse")
SENDING = ("compare", "send", "probe")


def test_every_translating_command_takes_the_translation_options():
    found = commands()
    for name in TRANSLATING:
        assert {"provider", "tool_choice", "model", "base_url", "strict", "no_emulate", "capabilities"} <= \
            set(params(found[name])), name
    assert {"provider", "tool_choice", "model", "base_url"} <= set(params(found["probe"]))


def test_every_sending_command_has_the_same_send_settings():
    found = commands()
    seen: dict[str, tuple] = {}
    for name in SENDING:
        for option in ("timeout", "retries", "concurrency"):
            p = params(found[name])[option]
            shape = (tuple(sorted(p.opts)), p.default, getattr(p.type, "min", None), getattr(p.type, "max", None))
            assert seen.setdefault(option, shape) == shape, (name, option, shape, seen[option])


def test_a_shared_name_has_the_same_flags_everywhere():
    flags: dict[str, set[str]] = {}
    for name, command in commands().items():
        for pname, p in params(command).items():
            if pname in SHARED and p.opts and p.opts[0].startswith("-"):
                opts = frozenset(o for o in p.opts if o != "--providers")  # --providers: the old spelling, kept
                flags.setdefault(pname, set()).add(opts)
    for pname, variants in flags.items():
        assert len(variants) == 1, (pname, variants)
    assert flags["provider"] == {frozenset({"--provider", "-p"})}
    assert flags["format"] == {frozenset({"--format", "-f"})}
    assert flags["repeat"] == {frozenset({"--repeat", "-n"})}
    assert flags["model"] == {frozenset({"--model", "-m"})}


def test_every_command_has_help_for_every_option():
    for name, command in commands().items():
        for p in command.params:  # type: ignore[attr-defined]
            assert getattr(p, "help", None), (name, p.name)


# ---- schemas ----------------------------------------------------------------------------------


@functools.cache
def _schema_text(name: str) -> str:
    """``toolchoice schema NAME``, run and its document checked against the 2020-12 meta-schema once per name."""
    result = run_cli(["schema", name])
    assert result.returncode == 0, result.stderr
    jsonschema.Draft202012Validator.check_schema(json.loads(result.stdout))
    return result.stdout


def schema(name: str) -> dict:
    return json.loads(_schema_text(name))


@functools.cache
def _validator(name: str) -> Any:
    document = schema(name)
    return jsonschema.validators.validator_for(document)(document)  # what jsonschema.validate builds for it


def validate(instance: object, name: str) -> None:
    """``jsonschema.validate(instance, schema(name))`` with the validator built once per schema: raises
    ``ValidationError`` if the instance does not conform."""
    _validator(name).validate(instance)


@pytest.mark.parametrize("config", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_every_shipped_scenario_validates_against_the_scenario_schema(config):
    import yaml

    validate(yaml.safe_load(config.read_text()), "scenario")


def test_the_schema_file_is_shipped_in_the_package_and_the_starter_names_it(tmp_path):
    path = Path(run_cli(["schema", "scenario", "--path"]).stdout.strip())
    assert path.is_file() and json.loads(path.read_text())["title"] == "toolchoice scenario file"
    out = tmp_path / "starter.yaml"
    assert run_cli(["init", str(out)]).returncode == 0
    text = out.read_text()
    assert f"# yaml-language-server: $schema={path}" in text
    import yaml

    validate(yaml.safe_load(text), "scenario")
    compared = run_cli(["compare", str(out), "-f", "json"])
    assert compared.returncode == 0, compared.stderr
    assert run_cli(["init", str(out)]).returncode == 2  # never overwrites without --force


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in KEY_VARS and "proxy" not in k.lower()}
    out.update({"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "160", "OPENAI_API_KEY": "sk-schema-test"})
    out.update(extra)
    return out


def test_render_json_validates():
    for config in CONFIGS:
        for args in (["-p", "openai"], ["-p", "all"]):
            result = run_cli(["render", str(config), *args, "-f", "json"], env=env())
            validate(json.loads(result.stdout), "render")
    many = run_cli(["render", *map(str, CONFIGS), "-p", "anthropic", "-f", "json"], env=env())
    validate(json.loads(many.stdout), "render")


def served(tmp_path: Path, commands: list[list[str]]) -> list:
    """Each command (name and flags) run on TOOLS against a stand-in OpenAI server, with --format json."""
    path = tmp_path / "s.yaml"
    path.write_text(TOOLS)
    with StandIn("openai") as server:
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(8)])
        base = server.base_url("openai")
        return [run_cli([c[0], str(path), *c[1:], "--base-url", base, "-f", "json"], env=env()) for c in commands]


def test_compare_json_validates_dry_and_sent(tmp_path):
    for config in CONFIGS:
        validate(json.loads(run_cli(["compare", str(config), "-p", "all", "-f", "json"], env=env()).stdout), "compare")
    for result in served(tmp_path, [["compare", "-p", "openai,anthropic", "--send"],
                                    ["compare", "-p", "openai,anthropic", "--send", "-n", "2"]]):
        validate(json.loads(result.stdout), "compare")


def test_send_json_validates_for_one_sample_several_and_a_refusal(tmp_path):
    for result in served(tmp_path, [["send", "-p", "openai"], ["send", "-p", "openai", "-n", "3"]]):
        assert result.returncode == 0, result.stderr
        validate(json.loads(result.stdout), "send")
    refused = run_cli(["send", str(ROOT / "configs/think-forced.yaml"), "-p", "anthropic", "-f", "json"],
                      env=env(ANTHROPIC_API_KEY="x"))
    assert refused.returncode == 3
    validate(json.loads(refused.stdout), "send")


@pytest.mark.parametrize("transcript", ["planner-loop-gemma-270m", "planner-loop-gemma-270m-x5"])
def test_run_json_validates_for_one_loop_and_several(transcript: str):
    """Recorded real transcripts (tests/data/loops/SOURCES.md) replayed offline: one loop, and five."""
    result = run_cli(["run", str(ROOT / "configs/planner-loop.yaml"), "-p", "openai", "--model", "gemma-3-270m",
                      "--replay", str(ROOT / "tests/data/loops" / transcript), "-f", "json"])
    data = json.loads(result.stdout)
    validate(data, "run")
    assert data["replay"] is True and data["runs"][0]["loops"][0]["steps"]
    # every field the document holds is one the schema names (`toolchoice schema run` documents the output)
    defs, run = schema("run")["$defs"], data["runs"][0]
    named = {"document": (data, schema("run")), "run": (run, defs["run"]), "loop": (run["loops"][0], defs["loop"]),
             "step": (run["loops"][0]["steps"][0], defs["step"])}
    if run.get("summary"):
        named["summary"] = (run["summary"], defs["summary"])
    unnamed = {level: sorted(set(value) - set(node["properties"])) for level, (value, node) in named.items()}
    assert unnamed == {level: [] for level in named}


def test_run_json_validates_for_a_loop_ended_by_repeated_calls(tmp_path: Path):
    """`loop.stop.repeated_calls` ends a loop with the reason `repeated_call`: the schema names it. The recorded
    OpenAI reply (tests/data/responses/openai/SOURCES.md) answers both steps, replayed offline."""
    body = (ROOT / "tests/data/responses/openai/openai-chat-single-strict.json").read_text()
    for step in (1, 2):
        (tmp_path / f"step-{step:02d}.response.json").write_text(body)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}, "
                        "state: {type: string}}}}\ntool_choice: required\nmessages: [{role: user, content: Weather?}]\n"
                        "loop: {max_steps: 5, stop: {repeated_calls: 2}, results: {get_weather: sunny}}\n")
    result = run_cli(["run", str(scenario), "-p", "openai", "--replay", str(tmp_path), "-f", "json"], env=env())
    data = json.loads(result.stdout)
    assert data["runs"][0]["loops"][0]["ended"]["reason"] == "repeated_call", result.stderr
    validate(data, "run")


# ---- doctor ---------------------------------------------------------------------------------------


def test_doctor_names_the_set_variables_and_never_their_values():
    secret = "sk-doctor-CANARY-31337"
    result = run_cli(["doctor", str(ROOT / "configs/weather.yaml"), "-f", "json"],
                     env=env(OPENAI_API_KEY=secret, ANTHROPIC_API_KEY=secret))
    assert result.returncode == 0 and secret not in result.stdout + result.stderr
    data = json.loads(result.stdout)
    ready = {k["provider"]: k for k in data["keys"]}
    assert list(ready) == list(PROVIDER_IDS)
    assert ready["anthropic"]["set"] == ["ANTHROPIC_API_KEY"] and ready["gemini"]["set"] == []
    assert ready["llamacpp"]["ready"] and not ready["gemini"]["ready"]
    assert data["dependencies"]["httpx"] and data["toolchoice"]
    pretty = run_cli(["doctor"], env=env(OPENAI_API_KEY=secret))
    assert secret not in pretty.stdout and "OPENAI_API_KEY set" in pretty.stdout


def test_doctor_tells_proxies_from_certificate_variables_and_fits_80_columns():
    """SSL_CERT_FILE / SSL_CERT_DIR are the CA bundle httpx trusts, not proxies (a new user read them as proxies):
    each kind on its own line and JSON key; every line of the pretty form within 80 columns (the versions line
    wrapped)."""
    variables = env(OPENAI_API_KEY="sk-x", HTTPS_PROXY="http://127.0.0.1:9", SSL_CERT_FILE="/tmp/ca.pem", COLUMNS="80")
    variables.pop("SSL_CERT_DIR", None)
    variables.pop("NO_PROXY", None)  # no proxy is used: the doctor runs no request
    data = json.loads(run_cli(["doctor", "-f", "json"], env=variables).stdout)
    assert data["proxy_variables_set"] == ["HTTPS_PROXY"] and data["certificate_variables_set"] == ["SSL_CERT_FILE"]
    pretty = run_cli(["doctor"], env=variables).stdout.splitlines()
    assert "proxy variables set: HTTPS_PROXY" in pretty and "CA certificate variables set: SSL_CERT_FILE" in pretty
    assert all(len(line) <= 80 for line in pretty[1:]), max(pretty[1:], key=len)  # line 1 holds this venv's path
    narrow = run_cli(["doctor"], env={**variables, "COLUMNS": "60"}).stdout.splitlines()
    assert all(len(line) <= 60 for line in narrow[1:]), max(narrow[1:], key=len)


def test_the_scenario_schema_knows_every_key_the_loader_takes():
    """The schema keeps up with the loader: top-level keys and providers.<id> settings."""
    from toolchoice.providers.core.model import SETTINGS_KEYS
    from toolchoice.providers.core.scenario import TOP_KEYS

    s = schema("scenario")
    assert set(s["properties"]) == set(TOP_KEYS)
    assert set(s["properties"]["providers"]["additionalProperties"]["properties"]) == set(SETTINGS_KEYS)
    assert s["properties"]["providers"]["propertyNames"]["enum"] == list(PROVIDER_IDS)


def test_the_scenario_schema_knows_every_per_tool_field_the_loader_takes():
    """Each tool form of the schema lists the per-tool fields the loader reads (TOOL_FIELD_TYPES, with their JSON
    types; a flat custom tool's CUSTOM_TOOL_FIELDS among them), so an editor does not flag a field an SDK has."""
    from toolchoice.providers.core.model import CUSTOM_TOOL_FIELDS, TOOL_FIELD_TYPES

    names = {list: "array", bool: "boolean", dict: "object", str: "string"}
    forms = schema("scenario")["properties"]["tools"]["items"]["oneOf"]
    wrapped = next(f["properties"]["function"] for f in forms if "function" in f.get("properties", {}))
    flat = next(f for f in forms if f.get("properties", {}).get("type", {}).get("enum") == ["function", "custom"])
    for form in (wrapped, flat):
        for key, (kind,) in TOOL_FIELD_TYPES.items():
            assert form["properties"].get(key, {}).get("type") == names[kind], key
    assert set(CUSTOM_TOOL_FIELDS) <= set(flat["properties"])


# ---- provider ids in the shipped schemas come from the capability table ------------------------------

PROVIDER_ENUMS = {"scenario": ("properties", "providers", "propertyNames", "enum"),
                  "render": ("$defs", "translation", "properties", "provider", "enum"),
                  "compare": ("$defs", "translation", "properties", "provider", "enum"),
                  "mock": ("properties", "provider", "enum")}


def provider_enum(name: str) -> tuple[Path, dict, dict, str]:
    """The shipped schema file ``name``, its document, and the node and key of its provider-id list."""
    from importlib import resources

    path = Path(str(resources.files("toolchoice.cli").joinpath("schemas", f"{name}.schema.json")))
    schema = json.loads(path.read_text(encoding="utf-8"))
    *parents, last = PROVIDER_ENUMS[name]
    node = schema
    for key in parents:
        node = node[key]
    return path, schema, node, last


if os.environ.get("TOOLCHOICE_UPDATE_SCHEMAS"):  # on import, before any test of this run reads a schema
    for _name in PROVIDER_ENUMS:
        _path, _schema, _node, _last = provider_enum(_name)
        if _node[_last] != list(PROVIDER_IDS):
            _node[_last] = list(PROVIDER_IDS)
            _path.write_text(json.dumps(_schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", sorted(PROVIDER_ENUMS))
def test_the_schemas_list_the_provider_ids_of_the_capability_table(name: str) -> None:
    """A provider added as a capability row is known to the editors' schemas too: refresh the files on
    purpose with TOOLCHOICE_UPDATE_SCHEMAS=1 (ARCHITECTURE.md, adding a provider)."""
    _, _, node, last = provider_enum(name)
    assert node[last] == list(PROVIDER_IDS)
