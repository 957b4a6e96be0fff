"""What players see after a move, written once (``cogs/shared/after_move.py``): for a scoring
nobody clicked (a computer's, the timer's), the board becomes the summary and the last Undo
closes, then exactly one of the final card, the game's end, or the next board; a game that
ends without a result says why where its players look, and nothing is kept of it. Checked
against a publisher that records what it is asked to show."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord

from bot.engine import Category, Dice, Game, ScoreResult, ScriptedDice
from bot.games import Board, GameStatus, GameView, Scored, Where
from cogs.shared.after_move import AfterMove
from cogs.shared.looks import Looks
from cogs.turn import looks as turn_looks
from cogs.turn.board import NUMBERS

from .views import game_view

SUMMARY = discord.Embed(title="a summary")


class Recorder:
    """The publisher's showing methods, recording each call (name, first arguments): a typed
    stand-in (``after_move`` reaches a ``Publisher``: the same methods, the same types)."""

    def __init__(self, posted: bool = True) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.retired: list[Where] = []  # where each retired message was (its game's place)
        self.posted = posted
        self.faces = NUMBERS
        self.looks = Looks()  # the turn feature's own builders, as it registers them
        self.looks.turn = turn_looks
        self.reminders = _Reminders(self.calls)
        self.private = _PrivateBoards(self.calls)
        self.lobbies = self  # (the lobby's messages: ``retire_lobby`` below)

    async def retire(
        self, row: GameView, message_id: int | None, *, lobby: bool = False, **fields: Any
    ) -> None:
        self.calls.append(("retire", row.board_channel_id, message_id, *fields.values()))
        self.retired.append(row.where)

    async def post(self, row: GameView, **fields: Any) -> None:
        self.calls.append(("post", *fields.values()))

    async def close_undo(self, row: GameView) -> None:
        self.calls.append(("close_undo", row))

    async def post_final(self, row: GameView, image: bytes | None = None) -> None:
        self.calls.append(("post_final", row, image))

    async def forget(self, game_id: int, row: GameView | None = None) -> None:
        self.calls.append(("forget", game_id))

    async def retire_lobby(
        self, row: GameView, message_id: int | None, note: str | None = None
    ) -> None:
        self.calls.append(("retire_lobby", row, message_id, note))

    async def archive(self, row: GameView) -> None:
        self.calls.append(("archive", row))

    async def post_board(self, board: Board) -> int | None:
        self.calls.append(("post_board", board))
        return 99 if self.posted else None

    def names(self) -> list[str]:
        return [call[0] for call in self.calls]


class _Reminders:
    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self.calls = calls

    async def turn_over(self, game_id: int, row: GameView | None = None) -> None:
        self.calls.append(("turn_over", game_id))


class _PrivateBoards:
    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self.calls = calls

    def forget(self, game_id: int) -> None:
        self.calls.append(("forget-copy",))


def _row(status: str = GameStatus.ACTIVE, daily: str | None = None, **values: Any) -> GameView:
    """A game of Ann's in a server's channel 100, its board 200 and Undo offer 300."""
    return game_view(status=status, daily=daily, **values)


def _game_at(turn: int) -> tuple[Game, ScoreResult]:
    """Ann's game at ``turn`` (turns played), and the scoring that made the last one."""
    game = Game([("5", "Ann")], "official", ScriptedDice([2] * 5 * 13))
    result = None
    while game.turn_number < turn:
        game.roll("5")
        result = game.score("5", game.current_seat.card.open_boxes[0])
    if result is None:  # no turn played yet: a scoring of turn 0, as the engine says it
        result = ScoreResult("5", Category.ONES, 0, 0, game.dice or Dice([1] * 5))
    return game, result


def _scored(row: GameView, finished: bool = False, turn: int | None = None) -> Scored:
    """A scoring after which the game is at ``turn`` (the scored turn is the one before)."""
    game, result = _game_at(turn if turn is not None else 1)
    board = Board(row, game if turn is not None else None)
    return Scored(board, result, "Ann", 1, final_image=b"png")


def _run(publisher: Recorder, call: Any) -> Any:
    return asyncio.run(call(AfterMove(cast(Any, publisher), cast(Any, None))))


def test_a_scoring_nobody_clicked_then_the_next_board() -> None:
    shown = Recorder()
    scored = _scored(_row())
    assert _run(shown, lambda after: after.scored_unseen(scored, SUMMARY)) is True
    assert shown.calls == [
        ("retire", 100, 200, SUMMARY),  # the board of the turn becomes its summary
        ("close_undo", scored.board.row),
        ("post_board", scored.board),
    ]


def test_a_scoring_nobody_clicked_keeps_an_earlier_turns_line() -> None:
    """Found by a review: the board on record shows an earlier turn (its scoring's line,
    where a lost post left no later board on record) when the timer scores this one: the
    line keeps its words (only its controls go); the summary is not written over it."""
    shown = Recorder()
    scored = _scored(_row(board_turn=3), turn=5)  # turn 4 was scored, turn 3's line on record
    assert _run(shown, lambda after: after.scored_unseen(scored, SUMMARY)) is True
    assert shown.calls[0] == ("retire", 100, 200)  # no embed: its words stay
    on_record = _scored(_row(board_turn=4), turn=5)  # turn 4's own board: its summary
    shown = Recorder()
    _run(shown, lambda after: after.scored_unseen(on_record, SUMMARY))
    assert shown.calls[0] == ("retire", 100, 200, SUMMARY)


def test_an_undo_meanwhile_stops_a_computer_run() -> None:
    """The next board was taken back by an Undo as it was posted: the run goes no further."""
    shown = Recorder(posted=False)
    assert _run(shown, lambda after: after.scored_unseen(_scored(_row()), SUMMARY)) is False


def test_the_last_scoring_brings_the_final_card_and_nothing_else() -> None:
    shown = Recorder()
    scored = _scored(_row(GameStatus.FINISHED), finished=True)
    assert _run(shown, lambda after: after.scored_unseen(scored, SUMMARY)) is False
    assert shown.names() == ["retire", "close_undo", "post_final"]
    assert shown.calls[-1] == ("post_final", scored.board.row, b"png")


def test_a_scoring_that_leaves_nobody_ends_the_game_below_its_summary() -> None:
    """Everyone away (the timer) or no person left (a computer's turn): the reason is posted
    below the summary, the reminder and what was kept of the game go, its thread is
    archived; no next board, no second retiring of the Undo already closed."""
    shown = Recorder()
    row = _row(GameStatus.ABANDONED)
    reason = "Everyone is away."
    assert _run(shown, lambda after: after.scored_unseen(_scored(row), SUMMARY, reason)) is False
    assert shown.names() == [
        "retire", "close_undo", "turn_over", "forget", "post", "forget-copy", "archive",
    ]  # fmt: skip
    posted = shown.calls[4][-1]
    # why, then how a new game starts (on a server: the command)
    said = f"{reason} Start a new one with /yahtzee start."
    assert isinstance(posted, discord.Embed) and posted.description == said
    assert "post_board" not in shown.names()


def test_a_game_ended_by_a_command_says_why_on_its_board_and_its_undo_goes() -> None:
    """/yahtzee end, the last person leaving, a day without a move: the board the players
    saw (``before``) shows the reason without buttons, and its Undo offer goes too."""
    shown = Recorder()
    before = _row(board_message_id=201, undo_message_id=301)
    after_end = _row(GameStatus.ABANDONED)
    _run(shown, lambda after: after.ended(after_end, "Ann ended the game.", before))
    assert shown.names() == [
        "turn_over", "forget", "retire", "retire", "forget-copy", "archive",
    ]  # fmt: skip
    assert shown.calls[2][:3] == ("retire", 100, 201)  # the board, by its channel
    assert shown.calls[2][-1].description == "Ann ended the game."
    assert shown.calls[3] == ("retire", 100, 301)  # its Undo offer
    assert shown.retired == [Where.CHANNEL, Where.CHANNEL]


def test_a_lobby_that_ends_says_why_in_its_own_words() -> None:
    shown = Recorder()
    _run(shown, lambda after: after.ended(_row(GameStatus.CANCELLED), "Nobody started it."))
    assert shown.names() == ["turn_over", "forget", "retire_lobby"]
    assert shown.calls[-1][-1] == "Nobody started it."


def test_a_daily_challenge_that_ends_is_retired_by_its_token() -> None:
    """A private board (an ephemeral message) is reached by its token only: what ``retire``
    is given is a game whose place is its private board."""
    shown = Recorder()
    _run(shown, lambda after: after.ended(_row(GameStatus.ABANDONED, daily="2026-11-26"), "x"))
    assert shown.retired == [Where.PRIVATE, Where.PRIVATE]
