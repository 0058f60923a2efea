"""A person's profession and the words of its trade: a dentist's 病历, a paralegal's 诉讼材料, an accountant's
tax returns are their work, not their own health, legal or money matters.

Two readings turn a health, legal or financial finding into the job it is (``JOB_TITLE``, ``medium``):

- the word is part of the profession's own name ("physical therapist", "心理咨询师");
- the text says the person works in that trade ("I'm a pharmacist", "我是牙医", "我在律所工作") and the word is
  used about the work: no possessive or first-person experience stands before it in its clause ("my
  prescription", "I had surgery", "我的病历", "我做了手术", "I'm going through a divorce" stay the person's own),
  it is not a forgery of them ("假病历", "fake prescriptions"), and its sentence doesn't tell the assistant what to
  do with them ("I'll send you prescriptions to rewrite").

Only those three kinds are read so; a diagnosis (``MEDICAL_CONDITION``, restricted) stays restricted whoever
writes it, and a trade of one kind doesn't excuse another kind's words (a lawyer's own prescription is health).
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult

from governance.recognizers.entities import EntityType

# "I am a physical therapist", "我是一名心理咨询师": the finding inside this span is the profession's name.
_PROFESSION = re.compile(
    r"(?i:\b(?:i am|i'm|i work as|i worked as|works as|i'm working as|my job is|by profession)\s+(?:an?\s+)?"
    r"[a-z -]{0,30}?(?:ist|er|or|ian|ant|ent|nurse|doctor|surgeon|lawyer|attorney|counsel|midwife|paramedic)s?\b)"
    r"|我(?:是|是一名|是一个|是个|做|当)[\u4e00-\u9fff]{0,10}?(?:师|员|医生|医师|顾问|护士|律师|大夫)"
)

# The trades whose everyday words are health, legal or financial ones, as a person names their own.
_TRADES: dict[EntityType, tuple[str, str]] = {
    EntityType.HEALTH_INFO: (
        r"nurse|doctor|physician|surgeon|dentist|dental hygienist|hygienist|pharmacist|pharmacy technician"
        r"|therapist|physiotherapist|psychologist|psychiatrist|counsel+or|paramedic|emt|midwife|optometrist"
        r"|radiologist|radiographer|dietitian|nutritionist|medic|clinician|caregiver|care worker|sonographer"
        r"|phlebotomist|an(?:a)?esthesiologist|an(?:a)?esthetist|pediatrician|paediatrician|oncologist|cardiologist"
        r"|gp|general practitioner|vet|veterinarian|resident|intern at (?:a|the) hospital|medical (?:coder|scribe"
        r"|student|assistant|secretary)|health ?care worker|hospital (?:administrator|pharmacist|porter)",
        r"医生|医师|大夫|护士|护师|牙医|口腔医生|药剂师|药师|治疗师|康复师|理疗师|心理咨询师|咨询师|心理医生|护工|医务"
        r"|住院医|规培|麻醉师|营养师|检验师|医学生|医院|诊所|药房|药店|病房|科室",
    ),
    EntityType.LEGAL_INFO: (
        r"lawyer|attorney|paralegal|solicitor|barrister|judge|law clerk|court clerk|notary|legal (?:assistant"
        r"|counsel|secretary|aid|analyst|intern)|prosecutor|public defender|mediator|arbitrator|litigator"
        r"|compliance officer|in-house counsel|law firm|court reporter",
        r"律师|律师助理|法官|法务|检察官|书记员|公证员|仲裁员|调解员|律所|法院|法律顾问|法律援助",
    ),
    EntityType.FINANCIAL_INFO: (
        r"accountant|bookkeeper|banker|financial (?:advisor|adviser|planner|analyst|controller)|loan officer"
        r"|mortgage (?:broker|advisor|adviser)|underwriter|tax (?:preparer|advisor|adviser|accountant)|auditor"
        r"|actuary|teller|cashier|stockbroker|broker|trader|credit analyst|payroll (?:specialist|clerk|manager)"
        r"|insurance (?:agent|adjuster|broker)|claims adjuster|cfo|controller|treasurer",
        r"会计|出纳|银行|理财|信贷|税务|审计师|精算|券商|交易员|财务|薪酬专员|保险代理|理赔员|核保",
    ),
}
# "I'm a …", "I work as/in/at …", "我是…", "我在…工作": the person names their trade, within a short reach.
_SELF_EN = (
    r"(?:\b(?:i am|i'm|im|i work as|i worked as|i work in|i work at|i'm working as|i train as|my job is"
    r"|by profession)\b"
    r"|(?:^|(?<=[.;!?\n] ))as an?\b)"
)
_SELF_ZH = r"我(?:是|是一名|是一个|是个|做|当|在|干)"
_WORKS_IN: dict[EntityType, re.Pattern[str]] = {
    kind: re.compile(rf"(?i:{_SELF_EN}[^.;!?\n]{{0,40}}?\b(?:{en})s?\b)|{_SELF_ZH}[^。；！？\n]{{0,12}}?(?:{zh})")
    for kind, (en, zh) in _TRADES.items()
}
# Within the clause before the word: the person's own matter ("my", "I had", "我的", "我做了") or a near one's.
_OWN_EN = re.compile(
    r"(?i:\b(?:my(?!\s+(?:job|work|role|patients?|clients?|cases?|customers?|team|firm|clinic|practice|shifts?|ward"
    r"|office|caseload|colleagues?|department)\b)|mine|our|me|i have|i had|i've|i ve|i got|i am on|i'm on|i was"
    r"|i'm in|i am in|had|got|going through|went through|been through|facing|dealing with|in the middle of"
    r"|recovering from|owe|filed|is on|was on|been on)\b)"
)
# Chinese drops the subject ("我是护士，上周刚做了手术"): an experience verb just before the word is the person's
# own unless the clause says who for ("给病人做了手术").
_OWN_ZH = re.compile(
    r"我的(?!工作|病人|患者|客户|当事人|案子|同事|科室|门诊)|我家|我们家|家人|我妈|我爸|孩子"
    r"|(?:有|得了|得过|打|被|做了|做过|刚做|住了|住过|住|吃|欠|面临|正在办|在办|离)[^，。；]{0,2}$"
)
_FOR_OTHERS_ZH = re.compile(r"给|帮|为|替")
_CLAUSE = re.compile(r"[.;!?,\n。；！？，、]|\b(?:and|but|so|because|while)\b", re.IGNORECASE)


def _clause_before(text: str, at: int) -> str:
    """The part of the word's clause before it."""
    starts = [match.end() for match in _CLAUSE.finditer(text, 0, at)]
    return text[starts[-1] if starts else 0 : at]


# Not the trade's words: a forgery of them ("假病历", "fake prescriptions"), or a sentence that tells the assistant
# what to do with them ("I'll send you prescriptions to rewrite").
_FORGED = re.compile(r"(?i:(?:fake|forged|counterfeit|false|made-up)\s+$)|(?:假|伪造|编造|冒充)(?:的)?$")
_ADDRESSES = re.compile(r"(?i:\byou\b|\byour\b)|你")
_SENTENCE_END = re.compile(r"[.;!?\n。；！？]")


def _sentence_of(text: str, start: int, end: int) -> str:
    starts = [match.end() for match in _SENTENCE_END.finditer(text, 0, start)]
    stop = _SENTENCE_END.search(text, end)
    return text[starts[-1] if starts else 0 : stop.start() if stop else len(text)]


def _used_at_work(text: str, result: RecognizerResult) -> bool:
    kind = EntityType(result.entity_type)
    works_in = _WORKS_IN.get(kind)
    if works_in is None or works_in.search(text) is None:
        return False
    if _FORGED.search(text[max(0, result.start - 12) : result.start]):
        return False
    if _ADDRESSES.search(_sentence_of(text, result.start, result.end)):
        return False
    before = _clause_before(text, result.start)
    if _OWN_EN.search(before) is not None:
        return False
    return _OWN_ZH.search(before) is None or (
        _FOR_OTHERS_ZH.search(before) is not None and "我的" not in before and "我家" not in before
    )


def as_professions(text: str, results: list[RecognizerResult]) -> list[RecognizerResult]:
    """``results`` with the health, legal and financial findings that are the person's trade read as
    ``JOB_TITLE`` (module docstring)."""
    if not any(EntityType(result.entity_type) in _TRADES for result in results):
        return results
    names = [match.span() for match in _PROFESSION.finditer(text)]
    kept = []
    for result in results:
        if EntityType(result.entity_type) in _TRADES and (
            any(start <= result.start and result.end <= end for start, end in names) or _used_at_work(text, result)
        ):
            kept.append(RecognizerResult(EntityType.JOB_TITLE.value, result.start, result.end, result.score))
        else:
            kept.append(result)
    return kept
