"""List the capability rows, dated facts and model rules last verified more than N days ago.

    python bench/stale_facts.py --older-than 90            # a table; exit 1 when any is listed
    python bench/stale_facts.py --older-than 0 --format json
    python bench/stale_facts.py --sdks                     # pinned SDKs older than their newest release

--sdks asks the package registry (``pip index versions``, the only network use) for each SDK pinned in
pyproject's ``test`` extra and lists those whose pin (or lower bound) is older than the newest release.

A maintainer re-verifies what it lists at the named source and moves the date forward. Model rules
(providers/core/model_rule_data.py, read through model_rules.py) are listed when they carry a source and a date.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
from typing import Any, Iterator


def dated_items() -> Iterator[dict[str, Any]]:
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.facts import FACTS

    for cap in CAPABILITIES.values():
        yield {"id": f"capability:{cap.provider}", "verified": cap.verified, "source": "; ".join(cap.sources)}
    for fact in FACTS:
        yield {"id": f"fact:{fact.id}", "verified": fact.verified, "source": fact.source}
    try:
        from toolchoice.providers.core import model_rules  # built by another change; optional here
    except ImportError:
        return
    for rule in getattr(model_rules, "RULES", ()):
        date = getattr(rule, "verified", None) or getattr(rule, "checked", None)
        source = getattr(rule, "source", None)
        if date and source:
            yield {"id": f"rule:{getattr(rule, 'id', getattr(rule, 'pattern', '?'))}", "verified": date,
                   "source": source}


def pinned_sdks() -> list[tuple[str, str]]:
    """(package, pinned version or lower bound) for the SDKs in pyproject's test extra."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    # the list ends at the first "]" that closes a line: a requirement's extras ("pydantic-ai-slim[openai]") hold
    # brackets too (the first "]" stopped the list there until 2026-11-27, and every pin after it went unchecked)
    block = re.search(r"^test = \[(.*?)\]\s*$", text, re.S | re.M)
    pins = re.findall(r'"([A-Za-z0-9_.-]+)(?:\[[^\]"]*\])?\s*(?:==|>=)\s*([0-9][0-9A-Za-z.]*)',
                      block.group(1) if block else "")
    skip = {"pytest", "hypothesis", "mcp"}
    return [(name, version) for name, version in pins if name not in skip]


def _version_key(version: str) -> tuple[int, ...]:
    parts = [int(part) for part in re.findall(r"\d+", version)[:4]]
    return tuple(parts + [0] * (4 - len(parts)))  # 2.14 == 2.14.0


def newest_release(package: str) -> str | None:
    """The newest version the registry lists (pip index versions), or None when it cannot say. A package with
    only pre-releases (opentelemetry-proto-json, opentelemetry-util-genai) is listed only with --pre."""
    import subprocess

    for flags in ([], ["--pre"]):
        try:
            out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", *flags, package],
                                 capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        found = re.search(r"^\S+ \(([^)]+)\)", out, re.M)
        if found:
            return found.group(1)
    return None


def stale_sdks() -> list[dict[str, Any]]:
    rows = []
    for package, pinned in pinned_sdks():
        newest = newest_release(package)
        if newest is None:
            rows.append({"id": f"sdk:{package}", "pinned": pinned, "newest": None, "stale": True})
        elif _version_key(newest) > _version_key(pinned):
            rows.append({"id": f"sdk:{package}", "pinned": pinned, "newest": newest, "stale": True})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--older-than", type=int, default=90, metavar="DAYS")
    parser.add_argument("--today", default=None, help="ISO date to measure age from (default: today)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--sdks", action="store_true", help="list pinned SDKs older than their newest release")
    args = parser.parse_args(argv)
    if args.sdks:
        rows = stale_sdks()
        if args.format == "json":
            print(json.dumps(rows, indent=2))
        else:
            for row in rows:
                print(f"{row['id']}\tpinned {row['pinned']}\tnewest {row['newest'] or '(registry did not say)'}")
            print(f"{len(rows)} pinned SDK(s) older than the newest release (or unknown)", file=sys.stderr)
        return 1 if rows else 0
    today = datetime.date.fromisoformat(args.today) if args.today else datetime.date.today()
    stale = []
    for item in dated_items():
        try:
            age = (today - datetime.date.fromisoformat(item["verified"])).days
        except (TypeError, ValueError):
            age = None  # no date at all: always stale
        if age is None or age > args.older_than:
            stale.append({**item, "age_days": age})
    if args.format == "json":
        print(json.dumps(stale, indent=2, ensure_ascii=False))
    else:
        for item in stale:
            print(f"{item['id']}\t{item['verified'] or '(no date)'}\t{item['age_days']} days\t{item['source']}")
        print(f"{len(stale)} fact(s) verified more than {args.older_than} days ago", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
