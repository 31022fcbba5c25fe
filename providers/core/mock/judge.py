"""A request as the API would see it: the family module reads the body back into neutral terms,
the translator's own planning and lints run on it (the same facts ``render`` and ``send`` use), and
what the real API refuses becomes the refusal the mock answers with. Then what to answer.

The family's mock module (``providers/<module>_mock.py``, ``registry.mock_family``) offers ``mock_read(body, route) -> MockRead`` (``provider=`` too when it
serves several hosts: ``MOCK_PER_HOST``), and may offer ``mock_header_refusal(headers, body) -> LedgerEntry | None``,
a refusal the request's headers bring (Anthropic's anthropic-version removing body fields); this
module names no provider.
"""

from __future__ import annotations

import base64
from typing import Any, Mapping, NamedTuple

from ..body_limits import RULE_LIMIT_PROVIDERS, model_limits
from ..choice_count import mock_refusal as choice_refusal
from ..capabilities import CAPABILITIES
from ..choice import parse_tool_choice
from ..facts import choice_words
from ..model import (LedgerEntry, Message, NativeTool, ProviderSettings, RenderOptions, Scenario, Tool, ToolChoice,
                     ToolchoiceError, quoted)
from ..model_rules import rule_facts
from ..refusal_words import api_refusal
from .arguments import arguments_for
from .script import Step

# translator errors that are toolchoice's own refusals (its options, its environment), not the API's
NOT_API_ERRORS = frozenset({"env.not_allowed", "strict.refused", "tool_choice.unsupported"})
# ledger codes that say what toolchoice would send, not what the client did: left out of findings
_QUIET = frozenset({"model.default", "tool_choice.unset", "tool_choice.mapped", "tool_choice.spelling",
                    "max_tokens.default", "strict.mapped", "thinking.budget", "thinking.adaptive", "thinking.effort",
                    "parallel.default", "stream.requested",
                    "endpoint.placeholder",  # the URL toolchoice would write; the client's came to this server
                    "tools.over_limit"})  # judged on the body as sent (judge): a re-render may group tools otherwise
MOCK_TEXT = "toolchoice mock: a text answer (no tool call)."


class MockMalformed(Exception):
    """A body the API cannot read at all: answered with the family's 400 envelope. ``partial``: what the family read
    before the fault (the tool_choice and tools as sent), judged as far as it goes, so the line (the proxy's, which
    passes the request on) still shows them rather than nothing."""

    def __init__(self, message: str, partial: "MockRead | None" = None) -> None:
        super().__init__(message)
        self.partial = partial


class MockRead(NamedTuple):
    """A request body read back by its family module."""

    requested: Any  # the tool_choice exactly as on the wire (None: absent)
    tools: tuple[Tool, ...]
    messages: tuple[Message, ...] = ()
    settings: ProviderSettings = ProviderSettings()
    stream: bool = False
    model: str | None = None
    choice_value: Any = None  # what choice.parse_tool_choice reads (the family's normal form of requested)
    parallel: bool | None = None
    unjudged: tuple[str, ...] = ()  # fields of the body toolchoice does not model
    refusal: str | None = None  # the family's own refusal (a rule the API states), as its message
    refusal_param: str | None = None  # the param the API's envelope names for ``refusal``, where recorded
    thinking: bool = False  # the reply carries reasoning state (the request turned thinking on)
    notes: tuple[LedgerEntry, ...] = ()
    native_tools: tuple[NativeTool, ...] = ()  # hosted tools the family reads back (MCP servers, programmatic)
    # the family's reply can carry a call its API ran on an MCP server (mock_reply writes Answer.native); when
    # not, a forced call with only MCP servers is answered with text and the family's notes say why
    native_answers: bool = True
    # ledger codes whose API refusal the family decides itself, per host and from that host's source (``refusal``):
    # the translator's entry stays a finding, never the refusal (openai_chat: tool_choice without tools)
    decided: frozenset[str] = frozenset()
    choices: int = 1  # how many choices the request asks (OpenAI Chat Completions' n): each one answered
    # the system prompt as the body gives it (text; its parts joined), and the role it came under (``developer``: an
    # OpenAI developer message): not judged, read for ``trace SAVED`` (core/saved_request.py)
    system: str | None = None
    system_role: str = "system"
    # the JSON Schema a text answer must follow (a structured-output format the request sets: OpenAI Chat's
    # response_format, Anthropic's output_config.format): the mock's text is JSON made from it, as arguments are
    text_schema: dict[str, Any] | None = None
    # a tool_choice of a shape the API's types leave out (another API's form), as the family's mock_read says
    # it in toolchoice's words (the SDK type named): the 400, in the API's own words where recorded (_in_api_words)
    shape: LedgerEntry | None = None
    # the tools the body declares where the family offers fewer (Anthropic's mid-conversation tool_removal blocks):
    # the preserved-thinking prefix holds these, so the prefix findings compare them (``prefix_tools``)
    declared: tuple[str, ...] | None = None
    # the request asks for its reasoning redacted (Anthropic's documented test prompt): the answer hands it out so
    redacted: bool = False


def prefix_tools(judged: Any) -> tuple[str, ...]:
    """The tools a request's preserved-thinking prefix holds: what its body declares (``MockRead.declared``), else
    what it offers."""
    read = judged.read
    return read.declared if read is not None and read.declared is not None else judged.offered


class Judged(NamedTuple):
    read: MockRead | None
    choice: ToolChoice | None
    offered: tuple[str, ...]
    findings: tuple[LedgerEntry, ...]
    refusal: str | None  # the 400 message, when the API refuses this request
    neutral: Any = None  # the neutral tool_choice as JSON
    # the recorded error body's other fields for ``refusal`` (RefusalWords.envelope), written by the family's mock_error
    envelope: tuple[tuple[str, Any], ...] = ()
    status: int = 400  # the refusal's HTTP status: 400, or the recorded answer's (RefusalWords.status)


def _body_limits(provider: str, model: str | None) -> tuple[Any, ...]:
    """The row's body limits and those the model's rules bring (Claude on Bedrock: core/body_limits.RULE_LIMITS)."""
    limits = CAPABILITIES[provider].body_limits
    if provider in RULE_LIMIT_PROVIDERS and model:
        limits += model_limits(provider, rule_facts(provider, model))
    return limits


def judge(provider: str, module: Any, body: Any, route: Mapping[str, Any],
          headers: Mapping[str, str] | None = None) -> Judged:
    """Read and judge one request body for ``provider`` (its family ``module``), sent with ``headers`` (the names
    lower-cased, as the server reads them)."""
    if not isinstance(body, dict):
        return Judged(None, None, (), (), "the request body must be a JSON object")
    per_host = {"provider": provider} if getattr(module, "MOCK_PER_HOST", False) else {}
    try:
        read: MockRead = module.mock_read(body, route, **per_host)
    except MockMalformed as exc:
        if exc.partial is None:
            return Judged(None, None, (), (), str(exc))
        read = exc.partial._replace(refusal=str(exc), refusal_param=None)
    findings: list[LedgerEntry] = list(read.notes)
    names = tuple(t.name for t in read.tools)
    choice: ToolChoice | None = None
    refusal = read.refusal
    envelope: tuple[tuple[str, Any], ...] = ()
    status = 400
    by_headers = getattr(module, "mock_header_refusal", None)  # a header the body's fields do not agree with
    refusing = by_headers(headers or {}, body) if by_headers is not None else None
    if refusing is not None:  # the line says it even where the body's own refusal answers first
        said = _in_api_words(provider, refusing, read, body, findings, headers)
        if refusal is None:
            refusal, envelope, status = said
    limit = CAPABILITIES[provider].tool_limit  # more tools than a source says the API takes: its words, first
    over = limit.over(body) if limit is not None else None
    if over is not None:
        refusal = over[1]
    for body_limit in _body_limits(provider, read.model):  # a tool's field or strict schemas past what the API takes
        if refusal is None and body_limit.severity == "error":
            past = body_limit.over(body)
            refusal = past[3] if past is not None else None
    if refusal is None:  # more choices (n) than the API's own source says it takes: its words
        refusal = choice_refusal(provider, body)
    shaped = refusal is None and read.shape is not None
    if shaped:  # another API's tool_choice shape: the API's 400 (not "answered as auto": mock.choice_unread below)
        refusal, envelope, status = _in_api_words(provider, read.shape, read, body, findings)  # type: ignore[arg-type]
    stated = choice_words(provider)  # the words the provider's dated fact states (core/choice_word_facts.py)
    fact_id, words = stated if stated is not None else ("", None)
    if refusal is None and words is not None and words.others == "refused" and isinstance(read.requested, str) \
            and read.requested not in words.words:
        # another API's word ("any" is Anthropic's and Mistral's): this API's types take only its own. The 400 in the
        # API's words where recorded (Groq's ChoiceWords.refusal; a RefusalWords row for tool_choice.word, recorded
        # with tools offered: without them no recording gives its order against the without-tools refusal), the
        # line keeping toolchoice's as a finding; else toolchoice's words
        own = words.refusal or (f"Invalid value for 'tool_choice': '{read.requested}' is not one of "
                                + ", ".join(f"'{w}'" for w in words.words) + " (or a tool_choice object)")
        row = api_refusal(provider, "tool_choice.word", read.model, body) \
            if words.refusal is None and isinstance(body.get("tools"), list) and body["tools"] else None
        refusal = own if row is None else row.words
        if row is not None:
            findings.append(LedgerEntry("error", "tool_choice.word", own))
            envelope, status = row.envelope, row.status
    value = read.choice_value if read.choice_value is not None else read.requested
    if words is not None and not words.forms and value is not None and value not in words.words:
        # a value the API's own source does not name, and no source says it refuses: neither read nor refused
        findings.append(LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(value)} is not a value this "
                                    f"API documents ({', '.join(words.words)}): passed unjudged, answered as when "
                                    "tool_choice is left out"))
        value = None
    if words is not None and words.forms and words.others == "unread" and isinstance(value, str) \
            and value not in words.words:
        # a word this host's own source does not name, and no source says it refuses it: neither read nor refused
        findings.append(LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(value)} is not one of "
                                    f"{CAPABILITIES[provider].title}'s tool_choice words ({', '.join(words.words)}; "
                                    f"fact {fact_id}), and no source says the API refuses it: passed unjudged, "
                                    "answered as when tool_choice is left out"))
        value = None
    if value is not None:
        problem: ToolchoiceError | None = None
        try:
            choice = parse_tool_choice(value, names)
        except ToolchoiceError as exc:
            problem = exc
        if problem is not None and read.declared is not None and "not a declared tool" in problem.message:
            try:  # against every tool the body declares (the 400 then lists them all, not only those in effect)
                parse_tool_choice(value, read.declared)
            except ToolchoiceError as exc:
                problem = exc
            else:  # declared, then withdrawn by a tool_removal block: no source says whether the API refuses it
                findings.append(LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(value)} names a tool "
                                            "the body declares and a tool_removal block withdrew; no source says "
                                            "whether the API refuses that: passed unjudged, answered as auto"))
                problem = None
        if problem is not None:
            if "not a declared tool" in problem.message or "not a tool name" in problem.message:
                if read.tools and refusal is None:  # with no tools, the planner says (tool_choice.without_tools)
                    refusal, envelope, status = _in_api_words(provider, LedgerEntry("error", "tool_choice.undeclared",
                                                                            problem.message), read, body, findings)
                try:  # the line still says how the choice reads: with the names it mentions taken as declared
                    choice = parse_tool_choice(value, names + tuple(_strings(value)))
                except ToolchoiceError:
                    choice = None
            else:
                why = "" if "not a form" in problem.message else f" ({problem.message})"
                findings.append(LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(value)} is not a form "
                                            f"toolchoice reads{why}: passed unjudged, answered as auto"))
    neutral = choice.to_json() if choice is not None else None
    if shaped:
        findings = [f for f in findings if f.code != "mock.choice_unread"]
    if refusal is None:
        refusing = _translator_judgement(provider, read, choice, findings, read.decided)
        if refusing is not None:
            refusal, envelope, status = _in_api_words(provider, refusing, read, body)
    _pairing(read.messages, findings)
    _signatures(read.messages, findings)
    if read.unjudged:
        findings.append(LedgerEntry("info", "mock.unjudged", "fields toolchoice does not model, passed unjudged: "
                                    + ", ".join(read.unjudged)))
    return Judged(read, choice, names, tuple(findings), refusal, neutral, envelope, status if refusal else 400)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _in_api_words(provider: str, refusing: LedgerEntry, read: MockRead, body: Any,
                  findings: list[LedgerEntry] | None = None,
                  headers: Mapping[str, str] | None = None) -> tuple[str, tuple[tuple[str, Any], ...], int]:
    """The refusal's message for a refusal toolchoice words with its advice: the API's own words where a source
    records them for this case (core/refusal_words.py), with the recorded body's other fields and status, else
    toolchoice's line, no fields and 400. The line stays a finding (``findings``: add it there when it is not one yet)."""
    if findings is not None:
        findings.append(refusing)
    row = api_refusal(provider, refusing.code, read.model, body, headers)
    return (row.words, row.envelope, row.status) if row is not None else (refusing.message, (), 400)


def _translator_judgement(provider: str, read: MockRead, choice: ToolChoice | None,
                          findings: list[LedgerEntry], decided: frozenset[str] = frozenset()) -> LedgerEntry | None:
    """The translator's planning and lints on the request read back: its findings added to ``findings``, and the
    first entry that is the API's refusal returned."""
    from ..registry import translate

    scenario = Scenario(path="<request>", tools=read.tools, tool_choice=choice, parallel_tool_calls=read.parallel,
                        messages=read.messages, providers={provider: read.settings}, native_tools=read.native_tools)
    try:
        # emulate=False: what the client sent is judged as sent; the translator's fixes (thinking disabled for a
        # forcing choice, reasoning_effort none for tools) become the API's refusals they stand in for
        translation = translate(provider, scenario, RenderOptions(model=read.model, emulate=False))
    except ToolchoiceError as exc:
        findings.append(LedgerEntry("info", "mock.not_judged", f"the translator could not judge it: {exc.message}"))
        return None
    except Exception as exc:  # noqa: BLE001 - values of odd types read back from a body: answered unjudged
        findings.append(LedgerEntry("info", "mock.not_judged", f"the translator could not judge it: "
                                    f"{type(exc).__name__}: {exc}"))
        return None
    refusal = None
    for entry in translation.ledger:
        if entry.code in _QUIET or (entry.severity == "info" and not entry.code.startswith(("pitfall.", "history."))):
            continue
        if entry.severity == "error" and entry.code in decided:  # the family decided: this host does not refuse it
            entry = LedgerEntry("warning", entry.code, entry.message)
        findings.append(entry)
        if entry.severity == "error" and entry.code not in NOT_API_ERRORS and entry.code not in decided \
                and refusal is None:
            refusal = entry
    return refusal


def _pairing(messages: tuple[Message, ...], findings: list[LedgerEntry]) -> None:
    """A tool result whose call is nowhere earlier in the history."""
    seen: set[str] = set()
    for message in messages:
        for call in message.tool_calls:
            seen.add(call.id)
        if message.role == "tool" and message.tool_call_id and message.tool_call_id not in seen:
            findings.append(LedgerEntry("warning", "history.result_without_call", f"a tool result answers call "
                                        f"{message.tool_call_id}, which no earlier assistant turn made"))


_SIGNATURE_PREFIX = "toolchoice-mock-signature:"


def is_mock_signature(value: str) -> bool:
    """Whether a signature is one ``signature_for`` made (the mock hands out nothing else)."""
    if not isinstance(value, str):  # a client's number or object where the signature goes: no signature of its
        return False                # (b64decode's TypeError was the mock's own 500)
    try:
        return base64.b64decode(value, validate=True).decode().startswith(_SIGNATURE_PREFIX)
    except (ValueError, UnicodeDecodeError):
        return False


def _signatures(messages: tuple[Message, ...], findings: list[LedgerEntry]) -> None:
    """Reasoning state sent back that this mock never handed out: altered on the way, or another model's."""
    foreign = 0
    for message in messages:
        values = [item.signature for item in message.reasoning] + [call.signature for call in message.tool_calls]
        foreign += sum(1 for value in values if value and value != "skip_thought_signature_validator"
                       and not is_mock_signature(value))
    if foreign:
        findings.append(LedgerEntry("warning", "reasoning.signature_foreign", f"{foreign} signature"
                                    f"{'s' if foreign > 1 else ''} in the history {'were' if foreign > 1 else 'was'} "
                                    "not handed out by this mock (altered, or from another model or session): the "
                                    "real API answers 400 for a signature it cannot verify"))


# ---- the answer ---------------------------------------------------------------------------------


class MockCall(NamedTuple):
    id: str
    name: str
    arguments: dict[str, Any] | None  # None: ``raw`` is not JSON (broken_json)
    raw: str  # the arguments as JSON text (what string-argument APIs send)


class Answer(NamedTuple):
    calls: tuple[MockCall, ...] = ()
    text: str | None = None
    signature: str | None = None  # reasoning state to hand out (a thinking signature / thoughtSignature)
    thinking: str | None = None
    # a provider-native tool_choice obeyed (``ToolChoice.native`` with what it called filled in: an MCP
    # server's tool, or the function tools the program calls); the family's mock_reply writes its items
    native: dict[str, Any] | None = None
    others: tuple["Answer", ...] = ()  # n > 1: the answers of choices 1.. (MockRead.choices), this one choice 0's
    # the reasoning state handed out redacted (``signature`` is then the opaque data: Anthropic's redacted_thinking
    # block), as the script (Step.redacted_thinking) or the request (MockRead.redacted) asks; families that have no
    # redacted form hand it out as they hand out any
    redacted: bool = False


def signature_for(number: int) -> str:
    """An opaque signature the mock hands out with request ``number``'s reasoning state."""
    return base64.b64encode(f"{_SIGNATURE_PREFIX}{number}".encode()).decode()


def plan_answers(judged: Judged, step: Step | None, number: int) -> Answer:
    """``plan_answer`` for each choice the request asks (``MockRead.choices``), each following its script step
    (``Step.choice``): choice 0's Answer, the others in its ``others``; the calls numbered on across the choices."""
    assert judged.read is not None
    if judged.read.choices == 1:
        return plan_answer(judged, step.choice(0) if step is not None else None, number)
    answers: list[Answer] = []
    for index in range(judged.read.choices):
        answers.append(plan_answer(judged, step.choice(index) if step is not None else None, number,
                                   sum(len(a.calls) for a in answers)))
    return answers[0]._replace(others=tuple(answers[1:])) if len(answers) > 1 else answers[0]


def plan_answer(judged: Judged, step: Step | None, number: int, start: int = 0) -> Answer:
    """What the API would answer to a request it accepted (or what the script says); the calls are numbered
    from ``start`` + 1."""
    read = judged.read
    assert read is not None
    tools = {t.name: t for t in read.tools}
    choice = judged.choice
    calls: list[tuple[str, dict[str, Any] | None]] = []
    text: str | None = None
    if step is not None and step.calls:
        calls = [(c.name, dict(c.arguments) if c.arguments is not None else None) for c in step.calls]
    elif step is not None and step.phantom:
        calls = [(step.phantom, None)]
    elif step is not None and step.text is not None and not step.disobey:
        text = step.text
    elif choice is not None and choice.native is not None and not (step is not None and step.disobey):
        return _native_answer(choice.native, read, number)
    elif (choice is not None and choice.forces_call and not read.tools and step is None
          and read.native_answers and any(t.kind == "mcp" for t in read.native_tools)):  # only MCP servers: theirs
        label = next(t.fields["server_label"] for t in read.native_tools if t.kind == "mcp")
        return _native_answer({"type": "mcp", "server_label": label}, read, number)
    else:
        wanted = _default_tool(choice, read)
        if step is not None and step.disobey:
            wanted = None if wanted is not None else next(iter(tools), None)
        if wanted is not None:
            calls = [(wanted, None)]
        elif step is not None and step.text is not None:
            text = step.text
        else:  # a structured-output format: JSON its schema takes, so the framework's parser reads the answer
            text = MOCK_TEXT if read.text_schema is None else _json(arguments_for(read.text_schema))
    made = []
    for index, (name, arguments) in enumerate(calls):
        tool = tools.get(name)
        if arguments is None:
            arguments = arguments_for(tool.schema()) if tool is not None else {}
        raw = _json(arguments)
        if step is not None and step.broken_json:
            raw, arguments = raw[:-1] if len(raw) > 1 else "{", None
        made.append(MockCall(f"call_mock_{number}_{start + index + 1}", name, arguments, raw))
    signature = signature_for(number) if read.thinking else None
    redacted = read.thinking and (read.redacted or step is not None and step.redacted_thinking)
    return Answer(tuple(made), text, signature, "toolchoice mock thinking" if read.thinking else None,
                  redacted=redacted)


def _native_answer(native: dict[str, Any], read: MockRead, number: int) -> Answer:
    """A native choice obeyed: ``{type: mcp}`` answered by a call of that server's tool (the named one, else the
    first its allowed_tools name, else ``mock_tool``); ``{type: programmatic_tool_calling}`` by a program calling
    the first function tool."""
    signature = signature_for(number) if read.thinking else None
    if native.get("type") == "mcp":
        name = native.get("name")
        if not isinstance(name, str):
            server = next((t.fields for t in read.native_tools if t.fields.get("server_label") ==
                           native.get("server_label")), {})
            allowed = server.get("allowed_tools")
            names = allowed if isinstance(allowed, list) else (allowed or {}).get("tool_names") or ["mock_tool"]
            name = names[0] if names else "mock_tool"
        return Answer((), None, signature, None, {**native, "name": name, "arguments": "{}"})
    calls = tuple(MockCall(f"call_mock_{number}_{i + 1}", t.name, arguments_for(t.schema()),
                           _json(arguments_for(t.schema()))) for i, t in enumerate(read.tools[:1]))
    return Answer(calls, None, signature, None, dict(native))


def _default_tool(choice: ToolChoice | None, read: MockRead) -> str | None:
    """The tool the API's answer calls: the forced one, else one offered tool; none for none / no tools.
    ``auto`` calls a tool unless the history ends with tool results (then the loop gets its text answer)."""
    names = [t.name for t in read.tools]
    if not names or (choice is not None and choice.mode == "none"):
        return None
    if choice is not None and choice.mode == "named":
        return choice.name
    pool = list(choice.allowed) if choice is not None and choice.mode == "allowed" else names
    if choice is not None and choice.forces_call:
        return pool[0]
    if read.messages and read.messages[-1].role == "tool":
        return None
    return pool[0]


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def record(n: int, provider: str, path: str, judged: Judged, status: int, answer: Answer | None,
           stream: bool) -> dict[str, Any]:
    """The jsonl line for one request."""
    read = judged.read
    line = {
        "n": n, "provider": provider, "path": path, "stream": stream,
        "requested": read.requested if read is not None else None,
        "tool_choice": judged.neutral, "offered_tools": list(judged.offered), "status": status,
        "calls": [{"name": c.name, "arguments": c.arguments if c.arguments is not None else c.raw}
                  for c in answer.calls] if answer is not None else [],
        "findings": [e.to_json() for e in judged.findings]
        + ([{"severity": "error", "code": "mock.refused", "message": judged.refusal}]
           if judged.refusal and not any(e.message == judged.refusal for e in judged.findings) else []),
    }
    if read is not None and isinstance(read.model, str) and read.model:  # the model the request asked for (a framework may change it per step)
        line["model"] = read.model
    if read is not None and read.settings.thinking_mode is not None:  # thinking as the request set it: a loop's
        line["thinking"] = read.settings.thinking_mode.mode          # steps show where it changes
    if read is not None and read.parallel is not None:  # parallel_tool_calls as on the wire (Anthropic's
        line["parallel_tool_calls"] = read.parallel     # disable_parallel_tool_use read as its opposite)
    if answer is not None and answer.others:  # n > 1: each choice's calls
        line["choices"] = [{"index": i, "calls": [{"name": c.name, "arguments": c.arguments if c.arguments is not None
                                                   else c.raw} for c in a.calls]}
                           for i, a in enumerate((answer, *answer.others))]
    native = answer.native if answer is not None else None
    if native is not None and native.get("type") == "mcp":  # the API's own call of an MCP server's tool
        line["server_calls"] = [{"type": "mcp", "server_label": native.get("server_label"), "name": native.get("name")}]
    return line
