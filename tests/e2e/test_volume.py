"""Volume: one member opening lobbies in fifty channels at once, and a server with thousands
of results, while another server plays on (issue 17 item 4)."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.engine import RandomDice, ScriptedDice
from bot.games import MAX_LIVE_GAMES
from bot.store import plans

from .conftest import StartBot
from .fake_discord import GUILD_ID, FakeDiscord, Interaction, text_of
from .helpers import start_game

pytestmark = pytest.mark.sqlite_only  # about what Discord users send, not the database


async def test_fifty_lobbies_at_once_stop_at_the_limit_and_others_play_on(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann fires /yahtzee start into fifty channels at the same moment while Bob and Cat,
    on another server, start a game and play a turn: Ann gets ten lobbies and forty plain
    refusals, Bob and Cat every answer, and nobody "Something went wrong"."""
    dice.fallback = RandomDice(random.Random(5))
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    other = fake.add_guild("Another server")
    quiet = fake.add_channel("quiet", other)["id"]
    channels = [fake.add_channel(f"flood-{i}")["id"] for i in range(50)]
    bot = await start_bot()

    async def elsewhere() -> list[Interaction]:
        board = await start_game(fake, quiet, bob, cat)
        rolled = await fake.click(bob, board, "Roll")
        options = fake.messages[board["id"]]["components"][2]["components"][0]["options"]
        scored = await fake.choose(bob, fake.messages[board["id"]], options[0]["value"])
        return [rolled, scored]

    flood = asyncio.gather(
        *(fake.slash(ann, channel, "yahtzee start", quiet=False) for channel in channels)
    )
    answers, played = await asyncio.gather(flood, elsewhere())
    refused = [a for a in answers if f"already in {MAX_LIVE_GAMES} games" in a.ephemeral_text]
    opened = [a for a in answers if a not in refused]
    assert (len(opened), len(refused)) == (MAX_LIVE_GAMES, 40)
    assert all(a.error is None and a.response_type == 4 for a in answers)
    assert all("Something went wrong" not in a.ephemeral_text for a in [*answers, *played])
    assert all(a.response_type == 7 for a in played), [a.ephemeral_text for a in played]
    assert await bot.store.read(plans.live_games_of, int(ann["id"])) == MAX_LIVE_GAMES
    row = await bot.store.read(plans.live_game_in, int(quiet))
    assert row is not None and row.version > 0
    assert [action for _, _, action, *_ in await bot.store.read(plans.moves, row.id)][-2:] == [
        "roll",
        "score",
    ]


async def test_a_server_with_thousands_of_results(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """3,000 results from 300 players on one server: its leaderboard opens on the asker's
    page, pages on, and another server's board shows none of them."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    other = fake.add_guild("Another server")
    elsewhere = fake.add_channel("elsewhere", other)["id"]
    bot = await start_bot()
    rng = random.Random(3)
    players = [(int(ann["id"]), "Ann")] + [(10_000 + n, f"Player {n}") for n in range(299)]
    with sqlite3.connect(bot.settings.database_path) as db:
        for n in range(3000):
            user, _ = players[n % len(players)]
            (game_id,) = db.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, preset, created_at, "
                "updated_at) VALUES (?, ?, ?, 'finished', 'official', '2026-11-01', "
                "'2026-11-01') RETURNING id",
                (GUILD_ID, 50_000 + n, user),
            ).fetchone()
            db.execute(
                "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, "
                "upper_total, upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, "
                "finished_at) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 1, 1, 'official', "
                "'2026-11-01T12:00:00+00:00')",
                (game_id, GUILD_ID, 50_000 + n, user, 100 + rng.randrange(250)),
            )
        db.executemany(
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, '')",
            [(GUILD_ID, user, name) for user, name in players],
        )
    answer = await fake.slash(ann, general, "yahtzee leaderboard")
    assert answer.error is None and answer.response is not None, answer.ephemeral_text
    shown = text_of(answer.response)
    assert "Ann" in shown and "of 300" in shown, shown
    rows = await bot.store.read(plans.leaderboard, GUILD_ID, "high")
    assert len(rows) == 300
    turned = await fake.click(ann, answer.response, "Next")
    assert turned.error is None and "Something went wrong" not in turned.ephemeral_text
    theirs = await fake.slash(bob, elsewhere, "yahtzee leaderboard")
    assert theirs.response is not None
    assert await bot.store.read(plans.leaderboard, int(other), "high") == []
    assert "Ann" not in str(theirs.response["embeds"])
