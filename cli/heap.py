"""The console script's heap settings for the commands that send many requests.

A loop step or a sample makes a few thousand short-lived objects, while everything imported and
loaded before sending (modules, the scenario, the capability rows) lives to the end of the process.
With the collector's defaults, the young generation is collected every 700 allocations and every
older collection walks all of that long-lived heap again: ~10% of a `run --repeat` step's CPU
(bench/README.md). ``settle`` moves what is alive now out of the collector's sight (``gc.freeze``) and
collects the young generation every 10,000 allocations. Only when the process is the command's own
(``app.main`` sets ``OWNED``); an in-process caller (tests, CliRunner, a notebook) keeps its collector
as it was.
"""

from __future__ import annotations

OWNED = False


def settle() -> None:
    """Before sending many requests: see the module docstring. The process being the command's alone,
    aiohttp, should it be used, is imported without its module-wide CA read (``http_clients.OWN_PROCESS``)."""
    if OWNED:
        import gc

        from toolchoice.providers.core import http_clients

        http_clients.OWN_PROCESS = True
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
