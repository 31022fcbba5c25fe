"""Keys written as text anywhere else in a scenario (core/literal_keys.py): ``providers.<id>.extra`` at any depth,
an AWS access key id as ``api_key_env``, a key's shape in any header or a base URL's path, a ``from:`` MCP source's
command line, ``env:`` and ``headers:``. Each is refused when the file is read (exit 2, one line naming file:line:col,
how long the text is, what to write instead), never echoed; a ``$NAME`` in ``extra`` is read from the environment
when sending, as a header's is. Near-misses stay as written. A Python caller's ``Scenario`` holding such a key (no
file read) keeps it out of every output and saved file. The shapes are ``redaction.KEY_SHAPES``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import refused, run_cli

# made of pieces so that no scanner takes this file for a leak; each has its issuer's shape (redaction.KEY_SHAPES)
OPENAI = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
ANTHROPIC = "sk-ant-api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe_dc-BA"
GOOGLE = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q7r8"[:35]
AWS = "AKIA" + "Z7Q2M4X9T1B6V3N8"
GROQ = "gsk_" + "a1B2" * 13
XAI = "xai-" + "Q1w2E3r4" * 10
HF = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
GITHUB = "ghp_" + "A1b2C3d4" * 4 + "E5f6"
GITHUB_PAT = "github_pat_" + "11ABCDEFG0" + "abcdefghij" * 2 + "_" + "Z9y8X7w6V5" * 6
PERPLEXITY = "pplx-" + "Tq4Wz8Kd2Ns6Hv0Lm3Pc7Xb1" * 2
CEREBRAS = "csk-" + "x7d2kq9m4v8t1p6w3n5c0r2h" * 2
TOGETHER = "tgp_v1_" + "Hy7_Rk2-Mq9Lp4Vr1Zt6Wn3Hc8Jf5Gy0Ds2Kb4Nx6Pe"
FIREWORKS = "fw_" + "Zr8Kq2Wm5Tn9Vb3Xc7Ld1Hf6"
GOOGLE_OAUTH = "ya29." + "a0AfH6Sm" * 20
PLAIN = "pk-plain-9f8e7d6c5b4a3210"  # no known shape: a key only where a name says so
SHAPES = {"an OpenAI-style key": OPENAI, "an Anthropic key": ANTHROPIC, "a Google API key": GOOGLE,
          "an AWS access key id": AWS, "a Groq key": GROQ, "an xAI key": XAI, "a Hugging Face token": HF,
          "a GitHub token": GITHUB, "a Perplexity key": PERPLEXITY, "a Cerebras key": CEREBRAS,
          "a Together key": TOGETHER, "a Fireworks key": FIREWORKS, "a Google OAuth access token": GOOGLE_OAUTH}
HEAD = ("tools:\n  - name: get_weather\n    description: Get the weather.\n"
        "    parameters: {type: object, properties: {city: {type: string}}}\n"
        "messages:\n  - {role: user, content: hi}\nproviders:\n  openai:\n")  # settings start on line 9
ENV = {"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin"}


def write(tmp_path: Path, text: str, name: str = "lit.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(text: str):
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario_text

    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_text(text, "s.yaml")
    return caught.value


# ---- providers.<id>.extra ------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["render"], ["render", "-f", "json"], ["compare"], ["send", "--dry-run"],
                                     ["run", "--dry-run"]])
def test_a_key_in_extra_is_refused_by_every_command(tmp_path, command):
    path = write(tmp_path, HEAD + f"    extra:\n      api_key: {OPENAI}\n")
    line = refused(run_cli([command[0], str(path), "-p", "openai", *command[1:]], env=ENV), OPENAI)
    assert (f"{path}:10:16: providers.openai.extra.api_key holds {len(OPENAI)} characters shaped like an OpenAI-style "
            "key (sk-…): it would be shown in every output and saved file (export the key and write "
            'api_key: "$API_KEY", then pass --allow-env API_KEY)') in line


def test_a_nested_credential_field_is_refused_by_its_name_at_its_line_and_column(tmp_path):
    """No known shape: the names auth / token say a key goes there (a JSON scenario: the column is the value's)."""
    scenario = {"tools": [{"name": "get_weather", "parameters": {"type": "object"}}],
                "messages": [{"role": "user", "content": "hi"}],
                "providers": {"openai": {"extra": {"metadata": {"run": "nightly"}, "auth": {"token": PLAIN}}}}}
    path = write(tmp_path, json.dumps(scenario, indent=1), "lit.json")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), PLAIN)
    lines = path.read_text().splitlines()
    row = next(i for i, text in enumerate(lines, 1) if PLAIN in text)
    col = lines[row - 1].index(f'"{PLAIN}"') + 1
    assert (f"{path}:{row}:{col}: providers.openai.extra.auth.token holds {len(PLAIN)} characters of text where a key "
            'goes (a field named for a credential)') in line and 'write token: "$TOKEN", then pass --allow-env TOKEN' in line


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_key_shape_is_refused_in_any_field_of_extra(shape):
    """A field no name marks (metadata.note, a list's item): the key's shape alone says what it is."""
    key = SHAPES[shape]
    error = load_error(HEAD + f"    extra:\n      metadata: {{note: 'see {key} here'}}\n      tags: [a]\n")
    assert key not in str(error) and key[-12:] not in str(error)
    assert (error.line, error.column) == (10, 24)
    assert error.message.startswith(f"providers.openai.extra.metadata.note holds {len(key)} characters shaped like "
                                    f"{shape} (")
    error = load_error(HEAD + f"    extra:\n      tags: [plain, {key}]\n")
    assert "providers.openai.extra.tags[1] holds" in error.message and key not in str(error)
    assert error.hint == 'export the key and write "$MY_API_KEY" in its place, then pass RenderOptions(allow_env=("MY_API_KEY",))'



def test_a_fine_grained_github_token_and_the_other_credential_names():
    error = load_error(HEAD + f"    extra: {{note: {GITHUB_PAT}}}\n")
    assert "shaped like a GitHub token (gh…)" in error.message and GITHUB_PAT not in str(error)
    for name in ("apiKey", "x-api-key", "client_secret", "accessToken", "password", "Authorization", "aws_access_key",
                 "key"):
        error = load_error(HEAD + f"    extra: {{{name}: Bearer {PLAIN}}}\n")
        assert f"extra.{name} holds {len(PLAIN)} characters of text where a key goes" in error.message, name


def test_the_python_api_refuses_it_in_python_words():
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_dict({"messages": [{"role": "user", "content": "hi"}],
                            "providers": {"anthropic": {"extra": {"auth": {"token": ANTHROPIC}}}}})
    assert ANTHROPIC not in str(caught.value) and ANTHROPIC[-12:] not in str(caught.value)
    assert "providers.anthropic.extra.auth.token holds" in caught.value.message
    assert caught.value.hint == 'export the key and write token: "$TOKEN", then pass RenderOptions(allow_env=("TOKEN",))'


def test_near_misses_in_extra_and_elsewhere_are_sent_as_written(tmp_path):
    """A model called sk-tiny, fields named for keys that are none (prompt_cache_key, a chat template's bos_token,
    max_tokens), short text, a tool description quoting AWS's example key id: none is refused, all sent as written."""
    example = "AKIA" + "IOSFODNN7EXAMPLE"
    text = HEAD.replace("Get the weather.", f"Keys look like {example}; AKIA starts them.") + (
        "    model: sk-tiny\n    extra:\n      prompt_cache_key: my-cache-bucket-2026\n      max_tokens: 100\n"
        "      chat_template_kwargs: {bos_token: '<|begin_of_text|>'}\n      metadata: {token_budget: low, key: k1}\n"
        "      user: sk-tiny-user\n")
    result = run_cli(["render", str(write(tmp_path, text)), "-p", "openai", "-f", "json"], env=ENV)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)["request"]["body"]
    assert body["model"] == "sk-tiny" and body["prompt_cache_key"] == "my-cache-bucket-2026"
    assert body["chat_template_kwargs"] == {"bos_token": "<|begin_of_text|>"} and body["user"] == "sk-tiny-user"
    assert example in body["tools"][0]["function"]["description"]


# ---- sk-: OpenAI's key formats, and names that merely begin so (key_looks._openai_style) -----------------------

# real-looking fake keys of each form the OpenAI-style row's sources give, made of pieces (none is anyone's key)
_MIXED = "Xb7_Kd2-Qm9Lp4Vr1Zt6Wn3Hc8Jf5Gy0Ds"  # 34 URL-safe characters, as a project key's halves hold
OPENAI_KINDS = {
    "legacy (sk- + 48, the T3BlbkFJ marker)": "sk-" + "Q7w9E2r4T6y8U1i3O5p0" + "T3BlbkFJ" + "a2S4d6F8g1H3j5K7l9Z0",
    "project": "sk-proj-" + _MIXED * 2 + "T3BlbkFJ" + _MIXED[::-1] * 2,
    "service account": "sk-svcacct-" + _MIXED[::-1] * 2 + "T3BlbkFJ" + _MIXED * 2,
    "admin": "sk-admin-" + _MIXED[:29] * 2 + "T3BlbkFJ" + _MIXED[5:] * 2,
    "an older project key named by its project": "sk-" + "Weather-Bot-" + "K8m2Q9x4L7v1N3b6Z5c0" + "T3BlbkFJ"
                                                  + "p9O8i7U6y5T4r3E2w1Q0",
    "project, no marker": "sk-proj-" + _MIXED + _MIXED[::-1],
    "DeepSeek (32 hex digits)": "sk-" + "0f1e2d3c4b5a6978" * 2,
    "OpenRouter": "sk-or-v1-" + "9a8b7c6d5e4f3a2b" * 4,
    "a gateway's sk- + token_urlsafe(32)": "sk-" + "Vb3_qT9xLm2-Kp7RzW4nHc8Jd1Fs5Gy6Ea0UoP2iY",
    # langfuse/langfuse packages/shared/src/server/auth/apiKeys.ts: sk: `sk-lf-${randomUUID()}`
    "Langfuse (sk-lf- + a random UUID)": "sk-lf-" + "3f2a9c1e-7b4d-4e8a-9c2f-1d5e6a7b8c9d",
    "sk- + a random UUID": "sk-" + "c4e1a7b2-9d3f-4a6e-8b5c-2f7d1e9a3b6c",
    "project, one lower-case run of letters and digits": "sk-proj-" + "q7w9e2r4t6y8u1i3o5p0a2s4",
}
# names an sk- prefix begins: a scikit-learn model, a tool, a project's setting (20 characters or more, digits too)
SK_NAMES = ["sk-learn-regressor-2024-v2", "sk-Learn-Regressor-2024-V2", "sk-proj-settings-2024-v2",
            "sk-tool-lookup-weather-v2-2025", "sk-learn_gradient_boosting_2024_07", "sk-LinearRegression2024",
            "sk-proj-LinearRegressionModel2024", "sk-proj-data-pipeline-2024-v2", "sk-build-2024-01-15-a1b2c3d4",
            "sk-lf-dataset-export-2024-v2"]


@pytest.mark.parametrize("kind", sorted(OPENAI_KINDS))
def test_each_openai_key_form_is_refused_in_extra_and_in_a_header(kind):
    key = OPENAI_KINDS[kind]
    for text in (HEAD + f"    extra:\n      metadata: {{note: '{key}'}}\n",
                 HEAD + f"    headers: {{X-Trace: '{key}'}}\n"):
        error = load_error(text)
        assert "shaped like an OpenAI-style key (sk-…)" in error.message and key[8:20] not in str(error), kind


@pytest.mark.parametrize("name", SK_NAMES)
def test_a_name_that_begins_with_sk_is_sent_and_shown_as_written(name):
    """The old rule (sk- and 20 characters holding a digit) refused these as keys: a false refusal."""
    from toolchoice.providers.core.redaction import Redactor, key_shapes
    from toolchoice.providers.core.scenario import load_scenario_text

    text = (HEAD + f"    model: {name}\n    headers: {{X-Model: {name}}}\n"
            f"    extra:\n      tool_name: {name}\n      metadata: {{note: 'use {name}'}}\n")
    scenario = load_scenario_text(text, "s.yaml")
    assert scenario.providers["openai"].model == name and key_shapes(name) == []
    assert Redactor({}).text(f"model {name} here") == f"model {name} here"


def test_a_variable_in_extra_is_read_only_when_allowed_sent_and_shown_nowhere(tmp_path):
    from servers import StandIn, Step

    path = write(tmp_path, HEAD + '    extra: {auth: {token: "$GATEWAY_TOKEN"}, api_key: "$OPENAI_API_KEY"}\n')
    env = {**ENV, "GATEWAY_TOKEN": PLAIN}
    denied = run_cli(["render", str(path), "-p", "openai"], env=env)
    assert denied.returncode != 0 and "providers.openai.extra reads $GATEWAY_TOKEN" in denied.stdout + denied.stderr
    shown = run_cli(["render", str(path), "-p", "openai", "-f", "json", "--allow-env", "GATEWAY_TOKEN,OPENAI_API_KEY"],
                    env=env)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["request"]["body"]["auth"] == {"token": "$GATEWAY_TOKEN"}
    with StandIn("openai", default=Step.reply("openai")) as server:
        result = run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url("openai"), "--allow-env",
                          "GATEWAY_TOKEN,OPENAI_API_KEY", "--save", str(tmp_path / "saved"), "-f", "json"], env=env)
    assert result.returncode == 0, result.stderr
    (got,) = server.requests
    sent = got.json
    assert sent["auth"] == {"token": PLAIN} and sent["api_key"] == ENV["OPENAI_API_KEY"]
    saved = [p for p in (tmp_path / "saved").rglob("*") if p.is_file()]
    assert saved
    for text in (result.stdout, result.stderr, *(p.read_text(encoding="utf-8") for p in saved)):
        assert PLAIN not in text and ENV["OPENAI_API_KEY"] not in text
    assert "$GATEWAY_TOKEN" in result.stdout


# ---- api_key_env, headers, base URLs ---------------------------------------------------------------------------

def test_an_aws_access_key_id_as_api_key_env_is_refused_as_the_key_it_is(tmp_path):
    """AKIA + 16 upper-case letters and digits is a valid variable name; it is refused all the same, unquoted."""
    path = write(tmp_path, HEAD + f"    api_key_env: {AWS}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), AWS)
    assert (f"{path}:9:18: providers.openai.api_key_env must name an environment variable, not hold 20 characters "
            "shaped like an AWS access key id (AKIA…)") in line
    assert "api_key_env: MY_PROXY_KEY" in line
    ok = run_cli(["render", str(write(tmp_path, HEAD + "    api_key_env: AKIA_PROXY_KEY\n")), "-p", "openai",
                  "--allow-env", "AKIA_PROXY_KEY"], env=ENV)
    assert ok.returncode == 0, ok.stderr


@pytest.mark.parametrize("name", ["Proxy-Authorization", "X-Goog-Api-Key", "api-key"])
def test_other_key_headers_take_their_key_as_a_variable(tmp_path, name):
    path = write(tmp_path, HEAD + f"    headers: {{{name}: {PLAIN}}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), PLAIN)
    assert f"providers.openai.headers.{name} holds {len(PLAIN)} characters of text where a key goes" in line


def test_a_key_shape_in_a_header_of_any_name_is_refused(tmp_path):
    path = write(tmp_path, HEAD + f"    headers: {{X-Title: my app, X-Upstream: {GROQ}}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), GROQ)
    assert (f"{path}:9:44: providers.openai.headers.X-Upstream holds 56 characters shaped like a Groq key (gsk_…)"
            in line and 'write X-Upstream: "$X_UPSTREAM", then pass --allow-env X_UPSTREAM' in line)


@pytest.mark.parametrize("url", ["https://user:{k}@gw.example.com/v1", "https://gw.example.com/v1?key={k}",
                                 "https://gw.example.com/{k}/v1"])
def test_a_key_in_a_base_url_is_refused_without_showing_it(tmp_path, url):
    """User info and a query string (Gemini's ?key=) are refused as before; a key's shape in the path now too."""
    path = write(tmp_path, HEAD + f"    base_url: \"{url.format(k=GOOGLE)}\"\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), GOOGLE)
    assert f"{path}:9:15: providers.openai.base_url" in line


# ---- from: MCP sources -----------------------------------------------------------------------------------------

FROM = "tools:\n  - from: {mcp: %s}\nmessages:\n  - {role: user, content: hi}\n"


@pytest.mark.parametrize("source,shown", [
    (f'"npx -y server --api-key {PLAIN}"', "from: mcp's command line holds 25 characters of text where a key goes "
     "(an option named for a credential)"),
    (f'"npx -y server --token={HF}"', "from: mcp's command line holds 37 characters shaped like a Hugging Face token"),
    (f'"python -m server", env: {{GITHUB_TOKEN: {PLAIN}}}', "from: env.GITHUB_TOKEN holds 25 characters of text where "
     "a key goes (a variable named for a credential)"),
    (f'"python -m server", env: {{NOTE: {GITHUB}}}', "from: env.NOTE holds 40 characters shaped like a GitHub token"),
])
def test_a_key_in_an_mcp_source_is_refused_in_a_dry_run_too(tmp_path, source, shown):
    """Refused before the dry run's word about --live-mcp: whatever the command, the file holds the key."""
    path = write(tmp_path, FROM % source)
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), PLAIN, HF, GITHUB)
    assert f"{path}:2:" in line and shown in line and "--allow-env" in line


def test_a_key_in_an_mcp_url_header_is_refused(tmp_path):
    path = write(tmp_path, "tools:\n  - from: {mcp_url: 'http://127.0.0.1:9/mcp', headers: {Authorization: "
                           f"'Bearer {PLAIN}'}}}}\nmessages:\n  - {{role: user, content: hi}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV), PLAIN)
    assert ('from: headers.Authorization holds 25 characters of text where a key goes (a header named for a '
            'credential)') in line and 'write Authorization: "Bearer $MY_API_KEY", then pass --allow-env MY_API_KEY' in line
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario

    with pytest.raises(ToolchoiceError) as caught:
        load_scenario(path)
    assert caught.value.hint.endswith('source_policy.policy(True, allow_env=("MY_API_KEY",))')


def test_mcp_sources_naming_variables_are_not_refused_as_keys(tmp_path):
    path = write(tmp_path, FROM % '"npx -y server --api-key $SERVER_KEY --model sk-tiny", env: {GITHUB_TOKEN: '
                                  '"$GITHUB_TOKEN"}')
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=ENV))
    assert "reads $SERVER_KEY" in line or "--live-mcp" in line


# ---- a Python caller's Scenario, never read from a file ----------------------------------------------------------

def test_a_python_scenario_holding_a_key_keeps_it_out_of_render_send_and_saves(tmp_path, monkeypatch):
    import httpx

    from toolchoice.providers import SendSettings
    from toolchoice.providers.core import jobs
    from toolchoice.providers.core.model import Message, ProviderSettings, Scenario

    monkeypatch.setenv("OPENAI_API_KEY", ENV["OPENAI_API_KEY"])
    scenario = Scenario(path="<python>", messages=(Message(role="user", content="hi"),), providers={"openai": ProviderSettings(
        extra={"api_key": OPENAI, "auth": {"token": PLAIN}}, headers={"X-Upstream": f"Bearer {XAI}"})})
    (shown,) = jobs.render(scenario, ["openai"])
    text = json.dumps(shown.to_json())
    for key in (OPENAI, PLAIN, XAI):
        assert key not in text and key[-12:] not in text
    assert shown.request.body["api_key"] == "[redacted]"
    bodies: list[bytes] = []
    reply = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": f"echo {OPENAI}"}}]}
    settings = SendSettings(transport=httpx.MockTransport(
        lambda r: bodies.append(r.content) or httpx.Response(200, json=reply)), retries=0)
    (translation,) = jobs.translations(scenario, ["openai"])
    result = jobs.send(scenario, translation, settings=settings, save=tmp_path / "saved")
    assert OPENAI.encode() in bodies[0]  # sent as the caller wrote it
    saved = [p.read_text(encoding="utf-8") for p in (tmp_path / "saved").rglob("*") if p.is_file()]
    assert saved
    for text in (json.dumps(result.document()), *saved):
        for key in (OPENAI, PLAIN, XAI):
            assert key not in text and key[-12:] not in text


def test_settings_secrets_finds_what_the_file_reader_refuses():
    from toolchoice.providers.core.model import ProviderSettings
    from toolchoice.providers.core.redaction import settings_secrets

    found = settings_secrets({"openai": ProviderSettings(
        extra={"prompt_cache_key": "my-cache-bucket-2026", "note": f"x {AWS} y", "password": "Basic " + PLAIN,
               "token": "$MY_TOKEN"},
        headers={"Authorization": f"Bearer {PLAIN}x", "X-Title": "a long plain title"}, api_key_env=AWS)})
    assert found == {AWS: "[redacted]", PLAIN: "[redacted]", PLAIN + "x": "[redacted]"}


def test_the_refusal_in_docs_scenarios_md_is_the_one_printed(tmp_path):
    write(tmp_path, HEAD + f"    extra:\n      auth: {{token: {OPENAI}}}\n")
    result = run_cli(["render", "lit.yaml"], env=ENV, cwd=tmp_path)
    page = (Path(__file__).parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert refused(result, OPENAI).strip() in page.splitlines()


@pytest.mark.parametrize("tool", ["{type: mcp, server_label: docs, server_url: 'https://mcp.example.com/%s/mcp'}",
                                  "{from: {mcp_url: 'https://mcp.example.com/%s/mcp'}}"])
def test_a_key_shape_in_an_mcp_server_url_path_is_refused(tmp_path, tool):
    """Such a path takes a key as $NAME (https://…/$MCP_PATH_KEY/…); written as text it was sent and shown as is."""
    path = write(tmp_path, f"tools:\n  - {tool % GITHUB}\nmessages:\n  - {{role: user, content: hi}}\n")
    line = refused(run_cli(["render", str(path), "-p", "openai-responses"], env=ENV), GITHUB)
    assert f"{path}:2:" in line and "holds 40 characters shaped like a GitHub token (gh…)" in line
    assert "$MCP_PATH_KEY" in line and "--allow-env MCP_PATH_KEY" in line
