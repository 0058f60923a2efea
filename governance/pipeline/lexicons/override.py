"""Rule 4: content that tries to loosen safety, permission, approval, audit or filter behaviour (§13).

Loosening is told from tightening by construction, not by topic: "skip the approval" loosens,
"never skip the approval" tightens; "deploy without review" loosens, "never deploy without review"
tightens; "关闭自动审批" (turn auto-approval off) tightens. Each check is a pattern plus how
negation flips it:

- ``BEFORE``: a negator earlier in the same phrase makes it a tightening ("don't bypass the filter").
- ``ANYWHERE``: a negator anywhere in the same sentence does ("未经审批不得付款", "no merge without review").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from governance.pipeline.lexicons.directive import standing
from governance.pipeline.lexicons.loosening import defers_to_person, person_approves
from governance.pipeline.lexicons.study import studied
from governance.pipeline.lexicons.text import (
    NEGATOR,
    PHRASE_BREAK,
    SENTENCE_BREAK,
    alt,
    compile_any,
    en,
    near,
    negated_before,
    phrases,
    prepare,
    sentences,
    zh,
)


class Negation(Enum):
    BEFORE = "before"
    ANYWHERE = "anywhere"


# What protects: approvals, reviews, confirmations, verification, filters, audit, limits.
# "auto-approval" is excluded: turning *that* off is a tightening.
_SAFEGUARD = alt(
    en(
        r"(?<!auto-)(?<!auto )(?<!automatic )approv(?:al|als|e|ing)",
        "(?:code |security |peer )?reviews?",
        "pull requests?",
        "prs?",
        "sign-?offs?",
        "confirmations?",
        "confirm(?:ing)?",
        "double-?check(?:s|ing)?",
        "second check",
        "verif(?:y|ication|ying)",
        "2fa",
        "mfa",
        "two-factor(?: auth\\w*)?",
        "otp",
        "(?:security|safety|permission|access|compliance|fraud|risk) "
        "(?:checks?|scans?|controls?|rules?|polic(?:y|ies)|reviews?)",
        "access controls?",
        "guardrails?",
        "(?:content |safety |spam )?filters?",
        "(?:content )?moderation",
        "audit(?:s|ing| logs?| trail)?",
        "logging",
        "spending limits?",
        "(?:payment|refund|transfer|withdrawal) limits?",
        "limits? (?:on|for) (?:payments?|refunds?|transfers?|spending)",
        "(?:system|safety|security|company|org\\w*) (?:rules?|polic(?:y|ies)|restrictions?)",
    ),
    zh(
        "(?<!自动)审批",
        "(?<!自动)审核",
        "(?<!自动)批准",
        "复核",
        "核准",
        "签批",
        "二次确认",
        "(?<!自动)确认",
        "验证",
        "校验",
        "验证码",
        "双因素",
        "风控",
        "安全(?:检查|审查|策略|规则|限制|过滤|扫描)",
        "权限(?:校验|检查|控制|限制)",
        "过滤",
        "内容审查",
        "审查",
        "审计",
        "日志",
        "监控",
        "告警",
        "合规",
        "限额",
        "额度限制",
        "(?:系统|安全|审批|权限|公司|组织|合规|风控)(?:规则|规定|策略|限制|流程)",
        "代码评审",
        "评审",
        "拦截",
        "(?:安全|内容|敏感|权限|风险|合规|身份)(?:内容)?(?:检查|检测|审查|核验)",
        "(?:内容)?安全(?:判断|把关|审核)",
    ),
)

# Verbs that take a safeguard away when they precede it. "Skip", "bypass", "不需要" say so from a
# distance ("skip the mandatory second approval"); verbs that also name ordinary actions ("delete",
# "remove", "删除") only when the safeguard is their object, right after them: "删除数据的操作之前都要
# 先问我确认" protects a deletion, it doesn't delete the confirmation.
_LOOSEN_FAR = alt(
    en(
        "skip(?:s|ping|ped)?",
        "bypass(?:es|ing|ed)?",
        "circumvent\\w*",
        "get around",
        "work around",
        "go around",
        "ignore",
        "disregard",
        "override",
        "overrule",
        "waive",
        "no need (?:for|to)",
        "(?:don't|do not|doesn't|does not|won't|will not) (?:need|require|have to)",
        "no longer (?:need|require)s?",
        "exempt(?:ed)? from",
    ),
    zh(
        "跳过",
        "绕过",
        "绕开",
        "避开",
        "规避",
        "忽略",
        "无视",
        "不理会",
        "豁免",
        "免除",
        "免去",
        "不需要",
        "不需",
        "无需",
        "无须",
        "不用",
        "不必",
        "没必要",
        "可以不",
        "不再需要",
        "不再要求",
    ),
)
_LOOSEN_NEAR = alt(
    en(
        "disable",
        "deactivate",
        "turn off",
        "switch off",
        "shut off",
        "remove",
        "drop",
        "delete",
        "cancel",
        "lift",
        "relax",
        "loosen",
        "suppress",
        "pause",
    ),
    zh(
        "关闭",
        "关掉",
        "禁用",
        "停用",
        "停掉",
        "暂停",
        "取消",
        "去掉",
        "去除",
        "移除",
        "删除",
        "删掉",
        "解除",
        "省略",
        "省去",
        "省掉",
        "放宽",
        "放开",
        "降低",
    ),
)

# A safeguard *acting* on the person, negated: "don't block me", "不要拦截", "never ask me for approval".
_SAFEGUARD_ACTS = alt(
    en(
        "block(?:ing)? (?:me|my|it|them|this|these|anything|any)",
        "stop(?:ping)? me",
        "refuse",
        "restrict(?:ing)? me",
        "ask(?:ing)? (?:me )?for (?:confirmation|approval|permission|a review)",
        "require (?:my )?(?:confirmation|approval|review)",
        "check with (?:me|anyone|a human)",
    ),
    zh("拦截", "阻止", "阻拦", "拒绝", "限制我", "(?:问|让|找|需要|要求)我(?:再)?(?:确认|审批|同意)"),
)

# Where the object of an action verb ends: "删除旧分支前要确认" deletes branches, then confirms.
_OBJECT_ENDS = alt(PHRASE_BREAK, "[前后时要先再]", en("before", "after", "when", "then", "and"))

# Said after the safeguard: "approval is not required", "权限检查都直接跳过".
_LOOSEN_AFTER_FAR = alt(
    en(
        "(?:is|are) (?:not|no longer) (?:required|needed|necessary)",
        "(?:isn't|aren't) (?:required|needed|necessary)",
        "(?:is|are) (?:optional|unnecessary|waived|disabled|off)",
        "can be (?:skipped|bypassed|ignored)",
    ),
    zh("不需要了", "不用了", "可以免了?", "就免了", "不用(?:再)?走了?", "不走了", "免走", "不用(?:再)?(?:做|查|跑)了?"),
)
_LOOSEN_AFTER_NEAR = zh("(?:都|可以|直接|一律)?(?:跳过|省略|免了|绕过|忽略|关闭|取消)")

_WITHOUT = alt(en("without(?: any| a| an| the)?"), zh("不经过?", "未经过?"))

_AUTO_PASS = alt(
    en(
        "auto-?approv\\w*",
        "auto-?(?:accept|confirm|grant|authori[sz]e)\\w*",
        "automatically (?:approv|accept|pass|authori[sz]|grant|allow|confirm|sign off)\\w*",
        "approv\\w* (?:all|every|any|everything|anything)",
        "always approv\\w*",
        "approv\\w* (?:[\\w$,.-]+ ){0,5}automatically",
        "rubber-?stamp\\w*",
    ),
    zh(
        "自动(?:通过|批准|审批通过|审批|放行|同意|授权|确认)",
        "一律(?:通过|批准|放行|同意)",
        "全部(?:通过|批准|放行)",
        "直接(?:通过|批准|放行)",
        "默认(?:通过|批准|放行)",
        "免(?:审|审批|审核|签|确认|验证|密)",
        "无条件(?:通过|批准|同意|执行|放行)",
        "先斩后奏",
    ),
)

_PRIVILEGE = alt(
    en(
        "(?:admin|administrator|root|owner|superuser|super user|sudo|elevated|full|unrestricted|god) "
        "(?:rights|access|privileges?|permissions?|role|mode)",
        "superuser",
        "sudo",
        "all (?:the )?permissions",
    ),
    zh("(?:管理员|超级管理员|超管|root|最高|全部|所有|完整|无限制)(?:的)?权限", "管理员身份"),
)

_EVERYONE = alt(
    en("everyone", "everybody", "all (?:users|members|staff|employees|agents)", "any(?:one| user| member)"),
    zh("所有人", "(?:所有|全体|全部)(?:成员|用户|员工|人员|同事|agent)", "任何人", "全员", "大家", "每个人"),
)
_ESCALATE = alt(
    # A blanket grant: "all members have admin rights by default".
    near(_EVERYONE, alt(en("have", "has", "get", "gets", "receive"), zh("拥有", "有", "获得", "享有", "具有")), 12)
    + f"(?:(?!{SENTENCE_BREAK}).){{0,12}}?{_PRIVILEGE}",
    # Allowlisting skips every check at once.
    en("(?:add|put) (?:me|this user|the user|my account|them|him|her) (?:to|on) (?:the |an? )?(?:allow|white)-?list"),
    zh("(?:加入|加到|列入|放进)(?:(?!。).){0,4}白名单", "(?:把|将)(?:(?!。).){0,8}(?:加入|加到|列入)白名单"),
    near(en("give", "grant", "assign", "add", "elevate", "upgrade", "escalate", "promote"), _PRIVILEGE, 30),
    en(
        "(?:make|set|promote|upgrade|treat) (?:me|this user|the user|my account)(?: to| as)?(?: an| the)? "
        "(?:admin|administrator|superuser|owner|root)",
        "(?:elevate|escalate|raise) (?:my |the user's |their )?(?:privileges?|permissions?|access)",
    ),
    zh(
        "(?:给|帮|为)(?:我|该用户|这个用户)(?:(?!我).){0,6}(?:开通|加|授予|赋予|提升|升级|开)(?:(?!。).){0,8}权限",
        "(?:授予|赋予)(?:我|该用户|这个用户)(?:(?!。).){0,8}权限",
        "提升(?:我的|该用户的|用户的)?权限",
        "(?:把|将)(?:我|该用户|这个用户)(?:(?!。).){0,4}(?:设为|设置为|升级为|提升为|改为|加为|当作|当成|当)"
        "(?:管理员|超级管理员|超管|owner|admin|root)",
    ),
)

_IGNORE_RULES = alt(
    near(
        en("ignore", "disregard", "forget", "override", "bypass", "break", "violate"),
        alt(
            en(
                "(?:system|safety|security|content|company|org\\w*|all|any|every|previous|prior|above|earlier|"
                "your|default|original)(?: \\w+){0,2} (?:rules|instructions|guidelines|polic(?:y|ies)|prompts?|"
                "restrictions|guardrails|limits|constraints)",
                "system prompt",
                "guardrails",
            ),
        ),
        25,
    ),
    en(
        "(?:you are|you're) (?:no longer|not) (?:bound|restricted|limited)",
        "no (?:rules|restrictions|limits) apply",
        "jailbreak\\w*",
        "developer mode",
        "dan mode",
        "god mode",
    ),
    near(
        zh("忽略", "无视", "不理会", "不用管", "不必遵守", "不用遵守", "不需要遵守", "违反", "覆盖", "绕过"),
        zh(
            "(?:系统|安全|之前|以前|所有|全部|上面|原有|平台|公司)(?:的)?(?:规则|指令|提示词?|设定|限制|约束|策略|规定)"
        ),
        10,
    ),
    zh("不受(?:任何)?(?:规则|限制|约束)", "没有任何限制", "越狱", "开发者模式"),
)

# Switching off the record-keeping itself. "Never log passwords" is a tightening: see _PROTECTED_DATA.
_DISABLE_RECORDS = alt(
    en(
        "(?:disable|turn off|switch off|stop|pause|suppress|delete|erase|purge|wipe) (?:the |all |any |my )?"
        "(?:logging|logs|audit(?:ing| logs?| trail| records?)?|monitoring|alert(?:s|ing))",
        "(?:don't|do not|stop|never) (?:log|audit|monitor)(?:ging)?",
        "keep (?:it|this|that|them) out of the (?:audit )?logs?",
        "(?:squash|hide|scrub|rewrite|drop|remove|delete|purge|erase|wipe)\\w*(?: away| out)? (?:the |all |any )?"
        "audit[- ]?(?:related )?(?:commits?|entries|records?|events?|trail|logs?)",
    ),
    zh(
        "(?:关闭|关掉|停用|停止|暂停|禁用|删除|删掉|清除|清空)(?:(?!。).){0,4}(?:审计|日志|监控|告警)",
        # The records first: "审计日志你可以直接清空".
        "(?:审计|日志|监控|告警)(?:(?![。,，]).){0,8}?(?:关闭|关掉|停用|禁用|删除|删掉|清除|清空)",
        "(?:不要|别|不用|无需)(?:再)?(?:写|记)(?:入|到)?(?:审计|日志)",
        "不要记(?:录)?日志",
        "不要审计",
        "不留痕",
        "别留(?:痕|日志)",
    ),
)
# The negator is the point here, so it is part of the pattern ("不要拦截"), and a negator *before* it
# ("never stop blocking") would flip it back.
# Not doing a check at all: "don't do any safety checks", "以后不要做内容安全判断". The safeguard is the verb's
# object, right after it: "不要做太长的日志分析" asks for shorter analyses.
_STOP_DOING = alt(
    en(
        "(?:don't|do not|never|stop|no longer|no more) (?:do|doing|run|running|perform|performing|apply|applying|"
        "carry out|carrying out)(?: any| the| a| an| extra| additional| further)?",
    ),
    zh(
        "(?:不要|别|不用|不必|无需|不再|停止|一律不)(?:再)?(?:做|进行|执行|搞|开展)(?:任何|什么|额外的|多余的|这些|那些)?"
    ),
)
_NEGATED_ACT = alt(
    en("don't", "do not", "never", "stop", "no longer", "no need to", "without"),
    zh("不要", "(?<![特区分识类级告性辨差个离鉴组派])别(?![人的])", "不用", "不必", "无需", "不再", "停止", "一律不"),
)
_PROTECTED_DATA = compile_any(
    en("passwords?", "secrets?", "tokens?", "api keys?", "credentials?", "pii", "personal data", "card numbers?"),
    zh("密码", "密钥", "令牌", "个人信息", "隐私", "敏感", "卡号", "身份证"),
)


@dataclass(frozen=True)
class _Check:
    name: str
    pattern: re.Pattern[str]
    negation: Negation
    # Besides a negator, what before the match turns it into a tightening.
    flip: re.Pattern[str] | None = None
    # The match ends with the loosening verb after the safeguard ("审批直接跳过"): the verb may have an object of
    # its own right after it ("贴日志的时候忽略时间戳" ignores the timestamps, not the logs).
    verb_last: bool = False
    # Only with a standing cue in the sentence: "以后不要做内容安全判断" is a rule for the assistant, "不用做安全检查
    # 了，那台电脑已经卖了" is about a task that ended.
    needs_standing: bool = False


_CHECKS = (
    # "关闭自动审批" / "disable auto-approval" switch the loosening off.
    _Check("auto_approve", compile_any(_AUTO_PASS), Negation.BEFORE, flip=compile_any(_LOOSEN_NEAR, _LOOSEN_FAR)),
    _Check("privilege_escalation", compile_any(_ESCALATE), Negation.BEFORE),
    _Check("ignore_rules", compile_any(_IGNORE_RULES), Negation.BEFORE),
    _Check("disable_records", compile_any(_DISABLE_RECORDS), Negation.BEFORE),
    _Check("remove_safeguard", compile_any(near(_LOOSEN_FAR, _SAFEGUARD, 30)), Negation.BEFORE),
    _Check(
        "remove_safeguard",
        compile_any(near(_LOOSEN_NEAR, _SAFEGUARD, 8, within=_OBJECT_ENDS)),
        Negation.BEFORE,
    ),
    _Check("remove_safeguard", compile_any(near(_STOP_DOING, _SAFEGUARD, 1)), Negation.BEFORE, needs_standing=True),
    _Check("remove_safeguard", compile_any(near(_SAFEGUARD, _LOOSEN_AFTER_FAR, 25)), Negation.BEFORE),
    _Check("remove_safeguard", compile_any(near(_SAFEGUARD, _LOOSEN_AFTER_NEAR, 4)), Negation.BEFORE, verb_last=True),
    _Check("silence_safeguard", compile_any(near(_NEGATED_ACT, _SAFEGUARD_ACTS, 12)), Negation.BEFORE),
    _Check(
        "without_safeguard",
        compile_any(near(_WITHOUT, _SAFEGUARD, 12, within=SENTENCE_BREAK)),
        Negation.ANYWHERE,
    ),
)


# The checks whose match can be the object of study (lexicons/study.py).
_STUDIABLE = frozenset({"ignore_rules", "remove_safeguard", "disable_records"})


def find_policy_override(text: str) -> str | None:
    """The kind of loosening attempted in ``text`` ("auto_approve", …), or None when there is none."""
    prepared = prepare(text)
    for sentence in sentences(prepared):
        sentence_phrases = phrases(sentence)
        for check in _CHECKS:
            if check.needs_standing and not standing(sentence):
                continue
            if check.negation is Negation.ANYWHERE:
                if any(_without_loosens(sentence, m) for m in check.pattern.finditer(sentence)):
                    return check.name
                continue
            for phrase in sentence_phrases:
                for match in check.pattern.finditer(phrase):
                    if negated_before(phrase, match.start()) or defers_to_person(phrase[: match.start()]):
                        continue  # "never skip review"; "double-check with me before approving anything"
                    if check.flip is not None and check.flip.search(phrase[: match.start()]):
                        continue
                    if check.name == "auto_approve" and person_approves(phrase[: match.start()]):
                        continue  # "I want to approve every post before it goes out": the person decides
                    if check.name == "disable_records" and _PROTECTED_DATA.search(phrase):
                        continue
                    if check.name == "remove_safeguard" and (
                        _talks_or_own_artifact(phrase, match) or _SUBORDINATE_GAP.search(match.group(0))
                    ):
                        continue
                    if check.verb_last and _OWN_OBJECT.match(phrase, match.end()):
                        continue
                    if check.name in _STUDIABLE and studied(phrase, match.start()):
                        continue
                    return check.name
    return None


# The safeguard word only in a clause of time after the verb's own object: "ignore whitespace changes when
# you review my diffs" ignores the whitespace; the review is when.
_SUBORDINATE_GAP = re.compile(r"^\S+ \S.*? (?:when|while|whenever|as|once) (?:you|i|we)(?:'re| are)? \S+$")


# Skipping the *talk* about a safeguard ("skip explaining what an audit log is", "不用讲短信验证码"), or
# a safeguard in the person's own tutorials and test accounts, is not loosening one.
_TALK = compile_any(
    en("explain\\w*", "describ\\w*", "mention\\w*", "cover\\w*", "talk\\w*", "discuss\\w*", "remind\\w*"),
    zh("讲", "解释", "介绍", "说明", "提到", "描述", "提醒"),
)
_OWN_ARTIFACT = compile_any(
    en("tutorials?", "guides?", "test accounts?", "(?:code )?examples?", "snippets?", "sample code"),
    zh("教程", "示例", "样例", "测试账号"),
)


# A Chinese verb's own object starts right after it: a character that is not a particle, an adverb of degree or
# a pronoun taking the safeguard back up ("审批跳过了", "日志忽略掉就行", "审核都免了吧" have none).
# Nor does a quantity or a duration ("跳过所有环节", "关闭一周", "一段时间"): the safeguard is still what is loosened.
_OWN_OBJECT = re.compile(
    r"(?!所有|全部|一切|任何|每|一|整|几|半|两|三|些|个|段|阵|次|天|周|月|年)[\u4e00-\u9fff](?<![了掉吧啊呀的呢就即也都吗嘛罢它他她这那即便算])"
)


def _talks_or_own_artifact(phrase: str, match: re.Match[str]) -> bool:
    return bool(_TALK.search(match.group(0)) or _OWN_ARTIFACT.search(phrase))


def _without_loosens(sentence: str, match: re.Match[str]) -> bool:
    rest = sentence[: match.start()] + " " + sentence[match.end() :]
    return NEGATOR.search(rest) is None
