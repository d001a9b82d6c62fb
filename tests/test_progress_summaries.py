"""The totals kept beside the history (schema step 6 -> 7, quizzer.progress.summaries).

Each check recounts the raw rows in Python and compares: after the migration's
backfill, and after every kind of write (a live answer, a review, /override,
/undo, a changed rating, a reset, an import, a sync, a hand-made damaged row).
The readers built on the totals are also compared with the whole-history
queries they replaced.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Rating
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quizzer.progress import calendar, schedule, stats
from quizzer.progress.backup import write_backup
from quizzer.progress.flags import undo_review
from quizzer.progress.migrations import MIGRATIONS, statements
from quizzer.progress.restore import import_backup
from quizzer.progress.store import APPLICATION_ID, SCHEMA_VERSION, Attempt, Review, Store
from quizzer.progress.stored import VALID_ATTEMPT_SQL, VALID_REVIEW_SQL
from quizzer.progress.sync import sync

T0 = datetime(2026, 1, 10, 12, tzinfo=timezone.utc)
NOW = datetime(2026, 1, 20, 12, tzinfo=timezone.utc)
CARDS = ("attention", "softmax", "bayes")

# -- the recount: what every summary must equal ------------------------------------------


def recount(db: sqlite3.Connection) -> dict[str, object]:
    """Every summary table recomputed from the raw rows, in Python."""
    answers: dict[object, list[int]] = defaultdict(lambda: [0, 0, 0])
    answer_days: dict[str, int] = defaultdict(int)
    for card, correct, at, valid in db.execute(
        f"SELECT card_id, correct, at, {VALID_ATTEMPT_SQL} FROM attempts"
    ):
        figures = answers[card]
        if valid:
            figures[0] += 1
            figures[1] += correct == 1
            answer_days[at[:10]] += 1
        else:
            figures[2] += 1
    reviews: dict[object, list[object]] = defaultdict(lambda: [0, 0, 0, None])
    days: dict[tuple[str, str], list[object]] = {}
    for row_id, card, rating, at, valid in db.execute(
        f"SELECT id, card_id, rating, at, {VALID_REVIEW_SQL} FROM reviews ORDER BY id"
    ):
        figures = reviews[card]
        if not valid:
            figures[2] += 1
            continue
        figures[0] += 1
        figures[1] += rating == 1
        if figures[3] is None:
            figures[3] = row_id
        key = (at[:10], card)
        day = days.setdefault(key, [0, (at, row_id), rating])
        day[0] += 1
        if (at, row_id) < day[1]:
            day[1], day[2] = (at, row_id), rating
    months: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (day_text, card), (_, _, rating) in days.items():
        months[(day_text[:7], card)][0] += 1
        months[(day_text[:7], card)][1] += rating > 1
    return {
        "answer_totals": {k: tuple(v) for k, v in answers.items()},
        "answer_days": dict(answer_days),
        "review_totals": {k: tuple(v[:3]) for k, v in reviews.items()},
        "first_reviews": {k: v[3] for k, v in reviews.items()},
        "review_days": {k: (v[0], v[1][1], v[1][0], v[2]) for k, v in days.items()},
        "review_months": {k: tuple(v) for k, v in months.items()},
    }


def summaries(db: sqlite3.Connection) -> dict[str, object]:
    """The summary tables as they are, in the shape of :func:`recount`."""
    first = {
        card: first_id
        for card, first_id, n in db.execute("SELECT card_id, first_id, reviews FROM review_totals")
    }
    return {
        "answer_totals": {
            r[0]: tuple(r[1:]) for r in db.execute("SELECT * FROM answer_totals") if any(r[1:])
        },
        "answer_days": {d: n for d, n in db.execute("SELECT * FROM answer_days") if n},
        "review_totals": {
            r[0]: tuple(r[1:4]) for r in db.execute("SELECT * FROM review_totals") if any(r[1:4])
        },
        "first_reviews": first,
        "review_days": {
            (r[0], r[1]): tuple(r[2:]) for r in db.execute("SELECT * FROM review_days")
        },
        "review_months": {
            (r[0], r[1]): tuple(r[2:])
            for r in db.execute("SELECT * FROM review_months")
            if any(r[2:])
        },
    }


def assert_summaries_right(db: sqlite3.Connection) -> None:
    expected, found = recount(db), summaries(db)
    firsts = found.pop("first_reviews")
    wanted = expected.pop("first_reviews")
    assert found == expected
    # A first review deleted leaves NULL (looked up when read); any other is exact.
    assert isinstance(firsts, dict) and isinstance(wanted, dict)
    for card, first_id in firsts.items():
        assert first_id is None or first_id == wanted.get(card)


# -- rows, sound and damaged ---------------------------------------------------------------

_times = st.builds(
    lambda day, minute: (T0 + timedelta(days=day, minutes=minute)).isoformat(
        timespec="milliseconds"
    ),
    st.integers(-40, 12),
    st.integers(0, 3 * 24 * 60),
)
_at = st.one_of(_times, _times, _times, st.sampled_from(["yesterday", "2026-13-45T00:00"]))
_card = st.one_of(st.sampled_from(CARDS), st.just(b"\x00"))
attempt_rows = st.tuples(_card, st.sampled_from([0, 1, 1, 2]), _at)
review_rows = st.tuples(_card, st.sampled_from([1, 2, 3, 3, 4, 9]), _at)


def old_schema(path: Path) -> sqlite3.Connection:
    """A database at schema 6, the step before the summaries, as older quizzers left it."""
    db = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:6]:
        for statement in statements(script):
            db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 6")
    return db


def insert_attempt(db: sqlite3.Connection, row: tuple[object, int, str]) -> None:
    card, correct, at = row
    db.execute(
        "INSERT INTO attempts (card_id, blank, given, correct, try, hints, ms, at)"
        " VALUES (?, 'x', 'y', ?, 1, 0, 5, ?)",
        (card, correct, at),
    )


def insert_review(db: sqlite3.Connection, row: tuple[object, int, str]) -> None:
    card, rating, at = row
    db.execute(
        "INSERT INTO reviews (card_id, rating, review_log, at) VALUES (?, ?, '{}', ?)",
        (card, rating, at),
    )


# -- the old whole-history queries, the reference for the readers ---------------------------


def old_retention(db: sqlite3.Connection, now: datetime) -> dict[tuple[str, str], tuple[int, int]]:
    start = calendar._month_start(now, calendar.RETENTION_MONTHS).isoformat(timespec="milliseconds")
    rows = db.execute(
        "SELECT month, card_id, count(*), sum(rating > 1) FROM ("
        " SELECT substr(at, 1, 7) AS month, card_id, rating, substr(at, 1, 10) AS day,"
        "  lag(substr(at, 1, 10)) OVER (PARTITION BY card_id ORDER BY at, id) AS before"
        f" FROM reviews WHERE at >= ? AND at <= ? AND {VALID_REVIEW_SQL})"
        " WHERE before IS NOT NULL AND day > before GROUP BY month, card_id",
        (start, now.isoformat(timespec="milliseconds")),
    ).fetchall()
    return {(m, c): (n, r) for m, c, n, r in rows}


def old_calendar(db: sqlite3.Connection, now: datetime) -> dict[str, int]:
    rows = db.execute(
        "SELECT substr(at, 1, 10), count(*) FROM reviews"
        f" WHERE at >= ? AND at <= ? AND {VALID_REVIEW_SQL} GROUP BY 1",
        (
            calendar.calendar_start(now).isoformat(timespec="milliseconds"),
            now.isoformat(timespec="milliseconds"),
        ),
    ).fetchall()
    return dict(rows)


def old_lapses(db: sqlite3.Connection) -> dict[str, tuple[int, int]]:
    found: dict[str, list[int]] = {}
    # The first review is the earliest, the lowest rating first at one time (as main counts).
    for card, rating in db.execute(
        f"SELECT card_id, rating FROM reviews WHERE {VALID_REVIEW_SQL} ORDER BY card_id, at, rating"
    ):
        figures = found.setdefault(str(card), [0, 0])
        figures[1] += figures[0] > 0 and rating == 1
        figures[0] += 1
    return {card: (n, lapses) for card, (n, lapses) in found.items()}


def assert_readers_agree(store: Store, now: datetime) -> None:
    db = store.connection
    retained = calendar.retention_by_month_and_card(store, now)
    assert {k: (r.reviewed, r.recalled) for k, r in retained.items()} == old_retention(db, now)
    assert calendar.reviews_per_day(store, now) == old_calendar(db, now)
    assert store.reviews_by_card() == old_lapses(db)
    assert store.review_counts() == {card: n for card, (n, _) in old_lapses(db).items()}
    days = {
        day
        for (day,) in db.execute(
            f"SELECT substr(at, 1, 10) FROM attempts WHERE {VALID_ATTEMPT_SQL}"
        )
    }
    assert store.study_days() == days
    tags = {"attention": ["a", "b"], "softmax": ["b"], "bayes": []}
    from_rows = stats.topics(tags, store.attempts())
    assert stats.topics_from_totals(tags, store.answers_by_card()) == from_rows


# -- the backfill ----------------------------------------------------------------------------


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(attempts=st.lists(attempt_rows, max_size=30), reviews=st.lists(review_rows, max_size=40))
def test_the_migration_fills_the_totals_as_a_recount_of_the_rows(
    tmp_path_factory: pytest.TempPathFactory,
    attempts: list[tuple[object, int, str]],
    reviews: list[tuple[object, int, str]],
) -> None:
    path = tmp_path_factory.mktemp("old") / "p.db"
    with closing(old_schema(path)) as db:
        for row in attempts:
            insert_attempt(db, row)
        for row in reviews:
            insert_review(db, row)
    with Store.open(path, on_warning=lambda _: None) as store:
        assert store.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert_summaries_right(store.connection)
        assert_readers_agree(store, NOW)


# -- the triggers ----------------------------------------------------------------------------

_operations = st.lists(
    st.one_of(
        st.tuples(st.just("attempt"), attempt_rows),
        st.tuples(st.just("review"), review_rows),
        st.tuples(st.just("delete attempt"), st.integers(0, 40)),
        st.tuples(st.just("delete review"), st.integers(0, 40)),
        st.tuples(st.just("change review"), st.integers(0, 40), review_rows),
        st.tuples(st.just("override"), st.integers(0, 40)),
        st.tuples(st.just("damage attempt"), st.integers(0, 40)),
        st.tuples(st.just("reset"), st.sampled_from(CARDS)),
    ),
    max_size=40,
)


def _nth(db: sqlite3.Connection, table: str, index: int) -> int | None:
    ids = [row_id for (row_id,) in db.execute(f"SELECT id FROM {table} ORDER BY id")]
    return ids[index % len(ids)] if ids else None


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=_operations)
def test_the_triggers_keep_the_totals_right_under_every_write(
    tmp_path_factory: pytest.TempPathFactory, operations: list[tuple[object, ...]]
) -> None:
    path = tmp_path_factory.mktemp("live") / "p.db"
    with Store.open(path, on_warning=lambda _: None) as store:
        db = store.connection
        for kind, *args in operations:
            if kind == "attempt":
                insert_attempt(db, args[0])  # type: ignore[arg-type]
            elif kind == "review":
                insert_review(db, args[0])  # type: ignore[arg-type]
            elif kind == "reset":
                store.reset(str(args[0]))
            else:
                table = "attempts" if "attempt" in str(kind) or kind == "override" else "reviews"
                row_id = _nth(db, table, int(args[0]))  # type: ignore[call-overload]
                if row_id is None:
                    continue
                if kind.startswith("delete"):  # type: ignore[union-attr]
                    db.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
                elif kind == "change review":
                    card, rating, at = args[1]  # type: ignore[misc]
                    db.execute(
                        "UPDATE reviews SET card_id = ?, rating = ?, at = ? WHERE id = ?",
                        (card, rating, at, row_id),
                    )
                elif kind == "override":
                    db.execute(
                        "UPDATE attempts SET correct = 1, overridden = 1 WHERE id = ?", (row_id,)
                    )
                else:
                    db.execute("UPDATE attempts SET try = 0 WHERE id = ?", (row_id,))
            assert_summaries_right(db)
        assert_readers_agree(store, NOW)


def _study(store: Store, card: str, rating: Rating, at: datetime) -> None:
    from quizzer.study.items import Grade
    from quizzer.study.recording import SessionProgress

    progress = SessionProgress(store, schedule.make_scheduler(), "review", at)
    progress.record_attempt(Attempt(card, "x", "y", rating > 1, 1, 0, 1200, at))
    progress.save_rating(card, Grade(int(rating)), at, 1200)
    progress.end(at)


def test_sessions_undo_and_a_changed_rating_keep_the_totals(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store:
        for day, rating in enumerate((Rating.Good, Rating.Again, Rating.Good, Rating.Easy)):
            _study(store, "attention", rating, T0 + timedelta(days=day))
        before = store.fsrs_card("softmax")
        session = store.start_session("review", NOW)
        store.record_attempt(session, Attempt("softmax", "x", "y", True, 1, 0, 5, NOW))
        store.save_review(Review("softmax", 3, {}, NOW, session), {"due": "x"})
        store.replace_review(Review("softmax", 1, {}, NOW, session), {"due": "x"})
        assert_summaries_right(store.connection)
        undo_review(store, session, "softmax", before, NOW)
        assert_summaries_right(store.connection)
        assert store.reviews_by_card() == {"attention": (4, 1)}
        assert_readers_agree(store, NOW + timedelta(days=1))


def test_deleting_a_cards_first_review_is_read_right(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store:
        for day, rating in enumerate((Rating.Again, Rating.Good, Rating.Again)):
            _study(store, "attention", rating, T0 + timedelta(days=day))
        assert store.reviews_by_card() == {"attention": (3, 1)}
        first = store.connection.execute("SELECT min(id) FROM reviews").fetchone()[0]
        store.connection.execute("DELETE FROM reviews WHERE id = ?", (first,))
        # Its first review is now the Good one: the Again after it is a lapse.
        assert store.reviews_by_card() == {"attention": (2, 1)}
        assert_summaries_right(store.connection)


def test_an_import_and_a_sync_keep_the_totals(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    with Store.open(tmp_path / "a.db") as a, Store.open(tmp_path / "b.db") as b:
        for day in range(5):
            _study(
                a,
                CARDS[day % 3],
                Rating.Good if day % 2 else Rating.Again,
                T0 + timedelta(days=day),
            )
            _study(b, CARDS[(day + 1) % 3], Rating.Hard, T0 + timedelta(days=day, hours=3))
        write_backup(a, tmp_path / "a.json")
        with Store.open(tmp_path / "c.db") as c:
            _study(c, "attention", Rating.Easy, T0 - timedelta(days=30))
            # Later the same day as a's first (Again) review: the import's is that day's first.
            _study(c, "attention", Rating.Easy, T0 + timedelta(hours=2))
            import_backup(c, tmp_path / "a.json", NOW)
            import_backup(c, tmp_path / "a.json", NOW)  # again: adds nothing
            assert_summaries_right(c.connection)
            assert_readers_agree(c, NOW)
        for store in (a, b, a):
            sync(store, folder, now=NOW)
        for store in (a, b):
            assert_summaries_right(store.connection)
            assert_readers_agree(store, NOW)
        assert a.review_counts() == b.review_counts()


def test_a_full_reset_empties_the_totals(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store:
        for day in range(3):
            _study(store, CARDS[day], Rating.Good, T0 + timedelta(days=day))
        store.reset()
        assert_summaries_right(store.connection)
        assert store.totals().attempts == 0
        assert store.reviews_by_card() == {} and store.study_days() == set()


def test_history_tables_rebuilt_elsewhere_get_their_totals_back(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        _study(store, "attention", Rating.Good, T0)
    with closing(sqlite3.connect(path)) as db:
        # Another tool rebuilds the table (dropping its triggers with it) and adds a row.
        db.executescript(
            "CREATE TABLE copy AS SELECT * FROM reviews; DROP TABLE reviews;"
            " CREATE TABLE reviews (id INTEGER PRIMARY KEY, session_id INTEGER, card_id TEXT,"
            " rating INTEGER, review_log TEXT, at TEXT);"
            " CREATE INDEX reviews_by_card ON reviews(card_id, at);"
            " CREATE INDEX reviews_by_time ON reviews(at);"
            " INSERT INTO reviews SELECT * FROM copy; DROP TABLE copy;"
            " INSERT INTO reviews (card_id, rating, review_log, at)"
            " VALUES ('softmax', 3, '{}', '2026-01-12T08:00:00.000+00:00');"
        )
    with Store.open(path) as store:
        assert_summaries_right(store.connection)
        assert store.review_counts() == {"attention": 1, "softmax": 1}
        insert_review(store.connection, ("softmax", 1, "2026-01-13T08:00:00.000+00:00"))
        assert_summaries_right(store.connection)  # the triggers are back too
