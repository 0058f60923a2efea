"""The Sessions API (DESIGN.md "Interfaces"): sessions, their events, fork, pop, state, compaction, the
context projection, and task state. One small class per operation, over ``conversations``' services and
selectors; serializers check shape, the services the rest."""
