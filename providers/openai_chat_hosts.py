"""The hosts openai_chat serves, as data with their rules: each host's quirks (``HOSTS``: endpoint, auth header, id
rule, thinking field, ledger notes), the tool-name rule each host's own source states (``NAME_RULES``), and the host
notes a request's situation calls up (``host_notes``). A host without quirks needs no row here: its capability row's
endpoint is enough (``host_for``)."""

import re
from typing import Any, Literal, NamedTuple

from .core.capabilities import Capability
from .core.effort_words import GROQ_QWEN3_32B_400, MISTRAL_SMALL_400
from .core.host_rules import refuse
from .core.name_rule_facts import name_rule
from .core.name_rule_facts import source as name_source
from .core.translation import Context, strict_wanted, thinking_not_sent

When = Literal["always", "auto", "none", "required", "named", "parallel_unset", "strict"]


class Note(NamedTuple):
    """A host-specific fact worth a ledger line whenever the situation ``when`` arises."""

    when: When
    code: str
    severity: Literal["info", "warning"]
    message: str


class Host(NamedTuple):
    base: str  # default base URL, as the host's OpenAI-compatible SDK base (includes /v1 where it does)
    path: str = "/chat/completions"
    auth: Literal["bearer", "api-key"] = "bearer"
    key_optional: bool = False  # local servers: no key unless one is set
    max_tokens_field: str = "max_tokens"
    id_rule: Literal["", "alnum9"] = ""  # rewrite history tool-call ids to 9 alphanumerics
    tool_message_name: bool = False  # tool results carry the tool's name
    thinking: Literal["", "deepseek"] = ""
    strict_errors: bool = False  # the host rejects strict schemas that break OpenAI's rules
    strict_base: str = ""  # strict tools need this base URL
    # How a stream reports usage: asked for with stream_options.include_usage (openai-python
    # chat/completion_create_params.py), or sent in the final chunk unasked (Mistral: its SDK's
    # ChatCompletionStreamRequest has no stream_options; vercel/ai's recorded mistral-tool-call stream
    # carries usage on its last chunk).
    stream_usage: Literal["stream_options", "final_chunk"] = "stream_options"
    developer_role: bool = False  # the API takes {"role": "developer"} (openai-python: ChatCompletionDeveloperMessageParam)
    router: bool = False  # OpenRouter: provider.require_parameters routing; replies name their upstream
    reasoning_replay: bool = False  # assistant messages take reasoning_content back (DeepSeek, vLLM, llama.cpp)
    reasoning_effort: bool = False  # the host takes reasoning_effort
    notes: tuple[Note, ...] = ()


HOSTS: dict[str, Host] = {
    "openai": Host("https://api.openai.com/v1", max_tokens_field="max_completion_tokens", strict_errors=True,
                   developer_role=True, reasoning_effort=True),
    "azure": Host("{endpoint}/openai/deployments/{deployment}", auth="api-key", strict_errors=True,
                  max_tokens_field="max_completion_tokens", reasoning_effort=True),
    "mistral": Host("https://api.mistral.ai/v1", id_rule="alnum9", tool_message_name=True, stream_usage="final_chunk"),
    "groq": Host("https://api.groq.com/openai/v1", notes=(
        Note("strict", "pitfall.strict_best_effort", "info",
             "Groq's SDK types carry function.strict but enforcement is not documented; validate the arguments"),
    )),
    "deepseek": Host("https://api.deepseek.com", thinking="deepseek", strict_base="https://api.deepseek.com/beta",
                     reasoning_replay=True, reasoning_effort=True),
    "openrouter": Host("https://openrouter.ai/api/v1", router=True, notes=(
        Note("always", "pitfall.upstream_dependent", "info",
             "OpenRouter forwards tool_choice to the upstream model; support depends on that model "
             "(pick models listing tools and tool_choice in supported_parameters)"),
    )),
    "vllm": Host("http://localhost:8000/v1", key_optional=True, reasoning_replay=True, notes=(
        Note("auto", "pitfall.vllm_auto_flags", "info",
             "vLLM answers auto only when started with --enable-auto-tool-choice and --tool-call-parser"),
        Note("required", "pitfall.vllm_required_version", "info", "vLLM accepts tool_choice required from 0.8.3 on"),
        Note("none", "pitfall.vllm_none_prompt", "info",
             "with none, vLLM still renders the tools into the prompt unless started with "
             "--exclude-tools-when-tool-choice-none"),
    )),
    "llamacpp": Host("http://localhost:8080/v1", key_optional=True, reasoning_replay=True, notes=(
        Note("parallel_unset", "parallel.default_false", "info",
             "llama-server defaults parallel_tool_calls to false: at most one call unless you send true"),
    )),
    "huggingface": Host("https://router.huggingface.co/v1", notes=(
        Note("named", "pitfall.langchain_hf_one_tool", "info",
             "LangChain's ChatHuggingFace refuses tool_choice unless exactly one tool is bound; the API itself "
             "accepts several"),
    )),
}

class EffortRow(NamedTuple):
    """The reasoning_effort values a source (``source``, cited) names for the models ``model`` matches (the whole id,
    lower case), and the API's own 400 for another value where one is recorded ("": none is, so another value is sent
    and said)."""

    model: str
    words: tuple[str, ...]
    source: str
    refused: str = ""


class HostEfforts(NamedTuple):
    """A host's own reasoning_effort words (its SDK's type, ``source``), per model where a source names them; ``fact``
    is the dated fact (core/effort_facts.py) with every source and the words quoted."""

    words: tuple[str, ...]
    source: str
    fact: str
    models: tuple[EffortRow, ...]


_GROQ_SDK = "groq 1.7.0 CompletionCreateParams.reasoning_effort"
_MISTRAL_DOCS = "docs.mistral.ai/capabilities/reasoning/adjustable"
# Hosts whose reasoning_effort words are their own (Host.reasoning_effort: OpenAI's, sent as written). Read 2026-11-27
# (docs/fact-audit.md, fifth pass; the words quoted: core/effort_facts.py).
HOST_EFFORTS: dict[str, HostEfforts] = {
    "groq": HostEfforts(("none", "default", "low", "medium", "high"), _GROQ_SDK, "groq.reasoning_effort", (
        EffortRow(r"openai/gpt-oss-(?:20b|120b)", ("low", "medium", "high"), _GROQ_SDK + "'s docstring"),
        EffortRow(r"qwen/qwen3\.8-27b", ("none", "default", "low", "medium", "high"), _GROQ_SDK + "'s docstring"),
        EffortRow(r"qwen/qwen3-32b", ("none", "default"), "the API's 400, earendil-works/pi#1745", GROQ_QWEN3_32B_400),
        EffortRow(r"qwen/qwen3\b.*", ("none", "default"), _GROQ_SDK + "'s docstring, of 'qwen3 models',"),
    )),
    "mistral": HostEfforts(("none", "minimal", "low", "medium", "high", "xhigh", "max"),
                           "mistralai 3.7.0 ReasoningEffort", "mistral.reasoning_effort", (
        EffortRow(r"mistral-small-(?:latest|2603)", ("none", "high"),
                  _MISTRAL_DOCS + "; the API's 400, architects-toolkit/SmartHopper#647", MISTRAL_SMALL_400),
        EffortRow(r"mistral-medium-3-5", ("none", "high"), _MISTRAL_DOCS),
    )),
}


def send_effort(ctx: Context, body: dict[str, Any], effort: str) -> bool:
    """A thinking effort → the host's own reasoning_effort (HOST_EFFORTS), each step in the ledger: sent as is where it
    is the host's word, not sent where it is not; refused only where the API's 400 for it on this model is recorded
    (at a base URL that replaces the host's, a warning and sent as written: core/host_rules.refuse); said unstated (a model a source names, another value) or unknown (a model no source names). True: it went out."""
    efforts = HOST_EFFORTS[ctx.provider]
    title = ctx.cap.title
    if effort not in efforts.words:
        takes = "|".join(w for w in efforts.words if w != "default")
        thinking_not_sent(ctx, f"providers.{ctx.provider}.thinking effort {effort} is not sent: {title}'s "
                          f"reasoning_effort takes {', '.join(efforts.words)} ({efforts.source}); write thinking: "
                          f"{{effort: {takes}}}")
        return False
    model = ctx.model.lower()
    row = next((r for r in efforts.models if re.fullmatch(r.model, model)), None)
    if row is not None and effort not in row.words:
        if row.refused:  # at a base URL that replaces the host's: a warning, sent as written (core/host_rules.py)
            takes = "|".join(w for w in row.words if w != "default")
            refuse(ctx, "thinking.effort_refused", f"{ctx.model} answers 400 '{row.refused}' to a reasoning_effort "
                   f"other than {' or '.join(row.words)}, as {effort} ({row.source}): write thinking: {{effort: {takes}}}")
            if ctx.other_host is None:
                return False
        else:
            ctx.ledger.warning("thinking.effort_unstated", f"reasoning_effort {effort} is sent as written: "
                               f"{row.source} names {', '.join(row.words)} for {ctx.model} and does not say whether it "
                               f"takes {effort}")
    body["reasoning_effort"] = effort
    ctx.ledger.info("thinking.effort", f"thinking effort {effort} → reasoning_effort {effort}")
    if row is None:
        ctx.ledger.info("thinking.effort_unknown", f"reasoning_effort {effort} is sent as written: whether {ctx.model} "
                        f"takes it is unknown (no source read names it among the {title} models that take "
                        f"reasoning_effort; fact {efforts.fact})")
    return True


# Function names: OpenAI's rule ^[a-zA-Z0-9_-]{1,64}$ ('Must be a-z, A-Z, 0-9, or contain underscores and dashes,
# with a maximum length of 64.'). A name is refused only on a host whose own source states the rule (NAME_RULES,
# each with its source, read 2026-11-26); the other hosts' types state none (vLLM's, llama.cpp's, the HF router's,
# Cerebras's, Together's and xAI's function name is a plain string), so there a name breaking OpenAI's rule is sent
# with the warning tool.name_unstated (until 2026-11-26 every host refused it on OpenAI's word).
NAME_RULE = name_rule("openai.tool_name_rule")
# host -> (its rule, the source stating it): the facts of core/name_rule_facts.py
NAME_RULES: dict[str, tuple[tuple[Any, str], str]] = {
    host: (name_rule(f"{host}.tool_name_rule"), name_source(f"{host}.tool_name_rule"))
    for host in ("openai", "azure", "groq", "fireworks", "mistral", "sambanova")}
_UNSTATED = (NAME_RULE[0], NAME_RULE[1], "OpenAI's")


def name_rules(provider: str) -> tuple[Any, Any]:
    """(the rule a host's own source states, or None; OpenAI's rule to check as a warning where no source of the host
    states it), the two rules ``translation.check_names`` takes."""
    stated = NAME_RULES.get(provider)
    return stated[0] if stated else None, _UNSTATED if stated is None or stated[0] is not NAME_RULE else None


def host_for(provider: str, cap: Capability) -> Host:
    """The host's quirks. A host with none needs no entry in HOSTS: its base URL is its capability
    row's endpoint without the chat-completions path (so adding such a host is one row)."""
    host = HOSTS.get(provider)
    if host is not None:
        return host
    host = _ROW_HOSTS.get(cap.endpoint)
    if host is None:
        path = Host._field_defaults["path"]
        if not cap.endpoint.endswith(path):
            raise ValueError(f"{provider}: endpoint {cap.endpoint} does not end with {path}; give it a HOSTS entry")
        host = _ROW_HOSTS[cap.endpoint] = Host(cap.endpoint[: -len(path)])
    return host


_ROW_HOSTS: dict[str, Host] = {}  # host_for's Host per capability-row endpoint, made once


def host_notes(ctx: Context, host: Host) -> None:
    """The host's notes (``Host.notes``) whose situation this request is in, each a ledger line."""
    if not host.notes:
        return
    mode = ctx.plan.mode
    active = {"always", *((mode,) if mode in ("none", "required", "named") else ())}
    if mode in ("auto", "unset") and ctx.plan.tools:
        active.add("auto")
    if ctx.scenario.parallel_tool_calls is None and ctx.plan.tools:
        active.add("parallel_unset")
    if strict_wanted(ctx):
        active.add("strict")
    for note in host.notes:
        if note.when in active and (note.when != "always" or ctx.plan.tools):
            ctx.ledger.add(note.severity, note.code, note.message)
