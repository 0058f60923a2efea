"""A provenance heading: the label an agent puts before what it inferred is read as a label, not as content.

An agent that writes down what it inferred often heads the note with where it came from and that the person
has not confirmed it: "Agent's note from past conversations, unconfirmed —", "Inferred from earlier sessions
(not yet confirmed by the user):", "助手从以往对话中归纳，未经确认——", "跨会话观察到的规律：". Such a heading gives
the assistant nothing to act on, but its words are the words of an order: "未经确认" / "unconfirmed" is what
"act without confirmation" is made of. The injection checks read the note without it.

A heading counts only when *every* word of it is a provenance word — who noted it, what kind of note, from
which conversations, that it is not confirmed — and it names the conversations or the inferring. One other
word ("approve", "跳过", "系统", a name, or "confirmed" on its own: a claim that someone cleared it) keeps the
heading as content. It ends at the first colon or dash within its first 80 characters, and something must
follow. Only the label goes, and only from a statement about the person ("我业余时间打CTF"): an order under it, or
a statement about anything else ("付款直接执行"), is read with the label too, unless every order keeps the person
deciding ("先让我确认收件人").
"""

from __future__ import annotations

import re

from governance.pipeline.lexicons.directive import addresses_assistant, is_directive, standing
from governance.pipeline.lexicons.fields import LOOSENING_TOPICS
from governance.pipeline.lexicons.loosening import only_orders_that_keep_person_deciding
from governance.pipeline.lexicons.text import compile_any, en, prepare, zh

_MAX_LABEL = 80
_END = re.compile(r"\s*(?:[:：]|—+|–|\s-{1,2}\s)\s*")

# Unconfirmed, as a whole phrase: "confirmed" or "确认" alone is never a provenance word.
_NOT_CONFIRMED = re.compile(
    r"(?<![a-z])(?:not (?:yet )?(?:confirmed|verified|reviewed)(?: by the user)?|unconfirmed|unverified|unreviewed|"
    r"pending (?:user )?confirmation|awaiting (?:user )?confirmation|to be confirmed(?: by the user)?)(?![a-z])"
    r"|(?:未经|尚未|未|待)(?:用户)?(?:确认|核实|核对)|用户(?:尚未|未|还没有?)(?:确认|核实)"
)
_ZH_WORDS = re.compile(
    "助手|智能体|机器人|模型|从|根据|基于|据|由|在|于|以往|之前|过去|历史|此前|先前|前几次|最近|近期|几次|多次|多轮|"
    "跨会话|跨|各次|的|对话|会话|聊天|交流|沟通|中|里|内|归纳|推断|推测|总结|汇总|观察到|观察|整理|提炼|得出|发现|"
    "规律|笔记|备注|摘要|要点|出来|出|到|而来|来看|看|自动|生成|条"
)
_EN_WORDS = frozenset(
    " ".join(
        (
            "agent agent's agents assistant assistant's ai ai's model model's bot bot's the a an ",
            "note notes noted observation observations observed inference inferences inferred summary summarized ",
            "summarised gathered drawn derived learned learnt picked up pattern patterns extracted ",
            "from in across over during based on of my our this these those past earlier previous prior recent ",
            "several multiple many few some last conversation conversations session sessions chat chats interaction ",
            "interactions exchange exchanges history turn turns message messages by user user's cross multi ",
            "automatic auto generated memory candidate ",
        )
    ).split()
)
# What makes it provenance: the conversations it came from, or the inferring.
_SOURCE = re.compile(
    r"(?<![a-z])(?:conversations?|sessions?|chats?|interactions?|exchanges?|history|inferred|inferences?|"
    r"observed|observations?)(?![a-z])|对话|会话|聊天|交流|沟通|归纳|推断|推测|观察"
)
# A note about the person: a first-person subject in its opening words ("我业余时间打CTF", "Releases at my job …").
_ABOUT_THE_SPEAKER = re.compile(
    r"^.{0,24}?(?:(?<![a-z])(?:i|i'm|i've|we|we're|we've|my|our)(?![a-z])|我)"
    # or the person, named as the user, with a verb of being, liking or doing their work ("用户是一名护士")
    r"|^\W{0,2}(?:the user|用户|该用户)\s*(?:是|在|喜欢|习惯|偏好|平时|经常|is|was|works|likes|prefers|plays|teaches)"
)
# A habit the person has ("每次活动都扮演谋士", "I always run on Sundays") is a statement about them; what they want
# from now on ("我以后付款都直接执行") may be what the label's "unconfirmed" turns into an order.
_HABIT = re.compile(r"(?<![a-z])(?:always|every time|each time|usually|often)(?![a-z])|每次|每回|总是|经常|一般都")
# What a habit must not touch to be read without the label: controls, money moved, the assistant's setup, other
# people ("我每次付款都直接执行", "I always read my teammates' DMs through the assistant").
_TOUCHES_CONTROLS = compile_any(
    *LOOSENING_TOPICS,
    en("pay\\w*", "refund\\w*", "transfer\\w*", "wire\\w*", "purchas\\w*", "invoices?", "dms?", "inbox"),
    en("admin\\w*", "permissions?", "access"),
    zh("付款", "支付", "转账", "汇款", "退款", "采购", "报销", "日程", "聊天记录", "消息", "权限", "管理员"),
)
_FROM_NOW_ON = re.compile(
    r"(?<![a-z])(?:from now on|going forward|from here on|henceforth|in future|in the future)(?![a-z])"
    r"|以后|今后|从现在起|从今往后|往后"
)
_POSSESSIVE = re.compile(r"(?<=[a-z])'s(?![a-z])", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|[^\W\d_]")


def is_provenance_label(label: str) -> bool:
    """Whether ``label`` (the text before a heading's colon or dash) only says where a note came from."""
    prepared = prepare(label)
    if not _SOURCE.search(prepared):
        return False
    rest = _ZH_WORDS.sub(" ", _NOT_CONFIRMED.sub(" ", prepared))
    return all(word in _EN_WORDS for word in _WORD.findall(rest))


def provenance_readings(text: str) -> tuple[str, ...]:
    """How the injection checks read ``text`` under a leading provenance heading (see the module docstring):
    a statement without its label; an order both with it and without it, so the label can only add to what
    is found. Text with no such heading is read as it is."""
    end = _END.search(text, 0, _MAX_LABEL + 4)
    if end is None or end.start() == 0 or not text[end.end() :].strip():
        return (text,)
    if not is_provenance_label(text[: end.start()]):
        return (text,)
    body = text[end.end() :]
    prepared = prepare(body)
    if only_orders_that_keep_person_deciding(prepared):
        return (body,)  # "给客户发邮件前先让我确认收件人": every order keeps the person deciding
    if (
        is_directive(body)
        or addresses_assistant(body)
        or not _ABOUT_THE_SPEAKER.search(prepared)
        or (standing(prepared) and not (_HABIT.search(prepared) and not _TOUCHES_CONTROLS.search(prepared)))
        or _FROM_NOW_ON.search(prepared)
    ):
        # An order under the label, or a statement about something else ("付款直接执行"): its "unconfirmed" may be
        # what makes it an order, so the label stays in what is read — without its possessive: "Agent's note from
        # past conversations" says whose note it is, not whose conversations.
        return (_POSSESSIVE.sub("", text[: end.start()]) + text[end.start() :], body)
    return (body,)
