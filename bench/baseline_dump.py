"""Baseline dump for refactors that must not change behaviour: every render (json, pretty, curl, --stream)
and compare (json, pretty, markdown) of the shipped configs for every provider, every translation of the
bench corpus (streamed or not), every parse and verdict of the recorded bodies and streams, and the
providers matrix, through the CLI in-process. Run it before and after a change and `cmp` the files:

    python bench/baseline_dump.py . /tmp/before.txt   # on the old commit
    python bench/baseline_dump.py . /tmp/after.txt && cmp /tmp/before.txt /tmp/after.txt
"""
import json, os, sys
from pathlib import Path
ROOT = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "bench"))
os.environ["COLUMNS"] = "100"
from tests.cli import run_cli
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.registry import translate, parse_reply
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
out = open(sys.argv[2], "w")
def w(*parts): out.write(" | ".join(str(p) for p in parts) + "\n")
env = {"PATH": os.environ["PATH"], "COLUMNS": "100", "HOME": "/tmp/arch"}
os.chdir(ROOT)
w("providers", run_cli(["providers", "-f", "json"], env=env))
w("providers", run_cli(["providers", "-f", "markdown"], env=env))
for cfg in sorted((ROOT / "configs").glob("*.yaml")):
    rel = f"configs/{cfg.name}"
    for fmt in ("json", "pretty", "markdown"):
        w("compare", rel, fmt, run_cli(["compare", rel, "-f", fmt], env=env))
    for p in PROVIDER_IDS:
        for fmt in ("json", "pretty", "curl"):
            w("render", rel, p, fmt, run_cli(["render", rel, "-p", p, "-f", fmt], env=env))
        w("render-stream", rel, p, run_cli(["render", rel, "-p", p, "-f", "json", "--stream"], env=env))
from corpus import cases
from throughput import scenarios
for i, sc in enumerate(scenarios()):
    for p in PROVIDER_IDS:
        for stream in (False, True):
            try:
                t = translate(p, sc, RenderOptions(stream=stream))
                req = t.request
                w("corpus", i, p, stream, req and json.dumps([req.url, req.body, dict(req.headers)], sort_keys=True, default=str),
                  json.dumps([list(e) for e in t.ledger], default=str))
            except ToolchoiceError as e:
                w("corpus", i, p, stream, "error", e.one_line())
resp = ROOT / "tests/data/responses"
for f in sorted(resp.rglob("*.json")):
    if f.name.endswith(".expect.json"):
        continue
    for p in PROVIDER_IDS:
        if p in f.parent.name or p in f.name:
            for cfg in ("configs/weather.yaml", None):
                args = ["parse", str(f.relative_to(ROOT)), "-p", p, "-f", "json"] + (["-s", cfg] if cfg else [])
                w("parse", f.name, p, cfg, run_cli(args, env=env))
            w("parse-pretty", f.name, p, run_cli(["parse", str(f.relative_to(ROOT)), "-p", p, "-s", "configs/weather.yaml"], env=env))
for f in sorted((ROOT / "tests/data/streams").rglob("*.chunks.txt")):
    p = f.parent.name
    w("parse-stream", f.name, p, run_cli(["parse", str(f.relative_to(ROOT)), "-p", p, "--stream", "-f", "json", "-s", "configs/weather.yaml"], env=env))
