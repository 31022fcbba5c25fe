"""Cold start of `render` and `compare` against the stack floors, peak RSS, and what render imports.

``python -X importtime`` writes one line per module, a child before its parent, indented by depth.
Reading the lines backwards turns that into a pre-order walk, so a stack of names per depth gives
each module's ancestors: that is how a module is attributed to rich (imported while rich was).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from measure import BENCH, Command, Run, child_env, entry_argv, interleaved, peak_rss_mib, run_once
from toolchoice.providers.core.capabilities import PROVIDER_IDS

FLOOR_IMPORTS = "import typer, yaml, json"

# What `render --format json` must not import: HTTP, schema validation, rich, and any translator but
# the one asked for (openai -> openai_chat), nor send/verdict machinery.
HEAVY_PACKAGES = ("httpx", "httpcore", "h11", "anyio", "jsonschema", "referencing", "rpds", "rich", "pygments",
                  "markdown_it")
UNNEEDED_OWN = ("anthropic", "bedrock", "cohere", "gemini", "ollama", "openai_responses", "transport", "verdict",
                "errors", "overlay", "langchain_dialect")

_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( +)(\S+)")


@dataclass(frozen=True)
class Imported:
    name: str
    self_us: int
    cumulative_us: int
    ancestors: tuple[str, ...]


def parse_importtime(stderr: str) -> list[Imported]:
    rows = [(m.group(4), int(m.group(1)), int(m.group(2)), (len(m.group(3)) - 1) // 2)
            for m in map(_LINE.match, stderr.splitlines()) if m]
    stack: list[str] = []
    out = []
    for name, self_us, cumulative_us, depth in reversed(rows):
        del stack[depth:]
        out.append(Imported(name, self_us, cumulative_us, tuple(stack)))
        stack.append(name)
    return out


def package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "toolchoice" else parts[0]


def startup_commands(scenario: Path) -> list[Command]:
    exe, entry, env = sys.executable, entry_argv(), child_env()
    no_cache = {k: v for k, v in env.items() if k != "PYTHONPYCACHEPREFIX"} | {"PYTHONDONTWRITEBYTECODE": "1"}
    render = (*entry, "render", str(scenario), "--provider", "openai")
    return [
        Command("python -c pass", (exe, "-c", "pass"), env),
        Command("stack floor", (exe, "-c", FLOOR_IMPORTS), env),
        Command("typer app floor", (exe, str(BENCH / "typer_app.py"), "render", str(scenario), "--provider",
                                    "openai", "--format", "json"), env),
        Command("render json", (*render, "--format", "json"), env),
        Command("render pretty", render, env),
        Command("compare json", (*entry, "compare", str(scenario), "--providers", "all", "--format", "json"), env),
        Command("render json, no bytecode cache", (*render, "--format", "json"), no_cache),
    ]


def check_outputs(commands: Sequence[Command]) -> dict[str, str]:
    """Run each command once (warm-up: fills the bytecode cache) and check it did its job."""
    problems = {}
    for command in commands:
        run, stdout, stderr = run_once(command, capture=True)
        if run.returncode != 0:
            problems[command.name] = f"exit {run.returncode}: {(stderr.strip().splitlines() or [''])[-1][:160]}"
        elif command.name == "render json" and not _is_openai_request(stdout):
            problems[command.name] = "render did not print the openai request"
        elif command.name == "compare json" and _provider_count(stdout) != len(PROVIDER_IDS):
            problems[command.name] = f"compare did not print {len(PROVIDER_IDS)} providers"
    return problems


def _is_openai_request(stdout: str) -> bool:
    try:
        data = json.loads(stdout)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("provider") == "openai" and data.get("request") is not None


def _provider_count(stdout: str) -> int:
    try:
        return len(json.loads(stdout)["providers"])
    except (ValueError, KeyError, TypeError):
        return -1


@dataclass
class Startup:
    runs: dict[str, list[Run]]  # timed runs per command
    rss_mib: dict[str, float]  # peak RSS per command (max over a few runs)
    problems: dict[str, str]  # command -> what went wrong in its checked run


def measure_startup(scenario: Path, rounds: int, rss_runs: int = 3) -> Startup:
    commands = startup_commands(scenario)
    problems = check_outputs(commands)
    runs = interleaved(commands, rounds)
    return Startup(runs, {c.name: peak_rss_mib(c, rss_runs) for c in commands}, problems)


# ---- import analysis ------------------------------------------------------------------------------


def importtime_runs(command: Command, runs: int) -> list[list[Imported]]:
    argv = (command.argv[0], "-X", "importtime", *command.argv[1:])
    out = []
    for _ in range(runs):
        _, _, stderr = run_once(Command(command.name, argv, command.env), capture=True)
        out.append(parse_importtime(stderr))
    return out


def median_self_us(runs: list[list[Imported]]) -> dict[str, float]:
    samples: dict[str, list[int]] = defaultdict(list)
    for run in runs:
        for item in run:
            samples[item.name].append(item.self_us)
    return {name: sorted(v)[len(v) // 2] for name, v in samples.items()}


def import_causes(tree: list[Imported], beyond: set[str]) -> dict[str, str]:
    """package -> the package whose import pulled it in (its outermost ancestor beyond the floor)."""
    votes: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for item in tree:
        if item.name not in beyond:
            continue
        root = next((a for a in item.ancestors if a in beyond), item.name)
        if package_of(root) != package_of(item.name):
            votes[package_of(item.name)][package_of(root)] += 1
    return {package: max(causes, key=causes.__getitem__) for package, causes in votes.items()}


def analyse_imports(scenario: Path, runs: int) -> dict[str, object]:
    """Modules render imports beyond the floor (by package), toolchoice's own top offenders, modules
    render json should not import, and what pretty adds beyond rich and toolchoice's own drawing code (the
    tables and rows it draws are toolchoice's; a third-party package other than rich is what the check is for)."""
    by_name = {c.name: c for c in startup_commands(scenario)}
    floor_runs = importtime_runs(by_name["stack floor"], runs)
    json_runs = importtime_runs(by_name["render json"], runs)
    pretty_runs = importtime_runs(by_name["render pretty"], runs)
    floor, render, pretty = median_self_us(floor_runs), median_self_us(json_runs), median_self_us(pretty_runs)

    beyond = {name: us for name, us in render.items() if name not in floor}
    packages: dict[str, float] = defaultdict(float)
    for name, us in beyond.items():
        packages[package_of(name)] += us
    via = import_causes(json_runs[0], set(beyond))
    own = sorted(((n, us) for n, us in render.items() if n.startswith("toolchoice.")), key=lambda x: -x[1])
    own_unneeded = {f"toolchoice.providers.{m}" for m in UNNEEDED_OWN}
    not_lazy = sorted(n for n in render if n.split(".")[0] in HEAVY_PACKAGES or n in own_unneeded)

    pretty_tree = pretty_runs[0]
    rich_owned = {i.name for i in pretty_tree
                  if i.name.split(".")[0] == "rich" or any(a.split(".")[0] == "rich" for a in i.ancestors)}
    pretty_extra = sorted(n for n in pretty if n not in render)
    return {
        "beyond_floor_ms": round(sum(beyond.values()) / 1000, 1),
        "beyond_floor_by_package_ms": {p: round(us / 1000, 1) for p, us in
                                      sorted(packages.items(), key=lambda x: -x[1])[:12]},
        "imported_via": {p: via[p] for p in sorted(packages, key=lambda p: -packages[p])[:12] if p in via},
        "own_modules_self_ms": {n: round(us / 1000, 2) for n, us in own[:10]},
        "own_modules_total_ms": round(sum(us for _, us in own) / 1000, 1),
        "render_json_not_lazy": not_lazy,
        "pretty_extra_count": len(pretty_extra),
        "pretty_extra_not_rich": [n for n in pretty_extra if n not in rich_owned and n.split(".")[0] != "toolchoice"],
        "pretty_extra_own": [n for n in pretty_extra if n not in rich_owned and n.split(".")[0] == "toolchoice"],
        "pretty_extra_ms": round(sum(pretty[n] for n in pretty_extra) / 1000, 1),
    }
