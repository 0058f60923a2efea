"""The admin and compliance console (``/console/``): rule approvals, policy, agent keys, people,
projects, metrics and alerts for tenant admins; audit search, export, verification and subject
requests for compliance officers.

Sits above the apps it shows: it may import ``monitoring``, ``memories``, ``conversations``,
``governance``, ``audit`` and ``vault``; nothing below imports it.
"""
