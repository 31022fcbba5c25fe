"""Keys with no prefix of their own, found by their look only where a sound rule exists (docs/keys.md "Keys in
bodies, prompts and replies"): an AWS secret access key beside an access key id in the same text, and Google's auth
keys (AQ.Ab...). Both sides are held: the key is hidden, and ordinary data of the same alphabet (a hex hash, base64,
a 40-character id with no access key id beside it, AWS's documented example) is shown as written."""

from __future__ import annotations

import json

import pytest

from toolchoice.providers.core.json_text import dumps_indented
from toolchoice.providers.core.redaction import Redactor, key_shapes, pattern_keys

# made of pieces, as the other key tests' are: no one's key
KEY_ID = "AKIA" + "Q3ZB7XK2" + "M9TR4WPL"
SESSION_ID = "ASIA" + "W2NV8HC5" + "R1LQ6YTD"
SECRET = "Zk3pQ8rT/2vXw+9LmN4b" + "Yc7HdJ1sFgA6eU0oWiKq"  # 40 of base64's alphabet, both cases and digits
AUTH_KEY = "AQ.Ab8" + "xY3_kL9mP2-qR7sT4vW1zB5nC8dF0gH6jK2lM4pQ7rS9tU"  # 53 characters, as quoted ones hold


def shown(text: str) -> str:
    return Redactor({}).text(text)


@pytest.mark.parametrize("text", [
    f"[default]\naws_access_key_id = {KEY_ID}\naws_secret_access_key = {SECRET}\n",  # ~/.aws/credentials
    f"AWS_ACCESS_KEY_ID={KEY_ID}\nAWS_SECRET_ACCESS_KEY={SECRET}\nAWS_SESSION_TOKEN=x",  # an env listing
    f"my keys are {SESSION_ID} and {SECRET}, please fix the script",  # pasted into a prompt
    f"{SECRET} {KEY_ID}",  # either order
])
def test_a_secret_access_key_beside_an_access_key_id_is_hidden(text):
    out = shown(text)
    assert SECRET not in out and SECRET[:20] not in out and KEY_ID not in out and "[redacted]" in out


def test_in_json_text_and_in_a_body_it_is_hidden_as_in_its_string():
    body = {"messages": [{"role": "user", "content": f"creds:\n{KEY_ID}\n{SECRET}"}],
            "note": f"\x1b{SECRET}"}  # the key after an escape in the JSON text: \u001b and the key read as one run
    redactor = Redactor({}, found=pattern_keys(body))
    for text in (shown(json.dumps(body)), shown(dumps_indented(body)), redactor.document(body),
                 json.dumps(redactor.data(body))):
        assert SECRET not in text and SECRET[4:16] not in text  # the note's copy: found by value (pattern_keys)
    assert SECRET in pattern_keys(body)


@pytest.mark.parametrize("text", [
    f"no key id here, only {SECRET}",  # alone: a piece of base64 or an id, shown
    f"{KEY_ID} commit 3f786850e387550fdab836ed7e6dc881de23001b",  # a hex hash: one case only
    f"{KEY_ID} DA39A3EE5E6B4B0D3255BFEF95601890AFD80709",  # upper-case hex too
    f"{KEY_ID} data:image/png;base64,{SECRET}{SECRET}==",  # base64 longer than 40
    f"{KEY_ID} {SECRET}=",  # followed by base64's padding
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS's documented example
    f"{KEY_ID} wJalrXUtnFEMI/K7MDENG/bPxRfiC+EXAMPLEKEY",  # the example secret beside a real-looking id
])
def test_ordinary_data_of_the_same_alphabet_is_shown(text):
    out = shown(text)
    rest = text.replace(KEY_ID, "[redacted]")
    assert out == rest


def test_a_google_auth_key_is_found_by_its_look_and_words_are_not():
    assert key_shapes(f"key {AUTH_KEY} here") == [(AUTH_KEY, "a Google auth key", "AQ.")]
    assert shown(f"GEMINI_API_KEY={AUTH_KEY}\n") == "GEMINI_API_KEY=[redacted]\n"
    assert shown(f"https://generativelanguage.googleapis.com/v1beta/models?x={AUTH_KEY}") .endswith("x=[redacted]")
    for text in ("AQ.About-the-release-notes-of-version-2024-and-more", "see AQ.Ab1 and AQ.Ab2"):
        assert shown(text) == text and key_shapes(text) == []
    # a JWT whose payload ends in AQ: no Google auth key inside it, but the JWT whole (its header holds "alg")
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0AQ.Ab8xY3kL9mP2qR7sT4vW1zB5nC8dF0gH6jK2lM4pQ7rS9tU"
    assert key_shapes(jwt) == [(jwt, "a JSON Web Token", "eyJ")] and shown(jwt) == "[redacted]"
