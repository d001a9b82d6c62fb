"""Cards: the model, YAML reading, decks, the cache, validation, the template."""
