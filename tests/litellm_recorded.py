"""What the real LiteLLM sent or raised for each of tests/test_litellm_dialect.py's cases, recorded from the package
through `toolchoice mock` (tests/litellm_client.py) and kept in tests/data/peers/litellm/dialect-calls.json with the
LiteLLM version that made it.

Why: the dialect's ~1,500 cases cost ~7 ms of CPU each inside `litellm.completion` (~10 s a run). LiteLLM is pinned
(pyproject's test extra, ``litellm==1.110.2``), and the same version given the same arguments sends the same body: a
recording of that version is the same truth from outside the code. It is held to the package on every run: an
eighth of the cases (by their key, the same ones each run) are still sent live, and what LiteLLM does now must be
what the recording says. With another LiteLLM installed, every case goes live (and ``test_the_recording_is_of_the
_installed_litellm`` says to record again).

``TOOLCHOICE_LITELLM=live``: every case is sent live and held to the recording. ``TOOLCHOICE_LITELLM=record``:
every case is sent live and the file is written again when the module ends (``python -m pytest
tests/test_litellm_dialect.py --workers 0`` with it set)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from litellm_client import Client, Sent

RECORDING = Path(__file__).resolve().parent / "data/peers/litellm/dialect-calls.json"
MODE = os.environ.get("TOOLCHOICE_LITELLM", "recorded")
LIVE_ONE_IN = 8  # a case whose key's number is a multiple of this is sent live on every run


@dataclass(frozen=True)
class Call:
    """What the tests compare of one `litellm.completion` call: the request's tool fields, or what it raised."""

    body: dict[str, Any] | None
    error: tuple[str, str] | None  # the exception's class name and its text

    @classmethod
    def of(cls, sent: Sent, fields: tuple[str, ...]) -> "Call":
        body = None if sent.body is None else {f: sent.body[f] for f in fields if f in sent.body}
        error = None if sent.error is None else (type(sent.error).__name__, str(sent.error))
        return cls(body, error)

    def as_sent(self) -> Sent:
        """A `Sent` the tests read as they read a live one (the error rebuilt as an exception of the same name)."""
        error = None if self.error is None else type(self.error[0], (Exception,), {})(self.error[1])
        return Sent(None, error, None, self.body, None)


def key(provider: str, model: str | None, arguments: dict[str, Any]) -> str:
    text = json.dumps([provider, model, arguments], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class Recorded:
    """`send` answers from the recording, sends the sampled cases (or all, by MODE) live and holds them to it."""

    def __init__(self, client: Client, fields: tuple[str, ...]) -> None:
        self.client, self.fields = client, fields
        self.data = json.loads(RECORDING.read_text(encoding="utf-8")) if RECORDING.exists() else {"calls": {}}
        self.installed = version("litellm")
        self.same_version = self.data.get("litellm") == self.installed
        self.made: dict[str, dict[str, Any]] = {}
        self.live = 0

    @property
    def litellm(self) -> Any:
        return self.client.litellm

    def send(self, provider: str, model: str | None, arguments: dict[str, Any]) -> Sent:
        case = key(provider, model, arguments)
        recorded = self.data["calls"].get(case)
        sampled = int(case, 16) % LIVE_ONE_IN == 0
        if MODE == "recorded" and self.same_version and recorded is not None and not sampled:
            return Call(recorded["body"], tuple(recorded["error"]) if recorded["error"] else None).as_sent()
        sent = self.client.send(provider, model=model, **arguments)
        self.live += 1
        now = Call.of(sent, self.fields)
        if MODE == "record":
            self.made[case] = {"call": _summary(provider, model, arguments), "body": now.body,
                               "error": list(now.error) if now.error else None}
        elif self.same_version:
            assert recorded is not None, (
                f"{provider} {model} {_summary(provider, model, arguments)}: not in {RECORDING.name}; record it again "
                "(TOOLCHOICE_LITELLM=record, tests/litellm_recorded.py)")
            said = (recorded["body"], tuple(recorded["error"]) if recorded["error"] else None)
            assert (now.body, now.error) == said, ("LiteLLM no longer does what the recording says", case, now, said)
        return sent

    def write(self) -> None:
        if MODE != "record":
            return
        RECORDING.parent.mkdir(parents=True, exist_ok=True)
        data = {"litellm": self.installed,
                "how": "tests/litellm_recorded.py: each case of tests/test_litellm_dialect.py sent by litellm.completion "
                       "to toolchoice mock on 127.0.0.1; body: the request's tool fields as the mock received them; "
                       "error: what litellm.completion raised (class name, text)",
                "calls": {}}
        head = json.dumps(data, indent=1).removesuffix("{}\n}")  # one call a line: a new LiteLLM's changes read as lines
        lines = [f"  {json.dumps(case)}: {json.dumps(made, separators=(',', ':'))}" for case, made in sorted(self.made.items())]
        RECORDING.write_text(head + "{\n" + ",\n".join(lines) + "\n }\n}\n", encoding="utf-8")


def _summary(provider: str, model: str | None, arguments: dict[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in arguments.items() if k != "tools"}
    if "tools" in arguments:
        shown["tools"] = None if arguments["tools"] is None else [t["function"]["name"] for t in arguments["tools"]]
    return {"provider": provider, "model": model, **shown}
