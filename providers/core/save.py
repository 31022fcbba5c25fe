"""``--save DIR``: each sample's request (placeholders only), the response body as received and the
parsed reply, as files. Every text is redacted with the run's secrets before it is written; every
file is written atomically (a temporary file renamed into place), so an interrupted run never leaves
half a file. A folder holds one run: the sample files of an earlier run are removed when a new run
starts saving into it, so a reply is never shown next to another run's response."""

from __future__ import annotations

import errno
import os
import re
import threading
from pathlib import Path
from typing import Any

from .errors import ToolchoiceError, argument_error
from .model import Translation
from .json_text import dumps_indented

from .call_args import SAMPLE_FILE  # the files it writes (a trace_out is none of them)


# locked folders (their real path) → (descriptor, the locking thread's ident), held until the job that saves into
# one returns (``unlock_since``, ``unlock_folder``) or the command ends (``release_locks``): one run per folder at a time
_HELD: dict[str, tuple[int, int]] = {}


def prepare_save_dir(path: Path, argument: str = "save") -> Path:
    """Create the folder (or reuse it, removing an earlier run's sample files). The folder is locked for
    this run: a second run saving into it at the same time is refused (their samples would mix). ``argument``: the
    parameter that named it (``save``; ``running_mock``'s ``save_dir``), which a problem's words start with
    (``ArgumentError``: the command line names its option, --save)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        hint = ("name a folder, not a file: ", " holds one file per sample") if path.is_file() else ()
        raise argument_error(argument, f" {path}: cannot create the folder: {exc.strerror}", *hint) from None
    if not path.is_dir():
        raise argument_error(argument, f" {path}: not a folder", "name a folder: ", " holds one file per sample")
    lock_folder(path, argument)
    for old in path.iterdir():
        if SAMPLE_FILE.fullmatch(old.name) and old.is_file():
            try:
                old.unlink()
            except OSError as exc:
                raise argument_error(argument, f" {path}: cannot remove the earlier run's {old.name}: "
                                               f"{exc.strerror}") from None
    return path


def lock_folder(path: Path, argument: str) -> None:
    """Hold an exclusive lock on ``path`` until the process ends; refuse when another run holds it. ``argument``:
    the parameter that named the folder (``ArgumentError``)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): concurrent runs are not detected there
        return
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    key = os.path.realpath(path)
    taken = (f" {path}: another toolchoice run is saving into this folder (their samples would mix)",
             "save into another folder, or wait until that run ends")
    if key in _HELD:  # a job of this process (another thread) is saving into it now
        raise argument_error(argument, *taken)
    try:
        fd = os.open(path, flags)  # the folder itself is locked: no lock file lies among the samples
    except OSError as exc:
        raise argument_error(argument, f" {path}: cannot lock the folder: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise argument_error(argument, *taken) from None
    _HELD[key] = (fd, threading.get_ident())


def release_locks() -> None:
    """Unlock every folder this process locked (the command ended)."""
    while _HELD:
        os.close(_HELD.popitem()[1][0])


def unlock_folder(path: Path | None) -> None:
    """Unlock one folder (what saved into it ended), so a later job of this process may save there."""
    held = _HELD.pop(os.path.realpath(path), None) if path is not None else None
    if held is not None:
        os.close(held[0])


def held_here() -> frozenset[str]:
    """The folders this thread holds locked."""
    me = threading.get_ident()
    return frozenset(key for key, (_, thread) in list(_HELD.items()) if thread == me)


def unlock_since(before: frozenset[str]) -> None:
    """Unlock the folders this thread locked since ``held_here()`` gave ``before`` (a job returned or raised: a
    library caller may save into them again; a command's own process ends anyway)."""
    for key in held_here() - before:
        unlock_folder(Path(key))


def safe_component(name: str) -> str:
    """A file or folder name that stays inside its folder whatever ``name`` is: separators, NUL and control
    characters become ``_``, and a leading dot (``..``, ``.``, hidden names) is replaced, so ``...yaml``'s
    stem ``..`` can never climb out."""
    cleaned = "".join("_" if ch in "/\\\0" or ord(ch) < 32 or ord(ch) == 127 else ch for ch in name)
    if not cleaned or cleaned.startswith("."):
        cleaned = "_" + cleaned.lstrip(".")
    return cleaned


def write_atomic(path: Path, text: str | bytes, argument: str = "save") -> None:
    """Write ``text`` (or bytes) to a new temporary file beside ``path`` (a random name created with
    O_EXCL: a planted file or symlink is never written through) and rename it into place."""
    import tempfile

    # a lone surrogate (a reply's "\ud800" escape, decoded) has no UTF-8 form: written as the escape it came from
    data = text if isinstance(text, bytes) else text.encode("utf-8", errors="backslashreplace")
    stream = _stream_named(path)
    if stream is not None:  # /dev/stdout when stdout is a file (`> out.txt`): written to the stream, in its order
        import sys

        try:
            for open_stream in (sys.stdout, sys.stderr):
                open_stream.flush()
            with os.fdopen(os.dup(stream), "wb") as handle:
                handle.write(data)
            return
        except OSError as exc:
            raise argument_error(argument, f": cannot write {path}: {exc.strerror}") from None
        except OverflowError:  # /dev/fd/99999999999999999999: no descriptor (os.dup's own error was exit 70)
            raise argument_error(argument, f": cannot write {path}: {os.strerror(errno.EBADF)}") from None
    if _device_or_pipe(path):  # /dev/stdout, a FIFO: written through (renamed over, the link itself was replaced)
        try:
            with open(path, "wb") as handle:
                handle.write(data)
            return
        except OSError as exc:
            raise argument_error(argument, f": cannot write {path}: {exc.strerror}") from None
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
        temporary = None
    except OSError as exc:
        raise argument_error(argument, f": cannot write {path}: {exc.strerror}") from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _stream_named(path: Path) -> int | None:
    """The descriptor ``path`` names where it is, or links to, /dev/fd/N or /proc/self/fd/N (/dev/stdout, /dev/stderr):
    a file the shell opened there (`> out.txt`) is no file to rename over (it was /dev/stdout itself that was
    replaced, run as root: a regular file holding the trace in its place, seen 2026-11-28 and put back). ``-`` is
    stdout, as `init -` and `trace --scenario-out -` read it (a file named - was written)."""
    if str(path) == "-":
        return 1
    name = os.path.abspath(path)
    for _ in range(40):  # the kernel's own bound on a chain of links
        found = re.fullmatch(r"/(?:dev|proc/self|proc/%d)/fd/(\d+)" % os.getpid(), name)
        if found:
            return int(found.group(1))
        try:
            name = os.path.normpath(os.path.join(os.path.dirname(name), os.readlink(name)))
        except (OSError, ValueError):  # not a link (or not there): a file to write as files are
            return None
    return None


def _device_or_pipe(path: Path) -> bool:
    """Whether ``path`` is (or links to) a character device or a FIFO: no file to replace, only to write to."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def save_redactor(secrets: dict[str, str]) -> Any:
    """What every saved file is redacted with: the run's resolved secrets and every key variable set in the
    environment (a replayed or hand-made transcript can hold a key no request of this run resolved)."""
    from .redaction import Redactor, environment_secrets

    return Redactor({**environment_secrets(os.environ), **secrets})


def dumps(value: Any) -> str:
    return dumps_indented(value) + "\n"


def save_sample(folder: Path, provider: str, translation: Translation, sample: Any, secrets: dict[str, str]) -> None:
    """sample-NNN.request.json (placeholders only), sample-NNN.response.json (the body as received;
    .txt when it is not JSON; none when nothing arrived) and sample-NNN.reply.json, the reply last:
    a reply file means its sample is complete."""
    from .redaction import safe_json_text

    redactor = save_redactor(secrets)
    stem = f"sample-{sample.index:03d}"
    assert translation.request is not None
    write_atomic(folder / f"{stem}.request.json", redactor.document(translation.request.to_json()) + "\n")
    if sample.status is not None:
        suffix = ".response.json" if sample.raw_is_json else ".response" + (sample.raw_suffix or ".txt")
        if sample.raw_bytes is not None:  # a stream's bytes, redacted whole (stream_redaction.redact_stream)
            from .stream_redaction import redact_stream
            from .stream_framing import SAVE_SUFFIX

            framing = next((f for f, s in SAVE_SUFFIX.items() if s == sample.raw_suffix), "sse")
            write_atomic(folder / f"{stem}{suffix}", redact_stream(sample.raw_bytes, framing, redactor))
        else:  # the body as received, unless a key in it would survive as text (a \u-escaped echo): issue 16, 3
            write_atomic(folder / f"{stem}{suffix}", safe_json_text(sample.raw_text, sample.raw_json, redactor))
    meta = {"provider": provider, **sample.to_json(provider)}
    write_atomic(folder / f"{stem}.reply.json", redactor.document(meta) + "\n")  # dumps' text, redacted


# ---- writing below a folder without leaving it --------------------------------------------------------

def _open_dir(parent: int | None, name: str, create: bool, shown: Path) -> int:
    """A folder's descriptor, opened relative to ``parent`` without following a symbolic link."""
    import errno

    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if create:
        try:
            os.mkdir(name, 0o777, dir_fd=parent) if parent is not None else os.makedirs(name, exist_ok=True)
        except FileExistsError:
            pass
    try:
        return os.open(name, flags, dir_fd=parent) if parent is not None else os.open(name, flags)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) or os.path.islink(shown):
            raise ToolchoiceError(f"{shown}: is a symbolic link or not a folder: not followed",
                                  hint="remove it, or point the option at the real folder") from None
        raise ToolchoiceError(f"{shown}: cannot open the folder: {exc.strerror}") from None


def _checked_parts(parts: list[str]) -> list[str]:
    for part in parts:
        if part in ("", ".", "..") or "/" in part or "\0" in part or os.sep in part:
            raise ToolchoiceError(f"refusing to write {'/'.join(parts)!r}: not a name inside the folder")
    return parts


def write_inside(root: Path, relative: str, text: str) -> None:
    """Write ``root/relative`` atomically: every folder below ``root`` opened without following symbolic
    links, the file through a new random temporary name (O_EXCL) renamed into place."""
    import secrets

    *folders, name = _checked_parts(relative.split("/"))
    if not {os.open, os.mkdir, os.rename} <= os.supports_dir_fd:  # no *at() calls (Windows): paths
        target = root.joinpath(*folders)
        target.mkdir(parents=True, exist_ok=True)
        write_atomic(target / name, text)
        return
    fds: list[int] = []
    try:
        _open_chain(fds, root, folders, True)
        where = fds[-1]
        temporary = f".{name}.{secrets.token_hex(8)}.partial"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(temporary, flags, 0o644, dir_fd=where)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
            os.replace(temporary, name, src_dir_fd=where, dst_dir_fd=where)
        except BaseException:
            try:
                os.unlink(temporary, dir_fd=where)
            except OSError:
                pass
            raise
    except OSError as exc:
        raise ToolchoiceError(f"cannot write {root / relative}: {exc.strerror}") from None
    finally:
        for fd in fds:
            os.close(fd)


def _open_chain(fds: list[int], root: Path, folders: list[str], create: bool) -> None:
    """Descriptors of ``root`` and each folder below it in turn, appended to ``fds`` as they open (the caller
    closes them), never following a symbolic link; ``create``: make missing folders."""
    fds.append(_open_dir(None, str(root), create, root))
    shown = root
    for folder in folders:
        shown = shown / folder
        fds.append(_open_dir(fds[-1], folder, create, shown))


def remove_inside(root: Path, relative: str) -> None:
    """Remove ``root/relative`` (and its folder when that empties it), never following a symbolic link."""
    *folders, name = _checked_parts(relative.split("/"))
    fds: list[int] = []
    try:
        _open_chain(fds, root, folders, False)
        os.unlink(name, dir_fd=fds[-1])
        if folders and not os.listdir(fds[-1]):
            os.rmdir(folders[-1], dir_fd=fds[-2])
    except OSError as exc:
        raise ToolchoiceError(f"cannot remove {root / relative}: {exc.strerror}") from None
    finally:
        for fd in fds:
            os.close(fd)
