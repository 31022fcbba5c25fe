"""The Python API as a test suite of its own uses it (trial 13d, docs/python.md): the jobs' settings and results
are typed with the classes they hold, not ``Any`` (an IDE completes ``result.samples[0].verdict``)."""

from __future__ import annotations

import typing

import pytest

from toolchoice.providers.core import jobs, loop, loop_records, loop_replay, runner

TYPES = {**vars(runner), **vars(loop), **vars(loop_records), **vars(loop_replay)}  # docs/python.md, "Types"


def test_the_results_and_settings_are_typed_with_the_classes_they_hold() -> None:
    hints = typing.get_type_hints(jobs.SendResult, localns=TYPES)
    assert hints["samples"] == list[runner.Sample] and hints["collected"] == runner.Collector | None
    assert typing.get_type_hints(jobs.CompareResult, localns=TYPES)["jobs"] == list[runner.Job]
    assert typing.get_type_hints(jobs.RunResult, localns=TYPES)["runs"] == list[loop_records.LoopRun]
    for job in (jobs.send, jobs.compare_send, jobs.probe, jobs.run):
        assert typing.get_type_hints(job, localns=TYPES)["settings"] == runner.SendSettings | None, job.__name__
    run = typing.get_type_hints(jobs.run, localns=TYPES)
    assert run["options"] == loop.LoopOptions | None and run["replay"] == loop_replay.Replay | None
    assert typing.get_type_hints(jobs.send, localns=TYPES)["on_sample"] == typing.Callable[[runner.Sample], None] | None
    # a step's verdict, as an IDE reads it from a run's result
    assert typing.get_type_hints(loop_records.LoopRun)["steps"] == list[loop_records.StepRecord]
