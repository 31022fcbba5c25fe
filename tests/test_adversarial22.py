"""Adversarial round 22 on the newer surfaces: send --stream and its saves, run and --trace-out, replay, MCP import,
mock and proxy, probe --save, parse, snapshots and compare. Each test is an attack; each failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import refused, run_cli


def _scenario(tmp_path: Path, headers: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\n"
                    f"providers:\n  openai:\n    model: gpt-4o\n    headers: {{{headers}}}\n", encoding="utf-8")
    return path


# ---- providers.<id>.headers: what httpx cannot send is bad input at its line, not an internal error at send -------

@pytest.mark.parametrize("value", ["é", "caf\u00e9 au lait", "x\u00a0y"])
def test_a_header_value_outside_ascii_is_refused_at_its_line(tmp_path: Path, value: str) -> None:
    """httpx encodes a str header value as ASCII: a Latin-1 value passed the scenario check (it allowed up to
    U+00FF) and send ended in an internal error (UnicodeEncodeError, exit 1)."""
    import httpx

    with pytest.raises(UnicodeEncodeError):  # the truth: the client the transport sends with cannot carry it
        httpx.Request("POST", "http://127.0.0.1:9/", headers={"X-A": value})
    path = _scenario(tmp_path, f'"X-A": "{value}"')
    for args in (["render", str(path), "-p", "openai"], ["send", str(path), "-p", "openai", "--dry-run"]):
        line = refused(run_cli(args, env={"PATH": "/usr/bin:/bin"}))
        assert f"{path}:9:" in line and "X-A" in line and "non-ASCII" in line


@pytest.mark.parametrize("name", ["Content-Length", "transfer-encoding"])
def test_a_framing_header_is_refused_at_its_line(tmp_path: Path, name: str) -> None:
    """Content-Length set by hand ended in httpx's LocalProtocolError as an internal error (exit 1) once the
    request was on its way; Transfer-Encoding other than chunked in a transport error."""
    import h11

    conn = h11.Connection(h11.CLIENT)  # the truth: the HTTP/1.1 writer httpx sends through refuses a wrong length
    conn.send(h11.Request(method="POST", target="/", headers=[("Host", "x"), ("Content-Length", "5")]))
    with pytest.raises(h11.LocalProtocolError):
        conn.send(h11.Data(data=b"123456"))
    path = _scenario(tmp_path, f'"{name}": "5"')
    line = refused(run_cli(["render", str(path), "-p", "openai"], env={"PATH": "/usr/bin:/bin"}))
    assert f"{path}:9:" in line and name in line
