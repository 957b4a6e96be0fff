"""Playing like a person through the fake: turns, and reading the bot's messages."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.engine import ScriptedDice

from .fake_discord import FakeDiscord, Interaction, shown_label


def die_ids(message: dict[str, Any]) -> list[str]:
    """The custom_ids of the five die buttons."""
    return [c["custom_id"] for c in message["components"][0]["components"]]


def plain_dice(text: str) -> str:
    """``text`` with dice drawn as emojis (``<:yz1_die5:id>... (5-6-5-5-3)``) read as their
    numbers (``5-6-5-5-3``), as a screen reader or a search does."""
    return re.sub(r"(?:<:yz\d+_die\d(?:_held)?:\d+>)+ \(([\d-]+)\)", r"\1", text)


def die_labels(message: dict[str, Any]) -> list[str]:
    """What the five die buttons show."""
    return [shown_label(c) for c in message["components"][0]["components"]]


async def live_board(fake: FakeDiscord, channel: str) -> dict[str, Any]:
    """The channel's live board, once the bot has posted it (as a player waits for it)."""
    await fake.wait_for(lambda: fake.live_boards(channel) != [])
    return fake.live_boards(channel)[-1]


async def play_turn(
    fake: FakeDiscord,
    dice: ScriptedDice,
    user: dict[str, Any],
    channel: str,
    rolls: list[list[int]],
    box: str,
    holds: list[list[bool]] = (),  # type: ignore[assignment]
    expect_next: bool = True,
) -> Interaction:
    """Roll, hold, roll again as scripted, then pick ``box``; returns the scoring's answer.

    With ``expect_next`` it also waits, as a player would, for the next message (the next
    turn's board or the final scorecard) to appear.
    """
    board = await live_board(fake, channel)
    for i, faces in enumerate(rolls):
        if i:
            for index, keep in enumerate(holds[i - 1]):
                if keep:
                    await fake.click(user, board, die_ids(fake.messages[board["id"]])[index])
        dice.extend(faces)
        answer = await fake.click(user, board, "Roll")
        assert answer.response_type == 7, f"roll refused: {answer.ephemeral_text}"
    answer = await fake.choose(user, board, box)
    assert answer.response_type == 7, f"scoring refused: {answer.ephemeral_text}"
    if expect_next:
        await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    return answer


def png_size(data: bytes) -> tuple[int, int]:
    """Decode PNG bytes and return the image size (fails if they are not a PNG)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.size


async def open_lobby(
    fake: FakeDiscord,
    channel: str,
    host: dict[str, Any],
    *others: dict[str, Any],
    computers: Sequence[str] = (),
    **options: Any,
) -> dict[str, Any]:
    """``host`` opens a lobby with ``/yahtzee start`` (and its ``options``: ``preset=...``),
    each of ``others`` presses Join and the host adds each of ``computers`` ("Optimal",
    "Casual", "To win"), every step answered in place: the lobby message as it is now."""
    opened = await fake.slash(host, channel, "yahtzee start", **options)
    assert opened.response_type == 4 and not opened.ephemeral_text, opened.ephemeral_text
    lobby = fake.messages[opened.original_message_id or ""]
    for player in others:
        joined = await fake.click(player, lobby, "Join")
        assert joined.response_type == 7, joined.ephemeral_text
    for level in computers:
        added = await fake.click(host, lobby, f"Add bot ({level})")
        assert added.response_type == 7, added.ephemeral_text
    return fake.messages[lobby["id"]]


async def start_game(
    fake: FakeDiscord,
    channel: str,
    host: dict[str, Any],
    *others: dict[str, Any],
    computers: Sequence[str] = (),
    **options: Any,
) -> dict[str, Any]:
    """``open_lobby``, then the host presses Start: the first live board, in the channel or,
    in thread mode, in the game's thread. The one way the tests open a game."""
    lobby = await open_lobby(fake, channel, host, *others, computers=computers, **options)
    started = await fake.click(host, lobby, "Start")
    assert started.response_type == 7, started.ephemeral_text
    thread = next((t for t in fake.threads(channel) if t["id"] == lobby["id"]), None)
    return await live_board(fake, thread["id"] if thread else channel)


def seated(message: dict[str, Any]) -> str:
    """Who a lobby message (a Components V2 layout) shows seated: the text under its
    "Players (n/8)" heading (the seat lines, numbered `#1` ...)."""

    def texts(components: list[dict[str, Any]]) -> list[str]:
        out: list[str] = []
        for component in components:
            if component.get("type") == 10:
                out.append(str(component.get("content") or ""))
            out += texts(component.get("components") or [])
        return out

    for text in texts(message.get("components") or []):
        heading, _, seats = text.partition("\n")
        if heading.startswith("**") and (seats.startswith("`#1`") or "(0/8)" in heading):
            return seats  # under "**Players (n/8)**", in any language
    raise AssertionError(f"no players in this lobby: {message.get('components')}")


async def friends_game(
    fake: FakeDiscord,
    start_bot: Any,
    where: str,
    host: str = "Ann",
    computer: str | None = None,
) -> tuple[Any, str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Ann and Bob (the ``host`` added the app) start a game where only tokens reach: a
    group DM, or (``where="user_server"``) a server that never added the bot; ``computer``:
    a computer seat's button label ("Casual") added after them. (the bot, the channel, Ann,
    Bob, the first board)."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    hosting, guest = (ann, bob) if host == "Ann" else (bob, ann)
    fake.install(hosting)
    channel = fake.group_dm(ann, bob) if where == "group_dm" else fake.user_install_guild()
    bot = await start_bot()
    await fake.slash(hosting, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(guest, lobby, "Join")
    if computer is not None:
        await fake.click(hosting, fake.messages[lobby["id"]], f"Add bot ({computer})")
    await fake.click(hosting, fake.messages[lobby["id"]], "Start")
    return bot, channel, ann, bob, await live_board(fake, channel)
