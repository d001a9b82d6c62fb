"""Reading other tools' decks into quizzer cards (Anki packages)."""
