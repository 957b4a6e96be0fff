"""The Discord side: thin glue between Discord and the game service (``bot.games``).

One package per feature, each with its cog (commands and click handlers, and the extension's
``setup()``: ``cog.py``), its buttons and menus (``controls.py``) and what its messages say and
show (``messages.py``): ``lobby``, ``turn``, ``daily``, ``coaching``, ``results``, ``admin``.
What they all share is in ``shared``, made by the core extension (``core.py``) that loads
before them (docs/architecture.md)."""
