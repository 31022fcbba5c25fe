"""Sending concurrently, against local stand-in servers (tests/servers.py) with injected latency.

- one `send` to a server that answers after 300 ms (the baseline),
- `compare --send` over every provider (19 on 2026-11-23), each its own server answering after 300 ms (the
  OpenAI-compatible hosts without a recorded reply of their own answer with OpenAI's),
- `send --repeat 100 --concurrency 10` to a server answering after 100 ms (ideal: 10 waves, 1.0 s).

The stand-in is imported by path and used as is; it sets TCP_NODELAY (without it, its
header-then-body writes meet the client's delayed ACK and each reply waits ~40 ms more) and a
listen backlog of 128 (the default 5 makes a burst of connects wait for SYN retries).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from measure import RESULTS, ROOT, Command, Run, child_env, entry_argv, median, run_once
from corpus import PROVIDER_SETTINGS
from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS

COMPARE_PROVIDERS = tuple(PROVIDER_IDS)  # every provider in the capability table
COMPARE_DELAY = 0.3
REPEAT, CONCURRENCY, REPEAT_DELAY = 100, 10, 0.1
OK_EXITS = (0, 4)  # 4: a canned reply "disobeyed" the scenario; the request/response work was all done

# Tools named as the recorded replies call them (tests/data/responses/<provider>/), no required args.
SEND_TOOLS = [
    {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                                             "state": {"type": "string"}}}},
    {"name": "weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}},
    {"name": "get_current_weather", "parameters": {"type": "object", "properties": {
        "location": {"type": "string"}, "format": {"type": "string"}}}},
    {"name": "cityAttractions", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
]


def load_stand_in() -> ModuleType:
    """tests/servers.py, imported by path, tuned for this process (see the module docstring)."""
    spec = importlib.util.spec_from_file_location("toolchoice_bench_servers", ROOT / "tests" / "servers.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module._Handler.disable_nagle_algorithm and module._Server.request_queue_size >= 128
    return module


def stand_in_for(module: ModuleType, provider: str, delay: float) -> Any:
    """A server answering as ``provider`` after ``delay``; hosts with no recorded reply answer as OpenAI."""
    recorded = provider if provider in module.DEFAULT_REPLY else "openai"
    return module.StandIn(provider, default=module.Step.reply(recorded, delay=delay))


@dataclass
class SendResult:
    status: str  # "ok" | "pending" | "failed"
    detail: str = ""
    runs: list[Run] = field(default_factory=list)
    first_request_s: list[float] = field(default_factory=list)  # from spawn to the server seeing the first request
    last_request_s: list[float] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return median([r.seconds for r in self.runs])


def write_scenario(servers: dict[str, Any], loop: dict[str, Any] | None = None) -> Path:
    """The scenario the sends use; with ``loop``, that ``loop:`` section too (send_scale.py's loops)."""
    providers = {p: {**PROVIDER_SETTINGS[p], "base_url": s.base_url(p)} for p, s in servers.items()}
    doc: dict[str, Any] = {"tools": SEND_TOOLS, "tool_choice": "auto",
                           "messages": [{"role": "user", "content": "What's the weather in San Francisco?"}],
                           "providers": providers}
    if loop is not None:
        doc["loop"] = loop
    path = RESULTS / ("loop-scenario.yaml" if loop is not None else "send-scenario.yaml")
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def fake_keys() -> dict[str, str]:
    return {env: "bench-not-a-key" for cap in CAPABILITIES.values() for env in cap.key_env}


@dataclass
class Job:
    command: Command
    servers: list[Any]
    expected: int  # requests the servers must receive per run


def clear(job: Job) -> None:
    for server in job.servers:
        server.requests.clear()


def check(job: Job) -> SendResult:
    """One run with output: did it work (exit 0/4, every request reached its server)?"""
    clear(job)
    run, _, stderr = run_once(job.command, capture=True)
    got = sum(len(s.requests) for s in job.servers)
    if run.returncode in OK_EXITS and got == job.expected:
        return SendResult("ok")
    last = (stderr.strip().splitlines() or [""])[-1][:200]
    status = "pending" if "No module named" in stderr or "No such " in stderr else "failed"
    return SendResult(status, f"exit {run.returncode}, {got}/{job.expected} requests: {last}")


def time_once(job: Job, result: SendResult) -> None:
    clear(job)
    spawned = time.monotonic()
    run, _, _ = run_once(job.command)
    arrivals = sorted(r.at for s in job.servers for r in s.requests)
    if run.returncode not in OK_EXITS or len(arrivals) != job.expected:
        result.status, result.detail = "failed", f"exit {run.returncode}, {len(arrivals)}/{job.expected} requests"
        return
    result.runs.append(run)
    result.first_request_s.append(arrivals[0] - spawned)
    result.last_request_s.append(arrivals[-1] - spawned)


def measure_concurrency(rounds: int) -> dict[str, SendResult]:
    stand_in = load_stand_in()
    entry = entry_argv()
    env = child_env(**fake_keys())
    slow = {p: stand_in_for(stand_in, p, COMPARE_DELAY) for p in COMPARE_PROVIDERS}
    fast = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=REPEAT_DELAY))
    for server in [*slow.values(), fast]:
        server.start()
    try:
        scenario = str(write_scenario(slow))
        one = Command("send", (*entry, "send", scenario, "--provider", "openai", "--format", "json"), env)
        compare = Command("compare --send", (*entry, "compare", scenario, "--providers", ",".join(COMPARE_PROVIDERS),
                                             "--send", "--format", "json"), env)
        repeat = Command("send --repeat", (*entry, "send", scenario, "--provider", "openai", "--base-url",
                                           fast.base_url("openai"), "--repeat", str(REPEAT), "--concurrency",
                                           str(CONCURRENCY), "--format", "json"), env)
        jobs = {"send": Job(one, [slow["openai"]], 1),
                "compare_send": Job(compare, list(slow.values()), len(COMPARE_PROVIDERS)),
                "repeat": Job(repeat, [fast], REPEAT)}
        results = {name: check(job) for name, job in jobs.items()}
        for _ in range(rounds):  # interleaved, like the startup runs
            for name, job in jobs.items():
                if results[name].status == "ok":
                    time_once(job, results[name])
        return results
    finally:
        for server in [*slow.values(), fast]:
            server.stop()
