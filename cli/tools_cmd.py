"""`toolchoice tools`: read tools from a file or an MCP server and print them as neutral YAML (or JSON)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from toolchoice.providers.core.model import ToolchoiceError

from .exits import handled
from .output import dumps, output_redactor, write, write_json


class ToolsFormat(str, Enum):
    yaml = "yaml"
    json = "json"


def mcp_quoted(words: list[str]) -> str:
    """`tools --mcp` given a command line as several words: how to give it, as one quoted argument (the values of
    its secret-named parts hidden: a token on a command line need not look like a key)."""
    import shlex

    from toolchoice.providers.core.command_shown import shown_command

    return (f"--mcp takes the server's whole command line as one argument: "
            f"--mcp {shlex.quote(shown_command(' '.join(words)))}")


@handled
def tools(
    file: Optional[Path] = typer.Argument(None, help="A tool file: OpenAI chat or Responses tools, Anthropic tools, "
                                          "Gemini functionDeclarations, an MCP tools/list result, BFCL function docs.",
                                          show_default=False),
    mcp: Optional[str] = typer.Option(None, "--mcp", help="Start this stdio MCP server and list its tools: its "
                                      "command line as one quoted argument (--mcp 'python server.py')."),
    mcp_url: Optional[str] = typer.Option(None, "--mcp-url", help="List the tools of the streamable-HTTP MCP server at this URL."),
    header: Optional[List[str]] = typer.Option(None, "--header", "-H", help="'Name: value' for --mcp-url (repeatable); "
                                               "$NAME in the value is read from the environment, never printed."),
    env: Optional[List[str]] = typer.Option(None, "--env", help="'NAME=value' set for the --mcp server (repeatable; "
                                            "it gets only HOME, PATH, ... else); $NAME in the value is read from "
                                            "the environment, never printed."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds an MCP server gets to list its tools."),
    format: ToolsFormat = typer.Option(ToolsFormat.yaml, "--format", "-f", help="yaml (a scenario's tools:) or json."),
) -> None:
    """Print the tools a file or an MCP server holds as neutral YAML: a quick start for a scenario."""
    import time

    started = time.monotonic()  # --timeout is what the user waits: the MCP SDK's import (seconds, loaded) is in it
    from toolchoice.providers.core import tool_import

    given = [name for name, value in (("FILE", file), ("--mcp", mcp), ("--mcp-url", mcp_url)) if value is not None]
    if len(given) != 1:
        hint = "see toolchoice tools --help"
        if given == ["FILE", "--mcp"]:  # `--mcp python3 server.py`: the server's script taken for FILE
            hint = f"{mcp_quoted([str(mcp), str(file)])}; {hint}"
        raise ToolchoiceError("give one of FILE, --mcp COMMAND or --mcp-url URL" if not given else
                              f"give one source, not {' and '.join(given)}", hint=hint)
    if header and not mcp_url:
        raise ToolchoiceError("--header goes with --mcp-url")
    if env and not mcp:
        raise ToolchoiceError("--env goes with --mcp")
    if not 0 < timeout <= 3600:  # NaN fails it too
        raise ToolchoiceError("--timeout must be a number of seconds above 0, at most 3600")
    if file is not None:
        imported = tool_import.import_file(file, shown=str(file))
    else:
        from toolchoice.providers.core import mcp_client

        if mcp is not None:
            server_env = _env(env or [])
            listing = mcp_client.list_tools_stdio(mcp, timeout=timeout, env=server_env, started=started)
            from toolchoice.providers.core.command_shown import env_secrets, shown_command

            imported = tool_import.import_listing(listing, f"mcp: {shown_command(mcp, env_secrets(server_env))}")
        else:
            assert mcp_url is not None
            listing = mcp_client.list_tools_http(mcp_url, _headers(header or []), timeout=timeout,
                                                started=started)
            imported = tool_import.import_listing(listing, f"mcp_url: {mcp_url}")
    doc = {"tools": [*(_neutral(t) for t in imported.tools),  # then the hosted tools, as a scenario writes them
                     *({"type": t.kind, **t.fields} for t in imported.native)]}
    redactor = output_redactor()  # a key set in the environment, in a tool file's text (it was printed raw)
    if format is ToolsFormat.json:  # data, then its JSON text, in one pass (output.json_document)
        write_json(redactor.document({**doc, "ledger": [e.to_json() for e in imported.notes]}, dump=dumps))
        return
    # each string redacted before the YAML is laid out: a key redacted in the text read back as a list
    # (`description: [redacted]`), a scenario the tools were printed to be pasted into refused
    doc = redactor.data(doc)
    from .output import yaml_list

    # one comment line each: a newline in a message (a tool type or file name from outside) would end the comment
    # and put the rest into the YAML meant to be pasted
    notes = "".join(f"# {e.severity} {e.code}: {e.message}".replace("\r", "\\r").replace("\n", "\\n") + "\n"
                    for e in imported.notes)
    # yaml_list: yaml_text's bytes, libyaml's emitter where it writes them (a 20 MB MCP description took PyYAML's
    # Python emitter ~30 s to lay out, ~1.4 us a character; bench/tools_yaml.py)
    write(redactor.text(notes + yaml_list("tools", doc["tools"])))


def _headers(values: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition(":")
        from toolchoice.providers.core.request_parts import HEADER_NAME
        from toolchoice.providers.core.tool_import import HEADER_BREAK

        if not sep or not name.strip() or not HEADER_NAME.fullmatch(name.strip()) or HEADER_BREAK.search(rest):
            raise ToolchoiceError(f"--header {name.strip() or value!r}: write 'Name: value' (a name of letters, "
                                  "digits and !#$%&'*+-.^_`|~, a value on one line)",
                                  hint="e.g. -H 'Authorization: Bearer $MCP_TOKEN'")
        out[name.strip()] = rest.strip()
    return out


def _env(values: list[str]) -> dict[str, str]:
    from toolchoice.providers.core.tool_import import ENV_NAME

    out: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not ENV_NAME.fullmatch(name) or "\x00" in rest:
            raise ToolchoiceError(f"--env {name or value!r}: write 'NAME=value' (a name of letters, digits and _)",
                                  hint="e.g. --env 'GITHUB_TOKEN=$GITHUB_TOKEN'")
        out[name] = rest
    return out


def _neutral(tool: object) -> dict[str, object]:
    """A Tool as a scenario writes it: name, then description, parameters and strict when set."""
    out: dict[str, object] = {"name": tool.name}  # type: ignore[attr-defined]
    for key in ("description", "parameters", "strict"):
        value = getattr(tool, key)
        if value is not None:
            out[key] = value
    return out
