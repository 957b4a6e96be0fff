"""A first walk through the real bot: lobby, start, roll, hold, score."""

from __future__ import annotations

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import die_labels, live_board, start_game


async def test_lobby_to_first_score(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann opens a lobby, Bob joins, Ann starts, rolls, holds a die, rolls, scores."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)  # /yahtzee start, Join, Start
    assert board["content"].startswith(f"<@{ann['id']}>")
    dice.extend([3, 3, 3, 5, 6, 3, 4])
    answer = await fake.click(ann, board, "Roll")
    assert answer.response_type == 7, answer
    board = fake.messages[board["id"]]
    assert die_labels(board) == ["3", "3", "3", "5", "6"]
    for die in (0, 1, 2):
        await fake.click(ann, board, board["components"][0]["components"][die]["custom_id"])
    await fake.click(ann, board, "Roll")
    board = fake.messages[board["id"]]
    assert die_labels(board) == ["3", "3", "3", "3", "4"]
    await fake.choose(ann, board, "threes")
    summary = fake.messages[board["id"]]
    assert "scored **12** in **Threes**" in summary["embeds"][0]["description"]
    next_board = await live_board(fake, channel)
    assert next_board["content"].startswith(f"<@{bob['id']}>")
