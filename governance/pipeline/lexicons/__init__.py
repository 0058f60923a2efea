"""Deterministic zh+en lexicons the write pipeline classifies and guards with.

Each module compiles its patterns once at import. They match against :func:`text.prepare`d text
(NFKC, straight quotes, lower case), so full-width input and curly quotes need no special cases.
"""
