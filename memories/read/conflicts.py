"""Conflicts between the current instruction and an injected memory (seed §9.3), deterministically.

A *dimension* is one thing a preference can be about (verbosity, answer language, tables, …) with two
opposite stances. A text takes a stance when it matches one stance's words; a negation just before
the words ("don't", "no", "without", 不/别/不要/无需 …) turns it into the opposite stance ("no
tables" is the "without" stance of tables; "不要太详细" is brief). A text mentioning both stances of a
dimension takes none (it is ambiguous, so it is never called a conflict).

An instruction conflicts with a memory when both take a stance on a dimension and the stances differ.
The memory is still injected as background and is never changed here: the instruction wins for this
turn, and the agent is told to ask whether to update the memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EN_NEGATION = re.compile(
    r"\b(?:no|not|never|without|avoid|don'?t|do not|doesn'?t|does not|dislikes?|hates?|stop|skip|less|"
    r"no need (?:to|for))\b(?:\W+\w+){0,2}\W*$",
    re.IGNORECASE,
)
_ZH_NEGATION = re.compile(r"(?:不|别|勿|无需|无须|免|禁止|避免|少)[^，。,.;；！!？?\s]{0,4}$")
_WINDOW = 32


@dataclass(frozen=True)
class Dimension:
    name: str
    # stance → pattern, for the two stances; the first is what a negated match of the second means and back.
    stances: tuple[tuple[str, re.Pattern[str]], tuple[str, re.Pattern[str]]]
    labels: dict[str, dict[str, str]]  # language → stance → words for the note


def _p(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.IGNORECASE)


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension(
        "verbosity",
        (
            (
                "brief",
                _p(
                    r"\b(?:short(?:er)?|brief(?:ly)?|concise(?:ly)?|succinct(?:ly)?|terse|to the point|one[- ]liners?"
                    r"|tl;?dr)\b",
                    r"简短|简洁|简要|精简|简明|言简意赅|长话短说|一句话|尽量短",
                ),
            ),
            (
                "detailed",
                _p(
                    r"\b(?:detail(?:ed|s)?|in[- ]depth|thorough(?:ly)?|elaborate|comprehensive(?:ly)?|verbose"
                    r"|step[- ]by[- ]step|every step|each step|long(?:er)? (?:answers?|explanations?|responses?))\b",
                    r"详细|详尽|具体说明|具体解释|每一步|每个步骤|一步一步|逐步|分步骤|展开说|深入讲|完整解释",
                ),
            ),
        ),
        {
            "en": {"brief": "brief answers", "detailed": "detailed explanations"},
            "zh": {"brief": "简短回答", "detailed": "详细解释"},
        },
    ),
    Dimension(
        "answer_language",
        (
            (
                "chinese",
                _p(
                    r"\b(?:in|into|use|using|speak|write|answer|reply|respond)\s+(?:\w+\s+)?(?:chinese|mandarin)\b",
                    r"\b(?:chinese|mandarin) (?:answers?|replies|responses?)\b",
                    r"用中文|中文回答|中文回复|中文作答|以中文|说中文|汉语回答|用汉语",
                ),
            ),
            (
                "english",
                _p(
                    r"\b(?:in|into|use|using|speak|write|answer|reply|respond)\s+(?:\w+\s+)?english\b",
                    r"\benglish (?:answers?|replies|responses?)\b",
                    r"用英文|英文回答|英文回复|英文作答|以英文|说英文|用英语|英语回答",
                ),
            ),
        ),
        {
            "en": {"chinese": "answers in Chinese", "english": "answers in English"},
            "zh": {"chinese": "中文回答", "english": "英文回答"},
        },
    ),
    Dimension(
        "tables",
        (("without", _p(r"(?!x)x")), ("with", _p(r"\btab(?:les?|ular)\b", r"表格"))),
        {"en": {"with": "tables", "without": "no tables"}, "zh": {"with": "使用表格", "without": "不用表格"}},
    ),
    Dimension(
        "lists",
        (
            ("without", _p(r"\b(?:prose|paragraphs?|plain text)\b", r"段落|纯文字|成段")),
            (
                "with",
                _p(r"\b(?:bullet(?:ed)?(?: points?| lists?)?|check ?lists?|numbered lists?)\b", r"列表|清单|要点"),
            ),
        ),
        {
            "en": {"with": "lists or checklists", "without": "prose without lists"},
            "zh": {"with": "列表或清单", "without": "不用列表"},
        },
    ),
    Dimension(
        "code_examples",
        (
            ("without", _p(r"(?!x)x")),
            (
                "with",
                _p(
                    r"\bcode (?:examples?|samples?|snippets?|blocks?)\b|\bshow (?:me )?(?:the )?code\b",
                    r"代码示例|示例代码|代码片段|给代码|贴代码",
                ),
            ),
        ),
        {"en": {"with": "code examples", "without": "no code"}, "zh": {"with": "给出代码示例", "without": "不给代码"}},
    ),
    Dimension(
        "tone",
        (
            ("formal", _p(r"\bformal(?:ly)?\b|\bprofessional tone\b", r"正式|书面语")),
            ("casual", _p(r"\b(?:casual(?:ly)?|informal(?:ly)?|relaxed tone|friendly tone)\b", r"口语|随意|轻松|通俗")),
        ),
        {
            "en": {"formal": "a formal tone", "casual": "a casual tone"},
            "zh": {"formal": "正式语气", "casual": "口语化语气"},
        },
    ),
    Dimension(
        "emoji",
        (("without", _p(r"(?!x)x")), ("with", _p(r"\bemojis?\b", r"表情符号|表情包"))),
        {"en": {"with": "emoji", "without": "no emoji"}, "zh": {"with": "使用表情符号", "without": "不用表情符号"}},
    ),
    Dimension(
        "rebuild",
        (
            ("without", _p(r"(?!x)x")),
            ("with", _p(r"\b(?:re)?build(?:s|ing)?\b|\brecompil(?:e|ing)\b", r"重新构建|构建|编译")),
        ),
        {"en": {"with": "a rebuild", "without": "no rebuild"}, "zh": {"with": "重新构建", "without": "不重新构建"}},
    ),
)


def _negated(text: str, start: int) -> bool:
    before = text[max(0, start - _WINDOW) : start]
    return bool(_EN_NEGATION.search(before) or _ZH_NEGATION.search(before))


def stance(text: str, dimension: Dimension) -> str | None:
    """The stance this text takes on the dimension, or None (no mention, or both stances)."""
    (first, first_pattern), (second, second_pattern) = dimension.stances
    found: set[str] = set()
    for name, other, pattern in ((first, second, first_pattern), (second, first, second_pattern)):
        for match in pattern.finditer(text):
            found.add(other if _negated(text, match.start()) else name)
    return found.pop() if len(found) == 1 else None


@dataclass(frozen=True)
class Conflict:
    memory_id: str
    memory_type: str
    dimension: str
    memory_stance: str
    instruction_stance: str


def detect_conflicts(instruction: str, memories: list[tuple[str, str, str]]) -> list[Conflict]:
    """Conflicts between the instruction and each (memory id, type, content), in the memories' order."""
    if not instruction.strip():
        return []
    wanted = {d.name: s for d in DIMENSIONS if (s := stance(instruction, d)) is not None}
    if not wanted:
        return []
    conflicts = []
    for memory_id, memory_type, content in memories:
        for dimension in DIMENSIONS:
            if dimension.name not in wanted:
                continue
            remembered = stance(content, dimension)
            if remembered is not None and remembered != wanted[dimension.name]:
                conflicts.append(Conflict(memory_id, memory_type, dimension.name, remembered, wanted[dimension.name]))
    return conflicts


_BY_NAME = {d.name: d for d in DIMENSIONS}
NOTE = {
    "en": "- Conflict with {refs} (remembered: {remembered}): the current instruction asks for {wanted}. Follow"
    " the current instruction this time; the memory is unchanged. Ask the user whether to update it.",
    "zh": "- 冲突：{refs}（记忆：{remembered}）与当前指令（{wanted}）不一致。本轮以当前指令为准，不自动修改记忆；"
    "可以询问用户是否更新记忆。",
}
SUGGESTION = {
    "en": "The current instruction wins for this turn and the memory was not changed. Ask the user whether the"
    " remembered {type} should be updated to {wanted}.",
    "zh": "本轮以当前指令为准，记忆未被修改。可以询问用户是否把这条{type}更新为{wanted}。",
}


def _words(conflict: Conflict, language: str, type_labels: dict[str, str]) -> dict[str, str]:
    labels = _BY_NAME[conflict.dimension].labels[language]
    return {
        "wanted": labels[conflict.instruction_stance],
        "remembered": labels[conflict.memory_stance],
        "type": type_labels.get(conflict.memory_type, conflict.memory_type),
    }


def conflict_notes(conflicts: list[Conflict], *, refs: dict[str, str], language: str) -> list[str]:
    """One note line per (dimension, remembered stance, wanted stance), naming the memories' refs."""
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for c in conflicts:
        grouped.setdefault((c.dimension, c.memory_stance, c.instruction_stance), []).append(refs[c.memory_id])
    separator = "、" if language == "zh" else ", "
    notes = []
    for (dimension, remembered, wanted), members in grouped.items():
        labels = _BY_NAME[dimension].labels[language]
        notes.append(
            NOTE[language].format(refs=separator.join(members), remembered=labels[remembered], wanted=labels[wanted])
        )
    return notes


def conflict_suggestion(conflict: Conflict, *, language: str, type_labels: dict[str, str]) -> str:
    return SUGGESTION[language].format(**_words(conflict, language, type_labels))
