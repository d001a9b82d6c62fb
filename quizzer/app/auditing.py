"""Auditing cards: the judge against generated mutants of each answer (``quizzer audit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizzer.app.choosing import CardChoice, choose_cards

if TYPE_CHECKING:
    from quizzer.answers.audit import AuditReport
    from quizzer.app.workspace import Workspace


def audit(workspace: Workspace, names: tuple[str, ...] = ()) -> AuditReport:
    """Audit the named cards (ids or files), or every known card when none is named."""
    from quizzer.answers.audit import audit_cards

    # An author audits every card, set aside or not.
    choice = CardChoice(names=names, purpose="to audit", set_aside_too=True)
    chosen = choose_cards(workspace, choice)
    return audit_cards(loaded.card for loaded in chosen)
