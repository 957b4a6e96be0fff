"""Python imports this at start-up when this folder is on PYTHONPATH, which only the
end-to-end tests do: it points discord.py at the fake Discord named by FAKE_DISCORD_API
(its REST API, and the gateway a sharded bot connects to without asking REST first)."""

import os

# Popped: the bot's helper processes (drawing, analysis) start as they do in production,
# without discord.py imported into them (which would add ~20 MB each to what is measured).
_url = os.environ.pop("FAKE_DISCORD_API", None)
if _url:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = _url
    _gateway = yarl.URL(_url).with_path("/gateway").with_scheme("ws")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _gateway
