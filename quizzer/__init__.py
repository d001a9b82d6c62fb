"""quizzer: learn formulas and concepts by filling in blanks.

Heavy modules (SymPy, numpy) are imported only where answers are judged, so
importing the package stays cheap.
"""

__version__ = "0.1.0"
