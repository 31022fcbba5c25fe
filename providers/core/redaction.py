"""Keeping API keys out of everything shown or saved.

A *secret* is a resolved key value mapped to the placeholder it stands for (``{"sk-…": "$OPENAI_API_KEY"}``).
Redaction replaces it in text or in parsed data, before anything is laid out: rich wraps and cuts
lines, so a key that reaches the layout whole may leave it in two halves nobody can match.

What counts as the key in a text:

- the value itself and its escaped spellings (JSON ``\\"``/``\\\\``, ``\\/``, every character
  ``\\uXXXX``-escaped, base64);
- any piece of it at least ``PIECE`` characters long (a server that truncates, wraps or quotes
  only part of a key still gives most of it away).

A value shorter than ``MIN_SECRET_LENGTH`` is not a key anyone can redact without destroying the
text around it (``OPENAI_API_KEY=a`` would turn every ``a`` into a placeholder), so it is left
alone: the parsed results never depend on redaction (parsing reads the real bytes), only what is
shown does.

Only the standard library: `render` and `parse` use this without httpx.
"""

import base64
import functools
import json
import re
from typing import Any, Iterable, Mapping
from .json_text import dumps_indented

MIN_SECRET_LENGTH = 8  # shorter values are not redacted (see the module docstring)
PIECE = 12  # a run this long of a key's characters is redacted even when the rest is missing
_BLOCK = 6  # PIECE >= 2 * _BLOCK - 1: every PIECE-long run contains one whole aligned block
# a header whose name holds one of these words carries a credential: the providers' own (authorization, x-api-key,
# api-key, x-goog-api-key, x-amz-security-token) and a gateway's in front of them (x-portkey-api-key, helicone-auth,
# cf-aig-authorization, x-litellm-api-key), a session cookie. The mock and the proxy keep and echo none of them; a
# scenario's providers.<id>.headers may give them only as $NAME (core/scenario.py).
KEY_WORDS = frozenset({"key", "keys", "apikey", "apikeys", "auth", "authorization", "token", "secret", "secrets",
                       "cookie", "password", "passwd", "credential", "credentials", "signature",
                       # the same run together, as a server that lowercases names gets accessToken or XApiKey
                       "accesstoken", "authtoken", "apitoken", "sessiontoken", "bearertoken", "clientsecret",
                       "privatekey", "secretkey", "xapikey", "subscriptionkey"})
# a key word that says which request this is, not who sends it: the Idempotency-Key header
# (draft-ietf-httpapi-idempotency-key-header), Cloudflare AI Gateway's cf-aig-cache-key
NOT_KEYS = frozenset({("idempotency", "key"), ("cache", "key")})


def key_header(name: str) -> bool:
    """Whether a request header carries a credential (``KEY_WORDS``, one word of its name split at -, _ and . and
    where a capital follows a small letter: accessToken, XApiKey), whoever's it is: the provider's or a gateway's (a
    proxy in front of Portkey or Helicone gets both); not an Idempotency-Key or a cache key (``NOT_KEYS``)."""
    words = [w for w in re.split(r"[-_.]", re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", name).lower()) if w]
    return any(w in KEY_WORDS and (i == 0 or (words[i - 1], w) not in NOT_KEYS) for i, w in enumerate(words))


# What a key looks like where no name says so: the issuers' own prefixes, each with the least that follows it in a
# real key (model ids such as sk-tiny or xai-grok-4 fall short), bounded on both sides by a character no key holds.
# (name, the prefix shown, pattern, source). A scenario's providers.<id>.extra, header values, base URLs and
# api_key_env, and a from: server's command line, env and headers are refused holding one (core/literal_keys.py).
_EDGE, _END = r"(?<![A-Za-z0-9_-])", r"(?![A-Za-z0-9_-])"
KEY_SHAPES: tuple[tuple[str, str, str, str], ...] = (
    ("an Anthropic key", "sk-ant-", r"sk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{20,}",
     "secondary, read 2026-11-27 (no Anthropic page found that states the form): vibekit.bot/anthropic-api-key-format "
     "'Every Anthropic API key starts with sk-ant-api03-', 'sk-ant-oat01-… — an OAuth access token issued by the "
     "Claude CLI's claude setup-token'; claudeinsider.com/docs/api/authentication 'sk-ant-api03-xxxx'"),
    ("an OpenAI-style key", "sk-", r"sk-(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}",
     "secondary, read 2026-11-27: mongodb/kingfisher PR #68 'OpenAI API keys can now take different forms: sk-proj-, "
     "sk-svcacct-, sk-None-'; langflow-ai/langflow PR #12122 'sk-proj (project keys) sk- (legacy user account keys) "
     "sk-svcacct (service account keys) or sk-None'; DeepSeek's and OpenRouter's (sk-or-v1-) keys take the same form"),
    ("a Google API key", "AIza", r"AIza[0-9A-Za-z_-]{35}",
     "learn.microsoft.com/purview/sit-defn-google-api-key (read 2026-11-27): 'A combination of 39 characters', "
     "\"A token prefix (case-sensitive) 'AIza'\"; Google AI Studio now also issues keys starting AQ. "
     "(discuss.ai.google.dev/t/170415), which have no shape to tell them by"),
    ("an AWS access key id", "AKIA", r"(?:AKIA|ASIA)[A-Z0-9]{16}",
     "docs.aws.amazon.com STS GetAccessKeyInfo (read 2026-11-27): 'an access key ID (for example, "
     "AKIAIOSFODNN7EXAMPLE)', 'Access key IDs beginning with AKIA are long-term credentials ... beginning with ASIA "
     "are temporary credentials that are created using AWS STS operations'"),
    ("a Groq key", "gsk_", r"gsk_[A-Za-z0-9]{20,}",
     "secondary, read 2026-11-27: the kingfisher rule kingfisher.groq.1 'gsk_[a-zA-Z0-9]{52}' (citing "
     "howtorotate.com/docs/tutorials/groq/)"),
    ("an xAI key", "xai-", r"xai-(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{20,}",
     "secondary, read 2026-11-27: key detectors' 'xai- followed by 70-85 alphanumeric characters'; setup guides "
     "'Copy your API key (starts with xai-)'"),
    ("a Hugging Face token", "hf_", r"hf_[A-Za-z0-9]{30,}",
     "huggingface.co/docs/huggingface.js Credentials (read 2026-11-27): 'Pass { accessToken: \"hf…\" }'; "
     "detect-secrets' and gitleaks' rule 'hf_[a-zA-Z]{34}'"),
    ("a GitHub token", "gh", r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})",
     "github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available (read "
     "2026-11-27): 'ghp_ for Personal Access Tokens, gho_ for OAuth Access tokens, ghu_ for GitHub App "
     "user-to-server tokens, ghs_ for GitHub App server-to-server tokens, ghr_ for GitHub App refresh tokens'; "
     "fine-grained tokens github_pat_ (magnetikonline's gist: 93 characters)"),
)
_SHAPES = re.compile("|".join(f"(?P<s{i}>{_EDGE}(?:{pattern}){_END})" for i, (_, _, pattern, _) in
                              enumerate(KEY_SHAPES)))


def key_shapes(text: str) -> list[tuple[str, str, str]]:
    """The keys of a known shape in ``text``: (the key, what it looks like, the prefix a message may show)."""
    if not isinstance(text, str) or len(text) < 20:
        return []
    return [(m.group(), KEY_SHAPES[int(m.lastgroup[1:])][0], KEY_SHAPES[int(m.lastgroup[1:])][1])  # type: ignore
            for m in _SHAPES.finditer(text)]


# A field of a request body that carries a credential, by the words of its name (split at - _ . and where lower case
# turns upper: apiKey, x-api-key, client_secret, accessToken, auth.token): narrower than KEY_WORDS, since a body has
# fields named for keys that are none (prompt_cache_key, a thinking block's signature, max_tokens).
FIELD_WORDS = frozenset({"apikey", "auth", "authorization", "token", "secret", "password", "passwd", "credential",
                         "credentials", "cookie", "bearer"})
FIELD_PAIRS = frozenset({("api", "key"), ("access", "key"), ("secret", "key"), ("private", "key"), ("session", "key")})
# what a key written in such a field is: token68 characters (RFC 9110 §11.2) after one optional scheme word, so a
# chat template's "<|begin_of_text|>" under bos_token is no key
TOKEN68 = re.compile(r"(?:[A-Za-z]{1,8} )?([A-Za-z0-9._~+/=-]{%d,})" % MIN_SECRET_LENGTH)


def name_words(name: str) -> list[str]:
    """A field's or variable's name as lower-case words: api_key, apiKey, X-Api-Key, API_KEY all give api, key."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)]


def credential_field(name: str) -> bool:
    """Whether a body field (or a server's environment variable) named ``name`` carries a credential."""
    words = name_words(name)
    return (not FIELD_WORDS.isdisjoint(words) or any(pair in FIELD_PAIRS for pair in zip(words, words[1:]))
            or words == ["key"])


def literal_key(value: str) -> str | None:
    """The text a credential field holds as its key (after one scheme word), None when it holds none: a ``$NAME``
    reference, text shorter than MIN_SECRET_LENGTH, or text no key is made of."""
    if ENV_REFERENCE.fullmatch(value):
        return None
    found = TOKEN68.fullmatch(value)
    return found.group(1) if found else None


# a reference to a variable, alone or after one auth scheme word, as request_parts.SCHEMED_PLACEHOLDER reads it
ENV_REFERENCE = re.compile(r"(?:[A-Za-z]{1,20} )?\$(?:\{[A-Z_][A-Z0-9_]*\}|[A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])")
LITERAL_PLACEHOLDER = "[redacted]"


def settings_secrets(providers: Mapping[str, Any]) -> dict[str, str]:
    """The keys a scenario's per-provider settings hold as text (value -> ``[redacted]``): what a scenario file may
    not hold (core/literal_keys.py refuses it when the file is read), found again for a ``Scenario`` a Python caller
    built, so that every output and saved file leaves it out as it leaves out a key read from the environment."""
    found: dict[str, str] = {}

    def walk(value: Any, credential: bool) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, credential_field(str(key)))
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, credential)
        elif isinstance(value, str):
            literal = literal_key(value) if credential else None
            if literal:
                found[literal] = LITERAL_PLACEHOLDER
            for key, _, _ in key_shapes(value):
                found[key] = LITERAL_PLACEHOLDER

    for settings in providers.values():
        walk(getattr(settings, "extra", None) or {}, False)
        for name, value in (getattr(settings, "headers", None) or {}).items():
            walk(value, key_header(str(name)))
        for field in ("base_url", "endpoint", "api_key_env"):
            walk(getattr(settings, field, None), False)
    return usable_secrets(found)


def usable_secrets(secrets: Mapping[str, str]) -> dict[str, str]:
    """The secrets long enough to redact (value -> placeholder)."""
    return {value: name for value, name in secrets.items() if value and len(value) >= MIN_SECRET_LENGTH}


def spellings(value: str) -> set[str]:
    """A secret as it may appear in a text: verbatim, JSON-escaped, '/' escaped as '\\/', every
    character ``\\u``-escaped (either case of hex), and base64 of the value (each of the three
    alignments it may take inside a longer base64 text, e.g. ``user:KEY`` in Basic auth)."""
    escaped = json.dumps(value)[1:-1]
    forms = {value, escaped, value.replace("/", "\\/"), escaped.replace("/", "\\/")}
    units = [u for ch in value for u in _utf16_units(ord(ch))]
    forms.add("".join(f"\\u{u:04x}" for u in units))
    forms.add("".join(f"\\u{u:04X}" for u in units))
    forms.update(_base64_cores(value.encode("utf-8", "surrogatepass")))
    return {f for f in forms if f}


def _utf16_units(code: int) -> tuple[int, ...]:
    """JSON's \\u escapes are UTF-16 code units (computed here: no codec import, which can fail when
    the process has run out of file descriptors)."""
    if code < 0x10000:
        return (code,)
    code -= 0x10000
    return (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))


def _base64_cores(raw: bytes) -> set[str]:
    """The part of base64(prefix + raw + suffix) that depends only on ``raw``, for 0-2 prefix bytes."""
    cores = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw + b"\0\0").decode("ascii")
        start = 4 if offset else 0  # the first group mixes prefix bytes in
        whole = (offset + len(raw)) // 3  # groups made of prefix+raw bytes only
        core = encoded[start:whole * 4]
        if len(core) >= PIECE:
            cores.add(core)
            cores.add(core.replace("+", "-").replace("/", "_"))  # the URL-safe alphabet
    return cores


class Redactor:
    """Replaces every secret (any spelling, any long piece) in texts. Build once, apply often."""

    def __init__(self, secrets: Mapping[str, str]) -> None:
        self.secrets = usable_secrets(secrets)
        self._look, self._plain_look = _search_plan(tuple(self.secrets.items()))
        self._forms = self._look.forms

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def text(self, text: str) -> str:
        if not self._forms or not text:
            return text
        forms = (self._look if "\\u" in text else self._plain_look).candidates(text)
        if not forms:
            return text
        spans = [span for form, name in forms for span in _occurrences(text, form, name)]
        if not spans:
            return text
        if "\\" in text:  # a span must not split an escape: a lone "\\" left behind would break JSON text
            spans = [(*_whole_escapes(text, start, end), name) for start, end, name in spans]
        spans.sort(key=lambda span: (span[0], -span[1]))  # the longest match at a place names it
        merged: list[list[Any]] = []
        for start, end, name in spans:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end, name])
        out, at = [], 0
        for start, end, name in merged:
            out.append(text[at:start])
            out.append(name)
            at = end
        out.append(text[at:])
        return "".join(out)

    def _maybe_in(self, text: str) -> bool:
        """A quick look (C speed) before the exact search: could any secret be in ``text``?"""
        return (self._look if "\\u" in text else self._plain_look).maybe(text)

    def data(self, value: Any) -> Any:
        """``text`` applied to every string (keys included) inside parsed JSON, lists, tuples."""
        if not self._forms:
            return value
        if not isinstance(value, str) and not self._maybe_in(_dump(value)):
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a record (NamedTuple)
            return type(value)(*(self.data(v) for v in value))
        if isinstance(value, tuple):
            return tuple(self.data(v) for v in value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        return value

    def contains(self, text: str) -> bool:
        """Whether any spelling or long piece of a secret is in ``text``."""
        forms = (self._look if "\\u" in text else self._plain_look).candidates(text)
        return any(True for form, name in forms for _ in _occurrences(text, form, name))


_Forms = tuple[tuple[str, str], ...]  # (spelling, placeholder)

# Every match is at least MIN_SECRET_LENGTH (a whole short form) or PIECE (a run of a long one) characters
# long, so it holds a whole _WINDOW-character piece of the text starting at a multiple of _WINDOW (a run of
# m >= 2 * _WINDOW - 1 characters covers m - _WINDOW + 1 >= _WINDOW starts): cutting the text into such
# pieces and looking them up among every _WINDOW-character piece of every form misses no match, and costs
# one pass over the text whatever the number of keys, where a find per needle costs a pass per needle.
_WINDOW = 4
# When every form is at least PIECE characters long (a key of real length: every spelling and run of it), every
# match is too, so windows of _WIDE_WINDOW (PIECE >= 2 * _WIDE_WINDOW - 1) miss none either: a third fewer pieces
# to cut and look up (35 kB of JSON: ~0.8 -> ~0.55 ms).
_WIDE_WINDOW = 6
_CUTS = {width: re.compile(r".{%d}" % width, re.S) for width in (_WINDOW, _WIDE_WINDOW)}
# From this many needles on, the window look is the cheaper one (27 kB of JSON: ~0.45 ms whatever the keys;
# finds: ~0.4 ms per 40 needles, one 51-character key giving 39).
_WINDOWS_FROM = 40


class _Look:
    """How to find which forms may be in a text: a find per needle (few needles), or the text's windows
    looked up in an index of every form's windows (many)."""

    __slots__ = ("forms", "needles", "any_needle", "windows", "index", "cut")

    def __init__(self, forms: _Forms) -> None:
        self.forms = forms
        self.needles = frozenset(_needles(forms))
        # one pass for every needle: ~2x faster than a find per needle over a 27 kB loop (9 needles, 0.11 ms
        # against 0.2), the same on short texts; longest first, though any match will do. Only where it is used:
        # from _WINDOWS_FROM needles on the index is, and compiling the alternation would cost more than it
        few = self.needles and len(self.needles) < _WINDOWS_FROM
        self.any_needle = re.compile("|".join(re.escape(n) for n in sorted(self.needles, key=len, reverse=True))
                                     ) if few else None
        self.index: dict[str, list[int]] | None = None
        self.windows: frozenset[str] = frozenset()
        width = _WIDE_WINDOW if all(len(form) >= PIECE for form, _ in forms) else _WINDOW
        self.cut = _CUTS[width]
        if len(self.needles) >= _WINDOWS_FROM:
            self.index = {}
            for at, (form, _) in enumerate(forms):
                for i in range(len(form) - width + 1):
                    places = self.index.setdefault(form[i:i + width], [])
                    if not places or places[-1] != at:
                        places.append(at)
            self.windows = frozenset(self.index)

    def _any_needle_in(self, text: str) -> bool:
        return self.any_needle is not None and self.any_needle.search(text) is not None

    def maybe(self, text: str) -> bool:
        if self.index is None:
            return self._any_needle_in(text)
        return not self.windows.isdisjoint(self.cut.findall(text))

    def candidates(self, text: str) -> _Forms:
        """The forms that may occur in ``text`` (in their order: longest first), () when none can."""
        if self.index is None:
            return self.forms if self._any_needle_in(text) else ()
        hits = self.windows.intersection(self.cut.findall(text))
        if not hits:
            return ()
        index = self.index
        return tuple(self.forms[at] for at in sorted({at for window in hits for at in index[window]}))


@functools.lru_cache(maxsize=16)
def _search_plan(secrets: _Forms) -> tuple[_Look, _Look]:
    """What a Redactor of ``secrets`` (value, placeholder) searches for, in every text and in a text
    without ``\\u`` escapes. A command builds one Redactor per thing it shows or saves, every one from the
    same keys: built once per set of keys (immutable, shared by those Redactors)."""
    # (spelling, placeholder), longest first, so a long spelling wins over a shorter one inside it
    forms = tuple(sorted(((form, name) for value, name in secrets for form in spellings(value)),
                         key=lambda pair: len(pair[0]), reverse=True))
    # \u-escaped spellings can only be in a text that holds "\u": most texts skip them (and their needles)
    plain_forms = tuple((form, name) for form, name in forms if not form.startswith("\\u"))
    return _Look(forms), _Look(plain_forms)


def _escape_starts(text: str, at: int) -> bool:
    """Whether the backslash at ``at`` begins an escape (an odd run of backslashes ends there)."""
    run = 0
    while at - run >= 0 and text[at - run] == "\\":
        run += 1
    return run % 2 == 1


_HEX = frozenset("0123456789abcdefABCDEF")


def _unicode_escape_at(text: str, at: int) -> bool:
    """Whether ``text[at:at + 6]`` reads ``\\uXXXX`` (the caller knows the backslash begins an escape)."""
    return text.startswith("\\u", at) and len(text) >= at + 6 and all(c in _HEX for c in text[at + 2:at + 6])


def _whole_escapes(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened so that it holds any escape sequence (``\\n``, ``\\\\``, ``\\uXXXX``) it cuts
    into. A key's JSON-escaped spelling can match from the letter of an escape just before it (``\\n``
    followed by a key starting with ``n``): replacing from there would leave the backslash to escape the
    placeholder's first character."""
    for back in range(1, 6):  # start inside an escape that began ``back`` characters before it
        at = start - back
        if at < 0:
            break
        if text[at] == "\\" and _escape_starts(text, at) and (back == 1 or _unicode_escape_at(text, at)):
            start = at
            break
    for back in range(1, 6):  # end inside an escape that began ``back`` characters before it
        at = end - back
        if at < start:
            break
        if text[at] == "\\" and _escape_starts(text, at):
            if _unicode_escape_at(text, at):
                end = max(end, at + 6)
            elif back == 1:
                end = min(len(text), end + 1)
            break
    return start, end


def _needles(forms: Iterable[tuple[str, str]]) -> set[str]:
    """Every match contains one of these: a whole short form, or an aligned block of a long one."""
    return {form if len(form) < PIECE else form[at:at + _BLOCK]
            for form, _ in forms for at in range(0, max(1, len(form) - _BLOCK + 1), _BLOCK)}


def _dump(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):
        return repr(value)


def _occurrences(text: str, form: str, name: str) -> Iterable[tuple[int, int, str]]:
    """Spans of ``text`` holding ``form`` whole, or (for a form of PIECE characters or more) any run of
    at least PIECE consecutive characters of it. Found with str.find on aligned blocks of ``form``:
    every such run contains a whole block, so no run is missed."""
    if len(form) < PIECE:
        start = text.find(form)
        while start != -1:
            yield start, start + len(form), name
            start = text.find(form, start + len(form))
        return
    seen: set[tuple[int, int]] = set()
    for block_at in range(0, len(form) - _BLOCK + 1, _BLOCK):
        block = form[block_at:block_at + _BLOCK]
        hit = text.find(block)
        while hit != -1:
            # extend the match around this hit, aligned with the block's place in the form
            left, right = hit, hit + _BLOCK
            f_left, f_right = block_at, block_at + _BLOCK
            while left > 0 and f_left > 0 and text[left - 1] == form[f_left - 1]:
                left, f_left = left - 1, f_left - 1
            while right < len(text) and f_right < len(form) and text[right] == form[f_right]:
                right, f_right = right + 1, f_right + 1
            if right - left >= PIECE and (left, right) not in seen:
                seen.add((left, right))
                yield left, right, name
            hit = text.find(block, hit + 1)


def environment_secrets(environ: Mapping[str, str], names: tuple[str, ...] = ()) -> dict[str, str]:
    """Every provider key variable (and ``names``, and the names in ``$TOOLCHOICE_ALLOW_ENV``) set in
    the environment, as value -> $NAME, for redacting output that never went through the transport's
    ``prepare`` (render, parse, error lines). Values shorter than MIN_SECRET_LENGTH are left out."""
    from .capabilities import CAPABILITIES

    found: dict[str, str] = {}
    allowed = re.split(r"[,\s]+", environ.get("TOOLCHOICE_ALLOW_ENV", "").strip())
    for name in (*{n for cap in CAPABILITIES.values() for n in cap.key_env}, *names, *filter(None, allowed)):
        value = environ.get(name)
        if value and len(value) >= MIN_SECRET_LENGTH:
            found[value] = f"${name}"
    return found


def redact(text: str, secrets: Mapping[str, str]) -> str:
    """Every secret in ``text`` (any spelling, any long piece) replaced with its placeholder."""
    return Redactor(secrets).text(text)


def redact_data(value: Any, secrets: Mapping[str, str]) -> Any:
    """``redact`` applied to every string inside parsed JSON (and records)."""
    return Redactor(secrets).data(value)


def safe_json_text(text: str, parsed: Any, redactor: Redactor) -> str:
    """A body as received, for saving: redacted as text, formatting kept. When the key is in the
    decoded document and text redaction does not give exactly the document redacted value by value
    (a server that escaped the key character by character, in its own way), the decoded document,
    redacted, is written out again instead: nothing decodes back to the key."""
    shown = redactor.text(text)
    if parsed is None or not redactor or not redactor.contains(_dump(parsed)):
        return shown
    wanted = redactor.data(parsed)
    try:
        if json.loads(shown) == wanted:
            return shown
    except (ValueError, RecursionError):
        pass
    return dumps_indented(wanted)


_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 (but tab, newline), DEL and C1


# C0 but tab and newline, DEL, C1; the Unicode line and paragraph separators (a terminal or rich breaks the line
# there: a table row would split); the bidirectional overrides and isolates (they reorder what is shown); the
# zero-width space, non-joiner, joiner, word joiner and U+FEFF (they show as nothing: two tool names that differ
# by one would look the same).
_SHOWN_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069"
                            "\ufeff\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` with every control character but tab and newline written out visibly as ``\\u001b``
    (ESC, BEL, CR, DEL, the C1 range, U+2028/2029, the bidi controls, the zero-width characters, a lone
    surrogate a JSON \\ud800 escape decodes to, which no UTF-8 output can hold): text from outside (tool names,
    replies, servers) is data, and a terminal must not act on it. In a JSON text this is JSON's own escape: the value
    stays the same."""
    if not _SHOWN_CONTROL.search(text):
        return text
    return _SHOWN_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def visible_json(text: str) -> str:
    """``visible`` for JSON text (``json.dumps``' or ``json_text``'s, or a piece of it): its encoder escaped
    every C0 control already, so an ASCII text can hold only DEL raw, which one scan finds; anything else
    takes ``visible``'s look, which costs ~2.5 ns a character (20 ms for the 7.7 MB document of
    `run --repeat 200 --format json`)."""
    if text.isascii() and "\x7f" not in text:
        return text
    return visible(text)


def printable(text: str) -> str:
    """``text`` without terminal escape sequences and control characters (tabs and newlines stay):
    what a server writes into an error message must not move the cursor or recolour the terminal. What no escape
    sequence holds (a bidi control that reorders the line, U+2028 that breaks it) is written out (``visible``)."""
    text = _ANSI.sub("", text) if _CONTROL.search(text) else text  # C-speed look first: bodies can be large
    return visible(text) if not text.isascii() else text
