"""Suites that drive quizzer in a real pseudo-terminal (pexpect): slow, run with the rest."""
