"""§17.3 alert rules: thresholds from the tenant's policy document, judged on one closed window.

The policy's ``alerts`` object (fixtures/default_policy.json) sets them; a document without it, or
without some keys, gets the defaults below. Each rule compares the window with the mean of the
``baseline_windows`` windows before it:

- ``write_spike``: writes ≥ ``write_spike_min_writes`` and > ``write_spike_factor`` × the baseline mean;
- ``reject_rate_drop``: the window and the baseline both have ≥ ``reject_rate_min_writes`` writes, the
  baseline rejected some, and the window's reject rate < ``reject_rate_drop_factor`` × the baseline's;
- ``sensitive_spike``: high/restricted detections ≥ ``sensitive_spike_min_detections`` and
  > ``sensitive_spike_factor`` × the baseline mean;
- ``cross_scope_read``: cross-scope reads > ``cross_scope_reads_max`` (0: any one);
- ``stale_use``: stale memories injected > ``stale_uses_max`` (0: any one);
- ``context_token_growth``: requests ≥ ``context_token_min_requests`` and mean tokens per request
  > ``context_token_growth_factor`` × the baseline's mean.

Pure: no database here (``monitoring.alerts`` reads the counts and records what fires).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from governance.policy import PolicyDocumentError


@dataclass
class Counts:
    """One bucket's (or one window's) counters."""

    writes: int = 0
    saved: int = 0
    asked: int = 0
    rejected: int = 0
    sensitive: int = 0
    restricted: int = 0
    conflicts: int = 0
    cross_scope: int = 0
    stale: int = 0
    requests: int = 0
    tokens: int = 0
    tokens_max: int = 0

    @property
    def reject_rate(self) -> float | None:
        return self.rejected / self.writes if self.writes else None

    @property
    def tokens_avg(self) -> float | None:
        return self.tokens / self.requests if self.requests else None

    def add(self, other: Counts) -> None:
        for name in self.__dataclass_fields__:
            if name == "tokens_max":
                self.tokens_max = max(self.tokens_max, other.tokens_max)
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


class AlertKind(StrEnum):
    WRITE_SPIKE = "write_spike"
    REJECT_RATE_DROP = "reject_rate_drop"
    SENSITIVE_SPIKE = "sensitive_spike"
    CROSS_SCOPE_READ = "cross_scope_read"
    STALE_USE = "stale_use"
    CONTEXT_TOKEN_GROWTH = "context_token_growth"


@dataclass(frozen=True)
class AlertThresholds:
    window_hours: int = 1
    baseline_windows: int = 24
    write_spike_factor: float = 3.0
    write_spike_min_writes: int = 20
    reject_rate_drop_factor: float = 0.5
    reject_rate_min_writes: int = 20
    sensitive_spike_factor: float = 3.0
    sensitive_spike_min_detections: int = 5
    cross_scope_reads_max: int = 0
    stale_uses_max: int = 0
    context_token_growth_factor: float = 1.5
    context_token_min_requests: int = 10


# Whole numbers that must be at least 1 (a window, counts that make a spike meaningful)...
_POSITIVE_INTS = {
    "window_hours",
    "baseline_windows",
    "write_spike_min_writes",
    "reject_rate_min_writes",
    "sensitive_spike_min_detections",
    "context_token_min_requests",
}
# ...or at least 0 (how many are tolerated: 0 means any one fires).
_NON_NEGATIVE_INTS = {"cross_scope_reads_max", "stale_uses_max"}
_LIMITS = {"window_hours": 24, "baseline_windows": 168}


def alert_thresholds_from_document(document: dict[str, Any]) -> AlertThresholds:
    """The thresholds in a policy document; defaults for what it leaves out. Raises PolicyDocumentError."""
    raw = document.get("alerts", {})
    if not isinstance(raw, dict):
        raise PolicyDocumentError("alerts must be an object of thresholds")
    known = {f.name for f in fields(AlertThresholds)}
    for name in raw:
        if name not in known:
            raise PolicyDocumentError(f"alerts.{name} is not a known threshold")
    values: dict[str, Any] = {}
    for name, value in raw.items():
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if name in _POSITIVE_INTS or name in _NON_NEGATIVE_INTS:
            low = 1 if name in _POSITIVE_INTS else 0
            if not number or int(value) != value or value < low or value > _LIMITS.get(name, 10**9):
                bound = f" and at most {_LIMITS[name]}" if name in _LIMITS else ""
                raise PolicyDocumentError(f"alerts.{name} must be a whole number of at least {low}{bound}")
            values[name] = int(value)
        else:
            if not number or value <= 0:
                raise PolicyDocumentError(f"alerts.{name} must be a number above 0")
            if name == "reject_rate_drop_factor" and value >= 1:
                raise PolicyDocumentError(f"alerts.{name} must be below 1 (a drop)")
            values[name] = float(value)
    return AlertThresholds(**values)


@dataclass(frozen=True)
class Firing:
    kind: AlertKind
    observed: float
    threshold: float
    baseline: float | None


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def alerts_judge(window: Counts, baseline: list[Counts], thresholds: AlertThresholds) -> list[Firing]:
    """Which alerts this window raises, given the windows before it (oldest first)."""
    t = thresholds
    firing: list[Firing] = []
    writes_mean = _mean([c.writes for c in baseline])
    writes_limit = max(t.write_spike_factor * writes_mean, t.write_spike_min_writes - 1)
    if window.writes >= t.write_spike_min_writes and window.writes > t.write_spike_factor * writes_mean:
        firing.append(Firing(AlertKind.WRITE_SPIKE, window.writes, writes_limit, writes_mean))

    base_writes = sum(c.writes for c in baseline)
    base_rejected = sum(c.rejected for c in baseline)
    rate = window.reject_rate
    if (
        rate is not None
        and window.writes >= t.reject_rate_min_writes
        and base_writes >= t.reject_rate_min_writes
        and base_rejected
    ):
        base_rate = base_rejected / base_writes
        if rate < t.reject_rate_drop_factor * base_rate:
            firing.append(Firing(AlertKind.REJECT_RATE_DROP, rate, t.reject_rate_drop_factor * base_rate, base_rate))

    sensitive_mean = _mean([c.sensitive for c in baseline])
    if (
        window.sensitive >= t.sensitive_spike_min_detections
        and window.sensitive > t.sensitive_spike_factor * sensitive_mean
    ):
        limit = max(t.sensitive_spike_factor * sensitive_mean, t.sensitive_spike_min_detections - 1)
        firing.append(Firing(AlertKind.SENSITIVE_SPIKE, window.sensitive, limit, sensitive_mean))

    if window.cross_scope > t.cross_scope_reads_max:
        firing.append(Firing(AlertKind.CROSS_SCOPE_READ, window.cross_scope, t.cross_scope_reads_max, None))
    if window.stale > t.stale_uses_max:
        firing.append(Firing(AlertKind.STALE_USE, window.stale, t.stale_uses_max, None))

    base_requests = sum(c.requests for c in baseline)
    avg = window.tokens_avg
    if avg is not None and window.requests >= t.context_token_min_requests and base_requests:
        base_avg = sum(c.tokens for c in baseline) / base_requests
        if base_avg > 0 and avg > t.context_token_growth_factor * base_avg:
            firing.append(
                Firing(AlertKind.CONTEXT_TOKEN_GROWTH, avg, t.context_token_growth_factor * base_avg, base_avg)
            )
    return firing
