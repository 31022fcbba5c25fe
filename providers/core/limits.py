"""Every bound toolchoice puts on what it reads, as data in one place (documented in docs/limits.md).

Each limit has a name, a default, a unit and an environment variable that raises (or lowers) it:
``TOOLCHOICE_LIMIT_<NAME>`` (``TOOLCHOICE_LIMIT_STREAM_BYTES=100000000``). A refusal is one line that
names the limit and how to raise it (``refusal``). Only the standard library: every command reads it.
"""

import os
from typing import NamedTuple

MIB = 1024 * 1024


class Limit(NamedTuple):
    name: str
    default: float
    unit: str  # "bytes", "levels", "items", "seconds", "connections", "threads"
    what: str

    @property
    def env(self) -> str:
        return f"TOOLCHOICE_LIMIT_{self.name.upper()}"


LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("file_bytes", 8 * MIB, "bytes", "a file read as input: a scenario, a from: tool file, parse FILE, a "
          "transcript, a recorded body; load_scenario_text's text"),
    Limit("reply_bytes", 32 * MIB, "bytes", "a reply body, after decompression"),
    Limit("stream_bytes", 32 * MIB, "bytes", "a streamed reply, every byte after decompression"),
    Limit("stream_line_bytes", 4 * MIB, "bytes", "one line (one SSE field, one NDJSON value) of a streamed reply"),
    Limit("expanded_bytes", 16 * MIB, "bytes", "a scenario's text after YAML aliases are expanded"),
    Limit("json_depth", 100, "levels", "nesting of a JSON or YAML value (a tool file, a reply, an event, "
          "arguments)"),
    Limit("tools", 10_000, "items", "tools in one scenario (after from: imports), and in an MCP server's listing"),
    Limit("loop_steps", 1000, "steps", "a scenario's loop.max_steps: each step resends the whole history"),
    Limit("result_bytes", 1 * MIB, "bytes", "the output of one --results-from command"),
    Limit("stderr_bytes", 64 * 1024, "bytes", "an MCP stdio server's stderr kept for its error line (the last part)"),
    Limit("mcp_reply_bytes", 32 * MIB, "bytes", "the answers of an MCP server to tools/list"),
    Limit("pattern_seconds", 1, "seconds", "one regular expression of a tool (a schema's pattern or patternProperties, "
          "a custom tool's regex grammar) matched against one value of a call"),
    Limit("choices", 128, "items", "choices of one reply read, whole or streamed (n, candidateCount), and choices the "
          "mock answers"),
    # toolchoice mock / proxy (providers/core/mock/server.py): what one client may hold of the server
    Limit("mock_body_bytes", 32 * MIB, "bytes", "a request body the mock or proxy reads (past it: 413)"),
    Limit("mock_header_bytes", 64 * 1024, "bytes", "a request's head (request line and headers; past it: 431)"),
    Limit("mock_connections", 512, "connections", "connections the mock or proxy holds open at once (past them: 503)"),
    Limit("mock_request_seconds", 60, "seconds", "one request, from its first byte to its last (past it: 408)"),
    Limit("mock_idle_seconds", 300, "seconds", "a keep-alive connection with no request under way (then closed)"),
    Limit("mock_write_seconds", 60, "seconds", "one write of an answer the client does not read (then cut off)"),
    Limit("mock_judge_threads", 2, "threads", "request bodies of 64 KiB or more judged at once, each in a worker "
          "thread so the server keeps answering the others"),
)}


def _read(limit: Limit) -> float | None:
    """``TOOLCHOICE_LIMIT_<NAME>`` as a positive whole number (a limit in seconds also takes a positive decimal,
    ``0.25``), or None when it is not set or holds something else."""
    raw = os.environ.get(limit.env, "").strip().replace("_", "")
    if not raw.isascii() or len(raw) > MAX_TEXT:  # not '²', not 5,000 digits
        return None
    whole, dot, part = raw.partition(".")
    if len(whole) > MAX_DIGITS:
        return None
    if raw.isdigit():
        return int(raw) if int(raw) > 0 else None
    if limit.unit == "seconds" and dot and (whole + part).isdigit() and float(raw) > 0:
        return float(raw)
    return None


# the most digits a limit's whole part takes (999999999999999999: what a user writes for "no bound"), and the
# longest value read at all (a decimal's fraction may be long: 0.00000000000000001)
MAX_DIGITS = 18
MAX_TEXT = 40


def get(name: str) -> int:
    """The limit's value: ``TOOLCHOICE_LIMIT_<NAME>`` when it holds a positive whole number (or, for a limit in
    seconds, a positive decimal), else the default."""
    limit = LIMITS[name]
    value = _read(limit)
    return int(limit.default) if value is None else value  # type: ignore[return-value]  # seconds may be a float


def shown(name: str, value: float | None = None) -> str:
    """``8 MiB (file_bytes)``: a value in the limit's unit."""
    limit = LIMITS[name]
    value = get(name) if value is None else value
    if limit.unit == "bytes":
        amount = f"{value // MIB} MiB" if value % MIB == 0 else (
            f"{value // 1024} KiB" if value % 1024 == 0 else f"{value} bytes")
    else:
        amount = f"{value if isinstance(value, int) else format(value, 'g')} {limit.unit}"
    return f"{amount} (limit {name})"


def larger_than(cap: int, name: str) -> str:
    """``8 MB (limit file_bytes)``: how an input file's refusal names its bound (bounded.read_file, trace files)."""
    amount = f"{cap // MIB} MB" if cap % MIB == 0 else f"{cap} bytes"
    return f"{amount} (limit {name})"


def raise_hint(name: str) -> str:
    limit = LIMITS[name]
    raw = os.environ.get(limit.env)
    if raw is not None and _read(limit) is None:
        kind = "positive number" if limit.unit == "seconds" else "positive whole number"
        digits = raw.strip().replace("_", "").partition(".")[0]
        if digits.isascii() and digits.isdigit() and (len(digits) > MAX_DIGITS or len(raw) > MAX_TEXT):
            return (f"{limit.env}={raw[:MAX_TEXT]!r}{'…' if len(raw) > MAX_TEXT else ''} is longer than a limit "
                    f"takes ({MAX_DIGITS} digits, {MAX_TEXT} characters): set N ({limit.unit}) if you trust the input")
        return f"{limit.env}={raw!r} is not a {kind}: set N ({limit.unit}) if you trust the input"
    return f"raise it with {limit.env}=N ({limit.unit}) if you trust the input"


def refusal(subject: str, name: str) -> str:
    """One line: ``<subject>: more than 8 MiB (limit file_bytes); raise it with TOOLCHOICE_LIMIT_FILE_BYTES=N …``."""
    return f"{subject}: more than {shown(name)}; {raise_hint(name)}"
