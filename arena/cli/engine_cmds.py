"""Commands on single games: selfplay, verify, replay, and the engine benchmark."""
