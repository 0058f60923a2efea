"""Chinese and English phrase lists for what a pattern can't see: diagnoses (``restricted``);
accounts, orders, money, permissions, health, legal and financial matters (``high``); and work
context — job titles, teams, projects, employers, tech stacks (``medium``).

The lists are tuned for precision. Words that are mostly harmless in chat are left out or only
matched in a telling phrase: "manager" only as a job ("product manager", never "password
manager" or "package manager"), "order" only as a purchase ("order number", never "sort
order"), 抑郁 and 强迫症 only as a diagnosis (抑郁症), never as a mood or a figure of speech
about tidiness; "diagnosed" only with a person as its subject ("the leak was diagnosed with
strace" is not medical).
"""

from __future__ import annotations

import re
from itertools import product

from governance.recognizers.entities import EntityType as E
from governance.recognizers.phrases import Lexicon
from governance.recognizers.rules import NOT_BEFORE_ALNUM, Rule


def _combine(*parts: tuple[str, ...]) -> tuple[str, ...]:
    """Every phrase made of one choice from each part: ("my", "bank") x ("account",)."""
    return tuple(" ".join(words) for words in product(*parts))


def _phrases(listing: str) -> tuple[str, ...]:
    """Comma-separated English phrases; line breaks are only layout."""
    return tuple(" ".join(phrase.split()) for phrase in listing.split(",") if phrase.strip())


def _terms(listing: str) -> tuple[str, ...]:
    """Whitespace-separated terms (Chinese, or substrings for a rule's hints)."""
    return tuple(listing.split())


_PEOPLE = ("i", "i m", "i am", "i ve", "i was", "we", "we re", "we are", "he", "she", "they")
_WORKING = ("work", "works", "working", "worked")


# A saving or spending rule stated as a share of one's pay ("I move 20% of every paycheck into savings the day it
# arrives", "工资到账先存30%，剩下的再花", "I split my savings 70/30 between an index fund and a cash ISA"): a habit,
# with no amount, no account and no one else's money in it. Any figure of money, someone else, or a change in what
# one earns ("my salary went up 20%") and the phrase implies financial information as usual.
_SHARE = re.compile(
    r"\d{1,3}\s?%|百分之[一二三四五六七八九十\d]+|(?<![\d/])\d{1,2}\s?/\s?\d{1,2}(?![\d/])|[一二两三四五六七八九]成|一半"
)
_ALLOCATE = re.compile(
    r"(?<![a-z])(?:move|moves|moved|put|puts|save|saves|set aside|sets aside|transfer|transfers|invest|invests|"
    r"split|splits|allocate|allocates|divide|divides|keep|keeps|stash|stashes|sweep|sweeps)(?![a-z])"
    r"|存|攒|转入|转到|拿出|留出|分成|定投",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"(?<![a-z])(?:i|my|i'm|i've)(?![a-z])|我", re.IGNORECASE)
_NOT_A_HABIT = re.compile(
    r"[$£€¥￥]|\d\s*(?:k|m|dollars?|euros?|pounds?|yuan|rmb|usd|eur|gbp|cny)(?![a-z])|\d\s*(?:元|块|万|千|百)"
    r"|[一二三四五六七八九十两]+\s*(?:万|千|百)(?:元|块)?|(?<![a-z])(?:his|her|their|our|he|she|they)(?![a-z])"
    r"|(?<![a-z])(?!(?:that|it|there|here|what|who|let)'s)[a-z]+'s(?![a-z])"
    r"|他|她|别人|同事|家人|(?<![a-z])(?:went up|went down|raise|rise|cut|increase|decrease|account|number)(?![a-z])"
    r"|涨|降|加薪|降薪|账户|账号|卡号",
    re.IGNORECASE,
)


def _a_share_of_ones_pay(text: str, start: int, end: int) -> bool:
    """Whether the phrase at start:end sits in a sentence that states a share of one's pay put somewhere."""
    sentence_start = max(text.rfind(mark, 0, start) for mark in _SENTENCE_ENDS) + 1
    ends = [i for i in (text.find(mark, end) for mark in _SENTENCE_ENDS) if i != -1]
    sentence = text[sentence_start : min(ends, default=len(text))]
    return (
        _SHARE.search(sentence) is not None
        and _ALLOCATE.search(sentence) is not None
        and _FIRST_PERSON.search(sentence) is not None
        and _NOT_A_HABIT.search(sentence) is None
    )


def _not_a_share_of_ones_pay(match: re.Match[str]) -> bool:
    return not _a_share_of_ones_pay(match.string, match.start(), match.end())


LEXICONS: tuple[Lexicon, ...] = (
    Lexicon(
        E.MEDICAL_CONDITION,
        en=_phrases("""
            depression, depressive disorder, major depressive, anxiety disorder, anxiety disorders,
            generalized anxiety, generalised anxiety, panic disorder, social anxiety disorder,
            bipolar, bipolar disorder, schizophrenia, schizophrenic, ptsd, post traumatic stress,
            obsessive compulsive disorder, adhd, autism, autistic, asperger, aspergers, anorexia,
            bulimia, eating disorder, insomnia, diabetes, diabetic, hypertension, heart disease,
            heart failure, cancer, cancers, tumor, tumors, tumour, tumours, leukemia, leukaemia,
            lymphoma, melanoma, carcinoma, chemotherapy, chemo, radiotherapy, hiv, hepatitis,
            cirrhosis, tuberculosis, syphilis, gonorrhea, gonorrhoea, chlamydia, herpes,
            sexually transmitted, epilepsy, epileptic, asthma, parkinson, parkinsons, alzheimer,
            alzheimers, dementia, multiple sclerosis, lupus, crohn, crohns, celiac disease,
            coeliac disease, kidney failure, renal failure, dialysis, antidepressant,
            antidepressants, antipsychotic, antipsychotics, mental illness, psychiatric condition,
            psychiatric disorder, psychiatric treatment
        """),
        zh=_terms("""
            焦虑症 焦虑障碍 惊恐障碍 抑郁症 抑郁障碍 重度抑郁 中度抑郁 双相 躁郁症 精神分裂 自闭症 孤独症
            阿斯伯格 多动症 注意缺陷 创伤后应激 厌食症 暴食症 失眠症 糖尿病 高血压 冠心病 心脏病 心肌梗 心梗
            脑梗 脑卒中 中风 癌 肿瘤 白血病 淋巴瘤 化疗 放疗 艾滋 乙肝 丙肝 肝炎 肝硬化 结核 梅毒 淋病 性病
            尖锐湿疣 癫痫 哮喘 帕金森 阿尔茨海默 老年痴呆 痴呆症 红斑狼疮 类风湿 甲亢 甲减 尿毒症 肾衰 透析
            抗抑郁药 精神疾病 心理疾病 精神病 确诊 诊断为 诊断出 被诊断
        """),
    ),
    Lexicon(
        E.HEALTH_INFO,
        en=_phrases("""
            allergy, allergies, allergic, blood pressure, blood sugar, blood test, blood tests,
            lab results, medical record, medical records, medical history, medical condition,
            medical conditions, medical leave, medical report, medical reports, medical appointment,
            medical appointments, health condition, health conditions, health issue, health issues,
            health problem, health problems, health record, health records, health history,
            health insurance, mental health, hospitalized, hospitalised, in hospital,
            in the hospital, surgery, surgeries, prescription, prescriptions, medication,
            medications, on meds, my doctor, therapist, therapy session, therapy sessions, pregnant,
            pregnancy, my disability, have a disability, has a disability, sick leave, my symptoms, physiotherapy, rehab
        """),
        zh=_terms("""
            过敏 血压 血糖 体检 病历 病情 病假 住院 手术 处方 服药 吃药 用药 药物 看医生 就医 就诊 复诊
            心理咨询 心理医生 怀孕 孕期 残疾证 身体状况 健康状况 化验
        """),
    ),
    Lexicon(
        E.LEGAL_INFO,
        en=_phrases("""
            lawsuit, lawsuits, sued, suing, litigation, legal action, legal dispute, legal disputes,
            legal case, legal proceedings, legal trouble, legal matter, legal matters, court case,
            court cases, court hearing, court hearings, court order, court orders, court date,
            court dates, criminal record, criminal charge, criminal charges, criminal history,
            arrested, convicted, criminal conviction, felony, misdemeanor, misdemeanour, parole,
            custody battle, custody dispute, custody case, divorce, divorced, restraining order,
            subpoena, subpoenaed, indicted, plea deal, dui, dwi, immigration status, visa status,
            deportation, settlement agreement, liable, lease dispute, tenancy dispute,
            landlord dispute
        """),
        zh=_terms("""
            诉讼 起诉 被告 原告 官司 仲裁 判决 判刑 坐牢 服刑 犯罪记录 案底 前科 逮捕 拘留 离婚 律师函 传票
            被执行人 强制执行 移民身份 签证状态 刑事 民事纠纷 劳动纠纷
        """),
    ),
    Lexicon(
        E.FINANCIAL_INFO,
        en=_phrases("""
            salary, salaries, paycheck, payslip, pay stub, wage, wages, income, annual pay,
            compensation package, net worth, my savings, savings account, life savings, loan, loans,
            student loan, student loans, mortgage, mortgages, in debt, my debt, my debts,
            credit card debt, debt collector, credit score, credit report, credit history,
            credit limit, brokerage, investment portfolio, stock portfolio, my portfolio, 401k,
            401 k, roth ira, retirement savings, retirement account, retirement fund, tax return,
            tax returns, bank balance, account balance, bankrupt, bankruptcy, overdraft,
            financial situation, financial status,
            financial trouble, financial difficulty, financial difficulties, my finances,
            insurance policy, insurance policies, insurance claim, insurance claims, annual bonus,
            my bonus, year end bonus, stock options, equity grant, rsu, rsus, vesting schedule
        """),
        zh=_terms("""
            工资 薪资 薪水 薪酬 月薪 年薪 底薪 收入 年终奖 奖金 存款 储蓄 积蓄 贷款 房贷 车贷 借款 欠款 欠债
            负债 网贷 信用卡账单 信用卡欠 征信 信用分 信用评分 芝麻信用 炒股 持仓 证券账户 公积金 个税 报税
            余额 身家 破产 财务状况 经济状况 保单 理赔 期权 股权 持股 信用额度 信用卡额度
        """),
        dropped_when=_a_share_of_ones_pay,
    ),
    Lexicon(
        E.ACCOUNT_INFO,
        en=(
            *_phrases("""
                account number, account numbers, account num, account id, account ids,
                account name, account no, account password, acct no, acct number, my username,
                my user name, username is, login name, login id, login credentials,
                routing number, sort code, swift code, bic code, member id, member number,
                membership id, membership number, customer id, customer number, employee id,
                employee number
            """),
            *_combine(
                _phrases("""
                    bank, brokerage, savings, checking, trading, email, paypal, alipay, wechat,
                    personal, my, your
                """),
                ("account", "accounts"),
            ),
        ),
        zh=_terms("""
            账号 帐号 账户 帐户 我的用户名 用户名是 登录名 登陆名 银行卡 卡号 开户行 户名 支付宝 微信号 QQ号
            工号 会员号 客户号 学号
        """),
    ),
    Lexicon(
        E.ORDER_INFO,
        en=(
            *_phrases("""
                order number, order numbers, order num, order id, order ids, order no,
                tracking number, tracking no, tracking id, invoice number, invoice no,
                purchase history, transaction id, transaction number, transaction history
            """),
            *_combine(
                ("my", "customer", "purchase", "sales", "pending", "recent", "last"),
                ("order", "orders"),
            ),
        ),
        zh=_terms("订单 发票 快递单号 运单号 物流单号 交易号 交易记录 流水号 购买记录 收据"),
    ),
    Lexicon(
        E.PERMISSION_INFO,
        en=(
            *_phrases("""
                root access, root privilege, root privileges, sudo access, sudo rights, sudoer,
                sudoers, superuser, my permissions, your permissions, their permissions,
                my privileges, has permission, have permission, access rights, access level,
                access levels, elevated access, elevated privileges, read access, write access,
                push access, merge access, deploy access, iam role, iam roles, iam policy,
                iam policies, iam permission, iam permissions, auto approve, autoapprove,
                approve all, bypass approval, bypass review, bypass authentication, bypass 2fa,
                bypass mfa, bypass the approval, bypass the review, bypass the authentication
            """),
            *_combine(
                ("admin", "administrator"),
                _phrases("""
                    rights, access, privilege, privileges, permission, permissions, role, account
                """),
            ),
            *_combine(
                ("grant", "grants", "granted", "granting"),
                ("me", "you", "them", "him", "her", "us"),
                ("access", "rights"),
            ),
        ),
        # "管理员" and "授权" alone are roles and topics ("我是实验室的管理员", "授权码模式"), as "admin" is
        # in English; holding or being given the rights is the "权限" rule below.
        zh=_terms("超级管理员权限 超管权限 提权 免审 加白名单"),
    ),
    Lexicon(
        E.JOB_TITLE,
        en=(
            *_phrases("""
                engineer, engineers, developer, developers, programmer, programmers,
                data scientist, data scientists, designer, designers, architect, architects,
                analyst, analysts, researcher, researchers, consultant, consultants, recruiter,
                recruiters, accountant, accountants, lawyer, lawyers, attorney, attorneys, nurse,
                nurses, doctor, doctors, professor, professors, intern, interns, tech lead,
                team lead, product owner, scrum master, founder, cofounder, co founder, sre, cto,
                ceo, cfo, coo, cio, ciso, vp, vice president, director of, head of, my role,
                job title, my title, my position, in charge of, responsible for
            """),
            *_combine(
                _phrases("""
                    engineering, product, project, program, account, hiring, general, office,
                    people, team, delivery, release, marketing, sales
                """),
                ("manager", "managers"),
            ),
        ),
        zh=_terms("""
            工程师 程序员 开发者 开发人员 架构师 产品经理 项目经理 技术负责人 技术主管 技术经理 技术总监 组长
            主管 经理 总监 总经理 首席 设计师 分析师 研究员 科学家 实习生 运营 销售 律师 医生 护士 教师 职位
            岗位 职级 职称 我的角色 担任 负责 博士生 博士后 研究生 硕士生 本科生
        """),
    ),
    Lexicon(
        E.TEAM,
        en=_phrases("""
            team, teams, teammate, teammates, squad, squads, department, departments, dept,
            division, divisions, working group, my manager, my boss, reports to
        """),
        zh=_terms("团队 小组 部门 事业部 项目组 我们组 本组 组内 组里 同组"),
    ),
    Lexicon(
        E.PROJECT,
        en=(
            *_phrases("project, projects, codebase, product roadmap"),
            *_combine(_PEOPLE, _WORKING, ("on",)),
        ),
        zh=_terms("项目 产品线"),
    ),
    Lexicon(
        E.EMPLOYER,
        en=(
            *_phrases("""
                employer, employed at, employed by, my company, our company, my firm, our firm,
                my organization, our organization, my organisation, our organisation, company,
                colleague, colleagues, coworker, coworkers, co worker, co workers
            """),
            *_combine(_PEOPLE, _WORKING, ("at", "for")),
        ),
        zh=_terms("公司 单位 雇主 入职 就职 任职 同事 老板 上司"),
    ),
    Lexicon(
        E.TECH_STACK,
        en=_phrases("""
            tech stack, technology stack, our stack, the stack, my stack, stack is, stack includes
        """),
        zh=_terms("技术栈 技术选型"),
    ),
)

_CURRENCY_WORDS = (
    r"元(?![素组数年旦件宇])|块钱|美金|英镑|港币|人民币"
    r"|(?i:usd|rmb|cny|eur|gbp|jpy|hkd|dollars?|bucks|euros?|yuan)(?![A-Za-z])"
)


_EXAMPLE_MARKERS = (
    *_terms("比如 例如 譬如 示例 举例 格式 虚构 显示 写成 e.g. eg. format fictional sample placeholder show display"),
    "for example",
    "for instance",
    "such as",
)


def _not_an_example(match: re.Match[str]) -> bool:
    """False for an amount given as an example of a format ("比如 1,234.56 元", "e.g. $20"),
    which says how to write money, not how much someone has."""
    before = match.string[max(0, match.start() - 24) : match.start()].lower()
    return not any(marker in before for marker in _EXAMPLE_MARKERS)


# "approving anything over 500 dollars", "超过一千元的报销", "500 元以上": a limit in a rule, not anyone's money —
# unless the person's own money is meant ("my debt is over $5,000", "我的存款超过十万").
_THRESHOLD_BEFORE = re.compile(
    r"(?:\b(?:over|above|under|below|more than|less than|up to|at least|at most|exceeding|greater than|beyond|"
    r"higher than|lower than)|[<>]=?|超过|高于|低于|不超过|不低于|大于|小于|多于|少于|满)\s*$",
    re.IGNORECASE,
)
_THRESHOLD_AFTER = re.compile(r"^\s*(?:以上|以下|以内|及以上|或以上|起)")
# A budget, a cap or a limit set per period or per occasion ("my grocery budget is £400 a month", "capped at 250
# dollars a month", "a €50 limit per trip", "按每人每天500元做预算") is a rule for spending, like a threshold: it says
# what may be spent, not what anyone has. A lump sum ("project budget: 1.2M USD") stays money.
_RATE = re.compile(
    r"(?<![a-z])(?:(?:a|an|per|each|every)\s+|/\s?)(?:day|week|month|year|quarter|trip|person|head|visit|meal|night|"
    r"event|order)(?![a-z])|(?<![a-z])(?:daily|weekly|monthly|yearly|annual|annually)(?![a-z])|每(?:人|天|日|周|月|年|次|趟|餐|晚)",
    re.IGNORECASE,
)
_LIMIT_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:budget(?:ed|s)?|limit(?:ed|s)?|cap(?:ped|s)?|allowance|ceiling)(?![a-z])|预算|上限|限额|封顶)"
    r"[^.;!?。；！？\n]{0,20}$",
    re.IGNORECASE,
)
_LIMIT_AFTER = re.compile(
    r"^[^.;!?。；！？\n]{0,20}?(?:(?<![a-z])(?:budget|limit|cap|allowance)(?![a-z])|预算|上限|限额|封顶)", re.IGNORECASE
)
# Someone's own money: a possessive on a money noun, or a person who has, owes, earns or spends it. A possessive
# alone is not ("my personal budget rule: anything over 200 euros waits a day" is a limit), nor is a budget.
_MONEY_NOUNS = (
    r"debts?|savings|salary|income|balance|rent|mortgage|loans?|bills?|spending|accounts?|portfolio|net worth|pay"
    r"|paycheck|bonus|wallet|cards?|credit|cash|money|funds|earnings|wages?|assets|investments?|pension"
)
_OWN_MONEY = re.compile(
    rf"(?<![a-z])(?:my|our|his|her|their)(?:\s+\w+){{0,2}}?\s+(?:{_MONEY_NOUNS})(?![a-z])"
    r"|(?<![a-z])(?:i|we|i've|i'm|he|she|they)\s+(?:\w+\s+)?(?:have|has|had|owe|owes|owed|earn|earns|earned|make|makes"
    r"|made|spend|spends|spent|paid|pay|saved|save|lost|borrowed|invested|got|get|am owed|owe)(?![a-z])"
    r"|我(?:们)?(?:有|欠|赚|挣|花|存|借|亏|攒)|(?:工资|收入|存款|余额|负债|欠款|月薪|年薪|贷款|房贷)"
    # A named person's: "Bob earns …", "Jane's credit card limit …".
    r"|(?<![a-z])\w+ (?:earns|earned|owes|owed)(?![a-z])"
    rf"|(?<![a-z])\w+'s(?:\s+\w+){{0,2}}?\s+(?:{_MONEY_NOUNS})(?![a-z])",
    re.IGNORECASE,
)


_SENTENCE_ENDS = ".;!?。；！？\n"


def _sentence_of(match: re.Match[str]) -> tuple[int, int]:
    """Where the sentence holding ``match`` starts and ends in its text."""
    text = match.string
    start = max(text.rfind(mark, 0, match.start()) for mark in _SENTENCE_ENDS) + 1
    ends = [i for i in (text.find(mark, match.end()) for mark in _SENTENCE_ENDS) if i != -1]
    return start, min(ends, default=len(text))


def _not_a_threshold(match: re.Match[str]) -> bool:
    """False for an amount a rule compares against, unless the person's own money is meant."""
    text = match.string
    before = text[_sentence_of(match)[0] : match.start()]
    after = text[match.end() : match.end() + 32]
    compared = (
        _THRESHOLD_BEFORE.search(before[-16:])
        or _THRESHOLD_AFTER.match(after)
        or (
            (_LIMIT_BEFORE.search(before[-28:]) or _LIMIT_AFTER.match(after))
            and _RATE.search(f"{before[-28:]} {match.group(0)} {after}") is not None
        )
    )
    return not compared or _OWN_MONEY.search(before) is not None


def _money_in_context(match: re.Match[str]) -> bool:
    return _not_an_example(match) and _not_a_threshold(match)


# A refund, a return or a chargeback is order information when a particular one is meant: one with a
# reference ("Refund RF-20931", "退款单 R-2210") or someone's own ("my refund", "这笔退款"). A shop's refund policy
# ("full refund within 30 days", "七天无理由退货", "退款超过2000元要经理审批") names a rule, not an order.
_REFUND = r"(?<![A-Za-z])(?i:refund(?:s|ed|ing)?|chargebacks?|return requests?)(?![A-Za-z])|退款|退货|退费"
_REFERENCE = re.compile(r"(?<![\w.])(?:[A-Za-z]{1,5}[-#]?\d{3,}|#\d{3,}|\d{5,})(?![\w.])")
_PARTICULAR = re.compile(
    r"(?<![a-z])(?:my|his|her|their|this|that|the user's)\s+(?:\w+\s+)?$"
    r"|(?<![a-z])(?:i|we|he|she|they)(?:'ve|'m|'re| have| had| am| are| was| were)?\s+(?:\w+\s+)?(?:asked for|"
    r"requested|got|received|applied for|filed for|claimed|waiting for|owed|issued|gave|sent)\s+"
    r"(?:a |an |the )?(?:\w+\s+)?$"
    r"|(?<![a-z])(?:owes?|owed) (?:me|us|him|her|them) (?:a |an |the )?(?:\w+\s+)?$"
    r"|(?:我的|他的|她的|这笔|那笔|这单|那单|该笔)\s*$|(?:我|他|她)(?:已经|刚)?(?:申请了?|要了?|收到了?|办了?)(?:一笔|个)?\s*$",
    re.IGNORECASE,
)


# Where a particular refund stands: "the refund hasn't arrived", "退款还没到", "退款到账了".
_ITS_STATUS = re.compile(
    r"\s*(?:(?i:(?:still )?(?:has|have|hasn't|haven't|has not|have not|didn't|did not|never|is|was|finally)?\s*"
    r"(?:arrived|come through|came through|cleared|landed|been (?:processed|issued|paid|credited))))"
    r"|(?:还|仍|一直|已经|终于)?(?:没|未|没有)?(?:到|到账|退回|下来|打回|收到)"
)


def _a_particular_refund(match: re.Match[str]) -> bool:
    text = match.string
    start, end = _sentence_of(match)
    return (
        _REFERENCE.search(text, start, end) is not None
        or _PARTICULAR.search(text[start : match.start()][-24:]) is not None
        or _ITS_STATUS.match(text, match.end()) is not None
    )


LEXICON_RULES: tuple[Rule, ...] = (
    Rule(
        E.ORDER_INFO,
        re.compile(_REFUND),
        _a_particular_refund,
        hints=_terms("refund chargeback return 退款 退货 退费"),
    ),
    # Investments, funds, stocks and taxes are also just topics ("比较不同基金的费率", "explain
    # stocks vs bonds"); they are personal finance when someone's own are meant.
    Rule(
        E.FINANCIAL_INFO,
        re.compile(
            r"(?<![A-Za-z])(?i:my|i|i've|i'm|user's|user|the user's)(?:\s+\S+){0,4}?\s+"
            r"(?i:stocks?|shares|investments?|index funds?|mutual funds?|etfs?|pension|taxes|crypto"
            r"|bitcoin)(?![A-Za-z])"
            r"|(?:我|用户|他|她)[\u4e00-\u9fff]{0,6}?(?:基金|股票|理财|资产|投资|美股|港股|比特币|债务)"
        ),
        _not_a_share_of_ones_pay,
        hints=_terms("""
            stock share investment fund etf pension taxes crypto bitcoin 基金 股票 理财 资产 投资 美股 港股
            比特币 债务
        """),
    ),
    # "权限" alone is mostly a topic ("文件权限"); someone holding or being given it is not.
    Rule(
        E.PERMISSION_INFO,
        re.compile(
            r"(?:拥有|有|给我|给他|给她|开通|申请|获得|授予|赋予|开放|加|提升)[\u4e00-\u9fffA-Za-z0-9 -]{0,12}?权限"
            r"|管理员权限|权限提升"
        ),
        hints=("权限",),
    ),
    Rule(
        E.MEDICAL_CONDITION,
        re.compile(r"(?:患有|患上|罹患|得了|查出)[\u4e00-\u9fff]{1,8}?(?:症|病|炎|瘤|癌)"),
        hints=_terms("患有 患上 罹患 得了 查出"),
    ),
    Rule(
        E.MEDICAL_CONDITION,
        re.compile(
            r"(?<![A-Za-z])(?i:i|i'm|i've|he|she|they|we|my(?: \w+){1,2})(?:'s|'ve|'m)?"
            r"(?: (?i:was|were|am|is|are|has|have|had|been|got|just|recently|newly|also|officially))"
            r"{0,3} (?i:diagnosed)(?![A-Za-z])"
        ),
        hints=("diagnosed",),
    ),
    Rule(E.MEDICAL_CONDITION, re.compile(r"(?<![A-Za-z])AIDS(?![A-Za-z])"), hints=("aids",)),
    # A diagnosis in any order: the word for it and a condition within a few characters ("记住我有癫痫
    # （2023 年确诊）", "诊断结果：双相情感障碍"), or the condition's ICD-10 code ("ICD-10 F31.81").
    Rule(
        E.MEDICAL_CONDITION,
        re.compile(
            r"(?:(?:我|孩子|儿子|女儿|他|她|家人|老公|老婆|妈妈|爸爸|父亲|母亲|用户)[^。；\n]{0,12}?(?:确诊|诊断|病史|患有|罹患)"
            r"|诊断结果[:：]|(?:确诊|诊断)(?:为|出|是)[:：]?)[^。；\n]{0,20}?"
            r"(?:症|病|炎|瘤|癌|障碍|综合征|狼疮|癫痫|艾滋|hiv|HIV)"
            r"|(?:我|孩子|儿子|女儿|他|她|家人|老公|老婆|妈妈|爸爸|父亲|母亲|用户)(?:有|得了|患)[^。；\n，,]{1,12}?"
            r"(?:症|病|炎|瘤|癌|障碍|综合征|狼疮|癫痫)[^。；\n]{0,14}?(?:确诊|诊断)"
        ),
        hints=("确诊", "诊断", "病史", "患有", "罹患"),
    ),
    Rule(
        E.MEDICAL_CONDITION,
        re.compile(r"(?i:icd-?(?:10|11|9)(?:-cm)?)[\s:：]*[A-Z]\d{2}(?:\.\d{1,3})?(?![A-Za-z0-9])"),
        hints=("icd",),
    ),
    Rule(E.FINANCIAL_INFO, re.compile(r"(?<![A-Za-z])IRA(?![A-Za-z])"), hints=("ira",)),
    Rule(
        E.ORDER_INFO,
        re.compile(rf"(?<![A-Za-z_])(?i:orders?)\s+#?[A-Za-z]{{0,3}}-?\d{{3,}}{NOT_BEFORE_ALNUM}"),
        hints=("order",),
    ),
    Rule(
        E.MONEY_AMOUNT,
        re.compile(
            r"(?:[$¥€£]|(?<![A-Za-z])(?i:us\$|usd|rmb|cny|eur|gbp|jpy|hkd))\s?"
            r"(?:\d[\d,]*\.\d+|\d[\d,]+|\d\s?(?:[kKmM万千亿]|bn))"
            rf"|\d[\d,]*(?:\.\d+)?\s?(?:[kKmM]|bn|万|千|百万|亿)?\s?(?:{_CURRENCY_WORDS})"
        ),
        _money_in_context,
        hints=_terms("$ ¥ € £ usd rmb cny eur gbp jpy hkd 元 块钱 美金 英镑 港币 人民币 dollar buck yuan"),
    ),
    Rule(
        E.TEAM,
        re.compile(
            r"(?:在|加入了?|调到|转到|来自|属于)(?![这那每一哪几两])[\u4e00-\u9fffA-Za-z0-9]{1,8}?"
            r"(?:组|团队|部门)(?![织件合成建])"
        ),
        hints=("组", "团队", "部门"),
    ),
    Rule(
        E.JOB_TITLE,
        re.compile(
            r"做(?:前端|后端|运维|测试|开发|产品|设计|算法|数据|运营|销售)"
            r"|(?:前端|后端|全栈|算法|测试|运维|数据|软件|硬件|客户端|移动端|安卓|嵌入式)"
            r"(?:开发)?(?:工程师|开发|程序员)"
        ),
        hints=("做", "工程师", "开发", "程序员"),
    ),
    Rule(
        E.EMPLOYER,
        re.compile(r"(?:在|于)[\u4e00-\u9fffA-Za-z0-9]{1,12}?(?:工作|上班|实习)"),
        hints=("工作", "上班", "实习"),
    ),
    Rule(
        E.TECH_STACK,
        re.compile(
            r"(?<![A-Za-z])(?i:back-?end|front-?end|services?|codebase|app|api|server|project|system)"
            r" (?i:is|are) (?i:written|built|implemented|developed|running|hosted|deployed)"
            r" (?i:in|with|on|using)(?![A-Za-z])"
        ),
        hints=("written", "built", "implemented", "developed", "running", "hosted", "deployed"),
    ),
    Rule(
        E.TECH_STACK,
        re.compile(
            r"(?:后端|前端|服务端?|项目|系统|代码)(?:是|都是)?(?:用|使用|基于)[A-Za-z0-9.+# ]{1,20}"
            r"(?:写|开发|实现|构建|搭建)"
        ),
        hints=("写", "开发", "实现", "构建", "搭建"),
    ),
)
