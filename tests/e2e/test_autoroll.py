"""Fewer taps (issue 30): a turn's first roll, never a decision, made as the turn starts, by a
server's setting or a player's own choice; an Undo never re-rolls the next player's dice."""

from __future__ import annotations

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord, find_component
from .helpers import die_labels, start_game
from .test_timers import settings_menu


async def test_turns_start_rolled_by_the_servers_choice_or_the_players_own(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The server turns the opening roll on; Cat keeps hers off. Ann's first board arrives
    rolled (two rolls left); after her scoring Bob's does too; Ann's Undo parks Bob's board,
    and when she scores anew Bob's turn has the very same dice (nothing re-rolled); Cat's
    turn waits for her Roll."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    await start_bot()
    menu = await settings_menu(fake, mod, channel)
    switched = await fake.click(mod, menu, "First roll made for the player: off")
    assert switched.response_type == 7, switched.ephemeral_text
    shown = {f["name"]: f["value"] for f in fake.messages[menu["id"]]["embeds"][0]["fields"]}
    assert shown["First roll made for the player"].startswith("on")
    mine = await fake.slash(cat, channel, "yahtzee autoroll", setting="off")
    assert "(**off**), in every server" in mine.ephemeral_text
    told = await fake.slash(bob, channel, "yahtzee autoroll")
    assert "each server's choice (here: **on**)" in told.ephemeral_text

    dice.extend([4, 4, 4, 1, 2])  # the opening roll, made as the turn starts
    board = await start_game(fake, channel, ann, bob, cat)
    assert die_labels(board) == ["4", "4", "4", "1", "2"]
    assert find_component(board, "Roll (2 left)") is not None
    dice.extend([5, 5, 5, 5, 3])  # Bob's opening roll, made as Ann scores
    scored = await fake.choose(ann, board, "fours")
    assert scored.response_type == 7, scored.ephemeral_text
    await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    bobs = fake.last(channel)
    assert bobs["content"].startswith(f"<@{bob['id']}>")
    assert die_labels(bobs) == ["5", "5", "5", "5", "3"]
    undone = await fake.click(ann, fake.messages[board["id"]], "Undo")
    assert undone.response_type == 7, undone.ephemeral_text  # an opening roll left it open
    assert find_component(fake.messages[bobs["id"]], "Roll") is None  # parked
    again = await fake.choose(ann, fake.messages[board["id"]], "three_of_a_kind")
    assert again.response_type == 7, again.ephemeral_text
    await fake.wait_for(lambda: find_component(fake.messages[bobs["id"]], "Roll") is not None)
    assert die_labels(fake.messages[bobs["id"]]) == ["5", "5", "5", "5", "3"]  # not re-rolled
    assert dice.remaining == 0
    await fake.choose(bob, fake.messages[bobs["id"]], "fives")
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{cat['id']}>"))
    cats = fake.last(channel)
    assert die_labels(cats) == ["\N{EN DASH}"] * 5  # her own choice: she rolls
    assert find_component(cats, "Roll (3 left)") is not None
