"""The examples each command's --help ends with: what a new user types first, each command line whole at 80 and 60
columns (rich wraps a paragraph longer than the help's width, and a command pasted in two pieces runs the first alone);
the key a mock takes is set on a line of its own for that reason, and a command longer than a 60-column line (58
characters inside the help's margins) goes on in a shell continuation: `` \\`` at the end of a line, the rest indented
on the next (the help's lines end there, their padding trimmed: app.py, so that the two lines pasted run as one).

`scenario.yaml` is the file `toolchoice init scenario.yaml` writes; `URL` the one `toolchoice mock` prints first.
The keyless lines are run by tests/test_newuser22.py as written."""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "render": ("toolchoice render scenario.yaml -p anthropic",
               "toolchoice render scenario.yaml -p gemini -f curl",
               "toolchoice render scenario.yaml -p openai \\\n    --tool-choice required"),
    "send": ("toolchoice send scenario.yaml -p openai",
             "without a key, to the mock (toolchoice mock -p openai prints URL):",
             "export OPENAI_API_KEY=unused",
             "toolchoice send scenario.yaml -p openai --base-url URL"),
    "run": ("toolchoice run scenario.yaml -p openai --dry-run",
            "without a key, to the mock (toolchoice mock -p openai prints URL):",
            "export OPENAI_API_KEY=unused",
            "toolchoice run scenario.yaml -p openai --base-url URL \\\n    --save runs",
            "the OpenAI run's history on Anthropic's wire (offline):",
            "toolchoice run scenario.yaml -p anthropic --replay runs"),
    "parse": ("toolchoice parse reply.json -p openai",
              "toolchoice parse reply.json -p openai -s scenario.yaml",
              "(-s: judged against the scenario's tool_choice)"),
    "compare": ("toolchoice compare scenario.yaml -p all",
                "toolchoice compare scenario.yaml -p openai,anthropic \\\n    --tool-choice required",
                "toolchoice compare scenario.yaml -p openai,anthropic \\\n    --dialect langchain"),
    "probe": ("toolchoice probe -p openai --base-url URL --save caps.json",
              "(URL: the server's, e.g. http://127.0.0.1:8000/v1)"),
    "providers": ("toolchoice providers -p gemini",
                  "toolchoice providers --model claude-sonnet-5"),
    "tools": ("toolchoice tools tools.json > tools.yaml",
              "toolchoice tools --mcp \"python my_server.py\" > tools.yaml"),
    "trace": ("toolchoice trace trace.json > scenario.yaml",
              "toolchoice trace traffic.har",
              "toolchoice run --replay traffic.har -p openai --trace-id 1"),
    "schema": ("toolchoice schema scenario --path",
               "toolchoice schema run > run.schema.json"),
    "mock": ("toolchoice mock -p openai --port 8765",
             "then: --base-url http://127.0.0.1:8765/v1"),
    "proxy": ("toolchoice proxy -p openai \\\n    --upstream https://api.openai.com/v1",),
    "doctor": ("toolchoice doctor",
               "toolchoice doctor scenario.yaml"),
    "init": ("toolchoice init scenario.yaml",
             "toolchoice init scenario.json"),
}


def epilog(name: str) -> str | None:
    """The Examples paragraph of ``name``'s --help (typer keeps an epilog's paragraphs apart, and their lines)."""
    lines = EXAMPLES.get(name)
    return "\n\n".join(("Examples:", *lines)) if lines else None
