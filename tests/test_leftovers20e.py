"""Session 19's small leftovers (its closing note, "Smaller items"), each checked against truth from outside the code:

- `send --trace-out`: the library's send job owns the check that the trace is no file the run reads (the scenario,
  a file its tools' `from:` read), as `jobs.run` does, and writes the trace (`jobs.send(trace_out=...)`); the
  command line still says it in one line naming `--trace-out`, exit 2. Truth: the files on disk, the requests a real
  mock server on 127.0.0.1 logged, and the OTLP protobuf types reading the written trace.
- A command to paste (`shell_word`) runs as printed in every shell installed here: dash (Debian's /bin/sh), bash,
  zsh and fish, each a real process given `printf %s WORD`, its bytes compared with the name's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cli import refused, run_cli, user_env
from toolchoice.providers import RenderOptions, WrongArgument, load_scenario
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.errors import ArgumentError
from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.redaction import visible
from toolchoice.providers.core.shell_word import shell_path, shell_word

KEY = "sk-leftovers20e-0123456789abcdefghijklmn"
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def _scenario(folder: Path, name: str = "s.yaml", tools: str = "tools.json") -> Path:
    """A scenario whose tools come from ``tools`` (an OpenAI tools file beside it)."""
    (folder / tools).write_text(json.dumps(TOOLS), encoding="utf-8")
    path = folder / name
    path.write_text(f"tools:\n  - from: {tools}\ntool_choice: {{tool: get_weather}}\nmessages:\n"
                    "  - {role: user, content: Weather in Paris?}\n", encoding="utf-8")
    return path


def _spans(document: dict) -> list[dict]:
    """The spans, read by the OTLP protobuf types (the document parses as ExportTraceServiceRequest)."""
    json_format = pytest.importorskip("google.protobuf.json_format")
    service = pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
    import base64
    import copy

    as_base64 = copy.deepcopy(document)  # OTLP/JSON's hex ids, as protobuf's JSON mapping takes bytes: base64
    for resource in as_base64["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId"):
                    span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    message = json_format.Parse(json.dumps(as_base64), service.ExportTraceServiceRequest())
    return [{"trace": span.trace_id.hex(), **{a.key: a.value.string_value for a in span.attributes}}
            for r in message.resource_spans for s in r.scope_spans for span in s.spans]


# ---- send's trace: the library's job ------------------------------------------------------------------------------

def test_the_send_job_refuses_a_trace_over_a_file_it_reads_and_writes_its_own(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`jobs.send(trace_out=...)`, as `jobs.run` takes it: the scenario's own file, or the tools file its `from:`
    read, is refused (ArgumentError naming trace_out) before a request; another file gets one span per sample."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    path = _scenario(tmp_path)
    scenario = load_scenario(path)
    written = {p: p.read_bytes() for p in (path, tmp_path / "tools.json")}
    with running_mock("openai") as mock:
        [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
        for out in (str(path), tmp_path / "." / "tools.json"):
            with pytest.raises(ArgumentError) as caught:
                jobs.send(scenario, translation, settings=runner.SendSettings(retries=0), trace_out=out)
            said = str(caught.value)
            assert caught.value.argument == "trace_out" and said.startswith("trace_out ") and "which this run reads" \
                in said, said
        for wrong in (jobs.send, lambda *a, **k: jobs.run(scenario, ["openai"], **k)):  # a file, not a folder
            with pytest.raises(WrongArgument, match=r"^trace_out: give a file \(str or Path\), not int"):
                wrong(scenario, translation, trace_out=5)
        assert mock.records == [] and {p: p.read_bytes() for p in written} == written
        trace = tmp_path / "trace.json"
        result = jobs.send(scenario, translation, repeat=3, settings=runner.SendSettings(retries=0),
                           trace_out=str(trace))
        assert len(mock.records) == 3
    text = trace.read_text(encoding="utf-8")
    assert result.code == 0 and KEY not in text and KEY[-12:] not in text
    spans = _spans(json.loads(text))
    assert [s["toolchoice.verdict"] for s in spans] == ["obeyed"] * 3
    assert {s["toolchoice.provider"] for s in spans} == {"openai"} and len({s["trace"] for s in spans}) == 1


def test_several_sends_share_one_trace_one_trace_per_scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `trace_export.SampleTrace` several sends share (as `send a.yaml b.yaml --trace-out FILE` does): its caller
    writes one document, a trace per scenario; each send refuses one over a file it reads, and
    `call_args.sample_trace`, given every scenario, before any."""
    from toolchoice.providers.core.call_args import sample_trace
    from toolchoice.providers.core.trace_export import SampleTrace

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    paths = [_scenario(tmp_path, "a.yaml", "a.json"), _scenario(tmp_path, "b.yaml", "b.json")]
    with pytest.raises(ArgumentError):
        sample_trace(tmp_path / "b.yaml", SampleTrace, *paths)
    shared = sample_trace(str(tmp_path / "trace.json"), SampleTrace, *paths)
    with running_mock("openai") as mock:
        for path, repeat in zip(paths, (1, 2)):
            scenario = load_scenario(path)
            [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
            jobs.send(scenario, translation, repeat=repeat, settings=runner.SendSettings(retries=0), trace_out=shared)
        with pytest.raises(ArgumentError):  # its tools file: refused by the send, as a path would be
            jobs.send(scenario, translation, trace_out=SampleTrace(tmp_path / "b.json"))
        assert len(mock.records) == 3
    assert not (tmp_path / "trace.json").exists()  # the caller writes it
    shared.write()
    spans = _spans(json.loads((tmp_path / "trace.json").read_text(encoding="utf-8")))
    assert len(spans) == 3 and len({s["trace"] for s in spans}) == 2


def test_the_command_line_says_the_send_job_s_refusal_in_its_words(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is the library's now; the command line's line is as it was: one line, `--trace-out`, exit 2; the
    first scenario of two is refused with the second's file before anything is sent."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    a, b = _scenario(tmp_path, "a.yaml", "a.json"), _scenario(tmp_path, "b.yaml", "b.json")
    with running_mock("openai") as mock:
        env = user_env(OPENAI_API_KEY=KEY)
        for out in (b, tmp_path / "a.json"):
            line = refused(run_cli(["send", str(a), str(b), "-p", "openai", "--base-url", mock.base_url,
                                    "--trace-out", str(out)], env=env), KEY)
            assert line.startswith(f"toolchoice: error: --trace-out {out}: it is ") and "which this run reads" in line
        assert mock.records == []
        # a translation the job refuses (Cohere has no named tool_choice; --strict refuses the emulation): the
        # refusal was drawn before the job said its argument's; now the one line alone, as before the move
        line = refused(run_cli(["send", str(a), "-p", "cohere", "--strict", "--trace-out", str(tmp_path / "a.json")],
                               env=user_env(COHERE_API_KEY=KEY)), KEY)
        assert "--trace-out" in line and "which this run reads" in line
        done = run_cli(["send", str(a), str(b), "-p", "openai", "--base-url", mock.base_url, "-n", "2",
                        "--trace-out", str(tmp_path / "t.json")], env=env)
    assert done.returncode == 0, done.stderr
    spans = _spans(json.loads((tmp_path / "t.json").read_text(encoding="utf-8")))
    assert len(spans) == 4 and len({s["trace"] for s in spans}) == 2


# ---- a command to paste, in every shell here ----------------------------------------------------------------------

NAMES = ["plain.har", "it's here.yaml", "", "-x.yaml", "back\\slash", "two\\\\back", "end\\", "q\\'x",
         "a\x1b[31mb\nc\td 'e\u202e.har", "100%\x1b%d", "caf\u00e9\x1b\u2028", "$HOME`id`\"\x07\x7f",
         "-\x1b", "\\\x1b'\\", os.fsdecode(b"raw\xff\x1b.yaml"), "mid\nline", "\x1b9\x1b12"]
ENDS_IN_NEWLINE = ["ends\n", "a\x1b\n\n"]  # no one-line word of dash's or fish's: a $'...' word, bash's and zsh's
SHELLS = {"dash": NAMES, "bash": NAMES + ENDS_IN_NEWLINE, "zsh": NAMES + ENDS_IN_NEWLINE, "fish": NAMES}


def test_a_word_shows_no_control_character_and_stays_one_line() -> None:
    for name in NAMES + ENDS_IN_NEWLINE:
        word = shell_word(name)
        assert visible(word) == word and "\n" not in word and "\t" not in word, (name, word)
    assert shell_word("plain.har") == "plain.har" and shell_word("it's") == "'it'\"'\"'s'"  # shlex.quote's, as before
    assert shell_path("-x\x1b").startswith("\"$(printf './-x")


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_a_word_reads_back_as_the_name_in_each_shell(shell: str) -> None:
    """Each word, as printed, given to `printf %s` in a real `shell -c`: the bytes it prints are the name's. `/` can
    be in no file name, so it parts them. zsh and fish are no pip package and not installed here (Debian packages
    the brief did not allow): their runs are skipped where they are missing, and run where they are present."""
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed on this machine (a system package; none on PyPI)")
    names = SHELLS[shell]
    script = "; ".join(f"printf %s {shell_word(name)}; printf %s /" for name in names)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "HOME": "/nonexistent"}
    out = subprocess.run([found, "-c", script], capture_output=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(b"/")[:-1] == [os.fsencode(name) for name in names]


# ---- the JSON documents name a field, not an option nor a Python call ------------------------------------------------

def _messages(data: object) -> list[str]:
    """Every ``message`` of a JSON document (its notes, its ledgers), wherever it is."""
    if isinstance(data, dict):
        return [*([data["message"]] if isinstance(data.get("message"), str) else []),
                *(m for v in data.values() for m in _messages(v))]
    return [m for v in data for m in _messages(v)] if isinstance(data, list) else []


def test_the_json_documents_name_the_field_where_the_lines_name_the_option(tmp_path: Path) -> None:
    """A HAR's entry at a host toolchoice does not know: the note says what to give. The lines a person reads say the
    command line's option (-p PROVIDER), a Python caller's record its argument (provider=...); the JSON documents,
    `trace FILE.har -f json` and `run --replay -f json`, said the Python call's words to a command-line reader. They
    name the field now, as the document's rows hold it (`provider`), and the library's `to_json()` is the same."""
    from toolchoice.providers.core import trace_har

    har = json.loads((Path(__file__).parent / "data" / "har" / "sdk-session.har").read_text(encoding="utf-8"))
    stranger = json.loads(json.dumps(har["log"]["entries"][7]))
    stranger["request"]["url"] = "https://llm.internal.example/v1/models/gemini-3.5-flash:generateContent"
    har["log"]["entries"].insert(0, stranger)
    path = tmp_path / "with-stranger.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    tail = "not read; give {}, the API it speaks"
    listed = json.loads(run_cli(["trace", str(path), "-f", "json"]).stdout)
    replayed = json.loads(run_cli(["run", "--replay", str(path), "--trace-id", "1", "-p", "openai", "-f", "json"]
                                  ).stdout)
    for document in (listed, replayed):
        said = [m for m in _messages(document) if "a host toolchoice does not know" in m]
        assert said and all(m.endswith(tail.format("provider")) for m in said), said
    listing = trace_har.import_har(path)
    assert listing.to_json() == {key: listed[key] for key in ("samples", "notes", "replay")}
    [note] = [n for n in listing.notes if n.code == "har.unknown_host"]
    assert note.message.endswith(tail.format("provider=..."))  # the Python caller's record, as it was
    drawn = run_cli(["trace", str(path)], env=user_env(200))
    assert tail.format("-p PROVIDER") in drawn.stdout  # the lines, as they were


# ---- pyflakes: a matcher's needles, cut off by a stray line -------------------------------------------------------

def test_a_rule_pattern_s_needles_hold_every_match_python_s_re_finds() -> None:
    """pyflakes named undefined names in model_rule_match: a stray `def search(...)` line had cut `_needles` short,
    so a pattern with a group of plain alternatives (41 of the rules' 63) got None, no needles, and every model id
    was searched with the compiled regex (the prefilter the module exists for never ran; the answers were right).
    Truth: Python's re, over every rule's and end of life's pattern and ids made from each one's needles."""
    import re

    from toolchoice.providers.core import model_rule_data, model_rule_match

    patterns = [r.pattern for r in (*model_rule_data.RULES, *model_rule_data.END_OF_LIFE)]
    assert model_rule_match._needles("claude-(?:fable|mythos)-5") == ("claude-fable-5", "claude-mythos-5")  # as said
    needles = {p: model_rule_match._needles(p) for p in patterns}
    assert all(isinstance(n, tuple) for n in needles.values())
    assert sum(1 for p in patterns if "(?:" in p and needles[p]) >= 30
    ids = {f"{head}{needle}{tail}" for found in needles.values() for needle in found
           for head in ("", "us.anthropic.", "x") for tail in ("", "-20260101", "-1", "1", "-latest")}
    for pattern in patterns:
        for model in ids:
            found = re.search(pattern, model) is not None
            assert model_rule_match.search(pattern, model) is found, (pattern, model)
            assert not found or not needles[pattern] or any(n in model for n in needles[pattern]), (pattern, model)
