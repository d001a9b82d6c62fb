"""``quizzer optimize``: how well the fitted and the default parameters predict the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from quizzer.ui.view import View
from quizzer.ui.widgets import counted

if TYPE_CHECKING:
    from quizzer.app.optimizing import OptimizeReport
    from quizzer.progress.optimizer import Metrics
    from quizzer.progress.parameters import SavedParameters


class OptimizeView(View):
    """The screen of ``optimize``."""

    def optimized(self, report: OptimizeReport) -> None:
        """The fit's figures, the parameters, and what was saved."""
        fit = report.fit
        on = f" (tag {report.tag})" if report.tag else ""
        self.out.print(
            f"fitted FSRS to {counted(fit.reviews, 'review')} of {counted(fit.cards, 'card')}{on}"
        )
        table = Table(show_edge=False, pad_edge=False, header_style="bold")
        table.add_column("predicting")
        table.add_column("parameters")
        table.add_column("log loss", justify="right")
        table.add_column("RMSE", justify="right")

        def row(label: str, which: str, metrics: Metrics) -> None:
            table.add_row(label, which, f"{metrics.log_loss:.4f}", f"{metrics.rmse:.4f}")

        row("every review", "default", fit.before)
        row("", "fitted", fit.after)
        if fit.held_out_before is not None and fit.held_out_after is not None:
            latest = f"latest {fit.held_out_reviews}"
            row(latest, "default", fit.held_out_before)
            row("(held out)", "fitted without them", fit.held_out_after)
        self.out.print(table)
        self.out.print("parameters " + " ".join(f"{w:.4f}" for w in fit.parameters))
        if report.saved:
            self.output.note(
                f"saved; {counted(report.rescheduled, 'card')} rescheduled for"
                f" {report.desired_retention:.0%} recall (lower figures predict better)"
            )

    def fitted_parameters(self, saved: SavedParameters | None) -> None:
        """The FSRS parameters in use, as ``quizzer config`` lists them."""
        if saved is None:
            self.out.print("fsrs_parameters    FSRS defaults (quizzer optimize fits yours)")
            return
        on = f", tag {saved.tag}" if saved.tag else ""
        self.out.print(
            f"fsrs_parameters    fitted {saved.fitted_at:%Y-%m-%d} on"
            f" {counted(saved.reviews, 'review')}{on}"
        )
        weights = [f"{w:.4f}" for w in saved.parameters]
        for start in range(0, len(weights), 10):  # ten a line: 74 columns
            self.out.print("    " + " ".join(weights[start : start + 10]))
