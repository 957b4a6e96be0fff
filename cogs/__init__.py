"""The Discord side: thin glue between Discord and the game service (``bot.games``).

One package per feature, each with its commands and click handlers (``cog.py``), its
buttons and menus (``controls.py``) and what its messages say and show (``messages.py``):
``lobby``, ``turn``, ``daily``, ``coaching``, ``results``, ``admin``. What they all use is in
``shared``; ``yahtzee.py`` composes them into the bot's cogs (docs/architecture.md)."""
