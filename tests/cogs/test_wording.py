"""Words by place (``cogs/shared/wording.py``; issue 43). Where the bot only answers clicks (a
group DM), Discord offers /yahtzee only to those who added the app. Every sentence of the
catalogs' template that names a /yahtzee command is listed here: either it is said another
way there (``BY_PLACE``: by whom), or it is only ever said to someone who can type that
command (``TO_WHO_CAN_TYPE_IT``: why). A new sentence naming a command fails the first test
until it is placed in one of the two. The other ways are then checked to name no command
but for those who added the app."""

from __future__ import annotations

import re
from dataclasses import replace

from babel.messages.pofile import read_po

from bot.engine import Category, Dice, Game, Preset, ScoreResult
from bot.games import GAME_OVER, NO_ROOM, REMATCH_FOR_PLAYERS, Board
from bot.games.results import Scored
from bot.i18n import TEMPLATE, lang
from bot.i18n.words import Said
from cogs.results.messages import LEADERBOARD_FOOTER, LEADERBOARD_FOOTER_BY_CLICK
from cogs.shared.wording import BY_CLICK, ending, said_here
from cogs.turn.board import scores_field
from cogs.turn.messages import rules_text, summary_embed

from .views import game_view

EN = lang("en")

#: The sentences naming a command (by how they start) that are said another way where only
#: clicks reach, and what says them so.
BY_PLACE = {
    "There is no game in this channel.": "BY_CLICK",
    "This game is over. Start": "BY_CLICK",
    "That game no longer exists.": "BY_CLICK",
    "This lobby is closed. Start": "BY_CLICK",
    "You left this game, so its rematch": "BY_CLICK",
    "Only the players of this game can start its rematch.": "BY_CLICK",
    "You are already in {limit} games or lobbies. Finish or leave one (": "BY_CLICK",
    "This replay shows today's dice": "BY_CLICK",
    "Play yours with /yahtzee daily": "daily_result_layout(by_click)",
    "{preset} rules (/yahtzee rules tells them)": "lobby_embed: a Rules button instead",
    "Bot opponents never count.": "leaderboard_layout(by_click), a shared board",
    "I could not send {who} a private turn notice": "Reminders.notify, by place",
    "Start a new one with /yahtzee start.": "ending: Play again, or START_BY_APP",
    "(away: /yahtzee rejoin)": "scores_field(by_click)",
    "{preset} rules · /yahtzee rules": "board_embed(by_token)",
    "They timed out twice in a row": "summary_embed(by_click)",
    "The host picks one with": "rules_text(by_click)",
}

#: The sentences naming a command that only someone who can type it is ever told, and why.
TO_WHO_CAN_TYPE_IT = {
    "You have had today's daily challenge": "the answer to /yahtzee daily",
    "This copy of your daily challenge was replaced": "the player of a /yahtzee daily",
    "Your daily challenge for {day}": "a /yahtzee daily's private board",
    "Nobody has finished today's challenge yet": "the answer to /yahtzee daily-board",
    "Reset this server's leaderboard?": "/yahtzee-admin, on a server that added the bot",
    "on (a player may choose otherwise": "/yahtzee-admin settings, likewise",
    "off (a player may choose otherwise": "/yahtzee-admin settings, likewise",
    "That leaderboard does not exist": "a page of the asker's own /yahtzee leaderboard",
    "`/yahtzee notify off` stops these messages.": "a DM to who turned /yahtzee notify on",
    "Turn notices are **on**": "the answer to /yahtzee notify",
    "Turn notices are **off**": "the answer to /yahtzee notify",
    "`/yahtzee autoroll` with a setting": "the answer to /yahtzee autoroll",
}


def commands_only(text: str) -> list[str]:
    """The sentences of ``text`` (or parts between "·") that name a /yahtzee command
    without saying it is for those who added the app."""
    sentences = re.split(r"(?<=[.!?:;])\s+|\n|\u00b7", text)
    return [s for s in sentences if "/yahtzee" in s and "added the app" not in s]


def test_every_sentence_naming_a_command_is_placed() -> None:
    """Each message of the template that names a /yahtzee command (and not as one for those
    who added the app) is in exactly one list; each entry of the lists is a message."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    naming = [
        message.id if isinstance(message.id, str) else message.id[0]
        for message in template
        if message.id and message.context is None
    ]
    naming = [text for text in naming if commands_only(text)]
    starts = [*BY_PLACE, *TO_WHO_CAN_TYPE_IT]
    unplaced = [text for text in naming if sum(text.startswith(s) for s in starts) != 1]
    assert unplaced == []
    assert [s for s in starts if not any(text.startswith(s) for text in naming)] == []


def test_a_refusal_is_said_by_its_clicks_where_only_clicks_reach() -> None:
    """Every ``BY_CLICK`` wording names a command only for those who added the app (and the
    server's wording it replaces does name one); its values are kept."""
    for server, clicks in BY_CLICK.items():
        assert commands_only(server) and not commands_only(clicks), clicks
    full = Said(NO_ROOM, limit=3)
    assert said_here(full, by_click=False) is full
    said = EN.say(said_here(full, by_click=True))
    assert said.startswith("You are already in 3 games") and "Leave is on its lobby" in said
    assert "join it with a click" in EN.say(said_here(Said(REMATCH_FOR_PLAYERS), True))
    assert "/yahtzee start" in EN.say(said_here(Said(GAME_OVER), False))


def test_what_follows_a_game_that_ended_names_the_click() -> None:
    """After why a game ended: on a server the command; where only clicks reach, Play again
    when the message carries it, else the command for those who added the app."""
    why = "Everyone is away."
    assert ending(EN, why, False, False) == f"{why} Start a new one with /yahtzee start."
    assert ending(EN, why, True, True) == f"{why} Play again opens a lobby for the same players."
    assert "added the app" in ending(EN, why, True, False)
    assert ending(EN, why, True, True, start=False) == why


def test_the_rules_the_scores_and_a_summary_by_place() -> None:
    """What the Rules button, a board's scores and a turn's summary say where only clicks
    reach: how a preset is picked (for those who added the app), how an away player comes
    back (their Scorecard's Rejoin); on a server, the commands."""
    rules = rules_text(EN, Preset.OFFICIAL, "Undo", by_click=True)
    assert rules.endswith("Play again keeps the preset of the game.") and not commands_only(rules)
    assert commands_only(rules_text(EN, Preset.OFFICIAL, "Undo"))
    game = Game([("1", "Ann"), ("2", "Bob")])
    game.seats[1] = replace(game.seats[1], away=True)
    assert "(away: Scorecard, then Rejoin)" in scores_field(EN, game, by_click=True)
    assert "(away: /yahtzee rejoin)" in scores_field(EN, game)
    result = ScoreResult("2", Category.CHANCE, 0, 0, Dice(1, 1, 2, 3, 4))
    scored = Scored(Board(game_view()), result, "Bob", 3)
    away = str(summary_embed(scored, True, True, by_click=True).description)
    assert "Rejoin, under their Scorecard, brings them back." in away and not commands_only(away)
    assert commands_only(str(summary_embed(scored, True, True).description))
    assert commands_only(LEADERBOARD_FOOTER) and not commands_only(LEADERBOARD_FOOTER_BY_CLICK)
