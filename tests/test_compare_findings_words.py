"""`compare`'s findings below the table share a line between providers only where their words are the same once a
provider's own name reads "the provider". The name was replaced inside longer words too: under `--dialect
langchain`, Groq's title inside the wrapper's class name ChatGroq made groq's and deepseek's lines one line that
read "Chatthe provider's request is not described". The class names are langchain-groq's
(`langchain_groq.ChatGroq`) and langchain-deepseek's (`langchain_deepseek.ChatDeepSeek`), as their API references
name them (python.langchain.com/api_reference/groq, /deepseek); neither package is installed here."""

from __future__ import annotations

import pytest

from cli import run_cli

SCENARIO = "configs/allowed-subset.yaml"  # an allowed-tools subset: no bind_tools spelling on either wrapper


@pytest.mark.parametrize("columns", [80, 200])
def test_each_wrapper_keeps_its_name_in_the_findings(columns):
    groq, deepseek = "ChatGroq", "ChatDeepSeek"
    done = run_cli(["compare", SCENARIO, "--dialect", "langchain", "-p", "groq,deepseek"],
                   env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    said = " ".join((done.stdout + done.stderr).split())
    assert "Chatthe" not in said
    assert f"{groq}'s request is not described" in said
    assert f"{deepseek}'s request is not described" in said
