"""What a key looks like, whoever's it is: the issuers' prefixes (``KEY_SHAPES``), the fields and variables named
for a credential (``credential_field``, ``secret_field``), and finding them in a text or in parsed JSON
(``redact_patterns``, ``pattern_keys``). ``redaction.Redactor`` applies them to everything it redacts besides the
keys it is given by value; ``literal_keys`` refuses them in a scenario.

Only the standard library: `render` and `parse` use this without httpx.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from typing import Any, Callable, Mapping

MIN_SECRET_LENGTH = 8  # shorter values are not redacted (redaction's docstring says why)


# What a key looks like where no name says so: the issuers' own prefixes, each with the least that follows it in a
# real key (model ids such as sk-tiny or xai-grok-4 fall short), bounded on both sides by a character no key holds.
# (name, the prefix shown, pattern, source). A scenario's providers.<id>.extra, header values, base URLs and
# api_key_env, and a from: server's command line, env and headers are refused holding one (core/literal_keys.py).
_END = r"(?![A-Za-z0-9_-])"  # and _KEY_CHARS before it (_shape_spans)
KEY_SHAPES: tuple[tuple[str, str, str, str], ...] = (
    ("an Anthropic key", "sk-ant-", r"sk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{20,}",
     "secondary, read 2026-11-27 (no Anthropic page found that states the form): vibekit.bot/anthropic-api-key-format "
     "'Every Anthropic API key starts with sk-ant-api03-', 'sk-ant-oat01-… — an OAuth access token issued by the "
     "Claude CLI's claude setup-token'; claudeinsider.com/docs/api/authentication 'sk-ant-api03-xxxx'"),
    # the pattern is what every such key matches; _openai_style says which of its matches are keys (a plain name
    # such as sk-learn-regressor-2024-v2 matches it and is none)
    ("an OpenAI-style key", "sk-", r"sk-(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}",
     "gitleaks/gitleaks cmd/generate/config/rules/openai.go (read 2026-11-27): rule openai-api-key "
     "'sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|"
     "[A-Za-z0-9_-]{58})\\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}', keywords 'T3BlbkFJ'; secondary, read "
     "2026-11-27: mongodb/kingfisher PR #68 'OpenAI API keys can now take different forms: sk-proj-, sk-svcacct-, "
     "sk-None-'; langflow-ai/langflow PR #12122 'sk-proj (project keys) sk- (legacy user account keys) sk-svcacct "
     "(service account keys) or sk-None'; DeepSeek's keys (sk- and 32 hex digits) and OpenRouter's (sk-or-v1-) take "
     "the same form, and so do self-hosted gateways' keys made as 'sk-' + secrets.token_urlsafe(n); "
     "langfuse/langfuse packages/shared/src/server/auth/apiKeys.ts (read 2026-11-27): generateKeySet "
     "'sk: `sk-lf-${randomUUID()}`'"),
    ("a Google API key", "AIza", r"AIza[0-9A-Za-z_-]{35}",
     "learn.microsoft.com/purview/sit-defn-google-api-key (read 2026-11-27): 'A combination of 39 characters', "
     "\"A token prefix (case-sensitive) 'AIza'\""),
    # no Google page gives the auth keys' length or alphabet: AQ.Ab and 40 or more URL-safe characters is what every
    # quoted one holds (53 characters in the public code read: AQ. and 50), read as random (_read_as_key: not words
    # joined by hyphens); base64 has no '.', and a JWT's segments are joined after other base64 characters, which
    # the left edge refuses
    ("a Google auth key", "AQ.", r"AQ\.Ab(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{40,}",
     "ai.google.dev/gemini-api/docs/api-key (read 2026-11-27): 'All new API keys created in Google AI Studio are "
     "automatically created as auth keys', standard keys refused from September 2026; secondary, read 2026-11-27: "
     "raplsworks.hashnode.dev 'Your new Gemini API key starts with AQ., not AIza' ('It started with AQ.Ab', "
     "'a new Auth key (AQ.Ab...)'); discuss.ai.google.dev/t/170415"),
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
    # The next five rows' tails must not read as words (_reads_as_words: pplx-api-docs, fw_version, csk-config are
    # names; their hyphens and underscores, which no key of these rows holds but Together's, end the match anyway)
    ("a Perplexity key", "pplx-", r"pplx-[A-Za-z0-9]{48}",
     "secondary, read 2026-11-27: betterleaks/betterleaks (gitleaks' successor) cmd/generate/config/rules/"
     "perplexity.go, rule perplexity-api-key '\\b(pplx-[a-zA-Z0-9]{48})', keywords 'pplx-', false positive "
     "'pplx-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' (no Perplexity page found that states the form)"),
    ("a Cerebras key", "csk-", r"csk-(?=[a-z0-9]*[0-9])[a-z0-9]{48}",
     "secondary, read 2026-11-27: betterleaks/betterleaks cmd/generate/config/rules/cerebras.go, rule "
     "cerebras-api-key 'csk-[a-z0-9]{48}', keywords 'csk-', false positives '// Too short "
     "csk-6nptf4w5cx36fw58t3hkx'; setup guides 'Copy the key (starts with csk-...)'"),
    ("a Together key", "tgp_v1_", r"tgp_v1_[A-Za-z0-9_-]{43}",
     "secondary, read 2026-11-27 (no Together page or rule set found that states the form; gitleaks-AI's "
     "together-api-token rule knows only the older 64 hex digits under a 'together' name): keys pasted into public "
     "code are all 'tgp_v1_' and 43 of A-Z a-z 0-9 _ - (base64url of 32 bytes, as secrets.token_urlsafe(32)); an "
     "e2e test's 'expect(raw).not.toContain('tgp_v1_')'"),
    ("a Fireworks key", "fw_", r"fw_[A-Za-z0-9]{20,}",
     "secondary, read 2026-11-27 (Fireworks' docs write only 'export FIREWORKS_API_KEY=\"fw_...\"', "
     "fw-ai/cookbook; no rule set with a Fireworks prefix rule found): a key pasted into public code, 'fw_' and 24 "
     "letters and digits; scanners' rules 'fw_[a-zA-Z0-9]{24,}', 'fw_[A-Za-z0-9]{20,}', 'fw_[A-Za-z0-9]{32,}'"),
    ("a Google OAuth access token", "ya29.", r"ya29\.[A-Za-z0-9_-]{30,}(?:\.[A-Za-z0-9_-]+)*",
     "secondary, read 2026-11-27 (no Google page found that states the form; Google's OAuth docs call access "
     "tokens opaque): a token endpoint's answer '\"access_token\" : \"ya29.AHES6ZT…\", \"token_type\" : "
     "\"Bearer\"' (pastebin.com/sZd2ut8f, 2013); scanners' rules 'ya29\\.[0-9A-Za-z\\-_]+', "
     "'ya29\\.[\\w\\-\\.]+' (a dot inside is kept: the token is replaced whole)"),
    # Slack's: hyphen-joined ids (digit runs; xapp-'s app id A…) and a last run that must not read as words
    ("a Slack token", "xox", r"(?:xox[abeoprs]|xoxe\.xox[bp]|xapp)-(?=[A-Za-z0-9-]{24})(?:(?:[0-9]{1,16}|A[A-Z0-9]{6,16})-)+"
     r"[A-Za-z0-9]{8,}",
     "api.slack.com/authentication/token-types (read 2026-11-28): bot tokens 'xoxb-', user tokens 'xoxp-', "
     "app-level tokens 'xapp-'; docs.slack.dev tooling.tokens.rotate (read 2026-11-28): '\"token\": \"xoxe.xoxp-...\", "
     "\"refresh_token\": \"xoxe-...\"', oauth.v2.exchange 'Example: xoxp-12345-67890-1928471-abcdefg'; secondary, read "
     "2026-11-28: gitleaks cmd/generate/config/rules/slack.go 'xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*', "
     "'xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}', '(?i)xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+', legacy workspace "
     "apps' 'xox[ar]-(?:\\d-)?[0-9a-zA-Z]{8,48}' (sample 'xoxa-2-511111111-31111111111-3111111111111-e039d0…')"),
    # 20 characters (gitleaks' rule), or GitLab's routable form, longer and ending in dotted pieces (a sentence's dot
    # is left); the tail must not read as words (glpat-your-personal-access-token, glpat-xxxxxxxxxxxxxxxxxxxx)
    ("a GitLab access token", "glpat-", r"glpat-[0-9A-Za-z_-]{20,}(?:\.[0-9A-Za-z]{1,16}){0,2}",
     "docs.gitlab.com/security/tokens (read 2026-11-28), Token prefixes: 'The following table shows the prefixes for "
     "each type of token. With the exception of Personal Access tokens, these prefixes cannot be configured', "
     "'Personal access token glpat-', 'Project access token glpat-', 'Group access token glpat-'; gitlab-org/gitlab "
     "MR 169322: 'routable PATs can be between 43 characters (i.e. glpat-<37 characters>...) and 316 characters'; "
     "secondary, read 2026-11-28: gitleaks rules gitlab-pat 'glpat-[\\w-]{20}' and gitlab-pat-routable "
     "'\\bglpat-[0-9a-zA-Z_-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b'"),
    # A JWT's compact form: a JOSE header (base64url of a JSON object, so eyJ: '{"'), payload and signature (empty
    # when alg is none), or JWE's five parts; taken only where the header decodes to an object with "alg" (_jose)
    ("a JSON Web Token", "eyJ", r"eyJ[A-Za-z0-9_-]{12,}\.(?:[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"
     r"|[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)",
     "RFC 7519 §1 (read 2026-11-28): 'JWTs are always represented using the JWS Compact Serialization or the JWE "
     "Compact Serialization', §7.2 'Verify that the JWT contains at least one period', the header a JSON object; RFC "
     "7515 §4.1.1 'The \"alg\" (algorithm) Header Parameter ... This Header Parameter MUST be present', §7.1 "
     "'BASE64URL(UTF8(JWS Protected Header)) || '.' || BASE64URL(JWS Payload) || '.' || BASE64URL(JWS Signature)'; "
     "secondary, read 2026-11-28: gitleaks rule jwt 'ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9\\/\\\\_-]{17,}\\."
     "(?:[a-zA-Z0-9\\/\\\\_-]{10,}={0,2})?' (alg none's empty signature among its examples)"),
)


# Which matches of the OpenAI-style row are keys (its source above): one run of letters and digits (OpenAI's legacy
# keys, sk- and 48; DeepSeek's, 32 hex digits), OpenAI's base64 marker T3BlbkFJ ("OpenAI") that every key in
# gitleaks' rule holds, OpenAI's own kinds (sk-proj-, sk-svcacct-, sk-admin-, sk-None-) with 40 more characters
# (gitleaks' examples hold 58-74 on each side of the marker) or with one run of 20 letters and digits (as the legacy
# keys), OpenRouter's sk-or-v1- with 32 more, a random UUID after sk- or a short word (Langfuse's sk-lf-); else a
# random token (_random_token). A plain name has words between its hyphens: sk-learn-regressor-2024-v2 is none of these.
_OPENAI_KINDS = re.compile(r"sk-(?:[A-Za-z0-9]+|[A-Za-z0-9_-]*T3BlbkFJ[A-Za-z0-9_-]*|(?:proj|svcacct|admin|None)-"
                           r"[A-Za-z0-9_-]{40,}|or-v[0-9]+-[A-Za-z0-9]{32,}"
                           # a random UUID (lower-case hex, dashed 8-4-4-4-12), alone or after a short word: Langfuse's
                           # secret keys, sk-lf- + randomUUID(); no name is spelled in hex groups of those lengths
                           r"|(?:[a-z]{2,4}-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                           # OpenAI's kinds with one run of letters and digits, as the legacy sk- + one run: 20 or more
                           r"|(?:proj|svcacct|admin|None)-(?P<run>[A-Za-z0-9]{20,}))")
_CLASS = {**dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 0), **dict.fromkeys("abcdefghijklmnopqrstuvwxyz", 1),
          **dict.fromkeys("0123456789", 2)}
RANDOM_SWITCHES = 0.4  # the share of neighbouring letters and digits that switch between upper, lower and digit


def _random_token(tail: str) -> bool:
    """Whether an ``sk-`` key's hyphenated tail reads as random (``"sk-" + secrets.token_urlsafe(n)``, a gateway's or
    LiteLLM's virtual key) rather than words: upper and lower case letters and digits, and at least RANDOM_SWITCHES of
    the neighbouring pairs of them switching between the three (random URL-safe text: ~0.62; a token_urlsafe(32)
    key reads as words 3 times in 1,000, a token_urlsafe(16) one 4 in 100; Learn-Regressor-2024-V2: 0.19)."""
    classes = [_CLASS.get(ch) for ch in tail]
    if not {0, 1, 2} <= set(classes):
        return False
    pairs = [(a, b) for a, b in zip(classes, classes[1:]) if a is not None and b is not None]
    return sum(a != b for a, b in pairs) >= RANDOM_SWITCHES * len(pairs)


# A one-run tail of capitalized words and short digit runs is a name (sk-LinearRegression2024, a model's), not a key:
# a random run of letters and digits is that about twice in 100,000 at 20 characters, never seen from 24 on, and is
# then still a key when it reads as random (_random_token).
# Written with one way to read each text: (?:[A-Z][a-z]{2,}|[0-9]{1,8})+, the same names, split a digit run in every
# way before it failed (sk-Abc + 40 digits + x: minutes, in the redaction of any text); each run is now taken whole
_CAMEL_WORDS = re.compile(r"(?:[A-Z][a-z]{2,}(?![a-z])|[0-9])+")


def _openai_style(key: str) -> bool:
    """Whether a match of the OpenAI-style row is a key (``_OPENAI_KINDS`` but a ``_CAMEL_WORDS`` name,
    ``_random_token``)."""
    kind = _OPENAI_KINDS.fullmatch(key)
    words_at = 3 if kind is None or kind.group("run") is None else kind.start("run")
    return (kind is not None and _CAMEL_WORDS.fullmatch(key, words_at) is None) or _random_token(key[3:])


def key_shapes(text: str) -> list[tuple[str, str, str]]:
    """The keys of a known shape in ``text``: (the key, what it looks like, the prefix a message may show)."""
    if not isinstance(text, str) or len(text) < 20:
        return []
    return [(text[start:end], KEY_SHAPES[shape][0], KEY_SHAPES[shape][1])
            for start, end, shape in _shape_spans(text, json_text=False, examples=True)]


# The shapes as one pattern with a look-behind for the edge, tried at every place of a text, cost ~0.5 s a MB (the
# look-behind, per pattern; a 10 MB body took 4.7 s); every shape begins with one of these prefixes, which one
# C-speed search finds (~9 ms a MB), and the shape is tried only there (the same matches: tests/test_body_keys.py).
_PREFIXES = re.compile(r"sk-|AIza|AQ\.Ab|AKIA|ASIA|gsk_|xai-|hf_|gh[pousr]_|github_pat_|pplx-|csk-|tgp_v1_|fw_|ya29\.|"
                       r"xox[abeoprs][-.]|xapp-|glpat-|eyJ")
_SHAPE_AT = re.compile("|".join(f"(?P<s{i}>(?:{pattern}){_END})" for i, (_, _, pattern, _) in enumerate(KEY_SHAPES)))
_OPENAI_GROUP = f"s{next(i for i, row in enumerate(KEY_SHAPES) if row[1] == 'sk-')}"
_DOTTED = next(i for i, row in enumerate(KEY_SHAPES) if row[1] == "ya29.")  # the one row whose match spans dots
_GOOGLE_AUTH_GROUP = f"s{next(i for i, row in enumerate(KEY_SHAPES) if row[1] == 'AQ.')}"
_SLACK_GROUP, _JWT_GROUP = (f"s{next(i for i, row in enumerate(KEY_SHAPES) if row[1] == p)}" for p in ("xox", "eyJ"))


# the rows whose tail (after the prefix) must not read as words (_reads_as_words), by group: the prefix's length and
# the least average length of a name's pieces (Cerebras' keys are lower-case and digits only: a random one's pieces
# are long runs of letters, ~1 in 100 reading as words at 4; none in 20,000 at 8)
_WORDS_READ = {f"s{i}": (len(row[1]), 8 if row[1] == "csk-" else 4) for i, row in enumerate(KEY_SHAPES)
               if row[1] in ("pplx-", "csk-", "tgp_v1_", "fw_", "ya29.", "glpat-")}
# a tail that reads as words: capitalized or lower-case words of 2 or more letters, acronyms up to 5 capitals and
# short numbers (FirmwareUpdatePackageV2024, firmwareupdatepackage2024, Together-Config-Settings), each 4 or more
# characters long on average; random text holds a lone lower-case letter between other characters nearly always
# (measured 2026-11-27: 98 in 100 random 24-character tokens of letters and digits fail the pattern), and the few
# that pass are made of many short pieces (~10 in 24 characters; a name of 24: ~5): 3 in 10,000 read as words at
# 24 characters, 8 at 20; none in 20,000 of pplx-'s, csk-'s (at 8), tgp_v1_'s or ya29.'s lengths
_WORD_PIECE = r"[A-Z]?[a-z]{2,}|[A-Z]{1,5}|[0-9]{1,8}"
# what (?:PIECE)+ separated by [-_.] matches, written with one way to read each text: a run of letters and digits in
# which every lower-case run is 2 or more long (a capital run, a digit run split into pieces any way). The pieces'
# own pattern tried every split of a run before it failed: fw_ + 40 lower-case letters + -b took minutes, in the
# redaction of any text (found by the suite's hang watchdog, 2026-11-28)
_WORD_RUN = r"(?:[A-Z0-9]|[a-z]{2,}(?![a-z]))+"
_WORDS = re.compile(rf"{_WORD_RUN}(?:[-_.]{_WORD_RUN})*")
_PIECES = re.compile(_WORD_PIECE)


def _reads_as_words(tail: str, piece: int = 4) -> bool:
    """Whether a key row's tail is a name's words (``_WORDS``, pieces of ``piece`` characters or more on average)
    rather than a random token."""
    return _WORDS.fullmatch(tail) is not None and piece * len(_PIECES.findall(tail)) <= len(tail)


def _read_as_key(group: str | None, key: str) -> bool:
    """Whether a match of a row whose pattern alone could spell words is a key: the OpenAI-style row's
    (``_openai_style``), Google's auth keys', whose tail must read as random (``_random_token``: AQ.About-the-
    release-notes-2024 is words), the rows of ``_WORDS_READ``, whose tail must not read as words, Slack's, whose last
    run must not, and a JWT's, whose header must be one (``_jose``)."""
    if group == _OPENAI_GROUP:
        return _openai_style(key)
    if group == _SLACK_GROUP:
        return not _reads_as_words(key[key.rfind("-") + 1:])
    if group == _JWT_GROUP:
        return _jose(key[:key.find(".")])
    if group in _WORDS_READ:
        prefix, piece = _WORDS_READ[group]
        return not _reads_as_words(key[prefix:], piece)
    return group != _GOOGLE_AUTH_GROUP or _random_token(key[5:])


_JOSE_HEADER = 16384  # characters of a JWT's header read at most (an x5c certificate chain: a few thousand)
_ALG_SPELLED = ("ImFsZy", "JhbGci", "iYWxnI")  # "alg" with its quotes in base64, at each of the 3 alignments


def _jose(header: str) -> bool:
    """Whether a JWT's first segment is a JOSE header: base64url of a JSON object with an "alg" string (RFC 7515
    §4.1.1), so that base64 of other JSON (``eyJ`` is any object's) is no token."""
    if len(header) > _JOSE_HEADER or not any(spelled in header for spelled in _ALG_SPELLED):  # no decoding then
        return False
    try:
        found = json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))
    except (ValueError, RecursionError):
        return False
    return isinstance(found, dict) and isinstance(found.get("alg"), str)


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# AWS's documentation's own example key ids (AKIAIOSFODNN7EXAMPLE, read 2026-11-27 in the STS GetAccessKeyInfo page
# quoted above) are no one's key: text quoting them (a tool's description) is shown as written, as gitleaks allows
# them (gitleaks/gitleaks config/gitleaks.toml, read 2026-11-27: rule aws-access-token, [[rules.allowlists]]
# regexes = ['.+EXAMPLE$']). A scenario's settings still refuse them (literal_keys: key_shapes keeps them).
_DOCUMENTED = re.compile(r"(?:AKIA|ASIA)[A-Z0-9]*EXAMPLE")


def _shape_spans(text: str, json_text: bool = True, examples: bool = False) -> list[tuple[int, int, int]]:
    """(start, end, which KEY_SHAPES row) of every key of a known shape in ``text``, bounded by a character no key
    holds on both sides (what the rows' patterns with an edge look-behind, tried everywhere, find).
    ``json_text``: the text may be JSON, where a key after an escape (``\\nsk-…``, a newline before it) follows a
    letter; it is found there too. ``examples``: AWS's documented example ids count (else they are left)."""
    spans: list[tuple[int, int, int]] = []
    search, at = _PREFIXES.search, 0
    # a ya29. token read as words: its end, and whether a ya29. after each dot in it begins a key (_dotted_keys)
    dotted_end, dotted = -1, dict[int, bool]()
    while True:
        found = search(text, at)
        if found is None:
            return spans
        start = found.start()
        if start < dotted_end and text[start - 1] == "." and text.startswith("ya29.", start):
            if dotted.get(start + 5, False):
                spans.append((start, dotted_end, _DOTTED))
                at = dotted_end
                continue
        elif start == 0 or text[start - 1] not in _KEY_CHARS or (json_text and _after_escape(text, start)):
            whole = _SHAPE_AT.match(text, start)
            if whole is not None and (examples or not _DOCUMENTED.fullmatch(whole.group())):
                if _read_as_key(whole.lastgroup, whole.group()):
                    spans.append((start, whole.end(), int(whole.lastgroup[1:])))  # type: ignore[index]
                    at = whole.end()
                    continue
                if whole.lastgroup == f"s{_DOTTED}":  # each ya29. in it is read from the table, not to its end
                    dotted_end, dotted = whole.end(), _dotted_keys(text, start + 5, whole.end())
        at = start + 1


def _dotted_keys(text: str, start: int, end: int) -> dict[int, bool]:
    """For a ya29. token whose tail ``text[start:end]`` reads as words: after each dot in it, whether a ``ya29.``
    just before would begin a key (the row's match, ending at ``end`` too, with a tail that is not words). Each such
    tail is the words of the dotted pieces after it, so it is words as a whole but may hold shorter pieces on average;
    read once from the right, not from each ya29. to the end (a run of ``ya29.`` + 30 letters + ``.``: 16,000
    characters, 98 ms; a MB, minutes, in the redaction of any text; the same spans: tests/test_regex_linear.py)."""
    out: dict[int, bool] = {}
    pieces, at, least = 0, end, _WORDS_READ[f"s{_DOTTED}"][1]
    while (dot := text.rfind(".", start, at)) >= 0:
        piece = text[dot + 1:at]  # the tail's first piece: 30 or more characters (the row's pattern)
        pieces += len(_PIECES.findall(piece))
        out[dot + 1] = len(piece) >= 30 and least * pieces > end - (dot + 1)
        at = dot
    return out


def _after_escape(text: str, at: int) -> bool:
    """Whether a JSON escape (``\\n``, ``\\uXXXX``) may end just before ``at``: a backslash and one letter, or
    ``\\u`` and four hex digits, whether or not the backslash is itself escaped, so that JSON text and the text it
    decodes to (a prompt holding a literal ``\\n`` before a key) are read alike, each hiding one key too many at
    worst."""
    if at >= 2 and text[at - 2] == "\\":
        return True
    return at >= 6 and text[at - 6] == "\\" and _unicode_escape_at(text, at - 6)


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


def secret_field(name: str) -> bool:
    """Whether output hides the value a field named ``name`` holds: ``credential_field``, but for a field named
    only "key" or "token" (OTLP's attributes ``{"key": "gen_ai.system", ...}``, a map's entries, OpenAI's logprobs
    ``{"token": ...}``: words, not keys; a URL's ``?key=`` is its query's, ``_QUERY_KEY``). A body's names repeat
    (role, content, type): each is read once; a name past 128 characters names no credential (and is not kept)."""
    return len(name) <= 128 and _secret_field(name)


@functools.lru_cache(maxsize=4096)
def _secret_field(name: str) -> bool:
    return credential_field(name) and name_words(name) not in (["key"], ["token"])


# a JSON member holding text, at any depth of quoting (a tool result or arguments string holding JSON: \"api_key\":
# \"…\"), found from its colon (a search that starts at a literal character, ~1 ms a MB, where a pattern starting
# at the name's optional backslashes is tried at every place, ~40 ms); the value as TOKEN68 reads it, so only text a
# key could be is replaced
_MEMBER_COLON = re.compile(r'"[ \t]*:[ \t]*(\\*)"')
_MEMBER_NAME = re.compile(r'[A-Za-z_$@][A-Za-z0-9_.$@-]{0,63}')
_MEMBER_VALUE = re.compile(r'((?:[A-Za-z]{1,8} )?[A-Za-z0-9._~+/=-]{%d,})(\\*)"' % MIN_SECRET_LENGTH)


def _member_spans(text: str) -> list[tuple[int, int]]:
    """The keys JSON text holds under a ``secret_field`` member (its value's key part, ``literal_key``)."""
    spans = []
    value_at = _MEMBER_VALUE.match
    for colon in _MEMBER_COLON.finditer(text):
        # the value first (one C match): most members hold no value a key could be, and need no name read
        # (~30% of this walk over a loop's JSON; the same conditions, all of them, in another order)
        value = value_at(text, colon.end())
        quotes = colon.group(1)  # the depth of quoting: a member of JSON inside a string has its quotes escaped
        if value is None or value.group(2) != quotes:
            continue
        close = colon.start() - len(quotes)
        if quotes and text[close:colon.start()] != quotes:
            continue
        opening = text.rfind('"', max(0, close - 66), close)
        if opening < len(quotes) or text[opening - len(quotes):opening] != quotes:
            continue
        name = text[opening + 1:close]
        if not _MEMBER_NAME.fullmatch(name) or not secret_field(name):
            continue
        literal = literal_key(value.group(1))
        if literal:
            spans.append((value.end(1) - len(literal), value.end(1)))
    return spans


# a URL's query parameter named for a credential (Gemini's ?key=, ?access_token=) in any text
_QUERY_KEY = re.compile(r"[?&]([A-Za-z_][A-Za-z0-9_.-]{0,63})=([A-Za-z0-9._~+/%%-]{%d,})" % MIN_SECRET_LENGTH)


# An AWS secret access key has no prefix: 40 characters of base64's alphabet (secondary, read 2026-11-27:
# docs.devexpress.com AmazonFileSystemProvider.SecretAccessKey 'The secret access key is 40 alpha-numeric-slash-plus
# characters like wJalrXUtnFEMI/K7MDENG/bPxRfiC+EXAMPLEKEY'), written beside its access key id (docs.aws.amazon.com
# cli/latest/userguide/cli-configure-files.html, read 2026-11-27: the credentials file's profiles, each
# 'aws_access_key_id' and 'aws_secret_access_key'). Alone it is what a hash or a piece of base64 looks like; beside an
# access key id (AKIA/ASIA, not AWS's documented example) in the same text (a pasted ~/.aws/credentials, an env
# listing, `aws configure` typed into a prompt) it is the key's other half. Taken there: a run of exactly 40 such
# characters holding an upper-case letter, a lower-case letter and a digit (a hex hash holds one case only), not
# followed by base64's padding '=' (a 30-byte value's base64), and not AWS's example (...EXAMPLEKEY).
_AWS_ID_ROW = next(i for i, row in enumerate(KEY_SHAPES) if row[1] == "AKIA")
_BASE64_RUN = re.compile(r"[A-Za-z0-9/+]{40,}")
_ESCAPE_LETTER = re.compile(r"\\(?:[nrtbf]|u[0-9a-fA-F]{4})")


def _has_each_class(key: str) -> bool:
    """An upper-case letter, a lower-case letter and a digit."""
    return any(c.isupper() for c in key) and any(c.islower() for c in key) and any(c.isdigit() for c in key)


def _aws_secret_spans(text: str) -> list[tuple[int, int]]:
    """The 40-character AWS secret access keys ``text`` holds, for a text that holds an access key id too: a run of
    exactly 40 (or 40 after a JSON escape's letters, ``\\n`` or ``\\u001b``, that the run reads on from)."""
    spans = []
    for run in _BASE64_RUN.finditer(text):
        start, end = run.span()
        if end - start != 40 and start and text[start - 1] == "\\" and _escape_starts(text, start - 1):
            escape = _ESCAPE_LETTER.match(text, start - 1)
            start = escape.end() if escape is not None else start
        key = text[start:end]
        if (len(key) == 40 and not text.startswith("=", end) and not key.endswith("EXAMPLEKEY")
                and _has_each_class(key)):
            spans.append((start, end))
    return spans


def _pattern_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a key by its look, not its value: a KEY_SHAPES key, a JSON member's value under a
    credential field, a URL's credential parameter, an AWS secret access key beside an access key id
    (``_aws_secret_spans``). One pass each over the text (C-speed searches)."""
    shaped = _shape_spans(text)
    spans = [(start, end) for start, end, _ in shaped]
    if any(row == _AWS_ID_ROW for _, _, row in shaped):
        spans += _aws_secret_spans(text)
    if '"' in text and ":" in text:
        spans += _member_spans(text)
    if "=" in text:
        for found in _QUERY_KEY.finditer(text):
            name = found.group(1)
            if name.lower() == "key" or secret_field(name):
                spans.append(found.span(2))
    return spans


_QUERY_START = re.compile(r"[?&][A-Za-z_][A-Za-z0-9_.-]{0,63}=")  # what every _QUERY_KEY match begins with


def may_look(text: str) -> bool:
    """Whether ``_pattern_spans`` could find anything in ``text``: each span it gives follows a _MEMBER_COLON match,
    is a _QUERY_KEY's value or begins at a _PREFIXES match (an AWS secret only beside one). Three C-speed searches
    (one alternation of them all is tried branch by branch at every place, ~4x slower), the cheapest first (JSON text
    holds a member's colon near its start; _PREFIXES costs ~85 instructions a character)."""
    return (('"' in text and _MEMBER_COLON.search(text) is not None)
            or ("=" in text and _QUERY_START.search(text) is not None) or _PREFIXES.search(text) is not None)


# The words one of which every ``secret_field`` name holds, in any case (a word of FIELD_WORDS, the key of a
# FIELD_PAIRS pair, "key"), each left out that holds another (apikey holds key)
_NAME_WORDS = (lambda words: sorted(w for w in words if not any(o != w and o in w for o in words)))(
    FIELD_WORDS | {second for _, second in FIELD_PAIRS} | {"key"})
# may_look's member and query in the JSON text json.dumps writes of parsed data (ensure_ascii=False), where a
# string's quote is written \", its tab \t and its backslash \\ (a prefix's and a query's characters as they are);
# each searched alone: one alternation of them all is tried branch by branch at every place (~5x slower)
_MEMBER_DUMPED = re.compile(r'\\"(?: |\\t)*:(?: |\\t)*(?:\\\\)*\\"')
_NAME_WORD = re.compile("|".join("".join(f"[{c.upper()}{c}]" for c in word) for word in _NAME_WORDS))
# the rest of a member's name after a word of it, to its closing quote and the colon json.dumps writes after it: at
# most 128 characters (secret_field), each written in 6 at most (\u001b)
_NAME_END = re.compile(r'(?:[^"\\]|\\.){0,768}": ')
_NAME_WORDS_READ = 8  # a dump holding more words of _NAME_WORDS is walked (each is read to its string's end)


def _holds_name_word(text: str, piece: int = 65536) -> bool:
    """Whether ``text`` holds a word of ``_NAME_WORDS`` in any case: each piece lowered (a copy of a piece at a time,
    not of a whole reply's text), the pieces overlapping by a word's length."""
    overlap = max(map(len, _NAME_WORDS)) - 1
    for at in range(0, len(text), piece):
        lowered = text[at:at + piece + overlap].lower()
        if any(word in lowered for word in _NAME_WORDS):
            return True
    return False


def may_hold_look(dumped: str) -> bool:
    """Whether ``_pattern_data`` could change anything in a value whose ``json.dumps(value, ensure_ascii=False)`` is
    ``dumped``. False when the dump holds no look's start (a prefix, a member's colon or a query's name inside a
    string) and no member named with a word of ``_NAME_WORDS``: the walk would give the value back as it is, every
    string unchanged. C-speed searches, where the walk reads each string in Python."""
    if _PREFIXES.search(dumped) is not None or ('\\"' in dumped and _MEMBER_DUMPED.search(dumped) is not None):
        return True
    if ("?" in dumped or "&" in dumped) and _QUERY_START.search(dumped) is not None:
        return True
    if not _holds_name_word(dumped):
        return False
    for n, word in enumerate(_NAME_WORD.finditer(dumped)):
        if n == _NAME_WORDS_READ or _NAME_END.match(dumped, word.end()) is not None:
            return True
    return False


# a text up to this long is looked at (may_look) before redact_patterns reads it: its calls cost more than the searches
# there; a longer one is read at once (a look found late would be searched for twice)
_LOOKED_FIRST = 1024


def redact_patterns(text: str, names: Mapping[str, str] | None = None) -> str:
    """``text`` with every key found by its look (``_pattern_spans``) replaced by ``[redacted]``, or by its
    placeholder in ``names`` (a key known by value: ``$OPENAI_API_KEY``)."""
    if len(text) <= _LOOKED_FIRST and not may_look(text):  # most of a reply's strings, a response's headers
        return text
    spans = _pattern_spans(text)
    if not spans:
        return text
    spans.sort()
    out, at = [], 0
    for start, end in spans:
        if end <= at:
            continue
        out.append(text[at:max(at, start)])
        out.append(names.get(text[start:end], LITERAL_PLACEHOLDER) if names else LITERAL_PLACEHOLDER)
        at = end
    out.append(text[at:])
    return "".join(out)


def _pattern_data(value: Any, names: Mapping[str, str] | None = None, credential: bool = False,
                  then: Callable[[str], str] | None = None) -> Any:
    """``redact_patterns`` on every string in parsed JSON (and records), and a string under a ``secret_field``
    replaced where it holds a key (``literal_key``: its scheme word kept); ``then`` applied to each string after
    (a search by value: one walk, where a walk of its own would dump each level again). The same object when
    nothing changes."""
    if isinstance(value, str):
        literal = literal_key(value) if credential else None
        if literal:
            return value[:len(value) - len(literal)] + (names.get(literal, LITERAL_PLACEHOLDER) if names
                                                        else LITERAL_PLACEHOLDER)
        shown = redact_patterns(value, names)
        if then is None:
            return shown
        after = then(shown)
        return shown if after == shown else after
    if isinstance(value, dict):
        changed = False
        out = {}
        for key, item in value.items():
            shown_key = _pattern_data(key, names, False, then) if isinstance(key, str) else key
            shown = _pattern_data(item, names, isinstance(key, str) and secret_field(key), then)
            changed = changed or shown is not item or shown_key is not key
            out[shown_key] = shown
        return out if changed else value
    if isinstance(value, (list, tuple)):
        items = [_pattern_data(item, names, credential, then) for item in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


def pattern_keys(value: Any, at_most: int | None = None) -> dict[str, str]:
    """The keys parsed JSON holds by their look (``_pattern_data``'s), value -> ``[redacted]``: handed to a Redactor
    with a body's other secrets, so that a piece of one, or a non-shaped credential field's value quoted elsewhere (a
    reply, a stream split in events), is found by its value too. The first ``at_most`` only, when given."""
    found: dict[str, str] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack and (at_most is None or len(found) < at_most):
        item, credential = stack.pop()
        if isinstance(item, str):
            literal = literal_key(item) if credential else None
            if literal:
                found[literal] = LITERAL_PLACEHOLDER
            for start, end in _pattern_spans(item):
                found[item[start:end]] = LITERAL_PLACEHOLDER
        elif isinstance(item, dict):
            stack.extend((key, False) for key in item if isinstance(key, str) and _PREFIXES.search(key))
            stack.extend((inner, isinstance(key, str) and secret_field(key)) for key, inner in reversed(item.items()))
        elif isinstance(item, (list, tuple)):
            stack.extend((inner, credential) for inner in reversed(item))  # popped in the body's order
    return {value: name for value, name in found.items() if len(value) >= MIN_SECRET_LENGTH}


# a reference to a variable, alone or after one auth scheme word, as request_parts.SCHEMED_PLACEHOLDER reads it
ENV_REFERENCE = re.compile(r"(?:[A-Za-z]{1,20} )?\$(?:\{[A-Z_][A-Z0-9_]*\}|[A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])")
LITERAL_PLACEHOLDER = "[redacted]"


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
