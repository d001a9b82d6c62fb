"""Commands that run sessions: quiz and review."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from quizzer.cli.choosing import DueOption, NewOption, OptionalCountCommand, WeakOption
from quizzer.cli.common import (
    DbOption,
    DeckOption,
    SearchOption,
    TagsOption,
    complete_card,
    screen_for,
    workspace_for,
)
from quizzer.cli.study import exit_if_interrupted, terminal_learner
from quizzer.cli.sync import sync_around
from quizzer.study import defaults

if TYPE_CHECKING:
    from collections.abc import Callable

    from quizzer.app.choosing import NothingToStudy
    from quizzer.app.studying import ReviewPlan
    from quizzer.study.events import Event
    from quizzer.ui.screen import Screen

app = typer.Typer()

CardsArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[CARD]...",
        help="Card ids or card files (default: every card).",
        show_default=False,
        autocompletion=complete_card,
    ),
]
TriesOption = Annotated[
    int, typer.Option("--tries", min=1, max=defaults.MAX_TRIES, help="Tries per blank.")
]
BriefOption = Annotated[
    bool, typer.Option("--brief", help="After each card show only red flags and bullets.")
]
RatePromptOption = Annotated[
    bool,
    typer.Option(
        "--rate-prompt/--no-rate-prompt",
        help="In a terminal, show each card's rating and let one key change it.",
    ),
]


def nothing_to_study(ctx: typer.Context, empty: NothingToStudy) -> None:
    """No card is in the state asked for: say so, and when the next one falls due; exit 0."""
    screen_for(ctx).plan.nothing_to_pick(empty.state.value, empty.next_due, empty.now)
    raise typer.Exit(0)


@app.command(cls=OptionalCountCommand)
def quiz(
    ctx: typer.Context,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --shuffle.")] = None,
    shuffle: Annotated[bool, typer.Option("--shuffle", help="Random order.")] = False,
    tries: TriesOption = defaults.TRIES,
    brief: BriefOption = False,
    no_record: Annotated[
        bool, typer.Option("--no-record", help="Do not save progress (try a card as an author).")
    ] = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
    due: DueOption = False,
    weak: WeakOption = None,
    new: NewOption = False,
    search: SearchOption = None,
) -> None:
    """Quiz yourself: fill in each blank, then read the explanation and follow-ups.

    Piped input answers one blank per line and never waits for a key.
    Examples: [bold]quizzer quiz attention[/bold], [bold]quizzer quiz --due --tag optimisers[/bold]
    or [bold]printf 'sqrt(d_k)\\nV\\n' | quizzer quiz attention[/bold]
    """
    from quizzer.app import studying
    from quizzer.app.choosing import CardChoice, NothingToStudy, state_asked

    workspace = workspace_for(ctx, deck, db)
    sync_around(ctx, workspace)
    screen = screen_for(ctx)
    choice = CardChoice(
        names=tuple(cards or ()),
        tags=tuple(tag or ()),
        search=search,
        state=state_asked(due, weak, new),
        weak=weak,
        limit=limit,
        shuffle=shuffle,
        seed=seed,
    )
    options = studying.StudyOptions(
        tries=tries, record=not no_record, brief=brief, rate_prompt=rate_prompt
    )
    learner = terminal_learner(workspace, screen, _quiz_view(screen, brief))
    try:
        ended = studying.quiz(workspace, choice, learner, options)
    except NothingToStudy as empty:
        nothing_to_study(ctx, empty)
        return
    exit_if_interrupted(ended)


def _quiz_view(screen: Screen, brief: bool) -> Callable[[Event], None]:
    def show(event: Event) -> None:
        screen.session_event(event, brief=brief)

    return show


@app.command()
def review(
    ctx: typer.Context,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    new: Annotated[
        int | None,
        typer.Option(
            "--new",
            min=0,
            help="New cards a day, after the due ones (default: `quizzer config new_per_day`).",
            show_default=False,
        ),
    ] = None,
    tag: TagsOption = None,
    tries: TriesOption = defaults.TRIES,
    brief: BriefOption = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
    search: SearchOption = None,
) -> None:
    """Review what you are about to forget: due cards first, then a few new ones.

    Example: [bold]quizzer review --limit 20[/bold]
    """
    from quizzer.app import studying
    from quizzer.app.choosing import CardChoice

    workspace = workspace_for(ctx, deck, db)
    sync_around(ctx, workspace)
    screen = screen_for(ctx)
    choice = CardChoice(tags=tuple(tag or ()), search=search, limit=limit, purpose="to review")
    options = studying.StudyOptions(tries=tries, brief=brief, rate_prompt=rate_prompt)
    learner = terminal_learner(
        workspace, screen, _quiz_view(screen, brief), planned=_review_plan_view(screen)
    )
    try:
        ended = studying.review(workspace, choice, learner, options, new_per_day=new)
    except studying.NothingDue as nothing:
        screen.plan.nothing_due(nothing.next_due, nothing.now)
        return
    exit_if_interrupted(ended)


def _review_plan_view(screen: Screen) -> Callable[[ReviewPlan], None]:
    def show(plan: ReviewPlan) -> None:
        screen.plan.review_plan(plan.due, plan.new)
        screen.plan.review_workload(plan.workload, plan.desired_retention)

    return show
