"""The session selectors: every read of sessions, each taking the tenant (and the subject where a person
asks). ``sessions`` finds them, ``events`` walks the tree, ``state`` rebuilds state at any event,
``context`` builds the projection for the next model call, ``tasks`` reads task state."""
