"""What players see after a move, written once (``cogs/shared/after_move.py``): for a scoring
nobody clicked (a computer's, the timer's), the board becomes the summary and the last Undo
closes, then exactly one of the final card, the game's end, or the next board; a game that
ends without a result says why where its players look, and nothing is kept of it. Checked
against a publisher that records what it is asked to show."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.games import GameStatus
from cogs.shared.after_move import AfterMove
from cogs.shared.looks import Looks
from cogs.turn import looks as turn_looks

SUMMARY = discord.Embed(title="a summary")


class Recorder:
    """The publisher's showing methods, recording each call (name, first arguments)."""

    def __init__(self, posted: bool = True) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.posted = posted
        self.faces = None
        self.looks = Looks()  # the turn feature's own builders, as it registers them
        self.looks.turn = turn_looks
        self.routes = SimpleNamespace(send=self._record("send"), by_token=lambda channel: False)
        self.reminders = SimpleNamespace(turn_over=self._record("turn_over"))
        self.private = SimpleNamespace(forget=lambda game_id: self.calls.append(("forget-copy",)))
        for name in ("retire", "close_undo", "post_final", "forget", "retire_lobby", "archive"):
            setattr(self, name, self._record(name))

    def _record(self, name: str) -> Any:
        async def call(*args: Any, **fields: Any) -> None:
            self.calls.append((name, *args, *fields.values()))

        return call

    async def post_board(self, board: Any) -> Any:
        self.calls.append(("post_board", board))
        return SimpleNamespace(id=99) if self.posted else None

    def names(self) -> list[str]:
        return [call[0] for call in self.calls]


def _row(status: str = GameStatus.ACTIVE, daily: str | None = None, **ids: Any) -> Any:
    values = {"id": 7, "channel_id": 100, "board_channel_id": 100, "board_message_id": 200,
              "undo_message_id": 300}  # fmt: skip
    values.update(ids)
    return SimpleNamespace(status=status, daily=daily, language="en", **values)


def _scored(row: Any, finished: bool = False, turn: int | None = None) -> Any:
    """A scoring after which the game is at ``turn`` (the scored turn is the one before)."""
    game = None if turn is None else SimpleNamespace(turn_number=turn)
    board = SimpleNamespace(row=row, game=game)
    return SimpleNamespace(board=board, finished=finished, final_image=b"png")


def _run(publisher: Recorder, call: Any) -> Any:
    return asyncio.run(call(AfterMove(publisher, None)))  # type: ignore[arg-type]


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
        "retire", "close_undo", "turn_over", "forget", "send", "forget-copy", "archive",
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
    assert shown.calls[2][:4] == ("retire", 100, 201, False)  # the board, by its channel
    assert shown.calls[2][-1].description == "Ann ended the game."
    assert shown.calls[3] == ("retire", 100, 301, False)  # its Undo offer


def test_a_lobby_that_ends_says_why_in_its_own_words() -> None:
    shown = Recorder()
    _run(shown, lambda after: after.ended(_row(GameStatus.CANCELLED), "Nobody started it."))
    assert shown.names() == ["turn_over", "forget", "retire_lobby"]
    assert shown.calls[-1][-1] == "Nobody started it."


def test_a_daily_challenge_that_ends_is_retired_by_its_token() -> None:
    """A private board (an ephemeral message) is reached by its token only: ``retire`` is
    told so."""
    shown = Recorder()
    _run(shown, lambda after: after.ended(_row(GameStatus.ABANDONED, daily="2026-11-26"), "x"))
    retired = [call for call in shown.calls if call[0] == "retire"]
    assert [call[3] for call in retired] == [True, True]
