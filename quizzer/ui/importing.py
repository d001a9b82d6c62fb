"""``quizzer import anki``: what an import wrote, kept, and left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizzer.ui.view import View
from quizzer.ui.widgets import counted

if TYPE_CHECKING:
    from quizzer.app.importing import AnkiImport


class ImportView(View):
    """The screen of ``import anki``."""

    def anki_import(self, result: AnkiImport) -> None:
        """One summary line, then each skipped note with its reason, then what to run next."""
        new = result.cards_written - result.updated
        parts = [f"{counted(result.notes, 'note')} read", f"{new} new", f"{result.updated} updated"]
        if result.unchanged:
            parts.append(f"{result.unchanged} unchanged")
        self.out.print(f"{', '.join(parts)} in {result.folder}", soft_wrap=True)
        if result.edited:
            self.output.note(f"left {counted(result.edited, 'edited card')} alone")
        others = [s for s in result.skipped if not s.reason.endswith("left alone")]
        for skipped in others:
            about = f' "{skipped.about}"' if skipped.about else ""
            self.output.warning(f"skipped note{about} ({skipped.note}): {skipped.reason}")
        if result.reviews_imported:
            reviews = counted(result.reviews_imported, "Anki review")
            self.output.note(f"{reviews} added to your progress")
        if result.media_skipped:
            self.output.note(f"{counted(result.media_skipped, 'media file')} not copied")
        folder = result.folder
        self.output.note(f"next: quizzer validate {folder}  ·  quizzer quiz --deck {folder}")
