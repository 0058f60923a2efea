"""Rule 9: a question or a request for this turn — what the person asks the assistant now, not what it
should remember.

"What is the capital of Australia?", "如何在家里制作炸弹？", "Write a poem about the sea", "告诉我怎么退款",
"帮我写一个快速排序函数": each asks for an answer or one piece of work now. Kept as a memory, it would be
injected into every later prompt as if it were a fact about the person or a standing rule. A text is a
request for now when every sentence of it (after a request to remember it) asks a question or asks for
one piece of output, and nothing in it lasts or generalizes: no standing cue (from now on, always, 以后,
每次), no condition (when, if, 如果, 遇到), no quantifier over occasions (every, all, 都, 所有), no
preference (prefer, like, 喜欢, 习惯). "Can you always answer in English?", "Write commit messages in
the imperative", "Explain things simply" and "回答都用中文" are standing requests, not requests for now.
"""

from __future__ import annotations

import re

from governance.pipeline.lexicons.directive import strip_frame
from governance.pipeline.lexicons.text import SENTENCE_BREAK, compile_any, en, zh
from governance.pipeline.lexicons.transient import lasting

_POLITE_EN = r"(?:(?:please|kindly|can you|could you|would you|will you|hey|ok|so|now)[,\s]+)*"
_POLITE_ZH = r"(?:请|麻烦|能不能|能否|可以|可不可以|你)?(?:帮我|给我|为我|替我|帮忙)?"

# A wh-word and the inverted auxiliary of a question ("what is", "how do", "how to"): "what I care about
# is …" and "who to contact: Anna" are statements.
_AUXILIARY = (
    "is|are|was|were|am|do|does|did|can|could|would|will|should|shall|may|might|must|has|have|had|isn't|"
    "aren't|don't|doesn't|didn't|can't|won't"
)
_QUESTION_EN = re.compile(
    rf"^{_POLITE_EN}(?:(?:what|why|where|who|whom|whose|which|when)(?:'s|'re| (?:{_AUXILIARY})(?![a-z0-9_]))"
    rf"|how(?:'s| (?:{_AUXILIARY}|to|many|much|long|often|far)(?![a-z0-9_])))"
)
_QUESTION_ZH = re.compile(
    r"^(?:请问)?(?:如何|怎么|怎样|为什么|为啥|什么是|哪里|哪儿|哪个|谁|是否|能否|能不能|可不可以|有没有)"
    r"|(?:吗|呢|么)[\s。]*$"
)
# One piece of output asked for now: a production verb and a single or counted new thing ("write a poem",
# "give me three ideas", "写一封邮件"), or a telling verb and an embedded question ("tell me how to …").
_PRODUCE_EN = (
    "write|draft|compose|generate|create|make|produce|design|build|draw|give me|send me|find me|suggest|"
    "recommend|list|name|translate|summari[sz]e|solve|calculate|compute|plan|outline|help me (?:write|make|"
    "build|find|plan|draft|create|with)"
)
_OUTPUT_EN = re.compile(
    rf"^{_POLITE_EN}(?:{_PRODUCE_EN})(?: me| us)? (?:(?:a|an|one|two|three|four|five|ten|\d+|some|a few|a "
    r"couple of)(?![a-z0-9_])|this(?![a-z0-9_]))"
)
_TELL_EN = re.compile(
    rf"^{_POLITE_EN}(?:tell|show|teach|explain to|walk) (?:me|us)(?: through)? (?:how|what|why|where|who|which|"
    r"whether|the (?:best|easiest|fastest|quickest|cheapest) (?:way|method)|the steps|a way|ways)(?![a-z0-9_])"
    rf"|^{_POLITE_EN}explain (?:how|what|why|whether)(?![a-z0-9_])"
    rf"|^{_POLITE_EN}(?:give|send|provide|list|show) (?:me|us) (?:(?:some|detailed|step-by-step|clear|full|exact) )*"
    r"(?:instructions|steps|directions|a guide|guidance|tips|ideas|suggestions|options|examples) (?:to|for|on|about)"
    r"(?![a-z0-9_])"
)
_OUTPUT_ZH = re.compile(
    rf"^{_POLITE_ZH}(?:写|编|生成|做|画|设计|翻译|总结|列出|列举|推荐|计算|算|查|找|起|想)(?:一下)?"
    r"(?:一|两|三|几|[0-9]+)(?:个|封|篇|首|段|份|张|条|本|句|组|套|种|些|下)"
)
_TELL_ZH = re.compile(
    rf"^{_POLITE_ZH}(?:告诉我|教我|教教我|给我讲讲|讲讲|说说|解释一下|解释)(?:一下)?"
    r"(?:如何|怎么|怎样|为什么|为啥|什么|哪|谁|多少|是否)"
)
_SENTENCE = re.compile(f"({SENTENCE_BREAK})")
# What makes a request lasting or general rather than for now.
_GENERAL = compile_any(
    en(
        "when",
        "whenever",
        "if",
        "unless",
        "every",
        "each",
        "all",
        "any",
        "always",
        "never",
        "usually",
        "prefer",
        "preferred",
        "like",
        "love",
        "hate",
        "want",
        "favou?rite",
        "remind",
        "next time",
    ),
    zh(
        "以后",
        "如果",
        "遇到",
        "每当",
        "的时候",
        "之前",
        "都",
        "所有",
        "凡",
        "总",
        "每",
        "一律",
        "默认",
        "喜欢",
        "偏好",
        "习惯",
        "希望",
        "想要",
        "讨厌",
        "倾向",
        "下次",
        "提醒",
    ),
)


def request_for_now(prepared: str) -> bool:
    """Whether prepared text only asks a question or for one piece of output now (see the module)."""
    if lasting(prepared) or _GENERAL.search(prepared):
        return False
    pieces = _SENTENCE.split(prepared)  # sentence, its end mark, sentence, …: a question keeps its "?"
    marks = [*pieces[1::2], ""]
    parts = [strip_frame(text.strip(" ,，:：-")) + mark for text, mark in zip(pieces[::2], marks, strict=True)]
    parts = [part for part in parts if part.strip(" .;!?。！？；\n")]
    return bool(parts) and all(_asks_now(part) for part in parts)


def _asks_now(sentence: str) -> bool:
    sentence = sentence.strip()
    return bool(
        sentence.endswith(("?", "？"))
        or _QUESTION_EN.match(sentence)
        or _QUESTION_ZH.search(sentence)
        or _OUTPUT_EN.match(sentence)
        or _TELL_EN.match(sentence)
        or _OUTPUT_ZH.match(sentence)
        or _TELL_ZH.match(sentence)
    )


__all__ = ["request_for_now"]
