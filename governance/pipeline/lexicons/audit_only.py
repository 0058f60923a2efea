"""Rule 6: facts that belong in the audit log, never in memory (§7.4, §14.1).

Authorizations granted (consent to a privacy policy or terms among them), approvals of high-risk
tools or operations, payments/refunds executed, production operations performed, security alerts.
These are *records of something that happened*: the patterns want a completion marker (past tense,
已/了/完成), so rules about the same topics
("付款前一定要二次确认", "never deploy to production on Fridays") and pending task states
("退款 560 元待审核") do not match.
"""

from __future__ import annotations

from governance.pipeline.lexicons.text import SENTENCE_BREAK, alt, compile_any, en, near, prepare, sentences, zh


def _either_order(a: str, b: str, gap: int) -> str:
    return alt(near(a, b, gap, within=SENTENCE_BREAK), near(b, a, gap, within=SENTENCE_BREAK))


# --- payments and refunds executed ---------------------------------------------------------------
_PAY_EN = en(
    "payments?",
    "refunds?",
    "transfers?",
    "payouts?",
    "wire(?: transfer)?s?",
    "transactions?",
    "charges?",
    "reimbursements?",
    "disbursements?",
    "withdrawals?",
)
_DONE_EN = en(
    "(?:was|were|has been|have been|got|is now|are now) (?:executed|processed|completed|made|sent|issued|paid|"
    "settled|refunded|charged|transferred|wired|released|disbursed|done|approved|authori[sz]ed|reversed)",
    "executed",
    "settled",
    # "Refund of $45 issued to …"; "refunds are issued within 5 days" describes a process instead.
    "(?<!is )(?<!are )(?<!be )(?:issued|processed|completed|paid|charged|transferred|wired|disbursed|reversed)",
)
_REFUNDED_EN = en("(?<!be )(?<!to )(?:refunded|reimbursed|wired|disbursed|paid out)")
_PAID_EN = en("paid", "charged", "transferred", "sent", "deducted")
# Only amounts marked as money: "transferred 3 files" is not a payment.
_AMOUNT = r"(?:[$€£¥]\s?\d|\d[\d,.]*\s?(?:usd|eur|gbp|cny|rmb|jpy|dollars|euros|yuan|元|块|美元|欧元))"
_PAY_ZH = zh("付款", "支付", "退款", "转账", "打款", "汇款", "扣款", "报销", "退费")
_DONE_ZH = zh(
    "已执行", "已完成", "已到账", "执行(?:完毕|成功|了)", "完成了", "成功了", "到账了", "已成功", "已退回", "已发放"
)

_PAYMENT_EXECUTED = alt(
    near(_PAY_EN, _DONE_EN, 60, within=SENTENCE_BREAK),
    _REFUNDED_EN,
    near(_PAID_EN, _AMOUNT, 12),
    near(_PAY_ZH, _DONE_ZH, 15, within=SENTENCE_BREAK),
    zh("(?:已|已经)(?:(?:向|给|为|对)(?:(?!。).){0,12}?)?(?:付款|支付|退款|转账|打款|汇款|扣款|退费)"),
    zh("(?:付|退|转|打|汇|扣)了(?:(?!。).){0,10}" + _AMOUNT),
)

# --- authorizations and approvals ----------------------------------------------------------------
_OBJECT_EN = en(
    "tools?",
    "calls?",
    "invocations?",
    "commands?",
    "operations?",
    "actions?",
    "deploy\\w*",
    "releases?",
    "rollbacks?",
    "restarts?",
    "migrations?",
    "access",
    "permissions?",
    "scopes?",
    "requests?",
    "payments?",
    "refunds?",
    "transfers?",
    "oauth",
    "agent",
    "app",
    "integration",
    "scripts?",
    "jobs?",
    "prod(?:uction)?",
    "high-risk",
    "[a-z_]+\\.[a-z_]+",
)
# A record uses the verb ("the admin approved the call", "access was granted"); a rule uses the
# participle after "be" ("must be approved") or as an adjective ("only approved tools"): neither is a record.
_VERB_FOLLOWS = (
    r"(?= (?:the|a|an|this|that|these|those|his|her|their|my|our|its|it|them|him|me|us|by|for|to|on|in|at)"
    r"(?![a-z0-9_])|\s*[.,;:!]|\s*$)"
)
_GRANTED_EN = en(
    rf"(?<!be )(?<!to )(?:approved|authori[sz]ed|granted){_VERB_FOLLOWS}",
    "(?:was|were|has been|have been|got) (?:approved|authori[sz]ed|granted)",
    "signed off(?: on)?",
    "okayed",
    "consented(?: to)?",
    "gave (?:consent|permission|approval|authori[sz]ation)",
    "(?:approval|authori[sz]ation|consent|permission) (?:was |has been )?(?:granted|given|received|recorded)",
)
# "审批通过后再付款" and "已授权的用户" describe a rule, not an event: not followed by 后/的/才/再.
_GRANTED_ZH = (
    zh(
        "批准了",
        "已批准",
        "审批(?:已)?通过",
        "已审批",
        "授权了",
        "已授权",
        "授予了",
        "已授予",
        "签批了",
        "核准了",
        "放行了",
        "(?:同意|确认)(?:了)?授权",
    )
    + "(?![后的才再]|之后|以后)"
)
_APPROVAL_RECORDED = alt(
    _either_order(_GRANTED_EN, _OBJECT_EN, 50),
    _GRANTED_ZH,
    near(zh("同意了"), zh("调用", "执行", "操作", "工具", "付款", "退款", "发布", "部署", "访问", "权限"), 15),
)

# --- production operations performed -------------------------------------------------------------
_PROD_EN = en("prod", "production", "live (?:environment|site|servers?|cluster|database|db)", "prod\\.[a-z_]+")
_OPS_DONE_EN = r"(?<!is )(?<!are )(?<!be )(?<!get )" + en(
    "deployed",
    "released",
    "rolled back",
    "restarted",
    "rebooted",
    "migrated",
    "dropped",
    "deleted",
    "truncated",
    "shut down",
    "scaled",
    "patched",
    "hotfixed",
    "ran",
    "executed",
    "pushed",
    "applied",
    "failed over",
    "restored",
    "went live",
)
_PROD_ZH = zh("生产(?:环境)?", "线上", "正式环境", "prod")
_OPS_VERB_ZH = zh(
    "发布",
    "部署",
    "上线",
    "下线",
    "回滚",
    "重启",
    "执行",
    "删除",
    "变更",
    "扩容",
    "缩容",
    "迁移",
    "切换",
    "修改",
    "调整",
    "清空",
)
# "已在生产环境执行…", "已将副本数从 4 调整到 8", "回滚完成".
_OPS_DONE_ZH = alt(
    f"(?:已|已经)(?:(?!{SENTENCE_BREAK}).){{0,30}}?{_OPS_VERB_ZH}",
    f"{_OPS_VERB_ZH}(?:了|完成|完毕|成功)",
)
_PROD_OPERATION = alt(
    _either_order(_PROD_EN, _OPS_DONE_EN, 40),
    _either_order(_PROD_ZH, _OPS_DONE_ZH, 15),
    f"(?:已|已经)(?:在|于|对|把|将)?{_PROD_ZH}(?:(?!{SENTENCE_BREAK}).){{0,15}}?{_OPS_VERB_ZH}",
)

# --- security alerts -----------------------------------------------------------------------------
_SEC_EN = en(
    "security (?:alerts?|incidents?|events?)",
    "intrusions?",
    "breach(?:es)?",
    "phishing",
    "malware",
    "ransomware",
    "suspicious (?:logins?|activity|access|sign-?ins?)",
    "unauthori[sz]ed (?:access|logins?|sign-?ins?)(?: attempts?)?",
    "brute[- ]force",
    "ddos",
    "data leak\\w*",
    "(?:sql )?injection attempts?",
    "xss(?: attempts?)?",
    "exploit attempts?",
    "(?:cyber)?attacks?",
    "waf",
    "failed login attempts?",
)
_EVENT_EN = en(
    "detected",
    "triggered",
    "fired",
    "raised",
    "reported",
    "occurred",
    "flagged",
    "blocked",
    "spotted",
    "observed",
    "received",
    "went off",
    "happened",
)
_SEC_ZH = (
    zh(
        "安全告警",
        "安全警报",
        "安全事件",
        "入侵",
        "异常登录",
        "可疑登录",
        "异地登录",
        "暴力破解",
        "数据泄露",
        "攻击",
        "钓鱼",
        "木马",
    )
    + "(?!后|之后|时)"
)
_EVENT_ZH = zh("触发", "检测到", "发现了?", "发生", "出现", "收到", "拦截", "告警了", "报警", "上报")
# A heading "安全告警：…" / "Security alert: …" introduces the record itself.
_ALERT_HEADING = (
    alt(en("security (?:alert|incident|event)s?"), zh("安全告警", "安全警报", "安全事件", "入侵告警", "风控告警"))
    + r"\s*[:：]"
)
_SECURITY_ALERT = alt(
    _either_order(_SEC_EN, _EVENT_EN, 40),
    _either_order(_SEC_ZH, _EVENT_ZH, 12),
    _ALERT_HEADING,
    zh("登录失败\\s*\\d+\\s*次"),
)

# --- consent given (§7.4: "用户同意了隐私协议 v3" is an authorization record) -----------------------
_AGREEMENT_EN = en(
    "privacy (?:policy|notice|terms)",
    "terms(?: of (?:service|use))?",
    "(?:user |license |licence |data processing |service )?agreement",
    "consent form",
    "cookie (?:policy|consent)",
    "eula",
    "tos",
    "dpa",
    "data processing",
    "(?:marketing|data|email) (?:consent|opt-in)",
)
_CONSENTED_EN = en(
    "agreed to",
    "accepted",
    "consented to",
    "signed",
    "opted (?:in|into|in to)",
    "gave (?:their |his |her |my )?consent (?:to|for)",
    "ticked",
    "(?:has|have) (?:agreed|consented)",
)
_AGREEMENT_ZH = zh("(?:隐私|服务|用户|授权|许可|数据处理)?(?:协议|条款|政策|授权书)", "知情同意书?", "隐私声明")
_CONSENTED_ZH = zh("(?<!不)(?<!未)(?:已)?(?:同意|签署|接受|勾选|签)(?:了|过)")
_CONSENT_GIVEN = alt(
    near(_CONSENTED_EN, _AGREEMENT_EN, 30, within=SENTENCE_BREAK),
    near(_CONSENTED_ZH, _AGREEMENT_ZH, 12, within=SENTENCE_BREAK),
    near(zh("(?<!不)(?<!未)已(?:同意|签署|接受|勾选)"), _AGREEMENT_ZH, 12, within=SENTENCE_BREAK),
    en("consent (?:was |has been )?(?:given|granted|recorded|obtained)"),
)

# "If a payment is executed, notify me" is a rule about such facts, not a record of one.
_CONDITIONAL = compile_any(
    en("if", "whenever", "in case", "unless"), zh("如果", "若是?", "一旦", "每当", "的话", "假如", "万一")
)

_CHECKS = (
    ("payment_executed", compile_any(_PAYMENT_EXECUTED)),
    ("approval_recorded", compile_any(_APPROVAL_RECORDED)),
    ("production_operation", compile_any(_PROD_OPERATION)),
    ("security_alert", compile_any(_SECURITY_ALERT)),
    ("consent_given", compile_any(_CONSENT_GIVEN)),
)


def find_audit_only_fact(text: str) -> str | None:
    """The kind of audit-only fact ``text`` records ("payment_executed", …), or None."""
    prepared = prepare(text)
    for sentence in sentences(prepared):
        if _CONDITIONAL.search(sentence):
            continue
        for name, pattern in _CHECKS:
            if pattern.search(sentence):
                return name
    return None
