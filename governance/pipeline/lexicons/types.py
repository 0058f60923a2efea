"""Cues for inferring a memory type from content (§6.2), in Chinese and English.

:func:`infer_type` applies them in a fixed order, most specific first; see its docstring for why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from governance.pipeline.lexicons.conflict import AspectValues, has_style_aspect
from governance.pipeline.lexicons.text import compile_any, en, prepare, zh
from governance.pipeline.lexicons.transient import durable_role, lasting, tells_more, without_provenance
from governance.vocabulary import Level, MemoryType, SourceType

_CORRECTION = compile_any(
    en(
        "correction",
        "correct(?:ed|ing)? (?:that|this|it|myself)",
        "to correct",
        "actually",
        "i meant",
        "i was wrong",
        "that's wrong",
        "that is wrong",
        "not \\w+(?: \\w+){0,3},? but",
        "should be [^.]{1,40}, not",
        "(?:is|are|was) wrong",
        "mistaken",
        "misclassified",
        "mislabell?ed",
        "(?:belongs|should go) (?:in|under|to|with)",
    ),
    zh(
        "更正",
        "纠正",
        "改正",
        "订正",
        "纠偏",
        "说错了",
        "搞错了",
        "弄错了",
        "记错了",
        "不对[，,。]",
        "其实是",
        "实际上是",
        "应该是",
        "应改为",
        "应归",
        "应该(?:归|属于|放(?:到|在)|归到|算|改为|改成)",
        "(?:分|归|标|记|写|填|划)错了?",
        "(?:上次|之前|刚才|前面|上回)(?:[^，。]{0,8})?(?:错了|不对|有误)",
        "不是(?:(?!。).){1,20}而是",
    ),
)
_ORGANIZATION_RULE = compile_any(
    en(
        "org(?:ani[sz]ation)?(?:-wide)? (?:rules?|polic(?:y|ies)|standards?)",
        "company(?:-wide)? (?:rules?|polic(?:y|ies)|standards?|requirements?)",
        "team (?:rules?|polic(?:y|ies)|conventions?|standards?)",
        "all (?:repos|repositories|projects|teams|services|employees|engineers|staff) "
        "(?:must|should|need|have to|are required)",
        "everyone (?:must|should|needs to|has to)",
        "across the (?:org|organi[sz]ation|company)",
    ),
    zh(
        "组织规则",
        "组织规范",
        "公司规定",
        "公司规则",
        "公司要求",
        "公司政策",
        "公司规范",
        "全公司",
        "全员",
        "团队规范",
        "团队规则",
        "团队约定",
        "部门规定",
        "所有(?:仓库|项目|团队|员工|服务)(?:都)?(?:必须|需要|要|应)",
    ),
)
_PROJECT_RULE = compile_any(
    en(
        "project rules?",
        "(?:in|for) (?:this|the|our) (?:repo|repository|project|codebase)",
        "(?:this|the) (?:repo|project)'s (?:rules?|conventions?)",
        # "For ledger-api, run …": a named repo/service, then an instruction.
        "(?:for|in) [a-z0-9]+(?:[-_.][a-z0-9]+)+(?: (?:repo|project|service))?,",
    ),
    zh("项目规则", "项目规范", "项目约定", "本项目", "该项目", "这个项目(?:的)?(?:规范|规则|约定|里|中)", "仓库规范"),
)
_TASK_STATE = compile_any(
    en(
        "task (?:progress|status|state)",
        "current task",
        "next step",
        "step \\d+",
        "completed step",
        "in progress",
        "blocked on",
        "waiting for approval",
        "pending (?:review|approval)",
        # Progress on a piece of work: something just finished, what comes next.
        "halfway(?: done| through)?",
        "(?:is|comes) next",
        "next (?:i'll|i will|up|i need to|we'll)",
        "then (?:re)?(?:deploy|run|test|merge|ship|check)\\w*",
        "now (?:validating|running|checking|testing|fixing|migrating|uploading|importing)",
        "waiting (?:for|on) (?:the |a |their |his |her )?[\\w'-]+(?:'s)? (?:reply|response|answer|review|"
        "approval|sign-?off)",
        "left to do",
    ),
    zh(
        "任务进度",
        "任务状态",
        "当前任务",
        "下一步",
        "第\\s*\\d+\\s*步",
        "进行到",
        "已完成\\s*\\S",
        "待(?:审核|审批|处理|确认|填写|补充|上传)",
        "本任务",
        "(?:做|改|跑|弄|写|填|传)完(?:了|再|之后|后)",
        "接下来(?:要|我要|再|就)",
        "然后再",
        "进行到",
        "(?:做|完成|改)了一半",
        "还(?:差|剩)(?:[^，。]{0,6})?(?:步|项|个)",
    ),
)
_TOOL_RESULT = compile_any(
    en(
        "tool (?:returned|result|output)",
        "(?:query|lookup|search|api) result",
        "(?:tool|api|query|lookup|search) returned",
        "status (?:was|is) [^.]{1,60} at \\d{1,2}:\\d{2}",
        "(?:ticket|order|case|invoice|job) #?\\w*\\d+ (?:status|state)",
    ),
    zh("工具返回", "查询结果", "查询时", "接口返回", "调用结果", "(?:订单|工单|单号)\\s*\\w*\\d+\\s*(?:当前)?状态"),
)
_CONSTRAINT = compile_any(
    en(
        "never",
        # "I always skim" is a habit (a preference), "always run the tests" an instruction.
        "(?<!i )always",
        "must(?: not)?",
        "mustn't",
        "do not",
        "don't",
        "cannot",
        "can't",
        "shall not",
        "should (?:never|always|not)",
        "not allowed",
        "forbidden",
        "prohibited",
        "make sure (?:to|you)",
        "before (?:every|each|any)",
    ),
    zh(
        "不要",
        "不许",
        "不准",
        "不得",
        "禁止",
        "严禁",
        "必须",
        "务必",
        "一定要",
        "千万别",
        "绝不",
        "永远不",
        "不能",
        "每次.{0,10}(?:前|后)",
    ),
)
_PREFERENCE = compile_any(
    en(
        "prefer\\w*",
        "like",
        "likes",
        "love",
        "enjoy",
        "favou?rite",
        "want (?:answers|replies|responses|output|it)",
        "(?:answers?|replies|respond|responses?) in",
        "tend to",
        "rather have",
        "style",
        "format",
    ),
    zh(
        "喜欢",
        "偏好",
        "偏爱",
        "更想",
        "倾向",
        "习惯",
        "希望(?:回答|回复|输出)",
        "用\\S{1,12}?(?:写|回答|回复|输出|表示)",
        "多用",
        "少用",
        "风格",
        "格式",
    ),
)
_PROFILE = compile_any(
    en(
        "i(?:'m| am) (?:a|an|the) ",
        "i(?:'m| am) (?:using|on|based|working|responsible|in charge)",
        "i work (?:on|at|in|for|as|with)",
        "i (?:use|lead|manage|own|maintain|run|build|develop)",
        "my (?:role|job|title|team|stack|setup|laptop|department|manager|company|project)s?",
        "(?:engineer|developer|designer|manager|analyst|scientist|architect|admin|lead)s?(?![a-z])",
        "(?:the )?user (?:is|works|uses|leads|manages|owns)",
    ),
    zh(
        "我是",
        "我在\\S{1,12}?(?:做|工作|负责|当|任职|上班|实习)",
        "我负责",
        "我的(?:职位|岗位|角色|工作|团队|部门|项目|技术栈|电脑)",
        "我用的是",
        "我常用",
        "我们(?:组|团队|部门)",
        "工程师",
        "开发",
        "经理",
        "设计师",
        "架构师",
        "技术栈",
        "用户(?:可能)?是",
    ),
)
_TEMPORARY = compile_any(
    en(
        "this (?:session|conversation|chat|time|call|meeting)",
        "today",
        "tonight",
        "right now",
        "for now",
        "we(?:'re| are) (?:talking|discussing|looking at|working on)",
    ),
    zh(
        "这次",
        "本次",
        "此次",
        "这回",
        "本轮",
        "今天",
        "今晚",
        "刚才",
        "当前(?:会话|对话|讨论)",
        "我们(?:正在|现在)?(?:聊|讨论|谈)",
    ),
)


@dataclass(frozen=True)
class TypeGuess:
    type: MemoryType
    cue: str  # which rule decided: "source", "correction", …, "default"

    @property
    def from_content(self) -> bool:
        """Whether the content itself pointed at the type (not the source, the scope or a default)."""
        return self.cue not in {"source", "scope", "default"}


def infer_type(
    text: str, *, level: Level, source: SourceType, aspects: Mapping[str, AspectValues] | None = None
) -> TypeGuess:
    """The memory type ``text`` most likely is.

    Order, most specific first: the source (a task state machine emits task states, a tool emits
    tool results); an explicit correction; organization and project rules (named, or implied by
    the scope level); task progress; tool-result references; a momentary remark ("this time",
    "today") with nothing lasting in it and nothing else told beside it; format/language/style (a
    preference even when phrased "never use tables"); constraints (never/always/must + an action);
    other preferences; profile facts. With no cue, the scope level decides.
    """
    prepared = prepare(text)
    if source == SourceType.TASK_STATE_MACHINE:
        return TypeGuess(MemoryType.TASK_STATE, "source")
    if source == SourceType.TOOL_RESULT:
        return TypeGuess(MemoryType.TOOL_RESULT_REF, "source")
    if _CORRECTION.search(prepared):
        return TypeGuess(MemoryType.CORRECTION, "correction")
    if _ORGANIZATION_RULE.search(prepared):
        return TypeGuess(MemoryType.ORGANIZATION_RULE, "organization_rule")
    if level in (Level.TENANT, Level.TEAM):
        return TypeGuess(MemoryType.ORGANIZATION_RULE, "scope")
    if _PROJECT_RULE.search(prepared):
        return TypeGuess(MemoryType.PROJECT_RULE, "project_rule")
    if level == Level.PROJECT:
        return TypeGuess(MemoryType.PROJECT_RULE, "scope")
    if _TASK_STATE.search(prepared):
        return TypeGuess(MemoryType.TASK_STATE, "task_state")
    if _TOOL_RESULT.search(prepared):
        return TypeGuess(MemoryType.TOOL_RESULT_REF, "tool_result_ref")
    observed = without_provenance(prepared)
    if (
        _TEMPORARY.search(observed)
        and not lasting(observed)
        and not durable_role(prepared)
        and not tells_more(prepared, besides=_TEMPORARY)
    ):
        return TypeGuess(MemoryType.TEMPORARY_CONTEXT, "temporary_context")
    if has_style_aspect(text, aspects):
        return TypeGuess(MemoryType.USER_PREFERENCE, "style")
    if _CONSTRAINT.search(prepared):
        return TypeGuess(MemoryType.CONSTRAINT, "constraint")
    if _PREFERENCE.search(prepared):
        return TypeGuess(MemoryType.USER_PREFERENCE, "preference")
    if _PROFILE.search(prepared):
        return TypeGuess(MemoryType.USER_PROFILE, "profile")
    return TypeGuess(_DEFAULT_BY_LEVEL[level], "default")


# With no cue at all: what each scope mostly holds.
_DEFAULT_BY_LEVEL = {
    Level.SESSION: MemoryType.TEMPORARY_CONTEXT,
    Level.TASK: MemoryType.TASK_STATE,
    Level.USER: MemoryType.USER_PROFILE,
    Level.PROJECT: MemoryType.PROJECT_RULE,
    Level.TEAM: MemoryType.ORGANIZATION_RULE,
    Level.TENANT: MemoryType.ORGANIZATION_RULE,
}
