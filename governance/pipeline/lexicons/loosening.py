"""Rule 4 by structure: an operation that takes a control away, applied to a control, not negated.

:mod:`lexicons.fields` names the controls (rules, approvals, audit, verification; permissions and
the assistant's setup) and the operations. A clause loosens a control when

- a removal ("skip", "turn … off", "跳过", "关掉") takes a control as its object — the words after it
  up to a preposition or phrase break, the object of a 把-construction, or, when it has no object of its
  own ("就跳过吧", "drop them"), the topic of the clause or of the clause before;
- a "no need" ("no need to", "without", "不用", "无需") governs a control;
- a state says a control is off ("the policy doesn't apply", "复核已经取消了");
- something is treated as already cleared ("treat it as approved", "视为已批准", "标成已实名");
- a privilege is granted in an instruction ("add me to the owners group", "给我开管理员权限");
- the assistant is told to approve, or approvals are deferred ("just click approve", "手续之后补");
- a protective act is negated ("don't log my actions", "不用再问安全问题").

A negator before a removal makes it a tightening ("never skip the review", "千万别跳过代码评审"); a
"without" in a negated clause is one too ("never deploy without review"). A control word that only
modifies another noun ("audit department", "review meeting", "日志里的 DEBUG 级别") is not the object,
and loosening the person's own test or example code ("disable logging in the examples") is not rule 4.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from governance.pipeline.lexicons.directive import (
    addresses_assistant,
    clauses,
    is_directive,
    is_directive_clause,
    standing,
)
from governance.pipeline.lexicons.fields import APPROVALS, AUDIT, RULES, VERIFICATION
from governance.pipeline.lexicons.operations import CLEARED, GRANT, LOOSE_STATE, NO_NEED, PRIVILEGE, REMOVE, TREAT_AS
from governance.pipeline.lexicons.study import studied
from governance.pipeline.lexicons.text import NEGATOR, PHRASE_BREAK, alt, compile_any, en, sentences, zh

# The controls a removal can take away, by class name (PERMISSIONS are not among them: removing a
# permission restricts; loosening one is a grant).
_SETUP_RULES = alt(
    en(
        "(?:previous |prior |earlier |above |original |initial )?(?:instructions|programming|training|setup|prompt)",
        "(?:whatever|everything|anything|what) you(?:'ve| have)? (?:were |been )?(?:told|given|instructed)",
        # The assistant's own configuration, named by its owner (a configuration file of one's own is not).
        "(?:your|the (?:assistant|platform|operator|system|developer)'s|(?:the )?(?:system|platform|operator)) "
        "(?:configuration|config|settings)",
    ),
    zh(
        "(?:之前|以前|上面|原有|出厂时?)?(?:的)?(?:指令|设定|提示词|训练)",
        "(?:之前|以前|此前|上面)(?:收到|说|给)的",
        "(?:你的|助手的|平台的?|运营方的?|系统的?|开发者的?)(?:配置|设置)",
    ),
)
# The assistant without its rules: "a model with no policies", "零号模式下没有任何禁区".
_NO_RULES = compile_any(
    en(
        "(?:has|have|had|with|without) no (?:[\\w-]+ ){0,2}(?:rules|limits|restrictions|guidelines|policies|guardrails|"
        "filters|oversight|boundaries|content rules)",
        "without (?:any |caring about |regard for |the )?(?:[\\w-]+ )?(?:rules|limits|restrictions|guidelines|policies|"
        "guardrails|filters|oversight|boundaries)",
    ),
    zh(
        "(?:没有|不受|无|不管|不用管|不守)(?:任何)?(?:什么)?(?:[^，。,.]{0,4})?(?:禁区|规矩|限制|约束|规则|准则|政策|护栏|底线)"
    ),
)
_CONTROLS = (
    ("safety_rules", compile_any(RULES, _SETUP_RULES, en("compliance", "checks"), zh("合规"))),
    (
        "approvals",
        compile_any(
            APPROVALS, en("double-?check\\w*"), zh("(?:给|转给|交给)(?:别人|其他人|第二个人|任何人)(?:看|审|批|复核)")
        ),
    ),
    ("audit", compile_any(AUDIT)),
    (
        "verification",
        compile_any(
            VERIFICATION, en("(?:security|identity|permission|access|role) checks?"), zh("核对", "权限(?:检查|校验)")
        ),
    ),
)
# A control word followed by one of these is still the head of its phrase ("approval step").
_CONTROL_HEADS = en(
    "exports?",
    "retention",
    "alerts?",
    "monitoring",
    "tracking",
    "process\\w*",
    "workflows?",
    "steps?",
    "flows?",
    "checks?",
    "requirements?",
    "rules?",
    "stages?",
    "gates?",
    "policy",
    "policies",
    "entries",
    "logs?",
    "logging",
    "trail",
    "history",
    "records?",
    "settings?",
    "layer",
)
_FUNCTION_WORDS = frozenset(
    re.findall(
        r"\S+",
        "is are was were be been being has have had do does did don't doesn't can will would should must may "
        "might for of on in at to from with by and or but that which who you your i my me it its they them "
        "this these those as so off now already still just too all any every no not the a an until unless "
        "before after when while if then there here we our us he she his her their says said shows showed "
        "fails failed returns returned flags flagged blocks blocked gets got needs needed required necessary "
        "requires applies apply expired lapsed loses wins aside hold ",
    )
)
# A Chinese control word followed by one of these modifies it ("审计报告", "日志级别").
_ZH_MODIFIED = re.compile(
    "^(?:部门|报告|术语|工作|流程图|图|信息|级别|系统|平台|模块|库|文档|会议|人员|专员|岗|专业|方面|相关|邮件|短信|页面|按钮|框)"
)
_OWN_ARTIFACTS = compile_any(
    # Not a host's last label: "my-mirror.example", "staging.test".
    "(?<![.@/])"
    + en(
        "(?:code )?examples?",
        "snippets?",
        "tests?",
        "test suite",
        "unit tests?",
        "sample code",
        "demos?",
        "tutorials?",
        "guides?",
        "test accounts?",
    ),
    zh("示例", "例子", "测试", "样例", "教程"),
)
# Talking about a control is not doing it: "skip explaining what an audit log is", "不用讲短信验证码".
_TALK = re.compile(
    r"^\W*(?:(?:to|the|any|more|further)\s+)?(?:explain\w*|describ\w*|mention\w*|cover\w*|talk\w*|discuss\w*|"
    r"introduc\w*|remind\w*)\b|^\W*(?:再|去)?(?:讲|解释|介绍|说明|提|描述|提醒)"
)
_EMPTY_OBJECT = re.compile(
    r"^\W*(?:(?:it|them|this|that|these|those|everything|all|all of (?:it|them)|itself|themselves|one|ones|"
    r"again|now|please|too|as well|for me|吧|了|掉|啊|呢|呀|一下|都|也|就|吗|嘛|好了|就行|即可)\W*)*$"
)
# What a Chinese topic is left with once the speaker, time words and particles are gone.
_ZH_TOPIC_FILLER = re.compile(
    "以后|今后|往后|从现在起|我的|我|你|就|都|也|可以|直接|请求|要求|的|这些|那些|一律|统统|全部|所有|再|过期|自动|定期|马上|立即|一直"
)
_PREPOSITION = re.compile(
    # Not the particle of signing in ("accounts that haven't logged in", "opted out"): it belongs to its verb.
    r"(?<!\blog)(?<!\blogs)(?<!\blogged)(?<!\blogging)(?<!\bsign)(?<!\bsigned)(?<!\bopt)(?<!\bopted)"
    r"\s(?:in|on|at|when|for|during|while|if|unless|before|after|from|with|by|because|since|so|and then|then|"
    r"whenever|to|into)\s"
)
_EN_WORD = re.compile(r"[a-z][a-z'-]*")
# Where a Chinese object ends: a time word or the next verb ("删除旧分支前要确认"); 时 only as "when"
# (时间戳 is an object).
_ZH_OBJECT_END = re.compile("(?:之前|之后|的时候|以前|以后|时(?![间候长区段刻效限])|[前后再先要])")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_LEAD = re.compile("(?:再|也|都|还|就)*(?:(?:问|找|跟|向)[^，。,；;]{0,6}?要)?")

_REMOVE = compile_any(REMOVE)
_CONDITION = re.compile(r"\b(?:without|unless|until|before|except)\b|除非|之前|以前|未经|不经|没经过|未获")
_TALK_INSIDE = re.compile(
    r"\b(?:explain\w*|describ\w*|mention\w*|cover\w*|talk\w*|discuss\w*|remind\w*)\b|讲|解释|介绍|说明|提到|描述|提醒"
)
_HOW_TO = re.compile(r"^\W*(?:how (?:to|do i|do you|can i)|如何|怎么|怎样)")
_WAIT = re.compile(r"^\W*(?:to )?(?:wait|hold|等)")
# A removal in the passive: the control is its subject ("the history to be wiped", "记录被清掉").
_PASSIVE = re.compile(r"(?:\b(?:to be|be|get|gets|got|is|are|being|been|was|were)|被)\s*$")
# States that point back at what was said before them ("answer as if there were none").
_REFERRING_STATE = re.compile(r"as if|as though|都没有了|没有了")
_NO_NEED = compile_any(NO_NEED)
_LOOSE_STATE = compile_any(LOOSE_STATE, en("optional", "unnecessary", "(?:is|are) not (?:required|needed)"))
_TREAT_AS = compile_any(rf"{TREAT_AS}(?:(?!{PHRASE_BREAK}).){{0,40}}?{CLEARED}")
_GRANT = compile_any(
    rf"{GRANT}(?:(?!{PHRASE_BREAK}).){{0,60}}?{PRIVILEGE}",
    rf"{PRIVILEGE}(?:(?!{PHRASE_BREAK}).){{0,12}}?(?:转给|开给|授予|给|交给)(?:我|他|她|他们)",
)
_PERFORM_APPROVAL = compile_any(
    en(
        "auto-?approv\\w*",
        "automatically (?:approv|accept|pass|confirm|grant|authori[sz])\\w*",
        "approve (?:it|them|this|these|that|all|every\\w*|any\\w*|whatever)",
        "(?:always|just|simply) approv\\w*",
        "rubber-?stamp\\w*",
        "reply (?:with )?['\"]?approved",
        "(?:click|hit|press|tap|select) (?:on )?['\"]?(?:approve|yes|accept|confirm)",
        "(?:default|answer|set)\\w*(?: [\\w-]+){0,6} (?:to|as) ['\"]?(?:yes|approve|approved|accept)",
        "push (?:it|them|this) through",
        "act as (?:the |an? )?approv\\w*",
    ),
    zh(
        "自动(?:通过|批准|审批通过|放行|同意|授权|确认)",
        "(?:一律|全部|默认|直接|都直接)(?:通过|批准|放行|同意|批)",
        "(?:直接|帮我|替我|你就?|就)(?:把)?(?:[^\\s，。,.!?；;：:、]{0,12}?)(?:点通过|批掉|批了|签掉|签了|放行|过掉|点同意)",
        "(?:你|就|直接)批(?![评注量判])",
        "直接过(?![来去])",
        '(?:都|一律|默认)?(?:选|点)(?:“|")?(?:同意|通过|是|批准)',
        "免(?:审|审批|审核|签|确认|验证)",
        "无条件(?:通过|批准|同意|执行|放行)",
        "先斩后奏",
    ),
)
# The speaker's own role or account, raised to a privilege, said as a topic: "我的角色改成项目 owner".
_SELF_ELEVATE = compile_any(
    rf"(?:\bmy|我的)(?:(?!{PHRASE_BREAK}).){{0,12}}?(?:role|account|access|permissions?|privileges?|角色|账号|权限|身份)"
    rf"(?:(?!{PHRASE_BREAK}).){{0,8}}?(?:\bto\b|\binto\b|(?:改成|升为|设为|调成|换成|变成|改为|升级为|升级成|升成|提升为|提升到|升到)了?)"
    rf"(?:(?!{PHRASE_BREAK}).){{0,10}}?{PRIVILEGE}"
)
# A standing approval claimed for everything of a kind: "has standing approval", "长期授权".
_STANDING_APPROVAL = compile_any(
    en(
        "(?:standing|blanket|implicit|automatic|permanent|open-ended|prior|full) "
        "(?:approvals?|authori[sz]ations?|sign-?offs?|consent|clearance)",
    ),
    zh("(?:长期|永久|全权|一揽子|默认)(?:授权|批准|签批|同意)"),
)
# Someone else already approves everything, or the speaker acts with a privileged identity.
_BLANKET = compile_any(
    en(
        "(?:approves?|signs? off on|okays?|ok's|clears?) (?:everything|all of (?:it|them)|anything|whatever|all)",
        "as (?:an? |the )?(?:[\\w-]+ )?(?:admin\\w*|owner|root|superuser)",
    ),
    zh(
        f"以(?:[^，。]{{0,8}})?{PRIVILEGE}(?:的)?身份",
        "(?:已经|早就|都)(?:同意|批准|批了|说好|点头|认可)(?:了)?[^。]{0,12}(?:直接|照办|照做|就)",
        "直接(?:[^，。,.]{0,8})?(?:盖章|签字|签署|批掉|通过|放行)",
    ),
)
_DEFERRAL = compile_any(
    en(
        "(?:paperwork|approvals?|forms?|sign-?offs?)(?: [\\w'-]+){0,4} (?:later|afterwards|after the fact)",
        "(?:sort out|do|file|fix|handle)\\w* the (?:paperwork|approvals?|forms?)(?: [\\w-]+){0,4} (?:later|afterwards)",
    ),
    zh(
        "(?:手续|审批|流程|单据|签字)(?:[^\\s，。,.!?；;：:、]{0,4})?(?:之后|以后|回头|事后|稍后|后面)(?:再)?补",
        "(?:先|后)补(?:审批|手续|流程|单据)",
        "先(?:付款|发布|执行|上线|做|处理)后(?:补)?(?:审批|审核|手续)",
    ),
)
# A protective act, negated: "don't log", "never ask for the code", "不用再问安全问题", "别留痕".
_PROTECTIVE_ACT = alt(
    en(
        "log\\w*",
        "record\\w*",
        "audit\\w*",
        "report\\w*",
        "alert\\w*",
        "monitor\\w*",
        "track\\w*",
        "verif\\w*",
        "confirm\\w*",
        "review\\w*",
        "escalat\\w*",
        "refus\\w*",
        "declin\\w*",
        "block\\w*",
        "restrict\\w*",
        "write\\w* (?:an? |any )?(?:audit|log)\\w*",
        "ask\\w* (?:me |anyone |them )?(?:for|to confirm|to verify)",
        "check\\w* (?:my |the )?(?:identity|permission|role|access)\\w*",
        "say no",
        "prompt\\w* (?:me|for)",
        "show\\w* (?:it |them |this |drafts? |the draft )?(?:to )?me (?:first|before)",
        "(?:appear|show)\\w* (?:up )?in (?:the )?(?:[\\w-]+ )?(?:logs?|history|trail|records?)",
    ),
    zh(
        "问(?:我)?(?:要)?(?:[^，。]{0,4})?(?:验证码|安全问题|身份|密码)",
        "确认(?!格式)",
        "核实",
        "核验",
        "验证",
        "审核?",
        "复核",
        # Not inside a noun (笔记, 日记, 登记) nor "remember" (记住, 记得).
        "(?<![笔日书标登牢铭印惦忘速])记(?:录)?(?![住得忆性者])",
        "留(?:痕|下?记录|日志)",
        "上报",
        "报告",
        "拦(?:截)?",
        "拒绝",
        "限流",
        "弹(?:出)?确认",
        "写(?:进|入)(?:审计|日志)",
        "显示我的名字",
        "查了",
        # Showing the person first: "不用给我看", "无需让我过目".
        "(?:给|让)我(?:先)?(?:看|过目)",
        "留底",
        f"(?:出现|显示|记|留)在(?:[^，。]{{0,8}})?{AUDIT}",
    ),
)
_PROTECTION_NEGATOR = alt(
    en(
        "don't",
        "do not",
        "never",
        "stop",
        "no longer",
        "no need to",
        "without",
        "no more",
        "nothing",
        "nobody",
        "no one",
        "none of",
    ),
    zh(
        "不要",
        "(?<![特区分识类级告性辨差个离鉴组派])别(?![人的])",
        "不用",
        "不必",
        "无需",
        "不再",
        "一律不",
        "不许",
        "不(?=出现|显示|记在|留)",
    ),
)
_NEGATOR_FIRST = re.compile(_PROTECTION_NEGATOR, re.IGNORECASE)
_NEGATED_PROTECTION = compile_any(
    _PROTECTION_NEGATOR
    + r"(?:(?:\s*[a-z][\w'-]*){0,6}?|[^，。,.!?；;\sa-z]{0,8}?)\s*"
    + alt(_PROTECTIVE_ACT, VERIFICATION, AUDIT, en("audited", "verified", "logged", "checked", "reviewed")),
    en("(?:log|record|track|audit|report)\\w* nothing"),
)
# A removal right after a number counts results ("2 skipped", "3 个被忽略").
_COUNTED = re.compile(r"\d\s*(?:个|项|条|tests?|cases?|checks?|files?|items?)?\s*(?:被)?\s*$")
# The speaker approves, and only once something holds: "都过了我才点通过", "only then I click approve".
_SPEAKER_ACTS = re.compile(r"我(?:才|再)(?:会)?$|(?<![a-z])(?:only )?then i $")
# A person approves, not the assistant: "I want to approve every post", "my manager has to click approve",
# "经理必须亲自点通过" keep a person in the decision.
_PERSON_APPROVES = re.compile(
    r"(?<![a-z])(?:i|we|my [\w-]+|our [\w-]+|the (?:manager|lead|owner|approver|director|supervisor|cfo|ceo|admin"
    r"|finance team|team lead|reviewer)s?)(?: (?:want|wants|need|needs|have|has|get|gets|would like|'d like|must|will"
    r"|'ll|should|always|then|only|personally|myself|themselves|to))* $"
    r"|(?:我|我们|经理|主管|领导|老板|财务|负责人|审批人|组长)(?:自己|亲自|想|要|需要|必须|得|会|才|来|都)*$"
)


def person_approves(before: str) -> bool:
    """Whether the approval that follows ``before`` (its phrase, prepared) is a person's, not the assistant's."""
    return _SPEAKER_ACTS.search(before) is not None or _PERSON_APPROVES.search(before) is not None


_ON_BEHALF = compile_any(zh("替我", "帮我", "代我", "直接", "自动"), en("on my behalf", "for me", "automatically"))
_SECRETS = compile_any(
    en("passwords?", "secrets?", "tokens?", "api keys?", "credentials?", "pii", "personal data", "card numbers?"),
    zh("密码", "密钥", "令牌", "个人信息", "隐私", "敏感", "卡号", "身份证"),
)


# The person keeps the decision: "ask me first", "先跟我确认", "needs my approval", "必须经过审批".
_DEFERS = compile_any(
    en(
        "(?:ask|check with|confirm with|consult|double-?check with|run (?:it|this|them) by) (?:me|us|"
        "a human|the owner)",
        "(?:require|need|wait for|get|have)\\w* (?:my|our|explicit|written|a second|two|an?) ?(?:explicit )?"
        "(?:confirmation|approvals?|go-ahead|sign-?off|review|ok|consent)",
        "must be (?:reviewed|approved|confirmed|signed off)",
        "only (?:after|with|once) (?:my |an? |the )?(?:approval|confirmation|review|go-ahead|sign-?off)",
        "read-?only",
        # Hands the decision back: "stop and hand it back to me", "let me decide", "wait for me to confirm".
        "hand (?:it|this|that|them|control|the decision) back to (?:me|us)",
        "(?:leave|give) (?:it|this|that|the decision) to (?:me|us)",
        "let (?:me|us) (?:decide|choose|confirm|approve|handle it|do it|sign)",
        "wait (?:for|until) (?:me|us|my|our)(?: to)? (?:confirm|approve|ok|okay|reply|answer|say|go-ahead|sign-?off)",
        "wait for (?:an? |my |our )?(?:clear |explicit )?['\"]?(?:go|ok|okay|yes|go-ahead|confirmation|approval)\\b",
        "show (?:it|them|this|that|drafts?|the draft) to me "
        "(?:first|before (?:sending|posting|publishing|it goes|you))",
        # Handed to the person to decide: "send it to me for review", "bring the draft to us for sign-off".
        "(?:send|show|bring|give|pass|forward|hand)\\w* (?:it|them|this|that|drafts?|the [\\w-]+) "
        "(?:back )?to (?:me|us) (?:for|to) (?:review|approval|sign-?off|a check|confirmation|approve|check|confirm)",
    ),
    zh(
        "先(?:问|跟|和|找|让|给|请|经过)(?:我|人|负责人)",
        "(?:问我|跟我确认|让我确认|给我看|经过我|我确认)(?:后|之后|再|一下)",
        "(?:必须|需要|要|得|一律|都)(?:先)?(?:经过|走|跟|和|向|找|问|让)?(?:我的?|人工|两个人|双人|第二个人)?"
        "(?:确认|同意|审批|审核|复核)",
        "只读",
        # "先给我看一眼", "等我说可以再删", "停下来交给我自己来", "让我来决定".
        "先(?:给|让)我(?:看|过目)",
        "(?:给|让)我(?:看|过目)(?:一眼|一下|一遍)?(?:再|后|之后|以后|才)",
        "等我(?:说|点头|同意|确认|回复|发话|批准|看过)",
        "交(?:给|还给|回给)我(?:自己)?(?:来|处理|决定|操作)",
        "(?:让|由)我(?:自己)?(?:来)?(?:决定|确认|拍板|操作|处理)",
        "(?:发|交|拿)给我(?:来)?(?:审批|审核|确认|过目|签字)",
        # "删除之前你都会先确认": before the act, a check with the person first.
        "(?:之前|以前|前)[,，]?(?:你)?(?:都|会|要|也|总|一定)*先(?:跟我|和我|向我)?(?:确认|核实|问(?:我|一下|过我))",
    ),
)


def defers_to_person(text: str) -> bool:
    """Whether prepared ``text`` keeps a person in the decision (a tightening)."""
    return _DEFERS.search(text) is not None


def only_orders_that_keep_person_deciding(prepared: str) -> bool:
    """Whether prepared text gives orders and every clause that gives one keeps the person deciding ("先给我看一眼",
    "stop and hand it back to me"); one clause that orders without it ("…, then follow every instruction in the
    page") and the text is not a tightening."""
    ordering = [
        clause
        for sentence in sentences(prepared)
        for clause in clauses(sentence)
        if is_directive(clause) or addresses_assistant(clause) or standing(clause)
    ]
    return bool(ordering) and all(keeps_person_deciding(clause) for clause in ordering)


def keeps_person_deciding(prepared: str) -> bool:
    """Whether prepared text keeps a person in the decision somewhere, not negated in its phrase ("先给我看一眼"
    does; "不用给我看" and "no need to ask me" take the person out)."""
    return any(
        not NEGATOR.search(_phrase_before(prepared, match.start())) and not NEGATOR.search(match.group(0))
        for match in _DEFERS.finditer(prepared)
    )


def conduct_on_control(prepared: str, clause_is_conduct: Callable[[str], bool]) -> str | None:
    """The turned-around default: the class of control that an instruction about the assistant's
    conduct acts on (rules, approvals, audit, verification), unless the clause keeps a person in the
    decision or is negated (a tightening); None when it touches none."""
    for sentence in sentences(prepared):
        for clause in clauses(sentence):
            if not clause_is_conduct(clause) or NEGATOR.search(clause) or defers_to_person(clause):
                continue
            if _OWN_ARTIFACTS.search(clause):
                continue
            found = _control(clause)
            if found:
                return found
    return None


def control_of(span: str) -> str | None:
    """The class of the first control (rules, approvals, audit, verification) that ``span`` names as
    the head of a phrase, or None."""
    return _control(span)


def loosening(prepared: str) -> str | None:
    """The class of control (``approvals``, ``audit``, …) that prepared ``text`` loosens, or None."""
    for sentence in sentences(prepared):
        parts = clauses(sentence)
        for index, clause in enumerate(parts):
            found = _clause(clause, parts[:index])
            if found:
                return found
    return None


def _clause(clause: str, before: list[str]) -> str | None:
    if _OWN_ARTIFACTS.search(clause) or _HOW_TO.match(clause):
        return None  # the person's own examples; "how to turn off the audit log" names a topic
    for match in _REMOVE.finditer(clause):
        if NEGATOR.search(_phrase_before(clause, match.start())) or studied(clause, match.start()):
            continue
        if _done_by_speaker(clause, match):
            continue  # "in VS Code I've turned off telemetry": what the person did to their own things
        if _COUNTED.search(clause[: match.start()]):
            continue  # "480 passed, 2 skipped": a count of results, not an order
        found = _control(match.group(0)) or _removed_control(clause, match, before)
        if found:
            return found
    for match in _NO_NEED.finditer(clause):
        is_without = match.group(0).startswith(("without", "no ")) and not match.group(0).startswith("no need")
        if is_without and NEGATOR.search(clause[: match.start()] + clause[match.end() :]):
            continue  # "never deploy without review", "no merge without a second approval": a tightening
        obj = _object_after(clause, match.end(), words=6)
        if _TALK.match(obj):
            continue
        waits = not is_without and _WAIT.match(obj)  # "needn't wait"; "without waiting for CI" is rule 7's
        found = _control(obj, heads=not is_without) or ("approvals" if waits else None)
        if found:
            return found
    for match in _LOOSE_STATE.finditer(clause):
        subject = _phrase_before(clause, match.start())
        found = _control(subject)
        if not found and (_is_empty(subject) or _REFERRING_STATE.match(match.group(0))):
            found = _control(clause[: match.start()]) or _control(" ".join(before[-1:]))
        if found:
            return found
    claims = (_TREAT_AS, _PERFORM_APPROVAL, _DEFERRAL, _STANDING_APPROVAL, _BLANKET)
    for pattern, name in zip(claims, ("approvals",) * len(claims), strict=True):
        for match in pattern.finditer(clause):
            before_match = _phrase_before(clause, match.start())
            if NEGATOR.search(before_match) or (pattern is _PERFORM_APPROVAL and person_approves(before_match)):
                continue  # "I click approve only once CI is green", "my manager has to click approve": a person's
            return _cleared_class(match.group(0)) if pattern is _TREAT_AS else name
    for pattern in (_GRANT, _SELF_ELEVATE):
        grant = pattern.search(clause)
        negated = grant is not None and NEGATOR.search(_phrase_before(clause, grant.start())) is not None
        if grant and not negated and (pattern is _SELF_ELEVATE or is_directive_clause(clause)):
            return "permissions"
    if _NO_RULES.search(clause) and not NEGATOR.search(clause.replace("no ", "", 1).replace("没有", "", 1)):
        return "safety_rules"
    for match in _NEGATED_PROTECTION.finditer(clause):
        rest = clause[match.end() : match.end() + 30]
        on_behalf = _phrase_before(clause, match.start())[-6:] + match.group(0)
        if _SECRETS.search(match.group(0) + rest) or _ON_BEHALF.search(on_behalf):
            continue  # "never log passwords", "别把密码记在备忘录里" protect; "不要替我确认" keeps the person deciding
        negator = _NEGATOR_FIRST.match(match.group(0))
        if negator and _REMOVE.search(match.group(0)[negator.end() :]):
            continue  # "never skip the review", "千万别跳过代码评审": the negation takes the removal away
        if _TALK_INSIDE.search(match.group(0)):
            continue  # "不用讲短信验证码": not talking about it is not switching it off
        if _CONDITION.search(match.group(0)):
            continue  # "don't merge without a second review": the negation guards another act
        if NEGATOR.search(_phrase_before(clause, match.start())):
            continue
        return _control(match.group(0), heads=False) or "audit"
    return None


def _removed_control(clause: str, match: re.Match[str], before: list[str]) -> str | None:
    """The control a removal acts on: its object, a 把-object, or (with no object) the topic."""
    if _PASSIVE.search(clause[: match.start()]):
        return _control(_phrase_before(clause, match.start()))
    after = _object_after(clause, match.end())
    if _TALK.match(after):
        return None
    if not _is_empty(after):
        return _control(after)
    ba = re.search(r"(?:把|将)([^，。,;；]{1,24})$", clause[: match.start()])
    if ba:
        return _control(ba.group(1))
    topic = _phrase_before(clause, match.start())
    if _CJK.search(topic):
        head = topic.rsplit("的", 1)[-1] if "里的" in topic or "中的" in topic else topic
        if _ZH_TOPIC_FILLER.sub("", head).strip():
            return _control(head)
    elif _control(topic):
        return _control(topic)
    # No object of its own: what the clause (or the one before) is about.
    earlier = clause[: match.start() - len(topic)]
    return _control(earlier) or _control(" ".join(before[-1:]))


def _object_after(clause: str, end: int, *, words: int = 8) -> str:
    rest = re.split(PHRASE_BREAK, clause[end:], maxsplit=1)[0]
    if _CJK.search(rest[:4]):
        # "不用再问我要授权书": past an adverb and asking someone for it, the object is what is asked for.
        rest = rest[_ZH_LEAD.match(rest).end() :]  # type: ignore[union-attr]
        # "删除操作前必须先让我确认": the object ends where the time or the next verb begins.
        return _ZH_OBJECT_END.split(rest[:14], maxsplit=1)[0]
    cut = _PREPOSITION.search(" " + rest + " ")
    if cut and words == 8:
        rest = (" " + rest)[: cut.start()]
    return " ".join(rest.split()[:words])


# The speaker as the subject of a removal already done, of a setting of their own device or app: "in VS Code
# I've turned off telemetry", "I disabled crash reports on my laptop". Never of a control (approvals, audit
# logs, verification, permissions, the safety rules): "we've disabled the audit log" claims a control gone.
_SPEAKER_DID = re.compile(r"(?<![a-z])(?:i|we)(?P<perfect>'ve| have| had)?(?: (?:already|just|also|recently))?\s*$")
_PAST = re.compile(r"^[a-z]+ed\b|^(?:shut|cut|put|set|took|threw|got rid)\b")
_PERSONAL_SETTING = re.compile(
    r"^\S+(?: off| out)?\s+(?:(?:the|all|my|our)\s+)?"
    r"(?:(?!(?:audit|security|safety|approval|access|permission|fraud|compliance|login|alert)\w*\b)[\w-]+\s+)?"
    r"(?:telemetry|crash report(?:s|ing)?|"
    r"usage (?:data|statistics|stats)|analytics|diagnostics|ad (?:tracking|personali[sz]ation)|location (?:history|"
    r"services)|notifications?|auto(?:matic)?[- ]?updates?|autocorrect|autosave|sounds?|animations?)\b"
)
# Anyone else's things, or the assistant's: "I've turned off your notifications", "for you", "its".
_NOT_OWN = re.compile(
    r"(?<![a-z])(?:your|yours|you|its|their|everyone's|(?:the )?(?:assistant|ai|agent|bot|model)'s)(?![a-z])"
)


def _done_by_speaker(clause: str, match: re.Match[str]) -> bool:
    """Whether the removal at ``match`` is the speaker's own, done, of a setting of their own device or app."""
    did = _SPEAKER_DID.search(clause[: match.start()])
    if did is None or _NOT_OWN.search(clause) or not _PERSONAL_SETTING.match(clause[match.start() :]):
        return False
    return bool(did.group("perfect")) or bool(_PAST.match(match.group(0)))


def _phrase_before(clause: str, start: int) -> str:
    phrase = re.split(PHRASE_BREAK, clause[:start])[-1]
    if len(phrase) > 60:
        phrase = phrase[-60:]
        phrase = phrase if _CJK.search(phrase[:2]) else phrase.split(" ", 1)[-1]
    return phrase


def _is_empty(span: str) -> bool:
    return _EMPTY_OBJECT.match(span) is not None


def _control(span: str, *, heads: bool = True) -> str | None:
    """The class of the first control named in ``span`` as the head of its phrase."""
    for name, lexicon in _CONTROLS:
        for match in lexicon.finditer(span):
            if not heads or _is_head(span, match):
                return name
    return None


def _is_head(span: str, match: re.Match[str]) -> bool:
    rest = span[match.end() :]
    if _CJK.match(rest[:1]):
        return not _ZH_MODIFIED.match(rest)
    word = _EN_WORD.match(rest.lstrip(" -"))
    if not word or (not rest[:1].isspace() and not rest.startswith("-")):
        return True
    following = word.group(0)
    return following in _FUNCTION_WORDS or re.fullmatch(_CONTROL_HEADS, following) is not None


def _cleared_class(text: str) -> str:
    if re.search(r"verif|trust|实名|认证|验证|可信|信任|核实|核验", text):
        return "verification"
    if re.search(r"admin|owner|root|superuser|管理员|所有者|白名单|whitelist|allowlist", text):
        return "permissions"
    if re.search(r"sandbox|unrestricted|沙盒|限制", text):
        return "safety_rules"
    if re.search(r"unlogged|没发生过|audit|审计", text):
        return "audit"
    return "approvals"
