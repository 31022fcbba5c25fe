"""No network in dry runs: render, compare (dry), `send --dry-run`, parse and providers, for every
provider × every shipped config × every format, run with sockets blocked — and with every key set,
so a dry run that would send "because it could" is caught too.

The runner replaces ``socket.socket`` (construction, connect, connect_ex), ``socket.create_connection``,
``socket.getaddrinfo`` and ``socket.socketpair`` with functions that record the attempt and raise, then
runs the real `toolchoice` click command in-process once per job, in two runner processes started once
for the module (tests/runner_pool.py: two cold starts for ~1300 jobs).
An attempt is recorded even when something catches the exception, so a swallowed connection
attempt still fails the test. Exit codes are checked against the translator itself: 3 exactly when
the translation is refused (``request`` is None), else 0.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario

from runner_pool import BLOCK_SOCKETS, RunnerPool

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
RESPONSES = ROOT / "tests" / "data" / "responses"
KEY_VARS = sorted({name for cap in CAPABILITIES.values() for name in cap.key_env})


def runner_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLCHOICE_")}
    env.update({name: f"offline-canary-{name.lower()}" for name in KEY_VARS})  # keys present: still no socket
    env.update({"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    return env


@pytest.fixture(scope="module")
def pool() -> Iterator[RunnerPool]:
    """Two runner processes (the machine's cores), for the matrix and the blocker's own check."""
    runners = RunnerPool(2, runner_env(), prelude=BLOCK_SOCKETS)
    try:
        yield runners
    finally:
        at_exit = runners.close()
        assert "Traceback" not in at_exit, at_exit[-3000:]


def run_jobs(pool: RunnerPool, jobs: dict[str, list[str]], processes: int | None = None) -> dict[str, dict[str, Any]]:
    results, output = pool.run({name: {"argv": argv} for name, argv in jobs.items()}, processes)
    assert "Traceback" not in output, output[-3000:]
    return results


def success_bodies(provider: str) -> list[Path]:
    """Recorded success bodies in the provider's format (OpenAI-compatible hosts read OpenAI's)."""
    folder = RESPONSES / provider if (RESPONSES / provider).is_dir() else RESPONSES / "openai"
    if provider == "azure":
        folder = RESPONSES / "openai"
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expect.json")
                  and not p.name.startswith("error-"))


ERROR_BODIES = sorted(p for p in (RESPONSES / "errors").iterdir() if p.suffix in (".json", ".html")
                      and not p.name.endswith(".expect.json"))


LOCAL = "http://127.0.0.1:1/v1"


@lru_cache(maxsize=None)  # asked for each kind of job: one translation per config, provider and base URL
def refused(config: Path, provider: str, base_url: str | None = None) -> bool:
    """What the translator itself says (the CLI must agree): is this request refused? At a base URL that replaces a
    hosted API's host, that API's refusals are warnings (core/host_rules.py)."""
    return translate(provider, load_scenario(config), RenderOptions(base_url=base_url)).request is None


@pytest.fixture(scope="module")
def results(pool: RunnerPool) -> dict[str, dict[str, Any]]:
    jobs: dict[str, list[str]] = {}
    for config in CONFIGS:
        for pid in PROVIDER_IDS:
            for fmt in ("pretty", "json", "curl"):
                jobs[f"render/{config.name}/{pid}/{fmt}"] = ["render", str(config), "-p", pid, "-f", fmt]
            for fmt in ("pretty", "json"):
                jobs[f"send-dry/{config.name}/{pid}/{fmt}"] = ["send", str(config), "-p", pid, "--dry-run", "-f", fmt]
            # a local base URL: still no socket
            jobs[f"send-dry-local/{config.name}/{pid}/json"] = ["send", str(config), "-p", pid, "--dry-run", "-f",
                                                                "json", "--base-url", LOCAL]
            body = success_bodies(pid)[0]
            jobs[f"parse-judged/{config.name}/{pid}/json"] = ["parse", str(body), "-p", pid, "--scenario",
                                                              str(config), "-f", "json"]
        for fmt in ("pretty", "json", "markdown"):
            jobs[f"compare/{config.name}/all/{fmt}"] = ["compare", str(config), "--providers", "all", "-f", fmt]
        jobs[f"render-all/{config.name}/all/json"] = ["render", str(config), "-p", "all", "-f", "json"]
    for pid in PROVIDER_IDS:
        for body in success_bodies(pid):
            for fmt in ("pretty", "json"):
                jobs[f"parse-ok/{body.name}/{pid}/{fmt}"] = ["parse", str(body), "-p", pid, "-f", fmt]
        for body in ERROR_BODIES:
            jobs[f"parse-error/{body.name}/{pid}/json"] = ["parse", str(body), "-p", pid, "-f", "json"]
    for fmt in ("pretty", "json", "markdown"):
        jobs[f"providers/-/-/{fmt}"] = ["providers", "-f", fmt]
    return run_jobs(pool, jobs)


def group(results: dict[str, dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {name: r for name, r in results.items() if name.split("/")[0] == kind}


def no_socket_no_crash(name: str, result: dict[str, Any]) -> None:
    assert result["sockets"] == [], (name, result["sockets"])
    assert "Traceback" not in result["stderr"] and "internal error" not in result["stderr"], (name, result["stderr"])
    # the blocked socket's own words (tests/runner_pool.py): a recorded reply may say "blocked" itself
    assert "toolchoice dry-run test:" not in result["stdout"] + result["stderr"], name


def test_every_job_ran(results):
    kinds = {name.split("/")[0] for name in results}
    assert kinds == {"render", "render-all", "send-dry", "send-dry-local", "compare", "parse-ok", "parse-error",
                     "parse-judged", "providers"}
    assert len(group(results, "render")) == len(CONFIGS) * len(PROVIDER_IDS) * 3


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.name)
def test_render_and_send_dry_run_open_no_socket_and_exit_as_the_translation_says(results, config):
    for kind in ("render", "send-dry", "send-dry-local"):
        for pid in PROVIDER_IDS:
            expected = 3 if refused(config, pid, LOCAL if kind == "send-dry-local" else None) else 0
            for name, result in results.items():
                if name.startswith(f"{kind}/{config.name}/{pid}/"):
                    no_socket_no_crash(name, result)
                    assert result["code"] == expected, (name, result["code"], result["stderr"])
                    assert result["stdout"].strip(), name
    for pid in PROVIDER_IDS:  # send --dry-run prints exactly what render prints
        for fmt in ("pretty", "json"):
            assert (results[f"send-dry/{config.name}/{pid}/{fmt}"]["stdout"]
                    == results[f"render/{config.name}/{pid}/{fmt}"]["stdout"]), (pid, fmt)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.name)
def test_compare_dry_run_opens_no_socket(results, config):
    expected = 3 if any(refused(config, pid) for pid in PROVIDER_IDS) else 0
    for kind in ("compare", "render-all"):
        for name, result in results.items():
            if name.startswith(f"{kind}/{config.name}/"):
                no_socket_no_crash(name, result)
                assert result["code"] == expected, (name, result["code"], result["stderr"])
    data = json.loads(results[f"compare/{config.name}/all/json"]["stdout"])
    assert [p["provider"] for p in data["providers"]] == list(PROVIDER_IDS)


def test_parse_opens_no_socket(results):
    ok = group(results, "parse-ok")
    assert len(ok) >= 2 * len(PROVIDER_IDS)
    for name, result in ok.items():
        no_socket_no_crash(name, result)
        assert result["code"] == 0, (name, result["stdout"][-500:])
    errors = group(results, "parse-error")
    assert len(errors) == len(ERROR_BODIES) * len(PROVIDER_IDS)
    for name, result in errors.items():
        no_socket_no_crash(name, result)
        assert result["code"] == 1, (name, result["stdout"][-500:])
        assert json.loads(result["stdout"])["error"], name
    for name, result in group(results, "parse-judged").items():
        no_socket_no_crash(name, result)
        assert result["code"] in (0, 4), (name, result["code"], result["stderr"])
        assert json.loads(result["stdout"])["verdict"]["category"] != "error", name


def test_providers_matrix_opens_no_socket(results):
    for name, result in group(results, "providers").items():
        no_socket_no_crash(name, result)
        assert result["code"] == 0


def test_the_blocker_catches_a_real_send(pool: RunnerPool):
    """The harness can fail: a real `send` (no --dry-run) under the same blocker records an attempt."""
    config = str(ROOT / "configs" / "weather.yaml")
    out = run_jobs(pool, {"send": ["send", config, "-p", "openai", "--base-url", "http://127.0.0.1:1/v1",
                                   "--retries", "0", "-f", "json"]}, processes=1)["send"]
    assert out["sockets"], out  # (asyncio's self-pipe socketpair comes first: blocked, so the send fails)
    assert out["code"] != 0
