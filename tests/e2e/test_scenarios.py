"""The bot as players meet it, through real discord.py against the fake Discord."""

from __future__ import annotations

import asyncio
import copy

from bot.engine import ScriptedDice
from bot.store import plans

from ..engine.test_scripted_game import ANN, ANN_TOTAL, BOB, BOB_TOTAL
from .conftest import StartBot
from .fake_discord import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    FakeDiscord,
    find_component,
    gallery_urls,
    text_of,
)
from .helpers import die_labels, live_board, play_turn, png_size, seated, start_game


async def test_full_two_player_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """From /yahtzee start to the final ranking with Yahtzees, a Joker +100, the upper bonus
    and an undo; the final message and the stored results match the hand-computed totals."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await start_game(fake, channel, ann, bob)
    for (ann_dice, ann_box, _, _), (bob_rolls, bob_holds, bob_box, _) in zip(ANN, BOB, strict=True):
        await play_turn(fake, dice, ann, channel, [ann_dice], ann_box.value)
        if bob_box.value == "twos":  # a Joker with 0 banked: the menu offers only Twos
            board = await live_board(fake, channel)
            dice.extend(bob_rolls[0])
            await fake.click(bob, board, "Roll")
            select = fake.messages[board["id"]]["components"][2]["components"][0]
            assert [o["value"] for o in select["options"]] == ["twos"]
            await fake.choose(bob, board, "twos")
            continue
        if bob_box.value == "threes":  # scored in Ones by mistake, undone, then Threes
            scored = await play_turn(fake, dice, bob, channel, bob_rolls, "ones", bob_holds)
            summary = fake.messages[scored.original_message_id or ""]
            wrong_board = fake.last(channel)
            undone = await fake.click(bob, summary, "Undo")
            assert undone.response_type == 7, undone.ephemeral_text
            # the next turn's message pinged Ann: it waits without controls, and becomes
            # her board again once Bob has scored anew (no second ping, no note left)
            assert find_component(fake.messages[wrong_board["id"]], "Roll") is None
            assert "undone" in fake.messages[wrong_board["id"]]["embeds"][0]["description"]
            board = fake.messages[summary["id"]]
            assert find_component(board, "Roll") is not None
            await fake.choose(bob, board, "threes")
            await fake.wait_for(lambda: fake.live_boards(channel) != [])
            assert fake.live_boards(channel)[0]["id"] == wrong_board["id"]
            continue
        await play_turn(fake, dice, bob, channel, bob_rolls, bob_box.value, bob_holds)

    final = fake.last(channel)
    said = text_of(final)
    assert said.startswith(f"## Game over: Ann wins with {ANN_TOTAL}!")
    assert f"**{ANN_TOTAL}**" in said and f"**{BOB_TOTAL}**" in said
    assert "Yahtzee bonus 300" in said and "upper bonus 35" in said
    game_id = int(find_component(final, "Play again")["custom_id"].split(":")[-1])  # type: ignore[index]
    results = await bot.store.read(plans.results, game_id)
    assert [(r.user_id, r.total, r.place) for r in results] == [
        (int(ann["id"]), ANN_TOTAL, 1),
        (int(bob["id"]), BOB_TOTAL, 2),
    ]
    assert fake.live_boards(channel) == []
    assert dice.remaining == 0

    # What the game leaves in the channel: the lobby, one line of text per turn (26) and
    # the final scorecard, the only picture; nothing says "your turn", nothing is undone.
    messages = fake.channel_messages(channel)
    assert len(messages) == 1 + 26 + 1
    assert sum(1 for _, _, uid in fake.pings if uid == ann["id"]) == 13  # once a turn
    pictures = [(m, a) for m in messages for a in m["attachments"]]
    assert len(pictures) == 1 and pictures[0][0] is messages[-1]
    message, attachment = pictures[0]
    png_size(fake.files[attachment["id"]])
    assert gallery_urls(message) == [f"attachment://{attachment['filename']}"]
    assert not any("your turn" in m["content"] for m in messages)

    # Play again invites rather than seats: one ping for Ann, Bob hosts, Ann's Join seats her.
    # The invitation is a message of its own (a V2 lobby carries no content, and a mention
    # in its text would notify with an empty push), the lobby right below it.
    await fake.click(bob, final, "Play again")
    invitation, lobby = fake.channel_messages(channel)[-2:]
    assert invitation["id"] != final["id"]
    assert invitation["mentions"] == [{"id": ann["id"]}] and lobby["mentions"] == []
    assert "rematch" in invitation["content"] and "Join" in invitation["content"]
    assert lobby["flags"] & IS_COMPONENTS_V2 and lobby["content"] == ""
    players = seated(lobby)
    assert "**Bob** (host)" in players and "Ann" not in players
    joined = await fake.click(ann, lobby, "Join")
    assert joined.response_type == 7, joined.ephemeral_text
    assert "**Ann**" in seated(fake.messages[lobby["id"]])


async def test_out_of_turn_and_strangers_are_refused(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Bob clicking on Ann's turn, and Cat who is not playing, get ephemeral refusals."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    before = dict(fake.messages[board["id"]])
    answer = await fake.click(bob, board, "Roll")
    assert answer.response_type == 4 and answer.response is not None
    assert answer.response["flags"] & EPHEMERAL
    assert "It's Ann's turn" in answer.ephemeral_text
    answer = await fake.click(cat, board, "Roll")
    assert "not playing" in answer.ephemeral_text
    assert fake.messages[board["id"]] == before
    assert dice.remaining == 0  # nobody rolled


async def test_two_rolls_at_once_roll_once(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A double click on Roll: one roll happens; the other click gets an answer."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann)
    dice.extend([1, 2, 3, 4, 5, 6, 6, 6, 6, 6])
    first, second = await asyncio.gather(
        fake.click(ann, board, "Roll"), fake.click(ann, board, "Roll")
    )
    kinds = sorted([first.response_type, second.response_type])
    assert kinds == [4, 7], (first, second)
    refused = first if first.response_type == 4 else second
    assert "double click" in refused.ephemeral_text
    assert dice.remaining == 5
    assert die_labels(fake.messages[board["id"]]) == ["1", "2", "3", "4", "5"]


async def test_double_clicks_on_the_box_menu_and_on_undo_are_named_as_such(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Two picks of a box at once: one scoring; the other is told the turn is scored
    already (a double click), not that the board is from an earlier turn. Two Undo clicks
    at once: one takes the scoring back; the other is told so, not "too late"."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    first, second = await asyncio.gather(
        fake.choose(ann, board, "chance"), fake.choose(ann, board, "large_straight")
    )
    answers = sorted([first, second], key=lambda a: a.response_type)
    assert [a.response_type for a in answers] == [4, 7], answers
    assert "scored already (a double click?)" in answers[0].ephemeral_text
    summary = fake.messages[board["id"]]  # the scored turn's summary, with its Undo
    first, second = await asyncio.gather(
        fake.click(ann, summary, "Undo"), fake.click(ann, summary, "Undo")
    )
    answers = sorted([first, second], key=lambda a: a.response_type)
    assert [a.response_type for a in answers] == [4, 7], answers
    assert "taken back already (a double click?)" in answers[0].ephemeral_text


async def test_a_restart_mid_turn_keeps_the_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The bot stops in the middle of a turn; a new one on the same database plays on."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    first = await start_bot()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([6, 6, 6, 2, 3])
    await fake.click(ann, board, "Roll")
    await first.close()

    await start_bot()
    board = fake.messages[board["id"]]
    dice.extend([6, 6])
    for index in (0, 1, 2):
        await fake.click(ann, board, board["components"][0]["components"][index]["custom_id"])
    answer = await fake.click(ann, board, "Roll")
    assert answer.response_type == 7, answer.ephemeral_text
    assert die_labels(fake.messages[board["id"]]) == ["6", "6", "6", "6", "6"]
    await fake.choose(ann, board, "yahtzee")
    assert fake.last(channel)["content"].startswith(f"<@{bob['id']}>")
    assert len(fake.live_boards(channel)) == 1


async def test_a_click_on_an_old_turn_is_refused(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Buttons of a turn that is over are refused politely, with a link to the live board."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, bob)
    first_turn = copy.deepcopy(fake.last(channel))
    await play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 5]], "large_straight")
    summary = copy.deepcopy(fake.messages[first_turn["id"]])
    await play_turn(fake, dice, bob, channel, [[2, 2, 3, 3, 3]], "full_house")
    live = fake.last(channel)
    # The Undo button, still on screen for a client that has not refreshed:
    answer = await fake.click(ann, summary, "Undo", stale=True)
    assert answer.response_type == 4, answer
    assert "out of date" in answer.ephemeral_text and live["id"] in answer.ephemeral_text
    # The first turn's Roll button, from a client that still shows that turn:
    answer = await fake.click(ann, first_turn, "Roll", stale=True)
    assert "out of date" in answer.ephemeral_text and live["id"] in answer.ephemeral_text
    assert len(fake.live_boards(channel)) == 1


async def test_two_channels_and_a_busy_channel(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Two channels play side by side; a second start in a busy channel links the first."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general, games = fake.channel("general"), fake.channel("games")
    await start_bot()
    await start_game(fake, general, ann)
    await start_game(fake, games, bob)
    await play_turn(fake, dice, ann, general, [[6, 6, 6, 6, 1]], "sixes")
    await play_turn(fake, dice, bob, games, [[5, 5, 5, 1, 1]], "full_house")
    assert (
        "scored **24** in **Sixes**"
        in fake.channel_messages(general)[-2]["embeds"][0]["description"]
    )
    assert (
        "scored **25** in **Full House**"
        in fake.channel_messages(games)[-2]["embeds"][0]["description"]
    )
    answer = await fake.slash(bob, general, "yahtzee start")
    assert "already has a game in progress" in answer.ephemeral_text
    assert fake.last(general)["id"] in answer.ephemeral_text
    assert len(fake.live_boards(general)) == len(fake.live_boards(games)) == 1


async def test_a_rate_limited_post_is_waited_out(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A 429 on the next board's message and on the Undo retirement edit: the game goes on."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, bob)
    fake.rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.2)
    await play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 6]], "chance")
    await fake.settle(quiet=0.4)
    assert fake.last(channel)["content"].startswith(f"<@{bob['id']}>")
    fake.rate_limit("PATCH", r"^/channels/\d+/messages/\d+$", retry_after=0.2)
    await play_turn(fake, dice, bob, channel, [[2, 2, 2, 2, 1]], "twos")
    await fake.settle(quiet=0.4)
    assert (
        len(fake.requests_to("PATCH", r"^/channels/\d+/messages/\d+$")) == 2
    )  # 429, then the retry
    assert find_component(fake.channel_messages(channel)[-3], "Undo") is None  # retired after all
    assert len(fake.live_boards(channel)) == 1
