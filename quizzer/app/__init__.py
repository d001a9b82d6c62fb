"""The use cases of quizzer, between the command line and the core: its Python API.

Each ``quizzer`` command parses its options, makes one call here, and hands
the result to the screen. Scripts use the same calls (docs/python-api.md):

- :mod:`~quizzer.app.workspace`: the one environment (decks, progress, clock, terminal);
- :mod:`~quizzer.app.choosing`: every way of choosing cards;
- :mod:`~quizzer.app.studying`: building and running quiz, review and drill;
- :mod:`~quizzer.app.reports`: status, listing, stats, history, overrides, topics as data;
- :mod:`~quizzer.app.validating`: what ``validate`` reports;
- :mod:`~quizzer.app.exporting`: the table of exporters.

Importing this package loads nothing heavy; each module imports the core lazily.
"""
