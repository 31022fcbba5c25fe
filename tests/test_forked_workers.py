"""The suite's own runner (tests/forked_workers.py) says what pytest alone would: a small suite written here, run by
a real pytest process with ``--workers 2`` and again with ``--workers 0`` (pytest's own loop, the truth), must
give the same outcome for every test, the same captured output and warning, and the same exit code; a worker
that dies fails the test it ran, and the rest of its file, by name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SUITE = {
    "conftest.py": f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from forked_workers import pytest_addoption, pytest_runtestloop  # noqa: F401  (the suite's hooks, as tests/conftest.py has them)
""",
    "test_a.py": """
import warnings
def test_ok(): print("said-by-ok")
def test_fail(): print("said-before-failing"); assert 1 == 2
def test_warn(): warnings.warn(UserWarning("careful-now"))
def test_deprecated(): warnings.warn(DeprecationWarning("old-way-now"))
""",
    "test_b.py": """
import pytest
@pytest.fixture(scope="module")
def once(tmp_path_factory):
    path = tmp_path_factory.mktemp("once") / "count"
    path.write_text("x")
    yield path
    path.write_text(path.read_text() + "-torn-down")
@pytest.mark.parametrize("i", range(4))
def test_module_fixture(once, i): assert once.read_text() == "x"
def test_skip(): pytest.skip("not today")
@pytest.mark.xfail(reason="known")
def test_xfail(): assert False
""",
    "test_c.py": """
def test_c1(tmp_path): assert tmp_path.is_dir()
""",
}
CRASH = """
import os
def test_before(): pass
def test_crash(): os._exit(3)
def test_after(): pass
"""


def _run(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """pytest on ``folder``'s suite; the outer run's ``TOOLCHOICE_TEST_CPU_LOG`` is not handed down (the inner
    suite's tests joined the outer suite's log, their CPU counted twice: already the outer test's children's)."""
    env = dict(os.environ if env is None else env)
    if env.get("TOOLCHOICE_TEST_CPU_LOG") == os.environ.get("TOOLCHOICE_TEST_CPU_LOG"):
        env.pop("TOOLCHOICE_TEST_CPU_LOG", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-p", "no:langsmith_plugin",
                           "-p", "no:anyio", "-p", "no:xdist", "--rootdir", str(folder), *args, str(folder)],
                          capture_output=True, text=True, timeout=120, cwd=folder, env=env)


def _outcomes(text: str) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in re.finditer(r"^(PASSED|FAILED|SKIPPED|XFAIL|ERROR) (\S+)", text, re.M)}


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_the_forked_workers_report_what_pytest_alone_reports(tmp_path: Path) -> None:
    _write(tmp_path, SUITE)
    alone, forked = _run(tmp_path, "--workers", "0"), _run(tmp_path, "--workers", "2")
    assert alone.returncode == forked.returncode == 1, (alone.stdout[-2000:], forked.stdout[-2000:])
    expected = _outcomes(alone.stdout)
    assert len(expected) == 11 and expected["test_a.py::test_fail"] == "FAILED", alone.stdout
    assert _outcomes(forked.stdout) == expected, forked.stdout
    for text in (alone.stdout, forked.stdout):
        assert "said-before-failing" in text and "said-by-ok" in text  # captured, per test
        assert "UserWarning: careful-now" in text and "DeprecationWarning: old-way-now" in text  # the summary
        assert "assert 1 == 2" in text
        assert re.search(r"1 failed, 8 passed, 1 skipped, 1 xfailed, 2 warnings", text), text[-500:]


def test_a_worker_that_dies_fails_its_test_and_the_rest_of_its_file_by_name(tmp_path: Path) -> None:
    _write(tmp_path, {"conftest.py": SUITE["conftest.py"], "test_c.py": SUITE["test_c.py"], "test_crash.py": CRASH})
    forked = _run(tmp_path, "--workers", "2")
    assert forked.returncode == 1, forked.stdout[-2000:]
    outcomes = _outcomes(forked.stdout)
    assert outcomes == {"test_c.py::test_c1": "PASSED", "test_crash.py::test_before": "PASSED",
                        "test_crash.py::test_crash": "FAILED", "test_crash.py::test_after": "FAILED"}, forked.stdout
    assert re.search(r"worker \d \(pid \d+\) ended with exit code 3 while running this test", forked.stdout)
    assert re.search(r"worker \d \(pid \d+\) ended with exit code 3 before it ran this test", forked.stdout)



HUNG = """
import threading
def test_hangs(): threading.Event().wait()
def test_after(): pass
"""


def test_a_hung_test_fails_by_name_with_its_stacks_and_the_suite_goes_on(tmp_path: Path) -> None:

    _write(tmp_path, {"conftest.py": SUITE["conftest.py"], "test_c.py": SUITE["test_c.py"], "test_hung.py": HUNG})
    forked = _run(tmp_path, "--workers", "2", env={**os.environ, "TOOLCHOICE_TEST_SECONDS": "2"})
    assert forked.returncode == 1, forked.stdout[-2000:]
    assert _outcomes(forked.stdout) == {"test_c.py::test_c1": "PASSED", "test_hung.py::test_hangs": "FAILED",
                                        "test_hung.py::test_after": "FAILED"}, forked.stdout
    assert re.search(r"ended with exit code 1 while running this test \(past 2 s: taken for hung\); its threads' "
                     r"stacks:\n", forked.stdout), forked.stdout[-3000:]
    assert re.search(r'File ".*test_hung.py", line 3 in test_hangs', forked.stdout), forked.stdout[-3000:]

STOPPED = """
import pathlib, time, pytest
@pytest.fixture(scope="module")
def held():
    yield
    (pathlib.Path(__file__).parent / (pathlib.Path(__file__).stem + ".torn")).write_text("down")
@pytest.mark.parametrize("i", range(40))
def test_step(held, i):
    time.sleep(0.01)
    assert not (FAILS and i == 3)
"""


def test_x_stops_every_worker_after_its_test_with_its_fixtures_torn_down(tmp_path: Path) -> None:
    _write(tmp_path, {"conftest.py": SUITE["conftest.py"], "test_one.py": "FAILS = True\n" + STOPPED,
                      "test_two.py": "FAILS = False\n" + STOPPED})
    forked = _run(tmp_path, "--workers", "2", "-x")
    assert forked.returncode == 1 and "stopping after 1 failures" in forked.stdout, forked.stdout[-2000:]
    ran = _outcomes(forked.stdout)
    assert ran["test_one.py::test_step[3]"] == "FAILED" and len(ran) < 80, ran
    assert (tmp_path / "test_one.torn").exists() and (tmp_path / "test_two.torn").exists()


BURN = """
import subprocess, sys, time
SPIN = "import time\\nstart = time.process_time()\\nwhile time.process_time() - start < 0.2: pass"
def test_own(): exec(SPIN)
def test_child(): subprocess.run([sys.executable, "-c", SPIN], check=True)
def test_idle(): time.sleep(0.2)
def test_leaves_a_spinner():
    import builtins, threading
    stop = threading.Event()
    def spin():
        while not stop.is_set(): pass
    spinner = threading.Thread(target=spin, name="spinner", daemon=True)
    spinner.start()
    builtins.SPINNER = (spinner, stop)
def test_z_after_the_spinner():
    import builtins
    spinner, stop = builtins.SPINNER
    clock = time.pthread_getcpuclockid(spinner.ident)
    start = time.clock_gettime(clock)
    while time.clock_gettime(clock) - start < 0.2:  # however loaded the machine: until it has spun 0.2 s
        time.sleep(0.01)
def test_zz_stops_the_spinner():
    import builtins
    spinner, stop = builtins.SPINNER
    stop.set()
    spinner.join()
"""


def test_the_cpu_log_puts_each_tests_cpu_seconds_on_its_process_or_its_children(tmp_path: Path) -> None:
    """``TOOLCHOICE_TEST_CPU_LOG``: how bench/README.md's table of where the suite's CPU goes is made. Each test
    spins until the operating system has counted 0.2 s of CPU in its own process or in a child's (or sleeps)."""
    _write(tmp_path, {"conftest.py": SUITE["conftest.py"], "test_burn.py": BURN, "test_c.py": SUITE["test_c.py"]})
    log = tmp_path / "cpu.tsv"
    ran = _run(tmp_path, "--workers", "2", env={**os.environ, "TOOLCHOICE_TEST_CPU_LOG": str(log)})
    assert ran.returncode == 0, ran.stdout[-2000:]
    lines = [line.split("\t") for line in log.read_text(encoding="utf-8").splitlines()]
    rows = {node: (float(own), float(children)) for node, own, children, _ in lines}
    threads = {node: busy for node, _, _, busy in lines}
    assert set(rows) == {"test_burn.py::test_own", "test_burn.py::test_child", "test_burn.py::test_idle",
                         "test_burn.py::test_leaves_a_spinner", "test_burn.py::test_z_after_the_spinner",
                         "test_burn.py::test_zz_stops_the_spinner",
                         "test_c.py::test_c1"}
    assert rows["test_burn.py::test_own"][0] >= 0.2 and rows["test_burn.py::test_own"][1] == 0
    assert rows["test_burn.py::test_child"][1] >= 0.2 and rows["test_burn.py::test_child"][0] < 0.2
    assert rows["test_burn.py::test_idle"][0] < 0.1 and rows["test_burn.py::test_idle"][1] == 0
    # a thread an earlier test left spinning: its CPU lands on the next test, and the log names it there
    spun = re.fullmatch(r"spinner=(\d+\.\d\d)", threads["test_burn.py::test_z_after_the_spinner"])
    assert spun and float(spun.group(1)) >= 0.2, lines
    assert rows["test_burn.py::test_z_after_the_spinner"][0] >= 0.2 and threads["test_burn.py::test_idle"] == ""
