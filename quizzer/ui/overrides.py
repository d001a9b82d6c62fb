"""``quizzer overrides``: the answers counted right by hand, as examples to paste into cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from quizzer.ui.view import View
from quizzer.ui.widgets import counted, visible, when

if TYPE_CHECKING:
    from quizzer.study import overrides


class OverridesView(View):
    """The screen of ``overrides``."""

    def overrides(
        self, found: Sequence[overrides.CardOverrides], paths: Mapping[str, str | None]
    ) -> None:
        """Each card's overridden answers, then the examples to paste into it."""
        if not found:
            self.out.print("No overridden answers. After a ✗ verdict, /override counts it right.")
            return
        for item in found:
            self.out.print()
            self.out.print(
                Text.assemble(
                    (item.card_id, "bold cyan"), f"  {counted(len(item.answers), 'answer')}"
                )
            )
            for answer in item.answers:
                self.out.print(
                    Text.assemble(
                        f"  [{answer.blank}] ",
                        (visible(answer.given), "bold"),
                        (f"  {when(answer.at)}", "dim"),
                    )
                )
            where = paths.get(item.card_id) or f"the card {item.card_id}"
            self.out.print(Text(f"  examples for {where}:", style="dim"), soft_wrap=True)
            # Plain and unpadded, so a copy from the terminal pastes as valid YAML.
            snippet = item.examples_yaml().rstrip("\n")
            self.out.print(Text(snippet, style="green"), soft_wrap=True)
