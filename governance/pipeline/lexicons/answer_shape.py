"""Orders that only shape the answer: what it shows, in which order, in what form.

"From now on, give me the command first and the explanation after it", "以后先给命令，再给解释", "print full file
contents only when I ask; otherwise show just the diff", "引用我的PDF时，每次都标上页码": a preference about the
answer's parts — the aspect the write pipeline is meant to keep (§10) — whose only order is to put a part of the
answer somewhere, or to tell the speaker something ("remind me a year before it runs out"). The lexicons found
nothing in such text; the injection classifier, which reads standing orders as suspect, is not asked about it.
Only when every clause that gives an order is one, and the text names nothing a loosening could be about: no
control (approvals, audit, verification, the rules), no part of the assistant's setup, no secret, no other
person, no safety caveat, no privilege ("root", "admin"), nothing kept (data, notes, memories) and no address an
answer could carry it to.
"""

from __future__ import annotations

from governance.pipeline.lexicons.directive import addresses_assistant, clauses, is_directive, standing, strip_frame
from governance.pipeline.lexicons.fields import CONTROLS, KEPT, OTHERS
from governance.pipeline.lexicons.text import PHRASE_BREAK, alt, compile_any, en, sentences, zh

_PUT = (
    en(
        "(?:give|show|print|put|use|list|mark|label|cite|write|format|keep|start|end|begin|lead|add|include|number|"
        "bold|quote|link|spell|present|display|sort|group|order|skip|drop|leave out|omit)\\w*",
    ),
    zh("给", "用", "标", "写", "列", "放", "加", "附", "注明", "显示", "输出", "排", "按", "省略", "去掉"),
)
_PART = (
    en(
        "commands?",
        "explanations?",
        "diffs?",
        "(?:full )?file contents",
        "links?",
        "urls?",
        "domains?",
        "page numbers?",
        "citations?",
        "examples?",
        "snippets?",
        "comments?",
        "summar(?:y|ies)",
        "tables?",
        "headings?",
        "bullets?(?: points?)?",
        "steps?",
        "lists?",
        "units?",
        "dates?",
        "currenc(?:y|ies)",
        "titles?",
        "tl;?dr",
        "outlines?",
        "charts?",
        "decimals?",
        "paragraphs?",
        "sections?",
        "translations?",
        "small talk",
    ),
    zh(
        "命令",
        "解释",
        "链接",
        "域名",
        "网址",
        "页码",
        "出处",
        "例子",
        "示例",
        "代码",
        "注释",
        "总结",
        "摘要",
        "表格",
        "标题",
        "要点",
        "步骤",
        "列表",
        "清单",
        "单位",
        "日期",
        "段落",
        "图表",
        "结论",
        "翻译",
    ),
)
_SHAPES = compile_any(
    rf"{alt(*_PUT)}(?:(?!{PHRASE_BREAK}).){{0,40}}?{alt(*_PART)}",
    # or tells the speaker something: "remind me a year before it runs out", "到期前提醒我"
    en("(?:remind|tell|ping|nudge|alert|warn) me", "let me know"),
    zh("提醒我", "告诉我", "通知我"),
)
# "Anything", "every": what an order's reach can be, not a thing it is about.
_ANY = (en("everything", "anything", "whatever"), zh("任何", "所有", "一切"))
_TOUCHES = compile_any(*CONTROLS, OTHERS, *KEPT, *_ANY)
_NAMES_A_CONTROL = compile_any(*CONTROLS)
_NAMES_A_CONTROL_OR_KEPT = compile_any(*CONTROLS, *KEPT)


def only_orders_that_shape_the_answer(prepared: str) -> bool:
    """Whether prepared text gives orders and every clause that gives one puts a part of the answer somewhere,
    in text that names nothing a loosening could be about (see the module docstring)."""
    ordering = [
        clause
        for sentence in sentences(prepared)
        for clause in clauses(sentence)
        if (is_directive(clause) or addresses_assistant(clause) or standing(clause)) and not _only_a_frame(clause)
    ]
    shaped = bool(ordering) and all(_SHAPES.search(clause) for clause in ordering)
    return shaped and _TOUCHES.search(prepared) is None  # the cheap check first: most orders shape nothing


def names_a_control(prepared: str, *, or_kept: bool = False) -> bool:
    """Whether prepared text names a control, the assistant's setup, a secret, a privilege or a caveat (or, with
    ``or_kept``, kept data or an address: what could be leaked)."""
    return (_NAMES_A_CONTROL_OR_KEPT if or_kept else _NAMES_A_CONTROL).search(prepared) is not None


def _only_a_frame(clause: str) -> bool:
    """A clause that only asks for what follows to be remembered ("remember this", "记住")."""
    return strip_frame(f"{clause}: x").strip() == "x"


__all__ = ["names_a_control", "only_orders_that_shape_the_answer"]
