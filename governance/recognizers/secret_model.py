"""Secrets without a rule of their own: the long tail of provider prefixes, values assigned to
secret-named identifiers in any language or config format, and values a secret word points at.

Three general mechanisms, beside the per-provider rules of :mod:`credentials`:

- **Provider prefixes** (:data:`PROVIDER_PREFIXES`): the documented token prefixes of some 150
  services (as listed by the public scanners' rule sets — gitleaks, trufflehog, GitHub secret
  scanning), each followed by a body of the token alphabet.
- **Identifier-aware assignment**: ``name = value`` in the syntaxes people paste — shell, .env,
  Makefile (``?=``, ``:=``), YAML/TOML/INI/properties, JSON, XML attributes and elements, C#, Java,
  Kotlin, Swift, Go, Rust, PHP ``define()``, PowerShell ``$env:``, Dockerfile ``ENV``, HTTP headers,
  CLI flags. The *name* is split into words (camelCase, snake, kebab, dotted) and counts when one of
  its words is a secret word (key, token, secret, password, credential, dsn, …): ``ddAppKey``,
  ``FOO_SECRET``, ``<add key="GeoPrivateToken" value=…>``. The value must look like a credential
  (:func:`credential_shaped`): environment references, placeholders, words and paths never do.
- **Keyword proximity**: a secret word in prose ("the Heroku key", "Snyk 令牌", "access token below")
  followed within a short distance — across a line break, as pasted — by a token-shaped value.

Obfuscated keys are read once more in a compact form (:func:`compact`): string concatenations
joined, a key split over lines or into groups of characters put back together.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from mnemonic import Mnemonic

from governance.recognizers.checksums import shannon_entropy, wordy_lowercase_fraction
from governance.recognizers.entities import EntityType as E
from governance.recognizers.rules import Rule, ScanRule

# Documented prefixes; the body after each is the token alphabet, at least ``_MIN_BODY`` long.
PROVIDER_PREFIXES: tuple[str, ...] = (
    # AI and ML platforms
    "sk-or-v1-",
    "sk-ant-admin01-",
    "csk-",
    "gsk_",
    "xai-",
    "pplx-",
    "fw_",
    "nvapi-",
    "r8_",
    "hf_",
    "api_org_",
    "lsv2_pt_",
    "lsv2_sk_",
    "pcsk_",
    "pa-",
    "sk-proj-",
    "sk-svcacct-",
    "sk-admin-",
    "jina_",
    "tgp_v1_",
    # developer platforms and CI
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "glsoat-",
    "dckr_pat_",
    "dckr_oat_",
    "circleci_",
    "CCIPAT_",
    "npm_",
    "pypi-",
    "rubygems_",
    "oy2",
    "sqp_",
    "squ_",
    "sqa_",
    "sgp_",
    "snyk_",
    "pat.",
    "buildkite_",
    "bkua_",
    "hvs.",
    "hvb.",
    "hvr.",
    "s.",
    "pul-",
    "tfp_",
    "atlasv1",
    "sbp_",
    "sb_secret_",
    "vercel_",
    "nfp_",
    "flyv1",
    "fo1_",
    "rnd_",
    "lin_api_",
    "phc_",
    "phx_",
    "figd_",
    "ntn_",
    "secret_",
    "dp.pt.",
    "dp.st.",
    "dp.sa.",
    "dp.ct.",
    "pscale_tkn_",
    "pscale_pw_",
    "pscale_oauth_",
    "op_",
    "ops_",
    "tskey-",
    "tskey-auth-",
    "tskey-api-",
    "ATATT3",
    "ATCTT3",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xapp-",
    "glc_",
    "glsa_",
    "eyJrIjoi",
    "dd",
    "NRAK-",
    "NRII-",
    "NRJS-",
    "NRAA-",
    "hcaik_",
    "sntryu_",
    "sntrys_",
    "sntrya_",
    "whsec_",
    "rk_live_",
    "sk_live_",
    "pk_live_",
    "shpat_",
    "shpca_",
    "shppa_",
    "shpss_",
    "shippo_live_",
    "shippo_test_",
    "EZAK",
    "EZTK",
    "FLWSECK-",
    "FLWSECK_TEST-",
    "sk_test_",
    "rzp_live_",
    "rzp_test_",
    "sq0atp-",
    "sq0csp-",
    "EAAA",
    "access-production-",
    "access-sandbox-",
    "xkeysib-",
    "mlsn.",
    "SG.",
    "key-",
    "pk_",
    "AGE-SECRET-KEY-1",
    "AKID",
    "LTAI",
    "AKLT",
    "ya29.",
    "GOCSPX-",
    "AIza",
    "1//0",
    "EAAC",
    "EAAG",
    "ssws",
    "00D",
    "eyJhbGci",
    "dop_v1_",
    "doo_v1_",
    "dor_v1_",
    "pk.eyJ",
    "sk.eyJ",
    "MTA",
    "MTE",
    "MTI",
    "glimt-",
    "nrak",
    "sl.",
    "duffel_live_",
    "duffel_test_",
    "mgp_",
    "frameio_",
    "prefix_",
    "pnu_",
    "lip_",
    "PMAK-",
    "PMAT-",
    "bb_",
    "bkp_",
    "cfat_",
    "cfut_",
    "dt0c01.",
    "ey_",
    "gb_",
    "grafana_",
    "mp_",
    "plivo_",
    "rdme_",
    "sgsk_",
    "stk_",
    "upstash_",
    "xkeyid-",
    "ZHIPU",
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
)
_MIN_BODY = 16
# Prefixes too short or too common to stand alone: they need a secret word nearby (keyword rule).
_WEAK_PREFIXES = frozenset(
    {
        "dd",
        "s.",
        "op_",
        "ops_",
        "pat.",
        "pa-",
        "pk_",
        "key-",
        "secret_",
        "MTA",
        "MTE",
        "MTI",
        "00D",
        "sl.",
        "bb_",
        "ey_",
        "gb_",
        "mp_",
        "stk_",
        "prefix_",
        "1//0",
        "EAAA",
        "EAAC",
        "EAAG",
        "ssws",
        "nrak",
        "oy2",
    }
)
_TOKEN_BODY = r"[A-Za-z0-9_\-.+/=:~]"

_STRONG = tuple(p for p in PROVIDER_PREFIXES if p not in _WEAK_PREFIXES)
_PROVIDER_RE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    + "|".join(re.escape(p) for p in sorted(set(_STRONG), key=len, reverse=True))
    + rf")(?P<body>{_TOKEN_BODY}{{{_MIN_BODY},}})"
)

# Words that make an identifier or a phrase name a secret. "key" alone is one (apiKey, MASTER_KEY,
# "the Heroku key"); "keyboard", "keyword", "monkey" are not, because names are split into words.
SECRET_WORDS = frozenset(
    [
        "key",
        "keys",
        "apikey",
        "token",
        "tokens",
        "secret",
        "secrets",
        "password",
        "passwords",
        "passwd",
        "pwd",
        "pw",
        "pass",
        "passphrase",
        "passcode",
        "credential",
        "credentials",
        "cred",
        "creds",
        "dsn",
        "auth",
        "authorization",
        "bearer",
        "signature",
        "sig",
        "salt",
        "hmac",
        "webhook",
        "privatekey",
        "accesskey",
        "secretkey",
        "clientsecret",
        "appsecret",
        "sas",
        "pat",
    ]
)
_NOT_SECRET_AFTER = frozenset(
    {
        "id",
        "ids",
        "name",
        "names",
        "file",
        "path",
        "url",
        "uri",
        "type",
        "length",
        "size",
        "count",
        "format",
        "env",
        "var",
        "ttl",
        "expiry",
        "expires",
        "budget",
        "limit",
        "limits",
        "manager",
        "policy",
        "rotation",
        "field",
        "header",
        "prefix",
    }
)
ZH_SECRET_WORDS = ("密钥", "秘钥", "私钥", "令牌", "密码", "口令", "凭证", "凭据", "token", "key", "webhook")

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def identifier_words(name: str) -> list[str]:
    """``ddAppKey`` → dd, app, key; ``FOO_SECRET`` → foo, secret; ``x-api-key`` → x, api, key."""
    words: list[str] = []
    for part in re.split(r"[^A-Za-z0-9]+", name):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return words


def names_a_secret(name: str) -> bool:
    words = identifier_words(name)
    if not words:
        return False
    if "".join(words) in SECRET_WORDS:
        return True
    for index, word in enumerate(words):
        if word in SECRET_WORDS:
            following = words[index + 1 :]
            # "token_budget", "key_id", "password_policy": about the secret, not the secret.
            return not (following and following[-1] in _NOT_SECRET_AFTER)
    return False


_ENV_REFERENCE = re.compile(
    r"^(?:\$\{?\{?\s*[\w.]+\s*\}?\}?|%[\w]+%|\$env:\w+|os\.(?:environ|getenv)\b.*|process\.env\b.*|env\(.*|"
    r"getenv\(.*|ENV\[.*|System\.getenv.*|secrets\.\w+|vault:.*|ssm:.*|arn:aws:.*|<[^>]*>|\{\{.*\}\}|"
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|(?:x{3,}|X{3,}|\*{3,}|\.{3,}|…|redacted|changeme|your[-_].*|<.*)"
    r")$"
)
_VERSION = re.compile(r"^v?\d+(?:[.\-]\d+)+$")
_FILE = re.compile(r"^[\w./-]+\.(?:py|js|ts|go|rs|java|kt|cs|php|rb|json|ya?ml|toml|ini|env|txt|md|sh|pem|key)$")


def credential_shaped(value: str, *, min_length: int = 8) -> bool:
    """Whether ``value`` could be a credential rather than a reference, a placeholder or a word."""
    value = value.strip("\"'`;,")
    if len(value) < min_length or _ENV_REFERENCE.match(value) or _VERSION.match(value) or _FILE.match(value):
        return False
    if "://" in value or value.startswith("www."):
        return False
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if not digits:
        # All letters: only a long random-looking run (lowercase base32, mixed case) counts.
        return len(value) >= 16 and shannon_entropy(value) >= 3.5 and wordy_lowercase_fraction(value) <= 0.5
    if not letters:
        return len(value) >= 12
    return shannon_entropy(value) >= 2.8 and (len(value) >= 16 or wordy_lowercase_fraction(value) <= 0.75)


# name <sep> value, in the syntaxes listed in the module docstring. The name group is an identifier.
_NAME = r"[A-Za-z_$@][A-Za-z0-9_.$@-]{1,80}"
_VALUE = r"[^\s\"'`,;<>()\[\]{}]{6,400}"
_ASSIGNMENTS = (
    # key = value, key: value, key := value, key ?= value, key => value, quoted or not, typed or not
    re.compile(rf"(?P<name>{_NAME})[\"']?\s*(?::=|\?=|\+=|=>|->|=|:)\s*(?:@?\"|'|`)?(?P<value>{_VALUE})"),
    # XML / .config: <add key="Name" value="…"/>, <Name>…</Name>, name="…" attributes
    re.compile(rf"key\s*=\s*[\"'](?P<name>{_NAME})[\"']\s+value\s*=\s*[\"'](?P<value>{_VALUE})[\"']"),
    re.compile(rf"<(?P<name>{_NAME})>\s*(?P<value>{_VALUE})\s*</"),
    # define('NAME', 'value'), setenv("NAME", "value"), Environment("NAME", "value")
    re.compile(rf"\(\s*[\"'](?P<name>{_NAME})[\"']\s*,\s*[\"'](?P<value>{_VALUE})[\"']"),
    # Dockerfile ENV NAME value, shell export NAME value-less forms, CLI flags --api-key value
    re.compile(rf"(?:ENV|ARG|export|set|setx)\s+(?P<name>{_NAME})\s+[\"']?(?P<value>{_VALUE})"),
    re.compile(rf"--(?P<name>[a-z][a-z0-9-]{{1,40}})[ =][\"']?(?P<value>{_VALUE})"),
)


def _assigned(text: str) -> Iterator[tuple[int, int]]:
    """The values assigned to a name that names a secret."""
    for pattern in _ASSIGNMENTS:
        for match in pattern.finditer(text):
            if names_a_secret(match.group("name")) and credential_shaped(match.group("value")):
                yield match.span("value")


_PROSE_WORD = re.compile(
    r"(?i:(?<![A-Za-z])(?:api[ _-]?keys?|keys?|tokens?|secrets?|passwords?|passphrases?|credentials?|dsn|webhooks?|"
    r"pat|access[ _-]?keys?)(?![A-Za-z]))|密钥|秘钥|私钥|令牌|凭证|凭据|口令"
)
_PROSE_VALUE = re.compile(r"(?<![A-Za-z0-9_\-+/=.])[A-Za-z0-9][A-Za-z0-9_\-+/=.:~]{15,400}")


def _near_a_secret_word(text: str) -> Iterator[tuple[int, int]]:
    """Credential-shaped tokens within a few words after a word for a secret, in prose."""
    for word in _PROSE_WORD.finditer(text):
        window = text[word.end() : word.end() + 120]
        for value in _PROSE_VALUE.finditer(window):
            token = value.group(0).rstrip(".:")
            if credential_shaped(token, min_length=16):
                start = word.end() + value.start()
                yield start, start + len(token)


def _validate_provider(match: re.Match[str]) -> bool:
    body = match.group("body").rstrip(".")
    return len(body) >= _MIN_BODY and any(c.isdigit() for c in body) and credential_shaped(body, min_length=_MIN_BODY)


# A wallet's recovery phrase (BIP-39): 12 to 24 words of its 2,048-word list in a row is the wallet's
# private key. The list is python-mnemonic's (the reference implementation's package). Common words
# are in it ("able", "about", "act"), so a run counts when its checksum holds or a word for a seed
# phrase is near it.
_SEED_RUN = re.compile(r"(?<![A-Za-z])[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23}(?![A-Za-z])")
_SEED_WORD = re.compile(
    r"(?i:seed|mnemonic|recovery (?:phrase|words|key)|backup phrase|secret (?:phrase|recovery)|wallet|metamask|"
    r"ledger|trezor|bip-?39)|助记词|种子词|恢复短语|私钥|钱包"
)
_SEED_LENGTHS = (24, 21, 18, 15, 12)


@cache
def _bip39() -> tuple[Mnemonic, frozenset[str]]:
    language = Mnemonic("english")
    return language, frozenset(language.wordlist)


def _seed_phrases(text: str) -> Iterator[tuple[int, int]]:
    """Runs of 12-24 BIP-39 words: with a valid checksum, or beside a word for a seed phrase."""
    if len(text) < 40:
        return
    language, words = _bip39()
    for run in _SEED_RUN.finditer(text):
        tokens = [m for m in re.finditer(r"[a-z]+", run.group(0))]
        listed = [t for t in tokens if t.group(0) in words]
        if len(listed) < len(tokens) or len(tokens) < 12:
            continue
        near = text[max(0, run.start() - 80) : run.start()]
        phrase = " ".join(t.group(0) for t in tokens)
        if _SEED_WORD.search(near) or any(
            language.check(" ".join(phrase.split()[i : i + n]))
            for n in _SEED_LENGTHS
            if n <= len(tokens)
            for i in range(len(tokens) - n + 1)
        ):
            yield run.span()


# Substrings one of which every name in SECRET_WORDS (and every _PROSE_WORD) contains: most texts hold
# none, and then the scans are skipped (tests/governance/test_recognizers_forms.py checks the cover).
_NAME_HINTS = ("key", "token", "secret", "pass", "pw", "cred", "dsn", "auth", "bearer", "sig", "salt", "hmac",
               "webhook", "sas", "pat")  # fmt: skip
_PROSE_HINTS = ("key", "token", "secret", "pass", "credential", "dsn", "webhook", "pat", "密钥", "秘钥", "私钥", "令牌",
                "凭证", "凭据", "口令")  # fmt: skip

SECRET_MODEL_RULES: tuple[Rule | ScanRule, ...] = (
    Rule(E.SECRET_PROVIDER_TOKEN, _PROVIDER_RE, _validate_provider),
    # These read the whole text; the span reported is the value, so an e-mail elsewhere in the same
    # text is not mistaken for part of the secret.
    ScanRule(E.SECRET_ASSIGNMENT, _assigned, hints=_NAME_HINTS),
    ScanRule(E.SECRET_KEYWORD_VALUE, _near_a_secret_word, hints=_PROSE_HINTS),
    ScanRule(E.SECRET_SEED_PHRASE, _seed_phrases),
)

# Compaction: "ab12" + "cd34", a key broken over lines, or spelled in groups ("npm_ BguD ZtFs R7xg …").
_CONCAT = re.compile(r"[\"']\s*\+\s*[\"']")
_SPLIT_LINES = re.compile(r"(?<=[A-Za-z0-9_\-.])\n(?=[A-Za-z0-9_\-.]{4,}(?:\n|$))")
_GROUPS = re.compile(r"(?<!\S)(?:[A-Za-z0-9_\-.]{2,6} ){3,}[A-Za-z0-9_\-.]{1,6}(?!\S)")


def _join_groups(match: re.Match[str]) -> str:
    groups = match.group(0).split(" ")
    with_digits = sum(any(c.isdigit() for c in g) for g in groups)
    return "".join(groups) if with_digits * 2 >= len(groups) else match.group(0)


def compact(text: str) -> str:
    """``text`` with concatenations, line splits and character groups of a key put back together."""
    if '"' in text or "'" in text:
        text = _CONCAT.sub("", text)
    if "\n" in text:
        text = _SPLIT_LINES.sub("", text)
    return _GROUPS.sub(_join_groups, text)
