"""The secret model (recognizers/secret_model.py) and PII surface forms (recognizers/identity_forms.py)."""

import pytest

from governance.recognizers import detect_sensitivity


@pytest.mark.parametrize(
    "text",
    [
        'const ddAppKey = "b37a6bbcf058c5ce866e183b786aea4c4acca4a5";',
        "ENV MASTER_KEY=vv1az-hml3q-bp8sh-sbdks-fieto",
        '<add key="GeoPrivateToken" value="504ba470-4f38-4f64-87cd-dceea4b2a804" />',
        "这个是测试环境的Snyk 令牌，记住它：28f824d3-ea00-44d4-8281-df57cb748d36",
        "Remember my SonarQube token: squ_f85af980221cfcdf01466c9d63bdeeca0b7e3234",
        'my key: "ghr_PrEhCGUn" + "aBulJv7zAquk" + "ZlSux9FCvl3J" + "zF5z"',
        "p a s s w o r d is V6p; CSm% YDj-",
        "machine ftp.corp.local login backup password 9j3- AV+",
        "身份证 110101 1990 0307 8531",  # grouped digits; the check digit is verified
        "卡号 6222 0212 3456 7890 128",
        "SSN 845.06.8077",
        "香港身份证号：T291610(4)",
    ],
)
def test_it_finds_restricted_data_in_many_surface_forms(text):
    assert detect_sensitivity(text).level == "restricted"


@pytest.mark.parametrize(
    "text",
    [
        '请记住：示例里的数据库密码写成 os.environ["DB_PASSWORD"]，不要写死。',
        "token = os.environ['OPENAI_API_KEY']",
        "上下文 token 预算 4k，回答别太长",
        "I prefer a password manager",
        "commit 3f2a9c1 fixed the build",
        "Node 20.11 and Python 3.12",
        "Keep in mind: I am a physical therapist.",
    ],
)
def test_look_alikes_are_not_restricted(text):
    assert detect_sensitivity(text).level != "restricted"


def test_an_id_with_a_wrong_check_digit_near_an_id_word_is_high():
    assert detect_sensitivity("身份证 110101199003078532").level == "high"


def test_a_profession_is_not_a_health_fact():
    assert detect_sensitivity("I am a physical therapist.").level == "medium"


@pytest.mark.parametrize(
    "text",
    [
        "我是牙医，病历里的术语我都熟",
        "我是律师助理，主要处理诉讼材料",
        "我是药剂师，每天核对处方",
        "我是外科医生，每天给病人做手术",
        "我在银行工作，经常处理贷款审批",
        "I work as a pharmacist; I check prescriptions all day",
        "As a paralegal I draft litigation holds every week",
        "I'm an accountant; tax returns season is my busiest time",
        "I'm a nurse on medication rounds most mornings",
    ],
)
def test_the_words_of_a_persons_trade_are_their_work(text):
    assert detect_sensitivity(text).level == "medium"


@pytest.mark.parametrize(
    "text",
    [
        "I'm a pharmacist and I had surgery last month",
        "I'm a lawyer going through a divorce",
        "I'm a nurse and my blood pressure runs high",
        "I'm a software engineer and my salary is 30k",  # an engineer's trade names no money
        "I'm a lawyer and my prescription ran out",  # a lawyer's trade names no health
        "我是律师，我正在打离婚官司",
        "我是牙医，我的病历在协和",
        "我是护士，上周刚做了手术",
    ],
)
def test_the_persons_own_matters_stay_high_whatever_their_trade(text):
    assert detect_sensitivity(text).level == "high"


def test_a_diagnosis_stays_restricted_in_a_clinicians_text():
    assert detect_sensitivity("I'm a nurse; most of my patients are on dialysis").level == "restricted"


# BIP-39's test vector (the all-"abandon" phrase has a valid checksum) and a phrase beside its name.
SEED_WITH_CHECKSUM = " ".join(["abandon"] * 11 + ["about"])
SEED_NAMED = "wallet recovery phrase: legal winner thank year wave sausage worth useful legal winner thank yellow"


@pytest.mark.parametrize("text", [SEED_WITH_CHECKSUM, SEED_NAMED, "我的钱包助记词是 " + SEED_NAMED.split(": ")[1]])
def test_a_wallet_seed_phrase_is_a_secret(text):
    finding = detect_sensitivity(text)

    assert finding.level == "restricted"
    assert "SECRET_SEED_PHRASE" in finding.entity_types


@pytest.mark.parametrize(
    "text",
    [
        # Twelve list words in a row, no checksum and no seed word: ordinary prose.
        "please keep every answer short and simple and use a table when you can thank you",
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon",
    ],
)
def test_list_words_without_a_checksum_or_a_seed_word_are_not_a_seed(text):
    assert "SECRET_SEED_PHRASE" not in detect_sensitivity(text).entity_types


def test_the_secret_model_hints_cover_every_secret_word():
    from governance.recognizers.secret_model import _NAME_HINTS, SECRET_WORDS

    assert all(any(hint in word for hint in _NAME_HINTS) for word in SECRET_WORDS)
