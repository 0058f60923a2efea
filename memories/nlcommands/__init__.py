"""Natural-language memory commands (§18.2): a deterministic parser, a plan, an explicit execution.

``command_run`` is what the "My memories" command box and ``POST /api/v1/commands`` call.
"""

from memories.nlcommands.execute import CommandResult, command_execute, command_run
from memories.nlcommands.parser import DESTRUCTIVE_INTENTS, Intent, ParsedCommand, parse_command
from memories.nlcommands.plan import Missing, Plan, command_plan

__all__ = [
    "DESTRUCTIVE_INTENTS",
    "CommandResult",
    "Intent",
    "Missing",
    "ParsedCommand",
    "Plan",
    "command_execute",
    "command_plan",
    "command_run",
    "parse_command",
]
