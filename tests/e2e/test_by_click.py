"""Friends who did not add the app (issue 43). In a group DM Discord offers ``/yahtzee`` only
to those who added the app; everyone else plays by clicks alone. So everything a player
needs during a game is a click away there (the lobby's Rules; under the private scorecard
the Scorecard button answers with: the rules, the board again, Leave, Rejoin), no message
sends anyone to a command as the only way, and a game that ended while nobody could see it
shows its end at the next click on any of its messages."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.engine import Category, RandomDice, ScriptedDice

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import EPHEMERAL, FakeDiscord, Interaction, NotOffered, find_component, text_of
from .helpers import live_board, play_turn
from .test_places import final_card, forbidden_tries, group_game
from .test_timers import tick


def said(message: dict[str, Any]) -> str:
    """Everything a message says to its reader: its text (``text_of``), its embeds' footers,
    its buttons' labels and its menus' placeholders and choices."""
    out = [text_of(message)]
    out += [(e.get("footer") or {}).get("text") or "" for e in message.get("embeds") or []]

    def walk(components: list[dict[str, Any]]) -> None:
        for c in components:
            out.extend(str(c.get(key) or "") for key in ("label", "placeholder"))
            out.extend(f"{o.get('label')} {o.get('description') or ''}" for o in
                       c.get("options") or [])  # fmt: skip
            walk(c.get("components") or [])

    walk(message.get("components") or [])
    return "\n".join(part for part in out if part)


class Shown:
    """Every state of every message the bot made or edited in a channel (ephemeral answers
    too), as its readers saw it: recorded as the fake creates and edits them."""

    def __init__(self, fake: FakeDiscord, channel: str) -> None:
        self.texts: list[str] = []
        create, edit = fake._create, fake._edit

        def created(channel_id: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
            message = create(channel_id, *args, **kwargs)
            if channel_id == channel:
                self.texts.append(said(message))
            return message

        def edited(message_id: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
            message = edit(message_id, *args, **kwargs)
            if message.get("channel_id") == channel:
                self.texts.append(said(message))
            return message

        fake._create = created  # type: ignore[method-assign]
        fake._edit = edited  # type: ignore[method-assign]

    def commands_only(self) -> list[str]:
        """Each sentence shown that names a /yahtzee command without saying it is for those
        who added the app (the others cannot type it here)."""
        return [s for text in self.texts for s in commands_only(text)]


def commands_only(text: str) -> list[str]:
    """The sentences of ``text`` (or parts between "·") that name a /yahtzee command
    without saying it is for those who added the app."""
    sentences = re.split(r"(?<=[.!?:;])\s+|\n|\u00b7", text)
    return [s for s in sentences if "/yahtzee" in s and "added the app" not in s]


def test_the_check_finds_what_a_server_says() -> None:
    """What the checks below look for, found in a server's words (its board's footer, the
    end of a game), and not in the words for those who added the app."""
    assert commands_only("Official rules · /yahtzee rules · /yahtzee scorecard") == [
        " /yahtzee rules ",
        " /yahtzee scorecard",
    ]
    assert commands_only("**Ann** ended the game. Start a new one with /yahtzee start.") == [
        "Start a new one with /yahtzee start."
    ]
    assert commands_only("Anyone who added the app can start one with /yahtzee start.") == []


def private(answer: Interaction) -> dict[str, Any]:
    """The private message an interaction answered with (a new one, or the one it edited)."""
    assert answer.error is None and answer.response is not None, answer.error
    assert answer.response.get("flags", 0) & EPHEMERAL, answer.response
    return answer.response


async def test_a_friend_without_the_app_reads_the_rules_brings_the_board_back_and_leaves(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann added the app; Bob and Cat, in her group DM, did not: /yahtzee is not offered to
    them. Bob reads the rules from the lobby's Rules, joins, plays; under his private
    scorecard he finds the rules, the board (brought to the bottom, the old one retired),
    and Leave, which asks first, then takes him out: Ann is named on a new board and plays
    the game out alone. Play again on the final card, refused to Cat (no seat) and Bob (left),
    says the clicks. No message or answer in the whole game names a command without saying
    it is for those who added the app, and nothing forbidden is tried."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    fake.install(ann)
    channel = fake.group_dm(ann, bob, cat, name="Dice night")
    shown = Shown(fake, channel)
    await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    for command in ("yahtzee leave", "yahtzee rules", "yahtzee board"):
        with pytest.raises(NotOffered):  # the play-through's finding: Bob cannot type them
            await fake.slash(bob, channel, command)
    rules = private(await fake.click(bob, lobby, "Rules"))
    assert "Yahtzee rules" in said(rules) and "Upper boxes" in said(rules), said(rules)
    assert "Official rules" in said(lobby) and "/yahtzee" not in said(lobby), said(lobby)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "large_straight")
    board = await live_board(fake, channel)
    assert board["content"].startswith(f"<@{bob['id']}>")
    footer = board["embeds"][0]["footer"]["text"]
    assert "Scorecard: rules, board, leave" in footer, footer
    card = private(await fake.click(bob, board, "Scorecard"))
    labels = [c.get("label") for c in card["components"][-1]["components"]]
    assert labels == ["Rules", "Board", "Leave"], labels  # one row; Bob is in: no Rejoin
    assert "Upper boxes" in said(private(await fake.click(bob, card, "Rules")))
    await play_turn(fake, dice, bob, channel, [[1, 1, 1, 1, 1]], "yahtzee")

    # Ann's board has gone up the chat: Bob brings it back to the bottom, by clicks
    ann_board = await live_board(fake, channel)
    card = private(await fake.click(bob, ann_board, "Scorecard"))
    back = await fake.click(bob, card, "Board")
    assert "Here it is again, at the bottom." in back.ephemeral_text, back.ephemeral_text
    again = await live_board(fake, channel)
    assert again["id"] != ann_board["id"] and fake.last(channel)["id"] == again["id"]
    assert again["content"].startswith(f"<@{ann['id']}>")
    assert fake.live_boards(channel) == [again]  # the old one no longer looks live
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "small_straight")

    # Bob's second turn: he leaves, by clicks, confirming first
    bob_board = await live_board(fake, channel)
    card = private(await fake.click(bob, bob_board, "Scorecard"))
    asked = await fake.click(bob, card, "Leave")
    assert asked.response_type == 7, asked.ephemeral_text  # the card becomes the question
    question = fake.messages[card["id"]]
    assert "Leave this game?" in question["content"], question["content"]
    assert find_component(question, "Roll") is None and fake.live_boards(channel)
    left = await fake.click(bob, question, "Leave the game")
    assert left.response_type == 7, left.ephemeral_text
    assert fake.messages[card["id"]]["content"] == "You left the game."
    assert "left the game" in text_of(fake.messages[bob_board["id"]])  # his board says so
    ann_board = await live_board(fake, channel)
    assert ann_board["content"].startswith(f"<@{ann['id']}>")
    assert (channel, ann_board["id"], ann["id"]) in fake.pings  # a new message: notified
    # Ann alone, 2-3-4-5-6 in every box left (by hand: Large 40, Small 30, upper 2+3+4+5+6
    # = 20, Chance 20, the rest 0: 110)
    for box in Category:
        if box not in (Category.LARGE_STRAIGHT, Category.SMALL_STRAIGHT):
            await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value,
                            expect_next=box is not Category.CHANCE)  # fmt: skip
    await fake.wait_for(lambda: any(find_component(m, "Play again") for m in
                                    fake.channel_messages(channel)))  # fmt: skip
    final = final_card(fake, channel)
    assert "Ann wins with 110" in text_of(final) and "left: **Bob**: 50" in text_of(final)
    stranger = await fake.click(cat, final, "Play again")
    assert "join it with a click" in stranger.ephemeral_text, stranger.ephemeral_text
    leaver = await fake.click(bob, final, "Play again")
    assert "Join it with a click" in leaver.ephemeral_text, leaver.ephemeral_text

    assert shown.texts and shown.commands_only() == []
    assert forbidden_tries(fake, channel) == []


async def test_a_game_everyone_left_unseen_shows_its_end_at_the_next_click(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Nobody clicks in a group-DM game for an hour: the timer plays two turns of each,
    everyone is away, the game ends, and no token may show any of it; its board still looks
    live. Bob's next click on it (Roll) shows the end plainly on that board: why, and Play
    again, which he (without the app) uses to open a new lobby that Ann joins."""
    dice.fallback = RandomDice(random.Random(43))
    bot, channel, ann, bob, board = await group_game(fake, start_bot)
    clock.advance(20 * 60)  # every token too old by now
    fake.advance(20 * 60)
    for _ in range(4):  # Ann's, Bob's, Ann's and Bob's turns run out: everyone is away
        assert await tick(bot, fake) == 1
        clock.advance(6 * 60)
        fake.advance(6 * 60)
    assert fake.live_boards(channel) == [fake.messages[board["id"]]]  # as it was
    clicked = await fake.click(bob, fake.messages[board["id"]], "Roll")
    assert clicked.response_type == 7, clicked.ephemeral_text
    ended = fake.messages[board["id"]]
    assert fake.live_boards(channel) == []
    assert "Everyone is away" in text_of(ended), text_of(ended)
    assert "Play again opens a lobby for the same players." in text_of(ended)
    rematch = await fake.click(bob, ended, "Play again")
    assert rematch.error is None and rematch.response is not None, rematch.ephemeral_text
    lobby = fake.last(channel)
    joined = await fake.click(ann, lobby, "Join")
    assert joined.response_type == 7, joined.ephemeral_text
    assert forbidden_tries(fake, channel) == []


async def test_a_lobby_that_closed_unseen_says_so_at_the_next_click(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """A group-DM lobby nobody started closes on its timer while nobody clicks (no token
    may show it): Bob's Join on it then shows the lobby closed, and why, on the lobby."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.group_dm(ann, bob)
    bot = await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    clock.advance(60 * 60)
    fake.advance(60 * 60)
    assert await tick(bot, fake) == 1
    assert find_component(fake.messages[lobby["id"]], "Join") is not None  # as it was
    clicked = await fake.click(bob, fake.messages[lobby["id"]], "Join")
    assert clicked.response_type == 7, clicked.ephemeral_text
    closed = fake.messages[lobby["id"]]
    assert find_component(closed, "Join") is None
    assert "Nobody started this lobby in time" in text_of(closed), text_of(closed)


async def test_a_friend_away_comes_back_by_a_click(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """A server that once added the bot chose "skip the seat" for turns that run out, then
    removed it; Ann, who added the app, plays there with Bob, who did not. Bob's turn runs
    out twice in a row: he is skipped, and the summary and the board say how he comes back
    (Rejoin, under his Scorecard). He clicks it: welcome back, and the board no longer
    marks him away."""
    dice.fallback = RandomDice(random.Random(7))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    fake.install(ann)
    channel = fake.user_install_guild()
    bot = await start_bot()
    guild = int(fake.guild_of(channel))
    await bot.games.servers.change_settings(guild, 1, True, timeout_policy="skip-seat")
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    for box in ("chance", "sixes"):  # Ann plays; Bob's turn runs out, twice
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box)
        clock.advance(301)
        fake.advance(301)
        assert await tick(bot, fake) == 1
    summaries = [text_of(m) for m in fake.channel_messages(channel)]
    assert any("Rejoin, under their Scorecard, brings them back." in t for t in summaries)
    board = await live_board(fake, channel)
    assert board["content"].startswith(f"<@{ann['id']}>")
    assert "(away: Scorecard, then Rejoin)" in text_of(board), text_of(board)
    card = private(await fake.click(bob, board, "Scorecard"))
    labels = [c.get("label") for c in card["components"][-1]["components"]]
    assert labels == ["Rules", "Board", "Rejoin", "Leave"], labels
    back = await fake.click(bob, card, "Rejoin")
    assert back.response_type == 7, back.ephemeral_text
    assert "Welcome back" in fake.messages[card["id"]]["content"]
    shown = text_of(fake.messages[board["id"]])
    assert "away" not in shown and "Bob" in shown, shown
    assert forbidden_tries(fake, channel) == []


@pytest.mark.parametrize("where", ["group_dm", "server"])
async def test_a_game_its_host_ended_says_how_the_next_one_starts_there(
    fake: FakeDiscord, start_bot: StartBot, where: str
) -> None:
    """Ann ends the game (/yahtzee end, confirmed). On a server its board says so and how a
    new one starts (the command everyone there has); in a group DM it offers Play again
    instead, which Bob, without the app, uses: a lobby he hosts, that Ann joins."""
    ann, bob = fake.user("Ann", admin=True), fake.user("Bob")
    fake.install(ann)
    channel = fake.group_dm(ann, bob) if where == "group_dm" else fake.channel("general")
    await start_bot()
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, fake.messages[lobby["id"]], "Start")
    board = await live_board(fake, channel)
    asked = private(await fake.slash(ann, channel, "yahtzee end"))
    ended = await fake.click(ann, asked, "End the game")
    assert ended.response_type == 7, ended.ephemeral_text
    shown = fake.messages[board["id"]]
    said_there = text_of(shown)
    assert "**Ann** ended the game." in said_there, said_there  # by name, as everywhere
    assert f"<@{ann['id']}>" not in said_there
    if where == "server":
        assert "Start a new one with /yahtzee start." in said_there
        assert find_component(shown, "Play again") is None
        return
    assert "Play again opens a lobby for the same players." in said_there, said_there
    assert "/yahtzee" not in said_there
    rematch = await fake.click(bob, shown, "Play again")
    assert rematch.error is None and rematch.response is not None, rematch.ephemeral_text
    joined = await fake.click(ann, fake.last(channel), "Join")
    assert joined.response_type == 7, joined.ephemeral_text
    assert forbidden_tries(fake, channel) == []
