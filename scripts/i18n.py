"""The catalogs' template, and the catalogs kept in step with it: python scripts/i18n.py

Gathers every message the bot says: the slash commands' names, descriptions and choices (as
discord.py publishes them, from the loaded cogs) and every ``_("...")`` / ``_.ngettext(...)``
in ``bot/`` and ``cogs/`` (Babel's extractor), writes ``bot/i18n/yahtzee.pot``, then updates
each language's ``bot/i18n/locales/<code>/yahtzee.po``: a new message is added untranslated
(English until a translator fills it in; ``tests/i18n`` names it), a gone one is dropped.

To add a language: ``python scripts/i18n.py --new CODE`` (e.g. ``it``), translate its
``yahtzee.po``, and map Discord's locale to it in ``bot.i18n.DISCORD_LOCALES``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from babel import Locale  # noqa: E402
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from bot.i18n import DOMAIN, LOCALES, TEMPLATE, languages  # noqa: E402

KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "ngettext": (1, 2), "N_": None}


def sentence_classes() -> dict[str, None]:
    """Every exception whose first argument is a sentence for a player (``bot.i18n.words
    .Sentence``: the rules' refusals, the service's): Babel reads their calls' first
    argument like ``_``'s."""
    import bot.games
    import bot.strategy.decisions  # noqa: F401 - defines Unsupported
    from bot.i18n.words import Sentence

    found: dict[str, None] = {}
    todo = list(Sentence.__subclasses__())
    while todo:
        cls = todo.pop()
        found[cls.__name__] = None
        todo += cls.__subclasses__()
    return found


async def command_strings() -> list[tuple[str | None, str]]:
    """The slash commands' strings, from the cogs loaded into a bot that never connects."""
    from bot.app import EXTENSIONS, YahtzeeBot
    from bot.settings import Settings
    from cogs.shared.translator import strings_of

    folder = Path(tempfile.mkdtemp(prefix="yahtzee-i18n-"))
    bot = YahtzeeBot(Settings(token="x", database_path=folder / "unused.sqlite3"))
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    for task in asyncio.all_tasks():  # what the cogs start on loading (the dice emojis)
        if task is not asyncio.current_task():
            task.cancel()
    found: list[tuple[str | None, str]] = []
    for command in bot.tree.get_commands():
        strings_of(command.to_dict(bot.tree), found)
    return found


def template() -> Catalog:
    catalog = Catalog(
        domain=DOMAIN,
        project="yahtzee-bot",
        version="0.1.0",
        copyright_holder="the yahtzee-bot authors",
        charset="utf-8",
    )
    for context, text in asyncio.run(command_strings()):
        catalog.add(text, context=context, auto_comments=["a slash command's words"])
    for folder in ("bot", "cogs"):
        for filename, line, message, comments, context in extract_from_dir(
            ROOT / folder,
            keywords={**KEYWORDS, **sentence_classes()},
            comment_tags=("TRANSLATORS:",),
        ):
            catalog.add(message, None, [(f"{folder}/{filename}", line)],
                        auto_comments=comments, context=context)  # fmt: skip
    return catalog


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--new", metavar="CODE", help="start a catalog for a new language")
    args = parser.parse_args()
    pot = template()
    with TEMPLATE.open("wb") as file:
        write_po(file, pot, width=100, omit_header=False)
    codes = [c for c in languages() if c != "en"]
    if args.new:
        (LOCALES / args.new).mkdir(parents=True, exist_ok=True)
        codes.append(args.new)
    for code in codes:
        path = LOCALES / code / f"{DOMAIN}.po"
        if path.exists():
            with path.open("rb") as file:
                catalog = read_po(file, locale=code, domain=DOMAIN)
        else:
            catalog = Catalog(
                locale=Locale.parse(code),
                domain=DOMAIN,
                project="yahtzee-bot",
                version="0.1.0",
                copyright_holder="the yahtzee-bot authors",
            )
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with path.open("wb") as file:
            write_po(file, catalog, width=100, omit_header=False)
        left = sum(1 for m in catalog if m.id and not m.string)
        print(f"{path.relative_to(ROOT)}: {len(catalog) - 1} messages, {left} untranslated")


if __name__ == "__main__":
    main()
