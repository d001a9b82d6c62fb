"""``python -m quizzer`` is the same as the ``quizzer`` command."""

from quizzer.launch import main

if __name__ == "__main__":
    main()
