"""Word fields for reading instructions aimed at the assistant, in Chinese and English.

A field is a set of words that name one thing — the *controls* an instruction may touch (rules,
approvals, audit, permissions, verification, the assistant's own prompt and setup), the people it may
reach (other people, their data), and the *operations* on a control (taking it away, declaring it
off, treating something as already cleared, granting a privilege, revealing, following). They are
words and short terms, not sentences: :mod:`lexicons.directive` finds who is told to do something,
:mod:`lexicons.intent` combines a field of operations with a field of controls inside one clause and
reads the polarity (a negated removal is a tightening).

Each field is a regex fragment (``en`` terms carry ASCII word boundaries, ``zh`` none); everything is
matched against :func:`lexicons.text.prepare`d (case-folded) text.
"""

from __future__ import annotations

from governance.pipeline.lexicons.text import alt, en, zh

# --- who --------------------------------------------------------------------------------------------------

SECOND_PERSON = alt(en("you", "your", "yours", "yourself", "you're", "you'll", "you've", "u"), zh("你", "您"))
ASSISTANT = alt(
    en(
        "assistants?",
        "ai",
        "a\\.i\\.",
        "agents?",
        "(?:language |screening |ai )?models?",
        "llms?",
        "chatbots?",
        "bots?",
        "gpt",
        "copilot",
    ),
    zh("助手", "智能体", "大模型", "语言模型", "模型", "机器人", "人工智能"),
)
# People other than the speaker, and the speaker's own side (which is not "other").
OTHERS = alt(
    en(
        "other (?:[\\w-]+ )?(?:users?|people|members?|customers?|employees?|tenants?|accounts?|teams?|sessions?)'?s?",
        "others'?",
        "every(?:one|body)(?: else)?(?:'s)?",
        "any(?:one|body)(?: else)?(?:'s)?",
        "any (?:user|employee|member|account|customer|client|tenant)'?s?",
        "(?:all|every) (?:the )?(?:users?|members?|employees?|staff|accounts?|customers?|clients?|tenants?)'?",
        "(?:my |our |their |his |her )?(?:teammates?|colleagues?|coworkers?|co-workers?|subordinates?)'?s?",
        # a named person's: "Tomasz's", "design's" (not "today's", "the user's", "it's")
        "(?!(?:it|that|what|there|here|let|one|who|he|she|today|tomorrow|yesterday|user|team|project|company|app|"
        "customer|client|system|everyone|world|year|week|month|day|night|morning|this|where|how|name|model|bot|"
        "assistant|ai|platform|operator|developer|tool|page|site|file|document|repo|code)'s)[a-z]+'s",
        "(?:my )?(?:manager|boss|supervisor|team lead|direct reports?|reports)'?s?",
        "(?:the )?(?:whole|entire) (?:[\\w-]+ )?(?:team|org\\w*|company|department|tenant)",
        "the (?:[\\w-]+ )?(?:team|department|group)(?:'s)?",
        "(?:the )?new hire'?s?",
        "(?:the )?(?:previous|former|last) (?:[\\w-]+ )?(?:owner|manager|admin|person|user)'?s?",
    ),
    zh(
        "别人",
        "他人",
        "(?:其他|其它|别的|所有|全部|每个|每位|任何)(?:[\\u4e00-\\u9fff]{0,4})?(?:用户|人|成员|同事|员工|客户|租户|账号|会话|组)",
        "(?:他的|她的|我的)?(?:上司|领导|经理|老板|主管|下属)",
        "其它人",
        "所有人",
        "每个人",
        "任何人",
        "大家",
        "同事们?",
        "下属",
        "(?:上一任|(?<!当)(?<!目)前任(?![务何]))(?:[\\u4e00-\\u9fff]{0,6}?(?:负责人|主人|用户|管理员|同事|员工))?",
        "(?:原来的|之前的|离职的)(?:[\\u4e00-\\u9fff]{0,6}?)(?:负责人|主人|用户|管理员|同事|员工|账号主人)",
        "新人",
        "新来的",
        "(?:组|部门|团队|公司)(?:里|内)?(?:的)?(?:所有人|每个人|全员|成员|同事)",
        "[\\u4e00-\\u9fff]{1,3}(?:组|部|团队)(?=(?:的|这周|最近|里|所有|每个|跟|和|问|说|聊))",
        "(?:王|李|张|刘|陈|杨|赵|黄|周|吴|徐|孙|胡|朱|高|林|何|郭|马|罗|小)[\\u4e00-\\u9fff]{1,2}(?=的|问|说|跟|和|把)",
        "(?:客服|销售|财务|人事|运维|市场)的[\\u4e00-\\u9fff]{2,3}",
    ),
)
# What people keep and write: the head of PEOPLES_DATA, and of a third person's records (intent_targets.py).
KEPT_RECORDS = ("memor(?:y|ies)", "notes?", "chats?", "chat (?:history|logs?)", "conversations?", "messages?")
# What belongs to people: what they keep, say and are.
PEOPLES_DATA = alt(
    en(
        *KEPT_RECORDS,
        "history",
        "transcripts?",
        "preferences",
        "profiles?",
        "data",
        "records?",
        "files?",
        "e-?mails?",
        "inbox",
        "calendars?",
        "salar(?:y|ies)",
        "payroll",
        "(?:performance )?reviews?",
        "configurations?",
        "questions?",
        "answers?",
        "what (?:they|he|she|it|\\w+) (?:told|tells|asked|asks|said|says|discussed|mentioned|shared)",
        "(?:what )?you (?:remember|know|keep|store|have saved|saved)",
        "(?:stored|saved|shared|kept|left) with you",
        "what (?:[\\w'-]+ ){0,3}(?:have |has )?(?:saved|stored|kept|wrote|written)",
        "(?:told|tells|asked|asks|said to|discussed with|shared with) you",
    ),
    zh(
        "记忆",
        "笔记",
        "聊天(?:记录|内容)?",
        "对话",
        "消息",
        "历史",
        "记录",
        "偏好",
        "资料",
        "数据",
        "文件",
        "邮件",
        "薪资",
        "工资",
        "绩效",
        "配置",
        "问题",
        "答案",
        "回答",
        "上下文",
        "(?:问|说|聊|讲)(?:了)?(?:你)?(?:些)?(?:什么|啥)",
        "哪些事",
        "跟你(?:聊|说|讲)",
    ),
)

# --- controls: what a memory must never loosen -----------------------------------------------------------

RULES = alt(
    en(
        "rules?",
        "polic(?:y|ies)",
        "guidelines?",
        "restrictions?",
        "limitations?",
        "constraints?",
        "guardrails?",
        "oversight",
        "boundar(?:y|ies)",
        "(?:content |safety )?filter(?:s|ing)?",
        "safety(?: training| checks?| rules| settings| judg\\w*| layer)?",
        "content (?:rules|policy|moderation|checks?)",
        "moderation",
        "terms of (?:use|service)",
        "refus(?:al|als|e|ing)",
        "censor\\w*",
        "limits",
        "principles",
        "ethics",
        "obey\\w*",
        "compl(?:y|ying) with",
        "abide by",
    ),
    zh(
        "规则",
        "规定",
        "规矩",
        "政策",
        "准则",
        "限制",
        "约束",
        "护栏",
        "禁区",
        "过滤",
        "审查",
        "安全(?:检查|判断|审查|训练|策略|规则|限制|设置)",
        "内容(?:规则|限制|审查|安全)",
        "条款",
        "底线",
        "条条框框",
        "遵守",
        "遵循",
        "(?<![保看把坚])守(?![时护住卫候])",
        "拒绝",
        "拒答",
        "原则",
    ),
)
APPROVALS = alt(
    en(
        "approv(?:al|als|e|ed|es|ing)",
        "pre-?approv\\w*",
        "sign-?offs?",
        "sign(?:s|ed)? off",
        "authori[sz]\\w*",
        "pre-?authori[sz]\\w*",
        "(?:human |manual |code |peer |second )?reviews?",
        "reviewers?",
        "escalat\\w*",
        "second (?:person|approver|pair of eyes)",
        "four-?eyes",
        "paperwork",
        "formalit(?:y|ies)",
        "confirm(?:ation|ations|ing)?",
    ),
    zh(
        "审批",
        "批准",
        "签批",
        "审核",
        "复核",
        "授权",
        "核准",
        "放行",
        "流程",
        "手续",
        "报批",
        "会签",
        "第二个人",
        "确认",
        "签字",
    ),
)
AUDIT = alt(
    en(
        "audit\\w*",
        # Not signing in: "accounts that haven't logged in", "logging out".
        "logs?",
        "logging(?! (?:in|on|out|into)(?![a-z]))",
        "logged(?! (?:in|on|out|into)(?![a-z]))",
        "unlogged",
        "trails?",
        "traces?",
        "records?",
        "recording",
        "history",
        "monitor\\w*",
        "alerts?",
        "alerting",
        "tracking",
        "tracked",
        "retention",
        "telemetry",
        "entries",
    ),
    zh(
        "审计",
        "日志",
        "记录",
        "留痕",
        "痕迹",
        "监控",
        "告警",
        "追踪",
        "跟踪",
        "埋点",
        "上报",
        "备案",
        "(?:变更|操作|访问)历史",
        "历史记录",
    ),
)
PERMISSIONS = alt(
    en(
        "permissions?",
        "access",
        "privileges?",
        "rights",
        "roles?",
        "admin\\w*",
        "root(?! causes?)",
        "superusers?",
        "sudo",
        "owners?",
        "ownership",
        "read-?write",
        "allow-?lists?",
        "white-?lists?",
        "(?:[\\w-]+ )?group",
        "tiers?",
        "clearance",
        "quotas?",
        "(?:spending )?(?:caps?|limits?)",
        "allowed tools",
    ),
    zh(
        "权限",
        "管理员",
        "超管",
        "所有者",
        "角色",
        "白名单",
        "允许列表",
        "读写",
        "上限",
        "额度",
        "等级",
        "(?<![小分])组(?![织成合装建队员件图会])",  # a group, not 组织 (organise), 组合, 组成 …
    ),
)
VERIFICATION = alt(
    en(
        "verif\\w*",
        "identity",
        "identit(?:y|ies) checks?",
        "2fa",
        "mfa",
        "otp",
        "one-time (?:codes?|passwords?)",
        "security (?:questions?|codes?)",
        "kyc",
        "trusted(?: devices?)?",
        "captcha",
        "rate[- ]limits?",
        "(?:login|anomaly|fraud) (?:alerts?|warnings?)",
    ),
    zh("验证", "核验", "核实", "实名", "认证", "身份", "验证码", "安全问题", "可信", "信任", "限流", "异常提醒"),
)
# The assistant's own setup: its prompt, instructions, configuration, tools and credentials.
PROMPT = alt(
    en(
        "system (?:prompt|message|instructions?|text)",
        "prompts?",
        "instructions?",
        "preamble",
        "(?:initial|original|hidden|secret|internal|developer'?s?|setup|guardrail|meta) "
        "(?:text|instructions?|prompts?|messages?|setup|configuration|rules|preamble)",
        "configuration",
        "config",
        "setup",
        "settings",
        "context(?: window)?",
        "environment variables?",
        "env(?:ironment)? vars?",
        "tools?",
        "connectors?",
        "plugins?",
    ),
    zh(
        "系统(?:消息|提示|指令|设定)",
        "提示词",
        "指令",
        "设定",
        "配置",
        "初始(?:指令|设定|提示)",
        "隐藏(?:的)?(?:指令|内容|部分|设定)",
        "上下文",
        "环境变量",
        "工具",
        "插件",
        "连接器",
    ),
)
# Credentials kept in the assistant's own setup (AML.T0083): "the API keys in your environment".
_CREDENTIAL = alt(
    en("(?:api )?keys?", "tokens?", "secrets?", "passwords?", "credentials?"), zh("密钥", "令牌", "密码", "凭据")
)
_KEPT_IN = alt(
    en("environment", "env vars?", "config\\w*", "connectors?", "plugins?", "tools?"),
    zh("环境变量", "配置", "连接器", "插件", "工具"),
)
SETUP_CREDENTIALS = alt(
    rf"{_CREDENTIAL}(?:[^。.!?\n]){{0,40}}?{_KEPT_IN}",
    rf"{_KEPT_IN}(?:[^。.!?\n]){{0,40}}?{_CREDENTIAL}",
)

# What a loosening can be about, for checks that let text through only when it names none of these: the controls,
# the assistant's prompt, other people (lexicons/provenance.py, lexicons/answer_shape.py add their own words).
LOOSENING_TOPICS = (APPROVALS, AUDIT, RULES, VERIFICATION, PROMPT, OTHERS)

# A control, the assistant's setup, a secret, a privilege, a caveat: what an order could loosen.
CONTROLS = (
    *(topic for topic in LOOSENING_TOPICS if topic is not OTHERS),
    PERMISSIONS,
    SETUP_CREDENTIALS,
    en(
        "passwords?",
        "tokens?",
        "secrets?",
        "(?:api )?keys?",
        "credentials?",
        "warnings?",
        "caveats?",
        "disclaimers?",
        "safety",
        "refus\\w*",
        "root",
        "sudo",
        "admin\\w*",
        "system",
        "instructions?",
    ),
    zh("密码", "令牌", "密钥", "凭据", "警告", "免责", "安全", "拒绝", "系统", "指令", "权限"),
)
# What is kept, and where an answer could carry it: "put the stored notes into an image link to …"
KEPT = (
    en(
        "data",
        "memor(?:y|ies)",
        "notes?",
        "profiles?",
        "history",
        "stored",
        "saved",
        "https?://",
        "[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:com|net|org|io|example|dev|app|ai|co|cn|xyz|me|info)",
    ),
    zh("资料", "数据", "记忆", "笔记", "存的", "保存的", "历史", "用户"),
)
