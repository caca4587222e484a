"""Bot seats: a game dealt against a bot, which seats owe a turn, and a bot's turn
played through the same use case as any player's."""
