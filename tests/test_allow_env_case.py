"""``--allow-env`` / ``TOOLCHOICE_ALLOW_ENV`` take the names a scenario's ``$NAME`` references can hold: upper case
(docs/keys.md: ``$home`` is text). A lower-case name could allow nothing, so it is refused in one line, exit 2,
saying what to write; an upper-case one allows the reference it names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402

SCENARIO = """\
tools:
  - {name: f, parameters: {type: object, properties: {}}}
messages: [{role: user, content: hi}]
providers:
  openai:
    headers: {X-Token: "$MYSECRET", X-Text: "$mysecret"}
"""


@pytest.fixture()
def path(tmp_path: Path) -> Path:
    file = tmp_path / "s.yaml"
    file.write_text(SCENARIO, encoding="utf-8")
    return file


@pytest.mark.parametrize("args, env, said, hint", [
    (["--allow-env", "mysecret"], {}, "--allow-env 'mysecret'", "--allow-env MYSECRET"),
    (["--allow-env", "OTHER,mySecret"], {}, "--allow-env 'mySecret'", "--allow-env MYSECRET"),
    ([], {"TOOLCHOICE_ALLOW_ENV": "mysecret"}, "TOOLCHOICE_ALLOW_ENV holds 'mysecret'", "TOOLCHOICE_ALLOW_ENV=MYSECRET"),
])
def test_a_lower_case_name_is_refused_saying_what_to_write(path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           args: list[str], env: dict[str, str], said: str,
                                                           hint: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = run_cli(["render", str(path), "-p", "openai", *args])
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"toolchoice: error: {said}: a scenario reads only upper-case variable references")
    assert hint in lines[0] and "$MYSECRET" in lines[0]


def test_the_upper_case_name_allows_its_reference_and_the_lower_case_one_stays_text(path: Path) -> None:
    result = run_cli(["render", str(path), "-p", "openai", "--allow-env", "MYSECRET", "-f", "json"])
    assert result.returncode == 0, result.stderr
    translation = json.loads(result.stdout)  # one provider: its translation
    allowed = [e["message"] for e in translation["ledger"] if e["code"] == "env.allowed"]
    assert len(allowed) == 1 and "$MYSECRET" in allowed[0] and "X-Token" in allowed[0]
    assert not [e for e in translation["ledger"] if e["code"] == "env.not_allowed"]
    assert translation["request"]["headers"]["X-Text"] == "$mysecret"  # text: sent as written, read from nowhere


@pytest.mark.parametrize(("given", "said"), [("mysecret", "upper-case"), ("$HOME", "not an environment variable name")])
def test_the_library_s_allow_env_refuses_what_the_flag_refuses(given, said):
    """RenderOptions(allow_env=...) is the flag's twin for a Python caller (docs/python.md): a lower-case name
    could allow nothing, and a $ is no part of a name."""
    from toolchoice.providers.core import jobs
    from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario

    scenario = load_scenario(Path(__file__).resolve().parents[1] / "configs" / "weather.yaml")
    with pytest.raises(ToolchoiceError) as raised:
        jobs.render(scenario, ["openai"], RenderOptions(allow_env=(given,)))
    assert said in str(raised.value) and given in str(raised.value)
