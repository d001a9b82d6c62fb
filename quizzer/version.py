"""quizzer's version, in a leaf module that imports nothing.

The deck cache stamps it into its format and ``--version`` prints it; both
import it from here so that nothing inside the package imports the package top.
"""

__version__ = "0.1.0"
