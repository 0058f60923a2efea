"""Rule 12's contradiction detector: the same *aspect* of a preference or profile with another value.

An aspect is one thing a memory can say only one way at a time: the answer language, the answer
length, the format, the tone, the code-comment language, the region, the UI theme, the spelling, the
units. A text names an aspect's value either asserted ("answers in English") or negated ("not short
ones", "不要用表格", "use prose instead of tables"). Two texts contradict on an aspect when one
asserts what the other negates, or both assert values and share none ("short" vs "long now").

Aspects need a context word in the same sentence ("answers", "tone", "region", …) so that
"I work on the English-learning app" says nothing about the answer language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from governance.pipeline.lexicons.prefilter import Lexicon, scanning
from governance.pipeline.lexicons.text import NEGATOR, PHRASE_BREAK, alt, compile_any, en, prepare, sentences, zh

_ANSWER_WORDS = alt(
    en("answer\\w*", "repl\\w*", "respon\\w*", "explain\\w*", "explanations?", "outputs?", "summar\\w*", "messages?"),
    zh("回答", "回复", "答案", "解释", "说明", "输出", "总结", "交流", "答复"),
)
_COMMENT_WORDS = alt(en("comments?", "docstrings?", "code comments?"), zh("注释"))
_PREFERENCE_VERBS = alt(
    en("use", "prefer\\w*", "like", "want", "write", "format\\w*", "markdown", "show", "give me", "in"),
    zh("用", "喜欢", "偏好", "希望", "要", "格式", "写", "展示", "给我"),
)


@dataclass(frozen=True)
class _Aspect:
    name: str
    values: tuple[tuple[str, Lexicon], ...]
    context: Lexicon | None  # must occur in the sentence
    exclude: Lexicon | None = None  # must not occur in the phrase (the other aspect owns it)
    style: bool = True  # a format/language/style aspect: content naming one is a preference

    any_value: Lexicon = field(init=False)  # matches wherever one of the values does

    def __post_init__(self) -> None:
        # Built with the aspect, at import: a lexicon made inside a scan wouldn't be part of it.
        union = Lexicon(re.compile(alt(*(pattern.pattern for _, pattern in self.values)), re.IGNORECASE))
        object.__setattr__(self, "any_value", union)


def _code(upper: str) -> str:
    """A region code matched in capitals only: "US" is a region, "us" a pronoun."""
    return rf"(?-i:(?<![A-Za-z0-9_]){upper}(?![A-Za-z0-9_]))"


def _values(**patterns: str) -> tuple[tuple[str, Lexicon], ...]:
    return tuple((name, Lexicon(re.compile(pattern, re.IGNORECASE))) for name, pattern in patterns.items())


_LANGUAGES = _values(
    zh=alt(en("chinese", "mandarin"), zh("中文", "汉语", "普通话", "国语", "简体")),
    en=alt(en("english"), zh("英文", "英语")),
    ja=alt(en("japanese"), zh("日语", "日文")),
    ko=alt(en("korean"), zh("韩语", "韩文")),
    fr=alt(en("french"), zh("法语", "法文")),
    de=alt(en("german"), zh("德语", "德文")),
    es=alt(en("spanish"), zh("西班牙语", "西语")),
    pt=alt(en("portuguese"), zh("葡萄牙语")),
    ru=alt(en("russian"), zh("俄语", "俄文")),
    it=alt(en("italian"), zh("意大利语")),
)
_LANGUAGE_NAMES = alt(*(pattern.pattern for _, pattern in _LANGUAGES))

_ASPECTS = (
    _Aspect(
        "answer_language",
        _LANGUAGES,
        context=compile_any(
            _ANSWER_WORDS,
            en("write", "writing", "written", "speak", "talk", "language", f"in {_LANGUAGE_NAMES}"),
            zh(f"用{_LANGUAGE_NAMES}", "说", "写", "语言", "讲"),
        ),
        exclude=compile_any(_COMMENT_WORDS),
    ),
    _Aspect(
        "comment_language",
        _LANGUAGES,
        context=compile_any(_COMMENT_WORDS),
        exclude=compile_any(en("answer\\w*", "repl\\w*", "respon\\w*"), zh("回答", "回复", "答复")),
    ),
    _Aspect(
        "answer_length",
        _values(
            short=alt(
                en(
                    "short(?:er)?",
                    "brief(?:er)?",
                    "concise",
                    "succinct",
                    "terse",
                    "compact",
                    "to the point",
                    "tl;?dr",
                    "(?:at most|under|fewer than|less than|no more than|max(?:imum)?) \\d+ (?:words|lines|sentences)",
                ),
                zh(
                    "简短",
                    "简洁",
                    "简明",
                    "精简",
                    "短一点",
                    "短一些",
                    "短些",
                    "太短",
                    "很短",
                    "短的",
                    "短回答",
                    "不超过\\s*\\d+\\s*(?:行|字|句|段)",
                ),
            ),
            long=alt(
                en(
                    "long(?:er)?",
                    "detailed",
                    "in-depth",
                    "in depth",
                    "thorough",
                    "verbose",
                    "elaborate",
                    "comprehensive",
                    "exhaustive",
                ),
                zh(
                    "详细", "详尽", "长一点", "长一些", "展开", "深入", "太长", "很长", "长篇", "冗长", "长的", "长回答"
                ),
            ),
        ),
        context=compile_any(
            _ANSWER_WORDS,
            en("lines", "words", "sentences", "tl;?dr"),
            zh("篇幅", "日报", "报告", "行", "字"),
        ),
    ),
    _Aspect(
        "format",
        _values(
            table=alt(en("tables?", "tabular"), zh("表格")),
            list=alt(
                en("bullet\\w*(?: points?| lists?)?", "lists?", "checklists?"),
                zh("列表", "分点", "要点", "条目", "清单"),
            ),
            numbered=alt(en("numbered(?: lists?| steps?)?"), zh("编号", "序号")),
            prose=alt(en("prose", "paragraphs?", "plain text"), zh("段落", "纯文本", "成段")),
        ),
        context=compile_any(_ANSWER_WORDS, _PREFERENCE_VERBS),
    ),
    _Aspect(
        "tone",
        _values(
            formal=alt(en("formal", "professional", "polite"), zh("正式", "专业", "礼貌", "书面")),
            casual=alt(
                en("casual", "informal", "relaxed", "friendly", "chatty", "conversational"),
                zh("随意", "轻松", "口语", "活泼", "随和"),
            ),
            humorous=alt(en("humou?r\\w*", "funny", "jokes?", "witty"), zh("幽默", "风趣")),
        ),
        context=compile_any(
            en("tone", "style", "voice", "register", "write", "talk", "speak"),
            zh("语气", "风格", "口吻", "文风", "说话"),
            _ANSWER_WORDS,
        ),
    ),
    _Aspect(
        "region",
        _values(
            eu=alt(_code("EU"), en("europe\\w*", "european union"), zh("欧洲", "欧盟")),
            us=alt(_code("USA?"), en("united states", "america(?!n english)"), zh("美国")),
            uk=alt(_code("UK"), en("united kingdom", "britain"), zh("英国")),
            cn=alt(en("china", "mainland"), zh("中国", "大陆", "国内")),
            apac=alt(_code("APAC"), en("asia(?:-pacific)?"), zh("亚太")),
            jp=alt(en("japan"), zh("日本")),
        ),
        context=compile_any(
            en("region", "located", "based", "lives?", "living", "resid\\w*", "country", "data residency"),
            zh("地区", "区域", "所在", "位于", "住在", "常驻", "国家", "驻留"),
        ),
        style=False,
    ),
    _Aspect(
        "theme",
        _values(
            dark=alt(en("dark(?: mode| theme)?"), zh("深色", "暗色", "夜间模式", "黑色主题", "暗黑")),
            light=alt(en("light(?: mode| theme)?"), zh("浅色", "亮色", "白色主题", "日间模式")),
        ),
        context=compile_any(en("mode", "theme", "ui", "colou?rs?"), zh("主题", "模式", "界面", "配色", "颜色")),
    ),
    _Aspect(
        "spelling",
        _values(
            gb=alt(en("british", "uk english"), zh("英式")),
            us=alt(en("american", "us english"), zh("美式")),
        ),
        context=compile_any(en("spell\\w*", "english"), zh("拼写", "英语", "英文")),
    ),
    _Aspect(
        "units",
        _values(
            metric=alt(en("metric", "celsius", "kilomet\\w*"), zh("公制", "摄氏", "公里")),
            imperial=alt(en("imperial", "fahrenheit", "miles"), zh("英制", "华氏", "英里")),
        ),
        context=compile_any(en("units?", "measure\\w*", "temperature", "distance"), zh("单位", "温度", "距离")),
    ),
)

# Phrases split further at a contrast: "not short but long", "不是简短而是详细".
_SEGMENT_BREAK = re.compile(
    alt(PHRASE_BREAK, en("but", "however", "whereas", "instead(?! of)"), zh("而是", "但是", "但", "不过", "可是")),
    re.IGNORECASE,
)
_VALUE_NEGATOR = compile_any(
    NEGATOR.pattern,
    en("without", "instead of", "rather than", "less", "fewer", "stop", "hate", "dislike", "no more", "not so"),
    zh("不是", "少用", "(?<![至多不])少", "不用", "不喜欢", "不想", "讨厌", "而非", "而不是", "无需", "不太", "不必"),
)


@dataclass(frozen=True)
class AspectValues:
    asserted: frozenset[str]
    negated: frozenset[str]


# Every (aspect, value) :func:`aspects` can report: a finite vocabulary, so what a text says about its
# aspects can be kept as keyed tags and read back (memories/aspect_index.py).
VOCABULARY: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (aspect.name, tuple(value for value, _ in aspect.values)) for aspect in _ASPECTS
)


def aspects(text: str) -> dict[str, AspectValues]:
    """Each aspect ``text`` names, with the values it asserts and the values it negates."""
    found: dict[str, tuple[set[str], set[str]]] = {}
    with scanning(prepare(text)):  # the value lexicons read many segments of this one text
        _collect(sentences(prepare(text, fold=False)), found)
    return {name: AspectValues(frozenset(a), frozenset(n)) for name, (a, n) in found.items()}


def _collect(prepared_sentences: list[str], found: dict[str, tuple[set[str], set[str]]]) -> None:
    """Add to ``found`` each aspect value the sentences assert or negate."""
    for sentence in prepared_sentences:
        segments = _SEGMENT_BREAK.split(sentence)
        for aspect in _ASPECTS:
            if aspect.context is not None and not aspect.context.search(sentence):
                continue
            for segment in segments:
                if aspect.exclude is not None and aspect.exclude.search(segment):
                    continue
                if not aspect.any_value.may_match(segment):
                    continue
                for value, pattern in aspect.values:
                    for match in pattern.finditer(segment):
                        asserted, negated = found.setdefault(aspect.name, (set(), set()))
                        if _VALUE_NEGATOR.search(segment[: match.start()]):
                            negated.add(value)
                        else:
                            asserted.add(value)


_STYLE_ASPECTS = frozenset(aspect.name for aspect in _ASPECTS if aspect.style)


def has_style_aspect(text: str, found: Mapping[str, AspectValues] | None = None) -> bool:
    """Whether ``text`` talks about a format, language or style aspect (a preference, not a fact).

    ``found``: the text's :func:`aspects`, when the caller has them already.
    """
    return any(name in _STYLE_ASPECTS for name in (aspects(text) if found is None else found))


def find_contradiction(candidate: str, existing: str) -> str | None:
    """The aspect on which ``candidate`` contradicts ``existing``, or None."""
    return contradiction(aspects(candidate), aspects(existing))


def contradiction(new: Mapping[str, AspectValues], old: Mapping[str, AspectValues]) -> str | None:
    """The aspect on which the texts with these :func:`aspects` contradict, or None."""
    for name in sorted(new.keys() & old.keys()):
        if _opposed(new[name], old[name]):
            return name
    return None


def _opposed(new: AspectValues, old: AspectValues) -> bool:
    if new.asserted & old.negated or new.negated & old.asserted:
        return True
    return bool(new.asserted and old.asserted and not new.asserted & old.asserted)
