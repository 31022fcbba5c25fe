"""What redacting a `--format json` document costs: one pass (``cli.output.json_document``, ``Redactor.document``)
against the two it replaced.

    python bench/json_redaction.py                 # a 1 kB document (2,001 rounds) and ~4 MiB ones (5 rounds)
    python bench/json_redaction.py --mib 8 --rounds 7 --kinds keys

``parse``, ``providers --model``, ``trace`` and ``tools`` with ``--format json`` printed
``Redactor.text(dumps(Redactor.data(document)))``: the data redacted, then its JSON text searched again. Now
``Redactor.document(document, dump=dumps)`` redacts the data once and redoes as text only the strings a text pass
could still change (tests/test_redaction_one_pass.py: the same text on generated documents). Timed in process,
rounds interleaved, medians; each line's ratio is against the two passes measured in the same run, and against
writing the JSON alone (``cli.output.dumps``: the standard library's indented text below 32 kB, ``json_text`` above,
the floor). The redactor is the one these commands build (``output_redactor``): a key set in the environment, by
value; keys in the document are found by their look.

Documents (what `parse --format json` prints of a reply):

- ``small``: one reply of ~1 kB, two tool calls (the common case: the standard library's encoder writes it);
- ``plain``: a reply of many tool calls, no newline in any string;
- ``lines``: a newline in every call's text (each string's JSON text holds an escape: the redo's worst case);
- ``keys``: ``lines`` with a pasted key in one call in 100 (each such string changed and redone).

Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolchoice.cli.output import dumps, json_document  # noqa: E402
from toolchoice.providers.core.redaction import Redactor  # noqa: E402

ENV_KEY = "sk-proj-benchEK" + "A1b2C3d4E5f6" * 12  # OPENAI_API_KEY, set in the environment
PASTED = "sk-proj-pastedPK7Mq1Zs5Hx9Tc3Wn2Lp6Rd0Gf4Jv8Y{:05d}"


def document(kind: str, mib: float) -> dict:
    text = "hello world " * 10 + ("\nsecond line" if kind != "plain" else "")
    count = 2 if kind == "small" else int(mib * 1024 * 1024 / (len(text) + 120))
    calls = [{"id": f"call_{i:08d}", "name": "get_weather",
              "arguments": {"city": "Paris", "note": f"{text} {i}" + (
                  f" key {PASTED.format(i)}" if kind == "keys" and i % 100 == 0 else "")}} for i in range(count)]
    return {"provider": "openai", "requested_tool_choice": "required", "effective_tool_choice": "required",
            "reply": {"tool_calls": calls, "text": None, "finish_reason": "tool_calls"},
            "verdict": {"obeyed": True, "reason": "called get_weather"}, "ledger": [], "error": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=float, default=4.0, help="size of the large documents")
    parser.add_argument("--rounds", type=int, default=5, help="rounds for the large documents")
    parser.add_argument("--small-rounds", type=int, default=2001)
    parser.add_argument("--kinds", default="small,plain,lines,keys", help="which documents, comma-separated")
    args = parser.parse_args()
    redactor = Redactor({ENV_KEY: "$OPENAI_API_KEY"})
    for kind in args.kinds.split(","):
        value = document(kind, args.mib)
        two = redactor.text(dumps(redactor.data(value)))
        assert json_document(value, redactor) == two  # the same text, or the comparison means nothing
        ways = {"floor": lambda: dumps(value),
                "two passes": lambda: redactor.text(dumps(redactor.data(value))),
                "one pass": lambda: json_document(value, redactor)}
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.small_rounds if kind == "small" else args.rounds):
            for name, way in ways.items():
                started = time.perf_counter()
                way()
                times[name].append(time.perf_counter() - started)
        med = {name: statistics.median(values) for name, values in times.items()}
        unit, scale = ("µs", 1e6) if kind == "small" else ("ms", 1e3)
        print(f"{kind:>5}: {len(two) / 2**10:9.1f} kB | floor {med['floor'] * scale:7.0f} {unit} | two passes "
              f"{med['two passes'] * scale:7.0f} {unit} ({med['two passes'] / med['floor']:5.1f}x floor) | one pass "
              f"{med['one pass'] * scale:7.0f} {unit} ({med['one pass'] / med['floor']:5.1f}x floor, "
              f"{med['one pass'] / med['two passes']:.2f} of two)")


if __name__ == "__main__":
    main()
