"""docs/python.md's examples run as written: every ```python block, in order, in one namespace (a later
example uses the names an earlier one made), in this checkout, with the environment restored after.
The sends go through httpx.MockTransport or to a running_mock on 127.0.0.1: the guard below refuses every
connection to any other address."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "python.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


def test_the_page_has_an_example_for_every_job():
    code = "\n".join(python_blocks(PAGE.read_text(encoding="utf-8")))
    for job in ("jobs.render(", "jobs.send(", "jobs.compare_send(", "jobs.probe(", "jobs.run(", "parse_reply(",
                "running_mock(", "base_url=mock.base_url", "dialects.apply(", "saved_request.import_saved(",
                "trace_scenario.import_trace(", "trace_har.import_har(", "replay_file(", ".sent_choice",
                ".sent_parallel"):
        assert job in code, job


def test_every_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    def loopback_only(real):
        def connect(*args, **kwargs):
            address = args[-1] if real is not socket.create_connection else args[0]
            if not (isinstance(address, tuple) and address[0] in ("127.0.0.1", "::1")):
                raise AssertionError(f"an example opened a connection to {address!r}")
            return real(*args, **kwargs)
        return connect

    monkeypatch.setattr(socket.socket, "connect", loopback_only(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "connect_ex", loopback_only(socket.socket.connect_ex))
    monkeypatch.setattr(socket, "create_connection", loopback_only(socket.create_connection))
    saved = dict(os.environ)
    namespace: dict = {"__name__": "docs_python_md"}
    try:
        for number, block in enumerate(python_blocks(PAGE.read_text(encoding="utf-8")), 1):
            exec(compile(block, f"docs/python.md example {number}", "exec"), namespace)  # noqa: S102
    finally:
        os.environ.clear()
        os.environ.update(saved)
    out = capsys.readouterr().out
    assert "obeyed" in out and "sk-test" not in out


def test_a_repeated_send_keeps_what_the_command_line_keeps():
    import inspect

    from toolchoice.providers.core import jobs, runner

    assert inspect.signature(jobs.send).parameters["keep"].default == runner.RESULTS_KEPT


def test_mock_md_s_python_loop_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/mock.md's examples that assert (its SDK loop against running_mock; the sketch of a script of replies,
    with its ``...``, asserts nothing and is not run), on 127.0.0.1 alone."""
    real = socket.create_connection

    def loopback_only(address, *args, **kwargs):
        assert address[0] in ("127.0.0.1", "::1", "localhost"), address
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", loopback_only)
    blocks = [b for b in python_blocks((ROOT / "docs" / "mock.md").read_text(encoding="utf-8")) if "assert " in b]
    assert blocks
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"docs/mock.md example {number}", "exec"), {"__name__": "docs_mock_md"})  # noqa: S102


def test_the_pytest_file_s_tests_pass_as_pytest_runs_them():
    """docs/python.md's "In your pytest suite" block: each test_ function it defines, called once per parametrize
    case with a fresh monkeypatch, as pytest would (a new user copies the file as is)."""
    import itertools

    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## In your pytest suite"):text.index("## Types")]
    [block] = python_blocks(section)
    namespace: dict = {"__name__": "test_tool_choice"}
    exec(compile(block, "docs/python.md: test_tool_choice.py", "exec"), namespace)  # noqa: S102
    tests = {name: fn for name, fn in namespace.items() if name.startswith("test_") and callable(fn)}
    assert sorted(tests) == ["test_required_on_the_wire", "test_the_model_obeys_required"]
    called = 0
    for fn in tests.values():
        marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        cases = [[dict(zip([n.strip() for n in m.args[0].split(",")], v if isinstance(v, tuple) else (v,)))
                  for v in m.args[1]] for m in marks]
        for combination in itertools.product(*cases):
            arguments = {k: v for case in combination for k, v in case.items()}
            with pytest.MonkeyPatch.context() as monkeypatch:
                if "monkeypatch" in fn.__code__.co_varnames[:fn.__code__.co_argcount]:
                    arguments["monkeypatch"] = monkeypatch
                fn(**arguments)
            called += 1
    assert called == 5
