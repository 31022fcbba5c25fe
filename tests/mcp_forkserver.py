"""tests/mcp_server.py's SDK servers without the SDK's import per server (~0.7 s of CPU each: mcp's types).

    python tests/mcp_forkserver.py serve SOCKET        # imports mcp once, then forks one server per request
    python -I -S tests/mcp_forkserver.py SOCKET ARGS   # a server started as `python tests/mcp_server.py ARGS`

The second form is the command a test gives toolchoice (``command()``): a small process that hands its stdin,
stdout and stderr, its arguments, environment and working directory to the fork server over a Unix socket; the
fork server forks, and the child runs ``mcp_server.main()`` on those descriptors, exactly the code a fresh
``python tests/mcp_server.py ARGS`` runs, with the same modules imported (before the fork instead of after it).
The small process then holds nothing of the conversation (its own stdin/stdout/stderr are closed), passes
SIGTERM, SIGINT and SIGHUP on to the server, and exits with the server's exit code (or its signal), so the
client sees one process that ends when the server ends. The fork server is single-threaded: a fork copies only
the calling thread, and there is no other.

Only for tests whose check is what the server says (listings, pages, depth), not how its process behaves
(signals, the process tree, memory bounds): those start tests/mcp_server.py itself (test_mcp_process_bounds).
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def command(path: str, *args: str) -> list[str]:
    """The argv of a server reached through the fork server listening on ``path``."""
    return [sys.executable, "-I", "-S", str(HERE / "mcp_forkserver.py"), path, *args]


def start(path: str) -> subprocess.Popen[bytes]:
    """The fork server on ``path``, back once it listens (its imports done); it ends when its stdin closes."""
    process = subprocess.Popen([sys.executable, str(HERE / "mcp_forkserver.py"), "serve", path],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None
    assert process.stdout.readline() == b"ready\n", "the MCP fork server did not start"
    return process


def _child(connections: list[socket.socket], fds: list[int], request: dict) -> None:
    for number, fd in enumerate(fds):
        os.dup2(fd, number)
        os.close(fd)
    for connection in connections:
        connection.close()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [str(HERE / "mcp_server.py"), *request["args"]]
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGCHLD):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as a fresh interpreter has it
    code = 0
    try:
        import mcp_server

        mcp_server.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # what a fresh interpreter would print, then its exit code (or signal)
        import traceback

        traceback.print_exc()
        code = -signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
    if code < 0:
        os.kill(os.getpid(), -code)
    os._exit(code)


def serve(path: str) -> None:
    sys.path.insert(0, str(HERE))
    import anyio  # noqa: F401  (what mcp_server's SDK servers import, imported once here)
    import mcp.server.lowlevel  # noqa: F401
    import mcp.server.mcpserver  # noqa: F401
    import mcp.server.stdio  # noqa: F401
    import mcp.types  # noqa: F401

    import mcp_server  # noqa: F401

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    waiting: dict[int, socket.socket] = {}  # a server's pid: the connection of the process that asked for it
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [], 0.02)
        if sys.stdin in readable:  # the test's end closed our stdin: done, and so is any server left running
            for pid in waiting:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            return
        if listener in readable:
            connection, _ = listener.accept()
            message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
            request = json.loads(message)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                listener.close()
                _child([connection, *waiting.values()], list(fds), request)
            for fd in fds:
                os.close(fd)
            connection.sendall(f"{pid}\n".encode())
            waiting[pid] = connection
        while waiting:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            connection = waiting.pop(pid, None)
            if connection is not None:
                try:
                    connection.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
                except OSError:
                    pass
                connection.close()


def ask(path: str, args: list[str]) -> int:
    """Run as the server's command: hand this process's stdio to a forked server and wait for it. A signal that
    comes before the server's pid is passed on once the pid is known."""
    pid = 0
    pending: list[int] = []

    def forward(number: int, frame: object) -> None:
        if not pid:
            pending.append(number)
            return
        try:
            os.kill(pid, number)
        except OSError:
            pass

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, forward)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    request = json.dumps({"args": args, "env": dict(os.environ), "cwd": os.getcwd()}).encode()
    socket.send_fds(connection, [request], [0, 1, 2])
    null = os.open(os.devnull, os.O_RDWR)
    for number in (0, 1, 2):  # the server holds them now: their ends close when it ends
        os.dup2(null, number)
    reader = connection.makefile("rb")
    pid = int(reader.readline())
    for number in pending:
        forward(number, None)
    line = reader.readline()
    code = int(line) if line else 1
    if code < 0:  # ended by a signal: end by the same one
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        sys.exit(ask(sys.argv[1], sys.argv[2:]))
