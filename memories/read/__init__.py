"""The read path (DESIGN.md "The read path", seed §9): what an agent may see, ranked and rendered.

``request → scope & permission filter (scope.py) → drop inactive/expired/paused → rank (ranking.py,
segment.py) → top-k within a token budget (tokens.py) → label and render (render.py) → conflicts with
the current instruction (conflicts.py)``. ``context.memory_context_build`` is the one entry point.

A subject with a retrieval index (index.py: what ranking reads of each memory, features.py) is ranked
from it (indexed.py): the same filter and the same ranking, with only the memories that can be shown opened.
"""
