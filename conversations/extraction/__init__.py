"""Phase 1 of seed 000's memory pipeline: from a finished session to governed memory candidates.

``sanitize`` turns a session's events into what an extractor may read (system and developer messages
and memory-excluded fragments dropped, restricted sentences redacted); ``rules`` is the deterministic,
offline extractor, ``llm`` the optional one (an OpenAI-compatible endpoint, strict JSON schema); ``run``
claims eligible sessions and proposes every candidate through ``memories.services.write.memory_write``
with its source session and events. Phase 2 (consolidation) is ``memories.lifecycle.consolidate``.

Part of ``conversations``: may import ``memories``, ``governance``, ``audit``, ``vault`` and ``dbkit``.
"""
