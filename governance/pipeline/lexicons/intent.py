"""Rule 4 by meaning: what an instruction aimed at the assistant is *for*, read from its structure.

The intent classes a memory must never carry (issue 19, after OWASP LLM01 and MITRE ATLAS) are found
by combining word fields (:mod:`lexicons.fields`) with the grammar of an instruction
(:mod:`lexicons.directive`), not by listing phrasings:

- a control loosened — approvals, audit, permissions, verification, the safety rules
  (:func:`lexicons.loosening.loosening`: an operation that takes a control away, not negated);
- the assistant's own setup revealed (a revealing verb + its prompt, instructions, configuration,
  tools or credentials, owned by *you* or hidden/system/initial);
- other people's data reached (data possessed by someone other than the speaker + a verb that
  delivers it);
- the assistant's identity reassigned (you are now …, act as, pretend, 扮演, 你现在是, a "mode");
- obedience without conditions, or to text from elsewhere (do whatever it says, 照做, decode and follow);
- the speaker or a text ranked above the operator's setup (my instructions outrank the platform);
- an instruction that copies itself into what the assistant writes;
- instructions to tell *other people* to hand over credentials or to visit a link (phishing);
- exfiltration (data sent to an address), forged prompt tags;
- standing orders that loosen how the assistant answers and acts (:mod:`lexicons.standing_orders`):
  caveats and refusals dropped, the goal hijacked, credentials handed to whoever asks, unverified
  plugins, packages or sources trusted, actions taken without confirmation.

:func:`addressed_to_ai` finds text that speaks to whatever AI reads it ("note to the screening
model", "致读取本文档的智能助手"); from a tool result, web page or document that is an injection
whatever it asks (§13.1). :func:`behavioural_instruction` tells an instruction about the assistant's
*conduct* (act on systems, people or data; become someone else) from one about its answers.
"""

from __future__ import annotations

from governance.pipeline.lexicons.authority import (
    accepts_secret_unchecked,
    forges_source,
    makes_planted_text_authoritative,
    template_renders_setup,
)
from governance.pipeline.lexicons.conduct import (
    behavioural_instruction,
    conduct_on_controls,
    instructs_assistant,
    names_work_convention,
    sets_assistant_conduct,
)
from governance.pipeline.lexicons.declared import declares_control_void, declares_data_free
from governance.pipeline.lexicons.harm_orders import orders_harmful_output
from governance.pipeline.lexicons.intent_forms import (
    copies_itself,
    exfiltrates,
    forged_tags,
    obeys_unconditionally,
    phishing,
    ranks_above_setup,
    speaks_to_ai,
)
from governance.pipeline.lexicons.intent_targets import reaches_others, reassigns_identity, reveals_setup
from governance.pipeline.lexicons.loosening import loosening
from governance.pipeline.lexicons.standing_orders import standing_order
from governance.pipeline.lexicons.text import prepare

# (class name, check): the first that holds names the intent.
_CLASSES = (
    ("tag_forgery", forged_tags),
    ("tag_forgery", forges_source),
    ("unconditional_obedience", makes_planted_text_authoritative),
    ("verification", accepts_secret_unchecked),
    ("prompt_leak", template_renders_setup),
    ("exfiltration", exfiltrates),
    ("prompt_leak", reveals_setup),
    ("others_data", reaches_others),
    ("persona", reassigns_identity),
    ("unconditional_obedience", obeys_unconditionally),
    ("priority_over_setup", ranks_above_setup),
    ("self_replication", copies_itself),
    ("phishing", phishing),
    ("harmful_output", orders_harmful_output),
    ("exfiltration", declares_data_free),
)


def injection_intent(text: str) -> str | None:
    """The intent class of an instruction a memory must never carry, or None."""
    prepared = prepare(text)
    for name, check in _CLASSES:
        if check(prepared):
            return name
    return loosening(prepared) or declares_control_void(prepared) or standing_order(prepared)


def addressed_to_ai(text: str) -> bool:
    """Whether ``text`` speaks to an AI that reads it, or asks to be written into its memory (an
    injection when it comes from outside)."""
    return speaks_to_ai(prepare(text))


__all__ = [
    "addressed_to_ai",
    "behavioural_instruction",
    "conduct_on_controls",
    "injection_intent",
    "instructs_assistant",
    "names_work_convention",
    "sets_assistant_conduct",
]
