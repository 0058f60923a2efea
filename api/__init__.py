"""The JSON API over HTTP (``/api/v1/``) for agents (a Bearer key) and for people (their browser session).

Sits above the apps it serves: it may import ``memories``, ``conversations``, ``audit``, ``governance``,
``vault`` and ``dbkit``; nothing below imports it. Views validate shape and call services or selectors.
"""
