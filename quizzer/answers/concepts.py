"""Answers by meaning: every idea said, none of them denied.

A *concept* is a group of synonyms (``[running, moving average, EMA]``); an
answer says it when one member appears in it, word for word after the one
word normaliser of :mod:`quizzer.answers.words` (case, plurals, number words,
units, relations, synonym groups), with word endings forgiven (``scaled`` is
``scaling``) and one typo in a long word. A member said after a negation in
the same clause (``not across examples``, ``rather than the variance``) does
not count, unless the member itself holds the negation.

Precision comes first: a clause boundary (``, ; . but``) ends a negation and a
member is never found across one, so the check errs towards "not said".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from quizzer.answers.words import (
    MAX_ANSWER_LENGTH,
    MAX_PHRASE_LENGTH,
    MIN_TYPO_LENGTH,
    Vocabulary,
    WordJudge,
    WordMatch,
    is_rigid,
    within_one_edit,
)

#: Words that deny what follows them in their clause.
NEGATIONS = frozenset({"not", "no", "never", "without", "neither", "nor", "none", "nothing"})
#: How many words back a negation reaches: "does not really grow with d_k".
NEGATION_REACH = 4
#: Where a clause ends: a negation never reaches past one ("not d_k, but sqrt(d_k)").
_CLAUSE_BREAK = re.compile(
    r"[;!?]|[.,](?!\d)|\b(?:but|whereas|while|although|though|however|yet)\b",
    re.IGNORECASE,
)
#: A comma inside brackets lists, it does not end a clause: "(n, d_k)".
_PARENTHESES = re.compile(r"\([^()]*\)")
#: Spelled negations that are more than one word.
_NEGATION_PHRASES = re.compile(r"\b(?:rather than|instead of|as opposed to|other than)\b", re.I)

_SUFFIXES = (
    "isations", "izations", "isation", "ization", "ations", "ation", "ating", "ated", "ates", "ate",
    "ising", "izing", "ised", "ized", "ises", "izes", "ise", "ize", "ments", "ment", "ness",
    "ingly", "ing", "edly", "ed", "ly", "es", "er", "s", "e",
)  # fmt: skip


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """A word without its ending: ``normalising``, ``normalized`` and ``normalise`` agree."""
    if is_rigid(word) or not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _same_word(said: str, meant: str) -> bool:
    if said == meant:
        return True
    a, b = stem(said), stem(meant)
    if a == b:
        return True
    long_enough = min(len(said), len(meant)) >= MIN_TYPO_LENGTH
    return long_enough and not is_rigid(said) and not is_rigid(meant) and within_one_edit(a, b)


class ConceptMatcher:
    """Which of some concept groups an answer says, negation noticed."""

    def __init__(
        self, groups: Sequence[Sequence[str]], synonyms: Iterable[Sequence[str]] = ()
    ) -> None:
        self.vocabulary = Vocabulary(synonyms)
        self.groups = [
            [form for form in (self._form(member) for member in group) if form] for group in groups
        ]

    def _form(self, member: str) -> tuple[str, ...]:
        return tuple(self._clause_words(member))

    def _clause_words(self, text: str) -> list[str]:
        text = _NEGATION_PHRASES.sub(" not ", text)
        return list(self.vocabulary.normalise(text).words)

    def clauses(self, text: str) -> list[list[str]]:
        """The answer's clauses, each as canonical words."""
        text = _PARENTHESES.sub(lambda m: m.group().replace(",", " "), text[:MAX_ANSWER_LENGTH])
        return [words for part in _CLAUSE_BREAK.split(text) if (words := self._clause_words(part))]

    def found(self, text: str) -> list[bool]:
        """For each group, whether the answer says one of its members, not denied."""
        clauses = self.clauses(text)
        return [any(_said(form, clauses) for form in group) for group in self.groups]

    def covers(self, text: str) -> bool:
        """Every group said (and there is at least one group)."""
        found = self.found(text)
        return bool(found) and all(found)


def ends_denied(text: str, vocabulary: Vocabulary) -> bool:
    """A negation among the last words of ``text``: what comes next is denied."""
    words = vocabulary.normalise(_NEGATION_PHRASES.sub(" not ", text)).words
    return any(word in NEGATIONS for word in words[-NEGATION_REACH:])


def _said(form: tuple[str, ...], clauses: list[list[str]]) -> bool:
    """``form`` appears in a clause, and no negation before it denies it."""
    denies_itself = any(word in NEGATIONS for word in form)
    for words in clauses:
        for start in _occurrences(form, words):
            before = words[max(0, start - NEGATION_REACH) : start]
            if denies_itself or not any(word in NEGATIONS for word in before):
                return True
    return False


def _occurrences(form: tuple[str, ...], words: list[str]) -> Iterable[int]:
    """Where ``form`` starts in ``words``, word by word or with its spacing ignored."""
    size = len(form)
    squashed = "".join(form)
    for start in range(len(words)):
        window = words[start : start + size]
        word_for_word = len(window) == size and all(
            _same_word(s, m) for s, m in zip(window, form, strict=True)
        )
        run_together = size > 1 and words[start] == squashed  # layernorm for layer norm
        spaced = size == 1 and "".join(words[start : start + 2]) == squashed  # layer norm
        if word_for_word or run_together or (spaced and start + 1 < len(words)):
            yield start


class MeaningJudge(WordJudge):
    """A blank's word judge that also accepts by meaning: with ``concepts``, an
    answer that says every group matches the blank's first phrase, unless it
    also says a known-wrong phrase (which then decides, as it does for words)."""

    def __init__(
        self,
        accepted: Sequence[str],
        wrong: Sequence[str] = (),
        synonyms: Iterable[Sequence[str]] = (),
        concepts: Sequence[Sequence[str]] = (),
    ) -> None:
        super().__init__(accepted, wrong, synonyms)
        self.concepts = ConceptMatcher(concepts, synonyms) if concepts else None
        self.wrong_phrases = ConceptMatcher([[p] for p, _ in self.wrong], synonyms)

    def match(self, text: str) -> WordMatch | None:
        found = super().match(text)
        if found is not None or self.concepts is None or not self.accepted:
            return found
        if len(text) > MAX_ANSWER_LENGTH:
            return None
        if len(text) <= MAX_PHRASE_LENGTH and self.match_wrong(text) is not None:
            return None
        if self.concepts.covers(text) and not any(self.wrong_phrases.found(text)):
            return WordMatch(self.accepted[0][0], typo=False)
        return None
