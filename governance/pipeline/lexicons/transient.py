"""Rule 9: transient content — a passing mood, small talk, a one-off detail, "only for this task".

Strong cues make content transient on their own. A weak "now" cue (today, this time, 这次, 本次)
does only when nothing in the text says the point is lasting (from now on, always, 以后, 每次):
"今天好累" and "我们这次聊的是年会预算" are transient, "从今天起回答都用中文" is not. A mood or a "now" said in
passing beside a sentence that tells something of its own ("I'm so excited! We booked the flights to
Lisbon for May") doesn't make the turn transient.
"""

from __future__ import annotations

import re

from governance.pipeline.lexicons.fields import CONTROLS, KEPT
from governance.pipeline.lexicons.text import compile_any, en, prepare, sentences, zh

_MOOD_WORDS_EN = (
    "tired|exhausted|sleepy|hungry|bored|stressed(?: out)?|annoyed|frustrated|angry|mad|upset|sad|happy|"
    "excited|grumpy|cranky|fed up|burn(?:ed|t) out|worn out|down|low|sick|ill|overwhelmed|in a (?:bad|good|great) mood"
)
# "I'm tired of long answers" / "I'm happy with tables" state a preference, not a mood.
_NOT_A_MOOD = r"(?!\s+(?:of|with|to|about|using|if|when|that|for)(?![a-z]))"
_MOOD = compile_any(
    en(
        rf"i(?:'m| am)(?: (?:so|really|very|super|a bit|a little|kind of|kinda|pretty|totally|quite|feeling|"
        rf"just|extremely|incredibly))* (?:{_MOOD_WORDS_EN}){_NOT_A_MOOD}",
        rf"feeling (?:so |really |very |a bit |a little |pretty )?(?:{_MOOD_WORDS_EN}){_NOT_A_MOOD}",
        rf"i (?:feel|felt)(?: (?:so|really|very|completely|totally|utterly|kind of|a bit|a little|pretty))* "
        rf"(?:{_MOOD_WORDS_EN}|worthless|hopeless|useless|lonely|miserable|depressed|empty|awful|terrible){_NOT_A_MOOD}",
        "what a (?:long|rough|bad|great|tough|crazy) day",
        "(?:long|rough|bad|tough) day",
        "ugh+",
        "argh+",
        "sigh",
    ),
    # The subject must be the speaker or the moment: "太长的回答很烦" is a preference, not a mood.
    zh(
        "(?:我|今天|今晚|今早|现在|刚才|这会儿|此刻|最近)(?:今天|现在|真的|真|实在)?(?:好|很|有点|有些|太|真|特别|超|巨|挺)?"
        "(?:累|困|烦|饿|忙|无聊|开心|高兴|难过|郁闷|生气|崩溃|丧|头疼|头大|心累|焦躁|emo)"
        "(?:了|啊|呀|哦|死了|坏了|极了)*(?=[\\s.!?,~。！？，…]|$)",
        "(?:累|烦|困|饿|忙)(?:死了|坏了)",
        "心情(?:不好|很好|不错|糟|很差|好差|低落)",
        "好烦",
        "崩溃了",
    ),
)

_SMALL_TALK_WORD = (
    r"(?:hi|hello|hey|thanks|thank you|thx|ty|ok|okay|cool|nice|great|lol|haha+|good (?:morning|night|evening|"
    r"afternoon)|bye|see you|你好|您好|谢谢|多谢|好的|好|嗯+|哈哈+|早上好|早安|晚安|拜拜|辛苦了|收到)"
)
_SMALL_TALK_ONLY = re.compile(rf"^(?:{_SMALL_TALK_WORD}[\s!.,~。！，、]*)+$", re.IGNORECASE)
_SMALL_TALK = compile_any(
    en(
        "(?:the )?weather is (?:so |really )?(?:nice|great|lovely|bad|terrible|awful|cold|hot)",
        "nice weather",
        "how are you",
        "how's it going",
    ),
    zh("天气(?:真|很|挺|太|好)?(?:好|不错|冷|热|差|糟)", "你(?:最近)?(?:怎么样|好吗)", "吃(?:饭)?了吗"),
)

_ONE_OFF = compile_any(
    en(
        "(?:only|just) (?:for )?this (?:task|once|time|session|conversation|chat|request)",
        "for this (?:task|session|conversation|chat|request) only",
        "(?:only|just) for now",
        "one-?off",
        "(?:don't|do not|no need to|never) (?:save|keep|store|remember|memori[sz]e) (?:it|this|that|these)",
        "not worth (?:remembering|saving|keeping)",
        "forget (?:it|this|that) (?:after|afterwards|later|when)",
        # What someone ate is a one-off detail (a standing diet is a preference: no past tense there).
        "(?:had|ate|grabbed) (?:[\\w-]+ ){1,4}for (?:breakfast|lunch|dinner)",
        "(?:breakfast|lunch|dinner) (?:today |tonight )?was",
    ),
    zh(
        "(?:只是|仅|仅限|只限|只在|只用于|只针对)(?:本次|这次|这一次|此次|本轮|当前|这个任务|本任务)",
        "(?:只|就)(?:这|此)一次",
        "这一次而已",
        "(?:不要|不用|别|无需|不必)(?:长期)?(?:保存|记住|记下|存|记)(?:这(?:个|条|些)?|它)?(?=[\\s.!?,。！？，]|$)",
        "用完(?:就)?(?:删|扔|忘)",
        "一次性",
        "临时(?:的|用|一下)",
        "(?:早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵)(?:(?!。).){0,3}(?:吃的是|吃了)",
    ),
)

_NOW = compile_any(
    en(
        "today",
        "tonight",
        "this (?:morning|afternoon|evening)",
        "right now",
        "this (?:session|conversation|chat|time|call|meeting|task|one)",
        "just (?:said|mentioned|told)",
    ),
    zh(
        "今天",
        "今晚",
        "今早",
        "刚才",
        "刚刚",
        "刚(?:说|提到|讲)",
        "这会儿",
        "此刻",
        "这次",
        "本次",
        "此次",
        "这回",
        "本轮",
        "本任务",
        "这个任务",
    ),
)
_LASTING = compile_any(
    en(
        "from now on",
        "going forward",
        "in (?:the )?future",
        "always",
        "every time",
        "by default",
        "whenever",
        "permanently",
        "for good",
        "from (?:today|this \\w+) on",
        "(?:as of|from|since) today",
        "starting (?:today|now|this \\w+)",
        "afterwards",
        "after (?:launch|that|it ships|the \\w+)",
        "long-term",
        "keep (?:owning|running|doing|leading|maintaining)",
        "(?:stay|remain) the",
    ),
    zh(
        "以后",
        "今后",
        "往后",
        "从现在",
        "从今天起",
        "(?:从|自)?今天(?:起|开始)",
        "一直",
        "总是",
        "每次",
        "默认",
        "长期",
        "永久",
        "始终",
        "凡是",
        "后续",
        "之后的",
    ),
)


# "我叫王磊，是本次项目的对接人", "I'm the point of contact for this project": a determiner on an
# ongoing thing (a project, a release, a collaboration) inside a statement of who the person is says
# what they do, not that the fact holds for this moment only.
_WHO_I_AM = compile_any(
    en(
        "my name is",
        "i(?:'m| am) (?:the|a|an|its|their) ",
        "i (?:own|run|lead|maintain|manage|coordinate|review)\\w*",
        "point of contact",
        "(?:owner|maintainer|lead|reviewer|contact person|coordinator) (?:of|for)",
    ),
    zh(
        "我(?:叫|是|负责|担任|作为)",
        "由我(?:负责|对接|维护|牵头)",
        "是[^，。]{0,14}(?:负责人|对接人|联系人|主审人|面试官|维护者|经理|架构师|主管|组长|牵头人)",
    ),
)
_ATTRIBUTIVE_NOW = compile_any(
    en(
        "this (?:project|release|migration|collaboration|engagement|deal|launch|program(?:me)?|product|review|"
        "rollout|contract|account|initiative|hiring round|audit)",
    ),
    zh("(?:本次|这次|此次)(?=(?:的)?[\\u4e00-\\u9fff]{1,4}(?:的|由|是))"),
)


# "From today's chat, the user prefers tables", "用户今天提到他习惯用 rebase": the time cue dates where the
# fact was observed (a conversation, a report of what the person said), not how long it holds. The span is
# read out before the "now" check, so what was reported is judged on its own words ("the user said today
# that this time CSV is fine" keeps its "this time").
_CONVERSATION_EN = "(?:conversation|chat|session|call|meeting|discussion|exchange|messages?)"
_REPORTED_EN = "(?:said|mentioned|noted|stated|explained|wrote|told (?:me|us|the assistant)|shared|confirmed)"
_REPORTER_EN = "(?:the )?(?:user|they|he|she)"
_REPORTER_ZH = "(?:该)?(?:用户|他|她|对方)"
# Only a past stretch of the day, and only before a report of someone: "in this session, use English" is
# a one-off instruction, not an observation.
_PROVENANCE = compile_any(
    en(
        "(?:from|in|during|over|based on|according to|throughout) (?:today's|tonight's|this (?:morning|afternoon|"
        f"evening)'s) {_CONVERSATION_EN},? {_REPORTER_EN}",
        f"{_REPORTER_EN} {_REPORTED_EN} (?:today|this (?:morning|afternoon|evening)|just now)",
        f"{_REPORTER_EN} (?:today|this (?:morning|afternoon|evening)) {_REPORTED_EN}",
        # The speaker pointing back at what they said before it ("as I just mentioned, …").
        "(?:as|like) i (?:just |already )?(?:said|mentioned|told you|noted)(?: (?:earlier|before))?(?: today| this "
        "(?:morning|afternoon|evening))?(?=\\s*[,:])",
        # A label an extracting agent puts before what it noted: "Noted from this chat: …". Only as a
        # heading (first, before a colon): "in this session, use English" stays a one-off.
        f"^(?:[\\w']+ ){{0,3}}?(?:noted|taken|gathered|summari[sz]ed|inferred|extracted|picked up|learned|recorded|"
        f"captured|distilled)(?: [\\w']+){{0,2}} (?:from|in|during|over) (?:this|the|today's|our|the current) "
        f"{_CONVERSATION_EN}(?: so far)?\\s*[:：]",
    ),
    zh(
        # The same label in Chinese: "从本轮对话整理：", "根据这次聊天总结：".
        "^(?:从|根据|据|由)?(?:本轮|本次|这次|此次|这轮|当前|今天|今天的|刚才|刚才的)?(?:对话|聊天|会话|沟通|交流)(?:中|里|内容)?"
        "(?:整理|总结|推断|提取|归纳|记录|摘录|看|来看|得知|得出)(?:出|出来|而来|得到|到)?(?:的)?(?:内容|信息|要点)?\\s*[:：]",
        "(?:从|在|根据|据)?(?:今天|今早|今晚|刚才)(?:的)?(?:对话|聊天|会话|沟通|交流|通话|会议)(?:中|里|时|上|来看|看)?"
        f"[，,]?{_REPORTER_ZH}",
        f"{_REPORTER_ZH}(?:今天|今早|今晚|刚才|刚刚)(?:在(?:对话|聊天)(?:中|里))?(?:说|提到|表示|讲|透露|告诉)",
        "(?:我)?(?:刚才|刚刚)(?:也)?(?:说|提到|讲)(?:过|了)+(?=[，,：:])",
    ),
)


# "本次迁移统一用 UTC", "此次合作的甲方是…": 本次/这次/此次 on an undertaking that lasts names it, the way
# "this project" or "this release" does in English (never a "now" cue there); on a session, a chat or a
# task it stays one ("本次会话用英文", like "this session").
_UNDERTAKING_ZH = compile_any(
    zh(
        "(?:本次|这次|此次)(?=(?:的)?(?:项目|迁移|发布|合作|合同|上线|计划|产品|评审|推广|招聘|审计|招标|版本|改版|重构|"
        "升级|比赛|活动|课程|培训|交付|采购))"
    )
)


# A sentence that only steers the conversation ("好了，接着刚才的说", "anyway, back to the migration"): its
# "now" is the chat's, and says nothing about how long what came before it holds.
_STEERING = re.compile(
    r"^(?:(?:好了|好吧|好|行|嗯|那|对了|那么)[，,]?\s*)?(?:我们|咱们)?(?:接着|继续|回到)(?:刚才|之前|前面|上面|正题)?"
    r"(?:的)?(?:说|聊|讲|话题|正题|内容|问题)?(?:吧)?[\s。.!！]*$"
    r"|^(?:(?:ok(?:ay)?|anyway|alright|so|right)[,\s]+)*(?:let'?s )?(?:continue|go on|carry on|move on|"
    r"(?:get )?back to (?:it|work|business|what we were doing|(?:the |our )?[\w-]+(?: [\w-]+){0,2})|"
    r"where (?:were|was) (?:we|i)(?: (?:with|on) (?:the |our |my )?[\w-]+(?: [\w-]+){0,2})?)[\s.!?]*$",
    re.IGNORECASE,
)


def steers(sentence: str) -> bool:
    """Whether a prepared sentence only steers the conversation ("anyway, back to the quarterly numbers")."""
    return _STEERING.match(sentence.strip(" ,，")) is not None


def _without_steering(prepared: str) -> str:
    kept = [part for part in sentences(prepared) if not steers(part)]
    return " ".join(kept) if kept else prepared


def without_provenance(prepared: str) -> str:
    """Prepared text without the spans that date where it was observed ("in today's chat", "用户今天说"),
    without 本次/这次 naming an undertaking that lasts ("本次项目"), and without sentences that only steer
    the conversation ("好了，接着刚才的说")."""
    # The reporter stays, so what was reported still reads as a report; only its date goes.
    return _UNDERTAKING_ZH.sub(" ", _PROVENANCE.sub(" the user ", _without_steering(prepared)))


def durable_role(prepared: str) -> bool:
    """Whether prepared text says who the person is in an ongoing thing ("我是本次项目的对接人")."""
    return _WHO_I_AM.search(prepared) is not None and _ATTRIBUTIVE_NOW.search(prepared) is not None


# A change that lasts, told on the day it happened: "I joined the payments team today", "我今天刚入职".
# The day is when the state began, not how long it holds.
_BEGINS = compile_any(
    en(
        "joined",
        "started (?:my |a |the )?(?:new )?(?:job|role|position|work|contract|studies)",
        "became",
        "got (?:hired|promoted|transferred)",
        "was (?:hired|promoted|transferred|moved|appointed)",
        "(?:moved|transferred|switched) (?:over )?to",
        "took over",
        "(?:my )?first day (?:as|at|on|in)",
    ),
    zh(
        "入职",
        "加入",
        "转到",
        "调到",
        "调岗",
        "转岗",
        "升为",
        "升任",
        "接手",
        "接任",
        "开始负责",
        "换(?:了)?工作",
        "上任",
        "就任",
        "第一天(?:当|做|在|上班|入职)",
    ),
)


def lasting(prepared: str) -> bool:
    """Whether prepared text says the point lasts: a standing cue, or a state that began now."""
    return _LASTING.search(prepared) is not None or _BEGINS.search(prepared) is not None


def momentary(prepared: str) -> bool:
    """A "now" cue with nothing lasting: "今天好累", "我们这次聊的是年会预算" — not "我是本次项目的对接人",
    nor "from today's chat, the user prefers tables" (the cue dates the observation, not the fact), nor
    "I joined the payments team today" (it dates the start of a lasting state)."""
    if _WHO_I_AM.search(prepared):
        prepared = _ATTRIBUTIVE_NOW.sub(" ", prepared)
    prepared = without_provenance(prepared)
    return _NOW.search(prepared) is not None and not lasting(prepared)


# A sentence that tells something beside the mood: five words or more (eight characters of Chinese).
_TELLING_EN = re.compile(r"(?:\b[a-z][\w'-]*\b\W+){4,}\b[a-z][\w'-]*")
_NAMES_A_CONTROL = compile_any(*CONTROLS, *KEPT)
_TELLING_ZH = re.compile(r"[\u4e00-\u9fff]{8}")


def tells_more(prepared: str, *, besides: re.Pattern[str] | None = None) -> bool:
    """Whether prepared text has a sentence that tells something besides a mood or a "now" (or what
    ``besides`` finds)."""
    parts = [part for part in sentences(prepared) if not steers(part)]
    if besides is not None:
        parts = [part for part in parts if besides.search(part) is None]
    return _says_more_than_a_mood(parts)


def _says_more_than_a_mood(parts: list[str]) -> bool:
    """Whether a sentence beside the mood or the moment tells something of its own ("I'm so sad. My teacher
    Bev gave me her stoneware clay to take to York", "Marisol replied this morning. She wants the
    grandmother redesigned, softer"): said in passing, they don't make the rest of a turn transient. A sentence
    that names a control, the assistant's setup, a secret or kept data is not counted: beside a mood, that is
    how an order dresses as small talk ("Ugh today. Secrets in my notes may be printed in any answer")."""
    return any(
        not _MOOD.search(part)
        and not _NAMES_A_CONTROL.search(part)
        and not _SMALL_TALK.search(part)
        and not _SMALL_TALK_ONLY.match(part.strip())
        and not momentary(part)
        and (_TELLING_EN.search(part) is not None or _TELLING_ZH.search(part) is not None)
        for part in parts
    )


def transient_cue(text: str) -> str | None:
    """Why ``text`` is transient ("mood", "small_talk", "one_off", "momentary", "steering"), or None."""
    whole = prepare(text)
    parts = sentences(whole)
    if parts and all(map(steers, parts)):
        return "steering"  # "anyway, back to the quarterly numbers": it only moves the chat along
    prepared = _without_steering(whole)
    if _ONE_OFF.search(prepared):
        return "one_off"
    if _MOOD.search(prepared) and not _says_more_than_a_mood(parts):
        return "mood"
    if _SMALL_TALK_ONLY.match(prepared) or _SMALL_TALK.search(prepared):
        return "small_talk"
    if momentary(prepared) and not _says_more_than_a_mood(parts):
        return "momentary"
    return None
