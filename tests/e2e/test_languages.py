"""The bot in the players' own languages, on the fake Discord: a German server where a
Brazilian plays. What the channel sees is German (the server's language), what only Bruno
sees is Brazilian Portuguese (his client's), and no English sentence is left in the channel.
The expected words are read from the catalogs with Babel, not from the bot."""

from __future__ import annotations

import copy
import re
import string
from functools import cache
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.engine import ScriptedDice
from bot.i18n import LOCALES, TEMPLATE

from .conftest import StartBot
from .fake_discord import GUILD_ID, FakeDiscord, controls_of, find_component, text_of
from .helpers import live_board, seated


@cache
def catalog(code: str) -> Catalog:
    with (LOCALES / code / "yahtzee.po").open("rb") as file:
        return read_po(file)


def said(code: str, english: str, **values: object) -> str:
    """A message as the catalog of ``code`` has it (its placeholders filled)."""
    found = catalog(code).get(english)
    assert found is not None and found.string, f"{code} lacks {english!r}"
    text = str(found.string)
    return text.format(**values) if values else text


def english_pieces() -> list[str]:
    """The English words of every message the bot says in a channel that German says
    otherwise: each message's literal stretches of 20 characters or more (between its
    placeholders), so that a sentence left in English is found whatever its values."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    german = catalog("de")
    pieces = set()
    for message in template:
        if not message.id or message.context or isinstance(message.id, tuple):
            continue
        translated = german.get(message.id)
        if translated is None or translated.string == message.id:
            continue
        for literal, *_ in string.Formatter().parse(message.id):
            for part in re.split(r"[*`\n]+", literal):
                if len(part.strip()) >= 20:
                    pieces.add(part.strip())
    return sorted(pieces)


def everything_in(message: dict[str, Any]) -> str:
    """Every word a message shows: its text, embeds (footers too) and controls (labels,
    placeholders, a menu's options and their descriptions)."""
    out = [text_of(message)]
    out += [str((e.get("footer") or {}).get("text") or "") for e in message.get("embeds") or []]
    for control in controls_of(message):
        out += [str(control.get("label") or ""), str(control.get("placeholder") or "")]
        for option in control.get("options") or []:
            out += [str(option.get("label") or ""), str(option.get("description") or "")]
    return "\n".join(out)


async def test_a_german_server_with_a_brazilian_player(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    fake.guild_locales[str(GUILD_ID)] = "de"
    ann = fake.user("Ann", locale="de")
    bruno = fake.user("Bruno", locale="pt-BR")
    channel = fake.channel("general")
    await start_bot()

    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    assert said("de", "Yahtzee: lobby") in text_of(lobby)
    joined = await fake.click(bruno, lobby, said("de", "Join"))
    assert joined.response_type == 7, joined.ephemeral_text
    assert "**Bruno**" in seated(fake.messages[lobby["id"]])
    # Bruno's own refusal is in his language, though the lobby is German
    again = await fake.click(bruno, lobby, said("de", "Join"))
    assert again.ephemeral_text == said(
        "pt_BR",
        "You are already in this lobby: wait for the host to press {start}.",
        start=said("de", "Start"),
    )
    started = await fake.click(ann, lobby, said("de", "Start"))
    assert started.response_type == 7, started.ephemeral_text

    board = await live_board(fake, channel)
    assert board["content"] == said("de", "{who}, your turn!", who=f"<@{ann['id']}>")
    title = board["embeds"][0]["title"]
    assert title == said("de", "Yahtzee: round {round} of {rounds}", round=1, rounds=13)
    # Bruno clicks Roll out of turn: told in Portuguese whose turn it is
    roll = find_component(board, said("de", "Roll ({left} left)", left=3))
    assert roll is not None
    refused = await fake.click(bruno, board, roll["label"])
    assert refused.ephemeral_text == said(
        "pt_BR", "It's {name}'s turn: wait for yours.", name="Ann"
    )
    # Ann rolls and scores Chance from the German menu
    dice.extend([6, 5, 4, 2, 1])
    rolled = await fake.click(ann, board, roll["label"])
    assert rolled.response_type == 7, rolled.ephemeral_text
    board = fake.messages[board["id"]]
    menu = next(c for c in controls_of(board) if c["type"] == 3)
    chance = next(o for o in menu["options"] if o["value"] == "chance")
    assert chance["label"] == f"{said('de', 'Chance')}: 18"
    assert menu["placeholder"] == said("de", "Pick a box to score")
    scored = await fake.choose(ann, board, "chance")
    assert scored.response_type == 7, scored.ephemeral_text
    summary = fake.messages[board["id"]]["embeds"][0]["description"]
    assert said("de", "Chance") in summary and "scored" not in summary

    # Bruno's turn board pings him in German (the channel's language)
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{bruno['id']}>"))
    bobs = fake.last(channel)
    assert bobs["content"] == said("de", "{who}, your turn!", who=f"<@{bruno['id']}>")
    hint = await fake.slash(bruno, channel, "yahtzee rules")
    assert hint.response is not None
    assert hint.response["embeds"][0]["title"] == said("pt_BR", "Yahtzee rules")

    # Nothing the channel shows is left in English
    shown = "\n".join(everything_in(m) for m in fake.channel_messages(channel))
    left = [piece for piece in english_pieces() if piece in shown]
    assert not left, f"English in a German game: {left}"


async def test_a_french_server_names_its_buttons_as_they_show_to_an_english_player(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """On a French server, Bob (English client) and Piotr (Polish) are answered in their own
    language, but a button is named by the label they see on the French messages: Bob is
    told to have the host press "Commencer", not "Start", which no message shows."""
    fake.guild_locales[str(GUILD_ID)] = "fr"
    ann = fake.user("Ann", locale="fr")
    bob = fake.user("Bob", locale="en-US")
    piotr = fake.user("Piotr", locale="pl")
    channel = fake.channel("general")
    await start_bot()

    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    commencer = said("fr", "Start")
    assert commencer == "Commencer" and find_component(lobby, commencer) is not None
    for player in (bob, piotr):
        joined = await fake.click(player, lobby, said("fr", "Join"))
        assert joined.response_type == 7, joined.ephemeral_text

    refused = await fake.click(bob, lobby, commencer)
    assert refused.ephemeral_text == (
        "Only the host can start the game. Ask them to press Commencer."
    )
    again = await fake.click(bob, lobby, said("fr", "Join"))
    assert again.ephemeral_text == (
        "You are already in this lobby: wait for the host to press Commencer."
    )
    cancel = await fake.click(bob, lobby, said("fr", "Cancel"))
    assert cancel.ephemeral_text == (
        "Only the host can cancel this lobby. You can press Quitter instead."
    )
    assert find_component(fake.messages[lobby["id"]], "Quitter") is not None
    polish = await fake.click(piotr, lobby, commencer)
    assert polish.ephemeral_text == said(
        "pl", "Only the host can start the game. Ask them to press {start}.", start="Commencer"
    )
    rules = await fake.slash(bob, channel, "yahtzee rules")
    assert rules.response is not None
    text = rules.response["embeds"][0]["description"]
    assert "**Annuler**: after scoring, Annuler on that message takes it back" in text

    started = await fake.click(ann, lobby, commencer)
    assert started.response_type == 7, started.ephemeral_text
    board = await live_board(fake, channel)
    dice.extend([6, 5, 4, 2, 1])
    rolled = await fake.click(ann, board, said("fr", "Roll ({left} left)", left=3))
    assert rolled.response_type == 7, rolled.ephemeral_text
    # French typography: a space before the colon, in the menu and the scores too
    menu = next(c for c in controls_of(fake.messages[board["id"]]) if c["type"] == 3)
    ones = next(o for o in menu["options"] if o["value"] == "ones")
    assert ones["label"] == "As : 1"
    scores = everything_in(fake.messages[board["id"]]) + str(fake.messages[board["id"]])
    assert "**Ann** : **0**" in scores and "**Ann**: " not in scores
    scored = await fake.choose(ann, fake.messages[board["id"]], "chance")
    assert scored.response_type == 7, scored.ephemeral_text
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{bob['id']}>"))
    bobs = copy.deepcopy(fake.last(channel))  # as Bob's client shows it
    undo = said("fr", "Undo")
    undone = await fake.click(ann, fake.messages[board["id"]], undo)
    assert undone.response_type == 7, undone.ephemeral_text
    waiting = await fake.click(bob, bobs, said("fr", "Roll ({left} left)", left=3), stale=True)
    assert waiting.ephemeral_text.startswith(
        "The last scoring was taken back (Annuler), so this turn waits"
    ), waiting.ephemeral_text


async def test_the_published_commands_carry_every_language(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """The command list a user sees is in their client's language: every name,
    description and choice of the published commands has its localizations, as the
    catalogs have them, for each of Discord's locales the bot speaks."""
    bot = await start_bot()
    await fake.wait_for(lambda: bool(fake.commands))
    commands = {c["name"]: c for c in fake.commands}
    yahtzee = commands["yahtzee"]
    locales = {"de": "de", "fr": "fr", "es-ES": "es", "pt-BR": "pt_BR", "pl": "pl", "ru": "ru"}
    for locale, code in locales.items():
        names = catalog(code)
        assert (
            yahtzee["name_localizations"][locale]
            == names.get("yahtzee", context="command name").string
        )
        start = next(o for o in yahtzee["options"] if o["name"] == "start")
        assert (
            start["name_localizations"][locale] == names.get("start", context="command name").string
        )
        assert (
            start["description_localizations"][locale]
            == names.get("Open a Yahtzee lobby in this channel").string
        )
    assert yahtzee["name_localizations"]["de"] == "kniffel"
    translator = bot.tree.translator
    assert translator is not None and getattr(translator, "missing", None) == set()
