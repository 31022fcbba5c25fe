"""Findings about a loop as written, before (or while) it runs: a loop that cannot end
(``loop.cannot_end``), steps whose forced call may be one the API runs itself (``loop.hosted_call``: such a
step can end the loop), tools without results (``loop.no_results``), and steps that change the tools,
the system prompt or the thinking setting where that invalidates thinking already in the history
(``loop.tools_changed_with_thinking``). Shown by `run` (on step 1's ledger), `run --dry-run`, and
`render` / `compare` of a scenario with ``loop:``.
"""

from __future__ import annotations

from typing import Any, Iterable

from .loop_policy import AUTO, NO_LOOP, narrowed_as_sent, step_scenario
from .model import LedgerEntry, LoopSpec, Scenario, ToolChoice, Translation

_DISABLED_FOR_CHOICE = "thinking.disabled_for_choice"


def distinct_steps(spec: LoopSpec) -> int:
    """Steps after this number send what it sends: the last entry repeats; step 1 may differ from the
    steps after it even with one entry (--tool-choice, after_call)."""
    return min(spec.max_steps, max(len(spec.steps), 2))


def _hosted(s: Scenario, provider: str | None) -> str | None:
    """How step ``s``'s forced call may be one the API runs itself inside its reply (an MCP call, a program,
    code execution), which needs no result from the loop: a provider-native choice forcing a hosted tool, or
    ``required`` where the step offers hosted tools (``provider``'s module renders them; None: any). None when
    every call it forces is a function call the loop answers."""
    choice = s.tool_choice
    if choice is None or not choice.forces_call:
        return None
    if choice.native is not None:
        return f"{choice.quoted()} forces a call to a hosted tool"
    if choice.mode != "required" or not s.native_tools:
        return None
    takes: Any = None
    if provider is not None:
        from .registry import module_for

        takes = getattr(module_for(provider), "NATIVE_TOOLS", {})
    hosted = [t.label for t in s.native_tools if takes is None or t.kind in takes]
    if not hosted:
        return None
    return f"{choice.quoted()} may be obeyed by a call to a hosted tool it offers ({', '.join(hosted)})"


def _wire_forces(s: Scenario, provider: str, capabilities: Any = None) -> bool:
    """Whether ``provider``'s request forces a call for step ``s``: its row may have no way to send the choice
    (Ollama has no tool_choice: sent without it, ``tool_choice.ignored``), and then the model may answer in text."""
    from .choice_plan import plan_choice
    from .model import Ledger, RenderOptions

    row = _row(provider, capabilities)
    if row is None:
        return True
    try:
        return plan_choice(row, s, RenderOptions(), Ledger()).forces_call
    except Exception:  # noqa: BLE001 - the step's own translation reports what fails here; the lint assumes a force
        return True


def _as_sent(s: Scenario, provider: str, capabilities: Any = None) -> Scenario:
    """Step ``s`` with the tool_choice its request sends where ``providers.<id>.extra`` writes another (the one the
    verdict judges: core/sent_choice.py), so a loop is judged on the wire, not on the choice extra replaced."""
    from .model import RenderOptions
    from .registry import translate

    try:
        sent = translate(provider, s, RenderOptions(), capabilities).sent_choice
    except Exception:  # noqa: BLE001 - the step's own translation reports what fails here; the lint keeps the step's
        return s
    return s if sent is None else s._replace(tool_choice=sent.choice)


def _can_end(s: Scenario, stop_tool: str | None, provider: str | None = None, capabilities: Any = None) -> bool:
    choice = s.tool_choice
    if choice is None or not choice.forces_call:
        return True  # the model may answer without a call
    if _hosted(s, provider) is not None:
        return True  # the forced call may be run by the API itself: the reply then holds no function call
    if provider is not None and not _wire_forces(s, provider, capabilities):
        return True  # the provider cannot send the forcing choice: the model may answer without a call
    if stop_tool is None or stop_tool not in s.tool_names:
        return False
    return choice.mode == "required" or choice.name == stop_tool or stop_tool in choice.allowed


def _shown(choice: ToolChoice | None) -> str:
    return "unset" if choice is None else choice.quoted()


def hosted_calls(scenario: Scenario, override: Any = None, provider: str | None = None) -> LedgerEntry | None:
    """The steps whose forced call may be one the API runs itself (``_hosted``): what the loop then does."""
    spec = scenario.loop or NO_LOOP
    last = distinct_steps(spec)
    runs: list[list[Any]] = []  # [first step, last step, what]: consecutive steps saying the same merged
    for number in range(1, last + 1):
        hosted = _hosted(step_scenario(scenario, number, (), override, called=number > 1), provider)
        if hosted is not None and runs and runs[-1][1] == number - 1 and runs[-1][2] == hosted:
            runs[-1][1] = number
        elif hosted is not None:
            runs.append([number, number, hosted])
    if not runs:
        return None
    found = [(f"from step {first} on" if end == last else f"step {first}" if first == end else
              f"steps {first}–{end}") + f": {what}" for first, end, what in runs]
    return LedgerEntry("info", "loop.hosted_call",
                       f"{'; '.join(found)}. The API runs such a call itself and returns it in the same reply with "
                       "its output (an MCP call, a program, code execution): the loop has no result to give it, "
                       "and a reply holding no function call ends the loop at that step (no_tool_call) although "
                       "the choice forces a call. The loop goes on only while the replies also hold function "
                       "calls (a program's calls to your tools come back as function calls)")


def _forcing_steps(scenario: Scenario, override: Any = None, provider: str | None = None,
                   capabilities: Any = None) -> list[tuple[int, ToolChoice | None, bool]]:
    """The steps from which every step forces a call that no stop tool can end, each as (its number, the choice it
    sends, whether ``providers.<id>.extra`` sends that choice in place of the step's); empty: the loop can end before
    max_steps. ``provider`` None: every forcing choice taken as sent."""
    spec = scenario.loop or NO_LOOP
    extra = provider is not None and bool(scenario.settings_for(provider).extra)
    if (spec.after_call == "auto" and not extra) or spec.max_steps <= 1:  # one step: ending at max_steps is the plan
        return []
    out: list[tuple[int, ToolChoice | None, bool]] = []
    for number in range(distinct_steps(spec), 0, -1):
        s = step_scenario(scenario, number, (), override, called=number > 1)
        written = s.tool_choice
        if extra:
            s = _as_sent(s, provider or "", capabilities)
        if _can_end(s, spec.stop_tool, provider, capabilities):
            break
        out.insert(0, (number, s.tool_choice, s.tool_choice != written))
    return out


def forcing_tail(scenario: Scenario, override: Any = None, provider: str | None = None,
                 capabilities: Any = None) -> tuple[int | None, list[str]]:
    """The step from which every step forces a call that no stop tool can end (None: the loop can end before
    max_steps), and the steps' choices as the finding words them (consecutive steps sending the same one together:
    ``step 1 and later: required``); ``provider`` None: every forcing choice taken as sent."""
    steps = _forcing_steps(scenario, override, provider, capabilities)
    if not steps:
        return None, []
    last = steps[-1][0]
    runs: list[list[Any]] = []  # [first step, last step, the words]
    for number, choice, by_extra in steps:
        words = _shown(choice) + (f" (sent by providers.{provider}.extra)" if by_extra else "")
        if runs and runs[-1][2] == words:
            runs[-1][1] = number
        else:
            runs.append([number, number, words])
    return steps[0][0], [(f"step {first} and later" if end == last else f"step {first}" if first == end else
                          f"steps {first}–{end}") + f": {words}" for first, end, words in runs]


def _ends_with(scenario: Scenario, override: Any, provider: str | None, capabilities: Any) -> bool:
    return not _forcing_steps(scenario, override, provider, capabilities)


def ways_out(scenario: Scenario, override: Any = None, provider: str | None = None,
             capabilities: Any = None) -> list[str]:
    """The edits to the scenario, in its own terms, each of which lets a loop that cannot end (``forcing_tail``) end
    before max_steps, the smallest first: ``loop.after_call: auto`` (a ``loop:`` section to add where it has none), a
    stop tool the forcing steps may call, ``tool_choice: auto`` where the repeating step takes its choice from; each
    but the stop tool (whose name is the user's to give) checked by the lint itself on the edited scenario. Where
    ``providers.<id>.extra`` sends the choice (over all of them), taking it out of extra, or where extra sends the
    steps' own forcing choice, taking it out and setting ``loop.after_call: auto`` together: checked alike."""
    steps = _forcing_steps(scenario, override, provider, capabilities)
    if not steps:
        return []
    spec = scenario.loop
    out = []
    after = (spec or NO_LOOP)._replace(after_call="auto")
    after_ends = _ends_with(scenario._replace(loop=after), override, provider, capabilities)
    if after_ends:
        out.append("set loop.after_call: auto" if spec is not None else "add loop: {after_call: auto} to the scenario")
        out[-1] += " (after a step that called a tool, a forcing choice is sent as auto)"
    last = steps[-1][1]  # the repeating step's: a stop tool it may call ends the loop; not where it names another
    if last is None or last.mode != "named":
        stop = (spec or NO_LOOP).stop_tool
        listed = spec is not None and spec.steps and spec.steps[-1].tools is not None
        if stop is not None:
            out.append(f"let the steps from {steps[0][0]} on call the stop tool '{stop}' (offer it in "
                       + ("the tools: of loop.steps' last entry" if listed else "their tools:")
                       + (" and in its allowed list" if last is not None and last.mode == "allowed" else "") + ")")
        else:
            out.append("offer a tool the model calls when it is done, and "
                       + ("set loop.stop.tool: NAME" if spec is not None else "add loop: {stop: {tool: NAME}} to the scenario")
                       + (" (NAME in the tools: of loop.steps' last entry too)" if listed else ""))
    if spec is not None and spec.steps:
        entries = spec.steps[:-1] + (spec.steps[-1]._replace(tool_choice=AUTO, has_choice=True),)
        if _ends_with(scenario._replace(loop=spec._replace(steps=entries)), override, provider, capabilities):
            out.append(f"write tool_choice: auto in loop.steps' last entry (step {len(spec.steps)}, which every later "
                       "step repeats)")
    elif _ends_with(scenario._replace(tool_choice=AUTO), override, provider, capabilities):
        out.append("write tool_choice: auto at the top level (it is every step's, step 1's too)")
    freed = _extra_freed(scenario, provider, capabilities)
    if freed is not None:  # extra holds the choice: taking it out, alone or with after_call auto, checked likewise
        edited, field = freed
        where = f"take {field} out of providers.{provider}.extra"
        if _ends_with(edited, override, provider, capabilities):
            out.insert(0, f"{where} (it is sent in place of every step's choice, over loop.after_call too)")
        elif not after_ends and _ends_with(edited._replace(loop=after), override, provider, capabilities):
            out.append(f"{where} and " + ("set loop.after_call: auto" if spec is not None else
                                          "add loop: {after_call: auto} to the scenario")
                       + " (extra's choice is sent in place of every step's, over loop.after_call too)")
    if not out or (freed is None and any(by_extra for _, _, by_extra in steps)):
        out.insert(0, f"take tool_choice out of providers.{provider}.extra (it is sent in place of every step's "
                      "choice, over loop.after_call too)")
    return out


def _extra_freed(scenario: Scenario, provider: str | None,
                 capabilities: Any = None) -> tuple[Scenario, str] | None:
    """``scenario`` with the tool choice taken out of ``providers.<provider>.extra`` (at the path the family's
    request holds it: ``Translation.choice_path``, parents left empty dropped too), and that path's words; None
    where extra does not write it."""
    if provider is None:
        return None
    settings = scenario.settings_for(provider)
    from .model import RenderOptions
    from .registry import translate

    try:
        path = translate(provider, scenario, RenderOptions(), capabilities).choice_path
    except Exception:  # noqa: BLE001 - the step's own translation reports what fails here
        path = ("tool_choice",)

    def without(node: Any, rest: tuple[str, ...]) -> Any:
        if not isinstance(node, dict) or rest[0] not in node:
            return None
        if len(rest) == 1:
            return {k: v for k, v in node.items() if k != rest[0]}
        inner = without(node[rest[0]], rest[1:])
        if inner is None:
            return None
        return {k: v for k, v in node.items() if k != rest[0]} | ({rest[0]: inner} if inner else {})

    extra = without(dict(settings.extra), path)
    if extra is None:
        return None
    providers = {**scenario.providers, provider: settings._replace(extra=extra)}
    return scenario._replace(providers=providers), ".".join(path)


def cannot_end(scenario: Scenario, override: Any = None, provider: str | None = None,
               capabilities: Any = None) -> LedgerEntry | None:
    """From some step on every step forces a call and the stop tool (if any) cannot be called: the loop
    ends only at max_steps. A step whose forced call may be a hosted tool's can end it (``hosted_calls``);
    ``provider``: the hosted tools counted are those its module renders (None: every one declared). The message
    ends with the edits that let it end, in the scenario's own terms (``ways_out``)."""
    spec = scenario.loop or NO_LOOP
    tail, choices = forcing_tail(scenario, override, provider, capabilities)
    if tail is None:
        return None
    stop = (f"the stop tool '{spec.stop_tool}' cannot be called there" if spec.stop_tool else
            "there is no stop tool (the loop stops only when the model answers without a tool call)")
    guard = (f"; loop.stop.repeated_calls {spec.repeated_calls} only cuts a repeating loop short"
             if spec.repeated_calls else "")
    return LedgerEntry("warning", "loop.cannot_end",
                       f"from step {tail} on every step forces a call ({'; '.join(choices)}) and {stop}: the loop can "
                       f"only end at max_steps {spec.max_steps}{guard}. To let it end: "
                       + "; or ".join(ways_out(scenario, override, provider, capabilities)))


# the command that answers every call, in both words: run's option and the Python argument (docs/python.md)
RESULTS_COMMAND = "--results-from COMMAND; from Python, LoopOptions(results_from=...)"


def _results_edit(scenario: Scenario, name: str) -> str:
    """Where a tool's result goes, in the scenario's own terms: a ``loop:`` section to add where it has none."""
    if scenario.loop is None:
        return f"add loop: {{results: {{{_yaml_key(name)}: RESULT}}}} to the scenario"
    return f"add loop.results.{name}"


def _yaml_key(name: str) -> str:
    """``name`` as a key in a YAML flow mapping: as written where a YAML reader reads it back as that text, else
    double-quoted (on, no, null and 123 read as other things; a comma or ': ' splits the mapping)."""
    import json

    import yaml

    def reads_back(key: str) -> bool:
        try:
            return list(yaml.safe_load(f"{{{key}: 0}}")) == [name]
        except (yaml.YAMLError, TypeError):
            return False

    if name == "NAME" or reads_back(name):
        return name
    quoted = json.dumps(name, ensure_ascii=False)
    # a character YAML's reader takes as a line break or refuses (NEL, LS, PS, DEL, a lone surrogate) as its escape
    return quoted if reads_back(quoted) else json.dumps(name)


def no_results(scenario: Scenario, results_from: str | None, override: Any = None) -> list[LedgerEntry]:
    """Each offered tool without a ``loop.results`` entry (and no results command): its calls get error results."""
    if results_from is not None:
        return []
    spec = scenario.loop or NO_LOOP
    offered: dict[str, None] = {}
    for number in range(1, distinct_steps(spec) + 1):
        s = step_scenario(scenario, number, (), override)
        choice = s.tool_choice
        if choice is not None and choice.mode == "none":
            continue
        names = choice.allowed if choice is not None and choice.mode == "allowed" else s.tool_names
        offered.update(dict.fromkeys(names))
    missing = [name for name in offered if name not in spec.results and name != spec.stop_tool]
    if len(missing) > 3:  # an agent's many tools: one entry, not a screen of them
        shown = ", ".join(f"'{name}'" for name in missing[:10]) + (f" and {len(missing) - 10} more"
                                                                  if len(missing) > 10 else "")
        return [LedgerEntry("warning", "loop.no_results",
                            f"{len(missing)} offered tools have no loop.results entry (and no results command): "
                            f"{shown}; every call to them gets an error result; {_results_edit(scenario, 'NAME')} for the ones "
                            f"the model will call, or answer every call with a command ({RESULTS_COMMAND})")]
    return [LedgerEntry("warning", "loop.no_results",
                        f"'{name}' is offered but has no loop.results entry (and no results command): every call to "
                        f"it gets an error result; {_results_edit(scenario, name)}")
            for name in missing]


def result_findings(scenario: Scenario, results_from: str | None, override: Any = None) -> list[LedgerEntry]:
    """What run says of ``loop.results`` before step 1: the offered tools without one, the literals that look like
    templates (neither, with a results command: it answers every call)."""
    return [*no_results(scenario, results_from, override), *(literal_fields(scenario) if results_from is None else ())]


def literal_fields(scenario: Scenario) -> list[LedgerEntry]:
    """A literal result that holds ``{argument}`` of its tool (``get_weather: "18 C in {city}"``): sent to the model as
    written, braces and all; only ``{template: ...}`` fills the call's arguments in."""
    import re

    found: list[LedgerEntry] = []
    tools = {t.name: t for t in scenario.tools}
    for name, result in (scenario.loop or NO_LOOP).results.items():
        properties = (tools[name].parameters or {}).get("properties") if name in tools else None
        if not isinstance(properties, dict):
            continue
        items = result.value if result.kind == "list" else (result,)
        texts = [r.value for r in items if r.kind == "literal" and isinstance(r.value, str)]
        fields = [f for text in texts for f in re.findall(r"\{(\w+)\}", text) if f in properties]
        if fields:
            found.append(LedgerEntry("warning", "loop.literal_field", f"loop.results.{name} is a literal, so "
                                     f"'{{{fields[0]}}}' reaches the model as written; to fill in the call's "
                                     f"{fields[0]}, write {name}: {{template: \"...\"}}"))
    return found


def thinking_rules(provider: str, model: str, scenario: Scenario) -> tuple[str | None, str | None]:
    """The model rules (as the ledger cites them) saying the model runs the preserved-thinking prefix
    check, unless thinking is turned off (``thinking_prefix_check``), and that thinking stays one setting
    per assistant turn (``thinking_fixed_per_turn``); None where no rule says so."""
    from .model_rules import cite, resolve

    settings = scenario.settings_for(provider)
    facts = resolve(provider, model, settings.rules)
    found = []
    for key in ("thinking_prefix_check", "thinking_fixed_per_turn"):
        fact = facts.get(key)
        found.append(cite(key, fact, provider) if fact is not None and fact.value is True else None)
    always = facts.get("thinking_always_on")
    if settings.thinking is False and not (always is not None and always.value is True):
        found[0] = None  # thinking off: no thinking in the history to invalidate
    return found[0], found[1]


def thinking_changes(steps: Iterable[tuple[int, Scenario, Translation]], rules: tuple[str | None, str | None],
                     has_allowed: bool) -> list[LedgerEntry]:
    """Consecutive steps (number, scenario sent, translation) whose tools or system differ where the prefix
    rule (``thinking_rules``) says that invalidates thinking; and, where the per-turn rule holds, steps
    switching thinking off for a forcing choice next to steps that keep it (inside one assistant turn)."""
    rule, turn = rules
    out: list[LedgerEntry] = []
    previous: tuple[int, Scenario, Translation] | None = None
    for number, s, t in steps:
        if previous is not None and t.request is not None and previous[2].request is not None:
            before, bs, bt = previous
            if rule is not None and (bt.offered_tools != t.offered_tools or bs.system != s.system):
                what = "tools" if bt.offered_tools != t.offered_tools else "system prompt"
                if has_allowed:
                    way = "loop.narrow: allowed keeps every tool on the wire and restricts the choice instead"
                else:
                    from .registry import tool_change_ways  # each family's own way, asked only here

                    way = ", or ".join(["keep the same tools on every step and steer with tool_choice (a named tool, "
                                        "auto or none keep the tools)", *tool_change_ways()])
                out.append(LedgerEntry("warning", "loop.tools_changed_with_thinking",
                                       f"step {number} changes the {what} step {before} sent "
                                       f"({', '.join(bt.offered_tools) or 'none'} → {', '.join(t.offered_tools) or 'none'}"
                                       f"): the thinking already in the history fails its prefix check (a 400, or "
                                       f"dropped) — {rule}. Way out: {way}"))
            was = turn is not None and any(e.code == _DISABLED_FOR_CHOICE for e in bt.ledger)
            now = turn is not None and any(e.code == _DISABLED_FOR_CHOICE for e in t.ledger)
            if was != now:
                out.append(LedgerEntry("warning", "loop.tools_changed_with_thinking",
                                       f"step {number} sends thinking {'disabled' if now else 'as the model default'} "
                                       f"where step {before} sent it {'disabled' if was else 'as the model default'} "
                                       f"(a forcing choice needs thinking off): the thinking setting changes inside "
                                       f"one assistant turn — {turn}. Way out: "
                                       f"set providers.{t.provider}.thinking: false (every step sends it "
                                       "disabled), or tool_choice auto on every step (the model's default "
                                       "thinking throughout)"))
        previous = (number, s, t)
    return out


def _row(provider: str, capabilities: Any = None) -> Any:
    from .capabilities import CAPABILITIES

    return (capabilities or CAPABILITIES).get(provider, CAPABILITIES.get(provider))


def has_allowed_form(provider: str, capabilities: Any = None) -> bool:
    """The provider's row sends the allowed-subset choice natively (else: only the allowed tools are sent)."""
    row = _row(provider, capabilities)
    return row is not None and row.allowed.usable


def model_of(provider: str, scenario: Scenario, model: str | None, capabilities: Any = None) -> str:
    """The model a request goes to, as translation.start picks it."""
    row = _row(provider, capabilities)
    return model or scenario.settings_for(provider).model or (row.default_model if row is not None else "")


def static(scenario: Scenario, provider: str, render: Any, capabilities: Any = None, override: Any = None,
           results_from: str | None = None, results: bool = True) -> list[LedgerEntry]:
    """Every finding about the loop as written, for one provider: cannot_end, hosted_calls, no_results (``results``:
    for run) and the thinking-prefix changes between the steps as they would be rendered (history aside)."""
    from .registry import translate

    out: list[LedgerEntry] = []
    for found in (cannot_end(scenario, override, provider, capabilities), hosted_calls(scenario, override, provider)):
        if found is not None:
            out.append(found)
    if results:
        out.extend(result_findings(scenario, results_from, override))
    spec = scenario.loop or NO_LOOP
    if distinct_steps(spec) < 2:
        return out
    rules = thinking_rules(provider, model_of(provider, scenario, render.model, capabilities), scenario)
    steps = []
    for number in range(1, distinct_steps(spec) + 1):
        s = step_scenario(scenario, number, scenario.messages, override, called=number > 1)
        steps.append((number, s, translate(provider, s, render, capabilities)))
    out.extend(thinking_changes(steps, rules, has_allowed_form(provider, capabilities)))
    out.extend(refused_steps(steps, distinct_steps(spec)))
    return out


def refused_steps(steps: Iterable[tuple[int, Scenario, Translation]], last: int) -> list[LedgerEntry]:
    """Steps after the first whose own request is refused before it is sent (a forcing choice where the model's
    thinking refuses one, ...): `run` would end there in an error, which the steps as written already show. Step 1's
    refusal is its own ledger's error."""
    out = []
    for number, _, t in steps:
        errors = [e for e in t.ledger if e.severity == "error"]
        if number > 1 and errors:
            later = " (and every later step)" if number == last else ""
            out.append(LedgerEntry("warning", "loop.step_refused",
                                   f"step {number}{later} is refused before it is sent, so the loop ends there in an "
                                   f"error if it gets that far: {errors[0].code}: {errors[0].message}"))
    return out


def with_loop_findings(translation: Translation, scenario: Scenario, render: Any, capabilities: Any = None) -> Translation:
    """`render` / `compare` of a scenario with ``loop:``: the loop's findings appended to the ledger."""
    if scenario.loop is None:
        return translation
    found = static(scenario, translation.provider, render, capabilities, results=False)
    step_one = _step_one_differs(scenario)
    if step_one is not None:
        found = [step_one, *found]
    return translation._replace(ledger=[*translation.ledger, *found]) if found else translation


def _step_one_differs(scenario: Scenario) -> LedgerEntry | None:
    """render / compare show the scenario's top level; when loop.steps gives step 1 another tool_choice or other
    tools, `run` sends that instead (a new user compared a planner loop and saw auto where run forced the plan)."""
    first = step_scenario(scenario, 1, scenario.messages)
    if first.tool_choice == scenario.tool_choice and first.tools == scenario.tools:
        return None

    def quoted(choice: Any) -> str:
        return "unset" if choice is None else choice.quoted()

    tools = f" and offers {', '.join(t.name for t in first.tools) or 'no tool'}" if first.tools != scenario.tools else ""
    return LedgerEntry("info", "loop.step_one_differs",
                       f"this is the scenario's top level (tool_choice {quoted(scenario.tool_choice)}); `toolchoice run` "
                       f"sends step 1 from loop.steps: tool_choice {quoted(first.tool_choice)}{tools} "
                       "(`toolchoice run SCENARIO -p ID --dry-run` shows that request)")


def dry_run(scenario: Scenario, providers: list[str], options: Any) -> list[Translation]:
    """`run --dry-run`: step 1 rendered for each provider, its ledger followed by the loop's findings."""
    from .registry import translate

    notes: list[LedgerEntry] = []  # what step 1's own settings changed (its tools: leaving hosted tools out, ...)
    first = step_scenario(scenario, 1, scenario.messages, options.override, notes=notes)
    out = []
    for provider in providers:
        render = options.render_for(provider)
        translation = translate(provider, first, render, options.capabilities)
        said = list(notes)
        narrowed_as_sent(said, first, translation)  # extra may write over step 1's narrowed choice
        found = static(scenario, provider, render, options.capabilities, options.override, options.results_from)
        out.append(translation._replace(ledger=[*translation.ledger, *said, *found]))
    return out
