"""The bundled deck checked card by card: its formulas recomputed, its code run."""
