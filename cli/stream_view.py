"""Drawing a streamed exchange's own facts (events, argument deltas, timings, findings) for
people; JSON goes through ``StreamResult.to_json``. rich is imported inside the function."""

from __future__ import annotations

from typing import Any


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f} ms"


def print_stream(console: Any, result: Any) -> None:
    """One line of counts and timings, then each finding on its own line (yellow)."""
    from rich.text import Text

    t = result.timings
    facts = [f"{result.events} events", "argument deltas " + (", ".join(str(n) for n in result.deltas) or "–")]
    if t.total_ms is not None:
        facts += [f"first byte {_ms(t.first_byte_ms)}", f"first tool delta {_ms(t.first_tool_delta_ms)}",
                  f"last event {_ms(t.last_event_ms)}", f"longest gap {_ms(t.longest_gap_ms)}"]
    from .hanging import packed

    parts = [Text.assemble(("stream  ", "bold"), (facts[0], "dim"))] + [Text(fact, style="dim") for fact in facts[1:]]
    console.print(packed(parts, "  ·  ", console.width))  # at 60 columns: never "134" over "ms"
    from .hanging import hanging

    for finding in result.findings:  # a long message's further lines under its text, not at the margin
        console.print(hanging(console, f"  ! {finding.code}: ", finding.message, style="yellow"))
