"""A command line as output shows it: the values of its secret-named parts hidden, everything else as written.

A stdio MCP server is commonly started with a secret on its command line (``--token X``, ``--api-key=X``,
``-H 'Authorization: Bearer X'``, ``GITHUB_TOKEN=X npx ...``, ``https://user:pass@host``, ``?api_key=X``). Such a
token need not look like any issuer's key (``redaction`` finds those by their shape), so it is found by the name
that holds it: an option (``--opt value``, ``--opt=value``, ``-opt value``), a ``NAME=value`` word, a header
(``Name: value``, its scheme word kept), a URL's user info and query parameters, whose name says secret (key,
token, secret, password, passwd, pass, pwd, auth, authorization, credential, bearer, cookie, with -, _, . and
camelCase variants, ``PGPASSWORD`` too). Its value becomes ``[redacted]`` (the placeholder every output uses,
``key_looks.LITERAL_PLACEHOLDER``); a ``$NAME`` reference is kept, as it names a variable, not a value. A name
that says where a secret is rather than what it is (``--token-file``, ``--api-key-env``, ``--auth-url``), a
count (``--max-tokens``) or a negated flag (``--no-auth``) is not secret. What the command runs with is never
changed: this is what is shown of it.

Only the standard library (and ``key_looks``): an error line imports it.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
from typing import Any, Callable, Collection, Mapping

from .key_looks import ENV_REFERENCE, LITERAL_PLACEHOLDER, MIN_SECRET_LENGTH, name_words, redact_patterns

HIDDEN = LITERAL_PLACEHOLDER

# a word of a name that says its value is a secret (redaction.KEY_WORDS and the words a command line spells)
_SECRET_WORDS = frozenset({"key", "keys", "apikey", "apikeys", "auth", "authorization", "token", "secret", "secrets",
                           "password", "passwd", "pass", "passphrase", "pwd", "credential", "credentials", "bearer",
                           "cookie", "signature", "sig", "pat", "accesstoken", "authtoken", "apitoken",
                           "sessiontoken", "bearertoken", "clientsecret", "privatekey", "secretkey", "xapikey",
                           "subscriptionkey"})
# a word holding one of these run together with others (PGPASSWORD, MYSQLPWD is too short to tell)
_SECRET_PARTS = ("password", "passwd", "secret", "apikey", "authtoken", "accesstoken")
# a last word that says where a secret is, or about it, not what it is: --token-file, --api-key-env, --auth-url
_NOT_VALUE = frozenset({"file", "files", "path", "dir", "env", "var", "name", "url", "uri", "endpoint", "type", "kind",
                        "mode", "method", "scheme", "header", "length", "size", "limit", "count", "id", "ids", "ttl",
                        "timeout", "expiry", "expires", "prefix", "command", "cmd", "helper", "provider", "store"})
_NOT_PAIRS = frozenset({("idempotency", "key"), ("cache", "key")})
_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "apikey"})
_HEADER_OPTIONS = frozenset({"H", "header", "headers"})
_USER_OPTIONS = frozenset({"u", "user"})  # curl's -u user:password
# a shell word as written: unquoted characters, a backslash and the next, '...' or "..." (each alternative begins
# with its own character: linear)
_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+""", re.S)
_NAME_EQUALS = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]{0,127})=")
_HEADER = re.compile(r"([A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}):[ \t]*(.*)", re.S)
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,31}://)([^\s/?#]*)@")
_QUERY = re.compile(r"([?&;])([A-Za-z_][A-Za-z0-9_.-]{0,63})=([^&#;\s]*)")
# a name secret_name may say holds a secret has one of these (a quick look first: ~280 variables in a test runner)
_MAYBE_SECRET = re.compile(r"(?i)key|auth|token|secret|pass|pwd|credential|bearer|cookie|sig|pat")
_PLAIN = re.compile(r"[A-Za-z0-9_@%+=:,./\[\]$-]+")  # shown without quotes


MAX_COMMAND = 32 * 4096  # characters of a command line read here: Linux's MAX_ARG_STRLEN (32 pages), one argument's
LONG_COMMAND_HINT = "start the server from a script that holds its arguments"


def long_command(command: str) -> str | None:
    """Why ``command`` is too long to read (split, shown), or None. shlex's split of one long word takes time growing as
    its square (a 300,000-character word: ~1.2 s a split), and a scenario's ``from: mcp`` may be as long as its file."""
    if len(command) <= MAX_COMMAND:
        return None
    return (f"the command line is {len(command):,} characters; toolchoice takes at most {MAX_COMMAND:,} (Linux's "
            "longest single argument, MAX_ARG_STRLEN)")


@functools.lru_cache(maxsize=8)
def split_command(command: str) -> tuple[str, ...]:
    """``shlex.split(command)`` (ValueError for unbalanced quotes), split once for all who ask: a line near
    MAX_COMMAND took ~0.4 s a split, and its shown form, the scenario's key check, the argv and the listing's name
    each split it (~1.5 s for one `tools --mcp`)."""
    return tuple(shlex.split(command))


def secret_name(name: str) -> bool:
    """Whether an option, variable, header or query parameter named ``name`` holds a secret as its value."""
    words = name_words(name.lstrip("-"))
    if not words or words[0] == "no" or words[-1] in _NOT_VALUE:
        return False
    for i, word in enumerate(words):
        if (word in _SECRET_WORDS or any(part in word for part in _SECRET_PARTS)) and (
                i == 0 or (words[i - 1], word) not in _NOT_PAIRS):
            return True
    return False


def shown_command(command: str | list[str], known: Collection[str] = ()) -> str:
    """``command`` (a command line, or its words) with the value of every secret-named part as ``[redacted]``, and
    every word (or ``--opt=`` value) that is a secret the job knows, whatever it starts with: a value that starts
    with "-" (``--token -x...``) is not told from a flag by its place. Known: the value of each environment variable
    whose name says secret (``GITHUB_TOKEN``, ``OPENAI_API_KEY``), and ``known`` (the server's ``env`` values),
    those of MIN_SECRET_LENGTH characters or more (an ordinary flag is never hidden for being one)."""
    return _shown(command, lambda value: None, known)


def command_secrets(command: str | list[str], known: Collection[str] = ()) -> list[str]:
    """The values ``shown_command`` hides (for redacting them from what the command's process writes)."""
    found: list[str] = []
    _shown(command, found.append, known)
    return list(dict.fromkeys(found))


def env_secrets(env: Mapping[str, str] | None) -> list[str]:
    """The values of a server's ``env`` whose names say secret (``env: {API_TOKEN: ...}``), for ``known``."""
    return [value for name, value in (env or {}).items() if secret_name(name)]


_SHELL_DIRS = frozenset({"PWD", "OLDPWD"})  # the shell's folders: "pwd" says password elsewhere (MYSQL_PWD), not here


def known_secrets(known: Collection[str] = ()) -> frozenset[str]:
    """The secrets ``shown_command`` hides wherever they stand: the environment's secret-named values and ``known``,
    each of MIN_SECRET_LENGTH characters or more."""
    found = {value for name, value in os.environ.items() if len(value) >= MIN_SECRET_LENGTH and
             name not in _SHELL_DIRS and _MAYBE_SECRET.search(name) and secret_name(name)}
    return frozenset(found | {value for value in known if len(value) >= MIN_SECRET_LENGTH})


def hide_echoes(text: str, values: list[str]) -> str:
    """``text`` (what the command's process or a parser said of it) with each of ``values`` (``command_secrets``) as
    ``[redacted]`` where it stands as a word of its own: ``redaction.Redactor`` hides those of 8 characters or more
    in every spelling and piece, and leaves shorter ones, which as a word of their own are hidden here (but for
    those under 4 characters, which would take ordinary words with them)."""
    for value in sorted((v for v in values if len(v) >= 4), key=len, reverse=True):
        if value in text:
            text = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(value), HIDDEN, text)
    return text


def hide_echoes_data(data: Any, values: list[str]) -> Any:
    """``hide_echoes`` in every string of parsed JSON (a tool listing's descriptions and defaults)."""
    if isinstance(data, str):
        return hide_echoes(data, values)
    if isinstance(data, list):
        return [hide_echoes_data(item, values) for item in data]
    if isinstance(data, dict):
        return {key: hide_echoes_data(item, values) for key, item in data.items()}
    return data


def _shown(command: str | list[str], keep: Callable[[str], None], known: Collection[str] = ()) -> str:
    if isinstance(command, list):
        raws = [_quoted(word) for word in command]
        words = list(command)
    else:
        try:
            argv = split_command(command)
            raws = [m.group(0) for m in _WORD.finditer(command)]
            # a raw word is one of shlex's where as many: only a blank shlex does not split at (\f, \v, U+00A0, ...)
            # joins two of them
            words = list(argv) if len(argv) == len(raws) else [" ".join(shlex.split(raw)) for raw in raws]
        except ValueError:  # unbalanced quotes: the words as they stand
            raws = command.split()
            words = list(raws)
    hide = _Hider(keep)
    secrets = known_secrets(known)
    shown = list(words)
    at = 0
    while at < len(words):
        word = words[at]
        after = words[at + 1] if at + 1 < len(words) else None
        if word in secrets:  # `--token -x...`: a secret the job knows, whatever it starts with
            shown[at] = hide.whole(word)
        elif word.startswith("-") and len(word) > 1 and not word[1:2].isdigit():
            name, eq, value = word.lstrip("-").partition("=")
            if eq:
                shown[at] = word[:len(word) - len(value)] + (hide.whole(value) if secret_name(name) or value in secrets
                                                             else hide.header(value) if name in _HEADER_OPTIONS
                                                             else hide.user(value) if name in _USER_OPTIONS
                                                             else hide.word(value))
            elif after is not None and not after.startswith("-"):
                if secret_name(name):
                    at = hide.spoken(words, shown, at + 1)
                    continue
                if name in _HEADER_OPTIONS and after.endswith(":"):  # -H Authorization: Bearer X, unquoted
                    at += 1
                    continue
                if name in _HEADER_OPTIONS:
                    shown[at + 1] = hide.header(after)
                    at += 2
                    continue
                if name in _USER_OPTIONS and ":" in after:
                    shown[at + 1] = hide.user(after)
                    at += 2
                    continue
        elif word.endswith(":") and after is not None and secret_name(word[:-1]) and _HEADER.fullmatch(word):
            at = hide.spoken(words, shown, at + 1)  # -H Authorization: Bearer X, unquoted
            continue
        else:
            shown[at] = hide.word(word)
        at += 1
    inside = sorted((s for s in secrets if any(s in word for word in shown)), key=len, reverse=True)
    for secret in inside:  # inside another word (`--url=https://h/?t=SECRET`, `x=SECRET`, `-pSECRET`): hidden too
        hide.keep(secret)
        shown = [word.replace(secret, HIDDEN) for word in shown]
    out = [raw if new == old else _quoted(new) for raw, old, new in zip(raws, words, shown)]
    return redact_patterns(" ".join(out))  # a key of a known issuer's shape anywhere else


class _Hider:
    def __init__(self, keep: Callable[[str], None]) -> None:
        self.keep = keep

    def whole(self, value: str) -> str:
        """A secret's value hidden, its scheme word kept; a ``$NAME`` reference or nothing kept as written."""
        if not value or ENV_REFERENCE.fullmatch(value):
            return value
        scheme, space, rest = value.partition(" ")
        if space and scheme.lower() in _SCHEMES and rest.strip():
            return f"{scheme} {self.whole(rest.strip())}"
        self.keep(value)
        return HIDDEN

    def spoken(self, words: list[str], shown: list[str], at: int) -> int:
        """The value word at ``at`` hidden (and the one after a scheme word); the index after them."""
        if words[at].lower() in _SCHEMES and at + 1 < len(words) and not words[at + 1].startswith("-"):
            at += 1
        shown[at] = self.whole(words[at])
        return at + 1

    def user(self, text: str) -> str:
        """curl's ``-u user:password`` (``--user=user:password`` too): the password hidden."""
        user, colon, password = text.partition(":")
        return f"{user}:{self.whole(password)}" if colon else self.word(text)

    def header(self, text: str) -> str:
        found = _HEADER.fullmatch(text)
        if found and secret_name(found.group(1)):
            return text[:found.start(2)] + self.whole(found.group(2))
        return self.word(text)

    def word(self, text: str) -> str:
        """One word: ``NAME=value`` with a secret name, a header line, a URL's user info and secret parameters."""
        at = 0
        while (found := _NAME_EQUALS.match(text, at)) is not None:  # NAME=NAME=...=value, a name at a time (recursing,
            if secret_name(found.group(1)):  # 1,000 of them were a RecursionError: an internal error, no file:line)
                return text[:found.end()] + self.whole(text[found.end():])
            at = found.end()
        if at:
            return text[:at] + self.word(text[at:])  # the value after the last name: no NAME= at its start
        found = _HEADER.fullmatch(text)
        if found and secret_name(found.group(1)):
            return self.header(text)

        def userinfo(m: re.Match[str]) -> str:
            user, colon, password = m.group(2).partition(":")
            if not m.group(2):
                return m.group(0)
            return f"{m.group(1)}{user}:{self.whole(password)}@" if colon else f"{m.group(1)}{self.whole(user)}@"

        def parameter(m: re.Match[str]) -> str:
            if not secret_name(m.group(2)):
                return m.group(0)
            return f"{m.group(1)}{m.group(2)}={self.whole(m.group(3))}"

        return _QUERY.sub(parameter, _USERINFO.sub(userinfo, text)) if "=" in text or "@" in text else text


def _quoted(word: str) -> str:
    return word if _PLAIN.fullmatch(word) else shlex.quote(word)
