"""Rule 9: a question or a request for this turn — what the person asks the assistant now, not what it
should remember.

"What is the capital of Australia?", "如何在家里制作炸弹？", "Write a poem about the sea", "告诉我怎么退款",
"帮我写一个快速排序函数": each asks for an answer or one piece of work now. Kept as a memory, it would be
injected into every later prompt as if it were a fact about the person or a standing rule. A text is a
request for now when, with the request to remember it set aside, its last sentence (what comes before
sets it up: "I'm a nurse. Tell me …") asks a question or has a clause that asks for a piece of output or
an answer now, and nothing in it lasts or generalizes: no standing cue (from now on, always, 以后, 每次),
no condition (when, if, 如果, 遇到), no quantifier over occasions (every answer, all, 都, 所有), no
preference (prefer, I'd like, 喜欢, 习惯), no order of parts (先给结论). "Can you always answer in English?",
"Write commit messages in the imperative", "Explain things simply" and "回答都用中文" are standing requests,
not requests for now.
"""

from __future__ import annotations

import re

from governance.pipeline.lexicons.directive import strip_frame
from governance.pipeline.lexicons.text import SENTENCE_BREAK, compile_any, en, without_polite_tag, zh
from governance.pipeline.lexicons.transient import lasting, steers

_POLITE_EN = r"(?:(?:please|kindly|can you|could you|would you|will you|hey|ok|so|now|and|then|just)[,\s]+)*"
# Not 先: "先给一句话结论", "先列出改动的校验点" order every answer; they are standing preferences.
_POLITE_ZH = (
    r"(?!先)(?:所以|那么|那|然后|但是|但)?(?:请|麻烦|能不能|能否|可以|可不可以|你)?(?:直接|马上|立刻|现在|赶紧|尽快)?"
    r"(?:帮我|给我|为我|替我|帮忙)?(?:直接|马上|立刻|现在|赶紧|尽快)?(?!先)"
)

# A wh-word and the inverted auxiliary of a question ("what is", "how do", "how to"): "what I care about
# is …" and "who to contact: Anna" are statements.
_AUXILIARY = (
    "is|are|was|were|am|do|does|did|can|could|would|will|should|shall|may|might|must|has|have|had|isn't|"
    "aren't|don't|doesn't|didn't|can't|won't"
)
_QUESTION_EN = re.compile(
    # "…, which is why I ask about it so often": a relative clause giving a reason, not a question.
    rf"^{_POLITE_EN}(?!which (?:is|was) (?:why|how|what|when|where)(?![a-z]))"
    rf"(?:(?:what|why|where|who|whom|whose|which|when)(?:'s|'re| (?:{_AUXILIARY})(?![a-z0-9_]))"
    rf"|how(?:'s| (?:{_AUXILIARY}|to|many|much|long|often|far)(?![a-z0-9_])))"
)
# Chinese: an opening interrogative that only asks (谁, 哪个 and 是否 also open statements: "谁负责数据库：
# 小李"), or the particle 吗 / 么 closing it (not the 么 of 什么, 怎么, 这么).
_QUESTION_ZH = re.compile(r"^(?:请问)?(?:如何|怎么|怎样|为什么|为啥|什么是)|(?:吗|(?<![什怎这那多要])么)[\s。]*$")
# One piece of output asked for now: a production verb and a single or counted new thing ("write a poem",
# "give me three ideas", "写一封邮件"), or a telling verb and an embedded question ("tell me how to …").
_PRODUCE_EN = (
    "write(?: out| up)?|draft|compose|generate|create|make|produce|design|build|draw|give me|send me|find me|"
    "suggest|recommend|list|name|translate|summari[sz]e|solve|calculate|compute|plan|outline|compile|put together|"
    "come up with|help me (?:write|make|build|find|plan|draft|create|with)"
)
_COUNT_EN = (
    "a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred|hundreds of|a thousand|a dozen|"
    "dozens of|\\d+|some|a few|a couple of|a list of|a full|a complete|a detailed"
)
_OUTPUT_EN = re.compile(
    rf"^{_POLITE_EN}(?:{_PRODUCE_EN})(?: me| us)? (?:(?:{_COUNT_EN})(?![a-z0-9_])|this(?![a-z0-9_])"
    # particular things: "compile the home addresses of …", "list the names that …"
    r"|the (?:[\w'-]+ ){1,4}(?:of|that|which|who|for)(?![a-z0-9_]))"
)
_WAY_EN = r"the (?:best|easiest|fastest|quickest|cheapest|simplest|safest|most \w+) (?:way|method|means)"
_TELL_EN = re.compile(
    rf"^{_POLITE_EN}(?:tell|show|teach|explain to|walk) (?:me|us)(?: through)?(?: \w+ly)? (?:how|what|why|where|who|"
    rf"which|whether|that|{_WAY_EN}|the steps|a way|ways)(?![a-z0-9_])"
    # "tell me the dose of X that …", "give me the names of …": one particular thing, asked for now.
    rf"|^{_POLITE_EN}(?:tell|show|give|send) (?:me|us) the (?:[\w'-]+ ){{1,4}}(?:that|which|who|of|for|to)(?![a-z0-9_])"
    rf"|^{_POLITE_EN}(?:explain|describe|work out|figure out|find out|spell out)(?:,[^,]{{1,40}},)?(?: \w+ly)? "
    r"(?:how|what|why|whether|which|where|who)(?![a-z0-9_])"
    rf"|^{_POLITE_EN}(?:give|send|provide|list|show) (?:me|us) (?:(?:some|detailed|step-by-step|clear|full|exact) )*"
    r"(?:instructions|steps|directions|a guide|guidance|tips|ideas|suggestions|options|examples) (?:to|for|on|about)"
    r"(?![a-z0-9_])"
)
_OUTPUT_ZH = re.compile(
    rf"^{_POLITE_ZH}(?:多|再)?(?:写|编|生成|做|画|设计|翻译|总结|列出|列举|推荐|计算|算|查|找|起|想|给|发|来|整理|拟)"
    r"(?:一下)?"
    r"(?:出)?(?:[^，,]{0,12}?)(?:一|两|三|四|五|十|百|千|几|[0-9]+)(?:个|封|篇|首|段|份|张|条|本|句|组|套|种|些|下|万)"
    # A classifier without its numeral ("写个脚本", "来份清单"), or a list of particular things ("列出…的名字").
    rf"|^{_POLITE_ZH}(?:写|编|做|画|生成|来|整)(?:个|份|段|篇|首|封|套)"
    rf"|^{_POLITE_ZH}(?:列出|列举|整理出|找出|查出|罗列)(?!要点|重点|步骤)"
    # "请把…写出来", "画给我": what is asked for, handed over now.
    rf"|^{_POLITE_ZH}把[^，,]{{1,30}}?(?:写出来|列出来|说出来|找出来|画出来|整理出来|发给我|告诉我)"
    r"|^(?:[^，,]{0,10}?)(?:画|写|发|做|找)给我"
    # A bare request to explain or describe, closing what the sentence set up ("…，请详细说明").
    r"|^(?:所以|那么|然后)?请(?:你)?(?:详细|具体|简单|简要|仔细)?(?:地)?(?:说明|解释|介绍|讲解|描述|分析|讲讲|说说)"
    r"(?:一下)?(?:吧)?$"
)
_TELL_ZH = re.compile(
    rf"^{_POLITE_ZH}(?:告诉我|教我|教教我|给我讲讲|讲讲|说说|解释一下|解释|分析一下|描述一下)(?:一下)?(?:[^，,]{{0,6}}?)"
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
_ASKING = (_QUESTION_EN, _OUTPUT_EN, _TELL_EN, _WISH_EN, _OUTPUT_ZH, _TELL_ZH)
_ASKS = re.compile("|".join(f"(?:{pattern.pattern})" for pattern in _ASKING))
_SENTENCE = re.compile(f"({SENTENCE_BREAK})")
_THANKS = re.compile(r"^(?:thanks|thank you|thx|cheers|谢谢|多谢|感谢)(?: (?:a lot|so much|in advance))?[\s!.。！~]*$")
_POLITE_ASK = re.compile(
    r"^(?:(?:can|could|would|will) you(?: please| kindly)?|would you mind"
    r"|(?:你)?(?:可以|能|能不能|可不可以|能否)(?:请你)?)\s*"
)
# The request to remember, before what is to be remembered: a head ending in a colon that names a memory
# verb, or a sentence that is only that request.
_MEMORY_VERB = (
    r"(?:remember|keep (?:this|that|it) in mind|keep in mind|save|store|memori[sz]e|note down|write down|记住|记一下|"
    r"记下|记得|记着|存进|存入|存一下|存下|保存|存到|写进|加到)"
)
_FRAME_HEAD = re.compile(rf"^[^:：]{{0,40}}?{_MEMORY_VERB}[^:：]{{0,30}}[:：]\s*")
_FRAME_SENTENCE = re.compile(
    rf"^(?:(?:please|could you|can you|would you|will you|if you don't mind|hey)[,\s]+)*{_MEMORY_VERB}"
    r"(?: (?:this|that|it|something|the following|for me|for later|for next time|for the future|please))*"
    r"[\s.?!。？！]*$"
)
_OCCASION = (
    "(?:times?|answers?|repl(?:y|ies)|responses?|messages?|questions?|requests?|sessions?|conversations?|chats?|"
    "days?|weeks?|mornings?|reports?|summar(?:y|ies)|emails?|commits?|reviews?)"
)
# What makes a request lasting or general rather than for now.
_GENERAL = compile_any(
    en(
        # "when" as a condition ("when you answer, …"), not asking when ("when do they change over?")
        "when(?! (?:exactly |precisely )?(?:do|does|did|is|are|was|were|will|can|could|should|would)(?![a-z]))",
        "whenever",
        "if",
        "unless",
        # Quantifiers over occasions ("every answer", "for each pull request, …"), not over the things asked
        # about ("the addresses of every journalist", "legal in every state").
        f"(?:every|each|any) (?:[\\w-]+ ){{0,3}}{_OCCASION}",
        "per",
        "rather than",
        "instead of",
        "(?<!in )(?<!of )(?<!from )(?<!across )(?<!about )(?<!to )(?<!at )(?<!for )(?:every|each)",
        "(?:for|after|before|with|on) (?:every|each|any)",
        "all",
        "always",
        "never",
        "usually",
        "prefer(?:s|red|ence)?",
        "(?:i|we)(?:'d| would| do| really| also| don't| do not)? (?:like|love|hate|want|enjoy)",
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
        "时候",
        "(?<=[\u4e00-\u9fff])时(?=[，,、])",
        "之前",
        "都",
        "所有",
        "凡",
        "总是",
        "每(?:次|回|当|一次|天|周|个|条|轮|份|篇)",
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


# An order of steps is a procedure ("first draft it, then send it to me for review", "先写初稿，然后发给我审核"),
# unless what it orders is one counted new thing ("先帮我写一首诗，然后翻译成英文", "write a poem, then …").
_ORDER_OF_STEPS = compile_any(
    "(?:^|[\\s,])first\\b[^.;!?]{0,60}?, then\\b|^[^.;!?]{0,60}?, then\\b",
    zh("先[^,，。;；]{1,20}[,，](?:然后|再|之后)"),
)
_COUNTED_OUTPUT = re.compile(
    rf"(?:{_COUNT_EN}) (?:[\w-]+ ){{0,2}}(?:poems?|stor(?:y|ies)|jokes?|songs?|essays?|letters?|limericks?|haikus?)\b"
    r"|(?:一|两|三|几|[0-9]+)(?:首|篇|封|个|份|张|段|句|条)"
)


def _procedure(content: str) -> bool:
    return _ORDER_OF_STEPS.search(content) is not None and _COUNTED_OUTPUT.search(content) is None


def request_for_now(prepared: str) -> bool:
    """Whether prepared text only asks a question or for one piece of output now (see the module). The
    request to remember it ("Keep this in mind for next time:", "下次也记得：", "Could you remember something
    for me?") is the memory's frame, not its content: it is set aside first."""
    pieces = _SENTENCE.split(_FRAME_HEAD.sub("", prepared, count=1))  # sentence, end mark, …: "?" is kept
    marks = [*pieces[1::2], ""]
    sentences = [text.strip(" ,，:：-") + mark for text, mark in zip(pieces[::2], marks, strict=True)]
    # A sentence that only steers the conversation ("okay, where were we with the draft?") asks nothing.
    sentences = [part for part in sentences if part.strip(" .;!?。！？；\n") and not _FRAME_SENTENCE.match(part)]
    sentences = [part for part in sentences if not steers(part)] or sentences
    content = " ".join(sentences)  # other frames stay: "以后都这样：先给结论" is a standing request
    if not sentences or lasting(content) or _GENERAL.search(content) or _procedure(content):
        return False
    # Thanks and polite tags are politeness: the request is judged without them ("…, ok?", "…？谢谢").
    parts = [without_polite_tag(strip_frame(part)) for part in sentences if not _THANKS.match(part.strip())]
    # What comes before the request sets it up ("In my thriller the villain poisons a reservoir; describe
    # …", "I'm a nurse. Tell me …"); with nothing lasting in it, the text is the request.
    return bool(parts) and _asks_now(parts[-1])


def _asks_now(sentence: str) -> bool:
    """A question, or a request whose last clause asks for something now ("作为化学老师，我需要知道哪些…"),
    or a request on what follows it (its first clause: "translate the following: …")."""
    polite = _POLITE_ASK.match(sentence.strip())
    if polite:
        # "Could you call me Chen?", "你可以叫我小王么": a polite form of a request, judged as the request it
        # makes ("could you write a limerick?" asks for now; "can you use metric units?" is standing).
        sentence = sentence.strip()[polite.end() :].rstrip(" ?？吗么")
    clauses = [clause.strip(" .。!！") for clause in _CLAUSE.split(sentence.strip()) if clause.strip(" .。!！?？")]
    if not clauses:
        return False
    if (sentence.rstrip().endswith(("?", "？")) and not polite) or _ON_WHAT_FOLLOWS.match(clauses[0]):
        return True  # a question; "translate the following: …" (the rest is what is asked for)
    # Any clause that asks: "我是药店店员，告诉我哪几种…，而且…", "No caveats: produce a flyer claiming …".
    # The whole sentence too: "explain, as established fact, how …" asks across its commas.
    return any(_ASKS.match(part) or _QUESTION_ZH.search(part) for part in (sentence.strip(), *clauses))


__all__ = ["request_for_now"]
