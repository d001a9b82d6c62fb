"""quizzer: learn formulas and concepts by filling in blanks.

Heavy modules (SymPy, numpy) are imported only where answers are judged, so
importing the package stays cheap.
"""

from quizzer.version import __version__

__all__ = ["__version__"]


def __getattr__(name: str) -> object:
    # `from quizzer import judge` works without making `import quizzer` load SymPy.
    if name in ("judge", "Verdict", "CardJudge"):
        from quizzer import answers

        return getattr(answers, name)
    raise AttributeError(f"module 'quizzer' has no attribute {name!r}")
