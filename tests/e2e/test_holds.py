"""A hold changes only the buttons (issue 27): its answer edits the board's components
alone, nothing is drawn or uploaded, and the picture never contradicts the buttons."""

from __future__ import annotations

from bot.engine import ScriptedDice

from .conftest import StartBot
from .fake_discord import FakeDiscord
from .helpers import die_ids, start_game


async def test_a_hold_edits_only_the_buttons(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Ann rolls, then holds and releases dice: each answer carries the components only (no
    embed, no file), the picture attached by the roll stays, and the die buttons say which
    dice are held; the next roll draws and uploads again."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann)
    dice.extend([3, 3, 5, 2, 6])
    await fake.click(ann, board, "Roll")
    picture = fake.messages[board["id"]]["attachments"]
    assert len(picture) == 1
    files = len(fake.files)
    for index in (0, 1, 1, 4):
        before = len(fake.requests)
        held = await fake.click(ann, board, die_ids(fake.messages[board["id"]])[index])
        assert held.response_type == 7, held.ephemeral_text
        callbacks = [
            body for method, path, body in fake.requests[before:]
            if method == "POST" and path.endswith("/callback")
        ]  # fmt: skip
        assert len(callbacks) == 1, callbacks
        changed = set(callbacks[0]["data"]) - {"tts", "allowed_mentions"}  # discord.py's own
        assert changed == {"components"}, callbacks
    assert len(fake.files) == files  # nothing uploaded
    shown = fake.messages[board["id"]]
    assert shown["attachments"] == picture
    styles = [c["style"] for c in shown["components"][0]["components"]]
    assert styles == [3, 2, 2, 2, 3]  # dice 1 and 5 held (success style), the rest not
    dice.extend([4, 4, 4])
    await fake.click(ann, board, "Roll")
    assert len(fake.files) == files + 1
    assert fake.messages[board["id"]]["attachments"] != picture
