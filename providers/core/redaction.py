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
from typing import Any, Callable, Iterable, Mapping
from .json_text import dumps_indented
from .shown_text import printable, visible, visible_json  # noqa: F401 (where most callers import them)
from .key_looks import (ENV_REFERENCE, FIELD_PAIRS, FIELD_WORDS, KEY_SHAPES, LITERAL_PLACEHOLDER,  # noqa: F401 - theirs
                        MIN_SECRET_LENGTH, TOKEN68, _escape_starts, _pattern_data, _pattern_spans, _unicode_escape_at,
                        credential_field, key_shapes, literal_key, may_hold_look, name_words, pattern_keys,
                        redact_patterns, secret_field)

PIECE = 12  # a run this long of a key's characters is redacted even when the rest is missing
# The keys a body holds by their look (Redactor's found) searched for in every spelling (JSON- and \\u-escaped,
# base64); the others (up to body_secrets.FOUND_AT_MOST) as written: every spelling of a key costs ~95 kB of index,
# its text alone ~9 kB (docs/keys.md "Keys in bodies, prompts and replies").
SPELLED_FOUND = 256
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


_U_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}")


def _u_unescaped(match: re.Match[str]) -> str:
    """A \\u escape (or a pair of them) as its character; kept where JSON text needs it (a quote, a backslash, a
    control) or no UTF-8 file holds the character (a lone surrogate)."""
    char = json.loads(f'"{match.group()}"')
    return match.group() if "\ud800" <= char[0] <= "\udfff" or char in '"\\' or char < " " else char


class Redactor:
    """Replaces every secret (any spelling, any long piece) in texts, and (``patterns``) every key found by its look
    whoever's it is (``redact_patterns``: a KEY_SHAPES key, a credential field's value, a URL's ?key=): a key a
    client sent in a body, a user pasted into a prompt or a model echoed. Build once, apply often."""

    def __init__(self, secrets: Mapping[str, str], patterns: bool = True,
                 found: Mapping[str, str] | None = None, spelled: int | None = None) -> None:
        """``found``: keys a body held by their look (``pattern_keys``), searched for by value (any piece; every
        spelling of the first SPELLED_FOUND, the text itself of the others) after ``patterns`` replaced them whole: a
        text holding thousands of keys costs one pass, not a search for each key's common prefix (sk-proj-) at each
        of thousands of places. ``spelled``: how many of ``secrets`` are searched in every spelling (all: None)."""
        self.secrets = usable_secrets(secrets)
        self.patterns = patterns
        items = tuple(self.secrets.items())
        self._look, self._plain_look = _search_plan(items[:spelled], items[spelled:] if spelled is not None else ())
        self._forms = self._look.forms
        found = {value: name for value, name in (found or {}).items() if value not in self.secrets}
        self._found = Redactor(found, patterns=False, spelled=SPELLED_FOUND) if found and patterns else None

    def __bool__(self) -> bool:
        return bool(self.secrets) or self.patterns

    def text(self, text: str) -> str:
        if not text:
            return text
        # the keys found by their look first, whole (a key known by value keeps its $NAME): what is left for the
        # search by value is what no look finds (a piece, an escaped spelling), and a text of thousands of keys of
        # one issuer is not searched at each of them for their common prefix (sk-ant-api03-: a 12-character piece)
        shown = redact_patterns(text, self.secrets) if self.patterns else text
        shown = self._secrets_text(shown) if self._forms else shown
        return self._found._secrets_text(shown) if self._found is not None else shown

    def _secrets_text(self, text: str) -> str:
        shown = self._spelled_text(text)
        if "\\u" in shown:  # a key some of whose characters a server \u-escaped its own way (JSON lines, an SSE
            decoded = _U_ESCAPE.sub(_u_unescaped, shown)  # stream: no document to decode): found decoded
            if decoded != shown and self._maybe_in(decoded):
                again = self._spelled_text(decoded)
                return again if again != decoded else shown
        return shown

    def _spelled_text(self, text: str) -> str:
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
        """``text`` applied to every string (keys included) inside parsed JSON, lists, tuples; with ``patterns``, a
        value under a credential field too (``_pattern_data``)."""
        shown = value
        dumped = _dumped(value) if self.patterns and self._found is None and not isinstance(value, str) else None
        if dumped is not None and not may_hold_look(dumped):  # no look in any string: the walk would change none
            if not self._forms or not self._maybe_in(dumped):
                return value
            dumped = None  # not held while each part is searched (each dumps its own)
            return self._secrets_data(value)
        if self.patterns:  # the body's keys by value in the same walk (found: they are not self.secrets)
            try:
                shown = _pattern_data(value, self.secrets, then=self._found._secrets_text if self._found else None)
            except RecursionError:  # nested past the stack: nothing of it is shown rather than a key
                return LITERAL_PLACEHOLDER
        if self._forms and shown is value and dumped is not None and not self._maybe_in(dumped):
            return value
        dumped = None
        return self._secrets_data(shown) if self._forms else shown

    def _secrets_data(self, value: Any) -> Any:
        if not isinstance(value, str):
            dumped = _dump(value)  # a string's own "\u" (a text that is not JSON: _secrets_text decodes it) looked into
            if not self._maybe_in(dumped) and "\\\\u" not in dumped:
                return value
        if isinstance(value, str):
            return self._secrets_text(value)
        if isinstance(value, list):
            return [self._secrets_data(v) for v in value]
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a record (NamedTuple)
            return type(value)(*(self._secrets_data(v) for v in value))
        if isinstance(value, tuple):
            return tuple(self._secrets_data(v) for v in value)
        if isinstance(value, dict):
            return {self._secrets_text(k) if isinstance(k, str) else k: self._secrets_data(v) for k, v in value.items()}
        if isinstance(value, (int, float)) and not isinstance(value, bool):  # a key's digits in a number: the
            written = _dump(value)  # number's text redacted, as a string (redacted in the JSON text, the document
            shown = self._secrets_text(written)  # read no more: "n": $NAME)
            return value if shown == written else shown
        return value

    def document(self, value: Any, dump: Callable[[Any], str] = dumps_indented) -> str:
        """``value`` as the JSON text ``dump`` writes (a save's ``json_text.dumps_indented``; ``--format json``'s
        ``cli.output.dumps``, the same text), redacted: what ``self.text(dump(self.data(value)))`` gives, in one pass
        over the data where the text pass could add nothing (``_TextAgain``: it is done only on the strings it could
        change, as their JSON text)."""
        return self._document(value, dump)[0]

    def document_alone(self, value: Any, dump: Callable[[Any], str] = dumps_indented) -> str | None:
        """``document``'s text where it read each string of ``value`` alone; None where it read the whole JSON text
        (a key's spelling could match across a quote or in the document's numbers, a member's name held a key, a
        string nested past the stack). A document built from values already redacted as ``data`` is the same text
        where this one is not None (parse --format json skips that early pass: tests/test_parse_json_one_pass.py);
        not always where the whole text is read: an AWS secret is found there beside an access key id another string
        holds, which the early pass may have redacted first."""
        text, alone = self._document(value, dump)
        return text if alone else None

    def _document(self, value: Any, dump: Callable[[Any], str]) -> tuple[str, bool]:
        """(``document``'s text, whether each string was read alone rather than the whole text)."""
        shown = self.data(value)
        again = _text_again(self)
        if again is None:  # a key's spelling could match across a quote or in the document's numbers: both passes
            return self.text(dump(shown)), False
        text = dump(shown)
        if "AKIA" in text or "ASIA" in text:  # an AWS secret is a key beside an access key id in the same text
            return self.text(text), False  # (key_looks._aws_secret_spans): the text pairs them across strings
        # a string JSON escapes is redone only when a key's spelling or piece may be in the text at an escape
        again.escaped = "\\" in text and again.pieces_in(again.at_escapes(text))
        if shown is value and not again.escaped:  # data changed nothing
            return text, True
        try:
            redone = again.walk(shown, value)
        except (RecursionError, ValueError):
            return self.text(text), False
        return (text if redone is shown else dump(redone)), True

    def contains(self, text: str) -> bool:
        """Whether any spelling or long piece of a secret, or a key found by its look, is in ``text``."""
        if self.patterns and (_pattern_spans(text) or (self._found is not None and self._found.contains(text))):
            return True
        forms = (self._look if "\\u" in text else self._plain_look).candidates(text)
        if any(True for form, name in forms for _ in _occurrences(text, form, name)):
            return True
        decoded = _U_ESCAPE.sub(_u_unescaped, text) if "\\u" in text and self._forms else text
        return decoded != text and self.contains(decoded)


# What the text of a JSON document holds outside its strings (indented by dumps_indented): structure, whitespace,
# numbers (NaN and Infinity too), true, false, null. A key's spelling made only of these could match there.
_OUTSIDE_STRINGS = frozenset(" \n{}[],:0123456789+-.eEtruefalsnNaIiy")
_OUTSIDE_ALL = re.compile("[%s]+" % re.escape("".join(sorted(_OUTSIDE_STRINGS))))
_OUTSIDE_RUN = re.compile("[%s]{%d}" % (re.escape("".join(sorted(_OUTSIDE_STRINGS))), PIECE))
_AFTER_ESCAPE = re.compile(r'\\([nrtbf][^"\\]{0,16}|u[0-9a-fA-F]{4}[^"\\]{0,16})')  # an escape's letters, what follows
_JSON_ESCAPED = re.compile(r'["\\\x00-\x1f]')  # what dumps_indented escapes in a string (ensure_ascii=False)


class _TextAgain:
    """Where ``Redactor.text`` over a document's JSON text could still change what ``Redactor.data`` gave, when no
    spelling of a key holds a quote nor a run of characters that can stand outside a string (a match then lies inside
    one string's JSON text): a string ``data`` changed (the text pass may find a key's shape or piece that a
    placeholder now borders, as the second pass over the text did), and, when a key's spelling or piece may be in the
    text, a string holding a character JSON escapes (an escape's letter and a key's characters may make a longer run
    in its JSON text than in the string). Any other string reads the same in the text and was searched by ``data``
    with the same looks (tests/test_redaction_one_pass.py compares the two on generated documents)."""

    def __init__(self, redactor: "Redactor", plain_forms: bool) -> None:
        self.redactor = redactor
        self.plain_forms = plain_forms  # no spelling holds a backslash but the \\u-escaped ones
        self.escaped = True  # whether a string JSON escapes may need its text redacted (Redactor.document says)

    def at_escapes(self, text: str) -> str:
        """What of a document's JSON text a match the data pass did not make could hold: each escape's letters and
        the 16 characters after it (a run starting at an escape's letter: no spelling but the \\u ones holds a
        backslash, and those match no escape of a character a key is made of), once each; the whole text when a
        spelling of a key holds a backslash (it could end at the next escape's)."""
        if not self.plain_forms:
            return text
        return '"'.join(set(_AFTER_ESCAPE.findall(text)))

    def pieces_in(self, text: str) -> bool:
        """Whether a spelling or piece of a key given by value may be in ``text`` (the C-speed look only)."""
        return self.redactor._maybe_in(text) or (self.redactor._found is not None
                                                 and self.redactor._found._maybe_in(text))

    def walk(self, shown: Any, given: Any) -> Any:
        """``shown`` (``data``'s output for ``given``: the same object where it changed nothing) with each such
        string as ``Redactor.text`` leaves its JSON text; the same object when none changes."""
        if shown is given and not self.escaped:
            return shown
        if isinstance(shown, str):
            changed = shown is not given
            if not changed and not _JSON_ESCAPED.search(shown):
                return shown
            escaped = json.dumps(shown, ensure_ascii=False)[1:-1]
            if not changed and not self.pieces_in(escaped):
                return shown
            redone = self.redactor.text(escaped)
            return shown if redone == escaped else json.loads(f'"{redone}"')
        if isinstance(shown, dict):
            pairs = list(given.items()) if isinstance(given, dict) and len(given) == len(shown) else None
            if isinstance(given, dict) and (pairs is None or any(k != was for k, (was, _) in zip(shown, pairs))):
                # a member's name held a key: the text pass reads the member under its redacted name (a credential's
                # name now: its value is taken too) and keeps two names redacted alike apart; document falls back
                raise ValueError("a member's name was redacted")
            out: dict[Any, Any] | None = None
            for at, (key, item) in enumerate(shown.items()):
                was_key, was = pairs[at] if pairs is not None else (None, None)
                new_key = self.walk(key, was_key) if isinstance(key, str) else key
                if new_key is not key:
                    raise ValueError("a member's name is redacted as text")
                new = self.walk(item, was)
                if out is None and new is not item:
                    out = dict(list(shown.items())[:at])
                if out is not None:
                    out[key] = new
            return shown if out is None else out
        if isinstance(shown, (list, tuple)):
            olds = list(given) if isinstance(given, (list, tuple)) and len(given) == len(shown) else [None] * len(shown)
            items = [self.walk(item, old) for item, old in zip(shown, olds)]
            if all(a is b for a, b in zip(items, shown)):
                return shown
            return items if isinstance(shown, list) else type(shown)(*items) if hasattr(shown, "_fields") else tuple(
                items)
        return shown


def _text_again(redactor: "Redactor") -> _TextAgain | None:
    """The strings to redact again as text, or None when the text pass must be done over the whole document."""
    found = redactor._found
    plain = _again_plan(redactor._look, redactor._plain_look, found._look if found is not None else None,
                        found._plain_look if found is not None else None)
    return None if plain is None else _TextAgain(redactor, plain)


@functools.lru_cache(maxsize=16)
def _again_plan(look: "_Look", plain_look: "_Look", found_look: "_Look | None",
                found_plain: "_Look | None") -> bool | None:
    """For ``_text_again``, per set of spellings (``_search_plan`` shares them between Redactors of the same keys,
    so a command's documents pay this once: ~0.1 ms for one key's 20 spellings): None when a key's spelling could
    match across a quote or in a document's numbers, else whether no spelling but the ``\\u`` ones holds a character
    JSON escapes (every key's own text is one of its plain spellings: a key holding one has it there)."""
    forms = [form for form, _ in look.forms] + ([form for form, _ in found_look.forms] if found_look else [])
    joined = "\x00".join(forms)  # one search each over every spelling (a body's hundreds of keys)
    if '"' in joined or _OUTSIDE_RUN.search(joined) or any(
            _OUTSIDE_ALL.fullmatch(form) for form in forms if len(form) < PIECE):
        return None
    plain = plain_look.forms + (found_plain.forms if found_plain is not None else ())
    return not any(_JSON_ESCAPED.search(form) for form, _ in plain)


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
def _search_plan(secrets: _Forms, verbatim: _Forms = ()) -> tuple[_Look, _Look]:
    """What a Redactor of ``secrets`` (value, placeholder) searches for, in every text and in a text
    without ``\\u`` escapes; ``verbatim``: keys searched for as written (and with ``/`` JSON-escaped) only. A
    command builds one Redactor per thing it shows or saves, every one from the same keys: built once per set of
    keys (immutable, shared by those Redactors)."""
    # (spelling, placeholder), longest first, so a long spelling wins over a shorter one inside it
    written = ((form, name) for value, name in verbatim for form in {value, value.replace("/", "\\/")})
    forms = tuple(sorted([*((form, name) for value, name in secrets for form in spellings(value)), *written],
                         key=lambda pair: len(pair[0]), reverse=True))
    # \u-escaped spellings can only be in a text that holds "\u": most texts skip them (and their needles)
    plain_forms = tuple((form, name) for form, name in forms if not form.startswith("\\u"))
    return _Look(forms), _Look(plain_forms)


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


def _dumped(value: Any) -> str | None:
    """``value``'s JSON text, None where json.dumps cannot write it (nested past the stack, a loop, a key that
    is no text or number) or anything else raised."""
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except Exception:  # noqa: BLE001 - the walk reads it then, as before
        return None


def _dump(value: Any) -> str:
    """``_dumped``'s text, or ``repr`` where there is none."""
    dumped = _dumped(value)
    return repr(value) if dumped is None else dumped


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
