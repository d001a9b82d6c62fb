"""Pictures of ``stats``: the review calendar, the 30-day forecast, retention by month.

Each picture says everything with its characters (shade blocks, bar heights,
numbers); colour only adds to it, so with ``NO_COLOR=1`` it is plain text that
still reads. Each is at most 72 columns wide, inside an 80-column terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text

from quizzer.ui.widgets import counted

if TYPE_CHECKING:
    from quizzer.progress.calendar import Retention

#: The shade of a day by its share of the busiest day: none, then four quarters.
SHADES = ("·", "░", "▒", "▓", "█")
SHADE_STYLES = ("dim", "green4", "green3", "green1", "bold green1")
EIGHTHS = " ▁▂▃▄▅▆▇█"
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


def _shade(count: int, top: int) -> int:
    if count <= 0:
        return 0
    return min(4, 1 + (4 * count - 1) // top) if top else 0


def calendar_heatmap(per_day: Mapping[str, int], start: datetime, weeks: int) -> Group:
    """Reviews a day as a heatmap: a column per week (oldest left), a row per weekday."""
    first = start.date()
    today = first + timedelta(weeks=weeks) - timedelta(days=1)
    top = max(per_day.values(), default=0)
    # Each month's name above the week it starts in, where the one before leaves room.
    header = [" "] * (2 * weeks)
    last_month, free = None, 0
    for week in range(weeks):
        monday = first + timedelta(weeks=week)
        if monday.month != last_month and 2 * week >= free:
            header[2 * week : 2 * week + 3] = monday.strftime("%b")
            free = 2 * week + 4
        last_month = monday.month
    months = Text("    " + "".join(header)[: 2 * weeks].rstrip(), style="dim")
    lines = [Text(f"Reviews, the last {weeks} weeks", style="bold"), months]
    for weekday in range(7):
        line = Text(f"{WEEKDAYS[weekday]:<4}")
        for week in range(weeks):
            day = first + timedelta(weeks=week, days=weekday)
            if day > today:
                line.append("  ")
                continue
            level = _shade(per_day.get(day.isoformat(), 0), top)
            line.append(SHADES[level] + " ", style=SHADE_STYLES[level])
        lines.append(line)
    total = sum(per_day.values())
    busiest = max(per_day.items(), key=lambda kv: kv[1], default=None)
    legend = Text("    less " + " ".join(SHADES) + " more", style="dim")
    if busiest is not None:
        legend.append(f"   {total} reviews; busiest {busiest[0]} ({busiest[1]})", style="dim")
    lines.append(legend)
    return Group(*lines)


def forecast_bars(counts: Sequence[int], now: datetime, height: int = 6) -> Group:
    """Cards due on each of the next days as vertical bars (today, with overdue, first)."""
    top = max(counts, default=0) or 1
    lines = [
        Text(f"Due in the next {len(counts)} days (peak {max(counts, default=0)})", style="bold")
    ]
    for row in range(height, 0, -1):
        line = Text("    ")
        for count in counts:
            filled = count * height * 8 / top - (row - 1) * 8
            eighth = 0 if filled <= 0 else min(8, max(1, round(filled)))
            line.append(EIGHTHS[eighth] + " ", style="cyan")
        lines.append(line)
    axis = Text("    ")
    for offset in range(len(counts)):
        day: date = (now + timedelta(days=offset)).date()
        axis.append(f"{day.day:<2}" if offset % 7 == 0 else "  ", style="dim")
    lines.append(axis)
    return Group(*lines)


def workload(counts: Sequence[int], desired_retention: float) -> str:
    """The reviews the schedule implies: the next days' total and a day's average."""
    total = sum(counts)
    days = len(counts) or 1
    return (
        f"{counted(total, 'review')} due in the next {days} days, about {total / days:.0f} a day"
        f" at {desired_retention:.0%} desired retention"
    )


def retention_by_month(months: Mapping[str, Retention], desired: float, width: int = 40) -> Group:
    """Achieved (true) retention a month as bars, with the desired retention marked."""
    # The bars start at 50%: retention that matters lies between 70% and 99%.
    low = 0.5
    lines = [
        Text(f"Retention by month (bars from 50%; desired {desired:.0%}, marked |)", style="bold")
    ]
    if not months:
        lines.append(Text("no reviews of cards in review yet", style="dim"))
        return Group(*lines)
    mark = round(width * (desired - low) / (1 - low))
    for month, figure in months.items():
        rate = figure.rate or 0.0
        filled = round(width * max(0.0, rate - low) / (1 - low))
        bar = Text()
        for column in range(width):
            if column == mark:
                bar.append("|", style="bold yellow")
            elif column < filled:
                bar.append("█", style="green" if rate >= desired else "red")
            else:
                bar.append("·", style="dim")
        line = Text(f"{month}  ")
        line.append_text(bar)
        line.append(f" {rate:6.1%}  {figure.reviewed:>6} reviews")
        lines.append(line)
    return Group(*lines)
