"""Multi-agent handoffs (§15): what one agent passes to another to continue a task, and nothing else.

A handoff is built from the task's state in its session and the memories allowed to cross (the task's own
state and tool-result references, the subject's confirmed preferences, approved rules), never the history,
another agent's reasoning, an unconfirmed inference, high-sensitivity text or another subject's data. It
stores ids only: the receiving agent reads what is still live under those ids.

Above ``conversations`` and ``memories``: it may import them and everything below (``governance``,
``audit``, ``vault``, ``dbkit``); the API surfaces import it.
"""
