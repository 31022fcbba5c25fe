"""How a job ended, as data: the exit codes, the one rule that turns verdicts into one, the one tally
of obeyed samples and the one redaction of a record
for display. The library decides the outcome; the command line only exits with it."""

from __future__ import annotations

from typing import Any, Iterable

OK = 0
FAILED = 1  # network or provider error
BAD_INPUT = 2  # bad scenario, option or file
REFUSED = 3  # a translation was refused (an error in the ledger, or a warning under --strict)
DISOBEYED = 4  # a reply did not obey the requested tool_choice
DRIFT = 5  # `render --snapshot`: the snapshot files differ from what render produces now
INTERRUPTED = 130  # Ctrl-C: what finished is kept (and shown, and saved)

EXIT_CODES: dict[int, str] = {
    OK: "rendered / sent and obeyed (warnings allowed)",
    FAILED: "network or provider error",
    BAD_INPUT: "bad input or usage",
    REFUSED: "translation refused (an error in the ledger, or a warning under --strict)",
    DISOBEYED: "the reply disobeyed the requested tool_choice",
    DRIFT: "snapshot check failed: a snapshot file changed, is missing or is extra",
}


def outcome(verdicts: Iterable[dict[str, Any] | None], refused: bool = False, failed: bool = False) -> int:
    """The one exit-code rule of every job that judges replies, most fundamental first: FAILED when any
    sample failed (network, provider or body error: the measurement is incomplete) or ``failed`` says a
    part failed with nothing to judge, else REFUSED when a translation was refused, else DISOBEYED when
    any reply disobeyed, else OK. ``None`` (nothing to judge) counts as OK."""
    categories = {v["category"] for v in verdicts if v is not None}
    if failed or "error" in categories:
        return FAILED
    if refused:
        return REFUSED
    return DISOBEYED if categories - {"obeyed"} else OK


def obeyed_counts(verdicts: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """(obeyed, judged): the one tally every job's --min-obeyed reads."""
    obeyed = total = 0
    for v in verdicts:
        total += 1
        obeyed += v["category"] == "obeyed"
    return obeyed, total


def check_rate(min_obeyed: float | None) -> None:
    """A ``min_obeyed`` (--min-obeyed) outside 0..1, or nan (which compares false with every rate: the gate would never
    close), is bad input, refused before anything is sent (``OutOfRange``: the command line names its option)."""
    if min_obeyed is None:
        return
    from .call_args import number_shown, wrong

    if isinstance(min_obeyed, bool) or not isinstance(min_obeyed, (int, float)):  # "0.95": a TypeError from the
        raise wrong("min_obeyed", "a rate from 0 to 1 (a number) or None", min_obeyed, "e.g. min_obeyed=0.95")  # <=
    if not 0.0 <= min_obeyed <= 1.0:  # 10**5000: written out by its length (f"{}" was a ValueError)
        from .errors import out_of_range

        raise out_of_range("min_obeyed", number_shown(min_obeyed), "a rate from 0 to 1", "0.95")


def below_threshold(obeyed: dict[str, tuple[int, int]], min_obeyed: float) -> list[str]:
    """One line per provider whose obeyed rate is below ``min_obeyed`` (a failed sample counts as not
    obeyed: the rate decides, not one error), in a Python caller's words (``below min_obeyed 0.95``); each an
    ``errors.Named``, whose record the command line spells its option from (``below --min-obeyed 0.95``)."""
    from .errors import named_words

    return [named_words(f"{provider}: obeyed {good}/{total} ({percent(good / total, below=min_obeyed)}), below ",
                        f" {min_obeyed:g}", names=("min_obeyed",))
            for provider, (good, total) in obeyed.items() if total and good / total < min_obeyed]


def percent(rate: float, below: float | None = None) -> str:
    """``rate`` (0..1) as a percent, whole where that is true: a rate strictly between 0 and 1 gets decimals
    until it no longer reads 0% or 100% (998/1000 is 99.8%, not 100%), and a rate ``below`` a threshold
    until it reads below it (0.9495 under 0.95 is 94.95%, not 95%); at most 4 decimals. Halves round up, as
    people round (5/8 is 63%; float formatting rounds 62.5 to even, 62%), from the shortest decimal that
    is the rate (``repr``: 29/200 is 0.145, 14.5%, where ``100 * rate`` is 14.499999999999998)."""
    from decimal import ROUND_HALF_UP, Decimal

    hundredths = Decimal(repr(float(rate))).scaleb(2)
    for decimals in range(5):
        text = str(hundredths.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
        shown = float(text) / 100
        if (0 < rate < 1 and shown in (0.0, 1.0)) or (below is not None and shown >= below):
            continue
        break
    return text + "%"


def rate_cells(rate: dict[str, float]) -> tuple[str, str]:
    """A rate record ({rate, low, high}) as two table cells: the percent, and the 95% interval ("85–99%")."""
    return percent(rate["rate"]), f"{percent(rate['low']).removesuffix('%')}–{percent(rate['high'])}"


def threshold_code(below: list[str], refused: bool = False) -> int:
    """--min-obeyed's exit code in `outcome`'s order: REFUSED, else DISOBEYED when a rate is below."""
    if refused:
        return REFUSED
    return DISOBEYED if below else OK


def shown(record: Any, secrets: dict[str, str]) -> Any:
    """``record`` (plain JSON data) with every resolved key replaced by its placeholder, and every key found by its
    look (``redaction.redact_patterns``: one pasted into a prompt, one a model echoed) by ``[redacted]``: the one
    place a job's records are redacted for display."""
    from .redaction import Redactor

    return Redactor(secrets).data(record)
