"""``line_table``: ``stats CARD``'s answers drawn as lines, in a Rich table's look.

A Rich table of 100 rows took 70 ms to lay out, a quarter of ``stats CARD``
on a heavy history; the line table takes a tenth of that. It must look the
same where the rows fit, stay inside the width where they do not, and fall
back to ASCII boxes where the console has no box drawing.
"""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from quizzer.ui.stats import HISTORY_COLUMNS
from quizzer.ui.widgets import Column, line_table

ROWS = [
    ("Thu 01 Jan 00:00 UTC", "scale", "sqrt(d_k)", Text("✓", style="green"), "1"),
    ("Thu 01 Jan 00:01 UTC", "values", "K", Text("✓ overridden", style="yellow"), "12"),
    ("Fri 02 Jan 10:00 UTC", "values", "", Text("✗ revealed", style="red"), "3"),
]


def _console(width: int, encoding: str = "utf-8") -> Console:
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="replace")
    return Console(file=stream, width=width, color_system=None, legacy_windows=False)


def _rich_table(console: Console, rows) -> str:
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for column in HISTORY_COLUMNS:
        table.add_column(column.header, justify=column.justify, overflow="fold")
    for row in rows:
        table.add_row(*row)
    with console.capture() as captured:
        console.print(table)
    return captured.get()


def _lines(console: Console, rows) -> str:
    with console.capture() as captured:
        console.print(line_table(HISTORY_COLUMNS, rows, console), soft_wrap=True)
    return captured.get()


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_rows_that_fit_look_as_a_rich_table_does(encoding):
    console = _console(80, encoding)
    assert _lines(console, ROWS) == _rich_table(console, ROWS)


@pytest.mark.parametrize("width", [80, 60, 45, 36])
def test_long_answers_fold_inside_the_width_and_keep_every_character(width):
    long = "sqrt(d_k) " * 12 + "注意力" * 9
    console = _console(width)
    drawn = _lines(console, [*ROWS, ("Sat 03 Jan 00:00 UTC", "scale", long, Text("✗"), "2")])
    lines = drawn.splitlines()
    assert max(cell_len(line) for line in lines) <= width
    answers = "".join(line.split("│")[2].strip() for line in lines[2:] if line.count("│") == 4)
    assert answers.replace(" ", "") == "".join(
        cell.replace(" ", "") for cell in ("sqrt(d_k)", "K", "", long)
    )


def test_a_column_that_may_not_fold_keeps_its_width():
    console = _console(24)
    columns = [Column("name", folds=True), Column("n", justify="right")]
    lines = line_table(columns, [("a" * 40, "12345")], console).plain.splitlines()
    assert all(cell_len(line) <= 24 for line in lines)
    assert lines[2].endswith("│ 12345")
    assert "".join(line.split("│")[0].strip() for line in lines[2:]) == "a" * 40
