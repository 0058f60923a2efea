"""What the session services refuse: bad input (the API's 400, naming the field) and a move the session's
state doesn't allow (409). Messages name fields and rules, never content."""

from __future__ import annotations


class SessionInputError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class SessionStateError(Exception):
    """The session can't do that now (it ended, there is nothing to pop, the task is archived, …)."""

    def __init__(self, message: str, *, code: str = "invalid_state") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
