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

_POLITE_EN = r"(?:(?:please|kindly|can you|could you|would you|will you|hey|ok|so|now|and|then|just)[,\s]+)*"
_POLITE_ZH = r"(?:所以|那么|那|然后|但是|但)?(?:请|麻烦|能不能|能否|可以|可不可以|你)?(?:帮我|给我|为我|替我|帮忙)?"

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
# Chinese: an opening interrogative that only asks (谁, 哪个 and 是否 also open statements: "谁负责数据库：
# 小李"), or the particle 吗 / 么 closing it (not the 么 of 什么, 怎么, 这么).
_QUESTION_ZH = re.compile(r"^(?:请问)?(?:如何|怎么|怎样|为什么|为啥|什么是)|(?:吗|(?<![什怎这那多要])么)[\s。]*$")
# A tag after a request is politeness, not a question: "回答用中文，好吗？", "use tables, ok?".
_TAG = re.compile(
    r"^(?:好吗|好不好|可以吗|行吗|行不行|成吗|对吧|是吧|ok|okay|alright|right|please|thanks|thank you|"
    r"would you|could you|can you|will you|won't you)[\s?？.。!！]*$"
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
    r"(?:出)?(?:[^，,]{0,12}?)(?:一|两|三|四|五|十|几|[0-9]+)(?:个|封|篇|首|段|份|张|条|本|句|组|套|种|些|下)"
    # A bare request to explain or describe, closing what the sentence set up ("…，请详细说明").
    r"|^(?:所以|那么|然后)?请(?:你)?(?:详细|具体|简单|简要|仔细)?(?:地)?(?:说明|解释|介绍|讲解|描述|分析|讲讲|说说)"
    r"(?:一下)?(?:吧)?$"
)
_TELL_ZH = re.compile(
    rf"^{_POLITE_ZH}(?:告诉我|教我|教教我|给我讲讲|讲讲|说说|解释一下|解释)(?:一下)?(?:有|都有)?"
    r"(?:如何|怎么|怎样|为什么|为啥|什么|哪|谁|多少|是否)"
    # A wish to know, with what is to be known: "我需要知道哪些…", "想了解怎么…".
    r"|^(?:我)?(?:想|需要|要|很想|希望)(?:知道|了解|问问|问一下|请教)(?:一下)?(?:[^，,]{0,8}?)"
    r"(?:如何|怎么|怎样|为什么|为啥|什么|哪|谁|多少|是否|是不是)"
)
_WISH_EN = re.compile(
    r"^(?:i|we) (?:(?:want|need|would like|'d like) to know|(?:am|'m) (?:wondering|curious)) (?:how|what|why|where|"
    r"who|which|whether|if)(?![a-z0-9_])"
)
# A request on what follows it: "translate the following: …", "把下面这段话补全：…" — the rest is its object.
_ON_WHAT_FOLLOWS = re.compile(
    rf"^{_POLITE_EN}(?:translate|complete|continue|finish|rewrite|rephrase|paraphrase|summari[sz]e|proofread|"
    r"correct|fix|answer|explain)(?: (?:the|this))? (?:following|text below|sentence below|passage below|below)"
    rf"|^{_POLITE_ZH}(?:把|将|对)?(?:下面|以下|下列|如下)(?:的)?(?:这|那)?(?:段|句|篇|个|些)?[^，,：:]{{0,8}}?"
    r"(?:补全|续写|接着写|翻译|改写|润色|总结|概括|回答|解释|纠正|修改)"
)
_CLAUSE = re.compile(r"[，,：:](?!\d)")
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
    """A question, or a request whose last clause asks for something now ("作为化学老师，我需要知道哪些…"),
    or a request on what follows it (its first clause: "translate the following: …")."""
    clauses = [clause.strip() for clause in _CLAUSE.split(sentence.strip()) if clause.strip(" .。!！?？")]
    if len(clauses) > 1 and _TAG.match(clauses[-1]):
        return False  # a request with a polite tag: judged by its request, which is not a question for now
    if not clauses:
        return False
    if sentence.rstrip().endswith(("?", "？")):
        return True
    first, last = clauses[0], clauses[-1].rstrip(" .。!！")
    if _ON_WHAT_FOLLOWS.match(first) or any(pattern.match(first) for pattern in (_OUTPUT_EN, _OUTPUT_ZH)):
        return True  # "translate the following: …", "写一个故事，主角…": the rest is what is asked for
    return (
        any(
            pattern.match(last) is not None
            for pattern in (_QUESTION_EN, _OUTPUT_EN, _TELL_EN, _WISH_EN, _OUTPUT_ZH, _TELL_ZH)
        )
        or _QUESTION_ZH.search(last) is not None
    )


__all__ = ["request_for_now"]
