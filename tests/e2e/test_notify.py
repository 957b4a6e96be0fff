"""/yahtzee notify (issue 30): a DM when a turn of yours in a timed game has waited a minute
without a move of yours; at most one a turn, none while you play; closed DMs turn it off."""

from __future__ import annotations

from bot.engine import ScriptedDice

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import play_turn, start_game
from .test_timers import settings_menu, tick


async def three_minute_turns(fake: FakeDiscord, channel: str) -> None:
    mod = fake.user("Mod", admin=True)
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 1, "180")


async def test_a_waiting_turn_is_told_once_in_a_dm_and_never_to_an_active_player(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Ann asks for notices; her turn waits 61 s: one DM with the board's link, not two.
    Bob, who did not ask, gets none. On her next turn Ann rolls at once: no DM."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot = await start_bot()
    await three_minute_turns(fake, channel)
    asked = await fake.slash(ann, channel, "yahtzee notify")
    assert "Turn notices are **off**" in asked.ephemeral_text
    asked = await fake.slash(ann, channel, "yahtzee notify", setting="on")
    assert "Turn notices are **on**" in asked.ephemeral_text
    board = await start_game(fake, channel, ann, bob)
    clock.advance(50)
    await tick(bot, fake)
    assert fake.dms.get(ann["id"], []) == []  # 50 s: not yet
    clock.advance(11)
    await tick(bot, fake)
    told = fake.dms[ann["id"]]
    assert len(told) == 1
    assert "your turn in Yahtzee: 1:59 left" in told[0]["content"]  # 180 s less 61
    assert f"/{channel}/{board['id']}" in told[0]["content"]
    clock.advance(20)
    await tick(bot, fake)
    assert len(fake.dms[ann["id"]]) == 1  # one a turn
    await play_turn(fake, dice, ann, channel, [[1, 2, 3, 4, 5]], "large_straight")
    clock.advance(61)
    await tick(bot, fake)
    assert bob["id"] not in fake.dms  # he did not ask
    await play_turn(fake, dice, bob, channel, [[2, 2, 2, 3, 3]], "full_house")
    dice.extend([6, 6, 6, 1, 2])
    rolled = await fake.click(ann, fake.last(channel), "Roll")  # at once: she is playing
    assert rolled.response_type == 7, rolled.ephemeral_text
    clock.advance(61)
    await tick(bot, fake)
    assert len(fake.dms[ann["id"]]) == 1


async def test_closed_dms_turn_the_notices_off_with_a_note(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """Ann asked for notices but allows no DMs: her first notice fails, notices go off for
    her, and the channel is told so by name, without pinging her."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    await three_minute_turns(fake, channel)
    await fake.slash(ann, channel, "yahtzee notify", setting="on")
    fake.closed_dms.add(ann["id"])
    await start_game(fake, channel, ann)
    clock.advance(61)
    await tick(bot, fake)
    note = fake.last(channel)
    assert "could not send **Ann** a private turn notice" in note["content"], note["content"]
    assert note["mentions"] == []
    asked = await fake.slash(ann, channel, "yahtzee notify")
    assert "Turn notices are **off**" in asked.ephemeral_text


async def test_a_turn_started_rolled_is_still_told_and_the_dm_stands_in_for_the_reminder(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Ann's turns start rolled (/yahtzee autoroll on) and she asked for notices: the roll
    made for her is not a move of hers, so her waiting turn is told. On 1-minute turns the
    notice and the half-time reminder fall due together: she gets the DM alone, not a
    channel ping on top of it."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot = await start_bot()
    mod = fake.user("Mod", admin=True)
    menu = await settings_menu(fake, mod, channel)
    await fake.choose_in(mod, menu, 1, "60")
    await fake.slash(ann, channel, "yahtzee notify", setting="on")
    await fake.slash(ann, channel, "yahtzee autoroll", setting="on")
    dice.extend([3, 3, 4, 5, 6])
    board = await start_game(fake, channel, ann)
    assert "roll 1 of 3" in fake.messages[board["id"]]["embeds"][0]["description"]
    pings = len(fake.pings)
    clock.advance(31)
    await tick(bot, fake)
    clock.advance(5)
    await tick(bot, fake)
    assert len(fake.dms.get(ann["id"], [])) == 1
    assert "0:29 left" in fake.dms[ann["id"]][0]["content"]
    assert len(fake.pings) == pings  # no "half your turn's time is gone" in the channel


async def test_the_notice_speaks_the_players_own_language(
    fake: FakeDiscord, start_bot: StartBot, clock: FakeClock
) -> None:
    """Ann's client is French, the server English: her turn notice is in French (the
    language of the client she turned notices on from); the channel's words stay English."""
    ann = fake.user("Ann", locale="fr")
    channel = fake.channel("general")
    bot = await start_bot()
    await three_minute_turns(fake, channel)
    await fake.slash(ann, channel, "yahtzee notify", setting="on")
    await start_game(fake, channel, ann)
    clock.advance(61)
    await tick(bot, fake)
    (told,) = fake.dms[ann["id"]]
    assert "C'est ton tour" in told["content"], told["content"]
    assert "It's your turn" not in told["content"]
