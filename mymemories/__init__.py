"""The pages a person uses in the browser: "My memories" (list, edit, history, confirmations, what the
agent sees, commands, settings, export and erasure) and their invitations.

Sits above the apps it shows: it may import ``memories``, ``conversations``, ``governance``, ``audit``
and ``vault``; nothing below imports it. Views check the person, then call services or selectors.
"""
