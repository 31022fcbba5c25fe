"""What a scenario's ``from:`` may reach while it is loaded: whether a live MCP source (a server started
with ``mcp:``, a URL in ``mcp_url:``) may be used at all, and which environment variables it may read (in
its headers, its command line, a stdio server's ``env:`` and its URL).

A dry run (``render``, ``compare`` without ``--send``, ``send --dry-run``, ``parse``) opens no socket
and starts no process unless the user opted in on that command line (``--live-mcp``); a scenario
someone else wrote must not mail ``$OPENAI_API_KEY`` to a server of its choosing by being rendered,
so every ``$NAME`` in ``from: headers`` needs ``--allow-env NAME`` (or ``TOOLCHOICE_ALLOW_ENV``), the
same allow-list that guards ``providers.<id>.headers``. The library's own default (a program calling
``load_scenario``) allows live sources and no variables; the command line sets the policy it was given.
"""

import contextlib
from typing import Iterator, NamedTuple


class SourcePolicy(NamedTuple):
    live: bool = True  # may from: start an MCP server or connect to an MCP URL
    allow_env: tuple[str, ...] = ()  # variables from: headers may read
    command: str = ""  # the command that set it, for the refusal's hint ("render")


_STACK: list[SourcePolicy] = []  # a scenario is loaded on the command's own thread, before anything runs at once


def current() -> SourcePolicy:
    return _STACK[-1] if _STACK else SourcePolicy()


@contextlib.contextmanager
def policy(live: bool, allow_env: tuple[str, ...] = (), command: str = "") -> Iterator[SourcePolicy]:
    """Load scenarios under this policy (the command line's choice) until the block ends."""
    chosen = SourcePolicy(live, tuple(allow_env), command)
    _STACK.append(chosen)
    try:
        yield chosen
    finally:
        _STACK.pop()
