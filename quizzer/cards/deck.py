"""Loading cards: a file into a checked card, a deck with its problems, a card by id or path.

Which files are cards and where they come from is :mod:`quizzer.cards.finding`'s;
its names are re-exported here, where most callers have always imported them.
"""

from __future__ import annotations

import difflib
import os
import random
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from quizzer.cards.finding import (
    CARD_SUFFIXES,
    DECKS_ENV,
    _under,
    bundled_content_dir,
    card_files,
    deck_sources,
    looks_like_path,
    resolved_files,
    schema_file,
)
from quizzer.cards.problems import Problem, answers_as_written, located, validation_problems
from quizzer.errors import CardNotFound, InvalidCard
from quizzer.files import (
    FileProblem,
    NotRegularFile,
    read_bounded,
)

if TYPE_CHECKING:
    from quizzer.cards.model import Card, CardProblem
    from quizzer.cards.yamldoc import YamlDoc


MAX_CARD_BYTES = 1 << 20


class LoadedCard:
    """A valid card with the file it came from and where each of its values was written.

    A card taken from the deck cache is rebuilt only when something needs more
    than its id, title and tags, so listing 10,000 cached cards stays cheap.
    """

    def __init__(
        self,
        card: Card | None,
        path: Path,
        deck: str,
        doc: YamlDoc | None = None,
        *,
        summary: dict[str, Any] | None = None,
        load: Callable[[], dict[str, Any] | None] | None = None,
    ) -> None:
        if card is None and (summary is None or load is None):
            raise ValueError("a loaded card needs a card, or a cached summary and loader")
        self._card = card
        self._summary = summary or {}
        self._load = load
        self.path = path
        self.deck = deck
        #: Where each value was written; None for a card taken from the cache.
        self.doc = doc
        #: The file's path with its deck source resolved (set by :func:`load_deck`).
        self.resolved = ""

    @property
    def card(self) -> Card:
        if self._card is None:
            data = self._load() if self._load else None
            if data is not None:
                try:
                    from quizzer.cards.model import trusted_card

                    self._card = trusted_card(data)
                except (KeyError, TypeError, ValueError, AttributeError):
                    self._card = None  # wrong-shaped cached data: a cache miss
            if self._card is None:  # the cache lost the card: read the file itself
                loaded, problems = load_card_file(self.path, self.deck)
                if loaded is None:
                    raise InvalidCard(problems)
                self._card = loaded.card
        return self._card

    @property
    def id(self) -> str:
        return self._card.id if self._card is not None else str(self._summary["id"])

    @property
    def title(self) -> str:
        return self._card.title if self._card is not None else str(self._summary["title"])

    @property
    def tags(self) -> list[str]:
        if self._card is not None:
            return list(self._card.tags)
        return list(self._summary.get("tags", []))

    @property
    def blank_names(self) -> list[str]:
        if self._card is not None:
            return list(self._card.blanks)
        return list(self._summary["blanks"])

    @property
    def level(self) -> int:
        """1 fundamentals, 2 core, 3 advanced; a card without one counts as core."""
        found = self._card.level if self._card is not None else self._summary.get("level")
        return found if found in (1, 2, 3) else 2

    def __repr__(self) -> str:
        return f"LoadedCard({self.id!r}, {str(self.path)!r})"

    def problem(self, found: CardProblem) -> Problem:
        """Turn a problem located by data path into one located by line and column."""
        if self.doc is None:  # cached cards have no positions: point at the file
            severity: Literal["error", "warning"] = "warning" if found.warning else "error"
            return Problem(str(self.path), 1, 1, found.message, severity)
        return located(self.path, self.doc, found.path, found.message, found.at_key, found.warning)


@dataclass
class Deck:
    """Every card that loaded, and the problems of those that did not."""

    cards: list[LoadedCard] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def by_id(self) -> dict[str, LoadedCard]:
        return {loaded.id: loaded for loaded in self.cards}

    def find(self, card_id: str) -> LoadedCard:
        """The card with this id, or :class:`CardNotFound` with suggestions."""
        cards = self.by_id()
        if card_id in cards:
            return cards[card_id]
        close = difflib.get_close_matches(card_id, list(cards), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        broken = sum(1 for p in self.problems if p.severity == "error")
        if not close and broken:
            hint += " (some card files have problems: run 'quizzer validate')"
        raise CardNotFound(f"unknown card '{_shown(card_id)}'{hint}")

    def tags(self) -> list[str]:
        return sorted({tag for loaded in self.cards for tag in loaded.tags})


def load_card_file(path: Path, deck: str = "") -> tuple[LoadedCard | None, list[Problem]]:
    """Load and check one card file. Never raises for a bad file: it returns problems."""
    from pydantic import ValidationError

    from quizzer.cards.model import Card, card_problems
    from quizzer.cards.yamldoc import YamlError, load_yaml

    name = str(path)
    try:
        raw = read_bounded(path, MAX_CARD_BYTES)
    except NotRegularFile as error:
        return None, [Problem(name, 1, 1, f"is {error.kind}, not a card file")]
    except FileProblem as error:
        return None, [Problem(name, 1, 1, f"cannot read file: {error.reason}")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return None, [Problem(name, line, column, "not UTF-8 text")]
    if "\x00" in text:
        return None, [Problem(name, 1, 1, "binary file, not a card")]
    try:
        doc = load_yaml(text)
    except YamlError as error:
        return None, [Problem(name, error.position.line, error.position.column, error.message)]
    if not isinstance(doc.data, dict):
        what = "empty" if doc.data is None else f"a {type(doc.data).__name__}"
        return None, [Problem(name, 1, 1, f"a card must be a mapping of fields, not {what}")]
    answers_as_written(doc)
    try:
        card = Card.model_validate(doc.data)
    except ValidationError as error:
        return None, validation_problems(path, doc, error)
    loaded = LoadedCard(card, path, deck or path.parent.name, doc)
    problems = [loaded.problem(found) for found in card_problems(card)]
    if any(p.severity == "error" for p in problems):
        return None, problems
    return loaded, problems


def load_deck(sources: Iterable[Path], *, cached: bool = False, report: bool = True) -> Deck:
    """Load every card under ``sources``; duplicate ids are problems naming both files.

    With ``cached``, cards unchanged since they last passed every check come
    from the deck cache, without YAML parsing or validation (and without
    their source positions, which only ``validate`` needs).

    With ``report``, files that could not be loaded and duplicate ids are
    summed up in one line through :func:`quizzer.files.report_warning`, which
    every command prints once as a warning (``validate``, which lists each
    problem, turns it off).
    """
    from quizzer.cards.cache import DeckCache

    deck = Deck()
    seen_files: set[str] = set()
    first_by_id: dict[str, LoadedCard] = {}
    for source in sources:
        cache = DeckCache(source) if cached else None
        files = card_files(source)
        # One stat per file, shared by the freshness checks below.
        stats = _stats(files) if cache is not None else {}
        if cache is not None:
            _fill_cache(cache, files, stats)
        root, base = source.resolve(), str(source)
        root_is_folder = root.is_dir()
        for path, deck_name in files:
            # Resolve the source once, not each of its (possibly 10,000) files.
            resolved = _under(root, base, path) if root_is_folder else str(root)
            if resolved in seen_files:
                continue
            seen_files.add(resolved)
            loaded, problems = _load_with_cache(path, deck_name, cache, stats.get(path))
            deck.problems.extend(problems)
            if loaded is None:
                continue
            loaded.resolved = resolved
            first = first_by_id.get(loaded.id)
            if first is not None:
                from quizzer.cards.model import CardProblem

                # Rare: read both files again for positions, which cached cards lack.
                loaded, first = _with_positions(loaded), _with_positions(first)
                first_by_id[first.id] = first
                line = first.doc.position_of(("id",)).line if first.doc else 1
                deck.problems.append(
                    loaded.problem(
                        CardProblem(
                            ("id",),
                            f"duplicate id '{loaded.id}' (also in {first.path}:{line})",
                        )
                    )
                )
                continue
            first_by_id[loaded.id] = loaded
            deck.cards.append(loaded)
        if cache is not None:
            cache.keep_only({str(p) for p, _ in files})
            cache.save()
    summary = deck_warning(deck) if report else None
    if summary is not None:
        from quizzer.files import report_warning

        report_warning(summary)
    return deck


#: Duplicate ids a deck warning names before it only counts the rest.
_NAMED_DUPLICATES = 3


def deck_warning(deck: Deck) -> str | None:
    """One line about the cards a command will not see: broken files and duplicate ids.

    None when every file loaded. Each problem itself is for ``validate`` to show.
    """
    duplicates = [p for p in deck.problems if p.message.startswith("duplicate id '")]
    broken = {p.path for p in deck.problems if p.severity == "error" and p not in duplicates}
    parts = []
    if broken:
        noun = "card file" if len(broken) == 1 else "card files"
        parts.append(f"{len(broken)} {noun} could not be loaded")
    for problem in duplicates[:_NAMED_DUPLICATES]:
        card_id = problem.message.split("'", 2)[1]
        parts.append(f"{problem.path} is skipped: its id '{card_id}' is taken")
    if len(duplicates) > _NAMED_DUPLICATES:
        parts.append(f"{len(duplicates) - _NAMED_DUPLICATES} more duplicate ids")
    if not parts:
        return None
    return "; ".join(parts) + "; run 'quizzer validate' to see why"


#: From this many cards to parse, parsing is spread over every core.
PARALLEL_FROM = 200


def _with_positions(loaded: LoadedCard) -> LoadedCard:
    if loaded.doc is not None:
        return loaded
    again, _ = load_card_file(loaded.path, loaded.deck)
    return again if again is not None else loaded


def _stats(files: list[tuple[Path, str]]) -> dict[Path, os.stat_result]:
    found = {}
    for path, _ in files:
        try:
            found[path] = os.stat(path)
        except OSError:
            continue  # gone since the walk: loading it reports the problem
    return found


def _fill_cache(
    cache: Any, files: list[tuple[Path, str]], stats: dict[Path, os.stat_result]
) -> None:
    """Parse the cards missing from ``cache`` in a process pool, when there are many.

    YAML parsing and validation take about 1 ms a card, all of it CPU, so
    a first ``list`` of 10,000 cards was bound to one core. Workers return
    each card's cache entry, which the parent writes with the others in one
    transaction; cards with problems come back as None and are loaded again
    here, so their problems are reported exactly as on the one-process path.
    """
    workers = os.cpu_count() or 1
    if workers < 2 or len(files) < PARALLEL_FROM:
        return
    missing = [path for path, stat in stats.items() if not cache.is_fresh(path, stat)]
    if len(missing) < PARALLEL_FROM:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: the parent may have threads (the SymPy warm-up), which fork cannot copy safely.
    context = multiprocessing.get_context("spawn")
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            chunk = max(1, len(missing) // (workers * 8))
            entries = list(pool.map(_parse_for_cache, missing, chunksize=chunk))
    except (OSError, RuntimeError):  # no pool here (no semaphores, a broken worker)
        return  # the one-process path below loads every card anyway
    for path, entry in zip(missing, entries, strict=True):
        if entry is not None:
            cache.add(path, entry)


def _parse_for_cache(path: Path) -> dict[str, Any] | None:
    """In a worker: parse one card file into its cache entry (None if it has problems)."""
    from quizzer.cards.cache import entry_for

    try:
        stat = path.stat()
    except OSError:
        return None
    loaded, problems = load_card_file(path, "")
    if loaded is None or problems:
        return None
    return entry_for(stat, loaded.card.model_dump(mode="json"))


class CardsOnDemand(MutableSequence["Card"]):
    """Cards whose models are built when a session first reaches them.

    A review of 200 due cards built every model before its first card: a cache
    read and a model each, 1-1.5 ms a card (issue 25's first card within 0.5 s).
    A slice is lazy too, so a session's own copy (``cards[:]``) builds nothing.
    """

    def __init__(self, items: Iterable[LoadedCard | Card]) -> None:
        self._items: list[LoadedCard | Card] = list(items)

    def _built(self, index: int) -> Card:
        item = self._items[index]
        if isinstance(item, LoadedCard):
            item = self._items[index] = item.card
        return item

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> CardsOnDemand: ...
    def __getitem__(self, index: int | slice) -> Card | CardsOnDemand:
        if isinstance(index, slice):
            return CardsOnDemand(self._items[index])
        return self._built(index)

    @overload
    def __setitem__(self, index: int, value: Card) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[Card]) -> None: ...
    def __setitem__(self, index: int | slice, value: Card | Iterable[Card]) -> None:
        if isinstance(index, slice):
            self._items[index] = list(value)  # type: ignore[arg-type]
        else:
            self._items[index] = value  # type: ignore[assignment]

    def __delitem__(self, index: int | slice) -> None:
        del self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def insert(self, index: int, value: Card) -> None:
        self._items.insert(index, value)


def _looks_like_summary(summary: dict[str, Any]) -> bool:
    """A cheap shape check of a cached summary; anything odd is read from the file again."""
    try:
        texts = isinstance(summary["id"], str) and isinstance(summary["title"], str)
        return texts and isinstance(summary["tags"], list) and isinstance(summary["blanks"], list)
    except (KeyError, TypeError):
        return False


def _load_with_cache(
    path: Path, deck_name: str, cache: Any, stat: os.stat_result | None = None
) -> tuple[LoadedCard | None, list[Problem]]:
    if cache is None or stat is None:
        return load_card_file(path, deck_name)
    cached = cache.get(path, stat)
    if cached is not None and _looks_like_summary(cached[0]):
        summary, load = cached
        return LoadedCard(None, path, deck_name, summary=summary, load=load), []
    loaded, problems = load_card_file(path, deck_name)
    if loaded is not None and not problems:
        cache.put(path, stat, loaded.card.model_dump(mode="json"))
    return loaded, problems


def select_cards(
    cards: Sequence[LoadedCard],
    *,
    tags: Sequence[str] = (),
    limit: int | None = None,
    shuffle: bool = False,
    seed: int | None = None,
    keep_order: bool = False,
) -> list[LoadedCard]:
    """Cards with any of ``tags`` (all when none), at most ``limit``.

    In deck order (or the order given, with ``keep_order``), or shuffled with ``seed``.
    Every command that picks cards (list, quiz, review, drill, export) goes through here.
    """
    chosen = [c for c in cards if not tags or set(tags) & set(c.tags)]
    if not keep_order:
        chosen.sort(key=lambda c: (c.deck, c.path.name))
    if shuffle:
        random.Random(seed).shuffle(chosen)
    return chosen[:limit] if limit is not None else chosen


def find_cached(card_id: str, sources: Sequence[Path]) -> LoadedCard | None:
    """The card with this id straight from the deck cache, if it is there and fresh.

    Starting a quiz on one card of a 10,000-card deck then stats one file
    instead of walking them all. None means "load the deck" (the id is not
    cached, or its file changed); duplicate ids are left to list and validate.
    """
    from quizzer.cards.cache import DeckCache

    for index, source in enumerate(sources):
        cache = DeckCache(source)
        for path in cache.paths_with_id(card_id):
            try:
                cached = cache.get(path, path.stat())
            except OSError:
                return None
            if cached is None or not _looks_like_summary(cached[0]):
                return None
            if source.is_dir():
                relative = Path(os.path.relpath(path.parent, source)).as_posix()
                deck = source.name if relative == "." else relative
            else:
                deck = source.parent.name
            _warn_of_later_copies(card_id, path, sources[index:])
            return LoadedCard(None, path, deck, summary=cached[0], load=cached[1])
    return None


def _warn_of_later_copies(card_id: str, first: Path, sources: Sequence[Path]) -> None:
    """Say, as :func:`load_deck` would, that a later file with this id is skipped.

    The quick path never walks the deck, so it cannot count broken files;
    the copies of the one id it was asked for are in the cache index.
    """
    from quizzer.cards.cache import DeckCache
    from quizzer.files import report_warning

    seen = {str(first.resolve())}
    for source in sources:
        for path in DeckCache(source).paths_with_id(card_id):
            resolved = str(path.resolve())
            if resolved not in seen and path.is_file():
                seen.add(resolved)
                report_warning(
                    f"{path} is skipped: its id '{card_id}' is taken;"
                    " run 'quizzer validate' to see why"
                )


def is_existing_file(path: Path) -> bool:
    """``path.is_file()``, False for a name the file system refuses (over 255 bytes)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _shown(name: str, most: int = 120) -> str:
    """A name as an error line shows it: at most ``most`` characters."""
    return name if len(name) <= most else name[: most - 1] + "…"


def resolve_card(name: str, sources: Sequence[Path], *, cached: bool = False) -> LoadedCard:
    """A card named by its id or by the path of its file.

    Raises :class:`CardNotFound` or :class:`InvalidCard`.
    """
    if looks_like_path(name) or is_existing_file(Path(name)):
        path = Path(name).expanduser()
        try:
            path.stat()
        except OSError as error:  # missing, a name over 255 bytes, a folder not readable
            raise CardNotFound(f"no card file at {_shown(name)}: {error.strerror}") from None
        loaded, problems = load_card_file(path)
        if loaded is None:
            raise InvalidCard(problems)
        return loaded
    return load_deck(sources, cached=cached).find(name)


__all__ = [
    "CARD_SUFFIXES",
    "DECKS_ENV",
    "Deck",
    "LoadedCard",
    "Problem",
    "bundled_content_dir",
    "card_files",
    "deck_sources",
    "deck_warning",
    "is_existing_file",
    "load_card_file",
    "load_deck",
    "looks_like_path",
    "resolve_card",
    "resolved_files",
    "schema_file",
    "select_cards",
]
