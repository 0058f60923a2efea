"""The §18.2 command parser: the same sentence always gives the same intent and argument, in zh and en."""

from __future__ import annotations

import pytest

from memories.nlcommands.parser import DESTRUCTIVE_INTENTS, Intent, parse_command

CASES = [
    # §18.2, as the seed writes them
    ("记住这个偏好", Intent.REMEMBER, "", "zh"),
    ("这只是本次任务，不要保存", Intent.DONT_SAVE, "", "zh"),
    ("忘掉我刚才说的项目", Intent.FORGET_RECENT_PROJECT, "", "zh"),
    ("查看你记住了什么", Intent.LIST, "", "zh"),
    ("删除所有关于 dispatch-docs 的记忆", Intent.DELETE_ABOUT, "dispatch-docs", "zh"),
    ("以后不要根据这个偏好回答", Intent.STOP_USING, "", "zh"),
    # their English counterparts
    ("Remember this preference", Intent.REMEMBER, "", "en"),
    ("This is just for this task, don't save it.", Intent.DONT_SAVE, "", "en"),
    ("Forget the project I just mentioned", Intent.FORGET_RECENT_PROJECT, "", "en"),
    ("What do you remember about me?", Intent.LIST, "", "en"),
    ("Delete all memories about Dispatch-Docs", Intent.DELETE_ABOUT, "Dispatch-Docs", "en"),
    ("Stop using this preference", Intent.STOP_USING, "", "en"),
    # variants people actually type
    ("记住这个偏好：回答用中文", Intent.REMEMBER, "回答用中文", "zh"),
    ("请记住我喜欢表格。", Intent.REMEMBER, "我喜欢表格", "zh"),
    ("你都记得些什么？", Intent.LIST, "", "zh"),
    ("删除所有关于“年度预算”的记忆", Intent.DELETE_ABOUT, "年度预算", "zh"),
    ("忘掉 dispatch-docs 项目", Intent.DELETE_ABOUT, "dispatch-docs", "zh"),
    ("以后不要根据“表格”这个偏好回答", Intent.STOP_USING, "表格", "zh"),
    ("清空本会话记忆", Intent.CLEAR_SESSION, "", "zh"),
    ("ｒｅｍｅｍｂｅｒ ｔｈｉｓ ｐｒｅｆｅｒｅｎｃｅ", Intent.REMEMBER, "", "en"),  # full-width
    ("remember this preference: answer in Chinese", Intent.REMEMBER, "answer in Chinese", "en"),
    ("Please remember that I like Markdown tables.", Intent.REMEMBER, "I like Markdown tables", "en"),
    ("show me my memories", Intent.LIST, "", "en"),
    ("forget about the Offsite Budget", Intent.DELETE_ABOUT, "the Offsite Budget", "en"),
    ("Stop using the preference about tables", Intent.STOP_USING, "tables", "en"),
    ("Don't answer based on this preference anymore", Intent.STOP_USING, "", "en"),
    ("clear this session", Intent.CLEAR_SESSION, "", "en"),
    # not commands
    ("你好", Intent.UNKNOWN, "", "zh"),
    ("hello there", Intent.UNKNOWN, "", "en"),
    ("remembering things is hard", Intent.UNKNOWN, "", "en"),
    ("delete all memories about", Intent.UNKNOWN, "", "en"),
    ("", Intent.UNKNOWN, "", "en"),
]


@pytest.mark.parametrize(("text", "intent", "argument", "language"), CASES)
def test_it_parses(text, intent, argument, language):
    parsed = parse_command(text)
    assert (parsed.intent, parsed.argument, parsed.language) == (intent, argument, language)


def test_it_is_deterministic():
    assert {parse_command("删除所有关于 X 的记忆") for _ in range(5)} == {parse_command("删除所有关于 X 的记忆")}


def test_preference_is_noticed():
    assert parse_command("记住这个偏好").mentions_preference
    assert parse_command("remember this preference").mentions_preference
    assert not parse_command("remember that I am a backend engineer").mentions_preference


def test_only_deleting_intents_are_destructive():
    assert {Intent.FORGET_RECENT_PROJECT, Intent.DELETE_ABOUT, Intent.CLEAR_SESSION} == DESTRUCTIVE_INTENTS


def test_overlong_input_is_cut_not_crashing():
    assert parse_command("删除所有关于" + "x" * 10_000 + "的记忆").intent == Intent.DELETE_ABOUT
