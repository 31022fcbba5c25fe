"""A trial of the numbers `send --repeat` reports over many samples, against a stand-in on 127.0.0.1
(tests/servers.py) serving a known mix of replies. Every expected number is computed here, independently
of toolchoice: the Wilson score interval from its published formula, percentiles by linear interpolation
between closest ranks (docs/send.md names it; numpy's default), counts, means and rates by hand."""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

import jsonschema
import pytest

from servers import StandIn, Step, fixture
from test_loop import openai_body, toolchoice as loop_cli
from test_loop_scale import FOUR_STEPS
from test_send_cli import OPENAI_TEXT_REPLY, base_env, run, scenario_file, send_json

OK = fixture("openai", "openai-chat-single-strict")  # usage: prompt 48, completion 19 (the recorded body)
Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal distribution


def wilson_reference(k: int, n: int) -> tuple[float, float]:
    """Wilson (1927), "Probable inference, the law of succession, and statistical inference", JASA 22:209-212;
    as written in Brown, Cai & DasGupta (2001), Statistical Science 16(2), eq. (4):
    (k + z²/2)/(n + z²)  ±  z·√n/(n + z²) · √(p̂(1−p̂) + z²/(4n))."""
    p = k / n
    centre = (k + Z95 ** 2 / 2) / (n + Z95 ** 2)
    half = Z95 * math.sqrt(n) / (n + Z95 ** 2) * math.sqrt(p * (1 - p) + Z95 ** 2 / (4 * n))
    return centre - half, centre + half


def linear_percentile(values: list[float], q: float) -> float:
    """Hyndman & Fan (1996) definition 7: x[h] with h = (n−1)·q/100, interpolated between closest ranks."""
    xs = sorted(values)
    h = (len(xs) - 1) * q / 100
    lo = int(h)
    return xs[lo] + (h - lo) * (xs[min(lo + 1, len(xs) - 1)] - xs[lo])


def mix(obey: set[int], fail: set[int], n: int) -> list[Step]:
    return [Step.error("openai", 500) if i in fail else Step(body=OK, delay=0.003 * i) if i in obey
            else Step(body=OPENAI_TEXT_REPLY, delay=0.002 * i) for i in range(n)]


def test_seven_of_twenty_obey_three_fail_every_number(tmp_path):
    with StandIn("openai") as server:
        server.script(*mix({0, 3, 5, 7, 11, 13, 18}, {2, 9, 15}, 20))
        # the rate exactly at the threshold is not below it: exit 0 whatever failed (README "Exit codes")
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\n"), "--repeat", "20",
                                 "--concurrency", "1", "--retries", "0", "--min-obeyed", "0.35", "--all-results")
    assert result.returncode == 0, result.stderr
    assert data["samples"] == 20
    assert {k: v for k, v in data["counts"].items() if v} == {"obeyed": 7, "no_call": 10, "error": 3}
    for category, k in (("obeyed", 7), ("no_call", 10), ("error", 3)):
        low, high = wilson_reference(k, 20)
        assert data["rates"][category]["rate"] == k / 20
        assert data["rates"][category]["low"] == pytest.approx(low, abs=1e-12)
        assert data["rates"][category]["high"] == pytest.approx(high, abs=1e-12)
    assert data["rates"]["wrong_tool"]["low"] == 0 and data["rates"]["wrong_tool"]["high"] == pytest.approx(
        wilson_reference(0, 20)[1], abs=1e-12)
    # latency over the 17 replies (a failed sample has no reply latency), by definition 7
    latencies = [r["latency_ms"] for r in data["results"] if r["verdict"]["category"] != "error"]
    assert len(latencies) == 17 == data["latency_percentiles_ms"]["n"]
    assert data["latency_percentiles_ms"]["p50"] == pytest.approx(linear_percentile(latencies, 50))
    assert data["latency_percentiles_ms"]["p95"] == pytest.approx(linear_percentile(latencies, 95))
    # tokens: 7 recorded replies (48 in / 19 out) and 10 text replies (9 in / 12 out), means over the 17
    assert data["tokens"]["input_total"] == 7 * 48 + 10 * 9
    assert data["tokens"]["output_total"] == 7 * 19 + 10 * 12
    assert data["tokens"]["input_mean"] == pytest.approx((7 * 48 + 10 * 9) / 17)
    assert data["tokens"]["output_mean"] == pytest.approx((7 * 19 + 10 * 12) / 17)


@pytest.mark.parametrize("columns", ["60", "80"])
def test_a_gate_at_0_999_missed_by_998_of_1000_never_shows_100_percent(tmp_path, columns):
    """998/1000 is 99.8%: shown as "100%" (whole percents rounded) beside "below --min-obeyed 0.999" the
    gate's line contradicted itself, and the table claimed every sample obeyed."""
    with StandIn("openai") as server:
        server.script(*[Step(body=OPENAI_TEXT_REPLY) if i < 2 else Step(body=OK) for i in range(1000)])
        result = run("send", str(scenario_file(tmp_path, "tool_choice: required\n")), "-p", "openai",
                     "--base-url", server.base_url(), "--repeat", "1000", "--concurrency", "50",
                     "--min-obeyed", "0.999", env=base_env(COLUMNS=columns))
        assert len(server.requests) == 1000
    assert result.returncode == 4
    assert "998/1000 (99.8%)" in result.stderr and "100%" not in result.stderr
    obeyed_row = next(line for line in result.stdout.splitlines() if "│ obeyed" in line)
    cells = [c.strip() for c in obeyed_row.split("│")[1:-1]]
    low, high = wilson_reference(998, 1000)  # 0.9928 – 0.99945: the high bound is below 1 too
    assert cells == ["obeyed", "998", "99.8%", f"{100 * low:.0f}–{100 * high:.1f}%"]
    no_call_row = next(line for line in result.stdout.splitlines() if "│ no_call" in line)
    assert [c.strip() for c in no_call_row.split("│")[1:-1]][2] == "0.2%"  # 2/1000, not "0%"
    assert max(len(line) for line in result.stdout.splitlines()) <= int(columns)


@pytest.mark.parametrize("rate, code", [("0", 0), ("1", 4), ("0.999", 4)])
def test_every_sample_failed(tmp_path, rate, code):
    """Failed samples count as not obeyed, and the rate decides: 0/3 passes --min-obeyed 0 only."""
    with StandIn("openai") as server:
        server.script(*[Step.error("openai", 500) for _ in range(3)], )
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\n"), "--repeat", "3",
                                 "--retries", "0", "--min-obeyed", rate)
    assert result.returncode == code
    assert data["counts"]["error"] == 3 and data["latency_percentiles_ms"] == {"p50": None, "p95": None, "n": 0}
    assert data["tokens"]["input_mean"] is None
    assert data["rates"]["obeyed"]["high"] == pytest.approx(wilson_reference(0, 3)[1], abs=1e-12)
    if code:
        assert re.search(r"obeyed 0/3 \(0%\), below --min-obeyed", result.stderr)


@functools.cache
def validator_of(command: str) -> Any:
    """`toolchoice schema COMMAND`, checked against its meta-schema once per module (as jsonschema.validate did
    for every document), as a validator."""
    schema = json.loads(run("schema", command).stdout)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.mark.parametrize("n", [1, 2, 20])
def test_send_json_validates_against_its_schema_at_one_and_many_samples(tmp_path, n):
    with StandIn("openai") as server:
        server.script(*mix({0}, {1} if n > 1 else set(), n))
        result, data = send_json(server, scenario_file(tmp_path, "tool_choice: required\n"), "--repeat", str(n),
                                 "--retries", "0", "--min-obeyed", "1")
    validator_of("send").validate(data)
    assert result.returncode == (0 if n == 1 else 4)  # 1/1 meets a gate of 1; 1/2 and 1/20 do not
    if n == 1:  # one sample: its own shape, a latency number, not a tally
        assert isinstance(data["latency_ms"], (int, float)) and "counts" not in data
    else:
        assert data["counts"]["obeyed"] == 1 and data["counts"]["error"] == 1


def ten_loops(bare: bool = False) -> list[Step]:
    """Ten loops, one at a time, tool_choice required at every step: 3 answer at step 2 (no_call there),
    2 fail at step 1 with a 500, 5 call four times and hit max_steps 4 (``bare``: their calls lack the
    query the result template needs, so each result is an error)."""
    def call(i: int, arguments: dict) -> Step:
        return Step(body=openai_body([(f"c{i}", "search", arguments)]), delay=0.002 * i)

    steps: list[Step] = []
    for i in range(10):
        steps += ([call(i, {"query": f"q{i}"}), Step(body=openai_body(text="done"))] if i < 3
                  else [Step.error("openai", 500)] if i < 5 else [call(i, {} if bare else {"query": "q"})] * 4)
    return steps


def run_ten_loops(tmp_path, *args: str, bare: bool = False, **env: str):
    path = tmp_path / "loop.yaml"
    path.write_text(FOUR_STEPS.replace("tool_choice: auto", "tool_choice: required"))
    with StandIn("openai", *ten_loops(bare)) as server:
        result = loop_cli("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--repeat", "10",
                          "--concurrency", "1", "--retries", "0", *args, **env)
        assert len(server.requests) == 3 * 2 + 2 + 5 * 4
    return result


def half_up(percent: float) -> int:
    """Round half up, as people round a percent (62.5 -> 63)."""
    return math.floor(percent + 0.5)


@pytest.mark.parametrize("columns", ["60", "80"])
def test_run_repeat_pretty_shows_the_numbers_of_the_json(tmp_path, columns):
    result = run_ten_loops(tmp_path, COLUMNS=columns)
    assert result.returncode == 1
    words = " ".join(result.stdout.replace("│", " ").split())
    for step, (k, n) in enumerate([(8, 10), (5, 8), (5, 5), (5, 5)], 1):
        low, high = wilson_reference(k, n)
        # 5/8 is 62.5%: shown 63%, not 62% (Python's float formatting rounds halves to even)
        ci = f"{half_up(100 * low)}–{half_up(100 * high)}%"
        if columns == "60":
            assert f"step {step} · choice required · reached {n} · obeyed {k} · {half_up(100 * k / n)}% · 95% CI {ci}" \
                in words
        else:
            assert re.search(rf"\b{step} required {n} {k} {half_up(100 * k / n)}% {ci}", words), words
    assert "ended by itself 3 of 10 loops (30%, 95% CI" in words
    assert "steps to finish p50 2 · p95 2 (n=3)" in words
    assert max(len(line) for line in result.stdout.splitlines()) <= int(columns)


def test_run_repeat_every_step_and_loop_number(tmp_path):
    result = run_ten_loops(tmp_path, "-f", "json")
    assert result.returncode == 1  # two loops failed: the measurement is incomplete
    document = json.loads(result.stdout)
    validator_of("run").validate(document)
    s, loops = document["runs"][0]["summary"], document["runs"][0]["loops"]
    assert [(x["step"], x["reached"], x["obeyed"]) for x in s["steps"]] == [(1, 10, 8), (2, 8, 5), (3, 5, 5), (4, 5, 5)]
    assert s["steps"][0]["counts"]["error"] == 2 and s["steps"][1]["counts"]["no_call"] == 3
    for x, (k, n) in zip(s["steps"], [(8, 10), (5, 8), (5, 5), (5, 5)]):
        low, high = wilson_reference(k, n)
        assert x["obey_rate"]["rate"] == k / n
        assert (x["obey_rate"]["low"], x["obey_rate"]["high"]) == (pytest.approx(low, abs=1e-12),
                                                                   pytest.approx(high, abs=1e-12))
    assert {r: e["count"] for r, e in s["ended"].items() if e["count"]} == {"no_tool_call": 3, "error": 2,
                                                                            "max_steps": 5}
    assert s["ended"]["max_steps"]["low"] == pytest.approx(wilson_reference(5, 10)[0], abs=1e-12)
    assert s["terminated"]["count"] == 3 and s["terminated"]["rate"] == 0.3
    assert s["steps_to_finish"] == {"p50": 2, "p95": 2, "n": 3}
    assert s["tool_results"] == {"total": 3 * 1 + 5 * 4, "errors": 0}  # every call's result was fed back
    # the recorded body reports 48 in / 19 out per reply: 26 replies over the 8 loops that had one
    assert s["tokens"]["input_total"] == 26 * 48 and s["tokens"]["input_mean"] == pytest.approx(26 * 48 / 8)
    shown = [x["latency_ms"] for x in loops]  # each loop's latency as shown (0.1 ms)
    assert s["latency_ms"]["n"] == 10
    assert s["latency_ms"]["p50"] == pytest.approx(linear_percentile(shown, 50), abs=0.1)
    assert s["latency_ms"]["p95"] == pytest.approx(linear_percentile(shown, 95), abs=0.1)


def test_with_several_scenarios_the_min_obeyed_line_names_the_scenario_below(tmp_path):
    """`send a.yaml b.yaml --min-obeyed 0.5`: a.yaml obeys 4/4, b.yaml 0/4 (3 no_call, 1 failed). The line said
    "openai: obeyed 0/4 ..." for b.yaml without naming it: in JSON nothing else says which scenario missed."""
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    text = scenario_file(tmp_path, "tool_choice: required\n").read_text()
    first.write_text(text)
    second.write_text(text)
    with StandIn("openai") as server:
        server.script(*[Step(body=OK)] * 4, *[Step(body=OPENAI_TEXT_REPLY)] * 3, Step.error("openai", 500))
        result = run("send", str(first), str(second), "-p", "openai", "--base-url", server.base_url(), "-f", "json",
                     "--repeat", "4", "--concurrency", "1", "--retries", "0", "--min-obeyed", "0.5")
    assert result.returncode == 4
    documents = json.loads(result.stdout)
    assert [d["counts"]["obeyed"] for d in documents] == [4, 0]
    assert result.stderr.splitlines() == [f"toolchoice: error: {second}: openai: obeyed 0/4 (0%), below --min-obeyed 0.5"]


def test_compare_send_with_several_scenarios_names_the_scenario_below(tmp_path):
    with StandIn("openai") as server:
        text = scenario_file(tmp_path, "tool_choice: required\n").read_text().replace(
            "openai: {model: gpt-4o-2024-08-06}", f'openai: {{model: gpt-4o-2024-08-06, base_url: "{server.base_url()}"}}')
        first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
        first.write_text(text)
        second.write_text(text)
        server.script(*[Step(body=OK)] * 2, Step(body=OPENAI_TEXT_REPLY), Step.error("openai", 500))
        result = run("compare", str(first), str(second), "-p", "openai", "--send", "-f", "json", "--repeat", "2",
                     "--concurrency", "1", "--retries", "0", "--min-obeyed", "0.5")
    assert result.returncode == 4, result.stderr
    assert [d["providers"][0]["summary"]["counts"]["obeyed"] for d in json.loads(result.stdout)] == [2, 0]
    assert [line for line in result.stderr.splitlines() if "below" in line] == [
        f"toolchoice: error: {second}: openai: obeyed 0/2 (0%), below --min-obeyed 0.5"]


def test_run_repeat_counts_tool_result_errors(tmp_path):
    result = run_ten_loops(tmp_path, "-f", "json", bare=True)
    summary = json.loads(result.stdout)["runs"][0]["summary"]
    assert summary["tool_results"] == {"total": 3 + 5 * 4, "errors": 5 * 4}
    pretty = run_ten_loops(tmp_path, bare=True, COLUMNS="80")
    assert "20 of 23 tool results were errors" in " ".join(pretty.stdout.split())


def test_a_shard_with_no_loops_changes_no_merged_number(monkeypatch):
    import httpx

    from test_loop import KEY, run_in_process
    from toolchoice.providers.core.loop_tally import LoopTally, tally_of

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    answers = iter(range(1000))

    def answer(request: httpx.Request) -> httpx.Response:
        i = next(answers)
        if i % 7 == 3:
            return httpx.Response(500, json={"error": {"message": "overloaded", "type": "server_error"}})
        return httpx.Response(200, json=openai_body(text="done") if i % 3 == 1 else
                              openai_body([(f"c{i}", "search", {"query": "q"})]))

    runs = run_in_process(FOUR_STEPS, answer, repeat=12, concurrency=1)
    merged = LoopTally()
    for shard in (LoopTally(), tally_of(runs[:5]), LoopTally(), tally_of(runs[5:])):
        merged.merge(shard)
    whole = tally_of(runs).summary()
    assert merged.summary() == whole and whole["loops"] == 12
    empty = LoopTally()
    empty.merge(LoopTally())
    assert empty.summary()["terminated"] == {"count": 0, "loops": 0, "rate": 0.0, "low": 0.0, "high": 1.0}
    assert empty.summary()["steps_to_finish"] == {"p50": None, "p95": None, "n": 0} and empty.summary()["steps"] == []
