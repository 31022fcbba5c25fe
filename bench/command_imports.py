"""Which modules each command imports, a baseline tree against this one (start-up stays at the floor).

Each side is a Python that imports its own tree (a worktree with its own venv, as for range_instructions.py). Every
command runs in a fresh interpreter with ``-X importtime``; the set is that interpreter's ``sys.modules`` after the
command ran, and the added modules' cumulative import time (µs, inflated by ``-X importtime``: a ranking) is read
from stderr. A command the baseline does not have (``--dialect litellm``) is listed for this tree alone.

    python bench/command_imports.py --base-python /tmp/base/.venv/bin/python

Prints one row per command (modules on each side, added, removed) and the added/removed names; writes
``bench/results/command_imports.json``. Nothing reaches the internet: send and run go to the stand-in on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

_CHILD = (
    "import io, json, sys, contextlib\n"
    "from toolchoice.cli.app import run\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
    "    try:\n"
    "        code = run(sys.argv[1:])\n"
    "    except SystemExit as exit:\n"
    "        code = exit.code\n"
    "sys.stdout.write(json.dumps({'code': code, 'modules': sorted(sys.modules)}))\n"
)

# What render must never import, on any dialect (ARCHITECTURE.md: a command imports only what it uses).
RENDER_NEVER = ("httpx", "httpcore", "regex", "litellm", "toolchoice.providers.litellm_rules",
                "toolchoice.providers.core.facts", "toolchoice.providers.core.fact_values",
                "toolchoice.providers.core.choice_word_facts", "toolchoice.providers.core.refusal_words")


def imported(python: str, argv: list[str], env: dict[str, str]) -> tuple[object, set[str], dict[str, int]]:
    proc = subprocess.run([python, "-X", "importtime", "-c", _CHILD, *argv], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **env}, timeout=300, check=False)
    if not proc.stdout.strip():
        raise SystemExit(f"{argv}: no output\n{proc.stderr[-2000:]}")
    seen = json.loads(proc.stdout)
    times = {}
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            if cumulative.isdigit():
                times[name] = int(cumulative)
    return seen["code"], set(seen["modules"]), times


def commands(folder: Path, send_scenario: str, loop_scenario: str, base_url: str) -> list[tuple[str, list[str]]]:
    weather = "configs/weather.yaml"
    reply = "tests/data/responses/openai/openai-chat-parallel.json"
    trace = "tests/data/traces/genai-span-events.json"
    return [
        ("render -f json", ["render", weather, "-p", "openai", "-f", "json"]),
        ("render pretty", ["render", weather, "-p", "openai"]),
        ("render -p all -f json", ["render", weather, "-p", "all", "-f", "json"]),
        ("render -p anthropic -f json", ["render", weather, "-p", "anthropic", "-f", "json"]),
        ("render -f curl", ["render", weather, "-p", "openai", "-f", "curl"]),
        ("render --dialect langchain -f json", ["render", weather, "-p", "openai", "--dialect", "langchain",
                                                "-f", "json"]),
        ("render --dialect langchain pretty", ["render", weather, "-p", "anthropic", "--dialect", "langchain"]),
        ("render --dialect litellm -f json", ["render", weather, "-p", "openai", "--dialect", "litellm",
                                              "-f", "json"]),
        ("render .json scenario -f json", ["render", str(folder / "weather.json"), "-p", "openai", "-f", "json"]),
        ("compare -p all -f json", ["compare", weather, "-p", "all", "-f", "json"]),
        ("compare -p all pretty", ["compare", weather, "-p", "all"]),
        ("compare -p all -f markdown", ["compare", weather, "-p", "all", "-f", "markdown"]),
        ("compare --dialect langchain", ["compare", weather, "-p", "all", "--dialect", "langchain"]),
        ("providers", ["providers"]),
        ("providers -f json", ["providers", "-f", "json"]),
        ("providers --model claude-opus-5", ["providers", "--model", "claude-opus-5"]),
        ("parse", ["parse", reply, "-p", "openai"]),
        ("parse -f json", ["parse", reply, "-p", "openai", "-f", "json"]),
        ("send -f json", ["send", send_scenario, "-p", "openai", "-f", "json", "--retries", "0"]),
        ("send pretty", ["send", send_scenario, "-p", "openai", "--retries", "0"]),
        ("run -f json", ["run", loop_scenario, "-p", "openai", "--base-url", base_url, "-f", "json",
                         "--retries", "0"]),
        ("run --dry-run", ["run", loop_scenario, "-p", "openai", "--dry-run"]),
        ("tools FILE", ["tools", "tests/data/tools/openai-chat.json"]),
        ("trace FILE", ["trace", trace]),
        ("schema", ["schema"]),
        ("doctor", ["doctor"]),
        ("--help", ["--help"]),
        ("send --help", ["send", "--help"]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-python", required=True)
    parser.add_argument("--head-python", default=sys.executable)
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from concurrency import fake_keys, load_stand_in, write_scenario
    from send_scale import LOOP_SECTION

    stand_in = load_stand_in()
    server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=0.0)).start()
    results = {}
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            import yaml
            doc = yaml.safe_load((ROOT / "configs" / "weather.yaml").read_text(encoding="utf-8"))
            (folder / "weather.json").write_text(json.dumps(doc), encoding="utf-8")
            env = {**fake_keys(), "COLUMNS": "80"}
            cases = commands(folder, str(write_scenario({"openai": server})),
                             str(write_scenario({"openai": server}, LOOP_SECTION)), server.base_url("openai"))
            print("| command | code base/head | base | head | added | removed |\n|---|---|---|---|---|---|")
            for label, argv in cases:
                base_code, base, _ = imported(args.base_python, argv, env)
                head_code, head, times = imported(args.head_python, argv, env)
                new_command = base_code == 2 and head_code != 2
                added, removed = sorted(head - base), sorted(base - head)
                never = sorted(m for m in head if label.startswith("render")
                               and any(m == n or m.startswith(n + ".") for n in RENDER_NEVER))
                results[label] = {"argv": argv, "codes": [base_code, head_code], "base": len(base),
                                  "head": len(head), "added": added, "removed": removed, "render_never": never,
                                  "added_us": {m: times.get(m, 0) for m in added}}
                shown = "(new command)" if new_command else f"{len(added)}"
                print(f"| {label} | {base_code}/{head_code} | {len(base)} | {len(head)} | {shown} | {len(removed)} |",
                      flush=True)
                if added and not new_command:
                    print("    added:", ", ".join(f"{m} ({times.get(m, 0)} µs)" for m in added))
                if removed:
                    print("    removed:", ", ".join(removed))
                if never:
                    print("    RENDER IMPORTS:", ", ".join(never))
    finally:
        server.stop()
    (BENCH / "results").mkdir(exist_ok=True)
    (BENCH / "results" / "command_imports.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
