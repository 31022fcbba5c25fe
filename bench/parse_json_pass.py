"""What `parse --format json` saves by not redacting the reply as data before it builds the document: the time of
``parse_cmd.json_text`` (the document from the values as read, where ``Redactor.document_alone`` reads each string
alone) against ``json_document(parse_json(...))`` after ``Redactor.data`` of the reply, the verdict and the
translation (what parse did until 2026-11-27), as a ratio; and the whole command in process on a saved body, each
way.

    python bench/parse_json_pass.py                       # 1 kB reply (2,001 rounds), ~4 MiB ones (5 rounds)
    python bench/parse_json_pass.py --mib 8 --rounds 7 --kinds keys --no-command

Replies (``core.parse_record.parse_json``'s input, made as ``read_reply`` makes them):

- ``small``: two tool calls (the common case);
- ``plain``: many tool calls, no newline in any string;
- ``lines``: a newline in every call's text (each string's JSON text holds an escape);
- ``keys``: ``lines`` with a pasted key in one call in 100 (those strings redacted by both ways).

The redactor is the command's (``output_redactor``) with a key set in the environment, by value (each string read
alone: the early pass is skipped). ``command``: ``toolchoice parse -p openai --format json`` in process
(tests/cli.py's runner, stdout captured) on the ``kinds``' bodies written as OpenAI Chat Completions replies, best of
``--rounds``; the early pass is put back by putting the old ``json_text`` in its place.
Timed in process, rounds interleaved, medians (the command: best). Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from toolchoice.cli.output import json_document  # noqa: E402
from toolchoice.cli.parse_cmd import json_text  # noqa: E402
from toolchoice.providers.core.parse_record import parse_json  # noqa: E402
from toolchoice.providers.core.model import Reply, ToolCall, Usage  # noqa: E402
from toolchoice.providers.core.redaction import Redactor  # noqa: E402

ENV_KEY = "sk-proj-benchEK" + "A1b2C3d4E5f6" * 12  # OPENAI_API_KEY, set in the environment
PASTED = "sk-proj-pastedPK7Mq1Zs5Hx9Tc3Wn2Lp6Rd0Gf4Jv8Y{:05d}"


def arguments(kind: str, mib: float) -> list[dict]:
    text = "hello world " * 10 + ("\nsecond line" if kind != "plain" else "")
    count = 2 if kind == "small" else int(mib * 1024 * 1024 / (len(text) + 120))
    return [{"city": "Paris", "note": f"{text} {i}" + (f" key {PASTED.format(i)}" if kind == "keys" and i % 100 == 0
                                                       else "")} for i in range(count)]


def reply(kind: str, mib: float) -> Reply:
    calls = tuple(ToolCall(f"call_{i:08d}", "get_weather", args) for i, args in enumerate(arguments(kind, mib)))
    return Reply(calls, None, "tool_calls", Usage(120, 40 * len(calls)))


def body(kind: str, mib: float) -> str:
    """The same calls as an OpenAI Chat Completions reply (what `send --save` keeps)."""
    calls = [{"id": f"call_{i:08d}", "type": "function",
              "function": {"name": "get_weather", "arguments": json.dumps(args)}}
             for i, args in enumerate(arguments(kind, mib))]
    return json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-5.4-mini",
                       "choices": [{"index": 0, "finish_reason": "tool_calls",
                                    "message": {"role": "assistant", "content": None, "tool_calls": calls}}],
                       "usage": {"prompt_tokens": 120, "completion_tokens": 40 * len(calls)}})


def old_json_text(provider: str, reply: Reply, verdict: dict | None, translation: object, stream: object,
                  redactor: Redactor) -> str:
    """What parse printed until 2026-11-27: the values redacted as data, then the document."""
    shown, judged, translated = redactor.data((reply, verdict, translation))
    return json_document(parse_json(provider, shown, judged, translated, stream), redactor)


def document_times(kind: str, mib: float, rounds: int, redactor: Redactor) -> tuple[float, float, int]:
    value = reply(kind, mib)
    verdict = {"category": "obeyed", "obeyed": True, "reason": "called get_weather"}

    def early() -> str:
        return old_json_text("openai", value, verdict, None, None, redactor)

    def late() -> str:
        return json_text("openai", value, verdict, None, None, redactor)

    assert early() == late()  # the same text, or the comparison means nothing
    times: dict[str, list[float]] = {"early": [], "late": []}
    for _ in range(rounds):
        for name, way in (("early", early), ("late", late)):
            started = time.perf_counter()
            way()
            times[name].append(time.perf_counter() - started)
    return statistics.median(times["early"]), statistics.median(times["late"]), len(late())


def command_times(kind: str, mib: float, rounds: int) -> tuple[float, float]:
    from cli import run_cli

    from toolchoice.cli import parse_cmd

    folder = Path(tempfile.mkdtemp(prefix="parse-json-pass-"))
    saved = folder / "sample-001.response.json"
    saved.write_text(body(kind, mib), encoding="utf-8")
    env = {"OPENAI_API_KEY": ENV_KEY, "COLUMNS": "100"}
    given = parse_cmd.json_text
    outputs, times = {}, {"early": [], "late": []}
    try:
        for _ in range(rounds):
            for name in ("early", "late"):
                parse_cmd.json_text = given if name == "late" else old_json_text  # type: ignore[assignment]
                started = time.perf_counter()
                done = run_cli(["parse", str(saved), "-p", "openai", "--format", "json"], env=env, cwd=folder)
                times[name].append(time.perf_counter() - started)
                assert done.returncode == 0, done.stderr
                outputs[name] = done.stdout
    finally:
        parse_cmd.json_text = given
        saved.unlink()
        folder.rmdir()
    assert outputs["early"] == outputs["late"]
    return min(times["early"]), min(times["late"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=float, default=4.0, help="size of the large replies")
    parser.add_argument("--rounds", type=int, default=5, help="rounds for the large replies and the command")
    parser.add_argument("--small-rounds", type=int, default=2001)
    parser.add_argument("--kinds", default="small,plain,lines,keys", help="which replies, comma-separated")
    parser.add_argument("--no-command", action="store_true", help="time the document alone, not the command")
    args = parser.parse_args()
    redactor = Redactor({ENV_KEY: "$OPENAI_API_KEY"})
    os.environ.pop("OPENAI_API_KEY", None)
    for kind in args.kinds.split(","):
        early, late, size = document_times(kind, args.mib, args.small_rounds if kind == "small" else args.rounds,
                                           redactor)
        unit, scale = ("µs", 1e6) if kind == "small" else ("ms", 1e3)
        line = (f"{kind:>5}: {size / 2**10:9.1f} kB | document: data + one pass {early * scale:7.0f} {unit}, one pass "
                f"{late * scale:7.0f} {unit} ({late / early:.2f} of it)")
        if not args.no_command:
            with_pass, without = command_times(kind, args.mib, args.rounds)
            line += (f" | parse -f json: {with_pass * 1e3:6.0f} ms -> {without * 1e3:6.0f} ms "
                     f"({without / with_pass:.2f} of it)")
        print(line, flush=True)


if __name__ == "__main__":
    main()
