"""Slash commands in the user's language: discord.py's ``Translator`` reading the bot's
catalogs (``bot.i18n``). discord.py asks it for every name, description and choice in every
Discord locale when the commands are published, and sends what it returns as the payload's
``name_localizations`` and ``description_localizations``; Discord shows each user the
command list in their client's language."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ENGLISH, NAME, lang, language_of

#: What Discord calls names (lower case, no spaces, 1 to 32 characters): their context.
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


class CatalogTranslator(app_commands.Translator):
    """Names under the catalogs' ``NAME`` context, descriptions and choices as they read.
    A string a catalog lacks is left to Discord's default (the English), and remembered
    in ``missing`` (language, context, text) for the tests to report."""

    def __init__(self) -> None:
        super().__init__()
        self.missing: set[tuple[str, str | None, str]] = set()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = language_of(locale)
        if code == ENGLISH:
            return None
        language = lang(code)
        message = string.message
        where = NAME if context.location in NAMES else None
        if not language.translates(message, where):
            self.missing.add((code, where, message))
            return None
        return language.name(message) if where else language(message)


def strings_of(payload: Any, out: list[tuple[str | None, str]] | None = None) -> list[Any]:
    """Every (context, English text) of an untranslated command payload, in order."""
    found: list[tuple[str | None, str]] = [] if out is None else out
    if isinstance(payload, dict):
        if "name" in payload and isinstance(payload["name"], str):
            name_context = NAME if "value" not in payload else None  # a choice reads as is
            found.append((name_context, payload["name"]))
        if isinstance(payload.get("description"), str) and payload["description"]:
            found.append((None, payload["description"]))
        for key in ("options", "choices"):
            for item in payload.get(key) or []:
                strings_of(item, found)
    return found
