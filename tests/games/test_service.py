"""The game service driven as the cog drives it: lobbies, turns, refusals, races, restarts."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine import Category, Game, Preset, ScriptedDice
from bot.games import MAX_LIVE_GAMES, Board, BoardClick, GameService, Refusal, TurnMove
from bot.games.keeper import SHOWN_FLUSH_AFTER
from bot.games.seats import next_host
from bot.store import GameChange, MoveRecord, NewGame, Store, open_store, plans

from ..clock import FakeClock
from ..conftest import Database
from ..engine.test_scripted_game import ANN, ANN_TOTAL, BOB, BOB_TOTAL

C = Category
CHANNEL = 100
_ids = itertools.count(1000)


class Table:
    """A channel as the cog sees it: posts boards and remembers the live message id."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.game_id = 0
        self.board_id: int | None = None
        self.undo_id: int | None = None

    async def seat(self, *players: tuple[int, str], preset: str = "official") -> Board:
        host, *others = players
        row = await self.service.lobby.open_lobby(1, CHANNEL, host[0], host[1], preset)
        self.game_id = row.id
        for uid, name in others:
            await self.service.lobby.join(row.id, uid, name)
        board = await self.service.lobby.begin(row.id, host[0])
        await self.post(board)
        return board

    async def post(self, board: Board) -> None:
        self.board_id = next(_ids)
        await self.service.posts.board_shown(board.row, self.board_id, board.game)

    async def state(self) -> tuple[int, int]:
        """(turn number, rolls used) of the stored game, as the live buttons carry them."""
        row = await self.service.store.read(plans.get_game, self.game_id)
        assert row is not None and row.state is not None
        game = self.service.keeper.game_of(row)
        return game.turn_number, game.rolls_used

    async def roll(self, user: int) -> Board:
        turn, rolls = await self.state()
        board = await self.service.turns.roll(
            TurnMove(self.game_id, user, self.board_id, turn, rolls)
        )
        self.service.posts.board_answered(board.row, self.board_id or 0, board.game)
        return board

    async def hold(self, user: int, index: int) -> Board:
        turn, rolls = await self.state()
        board = await self.service.turns.hold(
            TurnMove(self.game_id, user, self.board_id, turn, rolls), index
        )
        self.service.posts.board_answered(board.row, self.board_id or 0, board.game)
        return board

    async def score(self, user: int, box: Category, post: bool = True) -> int:
        """Score; the next board is posted and recorded unless ``post`` is False (its post
        has not come back yet)."""
        turn, rolls = await self.state()
        scored = await self.service.turns.score(
            TurnMove(self.game_id, user, self.board_id, turn, rolls), box.value
        )
        if scored.final_image is None:
            self.undo_id = self.board_id
            await self.service.posts.undo_offered(self.game_id, self.undo_id)
            if post:
                await self.post(scored.board)
        return scored.result.points + scored.result.bonus


async def test_solo_game_to_the_end(service: GameService, dice: ScriptedDice) -> None:
    """A solo game of 13 turns with one roll each ends finished with one result row."""
    table = Table(service)
    await table.seat((1, "Ann"))
    # Each turn rolls 1-2-3-4-6 except the last, and Ann takes the boxes in sheet order.
    # By hand: Ones 1, Twos 2, Threes 3, Fours 4, Fives 0, Sixes 6 (upper 16); 3K 0, 4K 0,
    # FH 0, SS 30, LS 0, Yahtzee 0, Chance 16: total 62.
    dice.extend([1, 2, 3, 4, 6] * 13)
    for box in Category:
        await table.roll(1)
        await table.score(1, box)
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and row.status == "finished"
    results = await service.store.read(plans.results, table.game_id)
    assert [(r.user_id, r.total, r.place, r.seats) for r in results] == [(1, 62, 1, 1)]
    actions = [m[2] for m in await service.store.read(plans.moves, table.game_id)]
    assert actions == ["open", "start"] + ["roll", "score"] * 13


async def play_scripted_game(service: GameService, dice: ScriptedDice) -> Table:
    """The engine's scripted two-seat game (tests/engine/test_scripted_game.py), played
    through the service: Ann rolls once a turn, Bob holds and rolls up to three times."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    for (ann_dice, ann_box, *_), (bob_rolls, bob_holds, bob_box, _) in zip(ANN, BOB, strict=True):
        dice.extend(ann_dice)
        await table.roll(1)
        await table.score(1, ann_box)
        dice.extend(face for roll in bob_rolls for face in roll)
        await table.roll(2)
        for held in bob_holds:
            for index, keep in enumerate(held):
                if keep:
                    await table.hold(2, index)
            await table.roll(2)
        await table.score(2, bob_box)
    return table


async def test_two_player_game_matches_hand_totals(
    service: GameService, dice: ScriptedDice
) -> None:
    """The engine's scripted two-seat game, through the service: Ann 614, Bob 212."""
    table = await play_scripted_game(service, dice)
    results = await service.store.read(plans.results, table.game_id)
    assert [(r.user_id, r.total, r.place) for r in results] == [
        (1, ANN_TOTAL, 1),
        (2, BOB_TOTAL, 2),
    ]
    ann = results[0]
    assert (ann.upper_bonus, ann.yahtzees, ann.yahtzee_bonuses) == (35, 4, 3)


async def test_a_second_lobby_in_a_busy_channel_links_the_first(service: GameService) -> None:
    """The refusal carries a link to the existing game's message."""
    table = Table(service)
    await table.seat((1, "Ann"))
    with pytest.raises(Refusal, match="already has a game in progress") as refused:
        await service.lobby.open_lobby(1, CHANNEL, 2, "Bob", "official")
    assert refused.value.link == (1, CHANNEL, table.board_id)


async def test_only_the_host_starts_and_cancels(service: GameService) -> None:
    """Lobby buttons are for anyone, but Start and Cancel only work for the host."""
    row = await service.lobby.open_lobby(1, CHANNEL, 1, "Ann", "official")
    await service.lobby.join(row.id, 2, "Bob")
    with pytest.raises(Refusal, match="Only the host can start"):
        await service.lobby.begin(row.id, 2)
    with pytest.raises(Refusal, match="Only the host can cancel"):
        await service.lobby.cancel(row.id, 2)
    with pytest.raises(Refusal, match="already in this lobby"):
        await service.lobby.join(row.id, 2, "Bob")


async def test_cancel_by_someone_not_seated_does_not_tell_them_to_leave(
    service: GameService,
) -> None:
    """Found in issue 41's play-through: a member who is not in the lobby (never joined, or
    left) pressing Cancel was told "You can press Leave instead", which does nothing for
    them; a seated player is still pointed at Leave."""
    row = await service.lobby.open_lobby(1, CHANNEL, 1, "Ann", "official")
    await service.lobby.join(row.id, 2, "Bob")
    with pytest.raises(Refusal) as seated:
        await service.lobby.cancel(row.id, 2)
    assert "Leave" in str(seated.value), seated.value
    with pytest.raises(Refusal) as stranger:
        await service.lobby.cancel(row.id, 3)
    assert str(stranger.value) == "Only the host can cancel this lobby.", stranger.value


async def test_a_non_player_click_is_refused_and_changes_nothing(
    service: GameService, dice: ScriptedDice
) -> None:
    """Someone not seated gets a plain refusal; the game's version is unchanged."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    before = await service.store.read(plans.get_game, table.game_id)
    with pytest.raises(Refusal, match="not playing"):
        await table.roll(3)
    with pytest.raises(Refusal, match="It's Ann's turn"):
        await table.roll(2)
    after = await service.store.read(plans.get_game, table.game_id)
    assert before is not None and after is not None and after.version == before.version
    assert dice.remaining == 0


async def test_a_click_on_an_old_board_is_refused_with_a_link(
    service: GameService, dice: ScriptedDice
) -> None:
    """After a turn, the previous turn's Roll button is refused and points at the live board."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    old_board = table.board_id
    dice.extend([1, 2, 3, 4, 5])
    await table.roll(1)
    await table.score(1, C.LARGE_STRAIGHT)
    with pytest.raises(Refusal, match="earlier turn") as refused:
        await service.turns.roll(TurnMove(table.game_id, 2, old_board, 0, 0))
    assert refused.value.link == (1, CHANNEL, table.board_id)
    # The right message with an out-of-date turn number is refused as well.
    with pytest.raises(Refusal, match="earlier turn"):
        await service.turns.roll(TurnMove(table.game_id, 2, table.board_id, 0, 0))


async def test_two_rolls_at_once_roll_once(service: GameService, dice: ScriptedDice) -> None:
    """Two Roll clicks with the same buttons race: one rolls, the other is told why not."""
    table = Table(service)
    await table.seat((1, "Ann"))
    dice.extend([6, 6, 6, 6, 6, 1, 1, 1, 1, 1])
    outcomes = await asyncio.gather(
        service.turns.roll(TurnMove(table.game_id, 1, table.board_id, 0, 0)),
        service.turns.roll(TurnMove(table.game_id, 1, table.board_id, 0, 0)),
        return_exceptions=True,
    )
    boards = [o for o in outcomes if isinstance(o, Board)]
    refusals = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(boards) == 1 and len(refusals) == 1
    assert "double click" in refusals[0].message
    assert dice.remaining == 5  # only one roll took dice
    assert [m[2] for m in await service.store.read(plans.moves, table.game_id)].count("roll") == 1


async def test_a_stale_menu_cannot_score_new_dice(service: GameService, dice: ScriptedDice) -> None:
    """A box picked from the menu of an earlier roll is refused: the dice changed."""
    table = Table(service)
    await table.seat((1, "Ann"))
    dice.extend([2, 3, 4, 5, 6, 1, 1, 1, 1, 1])
    await table.roll(1)
    await table.roll(1)  # the menu of roll 1 is now out of date
    with pytest.raises(Refusal, match="rolled since"):
        await service.turns.score(
            TurnMove(table.game_id, 1, table.board_id, 0, 1), C.LARGE_STRAIGHT.value
        )


async def test_undo_brings_the_turn_back_until_the_next_roll(
    service: GameService, dice: ScriptedDice
) -> None:
    """Undo from the scored turn's message restores it; after Bob rolls it is too late."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([3, 3, 3, 2, 2] * 3)
    await table.roll(1)
    await table.score(1, C.THREES)
    next_board = table.board_id
    undone = await service.turns.undo(BoardClick(table.game_id, 1, table.undo_id, 0))
    assert undone.retire_message_id == next_board
    assert undone.board.game is not None and undone.board.game.current_player_id == "1"
    await service.posts.board_shown(undone.board.row, table.undo_id or 0, undone.board.game)
    table.board_id = table.undo_id
    await table.score(1, C.FULL_HOUSE)
    await table.roll(2)
    with pytest.raises(Refusal, match="Too late to undo"):
        await service.turns.undo(BoardClick(table.game_id, 1, table.undo_id, 0))


async def test_a_restart_mid_turn_continues_the_game(
    database: Database, dice: ScriptedDice
) -> None:
    """A new store and service on the same file pick the turn up where it was."""
    first = await open_store(database)
    table = Table(GameService(first, dice))
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([5, 5, 5, 1, 2] + [5, 5, 1, 2])  # roll 1, then 4 new dice beside the held 5
    await table.roll(1)
    await table.hold(1, 0)
    await first.close()

    second = await open_store(database)
    try:
        table.service = GameService(second, dice)
        board = await table.roll(1)
        assert board.game is not None and list(board.game.dice or []) == [5, 5, 5, 1, 2][:1] + [
            5,
            5,
            1,
            2,
        ]
        assert await table.score(1, C.FIVES) == 15
    finally:
        await second.close()


async def test_last_player_leaving_abandons_the_game(service: GameService) -> None:
    """When everyone has left, the game ends as abandoned with no results."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    board = await service.seating.leave_game(CHANNEL, 1)
    assert board.row.status == "active" and board.game is not None
    assert board.game.current_player_id == "2"
    board = await service.seating.leave_game(CHANNEL, 2)
    assert board.row.status == "abandoned"
    assert await service.store.read(plans.results, table.game_id) == []


async def test_the_host_role_passes_to_a_playing_person_when_the_host_leaves(
    service: GameService,
) -> None:
    """The host leaving a running game hands the role to the first person still playing:
    past a computer seat and an away person; another player leaving changes no host."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"), (3, "Cat"), (4, "Dan"))
    await service.seating.leave_game(CHANNEL, 4)  # not the host: Ann still hosts
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and row.host_id == 1
    await service.seating.leave_game(CHANNEL, 1)
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None and row.host_id == 2


def test_next_host_prefers_playing_people_to_away_ones_and_computers() -> None:
    """By hand: seats Ann (host, leaving), a computer, Bob away, Cat playing: Cat hosts;
    with Cat gone too, Bob (away) does; with no person left the host stays."""
    game = Game(["1", "-1", "2", "3"])
    game.seats[0] = replace(game.seats[0], left=True)
    game.seats[2] = replace(game.seats[2], away=True)
    assert next_host(game, 1) == 3
    game.seats[3] = replace(game.seats[3], left=True)
    assert next_host(game, 1) == 2
    game.seats[2] = replace(game.seats[2], left=True)
    assert next_host(game, 1) == 1


async def test_end_needs_the_host_or_an_admin(service: GameService) -> None:
    """A player who is not the host cannot end the game; an admin can, as abandoned."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    with pytest.raises(Refusal, match="Only the host"):
        await service.servers.check_can_end(CHANNEL, 2, is_admin=False)
    row = await service.servers.end(table.game_id, 3, is_admin=True)
    assert row.status == "abandoned"
    with pytest.raises(Refusal, match="no game in this channel"):
        await service.lookups.live_game(CHANNEL)


async def test_scorecard_for_spectators_and_players(service: GameService) -> None:
    """Anyone sees a card: their own, a named player's, or (a spectator) the current one."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    own = await service.scorecards.in_channel(CHANNEL, 2, None)
    spectator = await service.scorecards.in_channel(CHANNEL, 9, None)
    named = await service.scorecards.in_channel(CHANNEL, 9, 2)
    assert own == named and spectator != own
    assert (own.name, spectator.name) == ("Bob", "Ann")
    assert own.image is not None and own.image[:8] == b"\x89PNG\r\n\x1a\n"
    assert own.text.splitlines()[0].split() == ["Bob"]  # one column: Bob's
    assert (await service.scorecards.in_channel(CHANNEL, 2, None, picture=False)).image is None
    with pytest.raises(Refusal, match="not playing"):
        await service.scorecards.in_channel(CHANNEL, 1, 9)


async def test_play_again_invites_the_same_players(
    service: GameService, dice: ScriptedDice
) -> None:
    """Play again opens a lobby hosted by the clicker that invites the other players."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([1, 1, 1, 1, 1] * 26)
    for _ in range(13):
        for player in (1, 2):
            await table.roll(player)
            row = await service.store.read(plans.get_game, table.game_id)
            assert row is not None
            box = service.keeper.game_of(row).current_seat.card.options([1, 1, 1, 1, 1])
            await table.score(player, next(iter(box)))
    rematch = await service.lobby.play_again(table.game_id, 1, 2, "Bob")
    lobby = rematch.row
    assert lobby.status == "lobby" and lobby.host_id == 2
    assert lobby.players == [(2, "Bob")]  # Ann is invited, not seated: she may have gone
    assert rematch.invited == [(1, "Ann")]


async def test_a_player_who_left_cannot_call_the_rematch(
    service: GameService, dice: ScriptedDice
) -> None:
    """Ann leaves at once and Bob plays the game out: Play again is Bob's to press (and
    invites nobody: Ann left), never Ann's, whose click would ping the player who stayed."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    await service.seating.leave_game(CHANNEL, 1)
    dice.extend([1, 1, 1, 1, 1] * 13)
    for _ in range(13):
        await table.roll(2)
        row = await service.store.read(plans.get_game, table.game_id)
        assert row is not None
        box = service.keeper.game_of(row).current_seat.card.options([1, 1, 1, 1, 1])
        await table.score(2, next(iter(box)))
    with pytest.raises(Refusal, match="You left this game"):
        await service.lobby.play_again(table.game_id, 1, 1, "Ann")
    rematch = await service.lobby.play_again(table.game_id, 1, 2, "Bob")
    assert rematch.row.players == [(2, "Bob")] and rematch.invited == []


async def test_a_click_on_a_new_board_before_it_is_recorded_counts(
    service: GameService, dice: ScriptedDice
) -> None:
    """The next player may click the board just posted before the bot has recorded its
    message id: the click is played; once recorded, another message of that turn is refused."""
    table = Table(service)
    await table.seat((1, "Ann"), (2, "Bob"))
    dice.extend([2] * 5 + [3] * 5 + [4] * 5)
    await table.roll(1)
    await table.score(1, C.TWOS, post=False)
    posted = 555  # the next board, posted but not recorded
    board = await service.turns.roll(TurnMove(table.game_id, 2, posted, 1, 0))
    assert board.game is not None and list(board.game.dice or ()) == [3] * 5
    await service.posts.board_shown(board.row, posted, board.game)
    with pytest.raises(Refusal, match="earlier turn"):
        await service.turns.roll(TurnMove(table.game_id, 2, 556, 1, 1))


async def test_a_final_message_that_can_never_be_posted_is_no_longer_awaited(
    service: GameService, store: Store
) -> None:
    """A finished game whose channel is gone keeps its results, and the repair stops
    trying to post its final message."""
    row = await store.write(
        plans.create_game,
        NewGame(guild_id=1, channel_id=5, host_id=1, preset=Preset.OFFICIAL, players=[(1, "Ann")]),
    )
    await store.write(
        plans.update_game, row.id, row.version, MoveRecord(1, "end"), GameChange(status="finished")
    )
    assert [g.id for g in await store.read(plans.games_missing_final_message)] == [row.id]
    assert await service.servers.unreachable(row.id, "channel deleted") is None
    assert await store.read(plans.games_missing_final_message) == []
    kept = await store.read(plans.get_game, row.id)
    assert kept is not None and kept.status == "finished"


async def test_one_person_may_be_in_at_most_so_many_live_games(service: GameService) -> None:
    """Issue 17 item 4: lobbies in 50 channels by one person stop at the limit with a plain
    answer; joining is refused the same way; leaving one makes room; others are not held up."""
    ann, bob = 1, 2
    rows = [
        await service.lobby.open_lobby(1, 500 + i, ann, "Ann", None) for i in range(MAX_LIVE_GAMES)
    ]
    with pytest.raises(Refusal, match=f"already in {MAX_LIVE_GAMES} games"):
        await service.lobby.open_lobby(1, 600, ann, "Ann", None)
    bobs = await service.lobby.open_lobby(1, 601, bob, "Bob", None)  # someone else: not limited
    with pytest.raises(Refusal, match="already in"):
        await service.lobby.join(bobs.id, ann, "Ann")
    await service.lobby.leave_lobby(rows[0].id, ann)  # her lobby closes: room for one more
    await service.lobby.join(bobs.id, ann, "Ann")
    with pytest.raises(Refusal, match="already in"):
        await service.lobby.open_lobby(1, 602, ann, "Ann", None)


async def test_the_limit_holds_when_everything_arrives_at_once(service: GameService) -> None:
    """Forty /yahtzee start in forty channels at the same moment (a script, a self-bot): the
    limit is counted where the seat is taken, so exactly ten lobbies open and thirty are
    refused plainly; fifteen Joins at once by someone else stop at ten the same way."""
    ann, bob = 1, 2
    opened = await asyncio.gather(
        *(service.lobby.open_lobby(1, 700 + i, ann, "Ann", None) for i in range(40)),
        return_exceptions=True,
    )
    rows = [o for o in opened if not isinstance(o, BaseException)]
    refused = [o for o in opened if isinstance(o, BaseException)]
    assert len(rows) == MAX_LIVE_GAMES
    assert all(isinstance(o, Refusal) and "already in 10 games" in o.message for o in refused)
    extra = [await service.lobby.open_lobby(1, 800 + i, 3 + i, f"P{i}", None) for i in range(5)]
    joined = await asyncio.gather(
        *(service.lobby.join(row.id, bob, "Bob") for row in [*rows, *extra]), return_exceptions=True
    )
    assert sum(1 for j in joined if not isinstance(j, BaseException)) == MAX_LIVE_GAMES
    assert all(isinstance(j, Refusal) for j in joined if isinstance(j, BaseException))
    assert await service.store.read(plans.live_games_of, bob) == MAX_LIVE_GAMES


async def test_a_turn_began_at_the_version_its_board_was_first_posted_with(
    service: GameService, dice: ScriptedDice
) -> None:
    """A repair re-posts a turn's board with the nonce of the version the turn began at, so
    that Discord hands back a board posted before a crash: rolls and holds since do not
    change it, a scoring does."""
    table = Table(service)
    board = await table.seat((1, "Ann"), (2, "Bob"))
    first = board.row.version  # post_board's nonce is that of the version it shows
    assert await service.posts.turn_began(board.row) == first
    dice.extend([1, 2, 3, 4, 6] + [5, 5, 5, 5])
    await table.roll(1)
    await table.hold(1, 0)
    rolled = await table.roll(1)
    assert rolled.row.version == board.row.version + 3
    assert await service.posts.turn_began(rolled.row) == first
    await table.score(1, Category.CHANCE)
    row = await service.store.read(plans.get_game, table.game_id)
    assert row is not None
    assert await service.posts.turn_began(row) == row.version != first


async def test_retention_prunes_old_move_logs_and_keeps_results(
    service: GameService, dice: ScriptedDice
) -> None:
    """``prune_moves(30)`` deletes the move log of a game that ended more than 30 days ago,
    in batches, and nothing else: not a live game's, not a recent one's, not the results.
    Replay and Analysis of the pruned game say it is too old."""
    old = await play_scripted_game(service, dice)
    live = Table(service)
    await live.seat((3, "Cy"))
    live_log = await service.store.read(plans.moves, live.game_id)
    now = datetime.now(UTC)
    assert await service.history.prune_moves(30, now=now + timedelta(days=29)) == 0  # not yet
    assert await service.history.prune_moves(30, now=now + timedelta(days=31), batch=1) == 1
    assert await service.store.read(plans.moves, old.game_id) == []
    assert await service.store.read(plans.moves, live.game_id) == live_log
    results = await service.store.read(plans.results, old.game_id)
    assert [(r.user_id, r.total) for r in results] == [(1, ANN_TOTAL), (2, BOB_TOTAL)]
    for asked in (service.history.story(old.game_id), service.coaching.report(old.game_id, 1)):
        with pytest.raises(Refusal, match="too old"):
            await asked
    assert await service.history.prune_moves(30, now=now + timedelta(days=60)) == 0  # done once


async def test_click_answers_go_on_record_together_and_before_a_repair_looks(
    service: GameService, dice: ScriptedDice, clock: FakeClock
) -> None:
    """What a click's answer showed on its own board is on record a moment later, the answers
    of two games in one unit of work; a repair looking for boards left behind puts it on
    record first, so it never mistakes an answered board for one left behind."""
    ann, bob = Table(service), Table(service)
    await ann.seat((1, "Ann"))
    row = await service.lobby.open_lobby(1, CHANNEL + 1, 2, "Bob", "official")
    bob.game_id = row.id
    await bob.post(await service.lobby.begin(row.id, 2))
    dice.extend([1, 2, 3, 4, 5] * 3)
    await ann.roll(1)
    await bob.roll(2)
    stored = await service.store.read(plans.get_game, ann.game_id)
    assert stored is not None and stored.board_version == stored.version - 1  # not yet
    units_before = service.store.group_commit
    await asyncio.sleep(SHOWN_FLUSH_AFTER * 4)
    for table in (ann, bob):
        stored = await service.store.read(plans.get_game, table.game_id)
        assert stored is not None and stored.board_version == stored.version
    if units_before is not None:  # SQLite counts its units of work
        after = service.store.group_commit
        assert after is not None and after[1] - units_before[1] == 1
    board = await ann.roll(1)
    clock.advance(3600)  # long past the repair's wait
    assert [v.id for v in await service.timers.boards_behind()] == []
    stored = await service.store.read(plans.get_game, ann.game_id)
    assert stored is not None and stored.board_version == board.row.version
