"""Words by place. Where the bot only answers clicks (a group DM, a DM between users, a
server that never added it: ``Place.can_post`` false), Discord offers ``/yahtzee`` only to
those who added the app; their friends play by clicks alone. There no sentence sends a
player to a command as the only way: it says the click, or the command for those who added
the app. The refusals made in ``bot.games`` are said another way there (``BY_CLICK``), and
so is what comes after a game that ended without a result (``ending``).

The sentences that name a command and are never said there to someone without it (the
answers of a command, a DM to a player who asked with a command, a server's settings) keep
one wording: ``tests/cogs/test_wording.py`` lists each with why."""

from __future__ import annotations

from bot.games import (
    ENDED_BY,
    EVERYONE_AWAY,
    GAME_GONE,
    GAME_OVER,
    LOBBY_CLOSED,
    NO_GAME_HERE,
    NO_ROOM,
    NOBODY_LEFT,
    REMATCH_FOR_PLAYERS,
    REMATCH_NOT_YOURS,
    REPLAY_LATER,
)
from bot.i18n import Lang
from bot.i18n.words import N_, Said, Sentence

#: A refusal's sentence (its English template) -> what it says where only clicks reach.
BY_CLICK: dict[str, str] = {
    GAME_OVER: N_(
        "This game is over. Anyone who added the app can start a new one with /yahtzee "
        "start, and everyone joins it with a click."
    ),
    GAME_GONE: N_(
        "That game no longer exists. Anyone who added the app can start a new one with "
        "/yahtzee start, and everyone joins it with a click."
    ),
    LOBBY_CLOSED: N_(
        "This lobby is closed. Anyone who added the app can start a new one with /yahtzee "
        "start, and everyone joins it with a click."
    ),
    NO_GAME_HERE: N_(
        "There is no game here. Anyone who added the app can start one with /yahtzee start, "
        "and everyone joins it with a click."
    ),
    REMATCH_NOT_YOURS: N_(
        "You left this game, so its rematch is not yours to call (it would ping the players "
        "who stayed). Join it with a click once one of them opens it, or, if you added the "
        "app, start a game of your own with /yahtzee start."
    ),
    REMATCH_FOR_PLAYERS: N_(
        "Only the players of this game can start its rematch: join it with a click once one "
        "of them opens it, or, if you added the app, start a game of your own with /yahtzee "
        "start."
    ),
    NO_ROOM: N_(
        "You are already in {limit} games or lobbies. Finish or leave one before you start "
        "or join another: in a chat like this one, Leave is on its lobby and under Scorecard "
        "on its board; /yahtzee leave works in a server that added me, or wherever you added "
        "the app."
    ),
    REPLAY_LATER: N_(
        "This replay shows today's dice: it opens to everyone once every try of today's "
        "challenge is over, <t:{at}:R> at the latest. If you added the app, play yours with "
        "/yahtzee daily."
    ),
}


def said_here(sentence: Sentence, by_click: bool) -> Sentence:
    """``sentence`` as it is said in a place where the bot only answers clicks (its
    ``BY_CLICK`` wording, with the same values), or as it is."""
    if not by_click or sentence.template not in BY_CLICK:
        return sentence
    return Said(BY_CLICK[sentence.template], **sentence.values)


#: What follows why a game ended without a result (``ending``): on a server, how a new game
#: starts; where only clicks reach, the ended board's Play again (the same seats again), or,
#: if none is left to call it, the command for those who added the app.
START_ANOTHER = N_("Start a new one with /yahtzee start.")
PLAY_AGAIN_HERE = N_("Play again opens a lobby for the same players")
START_BY_APP = N_(
    "Anyone who added the app can start a new one with /yahtzee start, and everyone joins "
    "it with a click."
)


#: The reasons a game ends for which its players are told how a new one starts (``start``).
STARTS_AFTER = frozenset({ENDED_BY, NOBODY_LEFT, EVERYONE_AWAY})


def ending(_: Lang, reason: str, by_click: bool, again: bool, start: bool = True) -> str:
    """Why a game ended (``reason``, said in ``_``), and what now (``start``: say how a new
    game starts, as after a game ended by its players or its timer). ``by_click``: a place
    where the bot only answers clicks; ``again``: the message carries Play again there."""
    if not start:
        return reason
    if by_click and again:
        return f"{reason} {_(PLAY_AGAIN_HERE)}."
    return f"{reason} {_(START_BY_APP if by_click else START_ANOTHER)}"
