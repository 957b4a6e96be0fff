"""Python imports this at start-up when this folder is on PYTHONPATH, which only the
end-to-end tests do: it points discord.py at the fake Discord named by FAKE_DISCORD_API."""

import os

_url = os.environ.get("FAKE_DISCORD_API")
if _url:
    import discord.http

    discord.http.Route.BASE = _url
