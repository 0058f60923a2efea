"""What a command will do, and what it did, in words a person reads (translated; never memory content)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from memories.nlcommands.execute import CommandResult
from memories.nlcommands.parser import Intent
from memories.nlcommands.plan import Missing, Plan


def intent_label(intent: Intent) -> str:
    return {
        Intent.REMEMBER: _("Remember this"),
        Intent.DONT_SAVE: _("Don't save this session"),
        Intent.FORGET_RECENT_PROJECT: _("Forget the project I just mentioned"),
        Intent.LIST: _("What do you remember about me?"),
        Intent.DELETE_ABOUT: _("Delete all memories about something"),
        Intent.STOP_USING: _("Stop using a preference"),
        Intent.CLEAR_SESSION: _("Clear this session's memories"),
        Intent.UNKNOWN: _("Not a command I know"),
    }[intent]


def plan_summary(plan: Plan) -> str:
    """One sentence: what will happen if the person confirms (or why nothing can happen)."""
    count = len(plan.memories)
    if plan.missing == Missing.INTENT:
        return _("I can't do that. Try one of the example commands below.")
    if plan.missing == Missing.SESSION:
        return _("Which session? Choose the session this command is about.")
    if plan.missing == Missing.TARGET:
        return {
            Intent.REMEMBER: _("Nothing is waiting for your confirmation. Say what to remember after a colon."),
            Intent.FORGET_RECENT_PROJECT: _("No memory about a project was found."),
            Intent.DELETE_ABOUT: _("No memory matches that."),
            Intent.STOP_USING: _("No active preference matches that."),
            Intent.CLEAR_SESSION: _("This session has no memories to clear."),
        }.get(plan.intent, _("Nothing matches."))
    intent = plan.intent
    if intent == Intent.LIST:
        return ngettext("%(count)d memory is active.", "%(count)d memories are active.", count) % {"count": count}
    if intent == Intent.REMEMBER:
        if plan.confirmation is not None:
            return _("The memory the agent asked about will be confirmed and used from now on.")
        return _("This will be checked by the memory policy and remembered as you asked.")
    if intent == Intent.DONT_SAVE:
        return _("Nothing more will be saved from this session. What is already saved stays until you clear it.")
    if intent == Intent.STOP_USING:
        return ngettext(
            "%(count)d memory will be paused: agents stop using it until you resume it.",
            "%(count)d memories will be paused: agents stop using them until you resume them.",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)d memory will be deleted. This can't be undone.",
        "%(count)d memories will be deleted. This can't be undone.",
        count,
    ) % {"count": count}


def result_summary(result: CommandResult) -> str:
    """One sentence: what happened."""
    plan = result.plan
    if result.needs_confirmation or not result.executed:
        return plan_summary(plan)
    count = len(result.changed)
    intent = plan.intent
    if intent == Intent.REMEMBER:
        if result.write is None:
            return _("Confirmed: the memory is now active.")
        decision = result.write.decision
        if decision.kind == "save":
            return _("Remembered.")
        if decision.kind == "ask_confirmation":
            return _("Saved, waiting for confirmation.")
        return _("Not remembered: %(reason)s") % {"reason": reason_text(decision.reason_code, decision.reason)}
    if intent == Intent.DONT_SAVE:
        return _("Done: nothing more will be saved from this session.")
    if intent == Intent.STOP_USING:
        return ngettext("%(count)d memory paused.", "%(count)d memories paused.", count) % {"count": count}
    return ngettext("%(count)d memory deleted.", "%(count)d memories deleted.", count) % {"count": count}


def reason_text(code: str, fallback: str = "") -> str:
    """The decision's reason, translated from its stable code (the stored text is English)."""
    texts = {
        "user_paused": _("you have paused memory."),
        "session_opt_out": _("you asked not to save this session."),
        "restricted_data": _("it contains data that is never stored (secrets, id or card numbers, diagnoses)."),
        "policy_override": _("it tries to change safety or approval rules."),
        "injection_classifier": _("it tries to change safety or approval rules."),
        "untrusted_source": _("it comes from an untrusted source."),
        "audit_only": _("it is a fact for the audit log, not a memory."),
        "not_authorized": _("only an administrator may set rules for everyone."),
        "too_sensitive_for_long_term": _("it is too sensitive to keep long-term."),
        "transient": _("it is only relevant for now."),
        "low_confidence": _("the agent was not sure enough."),
        "unread_language": _("memories are checked in English and Chinese only; say it in one of them."),
    }
    return texts.get(code, fallback or code)
