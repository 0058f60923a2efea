"""The policy engine: tenancy and roles (``models``, ``vocabulary``, ``agents``, ``permissions``), the
tenant's versioned policy, the write pipeline and its stages (``pipeline/``), the recognizers for PII,
secrets and poisoning (``recognizers/``), people, invitations and alert thresholds.

It knows nothing of memory records: it may import ``audit``, ``vault`` and ``dbkit``, never ``memories``
or anything above. The audit sink may import its tenancy modules (``models``, ``vocabulary``) only.
"""
