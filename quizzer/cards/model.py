"""The card model: what a question card may say, and the rules that tie it together.

A card is one YAML file. The pydantic model below is the source of truth for
the format (``quizzer schema`` prints it as JSON Schema). Field checks live on
the model; checks that relate fields to each other (every ``{{gap}}`` has a
blank, aliases do not clash, ...) live in :func:`card_problems` so that each
problem can point at the exact YAML node it concerns.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, StringConstraints

from quizzer.cards.sections import STRICT_SECTIONS
from quizzer.names import is_notation, name_key, notation_key

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
TAG_PATTERN = ID_PATTERN
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*$"
GAP = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")

#: Teaching sections: optional in the model, required by ``validate --strict``.
TEACHING_SECTIONS = STRICT_SECTIONS


def _answer_text(value: Any) -> Any:
    # YAML reads `answer: 64` or `answer: 0.5` as numbers; an answer is always text.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


def _exact_int(value: Any) -> Any:
    # pydantic's Literal[1, 2, 3] takes 1.0 and True for 1; the schema says integer.
    if isinstance(value, (bool, float)):
        raise ValueError("input should be 1, 2 or 3 (a whole number, not true or 1.0)")
    return value


AnswerText = Annotated[str, BeforeValidator(_answer_text), StringConstraints(min_length=1)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]
#: Another spelling of a symbol (``dk``, ``β₁``, ``\hat{m}``) or a written notation
#: (``P(B|A)``, ``Var(X)``, ``E[X]``): one line, at most 60 characters.
Alias = Annotated[str, StringConstraints(pattern=r"^\S(?:[^\n]{0,58}\S)?$")]
CardId = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
Tag = Annotated[str, StringConstraints(pattern=TAG_PATTERN)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


#: Types as strict as the schema: YAML's ``"true"`` or ``"2017"`` is text, and a
#: card saying ``positive: "true"`` or ``year: "2017"`` is told so, never coerced
#: (nor is ``1`` a boolean, or ``2017.0`` a year).
Flag = Annotated[bool, Strict()]
Bound = Annotated[float | None, Strict(), Field(allow_inf_nan=False)]


class Symbol(_Strict):
    """A name an answer may use."""

    aliases: list[Alias] = Field(
        default_factory=list,
        description="Other spellings (dk, β₁, \\hat{m}) or written notations the parser reads "
        "as this symbol wherever they appear (P(B|A), Var(X), E[X], f(x)).",
    )
    positive: Flag = Field(
        False, description="A positive real number: the same as range [0, null]."
    )
    matrix: Flag = Field(False, description="The symbol is a matrix (non-commutative).")
    meaning: str | None = Field(None, description="What the symbol stands for, shown to learners.")
    range: tuple[Bound, Bound] | None = Field(
        None,
        description="The open interval the symbol lives in, [lo, hi]; null for an open end.",
    )
    integer: Flag = Field(False, description="The symbol is a whole number (a count, an index).")
    identity: Flag = Field(False, description="A matrix symbol that is the identity matrix I.")
    value: AnswerText | None = Field(
        None,
        description="A definition in the other symbols (e.g. sigmoid(z)); answers may use "
        "the symbol or write its definition out.",
    )


class WrongAnswer(_Strict):
    """A known wrong answer with feedback that teaches."""

    answer: AnswerText
    feedback: Text


class Example(_Strict):
    """A test of the card itself: ``answer`` must judge as ``correct``."""

    answer: AnswerText
    correct: Flag


class Blank(_Strict):
    """One gap in the prompt."""

    answer: AnswerText = Field(description="The expected answer, in answer syntax.")
    also: list[Text] = Field(default_factory=list, description="Accepted words or phrases.")
    hint: Text | None = None
    expects: Text | None = Field(
        None,
        description="What kind of answer the blank wants, said after a miss without giving "
        "it away, e.g. 'an axis of the activation tensor (batch, sequence or feature)'.",
    )
    forbid: list[Name] = Field(
        default_factory=list,
        description="Names (functions or symbols) an answer may not use, e.g. the left-hand "
        "side of an identity the blank asks for.",
    )
    concepts: list[list[Text]] = Field(
        default_factory=list,
        description="Word answers by meaning: groups of synonyms that must all appear, e.g. "
        "[[running, moving average, EMA], [mean, variance, statistics]].",
    )
    exact: Flag = Field(
        False,
        description="A constant blank that requires the exact form: rounded decimals are refused.",
    )
    wrong: list[WrongAnswer] = Field(default_factory=list)
    examples: list[Example] = Field(default_factory=list)

    def accepted_forms(self) -> list[str]:
        """Every accepted form, the answer first, without repeats: what a reveal shows."""
        return list(dict.fromkeys([self.answer, *self.also]))


class KeyPointExample(_Strict):
    """A test of a key point: ``answer`` must be judged ``covered`` (or not)."""

    answer: Text
    covered: Flag


class KeyPoint(_Strict):
    """One thing a good answer to a follow-up says, and the evidence that shows it."""

    point: Text = Field(description="The statement, shown as covered or missed.")
    concepts: list[list[Text]] = Field(
        default_factory=list,
        description="Groups of synonyms that must all appear in the answer.",
    )
    formula: AnswerText | None = Field(
        None,
        description="An expression; the point is shown when a formula in the answer equals it.",
    )
    examples: list[KeyPointExample] = Field(default_factory=list)


class FollowUp(_Strict):
    """What an interviewer would ask next, and how to approach it."""

    question: Text
    approach: Text
    key_points: list[KeyPoint] = Field(default_factory=list)


class Source(_Strict):
    """A primary source: paper, textbook or documentation."""

    title: Text
    authors: Text | None = Field(None, description="e.g. Vaswani et al.")
    year: Annotated[int | None, Strict()] = Field(None, ge=1600, le=2100)
    url: str | None = Field(None, description="arXiv abstract, DOI or documentation address.")


class Card(_Strict):
    """A fill-in-the-blanks question card."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        title="quizzer card",
        json_schema_extra={"description": "A quizzer question card (one YAML file)."},
    )

    id: CardId = Field(description="Unique across all decks, lower-case kebab-case.")
    title: Text
    tags: list[Tag] = Field(default_factory=list)
    prompt: Text = Field(description="The question; each {{name}} is a blank.")
    symbols: dict[Name, Symbol] = Field(default_factory=dict)
    blanks: dict[Name, Blank] = Field(description="The blanks, in prompt order.")
    synonyms: list[list[Text]] = Field(
        default_factory=list,
        description="Groups of words or phrases that mean the same in this card's word "
        "answers, e.g. [[feature, hidden, embedding]]; the first of each group is canonical.",
    )
    intuition: Text | None = None
    explanation: Text | None = None
    worked_example: Text | None = Field(
        None, description="The formula with real numbers, step by step (Markdown)."
    )
    code: Text | None = Field(
        None,
        description="A short numpy snippet that computes the formula and checks it with an "
        "assert. Shown, never run by quizzer.",
    )
    limitations: list[Text] = Field(default_factory=list)
    used_in: list[Text] = Field(default_factory=list)
    follow_ups: list[FollowUp] = Field(default_factory=list)
    red_flags: list[Text] = Field(default_factory=list)
    bullets: list[Text] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    related: list[CardId] = Field(default_factory=list)
    level: Annotated[Literal[1, 2, 3] | None, BeforeValidator(_exact_int)] = Field(
        None,
        description="1 fundamentals, 2 core, 3 advanced: new cards are introduced in this order.",
    )

    def gaps(self) -> list[str]:
        """Blank names in the order they appear in the prompt."""
        return [m.group(1) for m in GAP.finditer(self.prompt)]

    def prompt_parts(self) -> list[str | Gap]:
        """The prompt as text pieces and numbered gaps, for display."""
        numbers = {name: index for index, name in enumerate(self.blanks, start=1)}
        parts: list[str | Gap] = []
        last = 0
        for match in GAP.finditer(self.prompt):
            if match.start() > last:
                parts.append(self.prompt[last : match.start()])
            name = match.group(1)
            parts.append(Gap(numbers.get(name, 0), name))
            last = match.end()
        if last < len(self.prompt):
            parts.append(self.prompt[last:])
        return parts


@dataclass(frozen=True)
class Gap:
    """A numbered gap in a prompt."""

    number: int
    name: str


def trusted_card(data: dict[str, Any]) -> Card:
    """Rebuild a card from data that already passed validation (the deck cache).

    ``model_construct`` skips validation, so a warm start never builds
    pydantic's validators (about 150 ms of start-up).
    """
    blanks = {
        name: Blank.model_construct(
            **{
                **blank,
                "wrong": [WrongAnswer.model_construct(**w) for w in blank["wrong"]],
                "examples": [Example.model_construct(**e) for e in blank["examples"]],
            }
        )
        for name, blank in data["blanks"].items()
    }
    return Card.model_construct(
        **{
            **data,
            "symbols": {n: _trusted_symbol(s) for n, s in data["symbols"].items()},
            "blanks": blanks,
            "follow_ups": [_trusted_follow_up(f) for f in data["follow_ups"]],
            "sources": [Source.model_construct(**s) for s in data["sources"]],
        }
    )


def _trusted_follow_up(data: dict[str, Any]) -> FollowUp:
    points = [
        KeyPoint.model_construct(
            **{**p, "examples": [KeyPointExample.model_construct(**e) for e in p["examples"]]}
        )
        for p in data.get("key_points", [])
    ]
    return FollowUp.model_construct(**{**data, "key_points": points})


def _trusted_symbol(data: dict[str, Any]) -> Symbol:
    # JSON has no tuples: give `range` back the type validation gives it.
    if data.get("range") is not None:
        data = {**data, "range": tuple(data["range"])}
    return Symbol.model_construct(**data)


_MODELS_BY_PATH: dict[tuple[str, ...], type[BaseModel]] = {
    (): Card,
    ("symbols", "*"): Symbol,
    ("blanks", "*"): Blank,
    ("blanks", "*", "wrong", "*"): WrongAnswer,
    ("blanks", "*", "examples", "*"): Example,
    ("follow_ups", "*"): FollowUp,
    ("follow_ups", "*", "key_points", "*"): KeyPoint,
    ("follow_ups", "*", "key_points", "*", "examples", "*"): KeyPointExample,
    ("sources", "*"): Source,
}


def fields_at(path: tuple[Hashable, ...] | list[Hashable]) -> list[str]:
    """Field names allowed in the mapping at ``path`` (for "did you mean" hints)."""
    shape: list[str] = []
    for part in path:
        keyed = shape in (["symbols"], ["blanks"])  # the next part is a name, not a field
        shape.append("*" if isinstance(part, int) or keyed else str(part))
    model = _MODELS_BY_PATH.get(tuple(shape))
    return list(model.model_fields) if model else []


@dataclass(frozen=True)
class CardProblem:
    """A problem found in a card, located by its path in the card's data."""

    path: tuple[Hashable, ...]
    message: str
    at_key: bool = False
    warning: bool = False


def card_problems(card: Card) -> list[CardProblem]:
    """Checks that relate one field of a valid card to another."""
    problems: list[CardProblem] = []
    gaps = card.gaps()
    seen: set[str] = set()
    for gap in gaps:
        if gap in seen:
            problems.append(CardProblem(("prompt",), f"gap {{{{{gap}}}}} appears twice"))
        elif gap not in card.blanks:
            problems.append(CardProblem(("prompt",), f"gap {{{{{gap}}}}} has no blank"))
        seen.add(gap)
    if not gaps:
        problems.append(CardProblem(("prompt",), "prompt has no {{gap}}"))
    for name in card.blanks:
        if name not in seen:
            problems.append(
                CardProblem(("blanks", name), f"blank '{name}' is not in the prompt", at_key=True)
            )
    in_prompt_order = list(dict.fromkeys(name for name in gaps if name in card.blanks))
    listed = [name for name in card.blanks if name in seen]
    if in_prompt_order != listed:
        problems.append(
            CardProblem(
                ("blanks",),
                "list the blanks in prompt order: " + ", ".join(in_prompt_order),
                at_key=True,
            )
        )

    problems.extend(_spelling_clashes(card))
    problems.extend(size_problems(card))
    for name, symbol in card.symbols.items():
        problems.extend(
            CardProblem(("symbols", name, *field), message)
            for field, message in domain_problems(name, symbol)
        )
    for index, other in enumerate(card.related):
        if other == card.id:
            problems.append(CardProblem(("related", index), "a card cannot be related to itself"))
    return problems


def _spelling_clashes(card: Card) -> list[CardProblem]:
    """Two symbols that one typed name (or one notation) would match.

    Names are compared by :func:`~quizzer.names.name_key`, so ``beta_1``
    and ``beta1`` clash, as do ``m_hat`` and ``\\hat{m}``.
    """
    problems: list[CardProblem] = []
    owner: dict[str, tuple[str, str]] = {}  # key -> (symbol, spelling)
    spellings: list[tuple[str, str, tuple[Hashable, ...], bool]] = [
        (name, name, ("symbols", name), True) for name in card.symbols
    ]
    for name, symbol in card.symbols.items():
        for index, alias in enumerate(symbol.aliases):
            spellings.append((name, alias, ("symbols", name, "aliases", index), False))
    for name, spelling, path, at_key in spellings:
        key = notation_key(spelling) if is_notation(spelling) else name_key(spelling)
        other, first = owner.setdefault(key, (name, spelling))
        if other == name:
            continue
        if first == spelling:
            message = f"alias '{spelling}' is already used by symbol '{other}'"
        else:
            message = (
                f"'{spelling}' and '{first}' (symbol '{other}') are one name when typed: "
                f"an answer could not tell '{name}' from '{other}'"
            )
        problems.append(CardProblem(path, message, at_key=at_key))
    return problems


def domain_problems(name: str, symbol: Symbol) -> list[tuple[tuple[str, ...], str]]:
    """Nonsense in a symbol's domain, each with the key it concerns."""
    found: list[tuple[tuple[str, ...], str]] = []
    if symbol.matrix:
        for key in ("positive", "integer", "range"):
            if getattr(symbol, key) not in (False, None):
                found.append(((key,), f"a matrix symbol cannot have '{key}' ('{name}')"))
        return found
    if symbol.identity:
        found.append((("identity",), f"'identity' needs 'matrix: true' ('{name}')"))
    if symbol.range is None:
        return found
    low, high = symbol.range
    if low is not None and high is not None and low >= high:
        found.append((("range",), f"range of '{name}' is empty: {low:g} is not below {high:g}"))
    elif symbol.positive and high is not None and high <= 0:
        found.append((("range",), f"'{name}' is positive but its range ends at {high:g}"))
    elif symbol.positive and (low is None or low < 0):
        found.append((("range",), f"'{name}' is positive but its range allows negatives"))
    elif symbol.integer and not _holds_an_integer(low, high):
        found.append((("range",), f"'{name}' is an integer but no integer lies inside its range"))
    return found


#: The most blanks in one card, and entries of one list in one blank. A card past
#: these is refused as too large: every entry is judged by ``validate`` and at
#: each quiz, and a card of thousands is a mistake, not a lesson.
MAX_BLANKS = 100
#: Characters in a card id: it names files (exports, sheets) and fills a column of ``list``.
MAX_ID_CHARS = 100
MAX_ENTRIES = 200
#: Characters in one accepted word or phrase (``also``, ``concepts``).
MAX_PHRASE_CHARS = 300
#: How far an integer symbol's range may reach: past 2**53 a float no longer
#: holds every integer, and the sampler draws integers as 64-bit numbers.
MAX_INTEGER_BOUND = 2**53


def size_problems(card: Card) -> list[CardProblem]:
    """A card too large to judge in reasonable time, and integer ranges too wide to sample."""
    problems: list[CardProblem] = []
    if len(card.id) > MAX_ID_CHARS:
        problems.append(
            CardProblem(
                ("id",), f"card id too long: {len(card.id)} characters (at most {MAX_ID_CHARS})"
            )
        )
    if len(card.blanks) > MAX_BLANKS:
        problems.append(
            CardProblem(
                ("blanks",),
                f"card too large: {len(card.blanks)} blanks (at most {MAX_BLANKS})",
                at_key=True,
            )
        )
    for name, blank in list(card.blanks.items())[:MAX_BLANKS]:
        for field in ("also", "concepts", "forbid", "wrong", "examples"):
            count = len(getattr(blank, field))
            if count > MAX_ENTRIES:
                problems.append(
                    CardProblem(
                        ("blanks", name, field),
                        f"card too large: blank '{name}' has {count} '{field}' entries"
                        f" (at most {MAX_ENTRIES})",
                        at_key=True,
                    )
                )
        phrases = [*blank.also, *(word for group in blank.concepts for word in group)]
        if any(len(phrase) > MAX_PHRASE_CHARS for phrase in phrases):
            problems.append(
                CardProblem(
                    ("blanks", name),
                    f"card too large: blank '{name}' accepts a phrase of over"
                    f" {MAX_PHRASE_CHARS} characters",
                    at_key=True,
                )
            )
    for name, symbol in card.symbols.items():
        bounds = [bound for bound in symbol.range or () if bound is not None]
        if symbol.integer and any(abs(bound) > MAX_INTEGER_BOUND for bound in bounds):
            problems.append(
                CardProblem(
                    ("symbols", name, "range"),
                    f"'{name}' is an integer but its range reaches beyond ±2^53"
                    " (give a narrower range, or leave an end open with null)",
                )
            )
    return problems


def _holds_an_integer(low: float | None, high: float | None) -> bool:
    """Whether the open interval (low, high) contains an integer."""
    if low is None or high is None:
        return True
    return math.floor(low) + 1 < high


MIN_WRONG = 2
MIN_EXAMPLES = 3


def publishing_problems(card: Card) -> list[CardProblem]:
    """What a card still needs before it is published.

    Plain ``validate`` reports these as warnings; ``validate --strict`` as errors.
    """
    problems: list[CardProblem] = []
    for section in TEACHING_SECTIONS:
        if not getattr(card, section):
            problems.append(CardProblem((section,), f"missing teaching section '{section}'", True))
    for name, blank in card.blanks.items():
        if len(blank.wrong) < MIN_WRONG:
            problems.append(
                CardProblem(
                    ("blanks", name),
                    f"blank '{name}' needs at least {MIN_WRONG} 'wrong' entries with feedback",
                    True,
                )
            )
        if len(blank.examples) < MIN_EXAMPLES:
            problems.append(
                CardProblem(
                    ("blanks", name),
                    f"blank '{name}' needs at least {MIN_EXAMPLES} 'examples'",
                    True,
                )
            )
    problems.extend(_placeholders(card))
    return [CardProblem(p.path, p.message, p.at_key, warning=True) for p in problems]


def _placeholders(card: Card) -> list[CardProblem]:
    """Template text (``TODO``) left anywhere in the card."""
    from quizzer.cards.template import PLACEHOLDER

    found: list[CardProblem] = []

    def walk(value: Any, path: tuple[Hashable, ...]) -> None:
        if isinstance(value, str):
            if PLACEHOLDER in value:
                found.append(CardProblem(path, "placeholder text left from the template"))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(card.model_dump(), ())
    return found


def card_json_schema() -> dict[str, object]:
    """The JSON Schema of a card file, for editors (``quizzer schema``)."""
    schema = Card.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
