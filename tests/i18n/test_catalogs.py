"""The catalogs: every message the bot says is in every language, with the same placeholders;
plural forms follow each language's rules; a missing message falls back to English."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import DISCORD_LOCALES, ENGLISH, LANGUAGE_NAMES, LOCALES, NAME, TEMPLATE, lang
from bot.i18n import languages as catalog_languages

LANGUAGES = ["de", "fr", "es", "pt_BR", "pl", "ru"]


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def fields(text: str) -> list[str]:
    """The ``str.format`` fields of a message, sorted (each once per use)."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_the_seven_languages_have_catalogs_and_discord_locales() -> None:
    assert catalog_languages() == [ENGLISH, "de", "es", "fr", "pl", "pt_BR", "ru"]
    assert set(LANGUAGE_NAMES) == {ENGLISH, *LANGUAGES}
    for code in LANGUAGES:
        assert code in DISCORD_LOCALES.values()
    # Discord's codes, as its API lists them
    assert DISCORD_LOCALES["pt-BR"] == "pt_BR" and DISCORD_LOCALES["es-ES"] == "es"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(code: str) -> None:
    """A message the template has and a catalog lacks (or leaves empty, or marks fuzzy)
    would reach players in English: this names each one."""
    template = read(TEMPLATE)
    catalog = read(LOCALES / code / "yahtzee.po")
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(found.string if found.pluralizable
                                                    else [found.string]):  # fmt: skip
            problems.append(f"untranslated: {message.id!r}")
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        want = fields(ids[-1])
        for text in strings:
            # a plural form may leave the count out ("one turn"), never add a field
            got = fields(text)
            if got != want and not (message.pluralizable and set(got) <= set(want)):
                problems.append(f"placeholders differ: {message.id!r} -> {text!r}")
            if re.search(r"\*\*", ids[0]) and text.count("**") != ids[0].count("**"):
                problems.append(f"bold differs: {message.id!r} -> {text!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", LANGUAGES)
def test_command_names_are_names_discord_accepts(code: str) -> None:
    """Names a user types after "/": lower case, no spaces, 1 to 32 characters."""
    for message in read(LOCALES / code / "yahtzee.po"):
        if message.context == NAME and message.string:
            assert re.fullmatch(r"[-_\w]{1,32}", message.string), (code, message.string)
            assert message.string == message.string.lower(), (code, message.string)


@pytest.mark.parametrize(
    ("code", "forms"),
    [
        # worked out by hand from each language's grammar: which form 1, 2, 5, 22, 11, 0 take
        ("pl", {1: 0, 2: 1, 5: 2, 22: 1, 11: 2, 0: 2, 12: 2, 104: 1}),
        ("ru", {1: 0, 2: 1, 5: 2, 22: 1, 11: 2, 0: 2, 21: 0, 111: 2}),
        ("de", {1: 0, 2: 1, 5: 1, 22: 1, 0: 1}),
        ("fr", {1: 0, 2: 1, 5: 1, 0: 0}),  # French counts 0 as singular
        ("pt_BR", {1: 0, 2: 1, 0: 0}),
    ],
)
def test_plural_forms_follow_each_language(code: str, forms: dict[int, int]) -> None:
    table = lang(code).table
    plural = table.plural  # type: ignore[attr-defined]
    assert {n: plural(n) for n in forms} == forms


def test_a_missing_message_falls_back_to_english() -> None:
    german = lang("de")
    assert german("A sentence no catalog has") == "A sentence no catalog has"
    assert not german.translates("A sentence no catalog has")
    assert german.name("start") != "start" and german.translates("start", NAME)
    assert lang("xx").code == ENGLISH and lang("xx")("Roll") == "Roll"


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert lang(ENGLISH).number(12345) == "12,345"
    assert lang("de").number(12345) == "12.345"
    assert lang("ru").number(12345) == "12\N{NO-BREAK SPACE}345"
    assert lang("fr").number(12345) == "12\N{NARROW NO-BREAK SPACE}345"


def test_a_sentence_kept_as_text_is_said_in_any_language_later() -> None:
    """A decision in the move log: kept with its values apart, told in English as it was,
    and in German from the catalogs (its box and nested sentences translated too)."""
    from bot.i18n.words import Said, Word, said_of, said_text

    did = Said("you scored {box}", box=Word("Chance"))
    said = Said("Round {round}, first roll: {did}", round=3, did=did)
    kept = said_of(said_text(said))
    assert str(kept) == "Round 3, first roll: you scored Chance"
    german = lang("de")
    assert german.say(kept) == german(
        "Round {round}, first roll: {did}", round=3,
        did=german("you scored {box}", box=german("Chance")),
    )  # fmt: skip
    assert said_of("Round 1, first roll: logged in English by an older version") == (
        "Round 1, first roll: logged in English by an older version"
    )


def test_a_name_in_a_sentence_is_shown_as_the_reader_shows_names() -> None:
    """A person's ``Name`` among a refusal's values goes through ``names`` (a message
    escapes its markdown there); the sentence around it is still translated."""
    from bot.engine.errors import NotYourTurn
    from bot.i18n.words import Name

    refusal = NotYourTurn("It's {name}'s turn: wait for yours.", name=Name("**x**"))
    german = lang("de")
    assert german.say(refusal) == german("It's {name}'s turn: wait for yours.", name="**x**")
    shown = german.say(refusal, names=lambda name: f"<{name}>")
    assert shown == german("It's {name}'s turn: wait for yours.", name="<**x**>")
    assert shown != "It's <**x**>'s turn: wait for yours."  # (said in German)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        # the noun's form after each count, from each language's grammar: 1, 2-4 (and 22),
        # 5-21 (and 11, 12: never "2-4" in the teens)
        ("pl", {1: "1 wynik.", 2: "2 wyniki.", 5: "5 wyników.", 22: "22 wyniki.",
                12: "12 wyników."}),
        ("ru", {1: "1 результат ", 2: "2 результата ", 5: "5 результатов ", 22: "22 результата ",
                12: "12 результатов ", 21: "21 результат "}),
    ],
)  # fmt: skip
def test_a_count_takes_the_right_form_in_polish_and_russian(
    code: str, words: dict[int, str]
) -> None:
    """A message with a count says it as the language does (the leaderboard reset's answer)."""
    language = lang(code)
    for n, expected in words.items():
        said = language.ngettext(
            "Leaderboard reset: {n} result archived.",
            "Leaderboard reset: {n} results archived.",
            n,
            n=n,
        )
        assert expected in said, (n, said)


def test_a_command_named_in_a_sentence_is_the_one_the_reader_sees() -> None:
    """In a German client the command list says /kniffel ...: a sentence that names a
    command names it so (its subcommand, option and choice too), as the catalog has them."""
    names = read(LOCALES / "de" / "yahtzee.po")

    def name(english: str) -> str:
        return str(names.get(english, context=NAME).string)

    german = lang("de")
    said = german("`/yahtzee notify off` stops these messages.")
    assert f"`/{name('yahtzee')} {name('notify')} {names.get('off').string}`" in said
    said = german("{preset} rules (/yahtzee rules tells them)", preset="Offiziell")
    assert f"/{name('yahtzee')} {name('rules')}" in said and "/yahtzee" not in said
    assert lang(ENGLISH)("`/yahtzee notify off` stops these messages.") == (
        "`/yahtzee notify off` stops these messages."
    )


def test_a_list_of_boxes_in_a_refusal_is_said_box_by_box() -> None:
    """The Joker's refusal names the open boxes: each in the reader's language."""
    from bot.i18n.words import Said, Word, Words

    catalog = read(LOCALES / "de" / "yahtzee.po")
    said = Said("{boxes} or {last}", boxes=Words(["Threes", "Fours"]), last=Word("Chance"))
    assert str(said) == "Threes, Fours or Chance"
    german = lang("de").say(said)
    for box in ("Threes", "Fours", "Chance"):
        assert str(catalog.get(box).string) in german
    assert "Threes" not in german and "Fours" not in german


def test_every_message_in_the_code_reaches_the_template() -> None:
    """Babel finds a message only as the first literal argument of ``_``, ``ngettext``,
    ``N_`` or a refusal's class: a literal handed to a language any other way
    (``private(interaction)("...")``, a ``Lang`` under another name) would never be
    translated. None may be written so."""
    root = Path(__file__).resolve().parents[2]
    called = re.compile(r"\b(?:private|public|lang|channel)\([^()]*\)\(\s*[\"']")
    renamed = re.compile(
        r"^\s*(\w+) = (?:private|public|lang)\([^()]*(?:\([^()]*\))?[^()]*\)\s*(?:#.*)?$",
        re.MULTILINE,
    )
    problems = []
    for folder in ("bot", "cogs"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text()
            problems += [f"{path}: {m.group(0)}" for m in called.finditer(text)]
            problems += [
                f"{path}: a language named {m.group(1)!r}"
                for m in renamed.finditer(text)
                if m.group(1) not in ("_", "language")
            ]
    assert not problems, "\n".join(problems)


def test_a_button_named_in_a_sentence_is_the_label_the_reader_sees() -> None:
    """A private answer names a control by the label on the game's message (the game's
    language), whatever the reader's own: Polish words around the French button."""
    from bot.i18n.words import Label, Said

    french = read(LOCALES / "fr" / "yahtzee.po")
    polish = read(LOCALES / "pl" / "yahtzee.po")
    template = "Only the host can start the game. Ask them to press {start}."
    said = Said(template, start=Label("Start", "fr"))
    assert str(said) == "Only the host can start the game. Ask them to press Start."
    commencer = str(french.get("Start").string)
    assert lang("pl").say(said) == str(polish.get(template).string).format(start=commencer)
    assert lang(ENGLISH).say(said) == template.format(start=commencer)
    assert lang("fr").say(Said(template, start=Label("Start", ENGLISH))).endswith("Start.")
