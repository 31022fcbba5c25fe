"""What ``trace FILE.har``'s listing says under its samples of replaying them (``trace_har.Listing.replays``): for each
conversation, the ``run --replay FILE --trace-id N -p PROVIDER`` command that replays it as trace_har_replay reads the
file, or why none can. Imports nothing of trace_har, which builds the listing with it (trace_har_replay, which reads
the file for ``run --replay``, imports trace_har): what it needs of the file's reading is handed in."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, NamedTuple

SHOWN = 20  # conversations whose command the listing prints; past them, how many more


class Replay(NamedTuple):
    """How ``run --replay FILE.har`` replays one conversation of the listing: its number there, the API its calls
    went to and how many, and the command; ``command`` None where it cannot be replayed, and ``problem`` says why (its
    calls go to several APIs; a call of the file does not read: ``conversation`` None)."""

    conversation: int | None
    provider: str | None  # None: its calls go to several APIs
    calls: int
    command: str | None  # toolchoice run --replay FILE --trace-id N -p PROVIDER
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def grouped(calls: list[Any], steps: dict[int, Any]) -> tuple[dict[int, list[Any]], list[Any]]:
    """``calls`` (the file's first ``trace_har.LISTED``) by conversation, as ``trace FILE.har`` numbers them
    (``steps``: ``har_conversations.follow``'s), and those of no conversation: a call that does not read."""
    conversations: dict[int, list[Any]] = {}
    unread = []
    for call in calls:
        if call.sample in steps:
            conversations.setdefault(steps[call.sample].conversation, []).append(call)
        else:
            unread.append(call)
    return conversations, unread


Grouping = tuple[dict[int, list[Any]], list[Any]]


def replays(har: Any, conversations: dict[int, list[Any]], unread: list[Any], given: str | None,
            regroup: Callable[[str], Grouping], streamed: Callable[[Any], bool]) -> list[Replay]:
    """A ``Replay`` per conversation of the listing (``given``: the listing's -p), each with the ``run --replay``
    command that replays it on its API, as ``trace_har_replay.replay_har`` reads the file; one alone, without a
    conversation, where a call does not read (``replay_har`` refuses the file then). ``regroup(api)``: the file's
    conversations as ``-p api`` reads it; ``streamed(call)``: whether the replay's first step is a recorded stream."""
    if unread:
        return [Replay(None, None, 0, None, _unread(unread[0]))]
    found: list[Replay] = []
    readings: dict[str, Grouping] = {}
    for number, calls in conversations.items():
        apis = list(dict.fromkeys(call.provider for call in calls))
        if len(apis) > 1:
            found.append(Replay(number, None, len(calls), None, f"its calls go to {len(apis)} APIs "
                                f"({', '.join(apis)}): a loop replays one API's calls"))
            continue
        api, replayed, problem = apis[0], number, None
        if api != given and (har.unknown or given is not None):  # -p reads the entries at a host toolchoice does
            # not know as its API's (the listing's -p made them calls, or left them none): the numbers may change
            if api not in readings:
                readings[api] = regroup(api)
            replayed, problem = _renumbered(readings[api], api, calls[0].index)
        stream = streamed(calls[0])  # the replay takes a recorded stream only as one (loop_replay.check_stream)
        found.append(Replay(number, api, len(calls), None if replayed is None else
                            command(har.file, replayed, api, stream), problem))
    return found


def command(path: Path, number: int, provider: str, stream: bool = False) -> str:
    """The command that replays conversation ``number`` of ``path`` on ``provider`` (``stream``: with --stream, where
    its first call's recorded response is a stream), quoted for a POSIX shell (``shell_word.shell_path``: run as
    printed, and safe to print)."""
    from .shell_word import shell_path

    return (f"toolchoice run --replay {shell_path(path)} --trace-id {number} -p {provider}"
            + (" --stream" if stream else ""))


def _unread(call: Any) -> str:
    return (f"sample {call.sample} (log.entries[{call.index}]) does not read as {call.provider}'s request, so its "
            "conversation is not known")


def _renumbered(reading: Grouping, api: str, entry: int) -> tuple[int | None, str | None]:
    """The number ``run --replay FILE -p api`` gives the conversation of log.entries[``entry``] (``reading``: the
    file's conversations as -p api reads it: the entries at unknown hosts read as api's calls may join them)."""
    conversations, unread = reading
    if unread:
        return None, f"with -p {api}, {_unread(unread[0])}"
    for number, calls in conversations.items():
        if any(call.index == entry for call in calls):
            return number, None
    return None, f"with -p {api}, log.entries[{entry}] is past the calls whose conversations are followed"


def replay_lines(replays: tuple[Replay, ...]) -> list[tuple[str, bool]]:
    """The words under ``trace FILE.har``'s samples (``Listing.replay_lines``), as (text, whole) lines: a heading,
    then per conversation its command (whole: drawn on a line of its own, never folded, so that it copies as it is),
    or why it cannot be replayed; past ``SHOWN`` commands, how many more. An indented line belongs to the one above."""
    if not replays:
        return []
    if replays[0].conversation is None:
        return [(f"run --replay cannot replay this file's conversations: {replays[0].problem}", False)]
    from .shell_word import bash_only

    said = bash_only(*(r.command.split(" ")[3] for r in replays if r.command))  # `toolchoice run --replay FILE`
    lines = [(f"to replay a conversation offline as run's loop{said}:", False)]
    commands = 0
    for replay in replays:
        if replay.command is None:
            lines.append((f"  conversation {replay.conversation}: {replay.problem}", False))
        elif commands < SHOWN:
            commands += 1
            lines.append((f"  {replay.command}", True))
    more = sum(1 for r in replays if r.command is not None) - commands
    if more:
        lines.append((f"  and {more} more: --trace-id N with its API's -p (trace FILE -f json lists each command)",
                      False))
    return lines


def call_lines(replays: tuple[Replay, ...]) -> list[tuple[str, bool]]:
    """The words ``trace FILE.har`` puts above a file's one call's scenario (``SavedScenario.replays``), as
    ``replay_lines``' (text, whole) lines: the command that replays it, whole; none where it cannot be replayed."""
    from .shell_word import bash_only

    said = bash_only(*(r.command.split(" ")[3] for r in replays if r.command))  # `toolchoice run --replay FILE`
    return [(f"to replay this call offline as run's loop{said}:", False), *((f"  {r.command}", True) for r in replays
                                                                            if r.command)] if replays else []
