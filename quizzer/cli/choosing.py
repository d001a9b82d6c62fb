"""Choosing cards by their state: ``quiz --due | --weak [N] | --new``, and reading states.

The states come from the progress database, opened read-only in spirit: a
missing database means every card is new, and nothing is created for it.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from quizzer.cli.common import clock, db_path_for, screen_for
from quizzer.errors import QuizzerError
from quizzer.progress.selection import DEFAULT_WEAK, CardState, Pick

if TYPE_CHECKING:
    from quizzer.cards.deck import LoadedCard

DueOption = Annotated[bool, typer.Option("--due", help="Only cards due now, most overdue first.")]
WeakOption = Annotated[
    int | None,
    typer.Option(
        "--weak",
        metavar="[N]",
        min=1,
        help=f"The N cards you are least likely to recall (default {DEFAULT_WEAK}).",
        show_default=False,
    ),
]
NewOption = Annotated[bool, typer.Option("--new", help="Only cards you have never reviewed.")]

#: Options that may be given without their number, and the number they then mean.
OPTIONAL_COUNTS = {"--weak": DEFAULT_WEAK}


class OptionalCountCommand(TyperCommand):
    """A command whose count options (``--weak``) may stand alone: ``--weak`` is ``--weak 10``.

    Typer's bundled Click has no optional option values, so a bare ``--weak``
    is rewritten before parsing; a following number is kept as its value.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, with_counts_filled(args, OPTIONAL_COUNTS))


def with_counts_filled(args: list[str], defaults: dict[str, int]) -> list[str]:
    """``args`` with each bare count option given its default (``--weak`` → ``--weak=10``)."""
    filled: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return filled + args[index:]
        following = args[index + 1] if index + 1 < len(args) else ""
        if arg in defaults and not following.lstrip("-").isdecimal():
            filled.append(f"{arg}={defaults[arg]}")
        else:
            filled.append(arg)
    return filled


def pick_of(due: bool, weak: int | None, new: bool) -> Pick | None:
    """The one state asked for, if any; asking for two is a usage error."""
    asked = ((Pick.DUE, due), (Pick.WEAK, weak is not None), (Pick.NEW, new))
    picks = [pick for pick, wanted in asked if wanted]
    if len(picks) > 1:
        raise QuizzerError("choose one of --due, --weak and --new")
    return picks[0] if picks else None


def stored_states(ctx: Any, db: Path | None) -> tuple[dict[str, CardState], dict[str, Any]]:
    """Card states and raw FSRS states from the progress database ({} when there is none)."""
    from quizzer.progress.selection import states_from
    from quizzer.progress.store import Store

    path = db_path_for(ctx, db)
    if not path.exists():
        return {}, {}
    with Store.open(path, create=False) as store:
        fsrs_states = store.fsrs_cards()
        return states_from(fsrs_states, store.review_counts()), fsrs_states


def study_days(ctx: Any, db: Path | None) -> set[date]:
    """The days anything was answered, from the progress database (none when there is none)."""
    from quizzer.progress.store import Store

    path = db_path_for(ctx, db)
    if not path.exists():
        return set()
    with Store.open(path, create=False) as store:
        return {date.fromisoformat(day) for day in store.study_days()}


def cards_by_state(
    ctx: Any,
    db: Path | None,
    cards: list[LoadedCard],
    pick: Pick,
    weak: int | None,
    limit: int | None,
) -> list[LoadedCard]:
    """Of ``cards``, those ``pick`` asks for, in study order, at most ``limit``.

    Ends the command with a note and exit 0 when none is left to study.
    """
    from quizzer.progress.selection import choose

    states, fsrs_states = stored_states(ctx, db)
    now = clock()
    by_id = {c.id: c for c in cards}
    chosen = choose(
        list(by_id), states, now, pick, weak=weak or DEFAULT_WEAK, fsrs_states=fsrs_states
    )
    if not chosen:
        later = [(s.due, c) for c, s in states.items() if c in by_id and s.due and s.due > now]
        next_due = min(later) if later else None
        screen_for(ctx).nothing_to_pick(pick.value, next_due[::-1] if next_due else None, now)
        raise typer.Exit(0)
    return [by_id[c] for c in chosen[:limit]]
