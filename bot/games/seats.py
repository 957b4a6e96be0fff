"""Who sits at a table, as the service numbers them: a seat in the engine is a player id
(``str``), a member's user id (``int``) as text, or a negative number for a computer player,
``-(10 * n + level)``. The engine keeps player ids opaque (it knows no computers, nor hosts),
so what follows from this numbering lives here: which seats are computers and of which level,
whether a person still plays, who hosts once the host has left."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import AWAY_AFTER_TIMEOUTS, Game, Seat
from bot.i18n.words import N_
from bot.store import ResultRow

BOT_LEVELS = {1: "optimal", 2: "casual", 3: "winning"}

# Short, and plainly not a person nor the Yahtzee box (a column header shows ~8 letters)
#: A computer seat's name, in English: it is seated in its game's language (``Lobby.add_bot``).
BOT_NAMES = {
    "optimal": N_("Optimal bot"),
    "casual": N_("Casual bot"),
    "winning": N_("To-win bot"),
}


def player_id(user_id: int) -> str:
    """The engine's id for a member's seat (or a computer's, from its negative number)."""
    return str(user_id)


def is_bot(player_id: str) -> bool:
    """Computer players have negative ids: -(10 * n + level)."""
    return int(player_id) < 0


def bot_level(player_id: str) -> str:
    """'optimal', 'casual' or 'winning' for a computer player's id."""
    return BOT_LEVELS[(-int(player_id)) % 10]


def new_bot_id(level: str, seated: Iterable[int]) -> int:
    """The id of one more computer seat of ``level`` beside the ids ``seated``: numbered
    after every computer seat there."""
    code = {name: number for number, name in BOT_LEVELS.items()}[level]
    bots = [uid for uid in seated if uid < 0]
    return -(10 * (max((-uid // 10 for uid in bots), default=0) + 1) + code)


def present(seat: Seat) -> bool:
    """Whether a seat's person is still at the table: not left, not away, and not one whose
    last ``AWAY_AFTER_TIMEOUTS`` turns in a row the timer played (skip seat marks them away
    then; play for them and scratch go on playing their turns while someone else plays).
    Their own roll, hold or scoring puts them back."""
    return not seat.left and not seat.away and seat.timeouts < AWAY_AFTER_TIMEOUTS


def people_left(game: Game) -> bool:
    """Whether a person still plays (or waits for the last turns): a game of computer seats
    alone, everyone else having left or gone away, ends without a result; so does a game
    the timer alone has played for two rounds (everyone walked away: nobody's result
    would be theirs)."""
    return any(not is_bot(s.player_id) and present(s) for s in game.seats)


def rematch_callers(game: Game) -> bool:
    """Whether anyone may call a rematch of a game that is over (``Lobby.play_again``): a
    person who sat in it and did not leave (away or not)."""
    return any(not is_bot(s.player_id) and not s.left for s in game.seats)


def next_host(game: Game, host_id: int) -> int:
    """Who hosts once the host has left a running game: the first person still playing, else
    the first one away (the host's Play again and Remove pass on with it)."""
    people = [s for s in game.seats if not is_bot(s.player_id) and not s.left]
    people.sort(key=lambda seat: seat.away)  # playing seats first, in seat order
    return int(people[0].player_id) if people else host_id


def result_rows(game: Game) -> list[ResultRow]:
    """A finished game's rows for the leaderboards: every person still seated (computer
    seats never count)."""
    out = []
    for standing in game.standings():
        seat = game.seats[standing.seat]
        if seat.left or is_bot(seat.player_id):
            continue  # bots never count on the leaderboard
        card = seat.card
        out.append(
            ResultRow(
                user_id=int(seat.player_id),
                total=card.total,
                upper_total=card.upper_total,
                upper_bonus=card.upper_bonus,
                yahtzees=card.yahtzees,
                yahtzee_bonuses=card.yahtzee_bonuses,
                place=standing.place,
                seats=len(game.seats),
                name=seat.name,
            )
        )
    return out
