"""The key shapes of Perplexity (pplx-), Cerebras (csk-), Together (tgp_v1_), Fireworks (fw_) and Google's OAuth
access tokens (ya29.) (core/key_looks.py's KEY_SHAPES, sources there): a key of one pasted into a prompt is hidden in
render's and send's --format json, in send's --save files (a stream's too) and in the mock's records, as the rows
before them are; names that merely begin so (fw_version, csk-config, pplx-api-docs, ya29.example) are shown and sent
as written, and a scenario holding one is not refused."""

from __future__ import annotations

import json
import secrets
import string
from pathlib import Path

import pytest

from cli import run_cli

# made up here, in each issuer's form (none is anyone's key): the length and alphabet each row's sources give
_RANDOM = secrets.SystemRandom(17)
_ALNUM = string.ascii_letters + string.digits


def _made(alphabet: str, n: int) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(n))


KEYS = {
    "a Perplexity key": "pplx-" + _made(_ALNUM, 47) + "7",
    "a Cerebras key": "csk-" + _made(string.ascii_lowercase + string.digits, 47) + "4",
    "a Together key": "tgp_v1_" + _made(_ALNUM + "_-", 42) + "Q",
    "a Fireworks key": "fw_" + _made(_ALNUM, 23) + "b",
    "a Google OAuth access token": "ya29." + "a0AfH6" + _made(_ALNUM + "_-", 150) + "9",
}
NAMES = ["fw_version", "csk-config", "pplx-api-docs", "ya29.example", "fw_FirmwareUpdatePackageV2024",
         "csk-" + "clusterconfigurationbackupfilesforthenightlyjob2024",  # 48 lower-case letters and digits: words
         "tgp_v1_" + "Together-Config-Settings-2024-abcdefghijklm", "pplx-" + "x" * 48, "ya29.mock-access-token"]
HEAD = ("tools:\n  - name: get_weather\n    description: Get the weather.\n"
        "    parameters: {type: object, properties: {city: {type: string}}}\n")
ENV = {"OPENAI_API_KEY": "sk-own-key-not-under-test-0000", "PATH": "/usr/bin:/bin"}


def _scenario(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + f"messages:\n  - {{role: user, content: {json.dumps(text)}}}\n", encoding="utf-8")
    return path


def test_each_shape_is_found_whole_and_names_are_not() -> None:
    from toolchoice.providers.core.redaction import key_shapes, redact_patterns

    for shape, key in KEYS.items():
        assert [(found, what) for found, what, _ in key_shapes(f"my key is {key}, thanks")] == [(key, shape)]
        assert redact_patterns(f'"\\n{key}"') == '"\\n[redacted]"'  # in JSON text, after an escape's letter
    for name in NAMES:
        assert key_shapes(f"see {name} here: a name, not a key") == [], name
    # a longer token holding a dot is hidden whole, not up to the dot
    dotted = KEYS["a Google OAuth access token"] + ".Zq8" + "Lm3Rt6" * 4
    assert [found for found, _, _ in key_shapes(f"Bearer-less {dotted}.")] == [dotted]


def test_keys_in_a_prompt_are_hidden_in_render_and_send_json_saves_and_streams(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    text = "Use these: " + " ".join(KEYS.values()) + " and these names: " + " ".join(NAMES)
    path = _scenario(tmp_path, text)
    rendered = run_cli(["render", str(path), "-p", "openai", "-f", "json"], env=ENV)
    assert rendered.returncode == 0, rendered.stderr
    with running_mock("openai", save_dir=str(tmp_path / "mock")) as mock:
        sent = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "-f", "json",
                        "--save", str(tmp_path / "send")], env=ENV)
        streamed = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--stream",
                            "--save", str(tmp_path / "stream")], env=ENV)
        records = json.dumps(list(mock.records))
    assert sent.returncode in (0, 1) and streamed.returncode in (0, 1), sent.stderr + streamed.stderr
    saved = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "s.yaml"]
    assert len(saved) >= 4
    shown = [rendered.stdout, sent.stdout, streamed.stdout, sent.stderr, streamed.stderr, records,
             *(p.read_text(encoding="utf-8", errors="replace") for p in saved)]
    for key in KEYS.values():
        assert not any(key[:20] in out or key[-12:] in out for out in shown), key[:8]
    content = json.loads(rendered.stdout)["request"]["body"]["messages"][-1]["content"]
    assert content.count("[redacted]") == len(KEYS)
    for name in NAMES:  # shown as written
        assert name in content and name in json.loads(sent.stdout)["request"]["body"]["messages"][-1]["content"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_in_extra_is_not_refused_and_a_key_is(tmp_path: Path, name: str) -> None:
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario_text

    base = HEAD + "messages:\n  - {role: user, content: hi}\nproviders:\n  openai:\n    extra:\n"
    load_scenario_text(base + f"      metadata: {{note: {json.dumps(name)}}}\n", "s.yaml")
    key = KEYS[sorted(KEYS)[NAMES.index(name) % len(KEYS)]]
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_text(base + f"      metadata: {{note: {json.dumps(key)}}}\n", "s.yaml")
    assert key not in str(caught.value) and "shaped like" in caught.value.message
