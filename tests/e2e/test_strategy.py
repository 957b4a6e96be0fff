"""Playing against a computer opponent, and hints, through the real bot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import bot.strategy.builds as builds_module
from bot.app import YahtzeeBot
from bot.engine import Category, RandomDice, ScriptedDice
from bot.store import plans
from bot.strategy import Table
from bot.strategy.table_file import distributions_path, save, table_path

from ..clock import FakeClock
from .conftest import StartBot
from .fake_discord import EPHEMERAL, IS_COMPONENTS_V2, FakeDiscord, find_component, text_of
from .helpers import die_labels, live_board, open_lobby, play_turn, seated, start_game


async def test_a_game_against_the_optimal_bot_with_a_hint(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann adds the optimal bot, asks for a hint, and plays 13 rounds against it; the bot
    plays its own turns, and only Ann's result is recorded."""
    dice.fallback = RandomDice(random.Random(5))  # the bot rolls whatever comes
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    lobby = await open_lobby(fake, channel, ann, computers=["Optimal"])
    assert "\N{ROBOT FACE} **Optimal bot**" in seated(fake.messages[lobby["id"]])
    await fake.click(ann, lobby, "Start")

    board = await live_board(fake, channel)
    dice.extend([3, 3, 3, 5, 6])
    await fake.click(ann, board, "Roll")
    hint = await fake.click(ann, board, "Hint")
    lines = hint.ephemeral_text.splitlines()
    assert lines[0].startswith("Best choices for 3-3-3-5-6 (roll 1 of 3)")
    assert lines[1].startswith("1. Keep 3-3-3 and roll two: **")
    assert len(lines) == 4
    await fake.choose(ann, board, "threes")

    for box in [c for c in Category if c is not Category.THREES]:
        await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value)
    await fake.wait_for(lambda: "## Game over" in text_of(fake.last(channel)))
    final = fake.last(channel)
    assert "\N{ROBOT FACE} **Optimal bot**" in text_of(final)
    game_id = int(find_component(final, "Play again")["custom_id"].split(":")[-1])  # type: ignore[index]
    results = await bot.store.read(plans.results, game_id)
    assert [r.user_id for r in results] == [int(ann["id"])]  # bots never count
    moves = [m[2] for m in await bot.store.read(plans.moves, game_id)]
    assert moves.count("bot-score") == 13
    analysis = await fake.click(ann, final, "Analysis")
    first, second = analysis.ephemeral_text.splitlines()[:2]
    assert "decisions** (" in first and first.endswith("optimal play would have done.")
    assert second.startswith("Points left on the table: **")
    assert "Your costliest decisions:\n- Round " in analysis.ephemeral_text
    assert results[0].expected_loss is not None and results[0].expected_loss > 0
    stats = await fake.slash(ann, channel, "yahtzee stats")
    assert (
        f"**Points left on the table**: {results[0].expected_loss:.1f} a game on average, "
        "against optimal play"
    ) in text_of(stats.response)  # type: ignore[arg-type]
    outsider = await fake.click(fake.user("Zed"), final, "Analysis")
    assert "did not play" in outsider.ephemeral_text


async def test_hints_refused_politely(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, clock: FakeClock
) -> None:
    """Out of turn, before rolling, when the host switched hints off: each says why."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    assert "Roll first" in (await fake.click(ann, board, "Hint")).ephemeral_text
    assert "Ann" in (await fake.slash(bob, channel, "yahtzee hint")).ephemeral_text
    answer = await fake.slash(ann, channel, "yahtzee end")  # a new lobby needs a free channel
    await fake.click(ann, answer.response, "End the game")  # type: ignore[arg-type]
    clock.advance(11)  # a member's lobbies in one channel are 10 s apart
    lobby = await open_lobby(fake, channel, ann)
    assert "Only the host" in (await fake.click(bob, lobby, "Hints")).ephemeral_text
    await fake.click(ann, lobby, "Hints")
    await fake.click(ann, lobby, "Start")
    board = await live_board(fake, channel)
    assert find_component(board, "Hint") is None  # no button when hints are off
    dice.extend([1, 2, 3, 4, 5])
    await fake.click(ann, board, "Roll")
    assert "switched hints off" in (await fake.slash(ann, channel, "yahtzee hint")).ephemeral_text


async def test_box_menu_scoring_boxes_first_scratch_said_once_best_box_marked(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Issue 14 item 9. With 2-3-4-5-6 on an empty card, worked out by hand: Twos to Sixes
    score 2-6, the straights 30 and 40, Chance 20; Ones, the two of-a-kinds, Full House and
    Yahtzee score 0. The Large Straight's 40 is plainly the box to take."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([2, 3, 4, 5, 6])
    await fake.click(ann, board, "Roll")
    select = _menu(fake.messages[board["id"]])
    options = select["options"]
    assert [o["value"] for o in options] == [
        "twos", "threes", "fours", "fives", "sixes", "small_straight", "large_straight",
        "chance", "ones", "three_of_a_kind", "four_of_a_kind", "full_house", "yahtzee",
    ]  # fmt: skip
    described = {o["value"]: o.get("description") for o in options if o.get("description")}
    assert set(described) == {"large_straight", "ones"}, described
    assert "\N{WHITE MEDIUM STAR} Best move: score here now" in described["large_straight"]
    assert described["ones"].startswith("Scratch: 0 points")
    # Holding keeps the mark (the same dice, remembered), and no other box gets it.
    await fake.click(ann, board, "2")
    select = _menu(fake.messages[board["id"]])
    marked = [o["value"] for o in select["options"] if "Best move" in (o.get("description") or "")]
    assert marked == ["large_straight"]


async def test_the_star_marks_a_box_only_when_scoring_now_is_the_best_move(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Issue 26 item 7: 6-6-5-4-2 on the first roll of the game is worth 23 in Chance, but
    Hint says keep dice and roll: the menu gives no star, only "if you stop now"; after the
    last roll the box to take is starred."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    board = await start_game(fake, channel, ann)
    dice.extend([6, 6, 5, 4, 2])
    await fake.click(ann, board, "Roll")
    hint = await fake.click(ann, board, "Hint")
    assert hint.ephemeral_text.splitlines()[1].startswith("1. Keep ")
    descriptions = [
        o.get("description") or "" for o in _menu(fake.messages[board["id"]])["options"]
    ]
    assert not any("\N{WHITE MEDIUM STAR}" in d for d in descriptions)
    (stop,) = [d for d in descriptions if "if you stop now" in d]
    assert "rolling again is better" in stop
    for _ in range(2):
        dice.extend([6, 6, 5, 4, 2])
        await fake.click(ann, board, "Roll")
    options = _menu(fake.messages[board["id"]])["options"]
    starred = [
        o["value"] for o in options if "\N{WHITE MEDIUM STAR}" in (o.get("description") or "")
    ]
    assert len(starred) == 1 and not any(
        "if you stop now" in (o.get("description") or "") for o in options
    )


def _menu(message: dict[str, Any]) -> dict[str, Any]:
    """The message's select menu (component type 3)."""
    return next(c for row in message["components"] for c in row["components"] if c["type"] == 3)


async def test_a_game_against_the_to_win_bot(
    fake: FakeDiscord,
    start_bot: StartBot,
    dice: ScriptedDice,
) -> None:
    """Ann seats the To-win bot from the lobby; once its distributions are loaded it plays
    its turns on the board like the other computer players."""
    dice.fallback = RandomDice(random.Random(8))
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    await bot.analyst.wait_for_to_win()
    assert bot.analyst.to_win() is not None
    lobby = await open_lobby(fake, channel, ann, computers=["To win"])
    players = seated(fake.messages[lobby["id"]])
    assert "\N{ROBOT FACE} **To-win bot**" in players
    await fake.click(ann, lobby, "Start")
    for box in ("chance", "sixes"):
        await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
        await play_turn(fake, dice, ann, channel, [[6, 6, 6, 5, 4]], box)
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
    row = await bot.store.read(plans.live_game_in, int(channel))
    assert row is not None
    moves = [action for _, _, action, *_ in await bot.store.read(plans.moves, row.id)]
    assert moves.count("bot-score") == 2 and moves.count("score") == 2
    replayed = await bot.games.history.replayed(row.id)
    assert replayed.game is not None and replayed.game.seats[1].name == "To-win bot"
    assert sum(1 for _, points in replayed.game.seats[1].card if points is not None) == 2


async def test_a_hint_says_nothing_of_winning_where_the_distributions_do_not_reach(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """The tests' distributions are a partial build (the last three turns); on the first
    roll of a game, outside them, the hint is the three best moves for points and no
    to-win line (the line itself: tests/strategy/test_winning.py, tests/cogs/test_messages.py)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    await bot.analyst.wait_for_to_win()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([3, 3, 3, 5, 6])
    await fake.click(ann, board, "Roll")
    text = (await fake.click(ann, board, "Hint")).ephemeral_text
    assert len(text.splitlines()) == 4 and "beat" not in text, text
    assert bot.analyst.to_win() is not None  # the line is left out by design, not for want


async def test_a_solo_hint_never_asks_for_the_to_win_distributions(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Alone there is nobody to beat: a hint gives the moves for points and nothing starts
    loading (or, on a fresh host, building: over a GB) the To-win distributions."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    board = await start_game(fake, channel, ann)
    dice.extend([3, 3, 3, 5, 6])
    await fake.click(ann, board, "Roll")
    text = (await fake.click(ann, board, "Hint")).ephemeral_text
    assert len(text.splitlines()) == 4 and "beat" not in text, text
    assert not bot.analyst.to_win_requested


@pytest.mark.sqlite_only
@pytest.mark.parametrize("host", ["a 256 MiB container", "TO_WIN_BUILD=never"])
async def test_a_host_without_the_memory_says_to_win_advice_is_off(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, monkeypatch: Any,
    tmp_path: Path, host: str,
) -> None:  # fmt: skip
    """No distributions on disk, and a container whose cgroup leaves less memory than their
    build takes (the machine itself has plenty), or an operator who forbids the build: nothing
    is built, the log says how to build them ahead, and a hint against Bob says that the
    advice to beat him is off (the choices for points still come)."""
    changes: dict[str, Any] = {}
    if host == "TO_WIN_BUILD=never":
        changes["to_win_build"] = "never"
    else:  # cgroup v2: 256 MiB, 150 MiB of it in use; the host has 64 GiB available
        proc, cgroup = tmp_path / "proc", tmp_path / "cgroup"
        (proc / "self").mkdir(parents=True)
        cgroup.mkdir()
        (proc / "meminfo").write_text(f"MemAvailable: {64 * 2**20} kB\n", encoding="ascii")
        (proc / "self" / "cgroup").write_text("0::/\n", encoding="ascii")
        (cgroup / "memory.max").write_text(f"{256 * 2**20}\n", encoding="ascii")
        (cgroup / "memory.current").write_text(f"{150 * 2**20}\n", encoding="ascii")
        monkeypatch.setattr(builds_module, "PROC", proc)
        monkeypatch.setattr(builds_module, "CGROUP", cgroup)
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot(**changes)
    dists = distributions_path(bot.settings.data_dir, "official")
    dists.unlink()
    await bot.analyst.wait()
    board = await start_game(fake, channel, ann, bob)
    dice.extend([3, 3, 3, 5, 6])
    await fake.click(ann, board, "Roll")
    await fake.click(ann, board, "Hint")
    await bot.analyst.wait_for_to_win()
    text = (await fake.click(ann, board, "Hint")).ephemeral_text
    assert "off on this host" in text and len(text.splitlines()) == 5, text
    why = bot.analyst.to_win_off or ""
    assert "python -m bot.strategy --to-win" in why, why
    if host == "TO_WIN_BUILD=never":
        assert "TO_WIN_BUILD=never" in why, why
    else:
        assert "106 MiB is available" in why, why  # 256 - 150
    assert not dists.exists()


async def test_the_daily_challenge(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """/yahtzee daily: a solo game on the day's dice, on a private board (nobody else sees
    the day's dice, and the channel stays free); at the end the score beside the Optimal
    bot's is posted, without the card; a Replay; one try a day; the day's board."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    await bot.analyst.wait()
    opened = await fake.slash(ann, channel, "yahtzee daily")
    assert opened.response is not None and opened.response["flags"] & EPHEMERAL
    assert "only you see this board" in opened.response["content"]
    board = opened.response
    assert fake.channel_messages(channel) == []  # nothing public: no dice to see
    await open_lobby(fake, channel, bob)  # the channel is not held
    for turn in range(13):
        rolled = await fake.click(ann, board, "Roll")
        assert rolled.response_type == 7, rolled.ephemeral_text
        if turn == 0:  # the private board lost? /yahtzee daily shows it again, as it is
            shown = die_labels(fake.messages[board["id"]])
            again = await fake.slash(ann, channel, "yahtzee daily")
            assert again.response is not None and again.response["flags"] & EPHEMERAL
            assert die_labels(again.response) == shown
            board = again.response  # (the old copy says so: tests/e2e/test_daily.py)
        menu = _menu(fake.messages[board["id"]])
        scored = await fake.choose(ann, fake.messages[board["id"]], menu["options"][0]["value"])
        assert scored.response_type == 7, scored.ephemeral_text
        if turn == 0:  # the Undo is on the private board until the next roll
            undone = await fake.click(ann, fake.messages[board["id"]], "Undo")
            assert undone.response_type == 7, undone.ephemeral_text
            menu = _menu(fake.messages[board["id"]])
            await fake.choose(ann, fake.messages[board["id"]], menu["options"][0]["value"])
    await fake.wait_for(lambda: "## Daily challenge" in text_of(fake.last(channel)))
    private = fake.messages[board["id"]]
    assert "\n## Game over" in text_of(private)  # the card, for Ann alone
    assert private["flags"] & IS_COMPONENTS_V2 and private["embeds"] == []
    final = fake.last(channel)
    said = text_of(final)
    assert said.startswith("## Daily challenge ") and "Ann scored" in said.splitlines()[0]
    assert "the Optimal bot, which scored **" in said
    assert "```" not in said and final["attachments"] == []  # no card
    public = [m for m in fake.channel_messages(channel) if m["id"] != fake.last(channel)["id"]]
    assert all("Daily" not in text_of(m) for m in public)  # Bob's lobby only
    assert dice.remaining == 0  # the scripted dice were never used: the day's were
    replay = await fake.click(ann, final, "Replay")
    lines = replay.ephemeral_text.splitlines()
    # whose try and which day, then the 13 turns
    assert lines[0] == "**Daily challenge November 22, 2026: Ann's try**", lines[0]
    assert len(lines) == 14 and lines[1].startswith("1. rolled "), replay.ephemeral_text
    refused = await fake.click(bob, final, "Replay")
    assert "opens to everyone once every try" in refused.ephemeral_text, refused.ephemeral_text
    assert "Play yours with /yahtzee daily" in refused.ephemeral_text
    cat = fake.user("Cat")  # has had her try today (begun, not finished): not told to play it
    await fake.slash(cat, channel, "yahtzee daily")
    tried = await fake.click(cat, final, "Replay")
    assert "You have had your try today" in tried.ephemeral_text, tried.ephemeral_text
    assert "Play yours" not in tried.ephemeral_text
    again = await fake.slash(ann, channel, "yahtzee daily")
    assert "one try a day" in again.ephemeral_text
    daily_board = await fake.slash(ann, channel, "yahtzee daily-board")
    assert daily_board.response is not None
    assert "Ann" in daily_board.response["embeds"][0]["description"]


async def test_a_hint_under_bonus_turn_names_the_bonus_turn_when_it_is_legal(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, bonus_turn_values: Table,
    tmp_path: Path,
) -> None:  # fmt: skip
    """A solo game under ``bonus-turn``: 50 in Yahtzee, then five sixes again: the hint
    offers the bonus turn with its value (first: 100 now and eleven turns to come), and the
    menu marks it; taken, the next hint (no Yahtzee) offers none."""
    save(bonus_turn_values, table_path(tmp_path / "data", "bonus-turn"))
    ann = fake.user("Ann")
    channel = fake.channel("general")
    bot: YahtzeeBot = await start_bot()
    assert await bot.analyst.wait_for("bonus-turn") is not None
    board = await start_game(fake, channel, ann, preset="bonus-turn")
    await play_turn(fake, dice, ann, channel, [[6, 6, 6, 6, 6]], "yahtzee")
    board = await live_board(fake, channel)
    dice.extend([6, 6, 6, 6, 6])
    await fake.click(ann, board, "Roll")
    hint = await fake.click(ann, board, "Hint")
    lines = hint.ephemeral_text.splitlines()
    assert lines[0].startswith("Best choices for 6-6-6-6-6 (roll 1 of 3)"), lines
    assert lines[1].startswith("1. Take the bonus turn now (+100): **"), lines
    marked = [
        o for o in _menu(fake.messages[board["id"]])["options"]
        if "Best move" in (o.get("description") or "")
    ]  # fmt: skip
    assert [o["value"] for o in marked] == ["yahtzee"]
    await fake.choose(ann, board, "yahtzee")
    await fake.wait_for(lambda: fake.last(channel)["content"].startswith(f"<@{ann['id']}>"))
    board = await live_board(fake, channel)
    dice.extend([1, 2, 3, 4, 6])
    await fake.click(ann, board, "Roll")
    hint = await fake.click(ann, board, "Hint")
    assert hint.ephemeral_text.startswith("Best choices for 1-2-3-4-6"), hint.ephemeral_text
    assert "bonus turn" not in hint.ephemeral_text
