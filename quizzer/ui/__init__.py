"""Presentation: the only layer that imports rich."""
