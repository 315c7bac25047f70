"""Table scoring models: games, players, holes and per-player entries."""
