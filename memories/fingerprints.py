"""Keyed fingerprints of normalized content: equality for dedup without decrypting anything."""

import hashlib
import hmac

from governance.pipeline.normalize import normalize_content
from vault.datakeys import fingerprint_key


def content_fingerprint(*, tenant_id: int, content: str) -> str:
    key = fingerprint_key(tenant_id=tenant_id)
    return hmac.new(key, normalize_content(content).encode("utf-8"), hashlib.sha256).hexdigest()
