"""No game stalls and nobody is pestered: the combinations players met (issue 26), each
played through the real bot on the fake Discord."""

from __future__ import annotations

import copy
import random

from bot.app import YahtzeeBot
from bot.engine import Category, RandomDice, ScriptedDice
from bot.store import GameStatus, plans
from cogs.shared.computers import NoComputers

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import FakeDiscord, controls_of, find_component, text_of
from .helpers import live_board, open_lobby, play_turn, seated, start_game


def _seated(fake: FakeDiscord, lobby: dict) -> str:
    return seated(fake.messages[lobby["id"]])


def _game_id(lobby: dict) -> int:
    return int(controls_of(lobby)[0]["custom_id"].split(":")[-1])


def _pings(fake: FakeDiscord, user: dict) -> int:
    return sum(1 for _, _, uid in fake.pings if uid == user["id"])


async def test_two_computer_seats_in_a_row_play_on(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann, the Optimal bot and a Casual bot: after Ann scores, both computers play their
    turns one after the other and the turn comes back to Ann, with no clock moving."""
    dice.fallback = RandomDice(random.Random(3))
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(ann, lobby, "Add bot (Optimal)")
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Start")
    for box in ("chance", "ones", "twos"):
        await live_board(fake, channel)
        await fake.wait_for(lambda: fake.last(channel)["content"] == f"<@{ann['id']}>, your turn!")
        await play_turn(fake, dice, ann, channel, [[6, 5, 4, 3, 1]], box, expect_next=False)
    await fake.wait_for(lambda: fake.last(channel)["content"] == f"<@{ann['id']}>, your turn!")
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None
    moves = [(user, action) for _, user, action, _, _ in await bot.store.read(plans.moves, row.id)]
    assert moves.count((None, "bot-score")) == 6  # both computers, three turns each
    assert moves.count((int(ann["id"]), "score")) == 3
    said = " ".join(str(m["embeds"]) for m in fake.channel_messages(channel))
    assert said.count("Casual bot") >= 3 and said.count("Optimal bot") >= 3
    assert _pings(fake, ann) == 4  # her four turns, once each; nobody reminds a computer


async def test_a_computer_turn_that_stalled_is_started_again_by_the_timer(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock
) -> None:
    """A computer's turn has a watchdog instead of a deadline: no reminder, no scratch; if
    its run died, the timer starts it again once the watchdog is due."""
    dice.fallback = RandomDice(random.Random(4))
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    cog = bot.get_cog("TurnTimers")
    assert cog is not None
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Start")
    await live_board(fake, channel)
    cog.publisher.computers = NoComputers()  # its run "dies" before it starts
    await play_turn(fake, dice, ann, channel, [[6, 5, 4, 3, 1]], "chance")
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None and row.deadline_at is None and row.ping_at is not None
    clock.advance(30)
    assert await cog.tick() == 0  # not due yet
    cog.publisher.computers = cog.computers  # runs can start again
    clock.advance(31)
    assert await cog.tick() == 1
    await fake.wait_for(lambda: fake.last(channel)["content"] == f"<@{ann['id']}>, your turn!")
    assert not any("half your turn" in m["content"] for m in fake.channel_messages(channel))
    moves = [action for _, _, action, _, _ in await bot.store.read(plans.moves, row.id)]
    assert "timeout" not in moves and moves.count("bot-score") == 1


async def test_the_last_person_out_ends_a_game_with_computers(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Bob, then Ann, leave a game with a computer seat: the game ends without a result,
    the board says so, and the channel is free for a new game."""
    dice.fallback = RandomDice(random.Random(5))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    game_id = _game_id(lobby)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, lobby, "Add bot (Optimal)")
    await fake.click(ann, lobby, "Start")
    await live_board(fake, channel)
    await fake.slash(bob, channel, "yahtzee leave")
    assert await bot.store.read(plans.live_game_in, int(channel)) is not None  # Ann plays on
    await fake.slash(ann, channel, "yahtzee leave")
    row = await bot.store.read(plans.get_game, game_id)
    assert row is not None and row.status == GameStatus.ABANDONED, row
    assert await bot.store.read(plans.results, row.id) == []
    assert fake.live_boards(channel) == []
    assert "No person is left playing" in str(fake.last(channel)["embeds"])
    await open_lobby(fake, channel, bob)  # the channel is free again (Ann, who opened the
    # last lobby, is asked to wait a few seconds before she opens another: the posts' pace)


async def test_everyone_away_but_a_computer_ends_the_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock
) -> None:
    """Under skip seat, Ann times out twice and is marked away: the computer does not play
    on alone; the game ends without a result."""
    dice.fallback = RandomDice(random.Random(6))
    ann, eve = fake.user("Ann"), fake.user("Eve", admin=True)
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    cog = bot.get_cog("TurnTimers")
    assert cog is not None
    await bot.games.servers.change_settings(int(fake.guild_of(channel)), int(eve["id"]), True,
                                    timeout_policy="skip-seat", turn_seconds=60)  # fmt: skip
    lobby = await open_lobby(fake, channel, ann)
    game_id = _game_id(lobby)
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Start")
    for _ in range(2):
        await fake.wait_for(lambda: fake.last(channel)["content"] == f"<@{ann['id']}>, your turn!")
        clock.advance(61)
        await cog.tick()
        await fake.settle()
    row = await bot.store.read(plans.get_game, game_id)
    assert row is not None and row.status == GameStatus.ABANDONED
    assert fake.live_boards(channel) == []
    said = str(fake.last(channel)["embeds"])
    assert "Everyone is away: each player's last two turns ran out of time" in said, said


async def test_the_host_role_passes_to_a_person_never_to_a_computer(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """A host who leaves hands the lobby to the next person; with only computers left the
    lobby closes and the channel is free."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(ann, lobby, "Add bot (Optimal)")
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, lobby, "Leave")
    assert "**Bob** (host)" in _seated(fake, lobby)
    started = await fake.click(bob, lobby, "Start")
    assert started.response_type == 7, started.ephemeral_text
    await fake.slash(bob, channel, "yahtzee end")

    other = fake.channel("games")
    lobby = await open_lobby(fake, other, ann)
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Leave")
    assert "closed" in text_of(fake.messages[lobby["id"]])
    assert controls_of(fake.messages[lobby["id"]]) == []
    await open_lobby(fake, other, bob)


async def test_the_host_removes_a_computer_seat(fake: FakeDiscord, start_bot: StartBot) -> None:
    """Remove takes the bot seated last out again; only the host may; bots are numbered
    by kind (the first Optimal bot after two Casual ones is plain "Optimal bot")."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    assert find_component(lobby, "Remove") is None
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Add bot (Casual)")
    await fake.click(ann, lobby, "Add bot (Optimal)")
    seated = _seated(fake, lobby)
    assert "**Casual bot**" in seated and "**Casual bot 2**" in seated
    assert "**Optimal bot**" in seated and "Optimal bot 3" not in seated
    await fake.click(bob, lobby, "Join")
    refused = await fake.click(bob, lobby, "Remove")
    assert "Only the host" in refused.ephemeral_text
    assert find_component(fake.messages[lobby["id"]], "Remove")["label"] == "Remove Optimal bot"  # type: ignore[index]
    removed = await fake.click(ann, lobby, "Remove")
    assert removed.response_type == 7, removed.ephemeral_text
    assert "Optimal bot" not in _seated(fake, lobby)
    await fake.click(ann, lobby, "Add bot (Optimal)")  # a new id: no clash with the others
    await fake.click(ann, lobby, "Remove")
    await fake.click(ann, lobby, "Remove")
    await fake.click(ann, lobby, "Remove")
    assert "bot" not in _seated(fake, lobby)
    assert find_component(fake.messages[lobby["id"]], "Remove") is None


async def _finish_two_player_game(
    fake: FakeDiscord, dice: ScriptedDice, channel: str, ann: dict, bob: dict
) -> dict:
    await start_game(fake, channel, ann, bob)
    for box in Category:
        for player in (ann, bob):
            await play_turn(fake, dice, player, channel, [[1, 2, 3, 4, 6]], box.value)
    await fake.wait_for(lambda: "## Game over" in text_of(fake.last(channel)))
    return fake.last(channel)


async def test_play_again_is_for_the_players_and_pings_them_once(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Carol, who did not play, is refused politely and pings nobody; Ann's rematch pings
    Bob once, and a second rematch after a Cancel invites him without a notification."""
    ann, bob, carol = fake.user("Ann"), fake.user("Bob"), fake.user("Carol")
    channel = fake.channel("general")
    await start_bot()
    final = await _finish_two_player_game(fake, dice, channel, ann, bob)
    before = len(fake.pings)
    for _ in range(3):
        refused = await fake.click(carol, final, "Play again")
        assert "Only the players of this game" in refused.ephemeral_text
    assert len(fake.pings) == before
    await fake.click(ann, final, "Play again")
    invitation, lobby = fake.channel_messages(channel)[-2:]
    assert invitation["mentions"] == [{"id": bob["id"]}]
    await fake.click(ann, lobby, "Cancel")
    clock.advance(11)  # a member's rematches in one game are 10 s apart
    await fake.click(ann, final, "Play again")
    second, lobby_again = fake.channel_messages(channel)[-2:]
    assert second["id"] != invitation["id"] and "rematch" in second["content"]
    assert second["mentions"] == [] and find_component(lobby_again, "Join") is not None
    assert len(fake.pings) == before + 1


async def test_leaving_out_of_turn_edits_the_board_and_pings_nobody(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Bob leaves during Ann's turn: the same board shows the change, no new post, no ping.
    Then Ann leaves on her own turn: her board says she left, Cat's turn is posted."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(bob, lobby, "Join")
    await fake.click(cat, lobby, "Join")
    await fake.click(ann, lobby, "Start")
    board = await live_board(fake, channel)
    posts, pings = len(fake.channel_messages(channel)), len(fake.pings)
    await fake.slash(bob, channel, "yahtzee leave")
    assert len(fake.channel_messages(channel)) == posts and len(fake.pings) == pings
    assert find_component(fake.messages[board["id"]], "Roll") is not None
    assert fake.live_boards(channel) == [fake.messages[board["id"]]]
    await fake.slash(ann, channel, "yahtzee leave")
    old = fake.messages[board["id"]]
    assert old["content"] == "" and "**Ann** left the game" in old["embeds"][0]["description"]
    assert find_component(old, "Roll") is None
    new = await live_board(fake, channel)
    assert new["content"] == f"<@{cat['id']}>, your turn!"
    assert new["mentions"] == [{"id": cat["id"]}]


async def test_an_undo_pings_the_next_player_once_and_leaves_nothing_untrue(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann scores, Bob's turn is posted (one ping), Ann undoes: Bob's message loses its
    controls and says it waits; Ann scores again: that same message becomes Bob's board,
    with no second notification, and no "taken back" note is left in the channel."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, lobby, "Start")
    scored = await play_turn(fake, dice, ann, channel, [[1, 1, 2, 3, 4]], "chance")
    bobs = fake.last(channel)
    assert bobs["mentions"] == [{"id": bob["id"]}]
    summary = fake.messages[scored.original_message_id or ""]
    undone = await fake.click(ann, summary, "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    waiting = fake.messages[bobs["id"]]
    assert waiting["content"] == "" and find_component(waiting, "Roll") is None
    assert "taken back" in waiting["embeds"][0]["title"]
    assert fake.live_boards(channel) == [fake.messages[summary["id"]]]
    await fake.choose(ann, fake.messages[summary["id"]], "ones")
    await fake.wait_for(lambda: find_component(fake.messages[bobs["id"]], "Roll") is not None)
    again = fake.messages[bobs["id"]]
    assert again["content"] == f"<@{bob['id']}>, your turn!"
    assert fake.last(channel)["id"] == bobs["id"]
    assert _pings(fake, bob) == 1
    assert not any("taken back" in str(m["embeds"]) for m in fake.channel_messages(channel))
    await play_turn(fake, dice, bob, channel, [[2, 2, 2, 3, 4]], "twos")
    assert _pings(fake, ann) == 2  # her first turn and her second


async def test_an_undo_then_board_again_pings_nobody_twice_and_the_waiting_board_says_why(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann scores (Bob pinged), undoes, and someone brings the board down with /yahtzee
    board: Ann's board of the same turn is posted again without a ping; when she scores
    anew Bob's turn is posted again without one. A click on Bob's waiting board (a client
    that still shows its buttons) says the scoring was taken back, not "out of date"."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(bob, lobby, "Join")
    await fake.click(ann, lobby, "Start")
    scored = await play_turn(fake, dice, ann, channel, [[1, 1, 2, 3, 4]], "chance")
    bobs = copy.deepcopy(fake.last(channel))  # as Bob's client shows it
    summary = fake.messages[scored.original_message_id or ""]
    undone = await fake.click(ann, summary, "Undo")
    assert undone.response_type == 7, undone.ephemeral_text
    waiting = await fake.click(bob, bobs, "Roll", stale=True)
    assert "taken back (Undo)" in waiting.ephemeral_text, waiting.ephemeral_text
    await fake.slash(bob, channel, "yahtzee board")
    await fake.wait_for(lambda: fake.live_boards(channel)[-1:] != [fake.messages[summary["id"]]])
    again = fake.live_boards(channel)[-1]
    await fake.choose(ann, again, "ones")
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{bob['id']}>"))
    assert (_pings(fake, ann), _pings(fake, bob)) == (1, 1)


async def test_words_after_a_solo_game_say_what_happened(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """After Ann's solo game: its title says she scored (nobody was beaten); the Wins board
    says why nobody is on it; Carol's stats say that Carol has no game (not the server)."""
    ann, carol = fake.user("Ann"), fake.user("Carol")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    await fake.click(ann, lobby, "Start")
    for box in Category:
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value)
    final = text_of(fake.last(channel))
    assert final.startswith("## Game over: Ann scored 110!")  # by hand, as in test_commands
    assert final.endswith("Play again opens a lobby for the same players")
    wins = await fake.slash(ann, channel, "yahtzee leaderboard", board="wins")
    described = text_of(wins.response)  # type: ignore[arg-type]
    assert "Nobody has won a game against another seat yet" in described
    assert "solo game" in described
    stats = await fake.slash(ann, channel, "yahtzee stats", player=carol)
    assert "\nCarol has no finished game on this server yet" in text_of(stats.response)  # type: ignore[arg-type]
