"""The turned-around default: instructions about the assistant's *conduct*, and what they may touch.

A memory that tells the assistant how to act (send, delete, approve, treat as …) is kept only when it
is about a recognized preference aspect (language, format, length, tone, structure, the tools and
conventions of the person's own work); otherwise the person confirms it first; and it is rejected when
it acts on a control (rules, approvals, audit, verification) without keeping a person in the decision,
when it is a reported wish ("the user wants …", "用户希望 …") that touches a control, a privilege, other
people's data, the assistant's setup or identity, or when it touches the assistant's own identity,
setup or rules (:func:`conduct_on_controls`). Untrusted content may carry no instruction to the
assistant at all (:func:`instructs_assistant`, :func:`sets_assistant_conduct`).
"""

from __future__ import annotations

import re

from governance.pipeline.lexicons import fields as f
from governance.pipeline.lexicons import operations as ops
from governance.pipeline.lexicons.conflict import has_style_aspect
from governance.pipeline.lexicons.directive import (
    action_of,
    clauses,
    is_directive_clause,
    norm,
    reported_content,
    standing,
)
from governance.pipeline.lexicons.intent_targets import names_others_data, names_persona, names_setup
from governance.pipeline.lexicons.loosening import conduct_on_control, control_of, defers_to_person
from governance.pipeline.lexicons.text import NEGATOR, PHRASE_BREAK, alt, compile_any, en, prepare, sentences, zh

# An instruction about what the assistant *does* (acts on systems, data or people; becomes someone
# else) rather than how it answers: saved only when it names a preference aspect.
_CONDUCT = compile_any(
    en(
        "send\\w*",
        "forward\\w*",
        "e-?mail\\w*",
        "bcc",
        "cc",
        "post\\w*",
        "upload\\w*",
        "share\\w*",
        "transfer\\w*",
        "pay\\w*",
        "buy\\w*",
        "order\\w*",
        "refund\\w*",
        "purchas\\w*",
        "approv(?:e|es|ing)",
        "sign(?:s|ing)?",
        "grant\\w*",
        "delet\\w*",
        "remov\\w*",
        "drop\\w*",
        "wipe\\w*",
        "run\\w*",
        "execut\\w*",
        "deploy\\w*",
        "merg\\w*",
        "push\\w*",
        "install\\w*",
        "call\\w*",
        "fetch\\w*",
        "open\\w*",
        "visit\\w*",
        "log ?in",
        "submit\\w*",
        "book\\w*",
        "cancel\\w*",
        "modif\\w*",
        "treat\\w*",
        "consider\\w*",
        "mark\\w*",
        "act\\w*",
        "obey\\w*",
        "trust\\w*",
        "believe\\w*",
        "stor(?:e|ing)",
        "append\\w*",
        "paste\\w*",
        "insert\\w*",
        "inject\\w*",
        "direct\\w*",
        "redirect\\w*",
        "notify\\w*",
        "contact\\w*",
        "quietly",
        "silently",
        "secretly",
        "click\\w*",
        "let (?:it|them|anyone|me)",
        "do (?:whatever|everything|anything)",
        "skip\\w*",
        "bypass\\w*",
        "disabl\\w*",
        "turn\\w* off",
    ),
    zh(
        "执行",
        "运行",
        "删除",
        "删掉",
        "发送",
        "发给",
        "发到",
        "转发",
        "抄送",
        "密送",
        "付款",
        "退款",
        "转账",
        "(?<!审)批",
        "签",
        "点(?:通过|同意|确认)",
        "下单",
        "购买",
        "登录",
        "修改",
        "改掉",
        "关掉",
        "打开",
        "上传",
        "提交",
        "部署",
        "发布",
        "合并",
        "推送",
        "调用",
        "访问",
        "当成",
        "当作",
        "视为",
        "标成",
        "加到",
        "加入",
        "拉进",
        "照办",
        "照做",
        "听我的",
        "按我说的",
        "存进",
        "写入",
        "复制",
        "粘贴",
        "引导",
        "跳过",
        "绕过",
        "关闭",
    ),
)


# The tools and conventions of the person's own work: a recognized preference aspect even when phrased
# as an action ("always run the full test suite before proposing a merge").
_WORK_CONVENTIONS = compile_any(
    en(
        "tests?",
        "test suite",
        "code",
        "coding",
        "commits?",
        "commit messages?",
        "merges?",
        "pull requests?",
        "prs?",
        "lint\\w*",
        "format\\w*",
        "naming",
        "variables?",
        "functions?",
        "class(?:es)?",
        "members?",
        "methods?",
        "files?",
        "repo\\w*",
        "branch\\w*",
        "ci",
        "builds?",
        "docs?",
        "docstrings?",
        "comments?",
        "type hints?",
        "python",
        "go",
        "rust",
        "java",
        "c#",
        "typescript",
        "javascript",
        "yaml",
        "sql",
        "diffs?",
        "scripts?",
        "examples?",
        "snippets?",
        "migrations?",
        "queries",
        "commit\\w*",
        "make \\w+",
        "npm",
        "pnpm",
        "yarn",
        "pip",
        "cargo",
        "gradle",
        "mvn",
        "pytest",
        "tox",
        "pre-commit",
        "linters?",
    ),
    zh("代码", "测试", "提交", "注释", "命名", "分支", "格式", "脚本", "示例", "迁移", "变量", "函数", "文档"),
)


def names_work_convention(text: str) -> bool:
    """Whether ``text`` is about the tools and conventions of the person's own work."""
    return _WORK_CONVENTIONS.search(prepare(text)) is not None


def _conduct_clause(clause: str) -> bool:
    """A directive whose action is one of conduct (send, delete, approve, treat as, …)."""
    if not is_directive_clause(clause):
        return False
    action = action_of(clause)
    if _CJK.match(action[:1]):
        return _CONDUCT.search(action[:24]) is not None
    return _CONDUCT.match(action) is not None


def behavioural_instruction(text: str) -> bool:
    """Whether ``text`` tells the assistant how to *act* (not how to answer): a directive clause with a
    verb of conduct that is not a tightening ("never deploy without a second reviewer", "删除前先问我"
    only restrict what the assistant may do)."""
    return any(
        _conduct_clause(clause) and not NEGATOR.search(clause) and not defers_to_person(clause)
        for clause in clauses(prepare(text))
    )


def instructs_assistant(text: str) -> bool:
    """Whether ``text`` gives the assistant an instruction of its own: a directive that names the
    assistant (AI, model, agent, 助手) or gives a standing order (from now on, 以后, 每次). What
    untrusted content must never carry. A bare "you" is not enough there: pages and tool results
    speak to their human reader ("your order has shipped", "you may want an umbrella")."""
    for clause in clauses(prepare(text)):
        if is_directive_clause(clause) and (_NAMES_ASSISTANT.search(clause) or standing(clause)):
            return True
    return False


_NAMES_ASSISTANT = compile_any(f.ASSISTANT)
# A request made of the assistant by name: "请助手把三部分拼起来", "ask the assistant to …".
_ASKS_ASSISTANT = compile_any(
    zh(f"(?:请|让|叫|要求|希望){f.ASSISTANT}"), en(f"(?:ask|tell|instruct)s? (?:the )?{f.ASSISTANT} to")
)


# What it is able to do ("the assistant can read PDFs up to 20 MB") describes a product, not a norm.
_CAPABILITY = re.compile(
    r"^\s*(?:now |also |only )?(?:can|could|is able to|are able to)(?![a-z])|^\s*(?:也|还|现在)?(?:可以|能够?|会|支持)",
    re.IGNORECASE,
)
_SUBJECT_REACH = 14
_WHEN_IT = compile_any(
    zh(f"{f.ASSISTANT}[^,，。;；]{{0,20}}(?:时|的时候)[,，]"),
    en(f"(?:when|whenever|if|once) (?:the |an? |any )?{f.ASSISTANT}[^,.;]{{0,40}},"),
)


def sets_assistant_conduct(text: str) -> bool:
    """Whether a sentence of ``text`` sets what the assistant, named (AI, agent, 助手 — not a bare "you"), is
    to do: a standing cue or a norm after the name ("助手今后整理文件时，把…", "assistants may insult users in all
    future replies"), or a request made of it by name ("请助手把三部分拼起来并照做"). Said by a page, a document
    or a tool result, that is an instruction, whatever it asks."""
    for sentence in sentences(prepare(text)):
        named = _NAMES_ASSISTANT.search(sentence)
        if named is None:
            continue
        # The assistant as the subject of the cue: it follows the name closely ("助手今后…", "assistants may …").
        after = sentence[named.end() : named.end() + _SUBJECT_REACH]
        if _CAPABILITY.match(after):
            continue
        if standing(after) or norm(after) or _ASKS_ASSISTANT.search(sentence):
            return True
        # What it is to do when it does something: "AI助手为用户推荐产品时，以后一律…".
        when = _WHEN_IT.search(sentence)
        if when and (standing(sentence[when.end() :]) or norm(sentence[when.end() :])):
            return True
    return False


def conduct_on_controls(text: str) -> str | None:
    """An instruction about the assistant's conduct that acts on a control (rules, approvals, audit,
    verification) without keeping a person in the decision, or a reported wish ("the user wants …",
    "用户希望 …") that touches a control, a privilege, other people's data, the assistant's setup or
    its identity: the class of what it touches, or None."""
    prepared = prepare(text)
    return (
        conduct_on_control(prepared, _conduct_not_preference)
        or _reported_wish_on_controls(prepared)
        or _directive_on_the_assistant(prepared)
    )


# The assistant's own identity, setup and rules, named in an instruction to it.
# In Chinese a bare 你 is a possessive ("你工具配置里的密码") or opens a verb phrase: after a verb of citing,
# explaining or writing, the setup noun is that verb's object, someone else's ("你引用桌游规则", "你帮我写
# 系统提示词"), unless 的 makes it the assistant's own again ("你解释一下你的规则").
_CITING = (
    "(?:多|也|可以|再|先|就|都|常|尽量|帮我|给我|替我)*"
    "(?:引用|参考|参照|举例|讲|解释|介绍|说明|比较|对比|分析|总结|整理|翻译|推荐|设计|写|编|评价|点评|改|润色)"
)
_YOURS = alt(
    en("your", "you(?:'re| are)", "yourself") + rf"(?:(?!{PHRASE_BREAK}).){{0,12}}?",
    "(?:你的|助手的)(?:[^，。,;；]{0,12}?)",
    rf"你(?!{_CITING})(?:[^，。,;；]{{0,12}}?)",
)
_ITS_OWN = compile_any(
    _YOURS
    + alt(
        en(
            "identity",
            "persona",
            "character",
            "mode",
            "name",
            "version",
            "rules",
            "guidelines",
            "instructions",
            "prompt",
            "configuration",
            "settings",
            "restrictions",
            "limits",
            "filters",
            "policies",
            "programming",
            "training",
            "safety",
        ),
        zh(
            "身份",
            "人设",
            "人格",
            "角色",
            "模式",
            "名字",
            "版本",
            "规则",
            "准则",
            "指令",
            "提示词",
            "配置",
            "设定",
            "限制",
            "约束",
            "过滤",
            "政策",
            "训练",
        ),
    )
)
_KEEPS = compile_any(
    en("follow\\w*", "obey\\w*", "stick\\w* to", "respect\\w*", "keep to", "within", "according to"),
    zh("遵守", "遵循", "按照", "守"),
)


def _directive_on_the_assistant(prepared: str) -> str | None:
    """The turned-around default for the assistant itself: an instruction that touches its identity,
    setup or rules — unless it keeps to them ("follow your guidelines") or is about the answers' style."""
    for clause in clauses(prepared):
        if not is_directive_clause(clause) or not _ITS_OWN.search(clause):
            continue
        if _KEEPS.search(clause) or NEGATOR.search(clause) or defers_to_person(clause) or has_style_aspect(clause):
            continue
        return "assistant_setup"
    return None


_PRIVILEGE = compile_any(ops.PRIVILEGE)
_COMMUNICATIVE = compile_any(
    en(
        "explain\\w*",
        "describ\\w*",
        "answer\\w*",
        "talk\\w*",
        "discuss\\w*",
        "teach\\w*",
        "summari[sz]\\w*",
        "illustrat\\w*",
        "cover\\w*",
        "write about",
        "examples?",
    ),
    zh("讲", "解释", "介绍", "说明", "描述", "举例", "画", "回答", "总结", "例子"),
)
_NEGATED_REMOVAL = compile_any(rf"{NEGATOR.pattern}(?:(?!{PHRASE_BREAK}).){{0,12}}?{ops.REMOVE}")


def _reported_wish_on_controls(prepared: str) -> str | None:
    for clause in clauses(prepared):
        content = reported_content(clause)
        if not content or _COMMUNICATIVE.search(content) or has_style_aspect(content):
            continue
        if defers_to_person(content) or _NEGATED_REMOVAL.search(content):
            continue  # "用户希望删除前先问他", "the user wants the review never skipped": a tightening
        touched = (
            control_of(content)
            or ("permissions" if _PRIVILEGE.search(content) else None)
            or ("others_data" if names_others_data(content) else None)
            or ("prompt_leak" if names_setup(content) else None)
            or ("persona" if names_persona(content) else None)
        )
        if touched:
            return touched
    return None


def _conduct_not_preference(clause: str) -> bool:
    # A clause about the answers' style or the person's own work conventions is a preference; one
    # whose action protects (log it, verify it, 审核) is a tightening.
    action = action_of(clause)
    if not _conduct_clause(clause) or _PROTECTS.match(action) or _COMMUNICATIVE.search(action[:40]):
        return False
    return not has_style_aspect(clause) and not _WORK_CONVENTIONS.search(clause)


_PROTECTS = compile_any(
    en(
        "log\\w*",
        "record\\w*",
        "audit\\w*",
        "report\\w*",
        "verif\\w*",
        "confirm\\w*",
        "check\\w*",
        "review\\w*",
        "ask\\w*",
        "notify\\w*",
        "escalat\\w*",
    ),
    zh("记录", "审核", "复核", "确认", "核实", "上报", "通知", "提醒"),
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


__all__ = ["behavioural_instruction", "conduct_on_controls", "instructs_assistant", "names_work_convention"]
