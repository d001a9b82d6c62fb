"""The text of every input line a study session asks for, one per kind of prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quizzer.ui.dispatch import assert_never

if TYPE_CHECKING:
    from quizzer.study import events as flow
    from quizzer.study.events import Grade

#: Asked before a follow-up's approach is shown, in a terminal.
APPROACH_PROMPT = "    try it first · Enter shows the approach "
#: Asked for a drill's follow-up answer.
FOLLOW_UP_PROMPT = "your answer (or say it out loud), then Enter › "

#: The card back menu's key for each section, and its name there (the 60-second review
#: and the sources come with Enter, and b and s; listed, they would wrap at 80 columns).
MENU = {
    "worked_example": ("e", "example"),
    "code": ("c", "code"),
    "red_flags": ("r", "red flags"),
    "follow_ups": ("f", "follow-ups"),
}


def prompt_line(prompt: flow.Prompt, width: int = 80) -> str:
    """The text of the input line that answers ``prompt`` on a ``width``-column screen."""
    from quizzer.study import events as flow

    match prompt:
        case flow.BlankAsked():
            return blank_prompt(prompt)
        case flow.ApproachAsked():
            return APPROACH_PROMPT
        case flow.RatingAsked():
            return rating_prompt(prompt.grade)
        case flow.SectionAsked():
            return menu_prompt(prompt, width)
        case flow.FollowUpAsked():
            return FOLLOW_UP_PROMPT
        case flow.GradeAsked():
            return grade_prompt(prompt)
        case _:
            assert_never(prompt)


def blank_prompt(asked: flow.BlankAsked) -> str:
    """The input prompt for a blank: its number, name and which try this is."""
    tries = f" (try {asked.try_number} of {asked.tries_allowed})" if asked.try_number > 1 else ""
    return f"[{asked.number}] {asked.blank}{tries} › "


def rating_prompt(grade: Grade) -> str:
    """The prompt that names the rating saved and lets the learner change it.

    The next review is on the recap line right above; left out here, the
    prompt and a typed key fit 80 columns (readline scrolls longer ones).
    """
    return f"rated {grade.label} · 1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "


def grade_prompt(asked: flow.GradeAsked) -> str:
    """The follow-up's grade: the one its key points earned (Enter keeps it), or self-graded."""
    from quizzer.study.events import GRADE_KEYS_HELP

    if asked.proposed is None:
        return f"did you get it? {GRADE_KEYS_HELP} › "
    # As short as the rating prompt: with a drill's clock in front it fits 80 columns.
    return f"grade {asked.proposed.label} · 1 Again 2 Hard 3 Good 4 Easy · Enter keeps › "


def menu_prompt(asked: flow.SectionAsked, width: int = 80) -> str:
    """``Enter next section · e example · c code · r red flags · f follow-ups · n next card``.

    Only the keys of sections the card has, and not yet shown; "Enter next" where
    the whole line would wrap (it is 85 columns with every key).
    """
    keys = " · ".join(f"{MENU[f][0]} {MENU[f][1]}" for f in asked.left if f in MENU)
    line = f"Enter next section · {keys} · n next card › "
    return line if len(line) < width else line.replace("next section", "next", 1)
