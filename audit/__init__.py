"""The audit sink: append-only, hash-chained events per tenant (never memory content), the one writer
(``services.audit_record``), search, export with a signed manifest, and verification.

Services of every app write to it; it imports tenancy (``governance.models``), ``vault`` and ``dbkit``
and nothing else of the product.
"""
