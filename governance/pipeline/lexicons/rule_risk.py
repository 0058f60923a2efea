"""Which topics make a proposed shared rule high risk: security, permissions, approvals, money.

A rule on these topics changes who may do what, or what protects the tenant, so it needs a second
admin's approval (four eyes are not enough: six). The check is by topic, not by direction: a rule
that tightens an approval flow is as consequential as one that loosens it (loosening is rejected
earlier by the pipeline's rule 4 anyway). Deterministic zh+en terms, matched on
:func:`text.prepare`d content; the result is a set of topic codes, never the matched words.
"""

from __future__ import annotations

import re
from enum import StrEnum

from governance.pipeline.lexicons.text import compile_any, en, prepare, zh


class RiskTopic(StrEnum):
    SECURITY = "security"
    PERMISSION = "permission"
    APPROVAL = "approval"
    MONEY = "money"


_TOPICS: dict[RiskTopic, re.Pattern[str]] = {
    RiskTopic.SECURITY: compile_any(
        en(
            "security",
            "secure",
            "insecure",
            "passwords?",
            "passphrases?",
            "credentials?",
            "secrets?",
            "(?:api |access |auth )?tokens?",
            "api keys?",
            "private keys?",
            "ssh keys?",
            "encrypt\\w*",
            "decrypt\\w*",
            "vulnerabilit\\w*",
            "cves?",
            "firewalls?",
            "2fa",
            "mfa",
            "two-factor",
            "otp",
            "malware",
            "phishing",
            "incidents?",
            "pii",
            "personal data",
            "sensitive data",
            "data protection",
        ),
        zh(
            "安全",
            "密码",
            "口令",
            "密钥",
            "秘钥",
            "凭证",
            "凭据",
            "令牌",
            "加密",
            "解密",
            "漏洞",
            "防火墙",
            "双因素",
            "验证码",
            "恶意",
            "钓鱼",
            "入侵",
            "攻击",
            "个人信息",
            "敏感数据",
            "隐私",
        ),
    ),
    RiskTopic.PERMISSION: compile_any(
        en(
            "permissions?",
            "privileges?",
            "privileged",
            "access (?:rights?|levels?|control)",
            "access to",
            "grant(?:s|ed|ing)?",
            "revok\\w*",
            "roles?",
            "admins?",
            "administrators?",
            "root",
            "sudo",
            "superusers?",
            "authori[sz]\\w*",
            "authenticat\\w*",
            "owners?hip",
            "read-only",
            "write access",
        ),
        zh(
            "权限",
            "授权",
            "特权",
            "访问",
            "角色",
            "管理员",
            "超级用户",
            "提权",
            "赋权",
            "开通账号",
            "账号",
            "账户",
            "只读",
            "读写",
        ),
    ),
    RiskTopic.APPROVAL: compile_any(
        en(
            "approv\\w*",
            "sign-?offs?",
            "sign off",
            "(?:code |security |peer )?reviews?",
            "reviewers?",
            "four[- ]eyes",
            "two[- ]person",
            "waivers?",
            "escalat\\w*",
        ),
        zh("审批", "批准", "审核", "复核", "核准", "签批", "签字", "会签", "评审", "审查", "例外", "豁免", "上报"),
    ),
    RiskTopic.MONEY: compile_any(
        en(
            "money",
            "pay(?:s|ing|ment|ments|out|outs)?",
            "paid",
            "refunds?",
            "invoices?",
            "billing",
            "budgets?",
            "costs?",
            "prices?",
            "pricing",
            "discounts?",
            "expenses?",
            "reimburs\\w*",
            "purchas\\w*",
            "procurement",
            "spend(?:ing)?",
            "transfers?",
            "wire",
            "salar(?:y|ies)",
            "payroll",
            "financ\\w*",
            "credit cards?",
            "bank",
            "usd",
            "eur",
            "rmb",
            "cny",
            "dollars?",
            "euros?",
        ),
        zh(
            "钱",
            "金额",
            "付款",
            "支付",
            "打款",
            "退款",
            "转账",
            "汇款",
            "报销",
            "发票",
            "预算",
            "费用",
            "成本",
            "价格",
            "定价",
            "折扣",
            "采购",
            "工资",
            "薪资",
            "财务",
            "账单",
            "银行",
            "美元",
            "人民币",
        ),
        r"[$€£¥]\s?\d",
        r"\d\s?(?:元|块钱|万元)",
    ),
}


def rule_risk_topics(text: str) -> tuple[RiskTopic, ...]:
    """The risk topics the rule's text touches, in a fixed order (empty: not high risk)."""
    prepared = prepare(text)
    return tuple(topic for topic, pattern in _TOPICS.items() if pattern.search(prepared))


def rule_is_high_risk(text: str) -> bool:
    return bool(rule_risk_topics(text))
