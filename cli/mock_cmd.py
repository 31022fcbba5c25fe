"""`toolchoice mock` and `toolchoice proxy`: a provider's API on 127.0.0.1, every request judged.

stdout: the base URL the provider's official SDK takes, then one line per request (JSON with
``--format jsonl``), each flushed as written; the summary goes to stderr when the server stops
(``--max-requests N``, SIGINT or SIGTERM). The library does the work (core/mock); this module
parses options and draws the lines.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from .exits import handled, warning_line

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class MockFormat(str, Enum):
    pretty = "pretty"
    jsonl = "jsonl"


PROVIDER = typer.Option(..., "--provider", "-p", help="Provider id whose API to serve.", show_default=False)
PORT = typer.Option(0, "--port", min=0, max=65535, help="Port to listen on (0: a free port).")
HOST = typer.Option("127.0.0.1", "--host", help="Address to bind (anything but loopback is warned about).")
SCRIPT = typer.Option(None, "--script", help="YAML script of replies and faults (see docs/mock.md).")
FORMAT = typer.Option(MockFormat.pretty, "--format", "-f", help="pretty or jsonl (one JSON object per request).")
SAVE = typer.Option(None, "--save", help="Keep each request and reply as files in this folder (keys redacted).")
MAX_REQUESTS = typer.Option(None, "--max-requests", min=1, help="Stop after N requests (refused ones count).")


@handled
def mock(provider: str = PROVIDER, port: int = PORT, host: str = HOST, script: Optional[Path] = SCRIPT,
         format: MockFormat = FORMAT, save: Optional[Path] = SAVE, max_requests: Optional[int] = MAX_REQUESTS) -> None:
    """Serve a provider's API on 127.0.0.1: validate each request as the API would, answer from its tool_choice."""
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import MockHandler, Server
    from toolchoice.providers.core.mock.service import MockService

    loaded = load_script(script) if script is not None else None
    service = MockService(provider, loaded)
    folder = _save_dir(save)
    server = Server(MockHandler(service, folder), host=host, port=port, max_requests=max_requests,
                    on_record=_printer(format), bad_request=service.error)
    _serve(server, service.module, host, "mock", lambda: f"{service.count} requests, {service.refused} refused")


@handled
def proxy(provider: str = PROVIDER, upstream: str = typer.Option(..., "--upstream", help="The real API's base URL "
                                                                    "(as its SDK takes it).", show_default=False),
          port: int = PORT, host: str = HOST, format: MockFormat = FORMAT, save: Optional[Path] = SAVE,
          max_requests: Optional[int] = MAX_REQUESTS) -> None:
    """Judge every request and reply on their way to and from the real provider (streams pass unbuffered)."""
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Server

    handler = ProxyHandler(provider, upstream, _save_dir(save))
    server = Server(handler, host=host, port=port, max_requests=max_requests, on_record=_printer(format),
                    bad_request=handler.service.error)
    _serve(server, handler.service.module, host, "proxy", lambda: f"{handler.count} requests proxied")


def _save_dir(save: Optional[Path]) -> Optional[Path]:
    if save is None:
        return None
    from toolchoice.providers.core.save import prepare_save_dir

    return prepare_save_dir(save)


def _serve(server: Any, module: Any, host: str, what: str, summary: Any) -> None:
    import asyncio
    import signal

    from toolchoice.providers.core.mock.server import base_url

    if host not in _LOOPBACK:
        warning_line(f"--host {host}: the {what} is reachable from other machines; it has no authentication")

    async def main() -> None:
        try:
            await server.start()
        except OSError as exc:
            from toolchoice.providers.core.model import ToolchoiceError

            raise ToolchoiceError(f"cannot listen on {host}:{server.port}: {exc.strerror or exc}",
                                  hint="choose another --port, or --port 0 for a free one") from None
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, server.stop)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread (in-process callers)
                pass
        sys.stdout.write(base_url(module, host, server.port) + "\n")
        sys.stdout.flush()
        try:
            await server.serve()
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.remove_signal_handler(sig)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass

    asyncio.run(main())
    sys.stderr.write(f"toolchoice {what}: stopped after {summary()}\n")
    sys.stderr.flush()


def _printer(format: MockFormat) -> Any:
    if format is MockFormat.jsonl:
        def jsonl(line: dict[str, Any]) -> None:
            sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
            sys.stdout.flush()
        return jsonl
    return _pretty


def _pretty(line: dict[str, Any]) -> None:
    """One plain line per request (data, never markup): n, path, the choice as sent → as read, tools, status,
    calls, findings."""
    from toolchoice.providers.core.model import quoted, word_or_json
    from toolchoice.providers.core.redaction import printable

    requested = "-" if line["requested"] is None else word_or_json(line["requested"])
    neutral = "-" if line["tool_choice"] is None else word_or_json(line["tool_choice"])
    calls = ", ".join(f"{c['name']}({quoted(c['arguments'])})" for c in line["calls"]) or "text"
    if line["status"] != 200:
        calls = "-"
    parts = [f"#{line['n']}", line["path"], "stream" if line["stream"] else "whole",
             f"tool_choice {requested} → {neutral}", f"tools [{', '.join(line['offered_tools'])}]",
             str(line["status"]), calls]
    findings = [f"{f['severity']} {f['code']}" for f in line["findings"]]
    if findings:
        parts.append("findings: " + ", ".join(findings))
    sys.stdout.write(printable("  ".join(parts)).replace("\n", " ") + "\n")
    sys.stdout.flush()
