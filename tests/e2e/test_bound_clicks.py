"""A click acts only on a game of its own server and channel: after an operator restores an
older backup, the buttons on messages of the games the backup lost name ids that newer games
are given again, and reach none of them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.engine import ScriptedDice
from bot.store.backup import backup_sqlite

from ..conftest import Database
from .conftest import StartBot, stop
from .fake_discord import FakeDiscord, find_component
from .helpers import die_ids, open_lobby, seated, start_game

OTHER_GAME = "That button belongs to another game"


def game_rows(path: Path) -> dict[int, tuple[int, int, str]]:
    """Each game's (version, channel, players) as stored."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT id, version, channel_id, players FROM games").fetchall()
        return {int(i): (int(v), int(c), str(p)) for i, v, c, p in rows}
    finally:
        db.close()


def restore(backup: Path, database: Path) -> None:
    """What docs/operating.md tells an operator: the bot stopped, the copy over the file (its
    ``-wal`` and ``-shm`` gone)."""
    for extra in ("-wal", "-shm"):
        Path(f"{database}{extra}").unlink(missing_ok=True)
    database.write_bytes(backup.read_bytes())


@pytest.mark.sqlite_only
async def test_buttons_of_games_a_restored_backup_lost_reach_no_newer_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice, database: Database,
    tmp_path: Path,
) -> None:  # fmt: skip
    assert isinstance(database, Path)
    ann, bob, cy, dan, gus, fay = (fake.user(n) for n in ("Ann", "Bob", "Cy", "Dan", "Gus", "Fay"))
    elsewhere = fake.add_guild("Another server")
    table, lounge, den = (fake.add_channel(n)["id"] for n in ("table", "lounge", "den"))
    far = fake.add_channel("far", elsewhere)["id"]
    bot = await start_bot()
    dice.extend([2, 3, 4, 5, 6] * 20)
    await start_game(fake, table, ann)  # game 1: in the backup
    backup = tmp_path / "yahtzee-backup.sqlite3"
    backup_sqlite(database, backup)

    # games 2 and 3, which the backup will not hold: a lobby, and a game with its board
    lost_lobby = await open_lobby(fake, lounge, bob)
    lost_board = await start_game(fake, den, cy)
    await fake.click(cy, lost_board, "Roll")
    lost_board = fake.messages[lost_board["id"]]

    await stop(bot)
    restore(backup, database)
    bot = await start_bot()
    # after the restore, ids 2 and 3 go to new games: a lobby in another server, and a game
    # in the very channel where the lost game 3 was played
    new_lobby = await open_lobby(fake, far, dan)
    await start_game(fake, den, gus)  # its board comes under the lost one, in #den
    await fake.wait_for(lambda: fake.live_boards(den)[-1]["id"] != lost_board["id"])
    new_board = fake.live_boards(den)[-1]
    stored = game_rows(database)
    assert stored[2][1] == int(far) and stored[3][1] == int(den), stored  # the ids came back
    shown = {m["id"]: dict(fake.messages[m["id"]]) for m in (new_lobby, new_board)}

    joined = await fake.click(fay, lost_lobby, "Join")  # another server's lobby, id 2
    assert OTHER_GAME in joined.ephemeral_text, joined.ephemeral_text
    card = await fake.click(fay, lost_board, "Scorecard")  # the game now in #den, id 3
    assert OTHER_GAME in card.ephemeral_text and not card.response.get("attachments")
    held = await fake.click(cy, lost_board, die_ids(lost_board)[0])
    assert OTHER_GAME in held.ephemeral_text, held.ephemeral_text
    rolled = await fake.click(cy, lost_board, "Roll")
    assert OTHER_GAME in rolled.ephemeral_text, rolled.ephemeral_text

    assert game_rows(database) == stored  # nothing changed
    assert "Fay" not in seated(fake.messages[new_lobby["id"]])
    assert {i: fake.messages[i] for i in shown} == shown
    # the new games' own buttons work
    assert (await fake.click(fay, new_lobby, "Join")).response_type == 7
    assert "Fay" in seated(fake.messages[new_lobby["id"]])
    assert find_component(fake.messages[new_board["id"]], "Roll") is not None
    rolled = await fake.click(gus, new_board, "Roll")
    assert rolled.response_type == 7, rolled.ephemeral_text
