"""The examples of README.md and docs/*.md still run and print what they show, at COLUMNS=100 without colour.

Every ``$ toolchoice ...`` line in a plain fenced block is run in-process (tests/cli.py) and its
output (stdout, then stderr) compared with the lines under it; ``$ echo $?`` compares the exit code.
Examples whose output is shortened (a line ``...``) are not compared. Commands that send (``send``, ``probe``,
``compare --send``, ``run`` without ``--replay``/``--dry-run``) were recorded against the real local model of
docs/real-model.md and are checked by the realmodel tests instead; a ``send`` example's ledger, the translation's,
is held offline to what ``render`` writes for the same command line.

The support matrices are generated from ``toolchoice providers --format markdown``: whole in docs/providers.md,
marks only in the README, each between ``<!-- generated ... -->`` and ``<!-- end generated -->``.
Refresh the examples and both matrices on purpose with TOOLCHOICE_UPDATE_README=1."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PROVIDERS_PAGE = ROOT / "docs" / "providers.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
KEY_VARS = {env for cap in CAPABILITIES.values() for env in cap.key_env}


def generated(key: str) -> re.Pattern[str]:
    """A block a generator owns: from ``<!-- generated: KEY ... -->`` to ``<!-- end generated -->``."""
    return re.compile(r"(<!-- generated: " + re.escape(key) + r"[^\n]*-->\n)(.*?)(\n<!-- end generated -->)", re.S)


def plain_blocks(text: str) -> list[list[str]]:
    """The lines of each fenced block opened by a bare ``` (no language), fences paired in order."""
    blocks, current, inside = [], None, False
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                if current is not None:
                    blocks.append(current)
                current, inside = None, False
            else:
                current, inside = ([] if line == "```" else None), True
        elif current is not None:
            current.append(line)
    return blocks


def offline(command: str) -> bool:
    words = shlex.split(command)
    # doctor's output is this machine's (keys set, versions): shown in the docs, not compared; `run`
    # sends unless it replays a saved transcript or only renders step 1
    if words[1:2] == ["run"] and not {"--replay", "--dry-run"} & set(words):
        return False
    return words[:1] == ["toolchoice"] and words[1] not in ("send", "probe", "doctor") and "--send" not in words


def examples(text: str) -> list[tuple[str, str, str | None]]:
    """(command, shown output, shown exit code or None) for each offline example."""
    out = []
    for lines in plain_blocks(text):
        i = 0
        while i < len(lines):
            if lines[i].startswith("$ toolchoice "):
                command = lines[i][2:]
                j = i + 1
                while j < len(lines) and not lines[j].startswith("$ "):
                    j += 1
                code = lines[j + 1] if j < len(lines) and lines[j] == "$ echo $?" else None
                elided = any(line.strip() == "..." for line in lines[i + 1:j])  # a shortened example
                if offline(command) and not elided:
                    out.append((command, "\n".join(lines[i + 1:j]), code))
                i = j
            else:
                i += 1
    return out


def run_example(command: str) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS}
    env.update({"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
    result = run_cli(shlex.split(command)[1:], env=env, cwd=ROOT)
    text = (result.stdout + result.stderr).replace(str(ROOT), ".")  # paths as they read from the checkout
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines()), result.returncode


def full_matrix() -> str:
    fresh, code = run_example("toolchoice providers --format markdown")
    assert code == 0
    return fresh


def marks_matrix(markdown: str) -> str:
    """The README's small matrix: the markdown matrix's table with each feature cell cut to its mark (✔ → ≈ ✘),
    without the wire forms, the argument type and the date."""
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    features = header[1:header.index("arguments")]
    lines = ["| provider | " + " | ".join(features) + " |", "|" + "---|" * (len(features) + 1)]
    for row in rows[1:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row.strip("|"))]
        lines.append(f"| {cells[0]} | " + " | ".join(c[0] for c in cells[1:1 + len(features)]) + " |")
    return "\n".join(lines)


def cell(text: str) -> str:
    """Text from the capability rows as one markdown table cell, read literally."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "\\<").replace("*", "\\*")


def sources_pages() -> str:
    """docs/providers.md's sources: per provider its module, date, the notes on its matrix cells and its
    sources; then the dated facts beyond the matrix and the model rules, each once, with source and date."""
    import json

    rows = json.loads(run_cli(["providers", "--format", "json"]).stdout)
    features = [f for f in rows[0] if isinstance(rows[0][f], dict) and "level" in rows[0][f]]
    out = []
    for row in rows:
        out.append(f"### `{row['provider']}`: {row['title']}\n")
        out.append(f"Module `{row['module']}`, verified {row['verified']}.\n")
        for feature in features:
            if row[feature]["note"]:
                out.append(f"- {feature}: {cell(row[feature]['note'])}")
        out.extend(f"- source: {cell(source)}" for source in row["sources"])
        out.append("")
    facts = {f["id"]: f for row in rows for f in row["facts"]}
    out += ["### Dated facts beyond the matrix\n", "| fact | providers | statement | source | verified |", "|---|---|---|---|---|"]
    out += [f"| `{f['id']}` | {', '.join(f['providers'])} | {cell(f['statement'])} | {cell(f['source'])} | {f['verified']} |"
            for f in facts.values()]
    rules = {r["name"]: r for row in rows for r in row["model_rules"]}
    out += ["", "### Model rules\n", "| rule | providers | model id matches | facts | source | verified |", "|---|---|---|---|---|---|"]
    out += [f"| `{r['name']}` | {', '.join(r['providers'])} | `{r['pattern'].replace('|', chr(92) + '|')}` | "
            + cell(", ".join(f"{k}: {json.dumps(v)}" for k, v in r["facts"].items()))
            + f" | {cell(r['source'])} | {r['verified']} |" for r in rules.values()]
    return "\n".join(out)


def keys_markdown() -> str:
    """The README's key list, from the capability rows: each key variable (or its alternatives) with the
    providers that read it, then the local servers that send without one."""
    import textwrap

    from toolchoice.providers.core.doctor import key_optional

    optional = key_optional()
    needed: dict[tuple[str, ...], list[str]] = {}
    local = []
    for provider, cap in CAPABILITIES.items():
        if optional[provider]:
            local.append(f"{provider} (`{cap.key_env[0]}` if yours wants one)")
        else:
            needed.setdefault(cap.key_env, []).append(provider)
    parts = [" or ".join(f"`{v}`" for v in names) + f" ({', '.join(ids)})" for names, ids in needed.items()]
    text = ", ".join(parts) + "; local servers need none: " + ", ".join(local) + "."
    return "\n".join(textwrap.wrap(text, 115, break_long_words=False, break_on_hyphens=False))


def freshness_table() -> str:
    """docs/fact-audit.md's table: every refusal, drop and change with the date of its newest evidence."""
    from toolchoice.providers.core.fact_freshness import markdown

    return markdown()


GENERATORS = {README: {"the marks of": lambda: marks_matrix(full_matrix()),
                       "the key variables of the capability rows": keys_markdown},
              PROVIDERS_PAGE: {"toolchoice providers --format markdown": full_matrix,
                               "from toolchoice providers --format json": sources_pages},
              ROOT / "docs" / "fact-audit.md": {"fact_freshness.markdown()": freshness_table}}


def generated_block(text: str, key: str) -> str:
    found = generated(key).search(text)
    assert found is not None, f"no <!-- generated: {key} ... --> ... <!-- end generated --> block"
    return found.group(2)


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def regenerate() -> None:
    """TOOLCHOICE_UPDATE_README=1: every example's output and every generated block written afresh. Called once,
    before any test is collected (tests/conftest.py's ``pytest_configure``): rewriting the pages while tests are
    collected from them (as each worker of pytest-xdist once did) makes the run collect different tests, and it fails."""
    for page in PAGES:
        text = page.read_text()
        for command, shown, _ in examples(text):
            fresh, _ = run_example(command)
            old = f"$ {command}\n{shown}\n" if shown else f"$ {command}\n"
            text = text.replace(old, f"$ {command}\n{fresh}\n", 1)
        for key, make in GENERATORS.get(page, {}).items():
            block = make()
            text = generated(key).sub(lambda m: m.group(1) + block + m.group(3), text, count=1)
        page.write_text(text)


def test_the_docs_show_every_command():
    text = "\n".join(page.read_text() for page in PAGES)
    shown = {shlex.split(c)[1] for c, _, _ in examples(text)}
    assert {"render", "compare", "parse", "providers", "schema", "init", "run", "tools"} <= shown, shown
    for command in ("send", "probe", "doctor"):
        assert f"$ toolchoice {command} " in text, command


@pytest.mark.parametrize("page, command, shown, code",
                         [(page, *example) for page in PAGES for example in examples(page.read_text())],
                         ids=lambda v: page_id(v) if isinstance(v, Path) else str(v)[:60])
def test_doc_example_prints_what_the_page_shows(page, command, shown, code):
    fresh, returncode = run_example(command)
    assert fresh == "\n".join(line.rstrip() for line in shown.splitlines())
    if code is not None:
        assert str(returncode) == code


def test_the_providers_page_holds_the_generated_matrix():
    assert generated_block(PROVIDERS_PAGE.read_text(), "toolchoice providers --format markdown") == full_matrix(), (
        "docs/providers.md's matrix is stale: TOOLCHOICE_UPDATE_README=1 python -m pytest tests/test_readme.py")


def test_the_providers_page_lists_every_row_s_sources_facts_and_rules():
    page = generated_block(PROVIDERS_PAGE.read_text(), "from toolchoice providers --format json")
    assert page == sources_pages(), (
        "docs/providers.md's sources are stale: TOOLCHOICE_UPDATE_README=1 python -m pytest tests/test_readme.py")
    for cap in CAPABILITIES.values():
        assert f"### `{cap.provider}`: {cap.title}" in page
        assert all(cell(source) in page for source in cap.sources)


def test_the_readme_holds_the_small_matrix_of_the_same_rows():
    small = generated_block(README.read_text(), "the marks of")
    assert small == marks_matrix(full_matrix()), (
        "README's matrix is stale: TOOLCHOICE_UPDATE_README=1 python -m pytest tests/test_readme.py")
    # one row per capability row, in its order, and a mark in every cell
    body = small.splitlines()[2:]
    assert [row.split("|")[1].strip(" `") for row in body] == list(CAPABILITIES)
    assert all(cell.strip() in ("✔", "→", "≈", "✘") for row in body for cell in row.strip("|").split("|")[1:])


def test_the_readme_names_every_key_variable_of_the_capability_rows():
    assert generated_block(README.read_text(), "the key variables of the capability rows") == keys_markdown(), (
        "README's key list is stale: TOOLCHOICE_UPDATE_README=1 python -m pytest tests/test_readme.py")
    keys = re.search(r"^## Keys\n(.*?)(?=^## |\Z)", README.read_text(), re.M | re.S)
    assert keys is not None
    missing = sorted(var for var in KEY_VARS if f"`{var}`" not in keys.group(1))
    assert not missing, f"README's Keys section lacks {missing}"


def test_the_readme_stays_short():
    assert len(README.read_text().splitlines()) <= 450


def test_the_set_up_is_two_lines_in_a_virtual_environment_and_ci_runs_them_as_written():
    block = re.search(r"^## Set-up.*?^```bash\n(.*?)^```$", README.read_text(), re.M | re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && toolchoice ")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "sed -n '/^## Set-up/,/^## /p' README.md" in ci and 'eval "${SETUP[0]}"' in ci and 'eval "${SETUP[1]}"' in ci


def scenario_blocks(text: str) -> list[str]:
    """The ```yaml blocks that are whole scenarios (they begin with ``tools:`` and hold ``messages:``)."""
    blocks = re.findall(r"^```yaml\n(.*?)^```$", text, re.M | re.S)
    return [b for b in blocks if b.startswith("tools:") and "\nmessages:" in b]


@pytest.mark.parametrize("page, scenario", [(page, block) for page in PAGES for block in scenario_blocks(page.read_text())],
                         ids=lambda v: page_id(v) if isinstance(v, Path) else "")
def test_a_scenario_shown_in_the_docs_loads_and_renders(page, scenario):
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS}
    result = run_cli(["render", "-", "--provider", "all", "--format", "json"], env=env, input=scenario, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


SEND_ONLY = {"--repeat": 1, "-n": 1, "--retries": 1, "--timeout": 1, "--concurrency": 1, "-k": 1, "--min-obeyed": 1,
             "--save": 1, "--trace-out": 1, "--raw": 0, "--all-results": 0}


def sent_examples(text: str) -> list[tuple[str, list[str]]]:
    """(command, the rows of the ledger table it shows) for each ``$ toolchoice send`` example: what was sent was
    recorded against the real local model, but the ledger is the translation's, the same offline."""
    out = []
    for lines in plain_blocks(text):
        for i, line in enumerate(lines):
            if line.startswith("$ toolchoice send "):
                end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("$ ")), len(lines))
                body = lines[i + 1:end]
                titles = [k for k, b in enumerate(body) if b.rstrip() == "ledger"]
                if titles:
                    start = next(k for k in range(titles[0], len(body)) if body[k].startswith("┡"))
                    stop = next(k for k in range(start, len(body)) if body[k].startswith("└"))
                    out.append((line[2:], [b.rstrip() for b in body[start + 1:stop]]))
    return out


def as_render(command: str) -> str:
    words, kept = shlex.split(command)[2:], []
    while words:
        word = words.pop(0)
        if word in SEND_ONLY:
            del words[:SEND_ONLY[word]]
        else:
            kept.append(word)
    return shlex.join(["toolchoice", "render", *kept])


@pytest.mark.parametrize("page, command, rows", [(page, *example) for page in PAGES for example in sent_examples(page.read_text())],
                         ids=lambda v: page_id(v) if isinstance(v, Path) else str(v)[:90] if isinstance(v, str) else "")
def test_a_send_example_shows_the_ledger_render_writes(page, command, rows):
    fresh, code = run_example(as_render(command))
    assert code == 0
    assert "\n".join(rows) in fresh


def test_the_send_examples_are_found():
    assert len(sent_examples((ROOT / "docs" / "send.md").read_text())) == 3
    assert as_render("toolchoice send s.yaml -p openai --repeat 5 --raw --retries 0 -m m") == (
        "toolchoice render s.yaml -p openai -m m")


def shortened_examples(text: str) -> list[tuple[str, str]]:
    """(command, the lines shown before its ``...``) for each offline example whose output is shortened."""
    out = []
    for lines in plain_blocks(text):
        for i, line in enumerate(lines):
            if line.startswith("$ toolchoice ") and offline(line[2:]):
                end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("$ ")), len(lines))
                cut = next((j for j in range(i + 1, end) if lines[j].strip() == "..."), None)
                if cut is not None:
                    out.append((line[2:], "\n".join(x.rstrip() for x in lines[i + 1:cut])))
    return out


@pytest.mark.parametrize("page, command, head", [(page, *example) for page in PAGES for example in shortened_examples(page.read_text())],
                         ids=lambda v: page_id(v) if isinstance(v, Path) else str(v)[:90] if isinstance(v, str) else "")
def test_a_shortened_example_begins_as_the_page_shows(page, command, head):
    fresh, code = run_example(command)
    assert code == 0 and head and fresh.startswith(head + "\n")
