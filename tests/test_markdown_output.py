"""The markdown toolchoice writes (`compare`, `compare --send` and `run` with --format markdown) ends up rendered:
a pull-request comment, a CI job's summary. Text from outside (a tool name a history quotes, a model's answer
and arguments) must read there as written, never as emphasis, a link, an image, a code span, strike-through,
HTML or an entity, nor break its table row (cli/markdown_text.py). The truth is a CommonMark renderer with
GitHub's tables and strike-through (markdown-it-py, which rich depends on), not toolchoice's own code."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from markdown_it import MarkdownIt

from cli import run_cli
from servers import StandIn, Step

HOSTILE = "**b**_[x](http://e.example)_![i](http://e.example/i.png)<b>h</b>~~s~~&amp;`c`|\\*"
TAGS = re.compile(r"<[^>]+>")


def rendered(markdown: str) -> str:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


def shown_text(page: str) -> str:
    return html.unescape(TAGS.sub("", page))


def assert_inert(page: str) -> None:
    for tag in ("<a ", "<img", "<em>", "<s>", "<del>", "<b>"):
        assert tag not in page, (tag, page)


def test_a_name_a_history_quotes_reads_as_written_in_compare_markdown(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(json.dumps({
        "tools": [{"name": "get_weather", "parameters": {"type": "object"}}], "tool_choice": "required",
        "messages": [{"role": "user", "content": "hi"},
                     {"role": "assistant", "tool_calls": [{"id": "c1", "name": HOSTILE, "arguments": {}}]},
                     {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}), encoding="utf-8")
    result = run_cli(["compare", str(path), "-p", "openai,anthropic", "-f", "markdown"])
    assert result.returncode == 0, result.stderr
    page = rendered(result.stdout)
    assert_inert(page)
    assert page.count("<tr>") == 3  # the header and one row a provider: no row was broken
    assert shown_text(page).count(HOSTILE) == 2, shown_text(page)


def test_a_models_answer_and_arguments_read_as_written_in_run_markdown(tmp_path: Path) -> None:
    from test_loop import env, openai_body

    path = tmp_path / "loop.yaml"
    path.write_text("tools:\n  - name: search\n    parameters: {type: object, properties: {q: {type: string}}}\n"
                    "tool_choice: auto\nmessages:\n  - {role: user, content: hi}\nloop:\n  max_steps: 3\n"
                    "  results: {search: found}\n", encoding="utf-8")
    answer = "Done " + HOSTILE
    steps = [Step(body=openai_body([("c1", "search", {"q": HOSTILE})])), Step(body=openai_body(text=answer))]
    with StandIn("openai", *steps) as server:
        result = run_cli(["run", str(path), "-p", "openai", "--base-url", server.base_url(), "-f", "markdown",
                          "--retries", "0"], env=env())
    assert result.returncode == 0, result.stderr
    page = rendered(result.stdout)
    assert_inert(page)
    shown = shown_text(page)
    assert f"final answer: {answer}" in shown, shown
    assert HOSTILE in shown.replace('\\"', '"'), shown  # the call's arguments, in the calls cell


# GFM's "Autolinks (extension)" (https://github.github.com/gfm/ section 6.9): a bare www. domain, an http://,
# https:// or ftp:// URL and an e-mail address (also after mailto: or xmpp:) become links with no markup at all.
# The truth here is cmark-gfm, GitHub's own renderer (the cmarkgfm bindings), with its autolink extension on.
AUTOLINKS = ("see www.e.example/a?b=1 now", "http://e.example/x", "HTTPS://e.example", "ftp://files.e.example/f",
             "(https://e.example/p)", "*www.e.example*", "mail ops+x@e.example.", "mailto:a.b@e.example",
             "xmpp:me@e.example/home", "a_b@e.example and c@d.example", "get_weather(url=https://e.example)")


def gfm(markdown: str) -> str:
    import cmarkgfm
    from cmarkgfm.cmark import Options

    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def test_the_gfm_renderer_links_each_bare_url_and_address_unescaped() -> None:
    for text in AUTOLINKS:  # so the test below can fail: written as they are, every one is a link
        assert "<a " in gfm(text), text


def test_bare_urls_and_addresses_read_as_written_on_github() -> None:
    from toolchoice.cli import markdown_text as md

    for text in AUTOLINKS:
        for written in (md.escaped(text), "| a |\n|---|\n| " + md.cell(text) + " |"):
            page = gfm(written)
            assert "<a " not in page, (text, written, page)
            assert shown_text(page).split()[-len(text.split()):] == text.split(), (text, written, page)


def test_a_url_in_a_models_answer_is_no_link_in_compare_send_markdown(tmp_path: Path) -> None:
    from test_loop import env, openai_body

    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - name: search\n    parameters: {type: object}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    arguments = {"q": "https://e.example/x www.e.example ops@e.example"}
    with StandIn("openai", Step(body=openai_body([("c1", "search", arguments)]))) as server:
        result = run_cli(["compare", str(path), "--send", "-p", "openai", "--base-url", server.base_url(),
                          "-f", "markdown", "--retries", "0"], env=env())
    assert result.returncode == 0, result.stderr
    page = gfm(result.stdout)
    assert "<a " not in page, page
    assert "https://e.example/x www.e.example ops@e.example" in shown_text(page), page
