"""Study: quiz, review and drill sessions as plain objects, and recording them."""
