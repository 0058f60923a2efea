"""The presidio wiring: offline, a small registry, shareable between threads, quick."""

from __future__ import annotations

import json
import socket
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from governance.recognizers import ENTITY_LEVELS, EntityType, detect_sensitivity
from governance.recognizers import engine as engine_module
from governance.recognizers.credentials import CREDENTIAL_RULES
from governance.recognizers.engine import (
    RuleRecognizer,
    build_analyzer,
    build_detector,
    get_detector,
    offline_tld_extract,
)
from governance.recognizers.identity import IDENTITY_RULES
from governance.recognizers.identity_forms import IDENTITY_FORM_RULES
from governance.recognizers.lexicons import LEXICON_RULES
from governance.recognizers.secret_model import SECRET_MODEL_RULES


def _refuse_network(*args: object, **kwargs: object) -> None:
    raise AssertionError("the detector tried to use the network")


def test_it_never_touches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _refuse_network)
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse_network)
    monkeypatch.setattr(socket, "create_connection", _refuse_network)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse_network)

    # A fresh detector, so that tldextract loads its suffix list here, under the block.
    detector = build_detector()
    found = detector.entity_types(
        "mail bob@example.co.uk, docs at https://docs.example.com/guide?x=1 and "
        "postgres://app:" + "s3cr3t-pw" + "@db.example.com/app"
    )

    assert EntityType.EMAIL_ADDRESS in found
    assert EntityType.SECRET_CONNECTION_STRING in found


def test_the_suffix_list_comes_from_the_bundled_snapshot() -> None:
    extract = offline_tld_extract()

    assert extract.suffix_list_urls == ()
    assert extract.fallback_to_snapshot
    assert extract("bob@mail.example.co.uk").fqdn == "mail.example.co.uk"


def test_an_email_on_a_made_up_tld_is_not_an_address() -> None:
    assert detect_sensitivity("see config@settings.local_dev and x@y.zz9").level == "low"


def test_it_registers_only_our_recognizers_and_two_of_presidios() -> None:
    analyzer = build_analyzer()

    names = sorted(recognizer.name for recognizer in analyzer.registry.recognizers)
    entities = set(analyzer.get_supported_entities("en"))

    assert names == [
        "CredentialRecognizer",
        "GatedIbanRecognizer",
        "IdentityFormRecognizer",
        "IdentityRecognizer",
        "LexiconPatternRecognizer",
        "LexiconRecognizer",
        "OfflineEmailRecognizer",
        "SecretModelRecognizer",
    ]
    assert entities <= set(ENTITY_LEVELS)
    assert not entities & {"UK_NHS", "US_BANK_NUMBER", "US_DRIVER_LICENSE", "PERSON", "LOCATION", "NRP"}


def test_every_entity_type_has_a_level() -> None:
    assert set(ENTITY_LEVELS) == set(EntityType)


@pytest.mark.parametrize("text", ["call 212-555-0143", "电话 13800138000", "+1 415 555 0123"])
def test_a_phone_number_is_only_a_phone_number(text: str) -> None:
    assert detect_sensitivity(text).entity_types == ("PHONE_NUMBER",)


def test_the_detector_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built = []

    def build() -> object:
        built.append(1)
        time.sleep(0.05)
        return object()

    monkeypatch.setattr(engine_module, "_detector", None)
    monkeypatch.setattr(engine_module, "build_detector", build)
    with ThreadPoolExecutor(max_workers=8) as pool:
        detectors = list(pool.map(lambda _: get_detector(), range(16)))

    assert len(built) == 1
    assert all(detector is detectors[0] for detector in detectors)


def test_it_is_safe_to_share_between_threads() -> None:
    texts = [
        "身份证 320102199503014564",
        "I'm a backend engineer",
        "my salary is 30k",
        "token " + "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
        "记住我喜欢表格",
    ] * 40
    expected = [detect_sensitivity(text) for text in texts]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(detect_sensitivity, texts))

    assert results == expected


def test_spacy_keeps_no_copy_of_what_it_saw() -> None:
    secret = "Zq8" + "Xk2Pm7Rt4Wn9Ls1Vb"
    detect_sensitivity(f"the password is {secret}")

    strings = get_detector().analyzer.nlp_engine.nlp.vocab.strings

    assert secret not in strings
    assert f"{secret}." not in strings


@pytest.mark.parametrize(
    "text",
    [
        "a" * 20_000,
        "1" * 20_000,
        "1 " * 10_000,
        "密码是" * 5_000,
        "a@" + "b-" * 10_000,
        "x://" + "a:" * 10_000,
        "Ab1+/" * 4_000,
        "my " * 7_000 + "diagnosed",
        "我在" + "组" * 5_000,
    ],
)
def test_adversarial_input_takes_linear_time(text: str) -> None:
    start = time.perf_counter()
    detect_sensitivity(text)

    assert time.perf_counter() - start < 2.0


def test_a_short_text_is_analysed_in_about_a_millisecond() -> None:
    texts = [
        "记住我在支付组做后端，以后回答用中文、分步骤、带检查清单。",
        "I work on the payments team as a backend engineer; our stack is Django and Postgres. "
        "Please format code blocks with ruff defaults and keep answers under 200 words, thanks!",
    ]
    detect_sensitivity(texts[0])
    timings = []
    for _ in range(50):
        for text in texts:
            start = time.perf_counter()
            detect_sensitivity(text)
            timings.append(time.perf_counter() - start)

    # Measured at 0.15-0.4 ms; the bound only catches an order-of-magnitude regression.
    assert statistics.median(timings) < 0.01


def test_a_rule_recognizer_runs_exactly_the_rules_whose_hints_occur() -> None:
    # One automaton pass finds the hints present; it must pick the rules each rule's own hint test picks.
    root = Path(__file__).resolve().parents[2]
    texts = [
        json.loads(line)["candidate"]["content"]
        for name in ("fixtures/policy_eval.jsonl", "fixtures/gate/secrets.jsonl", "fixtures/gate/pii.jsonl")
        for line in (root / name).open(encoding="utf-8")
    ]
    rule_sets = {
        "CredentialRecognizer": CREDENTIAL_RULES,
        "SecretModelRecognizer": SECRET_MODEL_RULES,
        "IdentityRecognizer": IDENTITY_RULES,
        "IdentityFormRecognizer": IDENTITY_FORM_RULES,
        "LexiconPatternRecognizer": LEXICON_RULES,
    }
    found_any = 0
    for name, rules in rule_sets.items():
        recognizer = RuleRecognizer(name, rules)
        for text in texts:
            lowered = text.lower()
            one_by_one = [
                (rule.entity.value, start, end)
                for rule in rules
                if rule.might_match(lowered)
                for start, end in rule.spans(text)
            ]
            at_once = [(r.entity_type, r.start, r.end) for r in recognizer.analyze(text, entities=[])]
            assert at_once == one_by_one, (name, text)
            found_any += bool(at_once)
    assert found_any > 500  # the corpus exercises the rules, not only their absence
