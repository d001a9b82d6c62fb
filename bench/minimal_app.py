"""The start-up reference: a minimal two-command Typer app, as small as a CLI gets.

`bench/run.py` times `python bench/minimal_app.py --help` beside `quizzer --help`
in the same run, so the ratio says how close quizzer starts to the floor that
Python, Typer and Rich allow on this machine at this moment.
"""

from __future__ import annotations

import typer

app = typer.Typer()


@app.command()
def hello(name: str) -> None:
    """Say hello."""
    typer.echo(f"hello {name}")


@app.command()
def goodbye(name: str) -> None:
    """Say goodbye."""
    typer.echo(f"goodbye {name}")


if __name__ == "__main__":
    app()
