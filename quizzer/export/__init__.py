"""Exports: Anki packages (anki), Markdown sheets and deck JSON (markdown)."""
