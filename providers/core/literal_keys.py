"""Keys written as text into a scenario, refused when the file is read: one line naming file:line:col, how many
characters the text holds (never what it is) and what to write instead (``$NAME``, read only with ``--allow-env``).

A key in the file is in the file (shared, committed, pasted into an issue) before any output could hide it, and a
text toolchoice did not read from the environment is not known as a key to the places that show a request. What
counts as a key (``redaction``): text of a known key's shape anywhere (``KEY_SHAPES``: ``sk-``, ``sk-ant-``,
``AIza``, ``AQ.Ab``, ``AKIA``/``ASIA``, ``gsk_``, ``xai-``, ``hf_``, ``ghp_``/``github_pat_``, Slack's ``xox…``,
``glpat-``, a JWT, ...), and, in a place named for a
credential, any text of 8 characters or more a key could be (``credential_field``, ``literal_key``). The places:
``providers.<id>.extra`` (every value, at any depth), ``headers`` (a key header's rule is in ``scenario.py``; a
key's shape in any header), ``base_url`` / ``endpoint`` (user info and query strings are refused by
``request_parts.url_problem``; a key's shape in the path here), ``api_key_env``, and a ``from:`` MCP source's
command line, ``env:`` and ``headers:``. Tools and messages are the conversation and are not searched: a tool
description may explain what an AKIA key id looks like."""

from __future__ import annotations

import re
from typing import Any

import yaml

from .model import ToolchoiceError
from .redaction import credential_field, key_header, key_shapes, literal_key

SHOWN = "it would be shown in every output and saved file"


def variable_for(name: str) -> str:
    """The variable a key written under ``name`` could live in: its name in upper case (X-Portkey-Api-Key →
    X_PORTKEY_API_KEY, api_key → API_KEY); MY_API_KEY for Authorization or a name that gives none."""
    if name.lower() in ("authorization", ""):
        return "MY_API_KEY"
    return re.sub(r"[^A-Z0-9_]", "_", name.upper()).strip("_").lstrip("0123456789_") or "MY_API_KEY"


def refusal(node: yaml.Node, path: str, said: str, write: str, var: str, python: str) -> ToolchoiceError:
    """The one-line refusal: ``said``, then the hint ``export the key and write {write}, then pass`` the variable
    as the caller passes it (``python`` for a Python caller; the command line spells ``--allow-env VAR`` from the
    record, cli/exits.py)."""
    error = ToolchoiceError(f"{said}: {SHOWN}", path=path, line=node.start_mark.line + 1,
                            column=node.start_mark.column + 1,
                            hint=f"export the key and write {write}, then pass {python}")
    error.hint_parts = (f"export the key and write {write}, then pass ", f" {var}")
    error.names = ("allow_env",)
    return error


def scheme_word(value: str, credential: bool) -> str:
    """The auth scheme word a credential's text begins with ("Bearer "), kept in the hint's ``$NAME``."""
    literal = literal_key(value) if credential else None
    return value[:len(value) - len(literal)] if literal and not key_shapes(value[:len(value) - len(literal)]) else ""


def key_said(value: str, credential: bool, named: str = "a field") -> str | None:
    """What ``value`` holds that is a key, in words with its length (never the text), or None."""
    shaped = key_shapes(value)
    if shaped:
        key, shape, prefix = shaped[0]
        return f"holds {len(key)} characters shaped like {shape} ({prefix}…)"
    literal = literal_key(value) if credential else None
    if literal:
        return f"holds {len(literal)} characters of text where a key goes ({named} named for a credential)"
    return None


def check_extra(r: Any, pid: str, node: yaml.Node) -> None:
    """Every string in ``providers.<id>.extra``, at any depth: a key's shape, or a key in a field named for a
    credential (``api_key``, ``auth: {token: ...}``, ``clientSecret``), is refused. A ``$NAME`` there is read from the
    environment when sending, as a header's is (request_parts.extra_env)."""

    def walk(child: yaml.Node, where: str, field: str, credential: bool, item: bool = False) -> None:
        if isinstance(child, yaml.MappingNode):
            for key_node, value_node in child.value:
                name = str(key_node.value)
                walk(value_node, f"{where}.{name}", name, credential_field(name))
        elif isinstance(child, yaml.SequenceNode):
            for index, element in enumerate(child.value):
                walk(element, f"{where}[{index}]", field, credential, True)
        elif isinstance(child, yaml.ScalarNode):
            value = r.value(child)
            what = key_said(value, credential) if isinstance(value, str) else None
            if what:
                var = variable_for(field) if credential else "MY_API_KEY"
                reference = f'"{scheme_word(value, credential)}${var}"'
                raise refusal(child, r.path, f"{where} {what}", f"{reference} in its place" if item or not field
                              else f"{field}: {reference}", var, f'RenderOptions(allow_env=("{var}",))')

    walk(node, f"providers.{pid}.extra", "", False)


def check_header_shape(r: Any, pid: str, name: str, node: yaml.Node, value: str) -> None:
    """A key's shape in a header not named for a credential (a key header's rule is ``scenario._check_key_header``)."""
    if key_header(name):
        return
    what = key_said(value, False)
    if what:
        var = variable_for(name)
        raise refusal(node, r.path, f"providers.{pid}.headers.{name} {what}", f'{name}: "${var}"', var,
                      f'RenderOptions(allow_env=("{var}",))')


def check_url_shape(r: Any, pid: str, key: str, node: yaml.Node, value: str) -> None:
    """A key's shape in a base URL's or endpoint's path (user info and a query string are refused by
    ``request_parts.url_problem``): no URL placeholder but the provider's own key is resolved, so the key goes in
    a header."""
    what = key_said(value, False)
    if what:
        raise refusal(node, r.path, f"providers.{pid}.{key} {what}",
                      f'Authorization: "Bearer $MY_API_KEY" under providers.{pid}.headers and the URL without it',
                      "MY_API_KEY", 'RenderOptions(allow_env=("MY_API_KEY",))')


def check_url_path(r: Any, node: yaml.Node, where: str, url: str, python: str) -> None:
    """A key's shape in an MCP server's URL (a hosted mcp tool's ``server_url``, a ``from:`` ``mcp_url``), whose path
    takes a key as ``$NAME`` (user info and a query string are refused by ``request_parts.url_problem``)."""
    what = key_said(url, False)
    if what:
        raise refusal(node, r.path, f"{where} {what}", "it in the path as $MCP_PATH_KEY (https://…/$MCP_PATH_KEY/…)",
                      "MCP_PATH_KEY", python.format(var="MCP_PATH_KEY"))


def check_api_key_env(r: Any, pid: str, node: yaml.Node, value: str) -> None:
    """``api_key_env`` holding a key of a known shape: an AWS access key id (AKIA + 16 upper-case letters and
    digits) reads as a variable's name, and is refused as the key it is. Text that is no variable's name (``sk-...``)
    is ``scenario._bad_key_env``'s: its length and first 3 characters."""
    shaped = key_shapes(value) if re.fullmatch(r"[A-Z_][A-Z0-9_]*", value) else None
    if shaped:
        _, shape, prefix = shaped[0]
        raise r.loc(node).fail(f"providers.{pid}.api_key_env must name an environment variable, not hold "
                               f"{len(value)} characters shaped like {shape} ({prefix}…): {SHOWN}",
                               "export the key in a variable and write its name: api_key_env: MY_PROXY_KEY")


def check_from(r: Any, fields: dict[str, yaml.Node]) -> None:
    """A ``from:`` MCP source's keys: ``headers`` (a key header's text, or a key's shape), ``env`` (a variable
    named for a credential, GITHUB_TOKEN, or a key's shape) and the ``mcp`` command line (a key's shape, or the
    value of an option named for a credential, ``--api-key VALUE``) take a key only as ``$NAME``."""
    python = 'source_policy.policy(True, allow_env=("{var}",))'
    for kind in ("headers", "env"):
        node = fields.get(kind)
        if not isinstance(node, yaml.MappingNode):
            continue
        for key_node, value_node in node.value:
            name, value = str(key_node.value), r.value(value_node)
            if not isinstance(value, str):
                continue
            credential = key_header(name) if kind == "headers" else credential_field(name)
            what = key_said(value, credential, "a header" if kind == "headers" else "a variable")
            if what:
                var = variable_for(name) if kind == "headers" else name
                raise refusal(value_node, r.path, f"from: {kind}.{name} {what}",
                              f'{name}: "{scheme_word(value, credential)}${var}"', var, python.format(var=var))
    url = fields.get("mcp_url")
    if url is not None and isinstance(r.value(url), str):
        check_url_path(r, url, "from: mcp_url", r.value(url), python)
    node = fields.get("mcp")
    command = r.value(node) if node is not None else None
    if not isinstance(command, str):
        return
    from .command_shown import LONG_COMMAND_HINT, long_command, split_command  # a from: mcp source only

    if long_command(command):  # before splitting it (its secrets are looked for in its words)
        raise r.loc(node).fail(f"from: mcp: {long_command(command)}", LONG_COMMAND_HINT)

    try:
        words = list(split_command(command))
    except ValueError:
        words = command.split()
    for at, word in enumerate(words):
        option, eq, given = word.partition("=")
        if word.startswith("-") and eq:
            value, name = given, option
        elif at and words[at - 1].startswith("-") and "=" not in words[at - 1]:
            value, name = word, words[at - 1]
        else:
            value, name = word, ""
        what = key_said(value, bool(name) and credential_field(name.lstrip("-")), "an option")
        if what:
            var = variable_for(name.lstrip("-")) if name else "MY_API_KEY"
            raise refusal(node, r.path, f"from: mcp's command line {what}",
                          f'"${var}" in its place (or env: {{{var}: "${var}"}}: a command line shows in ps)', var,
                          python.format(var=var))
