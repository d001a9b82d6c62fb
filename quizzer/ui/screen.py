"""The screen a command draws on: every screen of the package on one pair of consoles.

Each module of :mod:`quizzer.ui` holds one command's screen as a mixin on
:class:`quizzer.ui.console.Output`; a command gets them all through
:class:`Screen`, so it needs one object however many screens it shows
(``review`` shows a session and a schedule, ``drill`` a session and a report).
"""

from __future__ import annotations

from quizzer.ui.card import CardScreen
from quizzer.ui.drill import DrillScreen
from quizzer.ui.importing import ImportScreen
from quizzer.ui.listing import ListingScreen
from quizzer.ui.optimize import OptimizeScreen
from quizzer.ui.problems import ProblemsScreen
from quizzer.ui.stats import StatsScreen
from quizzer.ui.verdict import VerdictScreen


class Screen(
    CardScreen,
    ListingScreen,
    ProblemsScreen,
    StatsScreen,
    VerdictScreen,
    DrillScreen,
    OptimizeScreen,
    ImportScreen,
):
    """Standard output and standard error, styled or plain, with every screen's methods."""
