"""``--save DIR``: each sample's request (placeholders only), the response body as received and the
parsed reply, as files. Every text is redacted with the run's secrets before it is written; every
file is written atomically (a temporary file renamed into place), so an interrupted run never leaves
half a file. A folder holds one run: the sample files of an earlier run are removed when a new run
starts saving into it, so a reply is never shown next to another run's response."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from .model import ToolchoiceError, Translation

SAMPLE_FILE = re.compile(r"sample-\d{3,}\.(request|response|reply)\.(json|txt|sse|ndjson|eventstream)")


def prepare_save_dir(path: Path) -> Path:
    """Create the folder (or reuse it, removing an earlier run's sample files)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ToolchoiceError(f"--save {path}: cannot create the folder: {exc.strerror}") from None
    if not path.is_dir():
        raise ToolchoiceError(f"--save {path}: not a folder")
    for old in path.iterdir():
        if SAMPLE_FILE.fullmatch(old.name) and old.is_file():
            try:
                old.unlink()
            except OSError as exc:
                raise ToolchoiceError(f"--save {path}: cannot remove the earlier run's {old.name}: "
                                      f"{exc.strerror}") from None
    return path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to a temporary file beside ``path`` and rename it into place."""
    temporary = path.with_name(f".{path.name}.partial")
    try:
        if isinstance(text, bytes):
            temporary.write_bytes(text)
        else:
            temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        raise ToolchoiceError(f"--save: cannot write {path}: {exc.strerror}") from None


def dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def save_sample(folder: Path, provider: str, translation: Translation, sample: Any, secrets: dict[str, str]) -> None:
    """sample-NNN.request.json (placeholders only), sample-NNN.response.json (the body as received;
    .txt when it is not JSON; none when nothing arrived) and sample-NNN.reply.json, the reply last:
    a reply file means its sample is complete."""
    from .redaction import Redactor, safe_json_text

    redactor = Redactor(secrets)
    stem = f"sample-{sample.index:03d}"
    assert translation.request is not None
    write_atomic(folder / f"{stem}.request.json", redactor.text(dumps(redactor.data(translation.request.to_json()))))
    if sample.status is not None:
        suffix = ".response.json" if sample.raw_json is not None else ".response" + (sample.raw_suffix or ".txt")
        if sample.raw_bytes is not None:  # a stream's bytes, redacted as they arrived (streaming.stream_reply)
            write_atomic(folder / f"{stem}{suffix}", sample.raw_bytes)
        else:  # the body as received, unless a key in it would survive as text (a \u-escaped echo): issue 16, 3
            write_atomic(folder / f"{stem}{suffix}", safe_json_text(sample.raw_text, sample.raw_json, redactor))
    meta = {"provider": provider, **sample.to_json(provider)}
    write_atomic(folder / f"{stem}.reply.json", redactor.text(dumps(redactor.data(meta))))
