"""``quizzer import anki``: what an import wrote, kept, and left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizzer.ui.console import Output
from quizzer.ui.widgets import counted

if TYPE_CHECKING:
    from quizzer.app.importing import AnkiImport


class ImportScreen(Output):
    """The screen of ``import anki``."""

    def anki_import(self, result: AnkiImport) -> None:
        """One summary line, then each skipped note with its reason, then what to run next."""
        new = result.cards_written - result.updated
        parts = [f"{counted(result.notes, 'note')} read", f"{new} new", f"{result.updated} updated"]
        if result.unchanged:
            parts.append(f"{result.unchanged} unchanged")
        self.out.print(f"{', '.join(parts)} in {result.folder}", soft_wrap=True)
        if result.edited:
            self.note(f"left {counted(result.edited, 'edited card')} alone")
        others = [s for s in result.skipped if not s.reason.endswith("left alone")]
        for skipped in others:
            about = f' "{skipped.about}"' if skipped.about else ""
            self.warning(f"skipped note{about} ({skipped.note}): {skipped.reason}")
        if result.reviews_imported:
            self.note(f"{counted(result.reviews_imported, 'Anki review')} added to your progress")
        if result.media_skipped:
            self.note(f"{counted(result.media_skipped, 'media file')} not copied")
        self.note(f"next: quizzer validate {result.folder}  ·  quizzer quiz --deck {result.folder}")
