"""``quizzer import anki``: packages made by the official ``anki`` library become cards.

The packages are built here with Anki's own code (its stock Basic, Basic and
reversed, and Cloze note types; tags, hints, HTML, MathJax, a media file) and
written in each format Anki writes: the current .apkg (zstd ``anki21b``), the
legacy .apkg (``anki21``), a whole-collection .colpkg, and genanki's
``collection.anki2``-only package.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

anki_collection = pytest.importorskip("anki.collection")

from quizzer.imports.html_text import escape_markdown, plain_text, to_markdown  # noqa: E402
from quizzer.imports.notes import NoteSkipped, clozes_in, kebab  # noqa: E402

CAPITAL_GUID = "capital-guid"


def _collection(folder: Path, *, capital_back: str = "Paris"):
    col = anki_collection.Collection(str(folder / "source.anki2"))
    models = col.models
    note = col.new_note(models.by_name("Basic"))
    note["Front"] = "What is the <b>capital</b> of France?"
    note["Back"] = capital_back
    note.tags = ["Geography", "Europe::France"]
    note.guid = CAPITAL_GUID
    col.add_note(note, 1)
    note = col.new_note(models.by_name("Basic (and reversed card)"))
    note["Front"] = "dog <i>(French)</i>"
    note["Back"] = "chien"
    note.guid = "dog-guid"
    col.add_note(note, 1)
    note = col.new_note(models.by_name("Cloze"))
    note["Text"] = (
        "The {{c1::mitochondria::organelle}} is the <i>powerhouse</i> of the {{c2::cell}}."
        "<br>Energy: \\(E = {{c3::mc^2}}\\), and 2 * 3 &lt; 7.<img src='cell.png'>"
    )
    note["Back Extra"] = "From <a href='https://example.org'>biology</a>: a_b *stays*."
    note.tags = ["bio"]
    note.guid = "cell-guid"
    col.add_note(note, 1)
    col.media.write_data("cell.png", b"\x89PNG not really")
    return col


@pytest.fixture(scope="module")
def packages(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("anki")
    col = _collection(folder)
    made = {}
    for name, legacy in (("current.apkg", False), ("legacy.apkg", True)):
        col.export_anki_package(
            out_path=str(folder / name),
            options=anki_collection.ExportAnkiPackageOptions(
                with_scheduling=True, with_media=True, legacy=legacy
            ),
            limit=None,
        )
        made[name] = folder / name
    col.export_collection_package(str(folder / "whole.colpkg"), include_media=True, legacy=False)
    made["whole.colpkg"] = folder / "whole.colpkg"
    col.close()
    return made


@pytest.fixture(scope="module")
def edited_package(tmp_path_factory) -> Path:
    """The same deck after the capital's back was changed in Anki."""
    folder = tmp_path_factory.mktemp("anki-edited")
    col = _collection(folder, capital_back="Paris<br>since 508")
    out = folder / "edited.apkg"
    col.export_anki_package(
        out_path=str(out),
        options=anki_collection.ExportAnkiPackageOptions(with_media=True),
        limit=None,
    )
    col.close()
    return out


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml"))}


@pytest.mark.parametrize("kind", ["current.apkg", "legacy.apkg", "whole.colpkg"])
def test_every_format_imports_into_cards_that_validate(invoke, packages, tmp_path, kind):
    out = tmp_path / "cards"
    result = invoke("import", "anki", str(packages[kind]), "--to", str(out), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report == {
        "notes": 3,
        "cards_written": 3,
        "updated": 0,
        "skipped": [],
        "media_skipped": 1,
    }
    assert len(_files(out)) == 3
    checked = invoke("validate", str(out))
    assert checked.exit_code == 0, checked.output


def test_notes_become_the_cards_they_say(invoke, packages, tmp_path):
    import yaml

    out = tmp_path / "cards"
    assert invoke("import", "anki", str(packages["current.apkg"]), "--to", str(out)).exit_code == 0
    cards = {}
    for text in _files(out).values():
        card = yaml.safe_load(text)
        cards[card["title"]] = card
    capital = cards["What is the capital of France?"]
    assert capital["tags"] == ["europe-france", "geography"]  # Anki keeps tags sorted
    assert capital["blanks"] == {"answer": {"answer": "Paris"}}
    assert capital["prompt"] == "What is the capital of France?\n\n{{answer}}"
    assert cards["dog (French)"]["blanks"]["answer"]["answer"] == "chien"
    (cloze,) = [c for c in cards.values() if "c1" in c["blanks"]]
    assert cloze["prompt"] == (
        "The {{c1}} is the powerhouse of the {{c2}}.\nEnergy: \\(E = {{c3}}\\), and 2 * 3 < 7."
    )
    assert cloze["blanks"]["c1"] == {"answer": "mitochondria", "hint": "organelle"}
    assert cloze["blanks"]["c2"] == {"answer": "cell"}
    # mc^2 is not a phrase: answered by its words, the text as written accepted too
    assert cloze["blanks"]["c3"] == {"answer": "mc 2", "also": ["mc^2"]}
    assert cloze["explanation"] == r"From [biology](<https://example.org>): a\_b \*stays\*."
    assert cloze["tags"] == ["bio"]


def test_imported_cards_can_be_quizzed_with_piped_answers(invoke, packages, tmp_path):
    out = tmp_path / "cards"
    invoke("import", "anki", str(packages["current.apkg"]), "--to", str(out))
    (cloze,) = [name[:-5] for name, text in _files(out).items() if "{{c1}}" in text]
    result = invoke(
        "quiz", "--no-record", "--deck", str(out), cloze, input="mitochondria\ncell\nmc^2\n"
    )
    assert result.exit_code == 0, result.output
    assert "accuracy 100% (3 of 3 answers right)" in result.output


def test_importing_twice_leaves_the_same_files(invoke, packages, tmp_path):
    out = tmp_path / "cards"
    invoke("import", "anki", str(packages["current.apkg"]), "--to", str(out))
    first = _files(out)
    again = invoke("import", "anki", str(packages["legacy.apkg"]), "--to", str(out), "--json")
    assert json.loads(again.stdout)["cards_written"] == 0
    assert _files(out) == first
    said = invoke("import", "anki", str(packages["whole.colpkg"]), "--to", str(out))
    assert "3 notes read, 0 new, 0 updated, 3 unchanged" in said.stdout


def test_a_reimport_updates_changed_notes_and_leaves_edited_cards_alone(
    invoke, packages, edited_package, tmp_path
):
    out = tmp_path / "cards"
    invoke("import", "anki", str(packages["current.apkg"]), "--to", str(out))
    before = _files(out)
    (capital,) = [name for name, text in before.items() if "capital" in text]
    (dog,) = [name for name, text in before.items() if "chien" in text]
    (out / dog).write_text(before[dog].replace("chien", "le chien"), encoding="utf-8")
    result = invoke("import", "anki", str(edited_package), "--to", str(out), "--json")
    report = json.loads(result.stdout)
    assert report["cards_written"] == 1 and report["updated"] == 1
    assert [s["reason"] for s in report["skipped"]] == [f"{dog} was edited since: left alone"]
    after = _files(out)
    assert set(after) == set(before)  # the same files: updated in place, nothing duplicated
    assert "answer: Paris\n" in after[capital] and "since 508" in after[capital]
    assert "le chien" in after[dog]
    told = invoke("import", "anki", str(edited_package), "--to", str(out))
    assert "left 1 edited card alone" in told.output


def test_a_genanki_package_imports(invoke, tmp_path):
    """genanki writes only the oldest format (collection.anki2): quizzer's own export."""
    apkg = tmp_path / "deck.apkg"
    assert invoke("export", "anki", str(apkg), "attention", "bayes-rule").exit_code == 0
    out = tmp_path / "cards"
    result = invoke("import", "anki", str(apkg), "--to", str(out), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["notes"] == 2 and report["cards_written"] == 2
    assert invoke("validate", str(out)).exit_code == 0


def _corrupt(tmp_path: Path, packages) -> dict[str, Path]:
    whole = packages["current.apkg"].read_bytes()
    (tmp_path / "cut.apkg").write_bytes(whole[: len(whole) // 2])
    with zipfile.ZipFile(tmp_path / "other.apkg", "w") as archive:
        archive.writestr("notes.txt", "not anki")
    with zipfile.ZipFile(tmp_path / "junk.apkg", "w") as archive:
        archive.writestr("collection.anki2", "not a database")
    (tmp_path / "junk.colpkg").write_bytes((tmp_path / "junk.apkg").read_bytes())
    (tmp_path / "text.apkg").write_text("hello", encoding="utf-8")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    return {
        "cut": tmp_path / "cut.apkg",
        "other": tmp_path / "other.apkg",
        "junk": tmp_path / "junk.apkg",
        "junkcol": tmp_path / "junk.colpkg",
        "text": tmp_path / "text.apkg",
        "missing": tmp_path / "missing.apkg",
        "folder": tmp_path,
    }


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("cut", "not an Anki package (not a zip file, or a damaged one)"),
        ("other", "not an Anki package (a zip file with no collection in it)"),
        ("junk", "the collection inside is damaged (not a database)"),
        ("junkcol", "cannot read"),
        ("text", "not an Anki package"),
        ("missing", "no such file"),
        ("folder", "is a folder, not an Anki package"),
    ],
)
def test_a_bad_package_is_one_line_and_exit_2(invoke, packages, tmp_path, bad, says):
    path = _corrupt(tmp_path, packages)[bad]
    result = invoke("import", "anki", str(path), "--to", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("quizzer: error: ") and says in lines[0]
    assert "Traceback" not in result.output


def test_a_folder_that_cannot_be_written_is_one_line_and_exit_2(invoke, packages, tmp_path):
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    for to in (tmp_path / "afile", tmp_path / "afile" / "sub"):
        result = invoke("import", "anki", str(packages["current.apkg"]), "--to", str(to))
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_import_needs_to(invoke, packages):
    result = invoke("import", "anki", str(packages["current.apkg"]))
    assert result.exit_code == 2 and "--to" in result.output


# -- the pieces ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "clozes"),
    [
        ("{{c1::a}} and {{c2::b::hint}}", [(1, "a", None), (2, "b", "hint")]),
        ("{{c1::a::h::more}}", [(1, "a", "h::more")]),
        ("{{c1::x}} {{c1::y}}", [(1, "x", None), (1, "y", None)]),
        ("no clozes }} {{c", []),
        ("{{c1::unclosed", []),
        ("\\(\\frac{a}{ {{c1::b}} }\\)", [(1, "b", None)]),
    ],
)
def test_clozes_are_read_as_anki_reads_them(field, clozes):
    assert [(c.number, c.answer_html, c.hint_html) for c in clozes_in(field)] == clozes


def test_a_nested_cloze_is_skipped_with_its_reason():
    with pytest.raises(NoteSkipped, match="nested"):
        clozes_in("{{c1::outer {{c2::inner}} }}")


@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        ("<b>bold</b> and <i>it</i>", "**bold** and *it*"),
        ("a*b_c", r"a\*b\_c"),
        ("\\(a_b * c\\)", "\\(a_b * c\\)"),
        ("\\[x &lt; y\\]", "\\[x < y\\]"),
        ("<div>one</div><div>two</div>", "one\n\ntwo"),
        ("<ul><li>x</li><li>y</li></ul>", "- x\n- y"),
        ("line<br>next", "line\nnext"),
        ("# not a heading", r"\# not a heading"),
        ("[sound:a.mp3]hear", "hear"),
        ("<a href='javascript:x'>link</a>", r"link"),
        ("<script>bad()</script>&lt;b&gt;", r"bad()\<b\>"),
    ],
)
def test_html_becomes_markdown(html, markdown):
    assert to_markdown(html) == markdown


def test_plain_text_drops_markup_and_math_delimiters():
    assert plain_text("<b>x</b>&nbsp;+ \\(y^2\\)<br>z") == "x + y^2 z"


def test_kebab_spelling_of_anki_tags():
    assert kebab("Europe::France") == "europe-france"
    assert kebab("Ünïcode_tag") == "unicode-tag"
    assert kebab("日本") == ""


def test_escaped_text_renders_as_written():
    from hypothesis import given
    from hypothesis import strategies as st
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")

    @given(st.text(alphabet="ab *_`[]<>#-+1.!|~\\", min_size=1, max_size=30))
    def check(text):
        rendered = md.renderInline(escape_markdown(text))
        import html

        assert html.unescape(rendered) == text

    check()


def test_notes_that_cannot_be_cards_are_skipped_with_their_reasons(invoke, tmp_path):
    col = anki_collection.Collection(str(tmp_path / "tricky.anki2"))
    cloze, basic = col.models.by_name("Cloze"), col.models.by_name("Basic")
    for model, fields, guid in [
        (cloze, {"Text": "{{c1::outer {{c2::inner}} }}"}, "nested"),
        (cloze, {"Text": "no cloze here"}, "no-cloze"),
        (basic, {"Front": "<img src='a.png'>", "Back": "image only"}, "image-front"),
        (basic, {"Front": "Empty back?", "Back": ""}, "empty-back"),
        (cloze, {"Text": "{{c1::Paris}} and {{c1::Lyon}} are in {{c2::France}}"}, "twice"),
    ]:
        note = col.new_note(model)
        for name, value in fields.items():
            note[name] = value
        note.guid = guid
        col.add_note(note, 1)
    apkg = tmp_path / "tricky.apkg"
    col.export_anki_package(
        out_path=str(apkg), options=anki_collection.ExportAnkiPackageOptions(), limit=None
    )
    col.close()
    out = tmp_path / "cards"
    result = invoke("import", "anki", str(apkg), "--to", str(out), "--json")
    report = json.loads(result.stdout)
    assert report["notes"] == 5 and report["cards_written"] == 1
    assert {s["note"]: s["reason"] for s in report["skipped"]} == {
        "nested": "nested clozes (a cloze inside a cloze)",
        "no-cloze": "a cloze note without a cloze",
        "image-front": "the front has no text (only media or nothing)",
        "empty-back": "the back has no text (only media or nothing)",
    }
    (card,) = _files(out).values()
    assert "prompt: '{{c1}} and {{c1_2}} are in {{c2}}'" in card  # one gap per occurrence
    said = invoke("import", "anki", str(apkg), "--to", str(out))
    assert 'skipped note "Empty back?" (empty-back): the back has no text' in said.output


def test_with_history_brings_anki_reviews_into_progress_once(invoke, tmp_path):
    col = anki_collection.Collection(str(tmp_path / "history.anki2"))
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"], note["Back"], note.guid = "Capital of Italy?", "Rome", "rome-guid"
    col.add_note(note, 1)
    (card,) = note.cards()
    day = 86_400_000
    start = 1_767_225_600_000  # 2026-01-01
    for index, ease in enumerate([3, 1, 3, 4]):  # Good, Again, Good, Easy
        col.db.execute(
            "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
            " values (?, ?, -1, ?, 1, 0, 2500, 6000, 1)",
            start + index * day,
            card.id,
            ease,
        )
    col.db.execute(  # a manual reschedule (ease 0) is not a review
        "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
        " values (?, ?, -1, 0, 1, 0, 2500, 0, 4)",
        start + 10 * day,
        card.id,
    )
    apkg = tmp_path / "history.apkg"
    col.export_anki_package(
        out_path=str(apkg),
        options=anki_collection.ExportAnkiPackageOptions(with_scheduling=True),
        limit=None,
    )
    col.close()
    out, db = tmp_path / "cards", tmp_path / "progress.db"
    with_history = ("--with-history", "--db", str(db))
    result = invoke("import", "anki", str(apkg), "--to", str(out), *with_history)
    assert result.exit_code == 0, result.output
    assert "4 Anki reviews added to your progress" in result.output
    from quizzer.progress.store import Store

    (card_id,) = [path.stem for path in out.glob("*.yaml")]
    with Store.open(db) as store:
        reviews = store.reviews(card_id)
        assert [r.rating for r in reviews] == [3, 1, 3, 4]
        assert reviews[0].at.year == 2026 and card_id in store.fsrs_cards()
    again = invoke("import", "anki", str(apkg), "--to", str(out), *with_history)
    assert "Anki review" not in again.output
    with Store.open(db) as store:
        assert len(store.reviews(card_id)) == 4
    plain = invoke("import", "anki", str(apkg), "--to", str(tmp_path / "other"), "--db", str(db))
    assert plain.exit_code == 0 and "Anki review" not in plain.output
