"""A game replays from its move log to the state the store holds: every kind of move a running
game can log, hand-checked totals, and logs that could not have happened."""

from __future__ import annotations

import pytest

from bot.engine import Category, Game, ScriptedDice
from bot.games import BoardClick, GameService
from bot.games.replay import LogEntry, ReplayMismatch, replay
from bot.store import plans

from ..clock import FakeClock
from ..engine.test_scripted_game import ANN_TOTAL, BOB_TOTAL
from .test_service import CHANNEL, Table, play_scripted_game
from .test_timers import tick, timed_table

C = Category


async def stored(service: GameService, game_id: int) -> Game:
    row = await service.store.read(plans.get_game, game_id)
    assert row is not None
    return service.keeper.game_of(row)


async def test_a_whole_game_replays_to_the_hand_worked_totals(
    service: GameService, dice: ScriptedDice
) -> None:
    """The scripted two-seat game (holds, three rolls, Jokers, bonuses) played through the
    service replays from its log alone to the stored state, Ann 614 and Bob 212."""
    table = await play_scripted_game(service, dice)
    replayed = await service.history.replayed(table.game_id)
    assert replayed.game is not None
    assert replayed.game == await stored(service, table.game_id)
    assert [seat.card.total for seat in replayed.game.seats] == [ANN_TOTAL, BOB_TOTAL]
    log = await service.store.read(plans.moves, table.game_id)
    assert replayed.moves == sum(
        1 for *_, action, _, _ in log if action in ("roll", "hold", "score")
    )


async def test_every_kind_of_move_replays(
    service: GameService, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Hold and release, an Undo, the timer's scratch (with its roll), a seat marked away,
    a rejoin, a computer player's turn with holds, a kick and a leave: the log replays to the
    stored state after each."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"), (3, "Cat"), policy="skip-seat")
    game_id = table.game_id

    async def same() -> None:
        replayed = await service.history.replayed(game_id)
        assert replayed.game == await stored(service, game_id)

    dice.extend([2, 2, 5, 6, 1] + [2, 3, 4])  # Ann keeps the twos, lets go of a five
    await table.roll(1)
    await table.hold(1, 0)
    await table.hold(1, 2)
    await table.hold(1, 2)  # released again
    await table.hold(1, 1)
    await table.roll(1)  # 2-2-2-3-4
    await same()
    await table.score(1, C.TWOS)
    turn, _ = await table.state()
    undone = await service.turns.undo(
        BoardClick(game_id, 1, table.undo_id, turn - 1)
    )  # Ann takes it back...
    assert undone.board.game is not None and undone.board.game.current_player_id == "1"
    table.board_id = table.undo_id  # the Undo's message is the board again
    await same()
    await table.score(1, C.CHANCE)  # ...and scores Chance instead
    dice.extend([6, 6, 6, 1, 2] + [1, 3, 4, 5, 6])
    await table.roll(2)
    await table.score(2, C.SIXES)
    clock.advance(300)  # Cat's time runs out: the timer rolls for her and scratches
    assert len(await tick(service)) == 1
    await same()
    dice.extend([1, 1, 1, 1, 1] + [2, 2, 2, 2, 3] + [1, 3, 4, 5, 6])
    await table.roll(1)
    await table.score(1, C.YAHTZEE)
    await table.roll(2)
    await table.score(2, C.TWOS)
    clock.advance(300)  # and again: Cat is away now, skipped
    assert len(await tick(service)) == 1
    cat = (await stored(service, game_id)).seats[2]
    assert cat.away and cat.timeouts == 2
    await same()
    await service.seating.rejoin(CHANNEL, 3)
    await same()
    await service.seating.leave_game(CHANNEL, 2)
    await same()
    assert (await stored(service, game_id)).seats[1].left


async def test_a_computer_players_holds_are_logged_and_replay(
    service: GameService, dice: ScriptedDice
) -> None:
    """The casual bot keeps its pair of ones twice, then rolls the Yahtzee: each roll's holds
    are in the log, so its turn replays to the same dice and card."""
    row = await service.lobby.open_lobby(1, CHANNEL, 1, "Ann", "official")
    await service.lobby.add_bot(row.id, 1, "casual")
    table = Table(service)
    table.game_id = row.id
    await table.post(await service.lobby.begin(row.id, 1))
    dice.extend([1, 2, 3, 4, 6])
    await table.roll(1)
    await table.score(1, C.SMALL_STRAIGHT)
    # By hand: 1-1-2-3-5 holds the ones; 1-1-1-1-6 (best now 10, not "good") holds four ones;
    # the last roll brings the fifth: Yahtzee, 50.
    dice.extend([1, 1, 2, 3, 5] + [1, 1, 6] + [1])
    steps = []
    while (step := await service.turns.bot_step(row.id)) is not None:
        steps.append(step)
        if (await stored(service, row.id)).current_player_id == "1":
            break
    log = await service.store.read(plans.moves, row.id)
    bot_moves = [(action, detail, shown) for _, _, action, detail, shown in log if "bot" in action]
    assert bot_moves == [
        ("add-bot", "casual", None),
        ("bot-roll", "00000", "1-1-2-3-5"),
        ("bot-roll", "11000", "1-1-1-1-6"),
        ("bot-roll", "11110", "1-1-1-1-1"),
        ("bot-score", "yahtzee 50", "1-1-1-1-1"),
    ]
    replayed = await service.history.replayed(row.id)
    assert replayed.game == await stored(service, row.id)


async def test_a_kicked_seat_replays(
    service: GameService, dice: ScriptedDice, clock: FakeClock
) -> None:
    """An away player removed by an admin: the kick names the seat, and the replay agrees."""
    table = await timed_table(service, (1, "Ann"), (2, "Bob"), policy="skip-seat")
    dice.extend([2, 3, 4, 5, 6] * 4)
    for box in (C.CHANCE, C.SIXES):
        clock.advance(300)  # Ann's time runs out
        outcomes = await tick(service)
        await table.post(outcomes[0].scored.board)  # type: ignore[attr-defined]
        await table.roll(2)
        await table.score(2, box)
    await service.seating.kick(CHANNEL, 99, 1, is_admin=True)
    replayed = await service.history.replayed(table.game_id)
    assert replayed.game == await stored(service, table.game_id)
    assert replayed.game is not None and replayed.game.seats[0].left


# -- logs that could not have happened --------------------------------------------------------

PLAYERS = [(1, "Ann"), (2, "Bob")]
LOG: list[LogEntry] = [
    (1, 1, "open", None, None),
    (2, 2, "join", None, None),
    (3, 1, "start", None, None),
    (4, 1, "roll", None, "3-3-3-2-5"),
    (5, 1, "hold", "hold die 1", "3-3-3-2-5"),
    (6, 1, "hold", "hold die 2", "3-3-3-2-5"),
    (7, 1, "hold", "hold die 3", "3-3-3-2-5"),
    (8, 1, "roll", None, "3-3-3-2-2"),
    (9, 1, "score", "full_house 25", "3-3-3-2-2"),
    (10, 2, "roll", None, "6-6-6-6-6"),
    (11, 2, "score", "yahtzee 50", "6-6-6-6-6"),
]


def test_a_true_log_replays() -> None:
    """The hand-made log is one that can happen: Ann's full house, Bob's Yahtzee."""
    game = replay(PLAYERS, "official", "scratch", LOG).game
    assert game is not None
    assert [seat.card.total for seat in game.seats] == [25, 50]
    assert game.current_player_id == "1" and game.dice is None


@pytest.mark.parametrize(
    ("index", "entry", "why"),
    [
        (7, (8, 1, "roll", None, "4-3-3-2-2"), "dice are"),  # a held die changed by a roll
        (8, (9, 1, "score", "full_house 30", "3-3-3-2-2"), "engine scores 25"),
        (8, (9, 1, "score", "full_house 25", "3-3-3-2-1"), "dice are"),
        (9, (10, 1, "roll", None, "6-6-6-6-6"), "turn"),  # Ann rolls in Bob's turn
        # five alike with the Yahtzee box open are no full house: 0, not 25
        (10, (11, 2, "score", "full_house 25", "6-6-6-6-6"), "engine scores 0"),
        (4, (5, 1, "hold", "release die 1", "3-3-3-2-5"), "held"),
        (4, (5, 1, "hold", "hold die 9", "3-3-3-2-5"), "die number 9"),
        (10, (11, 2, "teleport", None, None), "does not know"),
    ],
)
def test_a_log_that_could_not_happen_is_caught(index: int, entry: LogEntry, why: str) -> None:
    """Each changed entry makes the replay fail, saying where and why."""
    log = list(LOG)
    log[index] = entry
    with pytest.raises(ReplayMismatch, match=why):
        replay(PLAYERS, "official", "scratch", log)


def test_a_lost_move_is_caught() -> None:
    """A gap in the log (the second hold gone: the dice alone would not show it) is caught."""
    log = [entry for entry in LOG if entry[0] != 6]
    with pytest.raises(ReplayMismatch, match=r"move 7 .* a gap in the log after move 5"):
        replay(PLAYERS, "official", "scratch", log)
