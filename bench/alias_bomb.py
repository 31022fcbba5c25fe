"""Refusing a 'billion laughs' scenario (tests/data/bad/alias-bomb.yaml: 10^9 strings once its aliases are
expanded): the reader stops at its 1,000,000 values. CPU time (``time.process_time``) of
``load_scenario_text``, in this process, median of ``--rounds`` rounds. The suite counts the values read
(tests/test_bad_input.py); how long that takes is measured here, not asserted there.

    python bench/alias_bomb.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from measure import median

BOMB = Path(__file__).resolve().parent.parent / "tests" / "data" / "bad" / "alias-bomb.yaml"


def refuse_once(text: str) -> float:
    from toolchoice.providers.core.errors import ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario_text

    start = time.process_time()
    try:
        load_scenario_text(text, str(BOMB))
    except ToolchoiceError:
        pass
    else:
        raise SystemExit("alias-bomb.yaml was read, not refused")
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    text = BOMB.read_text(encoding="utf-8")
    seconds = [refuse_once(text) for _ in range(rounds)]
    print(f"alias-bomb.yaml refused: median {median(seconds) * 1000:.0f} ms CPU "
          f"(min {min(seconds) * 1000:.0f}, max {max(seconds) * 1000:.0f}) over {rounds} rounds")


if __name__ == "__main__":
    main()
