"""A server that echoes the key back a few characters a delta: no event holds a piece long enough to be found
(redaction looks for 12 characters and more), but the saved raw stream, put together, held the key whole, for
every framing (found by an adversarial run). The reply assembled from the stream is redacted as before; the raw
stream is then not kept (an empty file), and the finding stream.raw_withheld says why."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789secret"


def chunk(delta: dict, finish: str | None = None) -> bytes:
    data = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(data)}\n\n".encode()


class Echo(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length", 0)))
        key = self.headers["authorization"].removeprefix("Bearer ")
        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": key[i:i + 4]}) for i in range(0, len(key), 4)]
        events += [chunk({}, "stop"), b"data: [DONE]\n\n"]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for event in events:
            self.wfile.write(event)


@pytest.fixture()
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_a_key_echoed_in_pieces_is_in_no_saved_file_nor_output(tmp_path: Path, echo_url: str) -> None:
    env = {"OPENAI_API_KEY": KEY}
    sent = run_cli(["send", "configs/weather.yaml", "-p", "openai", "--base-url", echo_url, "--stream", "--save",
                    str(tmp_path / "s"), "-f", "json"], env=env, cwd=ROOT)
    ran = run_cli(["run", "configs/weather.yaml", "-p", "openai", "--base-url", echo_url, "--stream", "--save",
                   str(tmp_path / "r")], env=env, cwd=ROOT)
    assert sent.returncode in (0, 4) and ran.returncode in (0, 4), sent.stderr + ran.stderr
    document = json.loads(sent.stdout)
    assert document["reply"]["text"] == "$OPENAI_API_KEY"  # put together, then redacted
    assert "stream.raw_withheld" in json.dumps(document)
    assert (tmp_path / "s" / "sample-001.response.sse").read_bytes() == b""
    for path in tmp_path.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            squeezed = "".join(json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
                               for line in text.splitlines() if line.startswith("data: {"))
            assert KEY not in text and KEY not in squeezed and KEY[:12] not in text, path
    assert KEY not in sent.stdout + sent.stderr + ran.stdout + ran.stderr


def test_a_stream_with_no_key_is_kept_as_received(tmp_path: Path, echo_url: str) -> None:
    """A key too short to be redacted (under MIN_SECRET_LENGTH): nothing to withhold, the stream is kept as
    received."""
    sent = run_cli(["send", "configs/weather.yaml", "-p", "openai", "--base-url", echo_url, "--stream", "--save",
                    str(tmp_path / "s"), "-f", "json"], env={"OPENAI_API_KEY": "short"}, cwd=ROOT)
    assert sent.returncode in (0, 4), sent.stderr
    assert "stream.raw_withheld" not in sent.stdout
    saved = (tmp_path / "s" / "sample-001.response.sse").read_bytes()
    assert saved.count(b"data: ") == len(range(0, len("short"), 4)) + 3
