"""The deterministic parser of §18.2 memory commands, in Chinese and English.

"These commands must enter an explicit memory-management flow, not be interpreted freely by the
model." So this is a closed list of patterns, tried in a fixed order; the first that matches names
the intent, and whatever the pattern captures (the X in "delete all memories about X") is the
argument. Anything else is ``unknown``, and nothing happens.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum


class Intent(StrEnum):
    REMEMBER = "remember"  # 记住这个偏好 / remember this preference
    DONT_SAVE = "dont_save"  # 这只是本次任务，不要保存 / this is just for this task, don't save it
    FORGET_RECENT_PROJECT = "forget_recent_project"  # 忘掉我刚才说的项目 / forget the project I just mentioned
    LIST = "list"  # 查看你记住了什么 / what do you remember about me
    DELETE_ABOUT = "delete_about"  # 删除所有关于 X 的记忆 / delete all memories about X
    STOP_USING = "stop_using"  # 以后不要根据这个偏好回答 / stop using this preference
    CLEAR_SESSION = "clear_session"  # 清空本会话记忆 / clear this session's memories (§18.1)
    UNKNOWN = "unknown"


# Intents that remove data: they run only after the person (or agent, with confirm=true) confirms.
DESTRUCTIVE_INTENTS = frozenset({Intent.FORGET_RECENT_PROJECT, Intent.DELETE_ABOUT, Intent.CLEAR_SESSION})

MAX_COMMAND_CHARS = 500


@dataclass(frozen=True)
class ParsedCommand:
    intent: Intent
    language: str  # "zh" | "en": the language the command was written in
    argument: str = ""  # what the pattern captured: the X, or the content to remember
    mentions_preference: bool = False


_CJK = re.compile(r"[\u3400-\u9fff]")
_TRAILING = "。.!！?？~～ \t"
_QUOTES = "\"'“”‘’「」『』《》`"

# Each rule: (intent, pattern). Order matters: specific before general ("forget the project I just
# mentioned" before "forget X"; "what do you remember" before "remember X").
_ZH: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    (
        Intent.LIST,
        re.compile(
            r"^(?:请)?(?:查看|看看|看一下|列出|显示|告诉我)?(?:一下)?你?(?:都|还)?记(?:住|得)了?"
            r"(?:我的)?(?:些|哪些)?(?:什么|啥|哪些)(?:内容|记忆)?$"
        ),
    ),
    (Intent.LIST, re.compile(r"^(?:请)?(?:查看|看看|列出|显示)(?:一下)?(?:我的|所有|全部)+记忆$")),
    (
        Intent.CLEAR_SESSION,
        re.compile(
            r"^(?:请)?(?:清空|清除|删除|删掉)(?:本次|这次|本|这个|当前)(?:会话|对话)的?(?:所有|全部)?(?:记忆)?$"
        ),
    ),
    (Intent.DONT_SAVE, re.compile(r"(?:不要|别|不用|无需|不必)(?:再)?(?:保存|记住|记下|存下|存储|存)")),
    (
        Intent.FORGET_RECENT_PROJECT,
        re.compile(
            r"^(?:请)?(?:忘掉|忘记|忘了)(?:我)?(?:刚才|刚刚|之前|方才)(?:说|提|讲)"
            r"(?:的|到的|过的|起的)?(?:那个|这个)?项目$"
        ),
    ),
    (
        Intent.DELETE_ABOUT,
        re.compile(
            r"^(?:请)?(?:删除|删掉|清除|移除|忘掉|忘记)(?:所有|全部)?(?:关于|有关)(?P<arg>.+?)"
            r"(?:的|相关的)?(?:所有|全部)?(?:记忆|内容)?$"
        ),
    ),
    (Intent.DELETE_ABOUT, re.compile(r"^(?:请)?(?:忘掉|忘记)(?P<arg>.+?)(?:这个|那个)?(?:项目)?$")),
    (
        Intent.STOP_USING,
        re.compile(
            r"^(?:以后|今后|之后|往后)?(?:请)?(?:不要|别|不再)(?:再)?(?:根据|按照|依据|参考|使用|用)"
            r"(?P<arg>.*?)(?:这个|这条|那个)?(?:偏好|习惯|设置|记忆)(?:来)?(?:回答|回复|作答)?(?:了)?$"
        ),
    ),
    (Intent.STOP_USING, re.compile(r"^(?:请)?(?:停用|暂停使用|暂停)(?:这个|这条|那个)?(?:偏好|记忆)(?P<arg>.*)$")),
    (
        Intent.REMEMBER,
        re.compile(
            r"^(?:请)?(?:帮我)?记住(?P<this>这个|这条|这一点|此)?(?P<pref>偏好|习惯|设置)?(?:[:：,，]?)(?P<arg>.*)$"
        ),
    ),
)

_EN: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    (Intent.LIST, re.compile(r"^(?:please )?(?:what|which things) do you (?:remember|know|keep|store) about me$")),
    (
        Intent.LIST,
        re.compile(r"^(?:please )?what (?:have you|did you) (?:remember(?:ed)?|saved?|stored?)(?: about me)?$"),
    ),
    (
        Intent.LIST,
        re.compile(
            r"^(?:please )?(?:show|list|view|see)(?: me)? "
            r"(?:my|your|all)(?: of)?(?: my| your)? memor(?:y|ies)$"
        ),
    ),
    (
        Intent.CLEAR_SESSION,
        re.compile(
            r"^(?:please )?(?:clear|delete|wipe|forget)(?: all)?(?: the)? (?:memories (?:of|from|in) )?"
            r"(?:this|the current) (?:session|conversation|chat)(?:'s)?(?: memories)?$"
        ),
    ),
    (
        Intent.DONT_SAVE,
        re.compile(r"(?:don'?t|do not|no need to|never) (?:save|remember|keep|store)(?: (?:it|this|that|anything))?\b"),
    ),
    (Intent.DONT_SAVE, re.compile(r"^(?:this is )?(?:just|only) for this (?:task|session|conversation)\b")),
    (
        Intent.FORGET_RECENT_PROJECT,
        re.compile(
            r"^(?:please )?forget (?:about )?the project (?:that )?i (?:just |recently )?"
            r"(?:mentioned|said|told you about|talked about)$"
        ),
    ),
    (
        Intent.DELETE_ABOUT,
        re.compile(
            r"^(?:please )?(?:delete|remove|erase|forget)(?: all)?(?: of)?(?: the| my| your)? "
            r"(?:memories|memory|everything|things)(?: you (?:have|remember|know))? "
            r"(?:about|regarding|related to|on|of|mentioning) (?P<arg>.+)$"
        ),
    ),
    (Intent.DELETE_ABOUT, re.compile(r"^(?:please )?forget (?:about |everything about )?(?P<arg>.+)$")),
    (
        Intent.STOP_USING,
        re.compile(
            r"^(?:please )?(?:stop|don'?t|do not|no longer) (?:using|use|applying|apply|relying on|rely on)"
            r"(?: on)? (?:this|that|the|my)? ?(?:preference|memory|setting)(?P<arg>.*)$"
        ),
    ),
    (
        Intent.STOP_USING,
        re.compile(
            r"^(?:please )?(?:don'?t|do not|stop) (?:answer|answering|respond|responding|reply|replying) "
            r"(?:based on|according to|using) (?:this|that|the|my)? ?(?:preference|memory|setting)(?P<arg>.*)$"
        ),
    ),
    (
        Intent.REMEMBER,
        re.compile(
            r"^(?:please )?remember\b(?P<this> this| that)?(?P<pref> preference| setting)?"
            r"(?:[:,-])?(?P<arg>.*)$"
        ),
    ),
)

_EN_ARGUMENT_PREFIX = re.compile(r"^(?:about|that|on|for|regarding|:)\s+", re.IGNORECASE)
_EN_ARGUMENT_SUFFIX = re.compile(r"\s*(?:any ?more|from now on|in (?:the )?future)$", re.IGNORECASE)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).strip()
    return re.sub(r"\s+", " ", text)


def _argument(raw: str | None, language: str) -> str:
    value = (raw or "").strip().strip(_TRAILING).strip().strip(_QUOTES).strip()
    if language == "en":
        value = _EN_ARGUMENT_PREFIX.sub("", value)
        value = _EN_ARGUMENT_SUFFIX.sub("", value).strip().strip(_QUOTES).strip()
    else:
        value = value.lstrip(":：,，").strip().strip(_QUOTES).strip()
    return value


def parse_command(text: str) -> ParsedCommand:
    """The intent and argument of a command. Deterministic: same text, same result, no model."""
    cleaned = _clean(text)[:MAX_COMMAND_CHARS]
    language = "zh" if _CJK.search(cleaned) else "en"
    original = cleaned.rstrip(_TRAILING)
    subject = original
    rules = _ZH if language == "zh" else _EN
    if language == "en":
        subject = original.lower().replace("’", "'")
        if len(subject) != len(original):  # a few letters change length when lower-cased
            original = subject
    for intent, pattern in rules:
        match = pattern.search(subject) if intent == Intent.DONT_SAVE else pattern.match(subject)
        if not match:
            continue
        groups = match.groupdict()
        argument = ""
        if "arg" in groups:
            # Take the argument from the original text, not the lower-cased copy: case matters in
            # content to remember ("Markdown") and project names.
            start, end = match.span("arg")
            argument = _argument(original[start:end], language)
        mentions_preference = bool(groups.get("pref")) or "偏好" in subject or "preference" in subject
        if intent == Intent.DELETE_ABOUT and not argument:
            continue
        return ParsedCommand(intent, language, argument, mentions_preference)
    return ParsedCommand(Intent.UNKNOWN, language)
