"""The one option vocabulary every command uses: the same flags, short flags, defaults and bounds.

Help texts are written for rich's markup, which reads ``[...]`` as a style tag: ``_h`` escapes the
brackets so examples like ``'{allowed: [a, b], mode: auto}'`` show as written. No rich import here
(render's start-up): the escape is rich's documented backslash.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import typer


def _h(text: str) -> str:
    """Help text with rich markup's square brackets escaped (``\\[`` is a literal bracket)."""
    return text.replace("[", "\\[")


# ---- send settings: one set of defaults and bounds for send, compare --send, probe (and run) ----
TIMEOUT_DEFAULT = 120.0
TIMEOUT_MIN, TIMEOUT_MAX = 0.1, 3600.0
RETRIES_DEFAULT = 2
RETRIES_MIN, RETRIES_MAX = 0, 10
CONCURRENCY_DEFAULT = 4
CONCURRENCY_MIN, CONCURRENCY_MAX = 1, 64
REPEAT_MIN, REPEAT_MAX = 1, 1000


def scenarios_argument() -> Any:
    return typer.Argument(..., help=_h("Scenario file(s), YAML or JSON; several run one after another "
                                       "(configs/*.yaml); - reads one from stdin."), show_default=False)


SCENARIOS = scenarios_argument()
PROVIDER = typer.Option(None, "--provider", "-p", "--providers",
                        help=_h("Provider id(s): repeatable, comma lists (-p openai,anthropic) or 'all'. "
                                "Default: the scenario's providers, else all."))
PROVIDER_ONE = typer.Option(..., "--provider", "-p", help="Provider id (one).", show_default=False)
TOOL_CHOICE = typer.Option(None, "--tool-choice",
                           help=_h("Override the scenario's tool_choice (same spellings: auto, none, required, any, "
                                   "NAME, '{tool: NAME}', '{allowed: [a, b], mode: auto}', ...)."))
PROBE_TOOL_CHOICE = typer.Option(None, "--tool-choice",
                                 help=_h("Ask only the questions about this tool_choice (spellings: auto, none, required, "
                                         "NAME, '{tool: NAME}', '{allowed: [a, b], mode: auto}', ...; required also "
                                         "asks the word 'any'), and the question without tool_choice when one of "
                                         "them is rejected or ignored (docs/probe.md)."))
MODEL = typer.Option(None, "--model", "-m",
                     help=_h("Model: one for every selected provider, or PROVIDER=MODEL per provider "
                             "(repeatable: -m openai=gpt-4o -m anthropic=claude-sonnet-5)."))
BASE_URL = typer.Option(None, "--base-url", help="Base URL (each SDK's convention: OpenAI-style ones include /v1).")
GATEWAY = typer.Option(False, "--gateway", help="The base URL stands in front of the API's own host (a gateway, a "
                       "proxy, toolchoice mock): that host's rules hold there, as at the host (docs/render.md).")
STRICT = typer.Option(False, "--strict", help="Refuse any request whose ledger has a warning.")
NO_EMULATE = typer.Option(False, "--no-emulate", help="Send only what the provider supports natively; refuse "
                          "emulations.")
CAPS = typer.Option(None, "--capabilities", help="Capability overlay measured by `toolchoice probe --save`.")


def _refused(check: Any, value: Any) -> Any:
    """``value`` read through ``check``; its refusal is the command's one line and exit 2, said as the option is
    read (exits.handled's words): nan passes the option's range (it compares false with both ends), so without
    this a dry run took what a send refuses. Only nan is checked here (the range refuses the rest first): a dry run
    does not import the send modules for a number it takes."""
    from toolchoice.providers.core.model import ToolchoiceError

    try:
        check(value)
    except ToolchoiceError as exc:
        from .exits import error_line, in_command_words

        error_line(in_command_words(exc))
        raise typer.Exit(exc.exit_code) from None
    return value


def _seconds(value: float) -> float:
    if value == value:
        return value
    from toolchoice.providers.core.transport import check_seconds

    return _refused(check_seconds, value)  # type: ignore[no-any-return]


def _rate(value: float | None) -> float | None:
    if value is None or value == value:
        return value
    from toolchoice.providers.core.outcome import check_rate

    return _refused(check_rate, value)  # type: ignore[no-any-return]


TIMEOUT = typer.Option(TIMEOUT_DEFAULT, "--timeout", min=TIMEOUT_MIN, max=TIMEOUT_MAX, callback=_seconds,
                       help="Seconds each read may wait; connecting waits at most 10 s (and at most this): one "
                            "attempt ends within this plus the connect wait.")
RETRIES = typer.Option(RETRIES_DEFAULT, "--retries", min=RETRIES_MIN, max=RETRIES_MAX,
                       help="Retries on 408/409/429/5xx/529 and connection errors.")
CONCURRENCY = typer.Option(CONCURRENCY_DEFAULT, "--concurrency", "-k", min=CONCURRENCY_MIN, max=CONCURRENCY_MAX,
                           help="Requests in flight at once, per provider.")
REPEAT = typer.Option(1, "--repeat", "-n", min=REPEAT_MIN, max=REPEAT_MAX,
                      help="Samples per provider; the verdicts are tallied.")
LOOP_REPEAT = typer.Option(1, "--repeat", "-n", min=REPEAT_MIN, max=REPEAT_MAX,
                           help="Loops per provider, each from step 1; their steps' verdicts and endings are tallied.")
MIN_OBEYED = typer.Option(None, "--min-obeyed", min=0.0, max=1.0, callback=_rate,
                          help="With --repeat: exit 4 when a provider's obeyed rate is below this (e.g. 0.95).")
SAVE_DIR = typer.Option(None, "--save", help="Write each sample's request, raw response and parsed reply as JSON "
                        "files into this folder.")
RAW = typer.Option(False, "--raw", help="Also show the raw response body.")


def format_option(default: Any, choices: str) -> Any:
    return typer.Option(default, "--format", "-f", help=f"{choices}.")


def _dialects() -> Any:
    from toolchoice.providers.core.dialects import NAMES

    return Enum("Dialect", {name: name for name in NAMES}, type=str)


Dialect = _dialects()  # api and each dialect of providers/core/dialects.py
DIALECT = typer.Option(Dialect.api, "--dialect", help="api: what each API accepts. langchain: what LangChain's "
                       "bind_tools would send (or raise); litellm: what litellm.completion would send (or raise); "
                       "openai-agents: what the OpenAI Agents SDK's Runner would send first (or raise); vercel: "
                       "what the AI SDK's generateText would send; pydantic-ai: what a pydantic-ai Agent would "
                       "send first (or raise); each difference in the ledger (each framework's page in docs/).")
DROP_PARAMS = typer.Option(False, "--drop-params", help="With --dialect litellm: litellm.completion(..., "
                           "drop_params=True).")
ACTIVE_TOOLS = typer.Option(None, "--active-tools", metavar="NAME",
                            help="With --dialect vercel: generateText({..., activeTools: [NAME, ...]}) (repeatable, "
                                 "comma lists).")


# ---- environment variables a scenario may read (issue 16, finding 4) ----
ALLOW_ENV = typer.Option(None, "--allow-env", metavar="NAME",
                         help="Let the scenario read this environment variable (repeatable, comma lists) beyond the "
                              "provider's own key: for $NAME in providers.<id>.headers, providers.<id>.api_key_env, "
                              "an MCP tool's headers or authorization, or a from: MCP source (docs/keys.md). Upper "
                              "case, as $NAME references are. Also read from $TOOLCHOICE_ALLOW_ENV.")
_LIVE_MCP_HELP = ("Let a scenario's from: {mcp: ...} / {mcp_url: ...} start the MCP server or connect to it (a dry "
                  "run opens no socket and starts no process without it).")
LIVE_MCP = typer.Option(False, "--live-mcp", help=_LIVE_MCP_HELP)
LIVE_MCP_FLAG = typer.Option("--live-mcp", help=_LIVE_MCP_HELP)  # the Annotated form (render: called directly too)
ALLOW_ENV_SETTING = "TOOLCHOICE_ALLOW_ENV"  # the user-level setting: names, comma- or space-separated


def allowed_env(names: Any) -> tuple[str, ...]:
    """--allow-env NAME values (repeatable, comma lists) and the names in $TOOLCHOICE_ALLOW_ENV: upper-case names,
    as a scenario's ``$NAME`` references are (a lower-case one is refused: it could allow nothing)."""
    import os
    import re

    found: list[str] = []
    if not isinstance(names, (list, tuple)):  # render() called as a function (send --dry-run): the default
        names = None
    given = [*(("--allow-env", item) for item in names or []),
             (ALLOW_ENV_SETTING, os.environ.get(ALLOW_ENV_SETTING, ""))]
    for source, item in given:
        for name in re.split(r"[,\s]+", item.strip()):
            if not name:
                continue
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                from toolchoice.providers.core.model import ToolchoiceError

                # named by where it came from: a TOOLCHOICE_ALLOW_ENV set long ago was said as an option not given
                said = f"--allow-env {name!r}" if source == "--allow-env" else f"{source} holds {name!r}"
                raise ToolchoiceError(f"{said}: not an environment variable name",
                                      hint=f"give the name without $, e.g. {source}{' ' if source[0] == '-' else '='}"
                                      "MY_TOKEN")
            if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", name):  # $home is text in a scenario (docs/keys.md)
                from toolchoice.providers.core.model import ToolchoiceError

                said = f"--allow-env {name!r}" if source == "--allow-env" else f"{source} holds {name!r}"
                upper = name.upper()
                raise ToolchoiceError(f"{said}: a scenario reads only upper-case variable references ($NAME: A-Z, "
                                      f"0-9, _), so ${name} there is text and allowing {name} would do nothing",
                                      hint=f"export the value as {upper}, write ${upper} in the scenario and give "
                                      f"{source}{' ' if source[0] == '-' else '='}{upper}")
            found.append(name)
    return tuple(dict.fromkeys(found))
