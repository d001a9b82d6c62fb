"""The screen's views: no two define the same name (issue 21.4).

``Screen`` gathers every command's view class; a name defined in two of
them is silently taken from one (``approach_shown`` was the drill's for
every command), so each name must be defined once.
"""

from __future__ import annotations

import inspect
from collections import defaultdict

from quizzer.ui.console import Output
from quizzer.ui.screen import Screen


def test_no_two_views_define_the_same_name():
    defined: dict[str, list[str]] = defaultdict(list)
    for cls in inspect.getmro(Screen):
        if cls in (Screen, object) or not issubclass(cls, Output):
            continue
        for name in vars(cls):
            if not (name.startswith("__") and name.endswith("__")):
                defined[name].append(cls.__name__)
    twice = {name: owners for name, owners in defined.items() if len(owners) > 1}
    assert twice == {}
