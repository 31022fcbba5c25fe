"""List the capability rows, dated facts and model rules last verified more than N days ago.

    python bench/stale_facts.py --older-than 90            # a table; exit 1 when any is listed
    python bench/stale_facts.py --older-than 0 --format json

A maintainer re-verifies what it lists at the named source and moves the date forward. Model rules
(providers/core/model_rules.py, when present) are listed when they carry a source and a date.
"""

from __future__ import annotations

import argparse
import datetime
import json
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--older-than", type=int, default=90, metavar="DAYS")
    parser.add_argument("--today", default=None, help="ISO date to measure age from (default: today)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
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
