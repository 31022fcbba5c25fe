"""The docs and the product name the same things: every ledger code (and stream, mock or proxy finding) the code
can write is documented (README.md, docs/*.md, or a provider module's ``LEDGER_CODES``, which
``toolchoice providers --format json`` lists), every code the docs name exists, every option of every command is
on its command's page or in docs/commands.md's shared table, and that table's options are options of the
commands it names. In-process: the codes are read from the source (the arguments in a code's place of the calls
that write one), the options from the click commands the CLI builds."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from toolchoice.providers.core import registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")

# the calls that write a code, and the place of the code among their arguments
CODE_ARGUMENT = {"info": 0, "warning": 0, "error": 0, "Finding": 0, "keep": 0, "refuse": 1,
                 "add": 1, "note": 1, "finding": 1, "LedgerEntry": 1, "BodyLimit": 1, "ProviderError": 1, "Note": 1, "_bare": 4}
# dotted names in backticks in the docs that are keys, fields or attributes, not codes
NOT_CODES = {"loop.json", "tool.strict", "tool_choice.disable_parallel_tool_use", "loop.after_call", "loop.max_steps", "loop.narrow", "loop.stop", "loop.steps", "loop.results",
             "tool_choice.name", "mock.records", "mock.base_url", "reasoning.effort", "thinking.type",
             "tool.name", "tool.description", "tool.parameters",  # OpenInference TOOL span attributes (traces.md)
             "reply.choices", "reply.reasoning"}  # a Reply's fields, beside the code reply.duplicate_key


def _constants(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):  # code = "a" if ... else "b"
        return _constants(node.body) + _constants(node.orelse)
    return []


@functools.cache
def emitted_codes() -> dict[str, str]:
    """Each code written by a literal in providers/ (code -> the first file:line writing it): in a code's place
    of the calls above, or as the value of ``"code"`` in a dict literal (a mock or proxy line's finding)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "providers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        for code in filter(CODE.fullmatch, _constants(value)):
                            found.setdefault(code, f"{path.relative_to(ROOT)}:{node.lineno}")
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            arguments = [node.args[CODE_ARGUMENT[name]]] if name in CODE_ARGUMENT and len(node.args) > CODE_ARGUMENT[name] else []
            arguments += [k.value for k in node.keywords if k.arg in ("code", "convert_note")]
            for argument in arguments:
                if isinstance(argument, ast.Tuple) and argument.elts:  # convert_note=("code", "words")
                    argument = argument.elts[0]
                for value in _constants(argument):
                    if CODE.fullmatch(value):
                        found.setdefault(value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def declared_codes() -> set[str]:
    return {code for module in registry.family_modules() for code in getattr(module, "LEDGER_CODES", {})}


@functools.cache
def docs_text() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in DOCS)


def test_the_code_reader_finds_the_codes_it_should():
    codes = emitted_codes()
    # one of each way a code is written: ledger methods, LedgerEntry, a stream Finding, a mock line, a proxy line,
    # a conditional code, an openai_chat host note
    for code in ("pitfall.required_trap", "tools.over_limit", "loop.repeated_call", "stream.no_final_event",
                 "mock.unknown_path", "mock.refused", "proxy.client_gone", "stream.too_large", "pitfall.vllm_auto_flags"):
        assert code in codes, code


def test_every_code_the_product_writes_is_documented():
    text = docs_text()
    documented = set(CODE.findall(text)) | declared_codes()
    missing = {code: where for code, where in emitted_codes().items() if code not in documented}
    assert not missing, f"codes written but documented nowhere (README.md, docs/*.md, LEDGER_CODES): {missing}"


def test_every_code_the_docs_name_exists():
    codes = set(emitted_codes()) | declared_codes()
    prefixes = {code.split(".")[0] for code in codes}
    named = {word for word in re.findall(r"`([a-z][a-z0-9_]*\.[a-z0-9_]+)`", docs_text()) if word.split(".")[0] in prefixes}
    assert sorted(named - codes - NOT_CODES) == []


# ---- options ---------------------------------------------------------------------------------------------------

PAGES = {"render": ["render.md", "snapshots.md", "streaming.md", "langchain.md"], "compare": ["compare.md"],
         "send": ["send.md", "streaming.md", "traces.md"], "run": ["run.md", "loop.md", "traces.md"], "parse": ["parse.md", "streaming.md"],
         "probe": ["probe.md"], "providers": ["providers.md"], "tools": ["tools.md"], "trace": ["traces.md"],
         "schema": ["schema-doctor-init.md"], "doctor": ["schema-doctor-init.md"], "init": ["schema-doctor-init.md"],
         "mock": ["mock.md"], "proxy": ["mock.md"]}


def commands() -> dict[str, dict[str, object]]:
    """Each command -> its options (every spelling, long and short) -> the click parameter."""
    from toolchoice.cli.app import COMMANDS, _command

    app = _command(None)
    return {name: {o: p for p in app.commands[name].params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")}
            for name in COMMANDS}


def shared_table() -> list[tuple[list[str], str]]:
    """docs/commands.md's shared options: (the options a row spells, its 'on' cell)."""
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `-") and len(cells) == 3:
            rows.append((re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", cells[0]), cells[2]))
    return rows


def _named(option: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text) is not None


def test_every_option_is_on_its_command_s_page_or_in_the_shared_table():
    shared = {option for options, _ in shared_table() for option in options}
    missing = []
    for name, options in commands().items():
        page = "\n".join((ROOT / "docs" / p).read_text(encoding="utf-8") for p in PAGES[name])
        missing += [f"{name} {o}" for o in options if o != "--help" and o not in shared and not _named(o, page)]
    assert missing == []


def test_the_shared_table_names_options_the_commands_it_names_take():
    every = commands()
    wrong = []
    for options, on in shared_table():
        if on.startswith("every command"):
            but = set(re.findall(r"`(\w+)`", on))
            names = [n for n in every if n not in but]
        else:
            names = [w for w in re.findall(r"[a-z]+", re.sub(r"\(.*?\)", "", on)) if w in every]
        assert names, on
        wrong += [f"{n} {o}" for n in names for o in options if o not in every[n]]
    assert wrong == []


def test_the_codes_the_mock_sorts_are_codes_the_product_writes():
    from toolchoice.providers.core.mock import judge

    assert sorted((judge._QUIET | judge.NOT_API_ERRORS) - set(emitted_codes()) - declared_codes()) == []


def test_every_environment_variable_the_product_reads_is_documented():
    """TOOLCHOICE_* variables named in the product's source (TOOLCHOICE_LIMIT_<NAME> as its prefix: each limit is
    in docs/limits.md, held by test_mock_server_bounds) appear in README.md or docs/*.md."""
    source = "\n".join(p.read_text(encoding="utf-8") for folder in ("providers", "cli")
                       for p in sorted((ROOT / folder).rglob("*.py")))
    names = set(re.findall(r"\bTOOLCHOICE_[A-Z_]*[A-Z]", source))
    assert "TOOLCHOICE_ALLOW_ENV" in names
    text = docs_text()
    assert sorted(n for n in names if not re.search(re.escape(n) + r"(?![A-Z_])", text)
                  and not (n + "_").startswith("TOOLCHOICE_LIMIT_")) == []
