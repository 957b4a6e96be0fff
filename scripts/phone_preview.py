"""Phone-width previews of the bot's messages: python scripts/phone_preview.py [--out DIR]

Runs the real bot against the fake Discord of the tests, plays a short game as players
would (dice emojis, the first roll made for the player, a hold, a scoring, a whole solo game),
asks for the leaderboard, the stats and the settings, and draws each message the way
Discord's phone client lays it out at 360 px wide (dark theme): text wrapped at the width a
phone gives it, the pictures scaled down, buttons wrapping onto new lines. A mock of the
client, not the client: for seeing what fits and what is still readable, before a release
and for the README (``docs/images/phone-*.png``).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import random
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from benchmarks.load import prepare  # noqa: E402
from bot.app import YahtzeeBot  # noqa: E402
from bot.engine import Category, RandomDice, ScriptedDice  # noqa: E402
from bot.i18n import lang, language_of  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, find_component  # noqa: E402

#: What Discord's client writes under a private answer (the client's own words).
ONLY_YOU = "Only you can see this"

TOKEN = "fake.bot.token"
WIDTH = 360  # a phone's width in CSS pixels
LEFT = 62  # where a message's body starts, right of the avatar
INNER = WIDTH - LEFT - 10
SCALE = 2  # drawn at 2x, as a phone's screen shows it
FONTS = ROOT / "bot" / "render" / "fonts"
BG, CARD, TEXT, MUTED, LINK = "#313338", "#2b2d31", "#dbdee1", "#949ba4", "#c9cdfb"
PICTOGRAPHS = re.compile("[\u2300-\u23ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]")
STYLES = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return ImageFont.truetype(str(FONTS / name), size * SCALE)


class Phone:
    """Draws one message onto a tall canvas, top to bottom, then crops it."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.image = Image.new("RGB", (WIDTH * SCALE, 2400 * SCALE), BG)
        self.draw = ImageDraw.Draw(self.image)
        self.y = 12
        names = {e["id"]: e["name"] for e in fake.app_emojis.values()}
        self.emojis = {
            i: Image.open(io.BytesIO(fake.emoji_images[n])).convert("RGBA")
            for i, n in names.items()
        }
        self.users = {u["id"]: u["global_name"] for u in fake.users.values()}

    # -- text ----------------------------------------------------------------------------

    def tokens(self, line: str) -> list[tuple[str, str]]:
        """A line as (kind, text) pieces: words, custom emojis, mentions."""
        line = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.users.get(m.group(1), "user"), line)
        line = re.sub(r"<t:(\d+):R>", "in 5 minutes", line).replace("`", "")
        line = PICTOGRAPHS.sub("", line)  # the client draws these; the mock's fonts have none
        out: list[tuple[str, str]] = []
        for part in re.split(r"(<a?:\w+:\d+>)", line):
            if match := re.fullmatch(r"<a?:\w+:(\d+)>", part):
                out.append(("emoji", match.group(1)))
            else:
                out += [("word", w) for w in re.split(r"(\s+)", part) if w]
        return out

    def text(self, text: str, x: int, width: int, size: int = 14, colour: str = TEXT) -> None:
        """Markdown-ish text wrapped to ``width``: ``## `` headings, ``-# `` small print,
        **bold** runs, code blocks in a box, custom emojis as pictures."""
        code = False
        for raw in text.split("\n"):
            if raw.startswith("```"):
                code = not code
                continue
            line, line_size, line_colour, bold = raw, size, colour, False
            if raw.startswith("## "):
                line, line_size, bold = raw[3:], size + 4, True
            elif raw.startswith("-# "):
                line, line_size, line_colour = raw[3:], size - 3, MUTED
            if code:  # a code block: a dark box, smaller type (the client's is monospace)
                self.box(x, self.y, width, line_size + 4, "#1e1f22", 0)
                self.words(line, x + 6, width - 12, line_size - 3, line_colour, False)
                self.y -= 1
                continue
            self.words(line, x, width, line_size, line_colour, bold)

    def words(self, line: str, x: int, width: int, size: int, colour: str, bold: bool) -> None:
        height = size + 6
        cx = x
        strong = bold
        for kind, piece in self.tokens(line):
            if kind == "emoji":
                if cx + size + 4 > x + width:
                    cx, self.y = x, self.y + height
                self.emoji(piece, cx, self.y + 1, size + 4)
                cx += size + 6
                continue
            for chunk in re.split(r"(\*\*)", piece):
                if chunk == "**":
                    strong = not strong
                    continue
                if not chunk:
                    continue
                face = font(size, strong)
                w = face.getlength(chunk) / SCALE
                if cx + w > x + width and chunk.strip():
                    cx, self.y = x, self.y + height
                    if not chunk.strip():
                        continue
                fill = LINK if chunk.startswith("@") else colour
                self.draw.text((cx * SCALE, self.y * SCALE), chunk, font=face, fill=fill)
                cx += w
        self.y += height

    def emoji(self, emoji_id: str, x: float, y: float, size: int) -> None:
        picture = self.emojis.get(emoji_id)
        if picture is None:
            return
        scaled = picture.resize((size * SCALE, size * SCALE), Image.Resampling.LANCZOS)
        self.image.paste(scaled, (int(x * SCALE), int(y * SCALE)), scaled)

    def box(self, x: float, y: float, w: float, h: float, fill: str, radius: int = 4) -> None:
        self.draw.rounded_rectangle(
            (x * SCALE, y * SCALE, (x + w) * SCALE, (y + h) * SCALE), radius * SCALE, fill=fill
        )

    def picture(self, data: bytes, x: int, width: int) -> None:
        shown = Image.open(io.BytesIO(data)).convert("RGB")
        height = round(shown.height * width / shown.width)
        self.image.paste(
            shown.resize((width * SCALE, height * SCALE), Image.Resampling.LANCZOS),
            (x * SCALE, self.y * SCALE),
        )
        self.y += height + 6

    # -- components ----------------------------------------------------------------------

    def row(self, components: list[dict[str, Any]], x: int, width: int) -> None:
        """Buttons side by side, wrapping as a phone wraps them; a select across the row."""
        cx, self.y = x, self.y + 4
        buttons = False
        for c in components:
            if c["type"] == 3:  # a select: its chosen option, else its placeholder
                chosen = [o["label"] for o in c.get("options") or [] if o.get("default")]
                top = self.y
                self.box(x, top, width, 38, "#1e1f22")
                self.y = top + 10
                shown = chosen[0] if chosen else c.get("placeholder") or ""
                self.words(shown, x + 10, width - 30, 13, TEXT if chosen else MUTED, False)
                self.y = top + 46
                continue
            buttons = True
            label = c.get("label") or ""
            face = font(13, True)
            emoji = (c.get("emoji") or {}).get("id")
            if not emoji and (c.get("emoji") or {}).get("name"):
                label = PICTOGRAPHS.sub("", f"{c['emoji']['name']} {label}").strip()
            w = max(44, int(face.getlength(label) / SCALE) + (26 if emoji else 0) + 22)
            if cx + w > x + width:
                cx, self.y = x, self.y + 40
            fill = STYLES.get(c.get("style", 2), "#4e5058")
            self.box(cx, self.y, w, 34, fill if not c.get("disabled") else "#3b3d44")
            tx = cx + 11
            if emoji:
                self.emoji(emoji, tx, self.y + 6, 22)
                tx += 26
            self.draw.text(((tx) * SCALE, (self.y + 9) * SCALE), label, font=face, fill="#ffffff")
            cx += w + 8
        if buttons:
            self.y += 42

    def layout(self, components: list[dict[str, Any]], x: int, width: int) -> None:
        for c in components:
            kind = c["type"]
            if kind == 1:
                self.row(c["components"], x, width)
            elif kind == 10:
                self.text(c["content"], x, width)
                self.y += 2
            elif kind == 12:
                for item in c["items"]:
                    self.attached(item["media"]["url"], x, width)
            elif kind == 14:
                self.y += 8
            elif kind == 17:
                accent = f"#{int(c.get('accent_color') or 0x4E5058):06x}"
                inner = c.get("components") or []
                self.card(x, width, accent, lambda i=inner: self.layout(i, x + 14, width - 24))
                self.y += 4

    def attached(self, url: str, x: int, width: int) -> None:
        name = url.removeprefix("attachment://")
        files = [a for a in self.message.get("attachments") or [] if a["filename"] == name]
        if files:
            self.picture(self.fake.files[files[0]["id"]], x, width)

    # -- cards ---------------------------------------------------------------------------

    def card(self, x: int, width: int, accent: str, body: Callable[[], None]) -> None:
        """``body`` on a card with an accent bar: drawn once to learn its height, then the
        card is painted and ``body`` drawn again on it."""
        top = self.y
        self.y += 8
        body()
        bottom = self.y + 6
        self.box(x, top, width, bottom - top, CARD)
        self.box(x, top, 4, bottom - top, accent, 2)
        self.y = top + 8
        body()
        self.y = bottom

    def embed_body(self, embed: dict[str, Any], x: int, width: int) -> None:
        if embed.get("title"):
            self.words(embed["title"], x, width, 14, "#ffffff", True)
        if embed.get("description"):
            self.text(embed["description"], x, width)
        for f in embed.get("fields") or []:
            self.words(f["name"], x, width, 13, "#ffffff", True)
            self.text(f["value"], x, width, 13)
        if (embed.get("image") or {}).get("url"):
            self.attached(embed["image"]["url"], x, width)
        if (embed.get("footer") or {}).get("text"):
            self.words(embed["footer"]["text"], x, width, 11, MUTED, False)

    # -- a message -----------------------------------------------------------------------

    def render(self, message: dict[str, Any], note: str = "") -> Image.Image:
        self.message = message
        self.draw.ellipse((12 * SCALE, self.y * SCALE, 52 * SCALE, (self.y + 40) * SCALE),
                          fill="#24593b")  # fmt: skip
        head = font(15, True)
        self.draw.text((LEFT * SCALE, self.y * SCALE), "Yahtzee", font=head, fill="#ffffff")
        tag = LEFT + head.getlength("Yahtzee") / SCALE + 6
        self.box(tag, self.y + 2, 30, 16, "#5865f2", 3)
        self.draw.text(((tag + 4) * SCALE, (self.y + 3) * SCALE), "APP", font=font(10, True),
                       fill="#ffffff")  # fmt: skip
        if note:
            self.draw.text(((tag + 38) * SCALE, (self.y + 2) * SCALE), note, font=font(11),
                           fill=MUTED)  # fmt: skip
        self.y += 22
        if message.get("content"):
            self.text(message["content"], LEFT, INNER)
        for embed in message.get("embeds") or []:
            colour = f"#{int(embed.get('color') or 0x4E5058):06x}"
            self.card(
                LEFT, INNER, colour, lambda e=embed: self.embed_body(e, LEFT + 14, INNER - 24)
            )
            self.y += 6
        components = message.get("components") or []
        if components and components[0]["type"] == 1 and not message.get("flags", 0) & 32768:
            for row in components:
                self.row(row["components"], LEFT, INNER)
        else:
            self.layout(components, LEFT, INNER)
        return self.image.crop((0, 0, WIDTH * SCALE, (self.y + 10) * SCALE))


async def capture(
    locale: str = "en-US",
) -> tuple[FakeDiscord, list[tuple[str, dict[str, Any], str]]]:
    """The messages to draw (name, message, the note beside the bot's name), and the fake
    Discord that holds their files and emojis; ``locale``: the server's and the players'
    language (Discord's code, e.g. "de")."""
    say = lang(language_of(locale))
    roll = say("Roll ({left} left)", left=9).split("(")[0].strip()  # a button's label starts so
    work = Path(tempfile.mkdtemp(prefix="yahtzee-phone-"))
    setting, _ = await prepare(work, timer=False, postgres=None, guilds=[])
    fake = FakeDiscord()
    fake.guild_locales[str(GUILD_ID)] = locale
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    dice = ScriptedDice(fallback=RandomDice(random.Random(5)))
    bot = YahtzeeBot(
        Settings(token=TOKEN, database_path=Path(setting["DATABASE_PATH"]), bot_move_delay=0),
        dice=dice,
    )
    task = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready() or bot.analyst.table is None:  # noqa: ASYNC110 - no event to wait on
        await asyncio.sleep(0.05)
    await fake.settle()
    cog: Any = bot.get_cog("Yahtzee")
    while not cog.publisher.faces.ready:  # noqa: ASYNC110
        await asyncio.sleep(0.05)
    ann, bob = fake.user("Ann", locale=locale), fake.user("Bob", locale=locale)
    mod = fake.user("Mod", admin=True, locale=locale)
    channel = fake.channel("general")
    shots: list[tuple[str, dict[str, Any], str]] = []

    def shot(name: str, message: dict[str, Any], note: str = "") -> None:
        shots.append((name, copy.deepcopy(message), note))  # as it is now: messages change

    # a lobby with two players, then a turn: rolled, two dice held
    await fake.slash(ann, channel, "yahtzee start")
    lobby = fake.last(channel)
    await fake.click(bob, lobby, say("Join"))
    shot("lobby", fake.messages[lobby["id"]], "")
    await fake.click(ann, lobby, say("Start"))
    board = fake.live_boards(channel)[-1]
    dice.extend([5, 5, 2, 6, 5])
    await fake.click(ann, board, roll)
    for index in (0, 1):
        die = fake.messages[board["id"]]["components"][0]["components"][index]
        await fake.click(ann, fake.messages[board["id"]], die["custom_id"])
    shot("board", fake.messages[board["id"]], "")
    dice.extend([5, 1, 3])
    await fake.click(ann, fake.messages[board["id"]], roll)
    await fake.choose(ann, fake.messages[board["id"]], "three_of_a_kind")
    await fake.wait_for(lambda: fake.last(channel)["id"] != board["id"])
    shot("summary", fake.messages[board["id"]], "")
    settings = await fake.slash(mod, channel, "yahtzee-admin settings")
    assert settings.response is not None
    shot("settings", settings.response, ONLY_YOU)

    # a solo game to its end in another channel: the final scorecard
    solo = fake.channel("games")
    await fake.slash(ann, solo, "yahtzee start")
    await fake.click(ann, fake.last(solo), say("Start"))
    for box in Category:
        board = fake.live_boards(solo)[-1]
        await fake.click(ann, board, roll)
        menu = next(
            c for r in fake.messages[board["id"]]["components"] for c in r["components"]
            if c["type"] == 3
        )  # fmt: skip
        values = [o["value"] for o in menu["options"]]
        await fake.choose(ann, fake.messages[board["id"]], box.value if box.value in values
                          else values[0])  # fmt: skip
        await fake.wait_for(lambda b=board: fake.last(solo)["id"] != b["id"])
    shot("final", fake.last(solo), "")
    board_answer = await fake.slash(ann, solo, "yahtzee leaderboard")
    assert board_answer.response is not None
    shot("leaderboard", board_answer.response, ONLY_YOU)
    stats = await fake.slash(ann, solo, "yahtzee stats")
    assert stats.response is not None
    shot("stats", stats.response, ONLY_YOU)
    assert find_component(stats.response, say("Share")) is not None

    await bot.close()
    await asyncio.sleep(0.2)  # the gateway's heartbeat thread ends with the connection
    task.cancel()
    await fake.stop()
    return fake, shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument(
        "--locale", default="en-US", help="the server's and players' Discord locale, e.g. de"
    )
    args = parser.parse_args()
    fake, shots = asyncio.run(capture(args.locale))
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "" if language_of(args.locale) == "en" else f"-{language_of(args.locale)}"
    for name, message, note in shots:
        image = Phone(fake).render(message, note)
        path = args.out / f"phone-{name}{suffix}.png"
        image.save(path, optimize=True)
        print(f"{path}: {image.width // SCALE} x {image.height // SCALE}")


if __name__ == "__main__":
    main()
