"""``numbridge bot``: the bot brain as a WebSocket client of any deployment."""
