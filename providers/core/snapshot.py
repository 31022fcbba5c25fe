"""Golden wire snapshots: one reviewable file per scenario x provider, written or checked.

A snapshot is the translation (request with keys as ``$VARS``, tool_choice requested and on the
wire, the ledger, the offered tools) as JSON with sorted keys, two-space indents and a final
newline. Nothing in it depends on the machine: translations carry no timestamps and no environment
values, and absolute paths that reach a ledger message (an MCP command line, say) are written
relative to the scenario's folder, the working directory or the home folder. So ``--update`` on
one machine and a check on another compare byte for byte.

Layout: ``DIR/<scenario file stem>/<provider>.json``.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from pathlib import Path
from typing import Iterable, NamedTuple

from . import bounded, limits
from .model import ToolchoiceError, Translation

SUFFIX = ".json"
_SURROGATE = re.compile("[\ud800-\udfff]")


class Drift(NamedTuple):
    """One snapshot file that does not match: changed, missing (not written yet) or extra (no longer rendered)."""

    path: str  # relative to the snapshot folder, with /
    kind: str  # "changed" | "missing" | "extra"
    diff: str  # a unified diff for "changed", else ""


def snapshot_text(translation: Translation, scenario_path: str) -> str:
    """The stable text of one translation."""
    text = json.dumps(translation.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    # a lone surrogate (JSON's "\\ud83d" cut from its pair, read into a str) has no UTF-8 form: its JSON escape,
    # which reads back as the same str (structure is ASCII, so one is only ever inside a string)
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return _relative_paths(text, scenario_path)


def _relative_paths(text: str, scenario_path: str) -> str:
    places = [(str(Path(scenario_path).resolve().parent), "<scenario-dir>"), (os.getcwd(), "<cwd>"),
              (str(Path.home()), "~")]
    for absolute, shown in sorted(places, key=lambda p: -len(p[0])):
        if len(absolute) > 1:  # never "/" alone
            for form in dict.fromkeys((absolute, json.dumps(absolute)[1:-1])):  # as is, and as JSON escapes it
                # only a whole path: HOME=/h must leave "https://docs.example.com/help" alone (not "...com~elp")
                text = re.sub(rf"(?<![\w.~/\\-]){re.escape(form)}(?=[/\\\s\"'),:;.\]}}]|$)", lambda _: shown, text)
    return text


def snapshot_files(rendered: Iterable[tuple[str, list[Translation]]]) -> dict[str, str]:
    """(scenario path, its translations) -> {"<stem>/<provider>.json": text}. Two scenarios with the same
    file stem would share a folder: refused."""
    files: dict[str, str] = {}
    stems: dict[str, str] = {}
    from .save import safe_component

    for scenario_path, translations in rendered:
        stem = safe_component(Path(scenario_path).stem)  # "...yaml" has the stem "..": never a way out
        if stem in stems and stems[stem] != scenario_path:
            raise ToolchoiceError(f"{scenario_path} and {stems[stem]} would share the snapshot folder '{stem}'",
                                  hint="give the scenario files different names")
        stems[stem] = scenario_path
        for t in translations:
            files[f"{stem}/{safe_component(t.provider)}{SUFFIX}"] = snapshot_text(t, scenario_path)
    return files


def _existing(directory: Path) -> dict[str, Path]:
    """The snapshot files in the folder; symbolic links (to files or folders) are not snapshots and are
    never followed (an --update must not delete in a link's target)."""
    if not directory.is_dir():
        return {}
    found = {}
    for sub in sorted(directory.iterdir()):
        if sub.is_symlink() or not sub.is_dir():
            continue
        for path in sorted(sub.glob(f"*{SUFFIX}")):
            if not path.is_symlink() and path.is_file():
                found[path.relative_to(directory).as_posix()] = path
    return found


class _Unread(NamedTuple):
    why: str


def _snapshot_text(path: Path, expected: str) -> str | _Unread:
    """A snapshot file's text as far as it could be the expected one: not read past both its length and
    ``file_bytes`` (a file left there by hand may be anything: it is never read whole), bytes UTF-8 cannot read
    shown as U+FFFD (such a file is never what render writes, and --update must still replace it)."""
    cap = max(limits.get("file_bytes"), len(expected.encode("utf-8")))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ToolchoiceError(f"{path}: cannot read: {exc.strerror}", hint="the snapshot files must be readable") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced by a FIFO since it was listed: never waited on
            return _Unread("not a regular file")
        data = bounded.read_at_most(handle, cap)
    if len(data) > cap:
        return _Unread(f"larger than what render writes and than {limits.shown('file_bytes')}")
    return data.decode("utf-8", errors="replace")


def check(directory: Path, expected: dict[str, str]) -> list[Drift]:
    """Every difference between the snapshot folder and ``expected``, in path order."""
    if directory.exists() and not directory.is_dir():
        raise ToolchoiceError(f"{directory}: not a folder", hint="--snapshot names a folder of snapshot files")
    existing = _existing(directory)
    drifts: list[Drift] = []
    for rel in sorted(set(expected) | set(existing)):
        if rel not in existing:
            drifts.append(Drift(rel, "missing", ""))
        elif rel not in expected:
            drifts.append(Drift(rel, "extra", ""))
        else:
            old = _snapshot_text(existing[rel], expected[rel])
            if isinstance(old, _Unread):
                drifts.append(Drift(rel, "changed", f"{rel}: {old.why}: not read, not shown\n"))
            elif old != expected[rel]:
                diff = "".join(difflib.unified_diff(old.splitlines(keepends=True), expected[rel].splitlines(keepends=True),
                                                    f"{rel} (snapshot)", f"{rel} (now)"))
                drifts.append(Drift(rel, "changed", diff))
    return drifts


def update(directory: Path, expected: dict[str, str]) -> list[Drift]:
    """Write ``expected`` (only files whose text changed) and remove extra snapshot files; returns what changed."""
    from .save import remove_inside, write_inside

    drifts = check(directory, expected)
    for drift in drifts:
        if drift.kind == "extra":
            remove_inside(directory, drift.path)
        else:
            write_inside(directory, drift.path, expected[drift.path])
    return drifts
