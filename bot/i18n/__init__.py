"""The bot's words in the players' languages: gettext catalogs read with Babel.

Each language is one catalog, ``bot/i18n/locales/<code>/yahtzee.po`` (plain gettext, the format
every translation tool reads), its messages keyed by the English text; English is the
source and the fallback: a message a catalog lacks (or marks fuzzy) is said in English.
Adding a language is adding a catalog and a line in ``DISCORD_LOCALES``.

Babel reads the catalogs (no compile step: they are turned into gettext's tables in memory
once, when a language is first asked for), knows each language's plural rules from CLDR
(Polish and Russian have three forms: 1, 2-4 and 5+, 22 like 2) and formats numbers as
each language writes them.

Who sees which language is the caller's choice: a private answer in the clicker's locale
(``interaction.locale``), what the channel sees in the server's (``guild_locale``, or the
server setting that overrides it). Names of slash commands are translated under the context
``NAME`` (Discord wants them lower case, without spaces, at most 32 characters).
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .words import N_, Label, Name, Sentence, Word, Words

if TYPE_CHECKING:
    from babel import Locale
    from babel.messages.catalog import Catalog

# Babel is imported where a catalog is first read: the engine imports .words (through this
# package) and stays free of it until a language other than English is spoken.

#: The catalogs, one folder a language, and the template they are made from.
LOCALES = Path(__file__).with_name("locales")
TEMPLATE = Path(__file__).with_name("yahtzee.pot")
DOMAIN = "yahtzee"

#: The source language, spoken where no catalog fits.
ENGLISH = "en"

#: Discord's locale codes (``discord.Locale`` values) -> the catalog that speaks them.
DISCORD_LOCALES: dict[str, str] = {
    "en-US": ENGLISH,
    "en-GB": ENGLISH,
    "de": "de",
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
    "pl": "pl",
    "ru": "ru",
}

#: The languages a server can choose, by their own names.
LANGUAGE_NAMES: dict[str, str] = {
    ENGLISH: "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "pl": "Polski",
    "ru": "Русский",
}

#: The msgctxt of a slash command's, option's or choice's name in the catalogs.
NAME = "command name"


def language_of(locale: object) -> str:
    """The catalog for a Discord locale (a ``discord.Locale`` or its value, e.g. "pt-BR"):
    English for a locale without one, or none given."""
    value = str(getattr(locale, "value", locale or ""))
    return DISCORD_LOCALES.get(value, ENGLISH)


def languages() -> list[str]:
    """Every language with a catalog, English first."""
    return [ENGLISH] + sorted(p.name for p in LOCALES.iterdir() if (p / f"{DOMAIN}.po").exists())


@dataclass(frozen=True)
class Lang:
    """One language's words: ``_("Roll")``, ``_.ngettext("{n} turn", "{n} turns", n, n=n)``,
    ``_.say(refusal)``, ``_.decimal(263.2)``, ``_.percent(0.62)``, ``_.date(day)``, where
    ``_ = lang(code)``.
    Placeholders are ``str.format`` fields, filled after translation."""

    code: str
    table: NullTranslations

    def __call__(self, message: str, /, **values: Any) -> str:
        return self._finish(self.table.gettext(message), values)

    def ngettext(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form for ``count`` in this language (``values`` may use it as ``{n}``)."""
        return self._finish(self.table.ngettext(singular, plural, count), values)

    def _finish(self, text: str, values: dict[str, Any]) -> str:
        """The values filled in; a slash command named in the text (``/yahtzee rules``) as
        this language's users see it in their command list (``/kniffel regeln``)."""
        if values:
            text = text.format(**values)
        return text if self.code == ENGLISH else _commands_in(text, self.code, self.table)

    def say(self, said: Sentence | str, names: Callable[[str], str] = str) -> str:
        """A sentence made before its reader was known (a refusal, ``bot.i18n.words``) in
        this language: its template translated, then its values filled in, a ``Word``
        among them translated too, a ``Label`` said as the game's messages show it, and a
        person's ``Name`` as ``names`` shows it (a message escapes its markdown)."""
        if not isinstance(said, Sentence):
            return self(str(said))
        values = {key: self._value(value, names) for key, value in said.values.items()}
        return self(said.template, **values)

    def _value(self, value: object, names: Callable[[str], str]) -> object:
        if isinstance(value, Label):
            return lang(value.language).table.gettext(value)
        if isinstance(value, Name):
            return names(str(value))
        if isinstance(value, Word):
            return self.table.gettext(value)
        if isinstance(value, Words):
            return ", ".join(self.table.gettext(word) for word in value)
        if isinstance(value, Sentence):
            return self.say(value, names)
        if isinstance(value, float):  # (a decision's points given up: one decimal)
            return self.decimal(value)
        if isinstance(value, date):  # (a daily challenge's day)
            return self.date(value)
        return value

    def pair(self, name: object, value: object) -> str:
        """A name and its value as this language joins them ("Ones: 3"; French puts a
        space before the colon: "As : 3")."""
        # TRANSLATORS: a name and its value ("Ones: 3", "**Ann**: **120**"), wherever the
        # bot joins the two; French typography has a space before the colon.
        return self(N_("{name}: {value}"), name=name, value=value)

    def name(self, message: str) -> str:
        """A slash command's, option's or choice's name (context ``NAME``)."""
        return self.table.pgettext(NAME, message)

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with ``places`` decimals as this language writes it (263.2 / 263,2)."""
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + "0" * places if places else "")
        return format_decimal(value, format=pattern, locale=self.locale)

    def percent(self, share: float) -> str:
        """A share as a whole percentage as this language writes it (62% / 62 %)."""
        from babel.numbers import format_percent

        return format_percent(share, locale=self.locale)

    def date(self, day: date | str) -> str:
        """A day as this language writes it in a sentence (November 22, 2026 / 22. November
        2026 / 22 listopada 2026); ``day`` may be ISO text (2026-11-22)."""
        from babel.dates import format_date

        if isinstance(day, str):
            day = date.fromisoformat(day)
        return format_date(day, format="long", locale=self.locale)

    def number(self, value: float) -> str:
        """A number as this language writes it (1,234 / 1.234 / 1 234)."""
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)

    @property
    def locale(self) -> Locale:
        from babel import Locale

        return Locale.parse(self.code)

    def translates(self, message: str, context: str | None = None) -> bool:
        """Whether the catalog has ``message`` (not English by fallback)."""
        if self.code == ENGLISH:
            return True
        found = self.table.pgettext(context, message) if context else self.table.gettext(message)
        return found != message or message in _identical(self.code)


@functools.cache
def lang(code: str) -> Lang:
    """A language by catalog code (``language_of`` turns a Discord locale into one); an
    unknown code speaks English."""
    if code == ENGLISH or not (LOCALES / code / f"{DOMAIN}.po").exists():
        return Lang(ENGLISH, NullTranslations())
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, _catalog(code), use_fuzzy=False)  # gettext's tables, in memory
    compiled.seek(0)
    return Lang(code, GNUTranslations(compiled))


@functools.cache
def _catalog(code: str) -> Catalog:
    """A language's catalog as Babel reads it (once a process)."""
    from babel.messages.pofile import read_po

    with (LOCALES / code / f"{DOMAIN}.po").open("rb") as file:
        return read_po(file, domain=DOMAIN)


@functools.cache
def _entries(code: str) -> tuple[frozenset[str], frozenset[str]]:
    """A catalog's messages translated by the same words ("Yahtzee", "OK": not a fallback),
    and its names of commands, options and choices (context ``NAME``), in English."""
    catalog = _catalog(code)
    same = {str(m.id) for m in catalog if m.id and isinstance(m.id, str) and m.string == m.id}
    names = {str(m.id) for m in catalog if m.context == NAME and isinstance(m.id, str)}
    return frozenset(same), frozenset(names)


def _identical(code: str) -> frozenset[str]:
    return _entries(code)[0]


#: The choices a command reference may end with ("/yahtzee notify off").
_CHOICES = ("on", "off")


@functools.cache
def _command_pattern(code: str) -> re.Pattern[str]:
    """A reference to one of the bot's slash commands in a sentence: the command, its
    subcommand and option names (a name followed by ":" is an option), and a choice."""
    names = sorted(_entries(code)[1] - {"yahtzee", "yahtzee-admin"}, key=len, reverse=True)
    words = "|".join(re.escape(n) for n in names) or "(?!)"
    choices = "|".join(_CHOICES)
    return re.compile(
        rf"/(yahtzee-admin|yahtzee)((?: (?:{words}):?(?![\w-]))*)((?: (?:{choices}))?)(?![\w-])"
    )


def _commands_in(text: str, code: str, table: NullTranslations) -> str:
    """``text`` with each slash command it names as the command list of ``code`` shows it."""
    if "/yahtzee" not in text or not (LOCALES / code / f"{DOMAIN}.po").exists():
        return text

    def localized(match: re.Match[str]) -> str:
        words = [table.pgettext(NAME, match[1])]
        for token in match[2].split():
            option = token.endswith(":")
            words.append(table.pgettext(NAME, token.rstrip(":")) + (":" if option else ""))
        if match[3]:
            words.append(table.gettext(match[3].strip()))
        return "/" + " ".join(words)

    return _command_pattern(code).sub(localized, text)
