"""Example commands, shown to people and agents when a command isn't understood."""

EXAMPLES = {
    "zh": [
        "记住这个偏好：回答用中文",
        "这只是本次任务，不要保存",
        "忘掉我刚才说的项目",
        "查看你记住了什么",
        "删除所有关于 X 的记忆",
        "以后不要根据这个偏好回答",
        "清空本会话记忆",
    ],
    "en": [
        "remember this preference: answer in Chinese",
        "this is just for this task, don't save it",
        "forget the project I just mentioned",
        "what do you remember about me",
        "delete all memories about X",
        "stop using this preference",
        "clear this session",
    ],
}
