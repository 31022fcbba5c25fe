"""What redacting a large saved request costs: one pass (``Redactor.document``) against the two it replaced.

    python bench/save_redaction.py             # ~10 MiB bodies, 5 rounds
    python bench/save_redaction.py --mib 2 --rounds 3 --kinds keys

``toolchoice mock --save`` and ``proxy --save`` write each request as ``sample-NNN.request.json``; it was redacted as
data, written as JSON text, then redacted again as text (``Redactor.text(dumps(Redactor.data(document)))``). Now
``Redactor.document`` redacts the data once and redoes as text only the strings a text pass could still change
(tests/test_redaction_one_pass.py: the same text on generated documents). Timed in process, rounds interleaved,
medians; each line's ratio is against the two passes measured in the same run, and against writing the JSON
alone (``dumps_indented``, the floor). The redactor is the one the save builds: the client's key by value, and
the keys the body holds by their look (``body_keys``).

Bodies (chat requests of ~128-character messages, as bench/mock_large_body.py sends):

- ``plain``: no newline in any message (no string the one pass must redo);
- ``lines``: a newline in every message (each string's JSON text holds an escape: the redo's worst case);
- ``keys``: ``lines`` with a pasted key in one message in 100 (each such string changed and redone).

Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolchoice.providers.core.json_text import dumps_indented  # noqa: E402
from toolchoice.providers.core.mock.body_secrets import body_keys  # noqa: E402
from toolchoice.providers.core.redaction import Redactor  # noqa: E402

CLIENT_KEY = "sk-proj-benchCK" + "A1b2C3d4E5f6" * 12  # the client's Authorization key, given by value
PASTED = "sk-proj-pastedPK7Mq1Zs5Hx9Tc3Wn2Lp6Rd0Gf4Jv8Y{:05d}"


def body(mib: float, kind: str) -> dict:
    text = "hello world " * 10 + ("\nsecond line" if kind != "plain" else "")
    count = int(mib * 1024 * 1024 / (len(text) + 40))
    messages = [{"role": "user", "content": f"{text} {i}" + (f" key {PASTED.format(i)}" if kind == "keys" and i % 100
                                                              == 0 else "")} for i in range(count)]
    return {"method": "POST", "url": "/v1/chat/completions", "headers": {"authorization": "[redacted]"},
            "body": {"model": "gpt-4o-mini", "messages": messages}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kinds", default="plain,lines,keys", help="which bodies, comma-separated")
    args = parser.parse_args()
    for kind in args.kinds.split(","):
        document = body(args.mib, kind)
        redactor = Redactor({CLIENT_KEY: "$AUTHORIZATION"}, found=body_keys(document["body"]))
        two = redactor.text(dumps_indented(redactor.data(document)))
        assert redactor.document(document) == two  # the same text, or the comparison means nothing
        ways = {"floor": lambda: dumps_indented(document),
                "two passes": lambda: redactor.text(dumps_indented(redactor.data(document))),
                "one pass": lambda: redactor.document(document)}
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.rounds):
            for name, way in ways.items():
                started = time.perf_counter()
                way()
                times[name].append(time.perf_counter() - started)
        med = {name: statistics.median(values) for name, values in times.items()}
        print(f"{kind:>5}: {len(two) / 2**20:5.1f} MiB saved, {len(redactor._found.secrets) if redactor._found else 0}"
              f" keys found | floor {med['floor'] * 1000:7.0f} ms | two passes {med['two passes'] * 1000:7.0f} ms "
              f"({med['two passes'] / med['floor']:5.1f}x floor) | one pass {med['one pass'] * 1000:7.0f} ms "
              f"({med['one pass'] / med['floor']:5.1f}x floor, {med['one pass'] / med['two passes']:.2f} of two)")


if __name__ == "__main__":
    main()
