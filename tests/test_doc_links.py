"""Every relative link in README.md and docs/*.md resolves: the file exists, and a ``#fragment`` names a
heading of the target page (GitHub's anchors: lower case, punctuation but ``-`` and ``_`` dropped, spaces
as ``-``, a repeated heading ``-1``, ``-2``, ...). Links are read with markdown-it-py (rich's own Markdown
parser), so a link-like text inside code is not a link. A page's anchors and links are read once per text (a page
is the target of many links, and every page is read again for the linked-from check), not once per link."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PARSER = MarkdownIt("commonmark").enable("table")


def _inline_text(token) -> str:
    """A heading's text as GitHub slugs it: the text and code of its inline children, without markup."""
    return "".join(child.content for child in token.children or () if child.type in ("text", "code_inline"))


@functools.cache
def anchors(text: str) -> frozenset[str]:
    tokens = PARSER.parse(text)
    seen: dict[str, int] = {}
    out = set()
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type != "heading_open":
            continue
        slug = re.sub(r"[^\w\- ]", "", _inline_text(inline).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(out)


@functools.cache
def links(text: str) -> tuple[str, ...]:
    out = []
    for token in PARSER.parse(text):
        for child in token.children or ():
            if child.type == "link_open":
                out.append(str(child.attrs["href"]))
    return tuple(out)


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` that does not resolve, with why."""
    broken = []
    for href in links(page.read_text()):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:  # http(s), mailto: not ours to check offline
            continue
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not target.exists():
            broken.append(f"{href}: no file {target}")
        elif parts.fragment and target.suffix == ".md" and parts.fragment not in anchors(target.read_text()):
            broken.append(f"{href}: no heading #{parts.fragment} in {target.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert broken_links(page) == []


def test_every_docs_page_is_linked_from_the_readme_or_another_page():
    linked = {(page.parent / unquote(urlsplit(h).path)).resolve() for page in PAGES for h in links(page.read_text())
              if not urlsplit(h).scheme and urlsplit(h).path}
    assert [p.name for p in PAGES[1:] if p.resolve() not in linked] == []


def test_a_broken_link_and_a_missing_anchor_are_caught(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Page A\n\n## `run`: the loop\n\n## Keys\n\n## Keys\n")
    page = tmp_path / "README.md"
    page.write_text("[ok](docs/a.md#run-the-loop) [ok2](docs/a.md#keys-1) [gone](docs/b.md) "
                    "[bad](docs/a.md#nope) [web](https://example.com/x) `[code](docs/c.md)`\n\n"
                    "```\n[fenced](docs/d.md)\n```\n")
    assert broken_links(page) == [f"docs/b.md: no file {tmp_path / 'docs' / 'b.md'}",
                                  "docs/a.md#nope: no heading #nope in a.md"]
