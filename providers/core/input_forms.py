"""What a JSON file given to ``trace`` is when it is neither an OTLP/JSON trace nor a saved request, where its shape
says: an HTTP Archive (HAR: a browser's or a debugging proxy's saved traffic) whose name and first member did not
say so (``trace_har.is_har``: ``*.har``, or a root that opens with ``"log"``), or a request body alone (what a
framework logs it sent). The one-line error names it and says how to read it: the HAR named ``*.har``; the body as
the saved request ``trace FILE -p PROVIDER`` reads (saved_request.read_saved: a ``url`` and a JSON ``body``)."""

from __future__ import annotations

from typing import Any

# top-level fields of a request body on the APIs toolchoice reads (Chat Completions, Responses, Messages,
# generateContent, Converse, Cohere v2, Ollama): one of them and no url beside it is a body alone
_BODY_FIELDS = frozenset({"messages", "contents", "input", "tools", "tool_choice", "toolConfig", "system",
                          "systemInstruction"})
SAVED = "a saved request, not a trace"  # said as it is, with nothing after
_GIVE = "and give that file with -p PROVIDER (toolchoice trace REQUEST.json -p openai)"


def other_form(document: Any) -> tuple[str, str] | None:
    """(what the document is, what to do) for a HAR, a request body alone, a saved request given without -p (a
    file of another name), or what `run` wrote (a loop's loop.json, a `run --format json` document); None for
    anything else."""
    if not isinstance(document, dict):
        return None
    log = document.get("log")
    if isinstance(log, dict) and "entries" in log:
        return ("an HTTP Archive (HAR)", "name the file *.har: toolchoice trace FILE.har reads its provider calls "
                "(trace_har.import_har)")
    if {"loop", "ended", "steps"} <= set(document):  # what `run --save` writes beside each loop's steps
        return ("the record of a loop `run --save` wrote (loop.json)",
                "the scenario.yaml beside it is that loop's scenario with its whole history, which render, send and "
                "run take; one step's request: toolchoice trace step-01.request.json from the same folder")
    if isinstance(document.get("runs"), list) and "scenario" in document:  # `run --format json`'s document
        return ("the document `run --format json` prints",
                "run the loop with --save DIR: DIR/PROVIDER/loop-001/scenario.yaml is its scenario with the whole "
                "history, and toolchoice trace reads each step-NN.request.json there")
    if isinstance(document.get("url"), str) and isinstance(document.get("body"), dict):  # an OpenAI Batch API line too
        return (SAVED, "add -p PROVIDER, the API it was sent to (toolchoice trace REQUEST.json "
                "-p openai); without -p only a file named sample-NNN.request.json is read as one")
    if "url" not in document and "body" not in document and _BODY_FIELDS & set(document):
        return ("a request body alone (no url)",
                f"save it as {{\"url\": the URL or path it was sent to, \"body\": this object}} {_GIVE}")
    return None
