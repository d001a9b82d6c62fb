"""The study modes' default sizes, with no imports, so the CLI can show them in ``--help``.

Kept apart from the sessions (which import the card model) so that
``quizzer --help`` stays fast; ``tests/test_cli_defaults.py`` checks the
one value mirrored from the scheduler.
"""

#: Tries per blank in a quiz or review.
TRIES = 3
#: The most tries per blank a learner may ask for.
MAX_TRIES = 10
#: Length of a drill, and the cards it asks.
DRILL_MINUTES = 20
DRILL_CARDS = 6
#: New cards a day in a review (the scheduler's DEFAULT_NEW_PER_DAY; `config new_per_day`).
NEW_PER_DAY = 20
