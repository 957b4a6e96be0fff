"""Games that never stall, through the real bot: timers, threads, the board command,
rejoin, kick and the settings menus."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.app import YahtzeeBot
from bot.engine import RandomDice, ScriptedDice
from bot.store import plans

from ..clock import FakeClock
from ..conftest import Database
from .conftest import StartBot, stop
from .fake_discord import EPHEMERAL, FakeDiscord, find_component, text_of
from .helpers import plain_dice, play_turn, start_game


async def tick(bot: YahtzeeBot, fake: FakeDiscord) -> int:
    cog = bot.get_cog("TurnTimers")
    acted = await cog.tick()  # type: ignore[union-attr]
    await fake.settle()
    return int(acted)


async def settings_menu(fake: FakeDiscord, admin: dict, channel: str) -> dict:
    answer = await fake.slash(admin, channel, "yahtzee-admin settings")
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    return answer.response


async def one_minute_turns(fake: FakeDiscord, channel: str) -> dict:
    """A moderator puts the server on a 1-minute turn limit; the settings menu, for more."""
    mod = fake.user("Mod", admin=True)
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 1, "60")
    return menu


async def test_settings_menus_then_a_timed_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """An admin sets a 1-minute limit and skip-seat; Bob is pinged, times out twice, is
    skipped, rejoins; a stranger may not open the settings."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    bot = await start_bot()
    refused = await fake.slash(bob, channel, "yahtzee-admin settings")
    assert "Manage Server" in refused.ephemeral_text
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 1, "60")
    await fake.choose_in(mod, menu, 2, "skip-seat")
    shown = {f["name"]: f["value"] for f in fake.messages[menu["id"]]["embeds"][0]["fields"]}
    assert shown["Turn time limit"] == "1 minute" and shown["When time runs out"] == "Skip seat"

    await start_game(fake, channel, ann, bob)
    await play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 5]], "large_straight")
    bobs_board = fake.last(channel)
    clock.advance(30)
    assert await tick(bot, fake) == 1
    ping = fake.last(channel)
    assert ping["content"].startswith(f"<@{bob['id']}>, half your turn's time is gone: 0:30 left")
    dice.extend([2, 3, 4, 5, 6])
    clock.advance(30)
    assert await tick(bot, fake) == 1
    summary = fake.messages[bobs_board["id"]]
    assert "Time ran out" in summary["embeds"][0]["description"]
    assert find_component(summary, "Undo") is None
    assert fake.last(channel)["content"].startswith(f"<@{ann['id']}>")
    await play_turn(fake, dice, ann, channel, [[6, 6, 6, 1, 2]], "sixes")
    bobs_board = fake.last(channel)
    dice.extend([2, 3, 4, 5, 6])
    clock.advance(60)
    await tick(bot, fake)  # Bob's second timeout in a row: away
    assert "skipped from now on" in fake.messages[bobs_board["id"]]["embeds"][0]["description"]
    board = fake.last(channel)
    assert board["content"].startswith(f"<@{ann['id']}>")
    assert "(away: /yahtzee rejoin)" in board["embeds"][0]["fields"][0]["value"]
    await play_turn(fake, dice, ann, channel, [[5, 5, 5, 1, 2]], "fives")
    assert fake.last(channel)["content"].startswith(f"<@{ann['id']}>")  # Bob is skipped
    answer = await fake.slash(bob, channel, "yahtzee rejoin")
    assert "Welcome back" in answer.ephemeral_text
    await play_turn(fake, dice, ann, channel, [[4, 4, 4, 1, 2]], "fours")
    assert fake.last(channel)["content"].startswith(f"<@{bob['id']}>")
    assert len(fake.live_boards(channel)) == 1


async def test_thread_mode_and_the_board_command(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """With threads on, the game is played in a thread from its lobby; /yahtzee board in the
    thread re-posts the board and leaves exactly one live board."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    await start_bot()
    menu = await settings_menu(fake, mod, channel)
    await fake.click(mod, menu, "Games in threads")
    assert (
        "Games in threads: on"
        in find_component(fake.messages[menu["id"]], "Games in threads")["label"]
    )  # type: ignore[index]

    await start_game(fake, channel, ann, bob)
    (thread,) = fake.threads(channel)
    assert thread["name"] == "Yahtzee: Ann, Bob"
    assert fake.live_boards(channel) == [] and len(fake.live_boards(thread["id"])) == 1
    await play_turn(fake, dice, ann, thread["id"], [[3, 3, 3, 2, 2]], "full_house")
    for _ in range(3):  # chat buries the board
        fake._create(thread["id"], {"content": "nice one"}, [])
    answer = await fake.slash(bob, thread["id"], "yahtzee board")
    assert "again" in answer.ephemeral_text
    boards = fake.live_boards(thread["id"])
    assert len(boards) == 1 and boards[0]["id"] == fake.last(thread["id"])["id"]
    await play_turn(fake, dice, bob, thread["id"], [[6, 6, 6, 6, 2]], "sixes")
    assert len(fake.live_boards(thread["id"])) == 1
    second = await fake.slash(bob, channel, "yahtzee start")  # the channel has its game already
    assert "already has a game in progress" in second.ephemeral_text


async def test_a_thread_of_long_names_is_cut_between_names(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Four players with 30-letter names: the thread's name (at most 100 characters, which
    Discord refuses beyond) lists the names that fit whole, then "…", never half a name."""
    names = [f"{first} {'x' * (29 - len(first))}" for first in ("Ann", "Bob", "Cat", "Dan")]
    players = [fake.user(name) for name in names]
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    await start_bot()
    menu = await settings_menu(fake, mod, channel)
    await fake.click(mod, menu, "Games in threads")
    await start_game(fake, channel, *players)
    (thread,) = fake.threads(channel)
    # by hand: "Yahtzee: " (9) + two names (30 + 2 + 30) + ", …" (3) = 74; a third: 106
    assert thread["name"] == f"Yahtzee: {names[0]}, {names[1]}, \N{HORIZONTAL ELLIPSIS}"
    assert len(thread["name"]) <= 100


async def test_kick_an_away_player(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """The host removes a player who timed out twice; the game goes on without them."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    bot = await start_bot()
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 1, "60")
    await fake.choose_in(mod, menu, 2, "skip-seat")
    await start_game(fake, channel, ann, bob)
    for faces in ([1, 2, 3, 4, 5], [6, 6, 6, 1, 2]):
        await play_turn(fake, dice, ann, channel, [faces], "chance" if faces[0] == 1 else "sixes")
        dice.extend([2, 3, 4, 5, 6])
        clock.advance(60)
        await tick(bot, fake)
    refused = await fake.slash(bob, channel, "yahtzee kick", player=ann)
    assert "Only the host" in refused.ephemeral_text
    kicked = await fake.slash(ann, channel, "yahtzee kick", player=bob)
    assert "was removed" in kicked.ephemeral_text
    assert "(left)" in fake.last(channel)["embeds"][0]["fields"][0]["value"]


@pytest.mark.sqlite_only
async def test_one_game_s_unexpected_error_does_not_stop_the_others_timers(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock, database: Database,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """Two timed games; the first one's saved state cannot be read (as a bug or a damaged
    row would leave it). The tick logs that game by id and still reminds the second one's
    player."""
    assert isinstance(database, Path)
    ann, bob, cy, dan = (fake.user(n) for n in ("Ann", "Bob", "Cy", "Dan"))
    first, second = fake.channel("general"), fake.add_channel("second")["id"]
    bot = await start_bot()
    await one_minute_turns(fake, first)
    await start_game(fake, first, ann, bob)
    await start_game(fake, second, cy, dan)
    broken = await bot.store.read(plans.live_game_in, int(first))
    assert broken is not None
    await stop(bot)
    db = sqlite3.connect(database)
    with db:
        db.execute("UPDATE games SET state = '{}' WHERE id = ?", (broken.id,))
    db.close()
    bot = await start_bot()
    clock.advance(30)
    with caplog.at_level(logging.ERROR):
        await tick(bot, fake)  # (or the cog's own loop, every 5 s of real time, ticks first)

        def reminded() -> bool:
            said = [m.get("content") or "" for m in fake.channel_messages(second)]
            return any(c.startswith(f"<@{cy['id']}>, half your turn's time") for c in said)

        await fake.wait_for(reminded)
    failed = [r for r in caplog.records if r.name == "cogs.turn.timers"]
    assert any(f"game {broken.id}" in r.getMessage() and r.exc_info for r in failed), failed


async def test_a_turn_that_runs_out_is_played_as_the_optimal_bot_would(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Issue 41: on a server that never opened its settings (5-minute turns) with Ann's first
    roll made for her, 6-5-1-5-5 runs out of time. It is not scratched (0 in Twos): the turn
    is played as the Optimal bot would (by hand: keep the three 5s, roll two; 5-5 is a
    Yahtzee, taken for 50), and the board says so. The settings show the new default."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    bot = await start_bot()
    await bot.analyst.wait()  # the Optimal bot's table is loaded
    await fake.slash(ann, channel, "yahtzee autoroll", setting="on")
    dice.extend([6, 5, 1, 5, 5])
    await start_game(fake, channel, ann, bob)
    board = fake.live_boards(channel)[-1]
    dice.extend([5, 5])
    clock.advance(300)
    assert await tick(bot, fake) == 1
    said = plain_dice(fake.messages[board["id"]]["embeds"][0]["description"])
    assert "Time ran out: played for **Ann** as the Optimal bot would." in said
    assert "scored **50** in **Yahtzee** with 5-5-5-5-5" in said and dice.remaining == 0
    scores = fake.last(channel)["embeds"][0]["fields"][0]["value"]
    assert fake.last(channel)["content"].startswith(f"<@{bob['id']}>") and "50" in scores
    menu = await settings_menu(fake, mod, channel)
    shown = {f["name"]: f["value"] for f in menu["embeds"][0]["fields"]}
    assert shown["When time runs out"] == "Play for them"


async def test_a_scratched_turn_is_not_said_to_be_played_for_them(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found in issue 41's play-through: on a server that chose Scratch, a timeout scores the
    box worth least (by hand: 6-5-1-5-5 is worth 0 in Twos, the first such box), and the
    board says so; it does not say the turn was "played for them", the name of the other
    choice (the Optimal bot's play), which a player then believes happened."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    bot = await start_bot()
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 2, "scratch")
    await fake.slash(ann, channel, "yahtzee autoroll", setting="on")
    dice.extend([6, 5, 1, 5, 5])
    await start_game(fake, channel, ann, bob)
    board = fake.live_boards(channel)[-1]
    clock.advance(300)
    assert await tick(bot, fake) == 1
    said = plain_dice(fake.messages[board["id"]]["embeds"][0]["description"])
    assert "scored **0** in **Twos** with 6-5-1-5-5" in said, said
    assert "played for them" not in said, said
    assert "Time ran out: the box worth least was scored." in said, said


async def test_a_game_everyone_walked_away_from_ends_without_a_result(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Found by a play-through: Ann and Bob played round 1 and went to dinner for two hours;
    the timer played every turn for them as the Optimal bot, pinged each of them for each of
    those 24 turns, and their results went on the leaderboard. Now the game ends once each
    one's last two turns ran out: the board says why and how to start again, nobody is
    pinged after, and nothing is recorded. The timer ticks as in production: every turn
    has its half-time reminder, then runs out."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    dice.fallback = RandomDice(random.Random(4))  # the turns played for them
    await start_game(fake, channel, ann, bob)  # 5-minute turns, played for them: the defaults
    await play_turn(fake, dice, ann, channel, [[2, 2, 3, 4, 6]], "twos")
    await play_turn(fake, dice, bob, channel, [[5, 5, 3, 4, 6]], "fives")
    game = await bot.store.read(plans.live_game_in, int(channel))
    assert game is not None
    seen = len(fake.pings)  # Ann was pinged for her round-2 board
    for _ in range(2 * 24):  # two hours: half a turn's time at each step
        clock.advance(151)
        await tick(bot, fake)
    pinged = [user for _, _, user in fake.pings[seen:]]
    # by hand: Ann reminded, times out (1); Bob's board and reminder, times out (1); Ann's
    # board and reminder, times out (2); Bob's board and reminder, times out (2): over
    assert pinged == [ann["id"], bob["id"], bob["id"], ann["id"], ann["id"], bob["id"], bob["id"]]
    ended = await bot.store.read(plans.get_game, game.id)
    assert ended is not None and ended.status == "abandoned"
    assert await bot.store.read(plans.results, game.id) == []
    assert fake.live_boards(channel) == []
    said = text_of(fake.last(channel))
    assert "Everyone is away: each player's last two turns ran out of time" in said, said
    assert "ended without a result" in said and "/yahtzee start" in said
    stats = await fake.slash(ann, channel, "yahtzee stats")
    assert "no finished game" in stats.ephemeral_text or "no finished game" in text_of(
        stats.response or {}
    ), stats.ephemeral_text
