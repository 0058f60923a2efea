"""The words phase 1's deterministic extractor listens for, in Chinese and English (a closed list).

Each cue is one compiled pattern; ``rules.py`` decides what a sentence that carries it becomes. The
request lexicon (``REQUESTS``) names the kinds of one-off request whose repetition across sessions is
evidence of a preference (seed 003 §8.1 "repeated user behaviour"); each has a neutral statement of the
preference it points at, written when the evidence is enough.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), _I)


# "Don't remember this", "this is only for now": the sentence is not memory, whatever else it says.
DONT = _any(
    r"\b(?:don'?t|do not|never|no need to|not)\s+(?:remember|save|store|keep|memori[sz]e|note)\b",
    r"\b(?:for|just for|only for)\s+(?:this|today|now)\s*(?:task|time|once|session|conversation)?\s*only\b",
    r"\b(?:just|only)\s+(?:for\s+)?(?:this|today)(?:\s+(?:once|time|task|session))?\b",
    r"\bjust this once\b|\bone[- ]off\b|\bdon'?t make it a habit\b",
    r"\bforget (?:what i (?:just )?said|that|it|about it|the project i)\b|\bnever ?mind\b",
    r"(?:不要|别|不用|无需|不必|不需要)(?:再)?(?:保存|记住|记下|记|存下|存储|存)",
    r"这只是本次|只是这次|仅此一次|就这一次|只限这次|只是今天|仅限本次|本次而已|这次而已|下次不用",
    r"忘掉|忘了我|忘记我刚",
)
# "Remember …", "from now on …": a request to keep it (rule 10: explicit_user_request).
EXPLICIT = _any(
    r"\bremember\b",
    r"\bkeep (?:it |this |that )?in mind\b",
    r"\bnote (?:this |that |it )?(?:down )?for (?:next time|the future|later)\b",
    r"\bmake a note\b|\bsave (?:this|that|it)\b|\bstore (?:this|that)\b",
    r"\bfrom now on\b|\bgoing forward\b|\bin (?:the )?future\b|\bevery time from now\b",
    r"记住|记一下|记下来|记下|记着|帮我记|保存(?:下来|一下|这个|这条)|存一下",
    r"以后|今后|往后|从现在起|下次(?:都|也|还)",
)
# The part of a sentence that only says "remember", cut from the memory's text.
EXPLICIT_PREFIX = re.compile(
    r"^(?:(?:please|pls|and|also|oh,?|btw,?|by the way,?|另外|还有|顺便|对了|请|麻烦|帮我)[，,\s]*)*"
    r"(?:remember(?: that| this)?|keep (?:it |this |that )?in mind(?: that)?|note for next time|"
    r"make a note(?: that)?|记住|记一下|记下来|记下|帮我记(?:一下|住)?)"
    r"(?:[^:：，,]{0,16}[:：])?[，,:：\s]*",
    _I,
)
# What's left of a sentence that was only a cue ("Remember that.", "记住了吗", "save it").
EMPTY_REMAINDER = re.compile(
    r"^(?:that|this|it|so|please|for next time|for the future|下次|这个|这点|这条|一下|好|吧|哦|啊)?[\s.!。！~]*$", _I
)
# "Two rules of this project:", "the following": the sentences after it in the message count too.
LIST_HEADER = re.compile(
    r"(?:两|几|三|四|以下|下面|这些)(?:条|点|个)|the following|these (?:rules|things)|two rules", _I
)
# A person correcting the agent: "No, it should be …", "不对，应该是 …", "It's X, not Y".
CORRECTION = _any(
    r"^(?:no|nope|wrong|not quite|that's (?:not right|wrong)|actually)\b[,.!\s]",
    r"\bit should be\b|\bshould (?:go|be routed) to\b|\bit'?s \S+(?: \S+)?, not \S+",
    r"\bi'?m (?:not|no longer) (?:a|an|the|on)\b|\bi am not\b",
    r"^(?:不对|不是的|错了|搞错了|别写|不是)",
    r"应该(?:是|归|用|放|在)|我不是|不是.{1,12}[，,]\s*(?:是|而是)",
)
# A correction that says something lasting: who the person is, what always holds ("上次也", "all my").
LASTING = _any(
    r"\b(?:always|every|all (?:my|our)|for everything|i'?m (?:in|on|a|an|the)|i am|my name|our|we)\b",
    r"\bfrom now on\b|\bget that right\b|\bi moved\b",
    r"上次也|所有|都用|一直|总是|我是|我的|我们的|我们|名字|拼音",
)
# A lasting preference or fact said in passing (rule 10: user_statement, asks for confirmation).
STATED = _any(
    r"\bi (?:usually|generally|normally|typically|mostly|always|tend to|prefer|like (?:my|to get|answers|it when))\b",
    r"\bi'?m (?:mostly|a|an) (?:\w+ ){0,2}(?:developer|engineer|designer|on|into)\b|\bi'?m not a fan\b",
    r"\bi work (?:on|in|as|with)\b",
    r"我一般|我通常|平时|我习惯|我比较习惯|我喜欢|我偏好|我更喜欢|我是做|我一直用|我主要",
)
PROFILE = _any(
    r"\bi'?m\b|\bi am\b|\bi work\b|\bmy (?:team|name|role|timezone|time zone|company)\b",
    r"\bour (?:services?|team|stack)\b",
    r"我是|我在|我们的|我们(?:都|用|在)|做前端|做后端|我主要",
)
CONSTRAINT = _any(
    r"\b(?:never|always|must|mustn'?t|don'?t|do not|no (?:\w+ )?(?:ever|without))\b",
    r"\bask (?:me|first) before\b|\bbefore (?:running|you run|executing)\b",
    r"不要|别|必须|禁止|永远|不准|不许|绝不|千万|都要|先.{1,16}再",
)
# Who the person is, what they run: stronger than a rule word in the same sentence ("my region is …").
PROFILE_STRONG = _any(
    r"\bmy (?:\w+ ){0,2}(?:is|are)\b|\bi'?m (?:on|in) (?:the )?\w+|\bour \w+(?: \w+)? (?:is|are|runs?|uses?)\b",
    r"\b(?:region|time ?zone|pacific|eastern|central) time\b|\bregion\b|\bi (?:own|run|am responsible)\b",
    r"我的.{0,8}是|我负责|负责.{0,12}值班|部署在|我们(?:的)?.{0,8}用的?是|我们的.{0,10}(?:用|是|在)",
)
# About the session's workspace: "for this repo", "这个项目".
PROJECT = _any(
    r"\b(?:this|the|our) (?:repo|repository|project|codebase)\b|\bin this repo\b|\bhere in\b",
    r"(?:这个|本|该|咱们|我们)(?:项目|仓库|库|repo)|项目里|仓库里",
)
RULE_WORDS = _any(
    r"\b(?:always|never|must|before (?:you |every |each )?(?:commit|push|merge|release)|every time|each time)\b",
    r"\b(?:use|run|keep|put|go(?:es)? (?:in|into|to))\b",
    r"都|统一|每次|必须|不要|别|一律|要用|用|放在|之前",
)
# The agent offering to remember ("需要我记住吗？", "Shall I remember that?").
OFFER = _any(
    r"(?:要不要|需要我|是否|要我|需要)(?:帮你)?(?:把.{0,40})?(?:记住|保存|记下|改成|存)",
    r"\b(?:shall|should) i (?:remember|save|keep|note|update)\b",
    r"\b(?:want|would you like|do you want) me to (?:remember|save|keep|note|update)\b",
)
# The agent naming a pattern it noticed (an inference: agent_inference, asks for confirmation).
INFERENCE = _any(
    r"看起来你|你似乎|你好像|你(?:最近)?(?:几次|多次|每次|总是|经常)|我注意到",
    r"\b(?:it )?seems (?:like )?you\b|\byou seem to\b|\bi noticed\b",
    r"\byou(?:'ve)? (?:often|keep|usually|always) (?:ask|want|asked)",
    r"\blooks like you (?:prefer|like|want)\b",
)
ACCEPT = re.compile(
    r"^(?:要|好|好的|好啊|可以|行|是的|对|嗯|记吧|保存吧|存吧|yes|yeah|yep|yup|sure|ok|okay|please do|do it|"
    r"save it|go ahead|sounds good)(?![a-z])",
    _I,
)
DECLINE = re.compile(r"^(?:不用|不要|不了|算了|别|no\b|nope|nah|don'?t|not now)", _I)
# The agent saying it keeps a tool's result as a reference (§14.2).
KEEP_RESULT = _any(
    r"(?:保留|保存|留)(?:为|作|成)?(?:引用|参考|记录)|作为引用",
    r"\bkeep (?:this|the|that|it)(?: \w+)? (?:result )?as a reference\b|\bkept (?:it |this )?as a reference\b",
    r"\bsave (?:this|the) (?:result|lookup) (?:as|for)\b|\bkeep (?:this|the) (?:result|lookup)\b",
)


# (name, pattern, statement) — a request for one form of answer, and the preference it shows when
# it comes back in another session.
REQUESTS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (name, re.compile(pattern, _I), statement)
    for name, pattern, statement in (
        ("table", r"表格|\btables?\b|tabular", "Prefers comparisons as tables (表格)."),
        ("bullets", r"要点|列表形式|\bbullet", "Prefers answers as bullet points (要点)."),
        ("mermaid", r"mermaid", "Prefers diagrams drawn as Mermaid (mermaid 图)."),
        ("json", r"\bjson\b", "Prefers results as JSON."),
        ("pytest", r"pytest", "Prefers tests written with pytest."),
        ("zsh", r"\bzsh\b", "Uses zsh: prefers shell answers for zsh."),
        ("typescript", r"typescript", "Prefers TypeScript over JavaScript."),
        (
            "two_decimals",
            r"两位小数|小数点后两位|two decimal|2 decimal",
            "Prefers numbers with two decimals (两位小数).",
        ),
        ("google_docstring", r"google ?style", "Prefers Google-style docstrings."),
        ("chinese", r"用中文|中文回|in chinese", "Prefers answers in Chinese (中文)."),
        ("english", r"用英文|英文回|in english", "Prefers answers in English (英文)."),
        ("zh_comments", r"中文注释", "Prefers code comments in Chinese (中文注释)."),
        (
            "casual",
            r"口语|别这么正式|太正式|less formal|more casual|informal",
            "Prefers a casual, less formal tone (口语).",
        ),
        (
            "shorter",
            r"短一点|简短|精简|简洁|\bshorter\b|\bconcise\b|\bbriefer\b|\btl;?dr\b",
            "Prefers short answers (简短).",
        ),
        ("dark", r"深色|暗色|\bdark\b", "Prefers a dark background (深色)."),
        (
            "metric",
            r"\bin (?:meters|metres|kilometers|celsius)\b|^(?:celsius|meters|metres)\??$|公制|摄氏",
            "Uses metric units (公制).",
        ),
        (
            "conclusion_first",
            r"先说结论|结论先行|bottom line first|conclusion first",
            "Prefers the conclusion first (先说结论).",
        ),
    )
)
