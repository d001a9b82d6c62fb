"""Study: quiz, review and drill as plain objects, and the one loop that runs them.

- ``items``, ``events``, ``results``: the shared vocabulary (grades, follow-up ids,
  what a session says and asks, how it went);
- ``quiz``, ``drill``: the sessions (a line in, typed events out);
- ``loop``: drives a session, saves its progress, handles every way out;
- ``recording``: what a session saves; ``overrides``: the learner's disputes;
- ``defaults``: the sizes the command line shows in ``--help``.
"""
