"""A key written as text in a scenario's ``providers.<id>.headers`` or pasted as ``api_key_env``: refused when
the file is read (one line naming file:line, what to write instead, exit 2), never echoed; the same key given
as ``$NAME`` goes on the wire and into no output or ``--save`` file. Which headers are key headers is the mock's
and proxy's rule (``redaction.key_header``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import refused, run_cli

KEY = "sk-literal-0123456789abcdef0123"
GATEWAY = "pk-literal-abcdef0123456789"
HEAD = ("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}\n"
        "messages:\n  - {role: user, content: hi}\nproviders:\n  openai:\n")
ENV = {"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin"}


def write(tmp_path: Path, settings: str) -> Path:
    path = tmp_path / "lit.yaml"
    path.write_text(HEAD + settings, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["render", "-f", "json"], ["render"], ["compare"], ["send", "--dry-run"]])
def test_a_key_written_as_text_in_a_key_header_is_refused_without_showing_it(tmp_path, command):
    path = write(tmp_path, f"    headers:\n      X-Title: my app with a long plain title\n"
                           f"      Authorization: Bearer {KEY}\n      X-Portkey-Api-Key: {GATEWAY}\n")
    line = refused(run_cli([command[0], str(path), "-p", "openai", *command[1:]], env=ENV), KEY, GATEWAY)
    assert f"{path}:10:22: providers.openai.headers.Authorization holds 31 characters of text where a key goes" in line
    assert 'write Authorization: "Bearer $MY_API_KEY", then pass --allow-env MY_API_KEY' in line


def test_a_gateway_key_header_is_a_key_header_too(tmp_path):
    path = write(tmp_path, f"    headers: {{X-Portkey-Api-Key: {GATEWAY}}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), GATEWAY)
    assert ('headers.X-Portkey-Api-Key holds 27 characters' in line
            and 'X-Portkey-Api-Key: "$X_PORTKEY_API_KEY", then pass --allow-env X_PORTKEY_API_KEY' in line)


def test_a_key_of_letters_is_no_scheme_word(tmp_path):
    """Before a short text or a $NAME, a word of letters is taken as an auth scheme (Bearer, Basic) only while it is
    shorter than any key: a letters-only key there is refused, and not shown as a scheme in the hint."""
    letters = "AbCdEfGhIjKlMnOpQr"
    path = write(tmp_path, f"    headers: {{Authorization: {letters} x}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), letters)
    assert 'holds 20 characters' in line and 'write Authorization: "$MY_API_KEY"' in line


def test_a_number_as_key_is_not_quoted_back_in_the_hint(tmp_path):
    path = write(tmp_path, "    headers: {X-Api-Key: 123456789012345678}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), "123456789012345678")
    assert "headers values must be strings" in line


def test_plain_headers_and_a_dummy_key_are_sent_as_written(tmp_path):
    """Not key headers (X-Title, anthropic-beta's kind), and under 8 characters after the scheme word: a local
    server's dummy key (vLLM's EMPTY), which no redaction could hide anyway (keys.md#redaction)."""
    path = write(tmp_path, "    headers: {X-Title: my app with a long plain title, Authorization: Bearer EMPTY}\n")
    result = run_cli(["render", str(path), "-p", "openai", "-f", "json"], env=ENV)
    assert result.returncode == 0, result.stderr
    headers = json.loads(result.stdout)["request"]["headers"]
    assert headers["X-Title"] == "my app with a long plain title" and headers["Authorization"] == "Bearer EMPTY"


def test_the_python_api_refuses_it_too_without_the_value():
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_dict({"messages": [{"role": "user", "content": "hi"}],
                            "providers": {"openai": {"headers": {"Helicone-Auth": f"Bearer {KEY}"}}}})
    assert KEY not in str(caught.value) and "Helicone-Auth holds 31 characters" in str(caught.value)
    # in Python's words: the option a Python caller has (the command line's "--allow-env HELICONE_AUTH")
    assert caught.value.hint == ('export the key and write Helicone-Auth: "Bearer $HELICONE_AUTH", then pass '
                                 'RenderOptions(allow_env=("HELICONE_AUTH",))'), caught.value.hint


def test_a_key_pasted_as_api_key_env_is_refused_by_length_and_first_characters(tmp_path):
    path = write(tmp_path, f"    api_key_env: {KEY}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), KEY)
    assert (f"{path}:8:18: providers.openai.api_key_env must name an environment variable in upper case "
            "(A-Z, 0-9, _), not a text of 31 characters starting 'sk-' (a key itself?)") in line
    path = write(tmp_path, "    api_key_env: $MY_PROXY_KEY\n")
    assert "without $ (write api_key_env: MY_PROXY_KEY)" in refused(run_cli(["render", str(path)], env=ENV))


def test_the_key_as_a_variable_goes_on_the_wire_and_into_no_output_or_saved_file(tmp_path):
    from servers import StandIn, Step

    path = write(tmp_path, '    headers: {X-Portkey-Api-Key: "$PORTKEY_KEY", Authorization: "Bearer $MY_API_KEY"}\n')
    env = {**ENV, "PORTKEY_KEY": GATEWAY, "MY_API_KEY": KEY}
    with StandIn("openai", default=Step.reply("openai")) as server:
        result = run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url("openai"),
                          "--allow-env", "PORTKEY_KEY,MY_API_KEY", "--save", str(tmp_path / "saved"), "-f", "json"],
                         env=env)
    assert result.returncode == 0, result.stderr
    (got,) = server.requests
    assert got.headers["x-portkey-api-key"] == GATEWAY and got.headers["authorization"] == f"Bearer {KEY}"
    saved = [p for p in (tmp_path / "saved").rglob("*") if p.is_file()]
    assert saved
    for text in (result.stdout, result.stderr, *(p.read_text(encoding="utf-8") for p in saved)):
        assert GATEWAY not in text and KEY not in text
    assert "$PORTKEY_KEY" in result.stdout


def test_one_rule_for_key_headers():
    """The mock, the proxy's saving and the scenario reader ask the same function."""
    from toolchoice.providers.core import redaction, scenario
    from toolchoice.providers.core.mock import saving, service

    assert service.key_header is saving.key_header is scenario.key_header is redaction.key_header


def test_the_refusal_in_docs_scenarios_md_is_the_one_printed(tmp_path):
    write(tmp_path, f"    headers:\n      Authorization: Bearer {KEY}\n")
    result = run_cli(["render", "lit.yaml"], env=ENV, cwd=tmp_path)
    page = (Path(__file__).parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert refused(result, KEY).strip() in page.splitlines()
