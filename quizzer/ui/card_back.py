"""A finished card's back in ``quiz`` and ``review``: the filled formula and its sections."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from quizzer.cards.sections import BY_FIELD, SECTIONS, Depth, sections_to
from quizzer.ui.card import section_view
from quizzer.ui.view import View
from quizzer.ui.widgets import filled_line

if TYPE_CHECKING:
    from quizzer.cards.model import Card
    from quizzer.study import events as flow

#: What a card's back shows first, in a terminal; the rest is one key each.
CARD_BACK = ("intuition", "explanation")


class CardBackView(View):
    """What follows a card's last blank: piped, every section; in a terminal, a menu."""

    def card_finished(self, event: flow.CardFinished, *, brief: bool) -> None:
        """The filled formula, then the sections to read while it is fresh, up to the
        follow-ups (which the study loop shows next).

        ``brief`` keeps what fits on the way to an interview (red flags, bullets).
        """
        card = event.card
        self.out.print(filled_line(card, event.filled, right=event.result.all_correct))
        if event.result.skipped:
            self.out.print(Text("skipped", style="dim"))
        self._sections(card, brief=brief, after_follow_ups=False)

    def card_back(self, event: flow.CardBack) -> None:
        """In a terminal: the filled formula, the intuition and the explanation.

        Taller than the terminal, they go through the pager, so nothing unread
        scrolls off the top; the other sections wait for their key.
        """
        card = event.card
        with self.output.paged():
            self.out.print(filled_line(card, event.filled, right=event.result.all_correct))
            if event.result.skipped:
                self.out.print(Text("skipped", style="dim"))
            for field in CARD_BACK:
                view = section_view(card, BY_FIELD[field])
                if view is not None:
                    self.out.print(view)

    def section_shown(self, event: flow.SectionShown) -> None:
        """One section asked for at the card back's menu (paged when taller than the screen)."""
        view = section_view(event.card, BY_FIELD[event.field])
        if view is not None:
            with self.output.paged():
                self.out.print(view)

    def closing_sections(self, event: flow.ClosingSections, *, brief: bool = False) -> None:
        """The sections after the follow-ups (the 60-second review)."""
        self._sections(event.card, brief=brief, after_follow_ups=True)

    def _sections(self, card: Card, *, brief: bool, after_follow_ups: bool) -> None:
        follow_ups = SECTIONS.index(BY_FIELD["follow_ups"])
        for section in sections_to(Depth.REVIEW if brief else Depth.STUDY):
            if (SECTIONS.index(section) > follow_ups) != after_follow_ups:
                continue
            view = section_view(card, section) if section.kind != "follow_ups" else None
            if view is not None:
                self.out.print(view)
