"""progress import: strict, all or nothing, idempotent (also concurrently), streamed."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizzer.progress.backup import Backup, BadBackup, export_progress, write_backup
from quizzer.progress.restore import import_backup, read_backup
from quizzer.progress.store import Attempt, Review, Store

T0 = datetime(2026, 2, 1, 8, 0, tzinfo=timezone.utc)
STATE = {
    "card_id": 7,
    "state": 2,
    "step": None,
    "stability": 3.5,
    "difficulty": 5.1,
    "due": "2026-02-04T08:00:00+00:00",
    "last_review": "2026-02-01T08:00:00+00:00",
}


def attempt_entry(**changes: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "card": "attention",
        "blank": "scale",
        "given": "sqrt(d_k)",
        "correct": True,
        "try": 1,
        "hints": 0,
        "ms": 900,
        "at": "2026-02-01T08:00:00.123456+00:00",
    }
    entry.update(changes)
    return entry


def review_entry(**changes: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "card": "attention",
        "rating": 3,
        "review_log": {"card_id": 7, "rating": 3},
        "at": "2026-02-01T08:00:00.5+00:00",
    }
    entry.update(changes)
    return entry


def backup(attempts=(), reviews=(), schedule=None, **header: object) -> dict[str, object]:
    return {
        "format": "quizzer-progress",
        "version": 1,
        **header,
        "attempts": list(attempts),
        "reviews": list(reviews),
        "schedule": schedule or {},
    }


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def rows(path: Path) -> tuple[int, int, int, int]:
    with Store.open(path) as store:
        db = store.connection
        return tuple(  # type: ignore[return-value]
            db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("attempts", "reviews", "schedule", "sessions")
        )


GOOD = [attempt_entry(given=f"answer {n}") for n in range(3)]

BAD_ENTRIES = [
    # (backup data, fragment of the error)
    (backup([*GOOD, attempt_entry(correct="false")]), "attempts[3].correct"),
    (backup([*GOOD, attempt_entry(correct=1)]), "valid boolean"),
    (backup([attempt_entry(at="2026-02-01T08:00:00")]), "without a zone"),
    (backup([attempt_entry(at="yesterday")]), "not an ISO 8601 time"),
    (backup([attempt_entry(at=1769932800)]), "ISO 8601 string"),
    (backup([attempt_entry(at="9999-12-31T23:00:00-02:00")]), "out of range"),
    (backup([*GOOD, attempt_entry(ms=float("inf"))]), "attempts[3].ms"),
    (backup([attempt_entry(ms=-1)]), "attempts[0].ms"),
    (backup([attempt_entry(**{"try": 10**30})]), "attempts[0].try"),
    (backup([attempt_entry(**{"try": 0})]), "attempts[0].try"),
    (backup([attempt_entry(card="")]), "attempts[0].card"),
    (backup([attempt_entry(surprise=1)]), "attempts[0].surprise"),
    (backup([{k: v for k, v in attempt_entry().items() if k != "blank"}]), "blank"),
    (backup(GOOD, [review_entry(rating=5)]), "reviews[0].rating"),
    (backup(GOOD, [review_entry(review_log="no")]), "reviews[0].review_log"),
    (
        backup(GOOD, schedule={"attention": {k: v for k, v in STATE.items() if k != "card_id"}}),
        "card_id",
    ),
    (backup(GOOD, schedule={"attention": {**STATE, "due": "2026-02-04"}}), "without a zone"),
    (backup(GOOD, schedule={"attention": {**STATE, "state": 9}}), "state"),
    (backup(GOOD, schedule={"attention": {**STATE, "stability": "x"}}), "stability"),
    (backup(GOOD, schedule={"": STATE}), "schedule card id"),
    (backup(GOOD, extra=[]), "unknown section 'extra'"),
    (backup(GOOD, version=True), "version True"),
    ({"version": 1, "attempts": GOOD}, "not a quizzer progress file"),
]


def one_entry_per_line(data: object) -> str:
    """The layout `progress export` writes (read in line batches)."""
    return json.dumps(data).replace("[{", "[\n{").replace("}, {", "},\n{").replace("}]", "}\n]")


@pytest.mark.parametrize("layout", [json.dumps, one_entry_per_line], ids=["one line", "by lines"])
@pytest.mark.parametrize(("data", "fragment"), BAD_ENTRIES, ids=[c[1] for c in BAD_ENTRIES])
def test_a_bad_entry_anywhere_writes_nothing(tmp_path, data, fragment, layout):
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        store.record_attempt(None, Attempt("old", "b", "x", True, 1, 0, 5, T0))
    before = rows(db)
    source = tmp_path / "bad.json"
    source.write_text(layout(data), encoding="utf-8")
    with Store.open(db) as store, pytest.raises(BadBackup, match=r"malformed|progress") as caught:
        import_backup(store, source, T0)
    assert fragment in caught.value.message
    assert "\n" not in caught.value.message
    assert rows(db) == before


RAW_BAD_FILES = [
    (
        "5000 digits",
        '{"format": "quizzer-progress", "version": 1, "attempts": [{"ms": 1%s}]}' % ("0" * 5000),
        "not valid JSON",
    ),
    (
        "deep nesting",
        '{"format": "quizzer-progress", "version": 1, "reviews": ['
        + "[" * 100_000
        + "]" * 100_000
        + "]}",
        "not valid JSON",
    ),
    ("truncated", '{"format": "quizzer-progress", "version": 1, "attempts": [{"card": "a"', "JSON"),
    ("trailing text", '{"format": "quizzer-progress", "version": 1} {}', "after the end"),
    ("twice", '{"format": "quizzer-progress", "format": "quizzer-progress"}', "twice"),
    ("not an object", "[1, 2]", "not a JSON object"),
    ("empty", "", "not a JSON object"),
    ("latin-1", '{"format": "quizzer-progress", "given": "caf\xe9"}', "not UTF-8"),
]


@pytest.mark.parametrize(
    ("text", "fragment"), [c[1:] for c in RAW_BAD_FILES], ids=[c[0] for c in RAW_BAD_FILES]
)
def test_files_that_are_not_backups(tmp_path, text, fragment):
    source = tmp_path / "bad.json"
    source.write_bytes(text.encode("latin-1") if "\xe9" in text else text.encode())
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup, match=fragment):
        import_backup(store, source, T0)
    assert rows(tmp_path / "p.db") == (0, 0, 0, 0)


def test_a_backup_read_past_its_limit_is_refused(tmp_path):
    source = write_json(tmp_path / "big.json", backup(GOOD * 50))
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup, match="too large"):
        import_backup(store, source, T0, limit=1000)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_special_files_are_refused_at_once(tmp_path, special):
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "backup.json"
        os.mkfifo(path)
    started = time.monotonic()
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup, match="not a regular"):
        import_backup(store, path, T0)
    assert time.monotonic() - started < 5


def test_times_are_kept_in_utc_at_the_stored_precision_so_reimports_match(tmp_path):
    data = backup(
        [attempt_entry(at="2026-02-01T10:00:00.123456+02:00")],
        [review_entry(at="2026-02-01T10:00:00.999999+02:00")],
    )
    source = write_json(tmp_path / "b.json", data)
    with Store.open(tmp_path / "p.db") as store:
        first = import_backup(store, source, T0)
        again = import_backup(store, source, T0)
        (stored,) = store.attempts()
        (review,) = store.reviews()
    assert (first.attempts, first.reviews) == (1, 1)
    assert (again.attempts, again.reviews, again.schedules) == (0, 0, 0)
    assert stored.at == datetime(2026, 2, 1, 8, 0, 0, 123000, tzinfo=timezone.utc)
    assert review.at == datetime(2026, 2, 1, 8, 0, 0, 999000, tzinfo=timezone.utc)
    assert rows(tmp_path / "p.db") == (1, 1, 0, 1)  # one import session, not two


def test_genuine_repeats_within_a_backup_are_kept_once_each(tmp_path):
    source = write_json(tmp_path / "b.json", backup([attempt_entry()] * 3))
    with Store.open(tmp_path / "p.db") as store:
        assert import_backup(store, source, T0).attempts == 3
        assert import_backup(store, source, T0).attempts == 0
        assert len(store.attempts()) == 3


def test_the_newer_schedule_wins_and_an_older_one_changes_nothing(tmp_path):
    newer = {**STATE, "last_review": "2026-02-03T08:00:00+00:00", "due": "2026-02-09T08:00:00Z"}
    with Store.open(tmp_path / "p.db") as store:
        import_backup(store, write_json(tmp_path / "a.json", backup(schedule={"c": STATE})), T0)
        assert store.fsrs_cards()["c"]["due"] == STATE["due"]
        import_backup(store, write_json(tmp_path / "b.json", backup(schedule={"c": newer})), T0)
        assert store.fsrs_cards()["c"]["due"] == "2026-02-09T08:00:00+00:00"
        result = import_backup(store, tmp_path / "a.json", T0)
        assert result.schedules == 0
        assert store.fsrs_cards()["c"]["due"] == "2026-02-09T08:00:00+00:00"


def import_in_process(db: str, source: str) -> int:
    with Store.open(Path(db)) as store:
        return import_backup(store, Path(source), T0).attempts


def test_five_imports_at_once_add_the_backup_once(tmp_path):
    attempts = [
        attempt_entry(given=f"a{n}", at=f"2026-02-01T08:00:{n % 60:02}.5Z") for n in range(300)
    ]
    reviews = [review_entry(at=f"2026-02-01T09:{n:02}:00Z") for n in range(40)]
    source = write_json(tmp_path / "b.json", backup(attempts, reviews, {"attention": STATE}))
    db = tmp_path / "p.db"
    Store.open(db).close()
    context = multiprocessing.get_context("spawn")
    with context.Pool(5) as pool:
        added = pool.starmap(import_in_process, [(str(db), str(source))] * 5)
    assert sorted(added) == [0, 0, 0, 0, 300]
    assert rows(db) == (300, 40, 1, 1)


def test_export_then_import_round_trips_through_the_streamed_file(tmp_path):
    with Store.open(tmp_path / "a.db") as store:
        for n in range(7):
            store.record_attempt(None, Attempt("c", "b", f'x{n}\n"é', n % 2 == 0, 1, 0, n, T0))
        store.save_review(Review("c", 3, {"card_id": 7, "nested": [1, {"a": None}]}, T0), STATE)
        written = write_backup(store, tmp_path / "backup.json")
        expected = export_progress(store)
    assert (written.attempts, written.reviews) == (7, 1)
    assert json.loads((tmp_path / "backup.json").read_text(encoding="utf-8")) == expected
    assert read_backup(tmp_path / "backup.json") == expected
    Backup.model_validate(expected)
    with Store.open(tmp_path / "b.db") as other:
        merged = import_backup(other, tmp_path / "backup.json", T0)
        assert (merged.attempts, merged.reviews, merged.schedules) == (7, 1, 1)
        assert export_progress(other) == expected


def test_an_empty_store_exports_a_backup_that_imports(tmp_path):
    with Store.open(tmp_path / "a.db") as store:
        write_backup(store, tmp_path / "backup.json")
    assert json.loads((tmp_path / "backup.json").read_text()) == backup()
    with Store.open(tmp_path / "b.db") as other:
        assert import_backup(other, tmp_path / "backup.json", T0).attempts == 0
    assert rows(tmp_path / "b.db") == (0, 0, 0, 0)


EXPORT_UNDER_A_SIZE_LIMIT = textwrap.dedent(
    """
    import resource, sys
    from quizzer.launch import main
    resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
    sys.argv = ["quizzer", "progress", "export", sys.argv[1]]
    main()
    """
)


def test_a_failed_export_leaves_the_previous_backup_whole(tmp_path):
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        store.connection.executemany(
            "INSERT INTO attempts (card_id, blank, given, correct, try, hints, ms, at)"
            " VALUES ('c', 'b', ?, 1, 1, 0, 5, '2026-02-01T08:00:00.000+00:00')",
            [(f"answer {n}",) for n in range(2000)],
        )
        store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    target = tmp_path / "backup.json"
    target.write_text('{"the": "previous backup"}')
    env = {**os.environ, "QUIZZER_DB": str(db)}
    result = subprocess.run(
        [sys.executable, "-c", EXPORT_UNDER_A_SIZE_LIMIT, str(target)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 2, result.stderr
    assert "cannot write" in result.stderr and "Traceback" not in result.stderr
    assert target.read_text() == '{"the": "previous backup"}'
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("2026-02-01T08:00:00.123+00:00", "2026-02-01T08:00:00.123+00:00"),
        ("2026-02-01T08:00:00.123456Z", "2026-02-01T08:00:00.123+00:00"),
        ("2026-02-01T09:00:00+01:00", "2026-02-01T08:00:00.000+00:00"),
        ("2026-01-31T23:59:59.9999-08:00", "2026-02-01T07:59:59.999+00:00"),
    ],
)
def test_times_are_stored_in_one_form(tmp_path, given, stored):
    source = write_json(tmp_path / "b.json", backup([attempt_entry(at=given)]))
    with Store.open(tmp_path / "p.db") as store:
        import_backup(store, source, T0)
        assert store.connection.execute("SELECT at FROM attempts").fetchone()[0] == stored


def test_a_time_in_the_stored_form_that_is_no_date_is_refused(tmp_path):
    source = write_json(
        tmp_path / "b.json", backup([attempt_entry(at="2026-02-30T08:00:00.000+00:00")])
    )
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup, match="not an ISO"):
        import_backup(store, source, T0)


LAYOUTS = {
    "one line": lambda data: json.dumps(data),
    "indent=1 (quizzer before the streamed export)": lambda data: json.dumps(data, indent=1),
    "an entry split after a nested object": lambda data: (
        json.dumps(data)
        .replace(
            '"review_log": {"card_id": 7, "rating": 3},',
            '"review_log": {"card_id": 7, "rating": 3},\n',
        )
        .replace('}, {"card"', '},\n{"card"')
    ),
    "one entry per line, CRLF": lambda data: json.dumps(data).replace(
        '}, {"card"', '},\r\n{"card"'
    ),
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_every_json_layout_of_a_backup_imports_alike(tmp_path, layout):
    data = backup(
        [attempt_entry(given=f"g{n}", at=f"2026-02-01T08:00:0{n}.5Z") for n in range(5)],
        [review_entry(at=f"2026-02-01T09:00:0{n}Z") for n in range(4)],
        {"attention": STATE},
    )
    source = tmp_path / "b.json"
    source.write_text(LAYOUTS[layout](data), encoding="utf-8")
    with Store.open(tmp_path / "p.db") as store:
        merged = import_backup(store, source, T0)
        assert (merged.attempts, merged.reviews, merged.schedules) == (5, 4, 1)
        assert [a.given for a in store.attempts()] == [f"g{n}" for n in range(5)]


def test_a_streamed_export_is_read_in_line_batches_across_chunks(tmp_path, monkeypatch):
    # Small chunks and batches: batch edges fall inside lines and between chunks.
    from quizzer.progress import restore as backup_module

    monkeypatch.setattr(backup_module, "_READ_CHUNK", 97)
    monkeypatch.setattr(backup_module, "BATCH", 3)
    with Store.open(tmp_path / "a.db") as store:
        for n in range(50):
            store.record_attempt(None, Attempt("c", "b", f"x{n}", True, 1, 0, n, T0))
        write_backup(store, tmp_path / "backup.json")
        expected = export_progress(store)
    with Store.open(tmp_path / "b.db") as other:
        assert import_backup(other, tmp_path / "backup.json", T0).attempts == 50
        assert export_progress(other)["attempts"] == expected["attempts"]


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "quizzer-progress", "version": 1, "attempts": [\n{"card": "a"},\n]}',
        '{"format": "quizzer-progress", "version": 1, "attempts": [\n{"card": "a"}\n'
        '{"card": "b"}\n]}',
    ],
    ids=["trailing comma", "missing comma"],
)
def test_line_batches_do_not_relax_json(tmp_path, text):
    source = tmp_path / "b.json"
    source.write_text(text)
    with Store.open(tmp_path / "p.db") as store, pytest.raises(BadBackup):
        import_backup(store, source, T0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(
    attempts=st.lists(json_values, max_size=6),
    reviews=st.lists(st.dictionaries(st.text(max_size=4), json_values, max_size=3), max_size=6),
    schedule=st.dictionaries(st.text(max_size=4), json_values, max_size=3),
    indent=st.sampled_from([None, 0, 1, 2, "\t"]),
    one_per_line=st.booleans(),
    chunk=st.integers(1, 64),
)
def test_the_streamed_reader_reads_what_json_reads(
    tmp_path_factory, attempts, reviews, schedule, indent, one_per_line, chunk
):
    from quizzer.progress import restore as backup_module

    data = backup(attempts, reviews, schedule)
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if one_per_line and indent is None:
        text = text.replace("}, {", "},\n{")
    path = tmp_path_factory.mktemp("stream") / "b.json"
    path.write_text(text, encoding="utf-8")
    real_chunk = backup_module._READ_CHUNK
    backup_module._READ_CHUNK = chunk  # chunk edges anywhere, inside characters too
    try:
        assert read_backup(path) == json.loads(text)
    finally:
        backup_module._READ_CHUNK = real_chunk
