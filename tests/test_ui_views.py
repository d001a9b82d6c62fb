"""The screen's views: no two define the same name (issue 21.4).

``Screen`` holds one of each view; a public name defined in two of them
could be called on the wrong one unnoticed (``approach_shown`` was the
drill's for every command when the views were mixins), so each public name
is defined once, and the screen holds every view class there is.
"""

from __future__ import annotations

import io
from collections import defaultdict
from functools import cached_property

import quizzer.ui
from quizzer.ui.screen import Screen
from quizzer.ui.view import View

SCREEN = Screen(file=io.StringIO(), error_file=io.StringIO())
#: The views the screen holds, each built on first use (a cached property).
HELD = [
    getattr(SCREEN, name)
    for name, attribute in vars(Screen).items()
    if isinstance(attribute, cached_property)
]
VIEWS = [type(view) for view in HELD]


def test_no_two_views_define_the_same_name():
    defined: dict[str, list[str]] = defaultdict(list)
    for cls in VIEWS:
        for name in vars(cls):
            if not name.startswith("_"):
                defined[name].append(cls.__name__)
    twice = {name: owners for name, owners in defined.items() if len(owners) > 1}
    assert twice == {}


def test_the_screen_holds_every_view_once_and_no_view_is_a_mixin():
    import importlib
    import pkgutil

    for module in pkgutil.iter_modules(quizzer.ui.__path__):
        importlib.import_module(f"quizzer.ui.{module.name}")
    every_view = set(View.__subclasses__())
    assert every_view == set(VIEWS)
    assert len(VIEWS) == len(set(VIEWS))
    # Composition: the screen is not a view, and a view inherits from View alone.
    assert not isinstance(SCREEN, View)
    assert all(cls.__bases__ == (View,) for cls in VIEWS)
    assert all(view.output is SCREEN for view in HELD)
