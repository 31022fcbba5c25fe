"""`toolchoice trace FILE` refusing a JSON Lines trace of tiny lines (``{}``: no resourceSpans) or of empty exports
(``{"resourceSpans": []}``) at ``--megabytes`` MB: CPU time (``time.process_time``) of ``trace_otlp.read_spans``
until its one-line refusal, and the documents it decoded (``raw_decode`` calls, counted). Before 2026-11-27 every
line was decoded before the first was checked (8 MB of ``{}`` lines: 2.8 million documents, ~40 s); now the reader
stops at the first bad document, and a trace of more documents than ``MAX_SPANS`` is refused at the one past it.

    python bench/json_lines_refusal.py [--megabytes 8]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path


class Counted(json.JSONDecoder):
    calls = 0

    def raw_decode(self, s: str, idx: int = 0):  # type: ignore[no-untyped-def,override]
        Counted.calls += 1
        return super().raw_decode(s, idx)


def measure(path: Path) -> tuple[float, int, str]:
    from toolchoice.providers.core import bounded
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.trace_otlp import read_spans

    bounded.json.JSONDecoder = Counted  # type: ignore[misc]  # bounded's own `json` name: count its decoding
    Counted.calls = 0
    started = time.process_time()
    try:
        read_spans(path)
        said = "read"
    except ToolchoiceError as exc:
        said = exc.message
    return time.process_time() - started, Counted.calls, said


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=8)
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    with tempfile.TemporaryDirectory() as folder:
        for line in ("{}\n", '{"resourceSpans": []}\n'):
            path = Path(folder) / "t.jsonl"
            path.write_text(line * (size // len(line)), encoding="utf-8")
            seconds, decoded, said = measure(path)
            print(f"{line.strip():24} {size // len(line):>9,} lines: {seconds:6.2f} s CPU, {decoded:>9,} documents "
                  f"decoded; {said[:90]}")


if __name__ == "__main__":
    main()
