"""What the standing orders of :mod:`lexicons.standing_orders` share: the form of an order to the
assistant, polarity, and the substring gate that keeps the write path fast."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from governance.pipeline.lexicons.directive import addresses_assistant, is_directive_clause, standing
from governance.pipeline.lexicons.prefilter import Lexicon
from governance.pipeline.lexicons.text import NEGATOR, compile_any, en, zh

# The speaker as the subject of the clause ("I never add disclaimers to my posts", "我们从不审核插件").
_SPEAKER = re.compile(r"^\W*(?:(?:i|we)(?:'m|'ve|'d| am| have| usually| always| never| often)?\b|我们?)", re.I)
# Negation the shared negator misses in Chinese ("从不安装", "不安装").
_ZH_NOT = re.compile(r"(?:从不|从来不|决不|不)\s*$")

# Words a class cannot do without (every one of its targets contains one), looked for as plain literals
# before any lexicon: most text names none of them.
Stems = re.Pattern[str]


class OrderClass(NamedTuple):
    name: str
    may_hold: Callable[[str], bool]  # on the whole prepared text: cheap, never False when it holds
    holds: Callable[[str], bool]  # on one clause that is an order to the assistant
    # Whether the clause must also have an order's form; False where the class's words make it a rule whatever the
    # form ("decisions cite POL-7, even if it doesn't say so").
    needs_order_form: bool = True


# The assistant as the subject of a norm ("the assistant should no longer …", "助手今后不再 …"), a norm in
# the passive ("tokens may be given to …"), or a Chinese norm that lets go ("都可以直接提供").
_NORM_ON_ASSISTANT = compile_any(
    en(
        "(?:the )?(?:assistants?|ai|models?|agents?|bots?)(?: (?:will|should|must|shall|may|can|is to|are to|"
        "no longer|never|always|now))+"
    ),
    en("(?:may|can|should|must|shall|is to|are to)(?: (?:now|always|freely|safely|just|simply))? be [a-z]+"),
    en("(?:anyone|anybody|everyone|everybody|whoever) (?:can|may|is allowed to|should be able to)"),
    # A policy stated as what the assistant does or what its answers are ("the AI shares keys with …",
    # "answers come without disclaimers", "unverified servers are fine to connect").
    en(
        "(?:the|this|our|your) (?:assistant|ai|bot|agent|model|chatbot) (?:[a-z]+ly )?[a-z]+s(?![a-z'])",
        "(?:the |your |all |every )?(?:answers?|replies|responses|outputs?) (?:come|are|will|should|must|go)",
        "(?:is|are) (?:fine|ok|okay|safe|allowed|acceptable) to",
        "(?:is|are) (?:no longer |not |never )?(?:allowed|permitted)",
        # or as what becomes of the act ("file deletions go ahead without asking anyone")
        "(?:deletions?|payments?|purchases?|refunds?|transfers?|deploy(?:ment)?s?|merges?|releases?|orders?|actions?|"
        "changes?|e-?mails?|messages?|invoices?|expenses?) (?:go ahead|go through|proceed|happen|run|"
        "get (?:done|sent|made|approved|processed|paid)|are (?:done|sent|made|approved|processed|paid|carried out))",
    ),
    zh(
        "(?:助手|智能体|模型|机器人|ai)(?:以后|今后|从现在起|现在)?(?:应|要|须|必须|可以|可|不再|不要|不得|一律|都|只|把|将|会)",
        "(?:回答|回复|答复|输出)(?:中|里)",
        "(?:都|一律|直接|随时|尽管|随便)(?:可以|能)",
    ),
)


def orders_assistant(clause: str) -> bool:
    """Whether a prepared, unframed clause is an order to the assistant, not a statement about the speaker."""
    if addresses_assistant(clause) or _NORM_ON_ASSISTANT.search(clause):
        return True
    if _SPEAKER.match(clause):
        return False
    return is_directive_clause(clause) or standing(clause)


def negated(clause: str, start: int) -> bool:
    """Whether a negator comes before ``start`` in ``clause``."""
    before = clause[:start]
    return NEGATOR.search(before) is not None or _ZH_NOT.search(before) is not None


def last_match(lexicon: Lexicon, text: str) -> re.Match[str] | None:
    """The last match in ``text``: the operation nearest the target after it."""
    matches = list(lexicon.finditer(text))
    return matches[-1] if matches else None


def stems(*words: str) -> Stems:
    """The literal ``words`` (prepared, case-folded) as one pattern."""
    return re.compile("|".join(map(re.escape, words)))


def has_stem(text: str, words: Stems) -> bool:
    return words.search(text) is not None


__all__ = ["OrderClass", "Stems", "has_stem", "last_match", "negated", "orders_assistant", "stems"]
