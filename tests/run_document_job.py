"""`jobs.run` in a process of its own, as a Python user runs it: for the tests of `RunResult.document` that need
one (forked shards need a process of one thread; Ctrl-C reaches a process). Arguments: a JSON object
(scenario, base_url, repeat, concurrency, processes, results_from, out). Writes ``out + ".bytes"`` through
``result.write_json``, ``out + ".dict.json"`` (``json.dumps(result.document())``) and ``out + ".shards"`` (the
shard count the run chose); prints nothing but its interruption line, if any."""

from __future__ import annotations

import json
import sys

from toolchoice.providers.core import jobs, loop, loop_shards, runner
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.scenario import load_scenario


def main() -> int:
    args = json.loads(sys.argv[1])
    chosen: list[int] = []
    count = loop_shards.shard_count

    def recorded(*given: int) -> int:
        chosen.append(count(*given))
        return chosen[-1]

    loop_shards.shard_count = recorded
    options = loop.LoopOptions(RenderOptions(base_url=args["base_url"]), results_from=args.get("results_from"))
    settings = runner.SendSettings(retries=0, concurrency=args["concurrency"])
    print("ready", file=sys.stderr, flush=True)
    with jobs.run(load_scenario(args["scenario"]), ["openai"], options, repeat=args["repeat"], settings=settings,
                  processes=args["processes"]) as result:
        with open(args["out"] + ".bytes", "wb") as out:
            result.write_json(out)
        with open(args["out"] + ".dict.json", "w", encoding="utf-8") as out:
            json.dump(result.document(), out, ensure_ascii=False)
    with open(args["out"] + ".shards", "w") as out:
        out.write(str(chosen[0] if chosen else 1))
    if result.interrupted:
        print(result.interrupted.line(), file=sys.stderr)
    return result.code


if __name__ == "__main__":
    sys.exit(main())
