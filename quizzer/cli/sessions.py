"""Commands that run sessions: quiz and review."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from quizzer.cli.common import (
    DbOption,
    DeckOption,
    TagsOption,
    clock,
    complete_card,
    db_path_for,
    screen_for,
    sources_for,
)
from quizzer.cli.terminal import interrupts_reach_input, start_without_interrupts
from quizzer.errors import ExitCode, QuizzerError

if TYPE_CHECKING:
    from quizzer.answers import CardJudge, Verdict
    from quizzer.cards.deck import LoadedCard
    from quizzer.cards.model import Card
    from quizzer.progress.store import Store
    from quizzer.ui.screen import Screen

app = typer.Typer()

CardsArgument = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="CARD",
        help="Card ids or card files (default: every card).",
        show_default=False,
        autocompletion=complete_card,
    ),
]
TriesOption = Annotated[int, typer.Option("--tries", min=1, max=10, help="Tries per blank.")]
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


class Judges:
    """One judge per card, with SymPy loading in a background thread meanwhile.

    The first question is on screen before SymPy is imported; by the time the
    learner has read it and typed an answer, the judge is warm.
    """

    def __init__(self, first: Card) -> None:
        self._judges: dict[str, CardJudge] = {}
        self._thread = threading.Thread(target=self._warm, args=(first,), daemon=True)

    def start(self) -> None:
        start_without_interrupts(self._thread)

    def _warm(self, card: Card) -> None:
        try:
            from quizzer.answers import CardJudge

            judge = CardJudge(card)
            for name, blank in card.blanks.items():
                judge.judge(name, blank.answer)  # the right path: parse, evaluate, print
                judge.judge(name, f"2*({blank.answer})")  # the wrong path: diagnosis
            self._judges[card.id] = judge
        except Exception:  # the main thread builds its own judge and reports any error
            pass

    def judge_for(self, card: Card) -> CardJudge:
        if self._thread.ident is not None:
            self._thread.join()
        from quizzer.answers import CardJudge

        if card.id not in self._judges:
            self._judges[card.id] = CardJudge(card)
        return self._judges[card.id]

    def __call__(self, card: Card, blank: str, text: str) -> Verdict:
        from quizzer.answers import judge_bounded

        return judge_bounded(self.judge_for(card), blank, text)

    def fingerprints(self, card: Card) -> dict[str, tuple[str, str]]:
        judge = self.judge_for(card)
        return {name: (judge.fingerprint(name), b.answer) for name, b in card.blanks.items()}


def choose_cards(
    ctx: Any,
    names: list[str],
    tags: list[str],
    deck: list[Path] | None,
    limit: int | None,
    shuffle: bool,
    seed: int | None,
) -> list[LoadedCard]:
    from quizzer.cards.deck import find_cached, load_deck, resolve_card, select_cards

    sources = sources_for(ctx, deck)
    if names and not any(_is_path(name) for name in names):
        # Cards named by id: take them from the cache index without walking the deck.
        quick = [find_cached(name, sources) for name in names]
        if all(card is not None for card in quick):
            chosen = select_cards(
                quick,
                tags=tags,
                limit=limit,
                shuffle=shuffle,  # type: ignore[arg-type]
                seed=seed,
                keep_order=True,
            )
            if chosen:
                return chosen
    loaded = load_deck(sources, cached=True)
    if names:
        picked = [
            resolve_card(name, [], cached=True) if _is_path(name) else loaded.find(name)
            for name in names
        ]
        chosen = select_cards(
            picked, tags=tags, limit=limit, shuffle=shuffle, seed=seed, keep_order=True
        )
    else:
        chosen = select_cards(loaded.cards, tags=tags, limit=limit, shuffle=shuffle, seed=seed)
    if not chosen:
        what = f" with tag {', '.join(tags)}" if tags else ""
        raise QuizzerError(f"no cards{what} to quiz on")
    return chosen


def _is_path(name: str) -> bool:
    from quizzer.cards.deck import looks_like_path

    return looks_like_path(name) or Path(name).is_file()


def read_line(screen: Screen, prompt: str, interactive: bool) -> str | None:
    """The next line typed, or None at the end of input (Ctrl-D, end of a pipe)."""
    if interactive:
        try:
            with interrupts_reach_input():
                return screen.ask(prompt)
        except EOFError:
            return None
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


def run_session(
    ctx: Any,
    cards: list[Card],
    *,
    mode: str,
    tries: int,
    brief: bool,
    store: Store | None,
    rate_prompt: bool,
) -> None:
    """Drive a session in the terminal (or from a pipe) until it ends."""
    from quizzer.progress.schedule import make_scheduler
    from quizzer.study.quiz import KEYS_HELP, CardFinished, QuizSession
    from quizzer.study.recording import SessionProgress, rating_for

    screen = screen_for(ctx)
    progress = SessionProgress(store, make_scheduler(), mode, clock()) if store else None
    judges = Judges(cards[0])
    record = progress.record_attempt if progress else None
    session = QuizSession(cards, judges, clock, tries=tries, record=record)
    interactive = sys.stdin.isatty()

    def wait(prompt: str) -> bool:
        return read_line(screen, prompt, interactive) is not None

    def schedule_card(event: CardFinished) -> None:
        assert progress is not None
        changes = progress.answer_changes(event.card, judges.fingerprints(event.card))
        if changes:
            screen.answer_changes(event.card.id, changes)
        rating = rating_for(event.result)
        if rating is None:
            return
        now = clock()
        if interactive and rate_prompt:
            due = progress.preview(event.card.id, rating, now)
            answer = read_line(screen, screen.rating_prompt(rating, due, now), interactive)
            rating = screen.parse_rating(answer or "") or rating
        due = progress.save_review(event.result, rating, now)
        screen.scheduled(rating, due, now)

    def show(events: list[Any]) -> None:
        for event in events:
            screen.session_event(event, interactive=interactive, brief=brief, wait=wait)
            if isinstance(event, CardFinished) and progress is not None:
                schedule_card(event)

    try:
        screen.keys_help(KEYS_HELP)
        show(session.start())
        judges.start()
        while not session.finished:
            line = read_line(screen, screen.blank_prompt(session.asking()), interactive)
            show(session.stop("end of input") if line is None else session.answer(line))
    except KeyboardInterrupt:
        show(session.stop("interrupted"))
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    finally:
        if progress is not None:
            progress.end(clock())


def open_store(ctx: Any, db: Path | None) -> Store:
    from quizzer.progress.store import Store

    return Store.open(db_path_for(ctx, db))


@app.command()
def quiz(
    ctx: typer.Context,
    cards: CardsArgument = None,
    tag: TagsOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --shuffle.")] = None,
    shuffle: Annotated[bool, typer.Option("--shuffle", help="Random order.")] = False,
    tries: TriesOption = 3,
    brief: BriefOption = False,
    no_record: Annotated[
        bool, typer.Option("--no-record", help="Do not save progress (try a card as an author).")
    ] = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """Quiz yourself: fill in each blank, then read the explanation and follow-ups.

    Piped input answers one blank per line and never waits for a key.
    Examples: [bold]quizzer quiz attention[/bold]
    or [bold]printf 'sqrt(d_k)\\nV\\n' | quizzer quiz attention[/bold]
    """
    chosen = choose_cards(ctx, list(cards or []), list(tag or []), deck, limit, shuffle, seed)
    store = None if no_record else open_store(ctx, db)
    try:
        run_session(
            ctx,
            [c.card for c in chosen],
            mode="quiz",
            tries=tries,
            brief=brief,
            store=store,
            rate_prompt=rate_prompt,
        )
    finally:
        if store is not None:
            store.close()


@app.command()
def review(
    ctx: typer.Context,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="At most N cards.")
    ] = None,
    new: Annotated[
        int, typer.Option("--new", min=0, help="New cards a day, after the due ones.")
    ] = 10,
    tag: TagsOption = None,
    tries: TriesOption = 3,
    brief: BriefOption = False,
    rate_prompt: RatePromptOption = True,
    db: DbOption = None,
    deck: DeckOption = None,
) -> None:
    """Review what you are about to forget: due cards first, then a few new ones.

    Example: [bold]quizzer review --limit 20[/bold]
    """
    from quizzer.cards.deck import load_deck, select_cards
    from quizzer.progress.schedule import plan_review
    from quizzer.study.recording import new_cards_seen_on

    screen = screen_for(ctx)
    loaded = load_deck(sources_for(ctx, deck), cached=True)
    candidates = select_cards(loaded.cards, tags=list(tag or []))
    by_id = {c.id: c.card for c in candidates}
    store = open_store(ctx, db)
    try:
        now = clock()
        plan = plan_review(
            list(by_id),
            store.fsrs_cards(),
            now,
            limit=limit,
            new_limit=new,
            new_seen_today=new_cards_seen_on(store, now.date()),
        )
        if not plan.cards:
            screen.nothing_due(plan.next_due, now)
            return
        screen.review_plan(len(plan.due), len(plan.new))
        run_session(
            ctx,
            [by_id[c] for c in plan.cards],
            mode="review",
            tries=tries,
            brief=brief,
            store=store,
            rate_prompt=rate_prompt,
        )
    finally:
        store.close()
