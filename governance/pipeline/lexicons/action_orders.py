"""Orders about what the assistant runs and installs (OWASP LLM03 supply chain, LLM05 improper output
handling, LLM06 excessive agency); see :mod:`lexicons.standing_orders`."""

from __future__ import annotations

from governance.pipeline.lexicons.orders import OrderClass, has_stem, negated, stems
from governance.pipeline.lexicons.text import compile_any, en, zh

# --- unverified sources trusted (LLM03) -------------------------------------------------------------------

_SOURCE = compile_any(
    en(
        "plug-?ins?",
        "packages?",
        "dependenc(?:y|ies)",
        "librar(?:y|ies)",
        "modules?",
        "extensions?",
        "add-?ons?",
        "scripts?",
        "tools?",
        "mcp(?: servers?)?",
        "servers?",
        "skills?",
        "binar(?:y|ies)",
        "executables?",
        "installers?",
        "sources?",
        "repo(?:s|sitor(?:y|ies))?",
        "models?",
        "weights",
        "checkpoints?",
        "install(?:ation)? (?:instructions|steps|commands)",
        "images?",
        "containers?",
        "code",
        "snippets?",
        # What a page or a link says, trusted as a source: "trust every web page I send you".
        "(?:web ?)?pages?",
        "websites?",
        "links?",
        "urls?",
    ),
    zh(
        "网页",
        "网站",
        "链接",
        "插件",
        "(?<![钱书红背])包",
        "依赖",
        "(?<![仓数文题])库",
        "模块",
        "扩展",
        "脚本",
        "工具",
        "mcp",
        "服务器",
        "技能",
        "程序",
        "来源",
        "仓库",
        "镜像",
        "代码",
        "第三方",
        "(?:软件|镜像|下载|第三方|安装)源",
    ),
)
_INSTALL = compile_any(
    en(
        "install\\w*",
        "run\\w*",
        "ran",
        "execut\\w*",
        "load\\w*",
        "enabl\\w*",
        "add(?:s|ed|ing)?",
        "trust\\w*",
        "connect\\w*",
        "download\\w*",
        "import\\w*",
        "use",
        "using",
        "accept\\w*",
        "whitelist\\w*",
        "allowlist\\w*",
        "pip(?:e|es|ed|ing)",
        "curl\\w*",
        "follow\\w*",
        "treat\\w*",
    ),
    zh(
        "安装",
        "装",
        "运行",
        "执行",
        "加载",
        "启用",
        "添加",
        "信任",
        "相信",
        "接入",
        "连接",
        "下载",
        "导入",
        "引入",
        "使用",
        "(?<![不无没费作效信])用",
    ),
)
_UNCHECKED = compile_any(
    en(
        "without (?:any |first )?(?:check\\w*|review\\w*|verif\\w*|vett\\w*|scan\\w*|audit\\w*|inspect\\w*|"
        "looking|reading|asking|approval|confirm\\w*|sandbox\\w*)",
        "(?:no need to|don't|do not|never|needn't) (?:check|review|verify|vet|scan|audit|inspect|question)\\w*",
        "unverified",
        "untrusted",
        "unsigned",
        "unvetted",
        "unreviewed",
        "unknown",
        "unofficial",
        "(?:from )?any (?:source|site|url|registry|where)",
        "wherever (?:it|they) (?:comes?|came) from",
        "blindly",
        "(?:any|every|all|whatever) (?:\\w+ ){0,2}(?:as )?(?:safe|trusted|verified)",
        "(?:whatever|whichever|any|every|all)(?: [\\w-]+){0,3} (?:that |which )?(?:an? |the |any |some )?"
        "(?:[\\w-]+ ){0,2}"
        "(?:user|users|anyone|someone|people|they|it|page|site|website|document|doc|tool|message|email|readme|issue|"
        "comment|post|forum|stranger|result|chat) "
        "(?:names?|mentions?|suggests?|sends?|links?|recommends?|asks? for|requests?|points? to|gives?|lists?|says?)",
        "(?:from|on|off) the (?:internet|web|open web)",
        "trust\\w* (?:any|every|all|whatever)",
        "(?:whenever|when|if|once) (?:a|an|the|any|some) (?:[\\w-]+ )?(?:page|site|website|document|doc|readme|issue|"
        "email|message|tool|result|post|comment|stranger|someone|anyone|ad|forum) (?:recommends?|suggests?|mentions?|"
        "names?|links?|says?|asks?|tells?)",
    ),
    zh(
        "(?:不用|不必|无需|无须|不需要|没必要)(?:再)?(?:审核|检查|验证|审查|核实|确认|扫描|看|评审)",
        "不经(?:过)?(?:审核|检查|验证|审查|核实|确认)",
        "未经(?:审核|检查|验证|审查|核实|确认)",
        "直接(?:装|安装|运行|执行|加载|启用|信任)",
        "随便(?:装|安装|运行|用)",
        "来路不明",
        "(?:未知|不明|任何)来源",
        "任何 ?(?:插件|包|脚本|工具|服务器|mcp|依赖|扩展|第三方)",
        "(?:信任|相信)(?:[^，。,.]{0,6})?(?:所有|任何|一切|全部)",
        "(?:用户|别人|任何人|网页|文档|对方)(?:说|提到|推荐|发来|给|指定)的(?:任何)?(?:插件|包|脚本|工具|链接|依赖|库|服务器|mcp)",
        "(?:一律|全部|都)(?:信任|可信|装|安装|允许)",
    ),
)


def _trusts_unverified(clause: str) -> bool:
    act = _INSTALL.search(clause)
    if act is None or _SOURCE.search(clause) is None:
        return False
    unchecked = _UNCHECKED.search(clause)
    return unchecked is not None and not negated(clause, min(act.start(), unchecked.start()))


# --- acting without confirmation (LLM05, LLM06) -----------------------------------------------------------

_ACT = compile_any(
    en(
        "run\\w*",
        "execut\\w*",
        "perform\\w*",
        "carr(?:y|ies|ied) out",
        "apply\\w*",
        "deploy\\w*",
        "delet\\w*",
        "send\\w*",
        "pay\\w*",
        "purchas\\w*",
        "buy\\w*",
        "transfer\\w*",
        "merg\\w*",
        "push\\w*",
        "submit\\w*",
        "act(?:s|ed|ing)?",
        "proceed\\w*",
        "take (?:any |all )?actions?",
        "do (?:it|them|anything|everything|whatever)",
        "make (?:changes|purchases|payments)",
        "issu\\w*",
        "refund\\w*",
        "e-?mail\\w*",
        "forward\\w*",
        "ship\\w*",
        "publish\\w*",
        "releas\\w*",
    ),
    zh(
        "执行",
        "运行",
        "操作",
        "部署",
        "删除",
        "发送",
        "付款",
        "支付",
        "转账",
        "购买",
        "下单",
        "合并",
        "提交",
        "推送",
        "调用",
        "退款",
        "发布",
        "上线",
    ),
)
_NO_CONFIRMATION = compile_any(
    en(
        "without (?:first )?(?:asking|checking with|confirm\\w*|my (?:ok|okay|approval|permission|sign-?off|go-?ahead|"
        "consent)|(?:human |manual |any )?(?:review|approval|permission|oversight|sign-?off|consent)|a human|waiting)",
        "(?:don't|do not|never|no need to|needn't|(?:never|don't|do not|won't|will not) (?:need|have) to) "
        "(?:ask|check with|wait for|confirm|"
        "get confirmation|request "
        "(?:approval|permission))\\w*",
        "no (?:need for )?(?:confirmation|approval|permission|human review|sign-?off)",
        "skip(?:ping)? (?:the )?confirm\\w*",
        "(?:don't|do not|never|no need to|without) (?:show|showing|run\\w*|pass\\w*) (?:it |them |this |that )?"
        "(?:to |by |past )?me",
    ),
    zh(
        "(?:不用|无需|无须|不必|不需要|没必要)(?:再)?(?:确认|问我|询问|请示|问|等我|经过我|我同意|审批|批准|同意)",
        "不经(?:过)?(?:确认|同意|允许|审批|批准|我)",
        "未经(?:确认|同意|允许|审批|批准)",
        "跳过确认",
        "(?:别|不要)(?:问我|确认|等我)",
        "(?:不用|不必|无需|别|不要)(?:先)?(?:给我|让我|发我)(?:看|过目|审|确认)",
    ),
)
_AUTOMATIC = compile_any(en("automatically", "auto-?(?:run|execute|apply|approve)"), zh("自动", "直接"))
# What makes acting unasked matter: anything at all, code and commands, money, deletion, sending.
_CONSEQUENTIAL = compile_any(
    en(
        "any",
        "all",
        "every",
        "whatever",
        "anything",
        "everything",
        "commands?",
        "code",
        "scripts?",
        "sql",
        "shell",
        "queries",
        "tool calls?",
        "actions?",
        "execut\\w*",
        "deploy\\w*",
        "delet\\w*",
        "pay\\w*",
        "messages?",
        "replies",
        "buy\\w*",
        "checkout",
        "purchas\\w*",
        "transfer\\w*",
        "emails?",
        "production",
        "prod",
        "migrations?",
        "databases?",
        "refunds?",
        "invoices?",
        "money",
        "funds",
        # Sent outside: to clients, customers, vendors, the public.
        "clients?",
        "customers?",
        "vendors?",
        "suppliers?",
        "externally",
        "public(?:ly)?",
    ),
    zh(
        "任何",
        "所有",
        "一切",
        "全部",
        "命令",
        "指令",
        "代码",
        "脚本",
        "邮件",
        "消息",
        "发送",
        "执行",
        "生产",
        "数据库",
        "部署",
        "删除",
        "付款",
        "支付",
        "转账",
        "购买",
        "下单",
        "操作",
        "客户",
        "供应商",
    ),
)

# Acting automatically matters when it covers anything at all, or execution.
_BROAD = compile_any(
    en("any", "all", "every", "whatever", "anything", "everything"), zh("任何", "所有", "一切", "全部", "执行")
)


# Spending money on a trigger ("buy it whenever the price drops") acts before anyone can confirm.
_TRIGGER = compile_any(en("whenever", "as soon as", "the moment"))
_PURCHASE = compile_any(
    en(
        "(?<!i )(?<!we )(?:click\\w* )?(?:buy|purchase|checkout|check out|order)\\w*",
        "(?<!i )(?<!we )place\\w* (?:an? )?orders?",
        "(?<!i )(?<!we )transfer\\w* (?:the )?(?:money|funds)",
    ),
)


def _acts_unconfirmed(clause: str) -> bool:
    act = _ACT.search(clause)
    if act is None or _CONSEQUENTIAL.search(clause) is None:
        return False
    unasked = _NO_CONFIRMATION.search(clause)
    if unasked is None and _TRIGGER.search(clause):
        unasked = _PURCHASE.search(clause)
    if unasked is None:
        automatic = _AUTOMATIC.search(clause)
        unasked = automatic if automatic and _BROAD.search(clause) else None
    return unasked is not None and not negated(clause, min(act.start(), unasked.start()))


# The words each class cannot do without (lexicons/orders.py).
_UNCHECKED_STEMS = stems(
    "whichever",
    "信任",
    "internet",
    "web",
    "when",
    "if ",
    "once",
    "without",
    "no need",
    "don't",
    "do not",
    "never",
    "needn't",
    "unverified",
    "untrusted",
    "unsigned",
    "unvetted",
    "unreviewed",
    "unknown",
    "unofficial",
    "any",
    "wherever",
    "blindly",
    "every",
    "all ",
    "whatever",
    "trust",
    "不用",
    "不必",
    "无需",
    "无须",
    "不需要",
    "没必要",
    "不经",
    "未经",
    "直接",
    "随便",
    "来路不明",
    "来源",
    "任何",
    "用户",
    "别人",
    "网页",
    "文档",
    "对方",
    "一律",
    "全部",
    "都",
)
_UNASKED_STEMS = stems(
    "to ask",
    "to check with",
    "to confirm",
    "to wait",
    "to get confirm",
    "to request",
    "show",
    "by me",
    "pass it",
    "pass them",
    "past me",
    "whenever",
    "as soon as",
    "the moment",
    "给我",
    "让我",
    "发我",
    "without",
    "'t ask",
    "not ask",
    "never ask",
    "'t check with",
    "not check with",
    "never check with",
    "'t wait",
    "not wait",
    "never wait",
    "'t confirm",
    "not confirm",
    "never confirm",
    "'t get confirm",
    "not get confirm",
    "never get confirm",
    "'t request",
    "not request",
    "never request",
    "no need",
    "needn't",
    "no confirm",
    "no approval",
    "no permission",
    "no human",
    "no sign",
    "skip",
    "auto",
    "不用",
    "无需",
    "无须",
    "不必",
    "不需要",
    "没必要",
    "不经",
    "未经",
    "跳过确认",
    "别问我",
    "不要问我",
    "别确认",
    "不要确认",
    "别等我",
    "不要等我",
    "自动",
    "直接",
)


ACTION_ORDERS = (
    OrderClass(
        "unverified_sources",
        lambda text: has_stem(text, _UNCHECKED_STEMS) and _SOURCE.may_match(text),
        _trusts_unverified,
    ),
    OrderClass("unconfirmed_actions", lambda text: has_stem(text, _UNASKED_STEMS), _acts_unconfirmed),
)

__all__ = ["ACTION_ORDERS"]
