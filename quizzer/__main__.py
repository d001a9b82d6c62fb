"""``python -m quizzer`` is the same as the ``quizzer`` command."""

from quizzer.cli import main

if __name__ == "__main__":
    main()
