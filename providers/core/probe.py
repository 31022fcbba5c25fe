"""`toolchoice probe`: ask an endpoint each tool_choice question and record what it actually did.

Which questions to ask a provider, how to build each question's translation, how to classify the
samples, the capability overlay document they produce, and ``run_questions``: the probe itself, each
question sent through the runner (``jobs.probe`` is its public entry).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Sequence

from .capabilities import FEATURES, Capability, Level, Support
from .choice import parse_tool_choice
from .model import ProviderSettings, RenderOptions, Scenario, ToolChoice, ToolchoiceError, Translation, quoted
from .registry import translate
from .scenario import load_scenario_text

PROBE_SCENARIO = """
description: toolchoice's built-in probe — two tools and a question that could use either.
tools:
  - name: get_weather
    description: Current weather for a city.
    parameters:
      type: object
      properties:
        city: {type: string, description: "City name, e.g. Paris"}
      required: [city]
  - name: get_time
    description: Current local time in an IANA time zone.
    parameters:
      type: object
      properties:
        timezone: {type: string, description: "e.g. Asia/Tokyo"}
      required: [timezone]
system: You are a helpful assistant. Use the tools when they help.
messages:
  - {role: user, content: "What is the weather in Paris, and what time is it in Tokyo?"}
"""

# For the history question: an earlier call and its result, then a new request.
_HISTORY = """
  - role: assistant
    tool_calls: [{id: call_probe_1, name: get_weather, arguments: {city: Paris}}]
  - {role: tool, tool_call_id: call_probe_1, content: "18 C, clear"}
  - {role: user, content: "Thanks. And what time is it in Tokyo?"}
"""

RESULTS = ("honored", "ignored", "rejected", "inconclusive", "did not arrive", "not asked")
MEASURED = ("honored", "ignored", "rejected")  # answers about the feature: what an overlay may state as facts


@dataclass(frozen=True)
class Question:
    id: str  # what the table shows
    feature: str  # the capability it measures (auto, none, required, any, named, allowed, parallel)
    tool_choice: Any  # neutral value, as a scenario would spell it
    parallel: bool | None = None
    emulated_named: bool = False  # force the emulated form (only that tool + required)
    wire_word: str | None = None  # put this literal word at the provider's tool_choice field
    with_history: bool = False  # replay an earlier tool call (assistant turn with only tool calls)
    max_tokens: int | None = None  # a tiny budget, sent as the body's max_tokens


def probe_scenario() -> Scenario:
    return load_scenario_text(PROBE_SCENARIO, "<built-in probe scenario>")


def probe_skips(provider: str) -> tuple[str, ...]:
    """Probe features (question ids) a provider's module says are not worth asking (``PROBE_SKIPS``)."""
    from .registry import module_for

    return getattr(module_for(provider), "PROBE_SKIPS", ())


def questions_for(provider: str, cap: Capability, scenario: Scenario) -> list[Question]:
    """The questions worth asking this provider: one per wire form its translator can produce."""
    names = scenario.tool_names
    if not names:  # every question but (not set) names or forces a tool of the scenario's
        where = f" ({scenario.path})" if scenario.path else ""
        raise ToolchoiceError(f"the probe scenario{where} declares no tools: each question asks the model to call one",
                              hint="declare at least one tool, or leave the scenario out for the built-in two-tool one")
    target = names[-1]
    qs = [Question("(not set)", "unset", None), Question("auto", "auto", "auto"), Question("none", "none", "none"),
          Question("required", "required", "required")]
    required_wire = cap.required.wire.strip('"')
    skipped = probe_skips(provider)
    if cap.arguments == "string" and "any" not in skipped and required_wire != "any":
        qs.append(Question('any (the word "any")', "any", "required", wire_word="any"))
    qs.append(Question(f"named {target}" + (" (emulated form)" if not cap.named.usable else " (native form)"),
                       "named", {"tool": target}))
    if cap.named.usable and cap.required.usable:
        qs.append(Question(f"named {target} (emulated: only it + required)", "named_emulated", {"tool": target},
                           emulated_named=True))
    if len(names) > 1 and cap.allowed.usable:
        qs.append(Question(f"allowed [{target}] required", "allowed", {"allowed": [target], "mode": "required"}))
    if cap.parallel.usable:
        qs.append(Question("parallel_tool_calls false", "parallel", "required", parallel=False))
    qs.append(Question(f"history with an earlier call, named {target}", "history", {"tool": target},
                       with_history=True))
    if cap.arguments == "string" and "truncation" not in skipped:
        qs.append(Question(f"max_tokens 8, named {target}", "truncation", {"tool": target}, max_tokens=8))
    return qs


# the questions that measure each neutral tool_choice mode (probe --tool-choice asks only those)
_MODE_FEATURES = {"auto": ("auto",), "none": ("none",), "required": ("required", "any"),
                  "named": ("named", "named_emulated", "history", "truncation"), "allowed": ("allowed",)}


def questions_for_choice(questions: list[Question], choice: ToolChoice | None) -> list[Question]:
    """Only the questions about ``choice``'s mode, asked with its own tool names (None: not set)."""
    if choice is None:
        return [q for q in questions if q.feature == "unset"]
    wanted = _MODE_FEATURES[choice.mode]
    value = choice.to_json()
    kept = []
    for q in questions:
        if q.feature not in wanted:
            continue
        if choice.mode == "named" and isinstance(q.tool_choice, dict):
            q = replace(q, tool_choice=value, id=q.id.replace(str(q.tool_choice.get("tool")), str(choice.name)))
        elif choice.mode == "allowed":
            q = replace(q, tool_choice=value, id=f"allowed [{', '.join(choice.allowed)}] {choice.allowed_mode}")
        kept.append(q)
    return kept


def adapt(question: Question, results: dict[str, str]) -> tuple[Question | None, str]:
    """The question as it will be asked, given the results so far (feature -> result).

    Questions that force a call reuse a forcing tool_choice; when the endpoint already rejected that
    tool_choice, asking again would only measure the same rejection and charge it to another feature
    (a parallel_tool_calls switch marked unsupported because "required" is). So: parallel is asked with
    auto when required was rejected, history with auto when named was, and truncation (which needs a
    named choice) is not asked then. Returns the question, or None and the reason it is not asked."""
    required, named = results.get("required"), results.get("named")
    if question.feature == "parallel" and question.tool_choice == "required" and required in _NOT_SENDABLE:
        return replace(question, id=f"{question.id} (with auto: required is {_WHY[required]})", tool_choice="auto"), ""
    if question.feature in ("history", "truncation") and named in _NOT_SENDABLE:
        if question.feature == "truncation":
            return None, ("needs a named tool_choice, which this endpoint rejected" if named == "rejected" else
                          "needs a named tool_choice, which is refused for this model (see the named question)")
        return replace(question, id=f"{question.id.split(', named')[0]} (with auto: named is {_WHY[named]})",
                       tool_choice="auto"), ""
    return question, ""


# results that make a forcing question pointless to repeat: the endpoint rejected it, or a model rule refused it
# before sending (run_questions records "refused" for a question whose translation has no request)
_NOT_SENDABLE = ("rejected", "refused")
_WHY = {"rejected": "rejected", "refused": "refused for this model"}


def question_translation(question: Question, provider: str, scenario: Scenario, options: RenderOptions,
                         cap: Capability) -> tuple[Scenario, Translation]:
    """The scenario as asked (this question's tool_choice and parallel setting), and its translation.
    Verdicts judge the asked scenario: its tool_choice is the intent."""
    choice = parse_tool_choice(question.tool_choice, scenario.tool_names)
    asked = scenario._replace(tool_choice=choice, parallel_tool_calls=question.parallel)
    if question.with_history:
        history = load_scenario_text(_history_yaml(scenario), "<probe history>").messages[1:]  # after "hi"
        asked = asked._replace(messages=scenario.messages + history)
    extra: dict[str, Any] = {}
    if question.wire_word is not None:
        extra["tool_choice"] = question.wire_word
    if question.max_tokens is not None:
        extra["max_tokens"] = question.max_tokens
    if extra:
        settings = scenario.settings_for(provider)
        asked = asked._replace(providers={**scenario.providers,
                                          provider: settings._replace(extra={**settings.extra, **extra})})
    if question.emulated_named:
        cap = cap.with_feature("named", Support(Level.EMULATED, "only that tool + required", "probe"))
    t = translate(provider, asked, options, {provider: cap})
    if question.parallel is None and t.sent_parallel is not None:  # a tool_choice question is judged on its choice:
        t = t._replace(sent_parallel=None)  # extra's own parallel setting is not what it asks (the ledger says it)
    return asked, t


def _history_yaml(scenario: Scenario) -> str:
    """The probe's follow-up turns, calling the scenario's first tool with arguments from its schema."""
    import json

    first = scenario.tools[0]
    required = first.schema().get("required") or list((first.schema().get("properties") or {}))[:1]
    arguments = {name: "Paris" for name in required}
    return ("tools: []\nmessages:\n  - {role: user, content: hi}\n"
            + _HISTORY.replace("get_weather", first.name).replace("{city: Paris}", json.dumps(arguments)))


# Answers that say nothing about the feature asked: the key (401/403), the proxy (407), the path (404),
# a timeout (408) or a rate limit (429). With no status at all (nothing arrived) the same holds.
NOT_ABOUT_THE_FEATURE = frozenset({401, 403, 404, 407, 408, 429})


def classify(verdicts: list[dict[str, Any]], statuses: Sequence[int | None] | None = None) -> str:
    """honored (obeyed every time), ignored (answered, never obeyed), rejected (every sample an HTTP
    error answer about the request: 400, 422, or the 500 some servers send for an option they do
    not support), did not arrive (every sample failed without an answer: nothing was measured),
    inconclusive (anything else: mixed answers, and failures that say nothing about the feature).

    ``statuses`` are the samples' HTTP statuses (None when no response arrived). A transport failure
    (closed port, timeout, DNS: no status), an auth error (401/403), a wrong path (404) or a rate
    limit (429) is not the endpoint rejecting the feature: such a sample makes the answer
    inconclusive, never "rejected", so nothing false is saved as a measured fact. Without
    ``statuses`` each error verdict's status is read from its reason (``ProviderError.one_line``).""" 
    if not verdicts:
        return "not asked"
    categories = [v["category"] for v in verdicts]
    if all(c == "obeyed" for c in categories):
        return "honored"
    if all(c == "error" for c in categories):
        if statuses is None or len(statuses) != len(categories):
            statuses = [_error_status(v) for v in verdicts]
        if all(s is None for s in statuses):
            return "did not arrive"  # no answer at all: nothing was measured (not "mixed answers")
        rejected = all(s is not None and s >= 400 and s not in NOT_ABOUT_THE_FEATURE for s in statuses)
        return "rejected" if rejected else "inconclusive"
    if all(c not in ("obeyed", "error") for c in categories):
        return "ignored"
    return "inconclusive"


_ERROR_STATUS = re.compile(r"^\S+: (\d{3})\b")  # ProviderError.one_line: "provider: STATUS type: message"


def _error_status(verdict: dict[str, Any]) -> int | None:
    """The HTTP status an error verdict reports (its reason is ``ProviderError.one_line``), or None
    when no response arrived (a transport error has no status in that line)."""
    reasons = verdict.get("reasons") or [""]
    match = _ERROR_STATUS.match(reasons[0])
    return int(match.group(1)) if match else None


def conclusive(outcomes: list[dict[str, Any]]) -> bool:
    """Whether every asked question got a measured answer (honored, ignored or rejected): only then does
    the probe exit 0. The overlay keeps what was measured either way (``measured_any``)."""
    return all(o["result"] in MEASURED for o in outcomes if o["result"] != "not asked")


def measured_any(outcomes: list[dict[str, Any]]) -> bool:
    """Whether at least one question got a measured answer: then there is an overlay worth writing, each
    unmeasured question in it marked with its result and evidence (apply_overlay states nothing from them)."""
    return any(o["result"] in MEASURED for o in outcomes)


def save_overlay(result: dict[str, Any], path: Any = None) -> bool:
    """Whether a probe's result (``jobs.probe``) has an overlay worth keeping: a question measured, and Ctrl-C did not
    cut it short (its overlay would lack the questions not asked); with ``path``, that overlay written there whole or
    not at all (`probe --save`)."""
    measured = "partial" not in result and measured_any(result["questions"])
    if path is not None and measured:
        from .json_text import dumps_indented
        from .save import write_atomic

        write_atomic(path, dumps_indented(result["overlay"]) + "\n")
    return measured


def overlay_document(provider: str, endpoint: str, model: str, repeat: int, measured_at: str,
                     outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """A capability overlay file: what was measured where and when, per feature."""
    features = {o["feature"]: {"result": o["result"], "question": o["question"], "evidence": o["evidence"]}
                for o in outcomes if o["result"] != "not asked"}
    return {"toolchoice_capabilities": 1, "provider": provider, "endpoint": endpoint, "model": model,
            "measured_at": measured_at, "samples_per_question": repeat, "features": features}


def apply_overlay(cap: Capability, document: dict[str, Any]) -> Capability:
    """Built-in facts with the measured ones laid over: rejected/ignored features become unsupported
    (so translators warn or refuse), honored ones keep their form; the row says where it was measured."""
    where = f"{document['endpoint']} ({document.get('model') or 'default model'}), {document['measured_at']}"
    for feature, measured in document["features"].items():
        if feature not in FEATURES:  # probe also records facts (history, truncation) no row has a column for
            continue
        built_in = cap.feature(feature)
        result, evidence = measured["result"], measured.get("evidence", "")
        if result in ("rejected", "ignored"):
            cap = cap.with_feature(feature, Support(Level.UNSUPPORTED, built_in.wire,
                                                    f"{result} by {document['endpoint']}: {evidence}"))
        else:
            cap = cap.with_feature(feature, built_in._replace(note=f"{result} at {document['endpoint']}"))
    return cap._replace(measured=where, measured_endpoint=document["endpoint"])


def settings_with_model(scenario: Scenario, provider: str, model: str | None) -> Scenario:
    if not model:
        return scenario
    settings = scenario.settings_for(provider)
    return scenario._replace(providers={**scenario.providers, provider: settings._replace(model=model)})


__all__ = ["MEASURED", "PROBE_SCENARIO", "Question", "RESULTS", "adapt", "apply_overlay", "classify", "conclusive",
           "measured_any", "overlay_document",
           "probe_scenario", "question_translation", "questions_for", "questions_for_choice", "settings_with_model",
           "ProviderSettings"]


# ---- the probe ----------------------------------------------------------------------------------

EVIDENCE_ERROR_CHARS = 800  # of a provider's error message in the evidence (table, overlay, ledger notes)


def _evidence(samples: list[Any], provider: str) -> tuple[str, float | None]:
    from .verdict import percentile

    statuses = sorted({str(status) if status is not None else "no response" for status in map(answered, samples)})
    parts = [f"status {', '.join(statuses)}"]
    errors = [s.error_line(provider) for s in samples if s.reply.error is not None]
    if errors:  # clipped: validation errors run to kilobytes; sample_details keeps each line whole
        parts.append(errors[0] if len(errors[0]) <= EVIDENCE_ERROR_CHARS else errors[0][:EVIDENCE_ERROR_CHARS] + "…")
    calls = [",".join(c.name for c in s.reply.tool_calls) or ("(text)" if s.reply.text else "(empty text)")
             for s in samples if s.reply.error is None]
    finishes = sorted({s.reply.finish_reason for s in samples if s.reply.error is None and s.reply.finish_reason})
    broken = sum(1 for s in samples for c in s.reply.tool_calls if c.arguments_error)
    if calls:
        parts.append("calls: " + "; ".join(calls[:5]) + (" …" if len(calls) > 5 else ""))
    if finishes:
        parts.append(f"finish {', '.join(finishes)}")
    if broken:
        parts.append(f"{broken} call(s) with undecodable arguments")
    categories: dict[str, int] = {}
    for s in samples:
        categories[s.verdict["category"]] = categories.get(s.verdict["category"], 0) + 1
    if len(categories) > 1 or (categories and "obeyed" not in categories):
        parts.append(", ".join(f"{c} {n}/{len(samples)}" for c, n in categories.items()))
    twice = sum(1 for s in samples if s.verdict.get("findings"))  # a server's key named twice (verdict.with_twice)
    if twice:
        parts.append(f"reply.duplicate_key in {twice}/{len(samples)}: judged on the last of a key named twice")
    latencies = [s.latency_ms for s in samples if s.latency_ms is not None]
    return "; ".join(parts), percentile(latencies, 50)


def _detail(sample: Any, provider: str) -> dict[str, Any]:
    """One sample's evidence for machines: what came back, without the argument values."""
    reply = sample.reply
    return {"status": sample.status, "calls": [c.name for c in reply.tool_calls],
            "invalid_arguments": sum(1 for c in reply.tool_calls if c.arguments_error),
            "text": reply.text is not None, "finish_reason": reply.finish_reason,
            "error": sample.error_line(provider),
            "latency_ms": None if sample.latency_ms is None else round(sample.latency_ms, 1)}


def answered(sample: Any) -> int | None:
    """The HTTP status a sample was answered with, None when no response arrived: a body past the size cap
    keeps no status of its own (nothing of it is read), but its attempt says the endpoint answered."""
    if sample.status is not None:
        return int(sample.status)
    last = sample.attempts[-1].get("status") if sample.attempts else None
    return last if isinstance(last, int) else None


# The question without tool_choice (feature "unset", asked first) is the control: when it fails, a question that
# fails the same way (the same error statuses, or the same kinds of disobedience, such as calls to tools no
# request offered) measured the server, not the choice it asked about.
CONTROL_EVIDENCE = "the question without tool_choice failed the same way ({}): not a fact about this choice"
UNCHECKED_EVIDENCE = "not checked against the question without tool_choice (interrupted before it was answered)"


def _failures(result: str, samples: list[Any]) -> frozenset[Any] | None:
    """How a rejected or ignored question failed, in terms comparable with the control's (None: it did not)."""
    if result == "rejected":
        return frozenset(answered(s) for s in samples)
    if result == "ignored":
        return frozenset(s.verdict["category"] for s in samples)
    return None


def control_failures(result: str, samples: list[Any]) -> dict[str, frozenset[Any]] | None:
    """How the control failed, by the result a question failing so would get: all its samples (rejected, ignored),
    or, its answers mixed, those of them that failed as a rejection (an error status about the request) or a
    disobedience does: a server that fails some requests without tool_choice with a 500 proves nothing about a
    choice whose every request it failed so. None: it did not fail."""
    failures = _failures(result, samples)
    if failures is not None:
        return {result: failures}
    if result != "inconclusive":
        return None
    found: dict[str, frozenset[Any]] = {}
    statuses = frozenset(answered(s) for s in samples if s.verdict["category"] == "error")
    if statuses and all(s is not None and s >= 400 and s not in NOT_ABOUT_THE_FEATURE for s in statuses):
        found["rejected"] = statuses
    kinds = frozenset(s.verdict["category"] for s in samples) - {"obeyed", "error"}
    if kinds:
        found["ignored"] = kinds
    return found or None


def against_control(result: str, failures: frozenset[Any] | None, control: dict[str, frozenset[Any]] | None
                    ) -> tuple[str, str]:
    """A rejected/ignored result, or inconclusive with the reason when the control failed the same way."""
    if control is None or failures is None or result not in control or not failures <= control[result]:
        return result, ""
    shown = ", ".join(sorted(f"status {f}" if isinstance(f, int) else str(f) for f in control[result]))
    return "inconclusive", CONTROL_EVIDENCE.format(shown)


def source_refusals(t: Translation, cap: Capability, options: RenderOptions, settings: ProviderSettings) -> list[str]:
    """The ledger codes of the refusals a source states for the API's own host, sent anyway because the base URL
    replaces that host (``host_rules``): what the probe then measures is set beside what the source says."""
    from .host_rules import elsewhere, replaced_host

    other = replaced_host(cap, options, settings)
    if other is None:
        return []
    closing = elsewhere(cap, other)
    return sorted({e.code for e in t.ledger if e.severity == "warning" and e.message.endswith(closing)})


INTERRUPTED_EVIDENCE = "interrupted (Ctrl-C) before it was answered"
# An endpoint that answers nothing (a wrong host or port, a firewall) would make every question wait out its
# timeouts and retries in turn: after the first question asked, the probe stops asking.
UNREACHABLE_EVIDENCE = "not sent: the first question got no response"
# A server that answered and then hung or died would make each remaining question wait as long: after two
# questions in a row got no response on any sample, the rest are not sent (one question that hangs is measured).
STOPPED_EVIDENCE = "not sent: the two questions before it got no response"
UNANSWERED = (UNREACHABLE_EVIDENCE, STOPPED_EVIDENCE)  # the evidence of questions not sent to a silent endpoint


def run_questions(provider: str, scenario: Scenario | None, model: str | None, options: RenderOptions,
                  repeat: int, settings: Any = None, tool_choice: ToolChoice | None = None
                  ) -> tuple[dict[str, Any], dict[str, str]]:
    """Every question sent ``repeat`` times and classified, in order (a later question avoids a
    rejection an earlier one measured); returns (the result document, the resolved secrets). Each
    question sends through ``runner`` with ``settings`` (a ``runner.SendSettings``).

    ``tool_choice`` asks only its questions. The control (the question without tool_choice) is then asked
    once, when the first of them comes back rejected or ignored (the only results it can explain away),
    before that result counts: a server that accepts the choice is sent nothing more."""
    from datetime import datetime, timezone

    from . import runner
    from .capabilities import CAPABILITIES

    cap = CAPABILITIES[provider]
    scenario = scenario if scenario is not None else probe_scenario()
    scenario = settings_with_model(scenario, provider, model)
    questions = questions_for(provider, cap, scenario)
    control_question = questions[0]  # (not set): every list starts with it
    if tool_choice is not None:
        questions = questions_for_choice(questions, tool_choice)
    control_pending = all(q.feature != "unset" for q in questions)  # the control is not among the questions
    outcomes: list[dict[str, Any]] = []
    secrets: dict[str, str] = {}
    endpoint, used_model = "", model or ""
    results: dict[str, str] = {}  # feature -> result so far, so later questions avoid a known rejection
    asked_count = 0
    control: dict[str, frozenset[Any]] | None = None  # how the question without tool_choice failed, if it did
    interrupted = False
    unreachable = False  # no sample of the first question asked got a response: the rest would fare the same
    silent = 0  # questions in a row that got no response on any sample

    def prepare(question: Question) -> tuple[dict[str, Any], Translation, Scenario]:
        """The question translated: (its outcome so far, the translation, the scenario as asked)."""
        asked, t = question_translation(question, provider, scenario, options, cap)
        return {"question": question.id, "feature": question.feature, "wire": t.effective_tool_choice}, t, asked

    def send(t: Translation, asked: Scenario) -> list[Any]:
        """A translation with a request, sent ``repeat`` times: the samples (Ctrl-C propagates)."""
        nonlocal endpoint, used_model
        assert t.request is not None
        endpoint = t.request.url
        # Bedrock and Gemini name the model in the URL, not the body: the scenario's then (it said "default model")
        used_model = str(t.request.body.get("model") or asked.settings_for(provider).model or used_model
                         or ("" if cap.default_model.startswith("(") else cap.default_model))
        jobs, found = runner.prepare_jobs(asked, [t], missing_key_fails=True)
        secrets.update(found)
        runner.run(jobs, repeat, settings or runner.SendSettings())
        return jobs[0].samples

    def answer(outcome: dict[str, Any], t: Translation, asked: Scenario, samples: list[Any], result: str,
               evidence: str, p50: float | None) -> dict[str, Any]:
        stated = source_refusals(t, cap, options, asked.settings_for(provider))
        if stated:
            evidence = (f"sent here though a source says {cap.title}'s own host refuses it ({', '.join(stated)}): "
                        f"measured here; {evidence}")
        return outcome | {"result": result, "evidence": evidence, "source_refuses": stated,
                          "samples": len(samples), "latency_ms_p50": p50,
                          "verdicts": [s.verdict["category"] for s in samples],
                          "sample_details": [_detail(s, provider) for s in samples]}

    def ask_control() -> tuple[dict[str, Any], dict[str, frozenset[Any]] | None]:
        """The control asked now, for --tool-choice's questions: its outcome row, and how it failed."""
        outcome, t, asked = prepare(control_question)
        if t.request is None:
            return outcome | _not_asked("refused before sending"), None
        samples = send(t, asked)
        evidence, p50 = _evidence(samples, provider)
        result = classify([s.verdict for s in samples], [answered(s) for s in samples])
        results["unset"] = result
        return answer(outcome, t, asked, samples, result, evidence, p50), control_failures(result, samples)

    for planned in questions:
        if interrupted or unreachable or silent >= 2:
            why = INTERRUPTED_EVIDENCE if interrupted else UNREACHABLE_EVIDENCE if unreachable else STOPPED_EVIDENCE
            outcomes.append({"question": planned.id, "feature": planned.feature, "wire": None} | _not_asked(why))
            continue
        question, skipped = adapt(planned, results)
        if question is None:
            outcomes.append({"question": planned.id, "feature": planned.feature, "wire": None} | _not_asked(skipped))
            continue
        outcome, t, asked = prepare(question)
        replaced = _replaced_by_extra(question, t)
        if replaced is not None:  # the request would not ask this question: nothing about it to measure
            outcomes.append(outcome | _not_asked(replaced))
            continue
        if t.request is None:
            reasons = "; ".join(e.message for e in t.ledger if e.severity == "error")
            outcomes.append(outcome | _not_asked(f"refused: {reasons}"))
            results[question.feature] = "refused"  # later questions ask with auto, as after a rejection
            continue
        try:
            samples = send(t, asked)
        except KeyboardInterrupt:  # Ctrl-C: the questions answered so far are the result (nothing is saved)
            if not asked_count:
                raise
            interrupted = True
            outcomes.append(outcome | _not_asked(INTERRUPTED_EVIDENCE))
            continue
        asked_count += 1
        no_response = bool(samples) and all(answered(s) is None for s in samples)
        unreachable = asked_count == 1 and no_response
        silent = silent + 1 if no_response else 0
        evidence, p50 = _evidence(samples, provider)
        result = classify([s.verdict for s in samples], [answered(s) for s in samples])
        failures = _failures(result, samples)
        if question.feature == "unset":
            control = control_failures(result, samples)
        else:
            if control_pending and failures is not None:
                control_pending = False
                try:
                    row, control = ask_control()
                    asked_count += row["result"] != "not asked"  # answered: partial's count holds it
                except KeyboardInterrupt:  # the answer stands as measured; nothing is saved after Ctrl-C
                    interrupted = True
                    row = {"question": control_question.id, "feature": "unset", "wire": None} | _not_asked(
                        INTERRUPTED_EVIDENCE)
                    evidence = f"{UNCHECKED_EVIDENCE}; {evidence}"
                outcomes.insert(0, row)  # first, where the whole probe asks it
            result, why = against_control(result, failures, control)
            evidence = f"{why}; {evidence}" if why else evidence  # first: the table clips long evidence
        results[question.feature] = result
        outcomes.append(answer(outcome, t, asked, samples, result, evidence, p50))
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    document = overlay_document(provider, endpoint, used_model, repeat, when, outcomes)
    result = {"provider": provider, "endpoint": endpoint, "model": used_model, "measured_at": when,
              "samples_per_question": repeat, "questions": outcomes, "overlay": document}
    if interrupted:
        requested = len(questions) + (1 if len(outcomes) > len(questions) else 0)  # and the control, when asked
        result["partial"] = {"done": asked_count, "requested": requested}
    return result, secrets


def _replaced_by_extra(question: Question, t: Translation) -> str | None:
    """Why the question is not asked when the scenario's ``providers.<id>.extra`` writes the tool choice the request
    sends in place of the question's (core/sent_choice.py), or, for the parallel question, its parallel setting; else
    None. The probe's own wire word goes that way too."""
    if question.wire_word is not None:
        return None
    if any(e.code in ("tool_choice.from_extra", "tool_choice.extra_unread") for e in t.ledger):
        return (f"not sent as asked: the scenario's providers.{t.provider}.extra sends its own tool_choice "
                f"{quoted(t.effective_tool_choice)[:80]} instead (take it out of extra to ask this)")
    if question.parallel is not None and any(e.code in ("parallel.from_extra", "parallel.extra_unread")
                                             for e in t.ledger):
        return (f"not sent as asked: the scenario's providers.{t.provider}.extra sends its own parallel setting "
                "instead (take it out of extra to ask this)")
    return None


def _not_asked(evidence: str) -> dict[str, Any]:
    return {"result": "not asked", "evidence": evidence, "samples": 0, "latency_ms_p50": None}
