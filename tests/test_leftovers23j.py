"""Session 23's leftovers of the adversarial round: a saved request's headers said when not carried, numeric options
refused the same way in a dry run as in a send, and `tools --mcp-url --timeout` counting the MCP SDK's import."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import refused, run_cli, user_env

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "tests" / "data" / "saved" / "openai-chat-proxy"  # the OpenAI SDK through `toolchoice proxy`


# ---- trace REQUEST.json: a header the sender wrote is named when it is not carried ----------------------------------

def _saved_with(tmp_path: Path, headers: dict[str, str]) -> Path:
    """The recorded request of the OpenAI SDK with ``headers`` added, as its ``default_headers=`` sends them."""
    folder = tmp_path / "saved"
    shutil.copytree(RECORDED, folder)
    file = folder / "sample-001.request.json"
    document = json.loads(file.read_text(encoding="utf-8"))
    document["headers"] = {**document["headers"], **headers}
    file.write_text(json.dumps(document), encoding="utf-8")
    return file


def test_a_custom_header_not_carried_is_named_never_its_value(tmp_path: Path) -> None:
    """`X-Team: a` in a saved request without a *-beta header went nowhere: not in the scenario, not in a note. It
    is now named (code saved.headers_not_carried), its value never shown; a *-beta header whose value holds `$`
    (not carried either) is named too."""
    value = "team-alpha-7f3q9"
    file = _saved_with(tmp_path, {"X-Team": value, "anthropic-beta": "$NOT_READ"})
    result = run_cli(["trace", str(file), "-f", "json"], env=user_env())
    assert result.returncode == 0, result.stderr
    scenario = json.loads(result.stdout)
    assert "headers" not in scenario["providers"]["openai"]
    (note,) = [line for line in result.stderr.splitlines() if "saved.headers_not_carried" in line]
    for name in ("X-Team", "anthropic-beta", "authorization", "user-agent", "x-stainless-os"):
        assert name in note, note
    for per_message in ("host", "content-length", "connection"):  # the HTTP client's own, for each message
        assert f" {per_message}," not in note and f" {per_message} " not in note, note
    assert value not in result.stdout + result.stderr and "NOT_READ" not in result.stdout + result.stderr


# ---- nan and friends: refused alike whatever the mode ---------------------------------------------------------------

def _scenario(tmp_path: Path) -> str:
    path = tmp_path / "s.yaml"
    assert run_cli(["init", str(path)], env=user_env()).returncode == 0
    return str(path)


def test_bad_numbers_are_refused_alike_in_a_dry_run_and_a_send(tmp_path: Path) -> None:
    """`send --dry-run --timeout nan` (and --min-obeyed nan, `run --dry-run --timeout nan`, compare's render-only
    table) exited 0 while a send refused the value: nan passes the option's range (it compares false with both
    ends). Every mode now gives the send's one line and exit 2; inf, negative and zero were refused alike already."""
    scenario = _scenario(tmp_path)
    env = user_env(OPENAI_API_KEY="sk-test-not-a-real-key-0000000000",
                   ANTHROPIC_API_KEY="sk-ant-test-not-a-real-key-000000000")
    sending = ["--base-url", "http://127.0.0.1:9/v1", "--retries", "0"]  # nothing listens there; nothing is sent
    cases = [(["send", scenario, "-p", "openai"], ["--dry-run"], [], ["--timeout", "--min-obeyed"]),
             (["run", scenario, "-p", "openai"], ["--dry-run"], [], ["--timeout"]),
             (["compare", scenario, "-p", "openai,anthropic"], [], ["--send"], ["--timeout", "--min-obeyed"])]
    for command, dry, send, options in cases:
        for option in options:
            for value in ("nan", "inf", "-inf", "-1", "0" if option == "--timeout" else "1.5", "1e400"):
                real = refused(run_cli([*command, *send, *sending, option, value], env=env))
                shown = run_cli([*command, *dry, option, value], env=env)
                assert (shown.returncode, shown.stderr) == (2, real), (command, option, value, shown.stderr, real)
                assert shown.stdout == ""


# ---- tools --mcp-url URL --timeout T: the SDK's import is inside T ------------------------------------------------

IMPORT_SECONDS, TIMEOUT_SECONDS = 8.0, 8.0  # before: at least 16 s; now ~10 (start-up ~2 s, loaded)

_SLOW_IMPORT = f"""
import sys, time
class SlowMcp:  # the MCP SDK's import as a loaded machine takes it
    def find_spec(self, name, path=None, target=None):
        if name == "mcp":
            sys.meta_path.remove(self)
            time.sleep({IMPORT_SECONDS})
        return None
sys.meta_path.insert(0, SlowMcp())
from toolchoice.cli.app import main
sys.argv = ["toolchoice", *sys.argv[1:]]
main()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX sockets")
def test_tools_mcp_url_timeout_counts_the_sdk_import(tmp_path: Path) -> None:
    """The deadline of `tools --mcp-url URL --timeout T` started after the MCP SDK was imported (seconds on a loaded
    machine): T more was waited after it. With an import that takes longer than T (a meta-path hook sleeping in a
    real process) at a real 127.0.0.1 server that takes connections and never answers, the command now ends at its
    deadline without connecting, well inside the import plus T (the least it took before)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel accepts; nobody answers
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/mcp"
        env = user_env()
        began = time.monotonic()
        result = subprocess.run([sys.executable, "-c", _SLOW_IMPORT, "tools", "--mcp-url", url, "--timeout",
                                 str(TIMEOUT_SECONDS)], env=env, capture_output=True, text=True, timeout=120)
        took = time.monotonic() - began
        said = result.stderr
        assert result.returncode == 2 and f"no tool listing within {TIMEOUT_SECONDS:g} s" in said, said
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert took < IMPORT_SECONDS + TIMEOUT_SECONDS, took  # before: at least that (the import, then all of T)
        silent.setblocking(False)
        with pytest.raises(BlockingIOError):  # the deadline had passed: no connection was made
            silent.accept()[0].close()
