"""What each tool call of a loop "returns": ``loop.results`` from the scenario, or the
``--results-from COMMAND`` subprocess (bounded in time and output, killed with everything it started)."""

from __future__ import annotations

import json
import os
import signal
from typing import Any, Callable

from .model import HistoryCall, LoopResult, LoopSpec, Message, ToolCall


def kill_group(process: Any) -> None:
    """A --results-from command and everything it started (a pipeline keeps the pipes open after its shell)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.kill()
    except (ProcessLookupError, PermissionError):
        pass


class ToolResults:
    """What each call "returns" in one loop: ``loop.results`` (lists are consumed per call, in
    order), or ``--results-from COMMAND``. A call to a tool the step did not offer gets an error
    result saying so; so does a tool without a results entry. The model reads these results: they name no
    command-line option (a Python caller gave ``LoopOptions(results_from=...)``, not ``--results-from``)."""

    def __init__(self, spec: LoopSpec, command: str | None = None, timeout: float = 30.0) -> None:
        self.spec = spec
        self.command = command
        self.timeout = timeout
        self.used: dict[str, int] = {}

    async def answer(self, call: ToolCall, history_call: HistoryCall, offered: tuple[str, ...],
                     context: dict[str, Any]) -> Message:
        def result(content: str, is_error: bool = False) -> Message:
            return Message("tool", content=content, tool_call_id=history_call.id, tool_name=call.name,
                           is_error=is_error)

        if call.name not in offered:
            return result(f"error: tool '{call.name}' is not available (offered: {', '.join(offered) or 'none'})", True)
        if call.arguments is None:
            return result(f"error: the arguments of '{call.name}' could not be decoded ({call.arguments_error})", True)
        if self.command is not None:
            return await self._from_command(call, history_call, context, result)
        spec = self.spec.results.get(call.name)
        if spec is None:
            return result(f"error: no result for '{call.name}' (add it under loop.results)", True)
        if spec.kind == "list":
            n = self.used.get(call.name, 0)
            self.used[call.name] = n + 1
            if n >= len(spec.value):
                return result(f"error: '{call.name}' has no result left (loop.results.{call.name} lists "
                              f"{len(spec.value)}; this is call {n + 1})", True)
            spec = spec.value[n]
        return self._one(spec, call, result)

    @staticmethod
    def _one(spec: LoopResult, call: ToolCall, result: Callable[..., Message]) -> Message:
        if spec.kind == "error":
            return result(spec.value, True)
        if spec.kind == "template":
            arguments = call.arguments or {}
            import string

            missing = [name for _, name, _, _ in string.Formatter().parse(spec.value)
                       if name is not None and name not in arguments]
            if missing:
                return result(f"error: '{call.name}' was called without {', '.join(missing)}", True)
            values = {k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for k, v in arguments.items()}
            return result(spec.value.format_map(values))
        return result(spec.value)

    async def _from_command(self, call: ToolCall, history_call: HistoryCall, context: dict[str, Any],
                            result: Callable[..., Message]) -> Message:
        import asyncio

        stdin = json.dumps({"id": history_call.id, "name": call.name, "arguments": call.arguments, **context},
                           ensure_ascii=False).encode()
        assert self.command is not None
        starting = asyncio.ensure_future(asyncio.create_subprocess_shell(
            self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=os.name == "posix"))
        try:
            process = await asyncio.shield(starting)
        except asyncio.CancelledError:
            # Ctrl-C while asyncio connects the pipes: its own clean-up would kill the shell alone and then wait for
            # the pipes, which what the shell started keeps open (a hang until that ends). Take the process, stop
            # its whole group, reap it, and go on being cancelled.
            process = await starting
            kill_group(process)
            try:
                await asyncio.wait_for(process.wait(), 5)
            except BaseException:  # noqa: BLE001 - the first interruption is the one raised
                pass
            raise

        def kill() -> None:
            kill_group(process)

        from . import limits

        cap = limits.get("result_bytes")

        async def capped(stream: Any, keep_tail: bool) -> tuple[bytes, bool]:
            """At most ``cap`` bytes of a pipe (stderr: the last ``cap``), read to its end; whether it was cut."""
            kept, over = bytearray(), False
            while True:
                chunk = await stream.read(65536)
                if not chunk:
                    return bytes(kept), over
                kept += chunk
                if len(kept) > cap:
                    if not keep_tail:
                        if not over:
                            kill()  # the result is refused: stop the command
                        over = True
                        del kept[cap:]  # read on to the end, discarding: the pipe never fills whatever the kill did
                        continue
                    over = True
                    del kept[:len(kept) - cap]

        async def talk() -> tuple[tuple[bytes, bool], tuple[bytes, bool]]:
            async def feed() -> None:
                try:
                    process.stdin.write(stdin)
                    await process.stdin.drain()
                    process.stdin.close()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            _, out, err = await asyncio.gather(feed(), capped(process.stdout, False), capped(process.stderr, True))
            await process.wait()
            return out, err

        try:
            (out, cut), (err, _) = await asyncio.wait_for(talk(), self.timeout)
        except asyncio.TimeoutError:
            kill()
            await process.wait()
            return result(f"error: the command giving tool results took longer than {self.timeout:g} s for "
                          f"'{call.name}'", True)
        except BaseException:  # Ctrl-C cancels the loop: in a session of its own, the command never saw the signal
            kill()
            try:  # reaped while the event loop runs (after it, asyncio warns of a child it can no longer watch)
                await asyncio.wait_for(process.wait(), 5)
            except BaseException:  # noqa: BLE001 - the first interruption is the one raised
                pass
            raise
        if cut:
            return result(f"error: the command giving tool results printed more than {limits.shown('result_bytes')} "
                          f"for '{call.name}'; {limits.raise_hint('result_bytes')}", True)
        text = out.decode("utf-8", "replace").rstrip("\n")
        if process.returncode != 0:
            why = (err.decode("utf-8", "replace").strip() or text or f"exit {process.returncode}").splitlines()[-1]
            return result(f"error: {why}", True)
        return result(text)
