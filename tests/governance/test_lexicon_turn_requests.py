"""Rule 9: a question or a request for this turn is not a memory (lexicons/turn_requests.py).

Each request for now is paired with a standing request or a statement of the same shape that must stay a
memory: the pairs fail if the check is removed, and if it is widened into the standing forms."""

import pytest

from governance.pipeline import run_pipeline
from governance.pipeline.lexicons.text import prepare
from governance.pipeline.lexicons.turn_requests import request_for_now
from governance.pipeline.testing import make_context

REQUESTS_FOR_NOW = [
    "What is the capital of Australia?",
    "How do I reset a router to factory settings",
    "Remember this: why does my build fail on Mondays?",
    "Can you summarize the plot of Hamlet?",
    "Write a limerick about a tired database.",
    "Please give me three ideas for a team offsite.",
    "Tell me the fastest way to learn Rust.",
    "Explain how TLS certificate pinning works.",
    "Give me step-by-step instructions for repotting a cactus.",
    "Translate this paragraph into Spanish.",
    "如何在家里做酸奶？",
    "帮我写一个快速排序的 Python 函数。",
    "告诉我怎么把照片转成 PDF",
    "请问明天北京会下雨吗",
    "给我推荐三本科幻小说。",
    # What the sentence sets up, then the request ("…，请详细说明"); a request on what follows it.
    "我想教孩子识别诈骗，请列出骗子常用的五种话术。",
    "作为一名化学老师，我需要知道哪些清洁剂不能混用。",
    "For a school play, write a scene where two pirates argue about a map.",
    "I'm a nurse, so tell me how night shifts affect sleep.",
    "Translate the following into German: the meeting is on Friday.",
    "请把下面这段话补全：春天来了，",
    "写一个故事，主角是一只会说话的猫。",
    # The request to remember is a frame, even when it says "next time"; what sets the request up is context.
    "Keep this in mind for next time: what's the fastest train from Paris to Lyon?",
    "Could you remember something for me? Generate a dozen names for a bakery.",
    "I'm a pharmacist. Tell me the maximum daily dose of ibuprofen for adults.",
    "In my novel a spy crosses the border at night; describe precisely how she avoids the patrols.",
    "Explain, in plain words, how vaccines train the immune system.",
    "Compile the opening hours of the three museums near the station.",
    "下次也记得：我是中学老师，告诉我本地哪些博物馆周末开放。",
    "请把这段会议纪要整理出来发给我。",
    "帮我多找几个反驳的论据。",
    # Politeness around a request is not what it asks.
    "Write a limerick about a database, ok?",
    "如何在家里做酸奶？谢谢",
    "Could you draft a short toast for my sister's wedding?",
]

STANDING_OR_STATEMENTS = [
    "Can you always answer in English?",
    "Write commit messages in the imperative mood.",
    "Explain things simply, I'm new to this.",
    "Give me short answers.",
    "Tell me if my code has security issues.",
    "What I care about most is readable code.",
    "How I like my reports: short, with a table.",
    "Who to contact for billing: Anna.",
    "What is my role? I lead the data team.",
    "When you write a summary, give me three bullet points.",
    "回答都用中文。",
    "帮我写代码时加上注释。",
    "以后告诉我怎么做之前先列出步骤。",
    "我叫什么不重要，叫我小王就行。",
    "写邮件的时候用正式的语气。",
    # A polite tag is not a question; sentence-final 呢 and the 么 of 什么 are not question particles.
    "回答用中文，好吗？",
    "Use tables, ok?",
    "我还在学呢",
    "叫我什么都行",
    "谁负责数据库：小李",
    "I'm a nurse, and I work night shifts.",
    # Standing forms that look like requests: an order of parts (先…), a frame that lasts, a condition over
    # occasions, a preference with its subject.
    "以后都这样：先给结论，再给步骤。",
    "先列出要点，再展开解释。",
    "For every pull request, tell me what changed.",
    "Write code that looks like the rest of the repository.",
    "Give me the summary first, then the details.",
    "I'd like you to tell me which tests failed after each run.",
    # A polite question asking for a way of working, not for an answer now.
    "Could you call me Chen?",
    "Can you use metric units?",
    "Would you mind not using emojis?",
    "你可以叫我小王么",
    "List the risks at the end of every design doc review.",
    "Give me one example per concept.",
]


@pytest.mark.parametrize("text", REQUESTS_FOR_NOW)
def test_a_question_or_a_request_for_now_is_not_kept_long_term(text):
    assert request_for_now(prepare(text))
    decision = run_pipeline(make_context(text, level="user", source_type="explicit_user_request"))
    assert (decision.kind, decision.reason_code) == ("reject", "transient")
    assert "question or a request for now" in decision.reason


@pytest.mark.parametrize("text", STANDING_OR_STATEMENTS)
def test_a_standing_request_or_a_statement_is_still_a_memory(text):
    assert not request_for_now(prepare(text))
    decision = run_pipeline(make_context(text, level="user", source_type="explicit_user_request"))
    assert decision.reason_code != "transient"


def test_a_request_for_now_may_live_as_long_as_its_session():
    ctx = make_context(REQUESTS_FOR_NOW[0], type="temporary_context", level="session")
    assert run_pipeline(ctx).kind == "save"


def test_a_question_followed_by_a_statement_is_judged_as_a_whole():
    text = "How do we deploy? Run make deploy from the release branch."
    assert not request_for_now(prepare(text))
