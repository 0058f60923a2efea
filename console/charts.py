"""Charts for the metrics page, drawn on the server as inline SVG: no chart library, no script, no
external service, and the page's Content-Security-Policy stays strict (no inline styles: colours
come from CSS classes). This module only does the geometry; ``console/_chart.html`` writes the SVG
markup (autoescaped), with a data table beside it for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

WIDTH, HEIGHT = 640, 190
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 24
X_LABELS = 8


@dataclass(frozen=True)
class Series:
    label: str
    css: str  # a class of console_admin.css: chart--a … chart--f
    values: Sequence[float | None]  # None: no data (a gap in a line)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass(frozen=True)
class Line:
    css: str
    segments: list[str]  # "x,y x,y …" per unbroken run
    dots: list[tuple[float, float, str]]


@dataclass
class Chart:
    key: str
    title: str
    unit: str
    kind: str  # bars | line
    labels: list[str]
    series: list[Series]
    width: int = WIDTH
    height: int = HEIGHT
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    grid: list[tuple[float, str]] = field(default_factory=list)
    x_labels: list[tuple[float, str]] = field(default_factory=list)
    legend: list[tuple[str, str, str]] = field(default_factory=list)  # (label, css, total or peak)
    rows: list[tuple[str, list[str]]] = field(default_factory=list)  # the data table

    @property
    def plot_bottom(self) -> float:
        return self.height - BOTTOM

    @property
    def plot_left(self) -> float:
        return LEFT

    @property
    def plot_right(self) -> float:
        return self.width - RIGHT


def _nice_ceiling(value: float) -> float:
    """1, 2, 2.5 or 5 × a power of ten, at or above ``value`` (1 for nothing)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def _fmt(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _short(label: str) -> str:
    """An axis label: the hour ("14:00"), the day at midnight ("11-30"), or the day of a daily bucket."""
    if len(label) == len("11-30 14:00"):
        day, hour = label.split(" ")
        return day if hour == "00:00" else hour
    return label[5:] if len(label) == len("2026-11-30") else label


def bucket_labels(starts: Sequence[datetime], *, hourly: bool) -> list[str]:
    return [moment.strftime("%m-%d %H:00" if hourly else "%Y-%m-%d") for moment in starts]


def chart_build(*, key: str, title: str, unit: str, kind: str, labels: list[str], series: list[Series]) -> Chart:
    """Lay out a stacked bar chart or a line chart of the series over the buckets."""
    chart = Chart(key=key, title=title, unit=unit, kind=kind, labels=labels, series=series)
    count = max(len(labels), 1)
    plot_w = chart.plot_right - LEFT
    plot_h = chart.plot_bottom - TOP
    slot = plot_w / count
    if kind == "bars":
        peak = max((sum(s.values[i] or 0 for s in series) for i in range(len(labels))), default=0)
    else:
        peak = max((v for s in series for v in s.values if v is not None), default=0)
    top = _nice_ceiling(peak)

    def y_of(value: float) -> float:
        return round(chart.plot_bottom - (value / top) * plot_h, 2)

    chart.grid = [(y_of(top * fraction), _fmt(top * fraction)) for fraction in (0, 0.5, 1)]
    every = max(1, math.ceil(count / X_LABELS))
    chart.x_labels = [(round(LEFT + slot * (i + 0.5), 2), _short(labels[i])) for i in range(0, len(labels), every)]
    if kind == "bars":
        bar_w = max(slot * 0.72, 1.0)
        for i, label in enumerate(labels):
            base = 0.0
            x = round(LEFT + slot * i + (slot - bar_w) / 2, 2)
            for s in series:
                value = s.values[i] or 0
                if value <= 0:
                    continue
                y_top = y_of(base + value)
                chart.rects.append(
                    Rect(
                        x,
                        y_top,
                        round(bar_w, 2),
                        round(y_of(base) - y_top, 2),
                        s.css,
                        f"{label}: {s.label} {_fmt(value)}",
                    )
                )
                base += value
    else:
        for s in series:
            segments, run, dots = [], [], []
            for i, value in enumerate(s.values):
                if value is None:
                    if run:
                        segments.append(" ".join(run))
                    run = []
                    continue
                x, y = round(LEFT + slot * (i + 0.5), 2), y_of(value)
                run.append(f"{x},{y}")
                dots.append((x, y, f"{labels[i]}: {_fmt(value)}{unit}"))
            if run:
                segments.append(" ".join(run))
            chart.lines.append(Line(s.css, segments, dots if len(s.values) <= 60 else []))
    for s in series:
        present = [v for v in s.values if v is not None]
        summary = _fmt(sum(present)) if kind == "bars" else (_fmt(max(present)) if present else "—")
        chart.legend.append((s.label, s.css, summary))
    chart.rows = [
        (label, ["—" if s.values[i] is None else _fmt(s.values[i]) for s in series]) for i, label in enumerate(labels)
    ]
    return chart
