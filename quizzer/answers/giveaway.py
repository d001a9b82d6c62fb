"""Wrong-answer feedback that gives the right answer away (issue 23 item 4).

Feedback explains why a wrong answer is wrong; the answer itself is for the
reveal (``!``). A second try after "divide by sqrt(d_k) instead" is free, so
``validate`` reports feedback that states the blank's answer:

- for a formula blank, by value: each formula-like span of the feedback
  (``sqrt(d_k)``, ``d_k^(1/2)``, one side of an ``=``, what follows "is" or
  "by") is judged against the blank's answer with the card's symbols and
  aliases, by the judge itself and bounded in time, so ``√d_k`` counts and
  ``d_k`` (the wrong answer, or a different quantity) does not;
- for a word blank, by words: every content word of the answer or of one
  accepted phrase (``also``), or every concept group of ``concepts``, said
  and not denied ("not the batch mean" does not count).

Precision comes first: a part of the answer (``beta1^t`` for
``1 - beta1^t``) or a span that does not read is not a giveaway, and a span
whose judgement runs out of time counts as not said.

Library use::

    from quizzer.answers.giveaway import giveaways
    for found in giveaways(card):
        found.blank, found.wrong, found.said
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

from quizzer.answers import (
    AnswerError,
    CardJudge,
    JudgeTimeout,
    deadline,
    functions,
    judge_bounded,
    numeric,
    parse,
)
from quizzer.answers.concepts import ConceptMatcher
from quizzer.answers.judge import is_phrase
from quizzer.answers.values import Mark
from quizzer.answers.words import ARTICLES, Vocabulary
from quizzer.cards.model import Blank, Card

#: The time one span may take to judge, and all spans of one feedback together:
#: validating the deck stays about as fast as it was.
SPAN_SECONDS = 0.5
FEEDBACK_SECONDS = 2.0
#: All feedback of one card: a card of thousands of entries is not a hang either.
CARD_SECONDS = 10.0
#: Spans judged per feedback at most, and the longest span judged.
MAX_SPANS = 24
MAX_SPAN_LENGTH = 80

#: Words that carry no content: "the mean of the batch" says "mean" and "batch".
_FUNCTION_WORDS = ARTICLES | frozenset(
    {"of", "in", "on", "at", "to", "for", "by", "with", "from", "into", "and", "or"}
    | {"as", "its", "it", "is", "are", "be"}
)
#: English words that may also be a card's one-letter symbol: alone, they are prose.
_PROSE_LETTERS = frozenset({"a", "A", "I"})

#: Where a span's clause ends (a full stop is not a decimal point, a comma in
#: brackets is not a break).
_CLAUSES = re.compile(r"[;!?]|\.(?=\s|$)|,\s|\b(?:but|whereas|while|although|though)\b", re.I)
#: What separates a formula from what it is said of: "the std is sqrt(d_k)".
_RELATION = re.compile(
    r"=|≈|≃|→|⇒|\b(?:is|are|equals|becomes|gives|like|as|by|of|to|with|instead|use|uses)\b",
    re.I,
)
_FORMULA_CHARACTERS = re.compile(r"[\d_^*/+()√·×⋅²³ᵀ\\-]")
_OPERATOR = re.compile(r"^[-+*/^×·⋅−]$")
#: Markdown around a formula: `sqrt(d_k)`, **V**.
_MARKUP = re.compile(r"[`*]{1,2}(?=\S)|(?<=\S)[`*]{1,2}")


@dataclass(frozen=True)
class Giveaway:
    """Feedback of ``blank``'s wrong entry number ``wrong`` (0-based) states the answer."""

    blank: str
    wrong: int
    #: What in the feedback says it: the span judged equal, or the phrase whose words it has.
    said: str
    #: Judged equal by value (a formula), rather than found in words.
    by_value: bool

    def message(self, answer: str) -> str:
        how = (
            f"'{self.said}' equals the answer {answer}"
            if self.by_value
            else f"it says {self.said!r} in words, an accepted answer"
        )
        return (
            f"the feedback gives the answer away: {how}; explain the mistake and leave"
            " the answer to the reveal"
        )


def giveaways(card: Card, judge: CardJudge | None = None) -> list[Giveaway]:
    """Every wrong-answer feedback of ``card`` that states its blank's answer."""
    found: list[Giveaway] = []
    if not any(entry.feedback for blank in card.blanks.values() for entry in blank.wrong):
        return found
    judge = judge or CardJudge(card)
    finder = _SpanFinder(card)
    # Without the card's synonyms: a card that makes "model" a synonym of "feature"
    # does not make "a causal model" say "features".
    vocabulary = Vocabulary()
    started = time.monotonic()
    for name, blank in card.blanks.items():
        formula = judge.compiled(name).expected is not None
        words = _WordCheck(blank, judge if formula else None, vocabulary)
        for index, entry in enumerate(blank.wrong):
            if time.monotonic() - started > CARD_SECONDS:
                return found  # what was not checked is not reported: precision first
            if not entry.feedback:
                continue
            text = _MARKUP.sub("", entry.feedback)
            said = words.said(text)
            if said is not None:
                found.append(Giveaway(name, index, said, by_value=False))
            elif formula:
                span = _formula_said(judge, name, entry.answer, finder.spans(text))
                if span is not None:
                    found.append(Giveaway(name, index, span, by_value=True))
    return found


class _WordCheck:
    """Whether a text says a blank's answer in words."""

    def __init__(self, blank: Blank, judge: CardJudge | None, vocabulary: Vocabulary) -> None:
        # On a formula blank, a form that reads as a formula ("D - A") is judged by
        # value; only its phrases ("value matrix") are words.
        phrases = [p for p in blank.accepted_forms() if is_phrase(p) and not _reads(p, judge)]
        groups: list[list[str]] = []
        #: Each way of saying the answer, with the groups (indices) it needs.
        self.ways: list[tuple[str, range]] = []
        for phrase in dict.fromkeys(phrases):
            content = [w for w in vocabulary.normalise(phrase).words if w not in _FUNCTION_WORDS]
            if content:
                self.ways.append((phrase, range(len(groups), len(groups) + len(content))))
                groups.extend([w] for w in content)
        if blank.concepts:
            said = " + ".join(group[0] for group in blank.concepts if group)
            self.ways.append((said, range(len(groups), len(groups) + len(blank.concepts))))
            groups.extend(list(group) for group in blank.concepts)
        # One matcher for every way: the feedback is read once, not once per phrase.
        self.matcher = ConceptMatcher(groups) if groups else None

    def said(self, text: str) -> str | None:
        if self.matcher is None:
            return None
        found = self.matcher.found(text)
        for phrase, needed in self.ways:
            if all(found[i] for i in needed):
                return phrase
        return None


def _reads(text: str, judge: CardJudge | None) -> bool:
    """``text`` reads as a formula of the judge's card (never, for a word blank)."""
    if judge is None:
        return False
    try:
        parse(text, judge.table)
    except AnswerError:
        return False
    return True


def _formula_said(
    judge: CardJudge, blank: str, wrong_answer: str, spans: Iterator[str]
) -> str | None:
    started = time.monotonic()
    seen = {wrong_answer.strip()}  # the wrong answer is known not equal: validate checks it
    for span in spans:
        if span in seen:
            continue
        seen.add(span)
        if len(seen) > MAX_SPANS or time.monotonic() - started > FEEDBACK_SECONDS:
            return None  # precision first: what was not judged is not evidence
        if not _may_equal(judge, blank, span):
            continue
        verdict = judge_bounded(judge, blank, span, SPAN_SECONDS, read_back=False)
        if verdict.correct and verdict.decided_by != "words":
            return span
    return None


def _may_equal(judge: CardJudge, blank: str, span: str) -> bool:
    """Whether ``span`` reads and its float values agree with the answer's at most
    points: only then is it judged. Most spans are other quantities, and the
    judge would explain each one's difference (a diagnosis costs ten times the
    comparison); no span is called equal here, only passed on to the judge."""
    expected = judge.compiled(blank).expected
    if expected is None:
        return False
    try:
        with deadline(SPAN_SECONDS):
            values = judge.values_of(parse(span, judge.table))
    except (AnswerError, numeric.NotDefined, JudgeTimeout, RecursionError, MemoryError):
        return False
    agree = disagree = 0
    for e, a in zip(expected.values, values, strict=False):
        if isinstance(e, Mark) or isinstance(a, Mark):
            continue
        if numeric.values_agree(e, a):
            agree += 1
        else:
            disagree += 1
    return agree > disagree


class _SpanFinder:
    """The formula-like spans of a text, as one card's symbols and functions read."""

    def __init__(self, card: Card) -> None:
        self.names = {alias for name, s in card.symbols.items() for alias in (name, *s.aliases)}
        self._formula_words: dict[str, bool] = {}

    def spans(self, text: str) -> Iterator[str]:
        """Each run of formula words, each side of a relation in it, and the whole clause
        piece between relation words, without repeats."""
        for clause in _CLAUSES.split(text):
            for piece in _RELATION.split(clause):
                yield from self._runs(piece)

    def _is_formula_word(self, word: str) -> bool:
        if word not in self._formula_words:
            self._formula_words[word] = self._reads_as_formula(word)
        return self._formula_words[word]

    def _reads_as_formula(self, word: str) -> bool:
        bare = word.strip(".,;:!?\"'")
        if not bare or bare in _PROSE_LETTERS:
            return False
        if _FORMULA_CHARACTERS.search(bare):
            return bool(re.search(r"\w|√", bare))  # "-" or "(" alone is not a formula
        return bare in self.names or functions.canonical_name(bare) is not None

    def _runs(self, piece: str) -> Iterator[str]:
        run: list[str] = []
        for word in piece.split():
            if self._is_formula_word(word) or (run and _OPERATOR.match(word)):
                run.append(word)
                continue
            yield from _finished(run)
            run = []
        yield from _finished(run)


def _finished(run: list[str]) -> Iterator[str]:
    while run and _OPERATOR.match(run[-1]):
        run = run[:-1]
    span = " ".join(run).strip(".,;:!?\"'")
    if span.count("(") > span.count(")"):  # "(sqrt(d_k)" opened before the span
        span = span.lstrip("(")
    if span.count(")") > span.count("("):  # "over sqrt(d_k))," closed after it
        span = span[: len(span) - (span.count(")") - span.count("("))]
    if span and len(span) <= MAX_SPAN_LENGTH:
        yield span
