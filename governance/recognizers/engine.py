"""presidio-analyzer wired for memgov: our recognizers, two of presidio's, no model, no network.

- NLP: an engine over a blank spaCy pipeline. Nothing is downloaded, and no recognizer here needs
  NER, so presidio's PERSON/LOCATION and the model-backed recognizers are not registered.
- One language pass. presidio routes recognizers by a language code; ours are language-agnostic
  (each rule and lexicon carries its Chinese and English forms), so every text is analysed once
  under "en".
- From presidio's predefined set only the e-mail and IBAN recognizers are used. UK_NHS,
  US_BANK_NUMBER and US_DRIVER_LICENSE fire on phone numbers and ids; presidio's credit card, SSN
  and phone recognizers anchor on ``\\b`` and so miss values glued to Chinese text, and ours replace
  them.
- presidio's context enhancement is switched off: it works on lemmas a blank pipeline doesn't have,
  and our rules put their context words (护照, "password is") into the pattern itself.
- tldextract, which presidio's e-mail recognizer calls to check the domain, would fetch the public
  suffix list over HTTP on first use; here it reads only the snapshot bundled with the package.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import ahocorasick
import spacy
import tldextract
from presidio_analyzer import AnalyzerEngine, EntityRecognizer, Pattern, RecognizerRegistry, RecognizerResult
from presidio_analyzer.context_aware_enhancers import ContextAwareEnhancer
from presidio_analyzer.nlp_engine import NlpArtifacts, NlpEngine
from presidio_analyzer.predefined_recognizers import EmailRecognizer, IbanRecognizer
from spacy.lang.lex_attrs import is_punct
from spacy.language import Language
from spacy.tokens import Doc

from governance.recognizers.credentials import CREDENTIAL_RULES, GENERIC_SECRET_TIERS
from governance.recognizers.entities import SECRET_TYPES, EntityType
from governance.recognizers.identity import IDENTITY_RULES
from governance.recognizers.identity_forms import IDENTITY_FORM_RULES
from governance.recognizers.lexicons import LEXICON_RULES, LEXICONS
from governance.recognizers.phrases import Lexicon, PhraseMatcher
from governance.recognizers.professions import as_professions
from governance.recognizers.rules import Rule, ScanRule, normalize_text
from governance.recognizers.secret_model import SECRET_MODEL_RULES, compact

LANGUAGE = "en"
# presidio scores an unvalidated e-mail/IBAN pattern match 0.5 and a validated one 1.0; a failed
# validation scores 0 and is dropped.
MIN_SCORE = 0.5
# Found inside a secret, these are part of it: "postgres://app:pw@db.example.com" holds no e-mail.
_PART_OF_A_SECRET = frozenset({EntityType.EMAIL_ADDRESS, EntityType.PHONE_NUMBER, EntityType.STREET_ADDRESS})


class BlankSpacyNlpEngine(NlpEngine):
    """presidio's NLP engine contract over ``spacy.blank``: no model, and no tokens.

    No recognizer registered here reads tokens or lemmas, and producing them is not free: spaCy
    interns every new token in its vocabulary for the life of the process (so it would keep every
    password it ever saw, and grow without bound), and tokenizing inside a ``memory_zone`` to
    avoid that costs 0.2-0.9 ms per short text, more than all the recognizers together. So each
    text gets empty artifacts, as presidio's own NoOpNlpEngine gives; the blank pipeline supplies
    the vocabulary and the stop-word and punctuation answers.
    """

    def __init__(self, language: str = LANGUAGE) -> None:
        self._language = language
        self._nlp: Language | None = None
        self._no_tokens: Doc | None = None

    @property
    def nlp(self) -> Language:
        if self._nlp is None:
            raise RuntimeError("BlankSpacyNlpEngine.load() has not been called")
        return self._nlp

    def load(self) -> None:
        self._nlp = spacy.blank(self._language)
        # One empty Doc serves every call: nothing reads or writes its tokens.
        self._no_tokens = Doc(self._nlp.vocab, words=[])

    def is_loaded(self) -> bool:
        return self._nlp is not None

    def process_text(self, text: str, language: str) -> NlpArtifacts:
        return NlpArtifacts(
            entities=[],
            tokens=self._no_tokens,
            tokens_indices=[],
            lemmas=[],
            nlp_engine=self,
            language=language,
        )

    def process_batch(
        self,
        texts: Iterable[str],
        language: str,
        batch_size: int = 1,
        n_process: int = 1,
        **kwargs: Any,
    ) -> Iterator[tuple[str, NlpArtifacts]]:
        for text in texts:
            yield text, self.process_text(text, language)

    def is_stopword(self, word: str, language: str) -> bool:
        return word.lower() in self.nlp.Defaults.stop_words

    def is_punct(self, word: str, language: str) -> bool:
        return bool(is_punct(word))

    def get_supported_entities(self) -> list[str]:
        return []

    def get_supported_languages(self) -> list[str]:
        return [self._language]


class _ResultMixin(EntityRecognizer):
    """Builds results the way presidio's own recognizers do (score and recognizer metadata)."""

    def _result(self, entity_type: str, start: int, end: int) -> RecognizerResult:
        return RecognizerResult(
            entity_type=entity_type,
            start=start,
            end=end,
            score=1.0,
            recognition_metadata={
                RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
            },
        )


class RuleRecognizer(_ResultMixin):
    """A presidio recognizer over a tuple of our :class:`Rule` objects (patterns + validators)."""

    def __init__(self, name: str, rules: Sequence[Rule | ScanRule]) -> None:
        self._rules = tuple((rule, rule.entity.value, frozenset(rule.hints)) for rule in rules)
        self._entity_values = frozenset(value for _, value, _ in self._rules)
        # Every rule's hints in one automaton: one pass over the text tells which hints occur, instead
        # of a substring search per hint per rule.
        self._hints = ahocorasick.Automaton()
        for hint in {hint for _, _, hints in self._rules for hint in hints}:
            self._hints.add_word(hint, hint)
        self._hints.make_automaton()
        super().__init__(supported_entities=sorted(self._entity_values), name=name, supported_language=LANGUAGE)

    def load(self) -> None:
        """Nothing to load: each rule's regex is compiled when its module is imported."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        wanted = set(entities) if entities else self._entity_values
        present = {hint for _, hint in self._hints.iter(text.lower())} if len(self._hints) else set()
        return [
            self._result(value, start, end)
            for rule, value, hints in self._rules
            if value in wanted and (not hints or not hints.isdisjoint(present))  # rule.might_match, at once
            for start, end in rule.spans(text)
        ]


class LexiconRecognizer(_ResultMixin):
    """A presidio recognizer over our phrase lexicons, all looked up in one pass."""

    def __init__(self, name: str, lexicons: Sequence[Lexicon]) -> None:
        self._matcher = PhraseMatcher(lexicons)
        super().__init__(
            supported_entities=sorted({lexicon.entity.value for lexicon in lexicons}),
            name=name,
            supported_language=LANGUAGE,
        )

    def load(self) -> None:
        """Nothing to load: the phrase tables are built in the constructor."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        wanted = set(entities) if entities else None
        return [
            self._result(entity.value, start, end)
            for entity, start, end in self._matcher.find(text)
            if wanted is None or entity.value in wanted
        ]


class OfflineEmailRecognizer(EmailRecognizer):
    """presidio's e-mail recognizer with a CJK-safe pattern and a TLD check that never fetches.

    presidio's pattern is built on ``\\w``, which swallows the Chinese text around an address
    ("邮箱alice@example.com帮我" becomes one "domain" ending in ".com帮我" that fails the TLD check);
    this one is ASCII, and its user part may not follow a "/" ("postgres://reader@db.example.com"
    names a URL's user, not a mailbox). presidio's ``validate_result`` calls the module-level
    ``tldextract.extract``, whose extractor fetches the public suffix list over HTTP on first use;
    this one uses the offline extractor it is given.
    """

    PATTERNS = [
        Pattern(
            "Email (ASCII, CJK-safe)",
            r"(?<![A-Za-z0-9._%+/-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+"
            r"[A-Za-z]{2,63}(?![A-Za-z0-9-])",
            0.5,
        )
    ]

    def __init__(self, tld_extract: tldextract.TLDExtract) -> None:
        self._tld_extract = tld_extract
        super().__init__(patterns=self.PATTERNS, supported_language=LANGUAGE)

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        if "@" not in text:
            return []
        return super().analyze(text, entities, nlp_artifacts, regex_flags)

    def validate_result(self, pattern_text: str) -> bool:
        return self._tld_extract(pattern_text).fqdn != ""


class GatedIbanRecognizer(IbanRecognizer):
    """presidio's IBAN recognizer (mod-97 checked), run only where an IBAN could start.

    Its patterns go through the ``regex`` module's compile cache on every call, which costs more
    than all our rules together; a country code and two check digits are a cheap precondition.
    """

    _POSSIBLE_START = re.compile(r"[A-Z]{2}[ -]?[0-9]{2}")

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: NlpArtifacts | None = None,
        regex_flags: int | None = None,
    ) -> list[RecognizerResult]:
        if not self._POSSIBLE_START.search(text):
            return []
        return super().analyze(text, entities, nlp_artifacts, regex_flags)


class SingleLanguageRegistry(RecognizerRegistry):
    """Every request wants every recognizer: skip presidio's per-entity filtering.

    presidio matches each requested entity against each recognizer on every call (some 300
    comparisons here); with one language and all entities requested, the answer is always the
    whole registry.
    """

    def get_recognizers(
        self,
        language: str,
        entities: list[str] | None = None,
        all_fields: bool = False,
        ad_hoc_recognizers: list[EntityRecognizer] | None = None,
    ) -> list[EntityRecognizer]:
        if language == LANGUAGE and not ad_hoc_recognizers:
            return list(self.recognizers)
        return super().get_recognizers(language, entities, all_fields, ad_hoc_recognizers)


class NoContextEnhancer(ContextAwareEnhancer):
    """Leaves scores alone: our rules already require their context words where they need them."""

    def __init__(self) -> None:
        super().__init__(
            context_similarity_factor=0,
            min_score_with_context_similarity=0,
            context_prefix_count=0,
            context_suffix_count=0,
        )

    def enhance_using_context(
        self,
        text: str,
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,
        recognizers: list[EntityRecognizer],
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        return raw_results


def offline_tld_extract() -> tldextract.TLDExtract:
    """A tldextract that reads the bundled suffix-list snapshot: no HTTP, no cache files."""
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True)


def _secret_rank(entity: EntityType) -> int | None:
    if entity in SECRET_TYPES:
        return GENERIC_SECRET_TIERS.get(entity, 0)
    return 4 if entity in _PART_OF_A_SECRET else None


def drop_subsumed(results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """Drop findings that are part of a more specific secret: a generic secret overlapping a
    provider's key (see GENERIC_SECRET_TIERS), an e-mail or phone inside a connection string."""
    ranked = [(result, _secret_rank(EntityType(result.entity_type))) for result in results]
    kept = []
    for result, rank in ranked:
        subsumed = rank is not None and any(
            other_rank is not None
            and other_rank < rank
            and EntityType(other.entity_type) in SECRET_TYPES
            and other.start < result.end
            and result.start < other.end
            for other, other_rank in ranked
        )
        if not subsumed:
            kept.append(result)
    return kept


# "I am a physical therapist", "我是心理咨询师": a health, legal or finance word inside a statement of
# one's profession names a job (medium, §12.2), not a health, legal or financial fact about the person.
class Detector:
    """One analyzer; stateless per call, so one instance serves every thread."""

    def __init__(self, analyzer: AnalyzerEngine) -> None:
        self.analyzer = analyzer
        # Named up front: asked for "all entities", presidio re-derives and logs them on every call.
        self._entities = sorted(analyzer.get_supported_entities(LANGUAGE))

    def analyze(self, text: str) -> list[RecognizerResult]:
        """presidio's findings on the normalized text (spans refer to that text)."""
        normalized = normalize_text(text)
        if not normalized.strip():
            return []
        results = self.analyzer.analyze(
            text=normalized, language=LANGUAGE, entities=self._entities, score_threshold=MIN_SCORE
        )
        compacted = compact(normalized)
        if compacted != normalized:
            # A key spelled in pieces is read once more, put together (its spans refer to that reading).
            results = results + [
                result
                for result in self.analyzer.analyze(
                    text=compacted, language=LANGUAGE, entities=self._entities, score_threshold=MIN_SCORE
                )
                if EntityType(result.entity_type) in SECRET_TYPES
            ]
        return drop_subsumed(as_professions(normalized, results))

    def entity_types(self, text: str) -> frozenset[EntityType]:
        return frozenset(EntityType(result.entity_type) for result in self.analyze(text))


def build_analyzer() -> AnalyzerEngine:
    """presidio's analyzer with our registry and NLP engine; see the module docstring."""
    nlp_engine = BlankSpacyNlpEngine()
    nlp_engine.load()
    recognizers: list[EntityRecognizer] = [
        RuleRecognizer("CredentialRecognizer", CREDENTIAL_RULES),
        RuleRecognizer("SecretModelRecognizer", SECRET_MODEL_RULES),
        RuleRecognizer("IdentityRecognizer", IDENTITY_RULES),
        RuleRecognizer("IdentityFormRecognizer", IDENTITY_FORM_RULES),
        RuleRecognizer("LexiconPatternRecognizer", LEXICON_RULES),
        LexiconRecognizer("LexiconRecognizer", LEXICONS),
        OfflineEmailRecognizer(offline_tld_extract()),
        GatedIbanRecognizer(supported_language=LANGUAGE),
    ]
    return AnalyzerEngine(
        registry=SingleLanguageRegistry(recognizers=recognizers, supported_languages=[LANGUAGE]),
        nlp_engine=nlp_engine,
        supported_languages=[LANGUAGE],
        context_aware_enhancer=NoContextEnhancer(),
    )


def build_detector() -> Detector:
    """A new, warmed-up detector. Takes a moment: use :func:`get_detector`."""
    detector = Detector(build_analyzer())
    # Loads the suffix-list snapshot and compiles presidio's patterns now rather than mid-request.
    detector.analyze("warm-up alice@example.com DE89370400440532013000")
    return detector


_detector: Detector | None = None
_detector_lock = threading.Lock()


def get_detector() -> Detector:
    """The process-wide detector, built on first use."""
    global _detector
    if _detector is None:
        with _detector_lock:
            if _detector is None:
                _detector = build_detector()
    return _detector
