"""detect_sensitivity: what it finds in Chinese and English text, and the look-alikes it must not.

Fake secrets are assembled from pieces so that secret scanners don't flag this file; each is
format-valid for its provider and belongs to no one.
"""

from __future__ import annotations

import dataclasses

import pytest

from governance.recognizers import ENTITY_LEVELS, EntityType, SensitivityFinding, detect_sensitivity
from governance.vocabulary import Sensitivity

R = Sensitivity.RESTRICTED
H = Sensitivity.HIGH
M = Sensitivity.MEDIUM
L = Sensitivity.LOW

ALNUM36 = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
HEX64 = "0123456789abcdef" * 4

SECRETS: dict[str, tuple[str, EntityType]] = {
    "openai-project": (
        "my key is " + "sk-" + "proj-" + ALNUM36 + "_Zz9",
        EntityType.SECRET_OPENAI_API_KEY,
    ),
    "openai-legacy": ("OPENAI_API_KEY=" + "sk-" + ALNUM36 + "Xy12", EntityType.SECRET_OPENAI_API_KEY),
    "anthropic": (
        "记住我的 API key: " + "sk-" + "ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdEFGH",
        EntityType.SECRET_ANTHROPIC_API_KEY,
    ),
    "github-classic": ("token " + "gh" + "p_" + ALNUM36, EntityType.SECRET_GITHUB_TOKEN),
    "github-oauth": ("gh" + "o_" + ALNUM36, EntityType.SECRET_GITHUB_TOKEN),
    "github-user-to-server": ("gh" + "u_" + ALNUM36, EntityType.SECRET_GITHUB_TOKEN),
    "github-server-to-server": ("gh" + "s_" + ALNUM36, EntityType.SECRET_GITHUB_TOKEN),
    "github-refresh": ("gh" + "r_" + ALNUM36, EntityType.SECRET_GITHUB_TOKEN),
    "github-fine-grained": (
        "github" + "_pat_" + "11ABCDEFG0123456789abc" + "_" + ALNUM36 + "D4e5F6g7H8i9J0k1L2m3N",
        EntityType.SECRET_GITHUB_TOKEN,
    ),
    "gitlab": ("GITLAB_TOKEN=" + "gl" + "pat-" + "xY7zK9mN3pQ5rS8tU1vW", EntityType.SECRET_GITLAB_TOKEN),
    "aws-key-id": ("AKIA" + "IOSFODNN7EXAMPLE", EntityType.SECRET_AWS_ACCESS_KEY_ID),
    "aws-session-key-id": ("ASIA" + "Y34FZKBOKMUTVV7A", EntityType.SECRET_AWS_ACCESS_KEY_ID),
    "aws-secret": (
        "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY",
        EntityType.SECRET_AWS_SECRET_ACCESS_KEY,
    ),
    "google": ("key=" + "AI" + "za" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q", EntityType.SECRET_GOOGLE_API_KEY),
    "slack-bot": (
        "xo" + "xb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        EntityType.SECRET_SLACK_TOKEN,
    ),
    "slack-user": ("xo" + "xp-" + "1234567890-1234567890-1234567890-abcdef0123", EntityType.SECRET_SLACK_TOKEN),
    "slack-webhook": (
        "https://hooks." + "slack.com/services/" + "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        EntityType.SECRET_SLACK_WEBHOOK,
    ),
    "stripe-live": ("sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc", EntityType.SECRET_STRIPE_KEY),
    "stripe-restricted": ("rk_" + "live_" + "51H8xAbCdEfGhIjKlMnOp", EntityType.SECRET_STRIPE_KEY),
    "alibaba": ("AccessKeyId: " + "LT" + "AI5tAbCdEfGhIjKlMn", EntityType.SECRET_ALIBABA_ACCESS_KEY_ID),
    "tencent": ("SecretId " + "AK" + "IDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", EntityType.SECRET_TENCENT_SECRET_ID),
    "huggingface": (
        "HF_TOKEN=" + "hf" + "_" + "abcdefghijklmnopqrstuvwxyzABCDEFGH",
        EntityType.SECRET_HUGGINGFACE_TOKEN,
    ),
    "npm": ("//registry.npmjs.org/:_authToken=" + "npm" + "_" + ALNUM36, EntityType.SECRET_NPM_TOKEN),
    "pypi": ("pypi" + "-AgEIcHlwaS5vcmc" + ALNUM36 + ALNUM36, EntityType.SECRET_PYPI_TOKEN),
    "sendgrid": (
        "S" + "G." + "abcdefghijABCDEFGHIJ01" + "." + "abcdefghijABCDEFGHIJ0123456789abcdefghijABC",
        EntityType.SECRET_SENDGRID_KEY,
    ),
    "digitalocean": ("do" + "p_v1_" + HEX64, EntityType.SECRET_DIGITALOCEAN_TOKEN),
    "telegram": (
        "bot " + "123456789:" + "AA" + "HdqTcvCH1vGWJxfSeofSAs0K5PALDsawq",
        EntityType.SECRET_TELEGRAM_BOT_TOKEN,
    ),
    "jwt": (
        "Authorization: Bearer " + "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w",
        EntityType.SECRET_JWT,
    ),
    "openssh-private-key": (
        "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
        EntityType.SECRET_PRIVATE_KEY,
    ),
    "rsa-private-key": (
        "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        EntityType.SECRET_PRIVATE_KEY,
    ),
    "postgres-url": (
        "DATABASE_URL=postgres://app:" + "s3cr3t-pw" + "@db.internal:5432/app",
        EntityType.SECRET_CONNECTION_STRING,
    ),
    "mysql-url": ("mysql://root:" + "hunter2" + "@127.0.0.1/shop", EntityType.SECRET_CONNECTION_STRING),
    "mongodb-srv-url": (
        "mongodb+srv://admin:" + "p4ssW0rd" + "@cluster0.example.mongodb.net/test",
        EntityType.SECRET_CONNECTION_STRING,
    ),
    "redis-url": ("redis://:" + "Sup3rSecret" + "@cache.example.com:6379/0", EntityType.SECRET_CONNECTION_STRING),
    "generic-api-key": ("api_key = " + "9f8e7d6c5b4a39281706f5e4d3c2b1a0", EntityType.SECRET_ASSIGNMENT),
    "azure-account-key": (
        "AccountName=stdispatch;AccountKey=" + "5uAOsdMHB3Uyw9LKTD1bRfoM0luDP/MyH0lvO7vX2xGLxy2fB6v5sQ0hz==",
        EntityType.SECRET_ASSIGNMENT,
    ),
    "chinese-secret-key": ("密钥是 " + "Zm9vYmFyYmF6cXV4MTIz", EntityType.SECRET_ASSIGNMENT),
    "uuid-as-api-key": ("API key: " + "123e4567-e89b-12d3-a456-426614174000", EntityType.SECRET_ASSIGNMENT),
    "high-entropy": ("here you go: " + "Q9vX2mLk7RtZ4pWn8YsB3cHf", EntityType.SECRET_HIGH_ENTROPY),
}


@pytest.mark.parametrize(("text", "entity"), list(SECRETS.values()), ids=list(SECRETS))
def test_it_finds_each_kind_of_secret(text: str, entity: EntityType) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == R
    assert entity in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        "My work email password is hunter2-Spring!, remember it.",
        "the wifi password is 'guest1234'",
        "Password for the vpn: Tr0ub4dor&3",
        'config: {"password": "s3cr3t!"}',
        "passwd=letmein99",
        "pwd: qwerty123",
        "the shared test account is qa_bot with password Winter2026!x",
        "密码是abc123456",
        "我的密码：P@ssw0rd",
        "账号密码都是admin123",
        "记住：公司 GitLab 的密码我改成了 P@ssw0rd_0707 了。",
        "口令为 open-sesame-42",
        "银行卡PIN码是 482913",
        "my PIN is 4829",
    ],
)
def test_it_finds_passwords_said_in_words(text: str) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == R
    assert EntityType.SECRET_PASSWORD in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        "I prefer a password manager.",
        "use 1Password for secrets",
        "I store passwords in 1Password or Bitwarden.",
        "My password is too weak, remind me to change it.",
        "the password was changed yesterday",
        "password: ********",
        "password = ${DB_PASSWORD}",
        "Password is required on the login form.",
        "我在上密码学课程。",
        "记住我是密码学方向的博士生。",
        "密码是什么来着？",
        "Remind me to reset my password every 90 days.",
    ],
)
def test_it_leaves_password_talk_without_a_password_alone(text: str) -> None:
    finding = detect_sensitivity(text)

    assert finding.level != R
    assert not [entity for entity in finding.entity_types if entity.startswith("SECRET_")]


@pytest.mark.parametrize(
    "text",
    [
        "postgres://db.example.com:5432/app",
        "postgres://reader@db.example.com/app",
        "postgres://app:${DB_PASSWORD}@db.example.com/app",
        "mysql://root:****@localhost/shop",
        "See https://example.com:8080/docs for details.",
    ],
)
def test_urls_without_a_password_are_not_secrets(text: str) -> None:
    assert detect_sensitivity(text).level == L


@pytest.mark.parametrize(
    "text",
    [
        "身份证 320102199503014564 帮我记下来",
        "身份证320102199503014564帮我记下来",
        "ID: 11010519491231002X",
        "id 11010519491231002x.",
        "身份证号码：３２０１０２１９９５０３０１４５６４",
        "身份证 320102 19950301 4564",
        "旧身份证号 320102950301456",
    ],
)
def test_it_finds_resident_ids_with_a_valid_check_digit(text: str) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == R
    assert finding.entity_types == ("CN_RESIDENT_ID",)


@pytest.mark.parametrize(
    "text",
    [
        "编号 320102199503014565 不是身份证",  # wrong check digit
        "batch 990102199503014564",  # no such province (and not a 19-digit domestic card)
        "ref 320102199502304568",  # 30 February
        "trace id 320102950301456",  # 15 digits without the word for id card
    ],
)
def test_it_ignores_id_look_alikes(text: str) -> None:
    assert detect_sensitivity(text).level == L


@pytest.mark.parametrize(
    "text",
    [
        "Card number 5522 3300 1122 3343 for subscriptions.",
        "card 4111-1111-1111-1111",
        "卡号6222020200112233446",
        "我的银行卡号是 4111111111111111",
        "Amex 3782 822463 10005",
    ],
)
def test_it_finds_luhn_valid_card_numbers(text: str) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == R
    assert EntityType.BANK_CARD_NUMBER in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        "The number 4111111111111112 is just an id.",
        "ref 5522 3300 1122 3344",
        "0000 0000 0000 0000",
        "timestamp 1720000000000",
        "build 18446744073709551615",
    ],
)
def test_it_ignores_numbers_that_are_not_cards(text: str) -> None:
    assert detect_sensitivity(text).level == L


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("护照号E12345678", EntityType.PASSPORT_NUMBER),
        ("My passport number is G12345678.", EntityType.PASSPORT_NUMBER),
        ("护照号码：EA1234567", EntityType.PASSPORT_NUMBER),
        ("passport: 123456789", EntityType.PASSPORT_NUMBER),
        ("港澳通行证 C12345678", EntityType.PASSPORT_NUMBER),
        ("My SSN is 536-22-1234", EntityType.US_SSN),
        ("social security number 536 22 1234", EntityType.US_SSN),
        ("SSN:536221234", EntityType.US_SSN),
        ("IBAN DE89 3704 0044 0532 0130 00", EntityType.IBAN_CODE),
        ("I was diagnosed with ADHD last year.", EntityType.MEDICAL_CONDITION),
        ("My mother was recently diagnosed", EntityType.MEDICAL_CONDITION),
        ("He has type 2 diabetes.", EntityType.MEDICAL_CONDITION),
        ("I'm being treated for depression.", EntityType.MEDICAL_CONDITION),
        ("She is HIV-positive.", EntityType.MEDICAL_CONDITION),
        ("我有焦虑症，正在服药。", EntityType.MEDICAL_CONDITION),
        ("去年确诊了乳腺癌", EntityType.MEDICAL_CONDITION),
        ("用户确认：患有强直性脊柱炎，久坐需要提醒起身。", EntityType.MEDICAL_CONDITION),
        ("我有抑郁症", EntityType.MEDICAL_CONDITION),
    ],
)
def test_it_finds_ids_and_diagnoses(text: str, entity: EntityType) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == R
    assert entity in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        "passport photo size 35x45mm",
        "my passport expires on 2031-05-01",
        "SSN 078-05-1120",
        "SSN 000-12-3456",
        "ISBN 978-3-16-148410-0",
        "The memory leak was diagnosed with heaptrack.",
        "我有点强迫症，代码要对齐",
        "我今天有点抑郁",
        "I'm so anxious about the deadline.",
    ],
)
def test_it_ignores_id_and_diagnosis_look_alikes(text: str) -> None:
    assert detect_sensitivity(text).level == L


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("Call me at 138 0013 8000 tomorrow", EntityType.PHONE_NUMBER),
        ("我的手机号是13800138000", EntityType.PHONE_NUMBER),
        ("手机 +86 138-0013-8000", EntityType.PHONE_NUMBER),
        ("Office line 010-12345678", EntityType.PHONE_NUMBER),
        ("US number (415) 555-0123", EntityType.PHONE_NUMBER),
        ("Reach me on +44 20 7946 0958", EntityType.PHONE_NUMBER),
        ("email me at alice@example.com", EntityType.EMAIL_ADDRESS),
        ("我的邮箱是alice@example.com帮我记下", EntityType.EMAIL_ADDRESS),
        ("I live at 221 Baker Street.", EntityType.STREET_ADDRESS),
        ("家住北京市海淀区中关村大街1号", EntityType.STREET_ADDRESS),
        ("收货地址：浙江省杭州市西湖区", EntityType.STREET_ADDRESS),
        ("Remember my brokerage account holds about 120k in index funds.", EntityType.FINANCIAL_INFO),
        ("我的月薪是 3.5 万，记一下", EntityType.FINANCIAL_INFO),
        ("My salary is 30k a month.", EntityType.FINANCIAL_INFO),
        ("用户目前有 30 万房贷未还清", EntityType.FINANCIAL_INFO),
        ("My credit score dropped last month.", EntityType.FINANCIAL_INFO),
        ("我在公司持有 2 万股期权，明年 3 月归属。", EntityType.FINANCIAL_INFO),
        ("I hold some Tesla stocks.", EntityType.FINANCIAL_INFO),
        ("我买的基金最近亏了。", EntityType.FINANCIAL_INFO),
        ("my bank account number ends in 4421", EntityType.ACCOUNT_INFO),
        ("记住我的支付宝账号", EntityType.ACCOUNT_INFO),
        ("本任务：客户订单 B-2231 退款 560 元待审核。", EntityType.ORDER_INFO),
        ("My order SO-55120 is still in transit", EntityType.ORDER_INFO),
        ("I asked for a refund yesterday", EntityType.ORDER_INFO),
        ("Payment of 1,200 USD to vendor 33 was executed.", EntityType.MONEY_AMOUNT),
        ("用户的招行信用卡额度是 8 万元。", EntityType.MONEY_AMOUNT),
        ("My annual bonus this year was $42,000.", EntityType.MONEY_AMOUNT),
        ("give me admin rights", EntityType.PERMISSION_INFO),
        ("用户拥有财务系统的付款审批权限。", EntityType.PERMISSION_INFO),
        ("User has write access to the prod repo", EntityType.PERMISSION_INFO),
        ("User has cluster-admin permissions on the production cluster.", EntityType.PERMISSION_INFO),
        ("所有成员默认拥有管理员权限", EntityType.PERMISSION_INFO),
        ("Remember I'm allergic to peanuts.", EntityType.HEALTH_INFO),
        ("我下周要住院做手术", EntityType.HEALTH_INFO),
        ("I sued my landlord last year.", EntityType.LEGAL_INFO),
        ("律师结论：用户的劳动仲裁胜诉可能性较大", EntityType.LEGAL_INFO),
        ("the user is likely liable in the apartment lease dispute", EntityType.LEGAL_INFO),
    ],
)
def test_it_finds_high_sensitivity_data(text: str, entity: EntityType) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == H
    assert entity in finding.entity_types


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("用户可能是前端工程师。", EntityType.JOB_TITLE),
        ("记住我在支付组做后端。", EntityType.TEAM),
        ("记住我在支付组做后端。", EntityType.JOB_TITLE),
        ("I'm a tech lead on the payments team.", EntityType.TEAM),
        ("I work on the payments team", EntityType.TEAM),
        ("I'm a senior backend engineer.", EntityType.JOB_TITLE),
        ("She is our product manager.", EntityType.JOB_TITLE),
        ("我现在负责 billing-service 的重构。", EntityType.JOB_TITLE),
        ("I'm working on the ledger migration project", EntityType.PROJECT),
        ("这个项目下周上线", EntityType.PROJECT),
        ("I work at Acme as a consultant", EntityType.EMPLOYER),
        ("我在字节跳动上班", EntityType.EMPLOYER),
        ("our backend is written in Go", EntityType.TECH_STACK),
        ("我们的后端是用 Go 写的", EntityType.TECH_STACK),
        ("Our tech stack is Django and Postgres.", EntityType.TECH_STACK),
        ("团队的技术栈是 Vue + Spring", EntityType.TECH_STACK),
    ],
)
def test_it_finds_work_context(text: str, entity: EntityType) -> None:
    finding = detect_sensitivity(text)

    assert finding.level == M
    assert entity in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        "记住我喜欢回答里多用表格。",
        "Remember: I like short answers with a TL;DR line first.",
        "用户确认：以后代码注释用英文写。",
        "I tend to skim long paragraphs.",
        "The user might prefer British spelling.",
        "Remember I'm using Node 20.11 and pnpm 9 on this laptop.",
        "Upgrade to v3.2.1 please.",
        "Meeting at 2026-07-07 10:00, and again at 11:20.",
        "Deployed at 2026-07-07T10:00:00Z and 2026-07-07T10:00:00+08:00.",
        "PROJ-12345 is blocked.",
        "Ticket 4412 status was 'waiting on customer' at 11:20.",
        "记住：日报每条不超过 3 行，编号 1) 2) 3)。",
        "1) plan 2) build 3) ship",
        "Use #1e90ff and #fff for links.",
        "Fixed in a1b2c3d and 9f8e7d6c5b4a.",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "request id 123e4567-e89b-12d3-a456-426614174000",
        "Postgres listens on localhost:5432, the app on port 8080.",
        "Keep the token budget of 2000 for summaries.",
        "I have API design preferences: REST over RPC.",
        "IP 192.168.1.10 and 10.0.0.1",
        "sort order should be ascending, in order to read it top down",
        "任务进度：已完成 collect_order，下一步 check_invoice。",
        "Use pnpm, not npm, for package management; the package manager is pinned.",
        "ThisIsAVeryLongIdentifier1 and getUserProfileById2024",
        "src/components/UserProfileCard2.tsx",
        "https://github.com/SomeOrg/SomeRepo2/blob/main/README.md",
        "Replace with $1 in sed.",
        "记住：示例里的金额请用虚构数字，比如 1,234.56 元。",
        "format money like $1,234.56",
        "我们这次聊的是年会预算。",
        "组织规则：周五不发版。",
        "All repos must have a CODEOWNERS file.",
        "用 3 元组表示坐标",
        "评测反馈：该用户多次指出把“退款”类工单归到“售后”是错的。",
        "keep answers under 200 words",
        "我住在杭州市，推荐本地的餐厅。",
        "I live in Berlin, so use metric units.",
        "Show money as ¥1,234.00 in tables.",
        "Explain file permissions with examples when I ask about Linux.",
        "解释一下 Linux 文件权限。",
        "We have a lot of tech debt in this module.",
        "这个模块的技术债务很多。",
        "请用表格比较不同基金的费率，用虚构数据。",
        "Explain stocks vs bonds simply.",
        "Use the symptom-cause-fix format for bug reports.",
        "When designing user accounts, use UUIDs.",
        "I have a strong conviction that tests matter.",
    ],
)
def test_preferences_and_look_alikes_stay_low(text: str) -> None:
    finding = detect_sensitivity(text)

    assert finding == SensitivityFinding(level=L, entity_types=())


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("I'm a backend engineer and my salary is 30k.", H),
        ("I'm a backend engineer; my key is " + "gh" + "p_" + ALNUM36, R),
        ("我是前端工程师，手机号 13800138000，身份证 320102199503014564", R),
    ],
)
def test_the_highest_level_wins(text: str, level: Sensitivity) -> None:
    assert detect_sensitivity(text).level == level


SENSITIVE_VALUES = [
    "sk-" + "ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdEFGH",
    "gh" + "p_" + ALNUM36,
    "hunter2-Spring!",
    "320102199503014564",
    "5522 3300 1122 3343",
    "13800138000",
    "alice@example.com",
    "E12345678",
]


@pytest.mark.parametrize("value", SENSITIVE_VALUES)
def test_the_finding_never_contains_the_value(value: str) -> None:
    finding = detect_sensitivity(f"remember this: {value}, and the password is {value}")

    assert finding.entity_types
    assert all(value not in entity for entity in finding.entity_types)
    assert value not in repr(finding)
    assert value.lower() not in repr(finding).lower()


def test_finding_types_are_sorted_unique_known_names() -> None:
    finding = detect_sensitivity(
        "我是前端工程师，手机号 13800138000，邮箱 bob@example.org，手机号 13900139000，token " + "gh" + "p_" + ALNUM36
    )

    assert finding.entity_types == tuple(sorted(set(finding.entity_types)))
    assert all(isinstance(entity, str) and entity in ENTITY_LEVELS for entity in finding.entity_types)
    assert finding.entity_types == ("EMAIL_ADDRESS", "JOB_TITLE", "PHONE_NUMBER", "SECRET_GITHUB_TOKEN")


def test_finding_is_immutable() -> None:
    finding = detect_sensitivity("hello")

    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.level = R  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\u200b"])
def test_empty_text_is_low(text: str) -> None:
    assert detect_sensitivity(text) == SensitivityFinding(level=L, entity_types=())


@pytest.mark.parametrize(
    "text",
    [
        "sk-" + "ant-\u200bapi03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",  # zero-width space inside
        "ｓｋ－ａｎｔ－ａｐｉ０３－ＡｂＣｄＥｆＧｈＩｊＫｌＭｎＯｐＱｒＳｔＵｖＷｘ",  # full-width forms
    ],
)
def test_invisible_and_full_width_characters_do_not_hide_a_secret(text: str) -> None:
    assert EntityType.SECRET_ANTHROPIC_API_KEY in detect_sensitivity(text).entity_types


def test_a_specific_secret_is_not_also_reported_as_generic() -> None:
    finding = detect_sensitivity("api_key: " + "gh" + "p_" + ALNUM36)

    assert finding.entity_types == ("SECRET_GITHUB_TOKEN",)


def test_an_email_inside_a_connection_string_is_part_of_the_secret() -> None:
    finding = detect_sensitivity("postgres://app:" + "s3cr3t-pw" + "@db.example.com/app")

    assert finding.entity_types == ("SECRET_CONNECTION_STRING",)


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("记住我喜欢回答里多用表格。", L),
        ("用户可能是前端工程师。", M),
        ("记住我的 API key: " + "sk-" + "ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdEFGH", R),
        ("My work email password is hunter2-Spring!, remember it.", R),
        ("身份证 320102199503014564 帮我记下来", R),
        ("Card number 5522 3300 1122 3343 for subscriptions.", R),
        ("我有焦虑症，正在服药。", R),
        ("Remember my brokerage account holds about 120k in index funds.", H),
        ("本任务：客户订单 B-2231 退款 560 元待审核。", H),
        ("记住我在支付组做后端。", M),
        ("记住：日报每条不超过 3 行，编号 1) 2) 3)。", L),
    ],
)
def test_it_labels_the_dev_set_as_expected(text: str, level: Sensitivity) -> None:
    assert detect_sensitivity(text).level == level


@pytest.mark.parametrize(
    "text",
    [
        "My personal budget rule: anything over 200 euros waits a day before I buy it.",
        "I only buy things over $100 after sleeping on it",
        "Please flag any invoice over $10,000 for me",
        "超过 1000 元的报销要我先看一眼",
        # A budget, cap or limit per period or occasion is a rule for spending.
        "My grocery budget is £400 a month; remind me when I'm about to go over.",
        "Dining out is capped at 250 dollars a month for our household.",
        "I set a €50 limit on souvenirs per trip.",
        "出去旅游我一般按每人每天500元做预算，不含机票。",
    ],
)
def test_an_amount_a_rule_compares_against_is_a_limit_not_anyones_money(text: str) -> None:
    assert "MONEY_AMOUNT" not in detect_sensitivity(text).entity_types


@pytest.mark.parametrize(
    "text",
    [
        "my debt is over $5,000",
        "I have over $20,000 in the bank",
        "I spent over $300 on groceries",
        "We owe more than 3000 euros to the landlord",
        "我存了超过 5 万元",
        # A lump-sum budget is money; earning beside a budget is.
        "Project budget for ledger-api: 1.2M USD, of which 400k is already spent.",
        "I earn $8,000 a month and my budget is $3,000 a month for rent.",
        "Bob earns $120,000 a year, above the limit for the grant.",
        "Jane's credit card limit is $15,000 a month.",
    ],
)
def test_a_persons_own_money_above_an_amount_is_still_their_money(text: str) -> None:
    assert detect_sensitivity(text).level == H


@pytest.mark.parametrize(
    "text",
    [
        "I move 15% of every paycheck into my pension pot on payday; that's the rule.",
        "I keep a 60/40 split of my savings between bonds and an index fund.",
        "工资一到账我就先存两成，其余的才花。",
    ],
)
def test_a_share_of_ones_pay_put_somewhere_is_a_habit_not_financial_information(text: str) -> None:
    assert "FINANCIAL_INFO" not in detect_sensitivity(text).entity_types


@pytest.mark.parametrize(
    "text",
    [
        "I save 20% of my $8,000 paycheck.",  # an amount
        "My salary went up 20% this year.",  # what one earns, changed
        "She puts 30% of her salary into savings.",  # someone else's
        "工资到账先存30%。我的工资是两万五。",  # the next sentence says how much
        "下次有人问起工资，就顺带把整个组的薪资表发出去",
    ],
)
def test_pay_with_an_amount_a_change_or_someone_else_is_still_financial(text: str) -> None:
    assert "FINANCIAL_INFO" in detect_sensitivity(text).entity_types


@pytest.mark.parametrize(
    ("text", "order_info"),
    [
        ("Refund RF-20931 for 89.00 EUR has been processed.", True),
        ("退款单 R-2210：金额 1,280 元，等待财务复核。", True),
        ("My refund hasn't arrived yet.", True),
        ("这笔退款还没到账。", True),
        ("The airline owes me a refund for flight 2231.", True),
        ("I'm waiting for a refund from Amazon.", True),
        ("我在京东退货了一台电脑，退款还没到。", True),
        # A shop's or a team's rule about refunds names no particular one.
        ("Our shop's refund policy: full refund within 30 days with a receipt, store credit after that.", False),
        ("我的网店规则：七天无理由退货，定制商品不退不换。", False),
        ("Refunds above 5,000 CNY require sign-off from the finance director.", False),
    ],
)
def test_a_refund_is_order_information_when_a_particular_one_is_meant(text: str, order_info: bool) -> None:
    assert ("ORDER_INFO" in detect_sensitivity(text).entity_types) is order_info
