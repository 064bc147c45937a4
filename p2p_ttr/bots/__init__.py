"""Bot players: a bot maps a player's view to an action. They use the engine only."""
