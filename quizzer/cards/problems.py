"""A card file's problems: ``PATH:LINE:COLUMN: message``, and the model's errors said so.

Kept apart from loading (:mod:`quizzer.cards.deck`): how pydantic's errors become
located, friendly lines is its own concern, and the deck loader only calls it.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic import ValidationError

    from quizzer.cards.yamldoc import YamlDoc


@dataclass(frozen=True)
class Problem:
    """One problem in one file, printed as ``PATH:LINE:COLUMN: message``."""

    path: str
    line: int
    column: int
    message: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{self.path}:{self.line}:{self.column}: {prefix}{self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "severity": self.severity,
        }


def located(
    path: Path,
    doc: YamlDoc,
    data_path: Sequence[Any],
    message: str,
    at_key: bool = False,
    warning: bool = False,
) -> Problem:
    position = doc.position_of(tuple(data_path), key=at_key)
    return Problem(
        str(path), position.line, position.column, message, "warning" if warning else "error"
    )


def _field_name(loc: Sequence[Any]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


_PATTERN_MESSAGES = {
    "^[a-z0-9]+(-[a-z0-9]+)*$": "must be lower-case kebab-case, like 'layer-norm'",
    "^[A-Za-z][A-Za-z0-9_]*$": "must be a name of letters, digits and _, starting with a letter",
}


#: pydantic's error kinds for a value of the wrong type, and what the field takes.
_STRICT_TYPES = {
    "bool_type": "true or false",
    "int_type": "a whole number",
    "float_type": "a number",
}


def _reads_as(kind: str, text: str) -> bool:
    """Whether ``text`` written bare would be the type that ``kind`` says was wanted."""
    from quizzer.cards.yamldoc import YamlError, load_yaml

    try:
        value = load_yaml(f"v: {text}").data["v"]
    except (YamlError, TypeError, KeyError):
        return False
    wanted = {"bool_type": (bool,), "int_type": (int,), "float_type": (int, float)}[kind]
    return isinstance(value, wanted) and (kind == "bool_type") == isinstance(value, bool)


def validation_problems(path: Path, doc: YamlDoc, error: ValidationError) -> list[Problem]:
    problems = []
    for detail in error.errors(include_url=False):
        loc = list(detail["loc"])
        kind = detail["type"]
        at_key = False
        if loc and loc[-1] == "[key]":
            # A bad mapping key: pydantic puts the offending key just before "[key]".
            loc = loc[:-1]
            at_key = True
            message = f"'{loc[-1]}' " + _PATTERN_MESSAGES.get(
                str(detail.get("ctx", {}).get("pattern")), detail["msg"].lower()
            )
        elif kind == "missing":
            message = f"missing required field '{loc[-1]}'"
            loc = loc[:-1]
        elif kind == "extra_forbidden":
            message = f"unknown field '{loc[-1]}'"
            at_key = True
            from quizzer.cards.model import fields_at

            parent = fields_at(tuple(loc[:-1]))
            close = difflib.get_close_matches(str(loc[-1]), parent, n=1)
            if close:
                message += f"; did you mean '{close[0]}'?"
        elif kind == "string_pattern_mismatch":
            pattern = str(detail.get("ctx", {}).get("pattern"))
            message = f"{_field_name(loc)} {_PATTERN_MESSAGES.get(pattern, detail['msg'].lower())}"
        elif kind == "string_type" and tuple(loc) in doc.number_texts:
            # YAML 1.2 reads 1e-4, 0o17, .5 as numbers: quoted they are text, as wanted.
            written = doc.number_texts[tuple(loc)]
            message = (
                f"{_field_name(loc)}: text is wanted, not the number {written}:"
                f' quote it, "{written}"'
            )
        elif kind in _STRICT_TYPES and isinstance(detail.get("input"), str):
            # Quoted in YAML, so text: the schema refuses it and so do we, with the fix.
            given = detail["input"]
            wanted = f"{detail['msg'][0].lower()}{detail['msg'][1:]}"
            message = f"{_field_name(loc)}: {wanted}, not the text {given!r}"
            if _reads_as(kind, given):
                message += ": write it without quotes"
            else:
                message += f" ({_STRICT_TYPES[kind]})"
        else:
            text = detail["msg"].removeprefix("Value error, ")
            message = f"{_field_name(loc)}: {text[0].lower()}{text[1:]}"
        problems.append(located(path, doc, loc, message, at_key))
    return problems


#: Fields holding answer syntax: a number there is kept as its author wrote it.
_ANSWER_FIELDS = frozenset({"answer", "value", "formula"})


def answers_as_written(doc: YamlDoc) -> None:
    """Put back the text of bare numbers in answer fields: ``answer: 1e-4`` stays ``1e-4``.

    YAML 1.2 reads ``1e-4``, ``012`` and ``0.50`` as numbers, whose Python
    text (``0.0001``, ``12``, ``0.5``) is not what the author wrote or the
    learner is shown.
    """
    for path, text in doc.number_texts.items():
        if not path or path[-1] not in _ANSWER_FIELDS:
            continue
        parent = doc.data
        try:
            for part in path[:-1]:
                parent = parent[part]
            if isinstance(parent, dict) and not isinstance(parent[path[-1]], bool):
                parent[path[-1]] = text
        except (KeyError, IndexError, TypeError):
            continue
