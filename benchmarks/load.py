"""Many games at once: python benchmarks/load.py [--games N] [--seconds D] [options]

Runs ``python -m bot`` (the real YahtzeeBot, the same setup_hook) as its own process against
the fake Discord of tests/e2e, which runs here with the players: N two-player games in N
channels, each player clicking (holds, Roll, a box) after an exponential think time (mean
3 s), for D seconds, once the strategy table is in place. Before the game bot, a trivial
discord.py bot that only edits the clicked message (benchmarks/floor_bot.py) is measured
against the same fake: the floor, twice: editing the text only, and editing in a picture
as large as a live board (drawn beforehand).

Prints, per kind of click, the median and 99th percentile of click -> answer and
click -> visible update (for a scoring: until the next board is posted), clicks per second,
the pictures uploaded (a turn, and a two-player game of 26 turns),
refusals and errors, answers later than 3 s, and the CPU and memory of the bot's process
and of its worker processes (drawing, analysis).

Options: --timer puts every game on a 1-minute turn timer; --bots K seats the Optimal
computer player in K of the games instead of a second person; --floor-clicks sets how many
clicks measure the floor; --seed makes the players' choices repeatable. --postgres [URL]
keeps the games in PostgreSQL (a fresh schema of URL's database, default the local test
server) instead of a SQLite file; --processes 2 runs two bot processes, SHARD_COUNT=2 with
SHARD_IDS 0 and 1, on the one database, the games split over two servers, one per shard.
--idle opens the games and then nobody clicks: the memory each live game costs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Game, ScriptedDice  # noqa: E402
from bot.render import render_turn  # noqa: E402
from bot.store import GuildSettings, open_store, plans  # noqa: E402
from bot.strategy import solve  # noqa: E402
from bot.strategy.table_file import save, table_path  # noqa: E402
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, find_component  # noqa: E402

TOKEN = "fake.bot.token"
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
SITEPATCH = ROOT / "tests" / "e2e" / "sitepatch"
MENTION = re.compile(r"<@(\d+)>")
LATE = 3.0


@dataclass
class Figures:
    """What the players measured."""

    answer: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds
    visible: dict[str, list[float]] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)  # ephemeral answer text -> count
    errors: dict[str, int] = field(default_factory=dict)
    late: int = 0
    deferred: int = 0  # acknowledged first (a deferred update), the answer edited in later
    clicks: int = 0
    in_window: int = 0  # clicks made within the --seconds window (the tail finishes turns)
    window: float = 0.0
    uploads: int = 0  # pictures the bot uploaded while measuring (posts and edits)

    def count(self, table: dict[str, int], what: str) -> None:
        table[what] = table.get(what, 0) + 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bot_env(fake: FakeDiscord, **extra: str) -> dict[str, str]:
    mine = ("DISCORD_", "DEV_GUILD", "DATABASE_", "SHARD_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(mine)}
    env.update(
        PYTHONPATH=os.pathsep.join([str(SITEPATCH), str(ROOT)]),
        FAKE_DISCORD_API=fake.api_base,
        DISCORD_TOKEN=TOKEN,
        DEV_GUILD_ID="",
    )
    env.update(extra)
    return env


def proc_cpu_and_memory(pid: int) -> tuple[float, int, int]:
    """CPU seconds used so far, resident memory and its peak (KiB) of a process."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    peak = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    return cpu, rss, peak


async def sample_memory(pid: int, begin: float, every: float) -> None:
    """Print the bot's RSS and its family's PSS every ``every`` seconds (a soak: a leak
    shows as growth after the first minutes), and at the end the last against the sample
    at 2 minutes."""
    at_two: int | None = None
    last = 0
    try:
        while True:
            await asyncio.sleep(every)
            _, rss, _ = proc_cpu_and_memory(pid)
            members = {}
            for member in (pid, *children(pid)):
                with contextlib.suppress(OSError):
                    members[member] = proportional_memory(member) // 1024
            last = sum(members.values()) * 1024
            minutes = (time.monotonic() - begin) / 60
            if at_two is None and minutes >= 2:
                at_two = last
            each = ", ".join(f"{m}: {v}" for m, v in members.items())
            print(f"  {minutes:5.1f} min: bot RSS {rss // 1024} MiB, with its helpers (PSS) "
                  f"{last // 1024} MiB ({each})", flush=True)  # fmt: skip
    finally:
        if at_two:
            print(f"memory at the end against 2 minutes in: {last / at_two:.3f}x "
                  f"({at_two // 1024} -> {last // 1024} MiB, the bot and its helpers)")  # fmt: skip


def proportional_memory(pid: int) -> int:
    """A process's PSS (KiB): its resident pages, each shared page divided among the
    processes sharing it (the strategy table mapped by several, the libraries), so that
    the figures of a family add up to what the family costs the host."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    return int(re.search(r"^Pss:\s+(\d+)", rollup, re.MULTILINE).group(1))  # type: ignore[union-attr]


def family_pss(pid: int) -> int:
    """The PSS (KiB) of a process and its descendants together."""
    total = 0
    for member in (pid, *children(pid)):
        with contextlib.suppress(OSError):
            total += proportional_memory(member)
    return total


def children(pid: int) -> list[int]:
    """Every process started by ``pid``, and theirs (the bot's worker processes)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += [int(child), *children(int(child))]
    return found


def family_cpu(pid: int) -> dict[int, float]:
    """CPU seconds so far of a process and of each of its descendants."""
    out = {}
    for member in [pid, *children(pid)]:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            out[member] = proc_cpu_and_memory(member)[0]
    return out


async def connect(fake: FakeDiscord, *command: str, env: dict[str, str], log: Path) -> Any:
    fake.identified.clear()
    process = await asyncio.create_subprocess_exec(
        *command, env=env, cwd=log.parent, stdout=log.open("wb"), stderr=asyncio.subprocess.STDOUT
    )
    await asyncio.wait_for(fake.identified.wait(), 60)
    await asyncio.sleep(1.0)  # READY and GUILD_CREATE handled
    return process


async def stop(process: Any) -> None:
    if process.returncode is None:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()


async def measure_floor(fake: FakeDiscord, clicks: int, work: Path) -> tuple[float, float]:
    """Median click -> answer of the trivial bot, one click at a time: editing the text only,
    and editing in a picture as large as a live board."""
    picture = work / "board.png"
    picture.write_bytes(sample_board())
    env = bot_env(fake, FLOOR_PICTURE=str(picture))
    process = await connect(
        fake, sys.executable, str(ROOT / "benchmarks" / "floor_bot.py"), env=env,
        log=work / "floor.log",
    )  # fmt: skip
    try:
        channel = fake.channel("general")
        user = fake.user("Floor")
        medians = []
        for custom_id in ("floor", "floor-picture"):
            button = {"type": 2, "style": 1, "label": "Click", "custom_id": custom_id}
            message = fake._create(channel, {"content": "floor", "components": [
                {"type": 1, "components": [button]}]}, [])  # fmt: skip
            times = []
            for _ in range(clicks):
                record = await fake.press(user, message, custom_id)
                await asyncio.wait_for(record.responded.wait(), 10)
                assert record.answered is not None and record.response_type == 7
                times.append(record.answered - record.created)
            medians.append(statistics.median(times))
        return medians[0], medians[1]
    finally:
        await stop(process)


def sample_board() -> bytes:
    """A live board of a two-player game after a roll, as the bot draws it."""
    game = Game([("1", "Ann"), ("2", "Bob")], "official", ScriptedDice([3, 3, 5, 6, 2]))
    game.roll("1")
    return render_turn(game)


class Table:
    """One channel's game, played by two people (or one and the Optimal bot)."""

    def __init__(
        self,
        fake: FakeDiscord,
        figures: Figures,
        index: int,
        rng: random.Random,
        args: Any,
        guild_id: str,
    ) -> None:
        self.fake, self.figures, self.rng, self.args = fake, figures, rng, args
        self.channel = fake.add_channel(f"table-{index}", guild_id)["id"]
        self.host = fake.user(f"Host{index}")
        self.guest = fake.user(f"Guest{index}")
        self.people = {self.host["id"]: self.host, self.guest["id"]: self.guest}
        self.against_bot = index < args.bots
        self.measuring = False
        self.stopping = False
        self.until = float("inf")

    async def think(self) -> None:
        await asyncio.sleep(self.rng.expovariate(1 / self.args.think))

    async def click(
        self, kind: str, user: dict[str, Any], message: dict[str, Any], custom_id: str,
        values: list[str] | None = None,
    ) -> Any:  # fmt: skip
        shown = json.dumps(self.fake.messages.get(message["id"], message), sort_keys=True)
        in_window = time.monotonic() < self.until
        record = await self.fake.press(user, message, custom_id, values)
        try:
            await asyncio.wait_for(record.responded.wait(), 10)
        except TimeoutError:
            record.error = record.error or "no answer within 10 s"
        if not self.measuring:
            return record
        self.figures.clicks += 1
        self.figures.in_window += in_window
        if record.error:
            if record.error == "answered too late":
                self.figures.late += 1
            self.figures.count(self.figures.errors, f"{kind}: {record.error}")
            return record
        assert record.answered is not None
        took = record.answered - record.created
        if took > LATE:
            self.figures.late += 1
        if record.response_type == 6:  # acknowledged in time, the answer edited in later
            self.figures.deferred += 1
            self.figures.answer.setdefault(kind, []).append(took)
            changed = await self._changed(record, message["id"], shown)
            if changed is not None and kind != "score":
                self.figures.visible.setdefault(kind, []).append(changed - record.created)
            if not record.followups:  # a refusal comes as a private follow-up
                return record
        text = record.ephemeral_text
        if record.response_type != 7 or text:
            target = self.figures.errors if "went wrong" in text else self.figures.refused
            self.figures.count(target, f"{kind}: {text[:70] or record.response_type}")
            return record
        self.figures.answer.setdefault(kind, []).append(took)
        if kind != "score":  # a roll or hold shows in the message the answer edits
            self.figures.visible.setdefault(kind, []).append(took)
        return record

    async def _changed(self, record: Any, message_id: str, shown: str) -> float | None:
        """When a deferred answer showed: the clicked message edited, or a follow-up sent
        (None if neither within 10 s)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            now = self.fake.messages.get(message_id)
            if record.followups or (now is not None and json.dumps(now, sort_keys=True) != shown):
                return time.monotonic()
            await asyncio.sleep(0.02)
        return None

    async def open(self) -> None:
        """A lobby, the second seat, Start; returns when the first board is up."""
        answer = await self.fake.slash(self.host, self.channel, "yahtzee start", 10, quiet=False)
        assert answer.response_type == 4, answer.ephemeral_text or answer.error
        lobby = self.fake.messages[answer.original_message_id or ""]
        if self.against_bot:
            await self.click("lobby", self.host, lobby, self._id(lobby, "Add bot (Optimal)"))
        else:
            await self.click("lobby", self.guest, lobby, self._id(lobby, "Join"))
        await self.click("lobby", self.host, lobby, self._id(lobby, "Start"))
        await self.board()

    @staticmethod
    def _id(message: dict[str, Any], label: str) -> str:
        component = find_component(message, label)
        assert component is not None, f"no {label!r} on {message.get('content')}"
        return str(component["custom_id"])

    async def board(self, after: str | None = None) -> dict[str, Any] | None:
        """The live board (a newer one than ``after``), or None if the game is over."""
        while True:
            boards = self.fake.live_boards(self.channel)
            if boards and boards[-1]["id"] != after:
                return boards[-1]
            last = self.fake.channel_messages(self.channel)[-1]
            if find_component(last, "Play again") is not None:
                return None
            await self.fake.next_post(self.channel, 120)

    async def play(self, until: float) -> None:
        self.until = until
        board = await self.board()
        if self.args.idle:  # the game stays live and untouched: what it costs at rest
            await asyncio.sleep(max(0.0, until - time.monotonic()))
            return
        while time.monotonic() < until and not self.stopping:
            if board is None:  # game over: a new one in the same channel
                await self.open()
                board = await self.board()
                continue
            found = MENTION.search(board.get("content") or "")
            mover = self.people.get(found.group(1)) if found else None
            if mover is None:  # the computer player's turn: watch for the next board
                board = await self.board(after=board["id"])
                continue
            board = await self.turn(mover, board, until)

    async def turn(
        self, mover: dict[str, Any], board: dict[str, Any], until: float
    ) -> dict[str, Any] | None:
        for roll in range(3):
            await self.think()
            if time.monotonic() >= until:
                return board
            current = self.fake.messages[board["id"]]
            if find_component(current, "Roll") is None:  # retired meanwhile (a late answer
                return await self.board(after=board["id"])  # was repaired): the new board
            if roll:
                dice = current["components"][0]["components"]
                for die in self.rng.sample(dice, self.rng.randint(0, 2)):
                    await self.click("hold", mover, current, die["custom_id"])
                    await self.think()
                    current = self.fake.messages[board["id"]]
                if find_component(current, "Roll") is None:
                    return await self.board(after=board["id"])
            await self.click("roll", mover, current, self._id(current, "Roll"))
            if self.rng.random() < 0.3:
                break
        await self.think()
        current = self.fake.messages[board["id"]]
        if find_component(current, "Roll") is None:
            return await self.board(after=board["id"])
        select = next(c for r in current["components"] for c in r["components"] if c["type"] == 3)
        box = self.rng.choice(select["options"])["value"]
        record = await self.click("score", mover, current, select["custom_id"], [box])
        if record.response_type != 7:
            return await self.board()
        following = await self.board(after=board["id"])
        if self.measuring and following is not None and record.answered is not None:
            shown = self.fake.posted_at[following["id"]]
            self.figures.visible.setdefault("score", []).append(shown - record.created)
        return following


async def prepare(
    work: Path, timer: bool, postgres: str | None, guilds: list[str]
) -> tuple[dict[str, str], str | None]:
    """The data folder with the strategy table (as after the bot's first start), and the
    database: the setting that names it, and the PostgreSQL schema made for the run."""
    folder = work / "data"
    folder.mkdir(parents=True)
    target = table_path(folder, "official")
    built = table_path(ROOT / "data", "official")
    if built.exists():
        shutil.copy(built, target)
    else:
        save(solve("official"), target)
    schema = None
    if postgres:
        import asyncpg

        schema = f"load_{os.getpid()}_{int(time.time())}"
        admin = await asyncpg.connect(postgres)
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await admin.close()
        url = f"{postgres}{'&' if '?' in postgres else '?'}search_path={schema}"
        setting = {"DATABASE_URL": url}
        database: str | Path = url
    else:
        database = folder / "yahtzee.sqlite3"
        setting = {"DATABASE_PATH": str(database)}
    store = await open_store(database)  # migrated once, before the bots race to do it
    if timer:
        for guild in guilds:
            await store.write(
                plans.save_guild_settings, int(guild), GuildSettings(turn_seconds=60), 0
            )
    await store.close()
    return setting, schema


def server_cpu() -> float:
    """CPU seconds so far of the local PostgreSQL server's processes (it runs on this machine
    and shares its cores with the bot)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (entry / "comm").read_text().strip() == "postgres":
                total += proc_cpu_and_memory(int(entry.name))[0]
    return total


async def server_transactions(postgres: str) -> int:
    """Transactions committed so far in the database (pg_stat_database: a unit of work
    each, and every statement outside one)."""
    import asyncpg

    admin = await asyncpg.connect(postgres)
    try:
        return int(await admin.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ))  # fmt: skip
    finally:
        await admin.close()


async def drop_schema(postgres: str, schema: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(postgres)
    await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()


@dataclass
class Usage:
    """CPU (share of one core over the run) and memory (KiB) of the bot and its workers."""

    bot_cpu: float
    workers_cpu: float
    bot_rss: int
    bot_peak: int
    workers_rss: int
    workers: int
    family_pss: dict[str, int]  # each process's PSS (KiB) by its name


def usage(pid: int, before: dict[int, float], after: dict[int, float], seconds: float) -> Usage:
    def spent(member: int) -> float:
        return after.get(member, 0.0) - before.get(member, 0.0)

    others = [m for m in after if m != pid]
    _, rss, peak = proc_cpu_and_memory(pid)
    worker_rss = 0
    for member in others:
        with contextlib.suppress(FileNotFoundError):
            worker_rss += proc_cpu_and_memory(member)[1]
    pss: dict[str, int] = {}
    for member in [pid, *others]:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            name = Path(f"/proc/{member}/comm").read_text().strip()
            name = "bot" if member == pid else f"{name} ({member})"
            pss[name] = proportional_memory(member)
    return Usage(
        spent(pid) / seconds, sum(spent(m) for m in others) / seconds, rss, peak, worker_rss,
        len(others), pss,
    )  # fmt: skip


def report(figures: Figures, seconds: float, floors: tuple[float, float], use: Usage) -> None:
    text_floor, picture_floor = floors
    print(
        f"clicks measured: {figures.clicks} in {seconds:.0f} s; {figures.in_window} made in the "
        f"{figures.window:.0f} s window = {figures.in_window / max(figures.window, 1e-9):.1f}/s"
    )
    print(
        f"floor (trivial bot, click -> answer, median): {text_floor * 1000:.2f} ms editing text, "
        f"{picture_floor * 1000:.2f} ms editing in a board-sized picture"
    )
    print(f"{'click':<7}{'n':>6} {'answer p50':>11}{'p99':>9} {'visible p50':>12}{'p99':>9}"
          f" {'p50/floor':>10} {'p50/picture floor':>18}")  # fmt: skip
    for kind in ("hold", "roll", "score"):
        answers = figures.answer.get(kind, [])
        shown = figures.visible.get(kind, [])
        if not answers:
            continue
        p50 = statistics.median(answers)
        p99 = percentile(answers, 0.99)
        print(
            f"{kind:<7}{len(answers):>6} {p50 * 1000:>9.1f}ms{p99 * 1000:>7.1f}ms"
            f" {statistics.median(shown) * 1000:>10.1f}ms{percentile(shown, 0.99) * 1000:>7.1f}ms"
            f" {p50 / text_floor:>9.1f}x {p50 / picture_floor:>17.1f}x"
        )
    turns = len(figures.answer.get("score", []))
    if turns:
        print(
            f"pictures uploaded: {figures.uploads}, {figures.uploads / turns:.2f} a turn, "
            f"{26 * figures.uploads / turns:.0f} a two-player game (26 turns); holds "
            f"{len(figures.answer.get('hold', [])) / turns:.2f} and rolls "
            f"{len(figures.answer.get('roll', [])) / turns:.2f} a turn"
        )
    print(f"answers later than 3 s: {figures.late}; acknowledged first (deferred): "
          f"{figures.deferred}")  # fmt: skip
    print(f"errors: {sum(figures.errors.values())} {figures.errors or ''}")
    print(f"refused: {sum(figures.refused.values())} {figures.refused or ''}")
    print(
        f"bot process: CPU {use.bot_cpu * 100:.0f}% of one core; "
        f"RSS {use.bot_rss / 1024:.0f} MiB (peak {use.bot_peak / 1024:.0f} MiB)"
    )
    print(
        f"its {use.workers} child processes (drawing, analysis, multiprocessing's resource "
        f"tracker): CPU {use.workers_cpu * 100:.0f}% of one core; "
        f"RSS {use.workers_rss / 1024:.0f} MiB"
    )
    parts = ", ".join(f"{name} {kib / 1024:.0f}" for name, kib in use.family_pss.items())
    print(
        f"memory of the bot and its helpers in all (PSS, shared pages counted once): "
        f"{sum(use.family_pss.values()) / 1024:.0f} MiB ({parts} MiB)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=3.0, help="mean think time, seconds")
    parser.add_argument("--timer", action="store_true", help="a 1-minute turn timer everywhere")
    parser.add_argument("--bots", type=int, default=0, help="games against the Optimal bot")
    parser.add_argument("--floor-clicks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the data folder and logs")
    parser.add_argument(
        "--postgres", nargs="?", const=DEFAULT_POSTGRES, default=None, metavar="URL",
        help=f"keep the games in PostgreSQL (default server {DEFAULT_POSTGRES})",
    )  # fmt: skip
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument(
        "--idle", action="store_true",
        help="open the games, then nobody clicks: prints the memory each live game costs",
    )  # fmt: skip
    parser.add_argument(
        "--sample-every", type=float, default=0, metavar="SECONDS",
        help="print the bot's memory this often (a soak: --seconds 1200 --sample-every 60)",
    )  # fmt: skip
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="yahtzee-load-"))
    fake = FakeDiscord()
    await fake.start()
    rng = random.Random(args.seed)
    figures = Figures()
    schema = None
    # one server per process: GUILD_ID is on shard 1 of 2, the other one on shard 0
    guilds = (
        [str(GUILD_ID)] if args.processes == 1 else [fake.add_guild("Shard 0", 0), str(GUILD_ID)]
    )
    server_line: list[str] = []
    try:
        setting, schema = await prepare(work, args.timer, args.postgres, guilds)
        floors = await measure_floor(fake, args.floor_clicks, work)
        tables = [
            Table(fake, figures, i, random.Random(rng.random()), args, guilds[i % len(guilds)])
            for i in range(args.games)
        ]
        bots = []
        for shard in range(args.processes):
            sharding = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)} if args.processes > 1 else {}
            env = bot_env(fake, BOT_MOVE_DELAY="1", **setting, **sharding)
            log = work / f"bot-{shard}.log"
            bots.append(await connect(fake, sys.executable, "-m", "bot", env=env, log=log))
        try:
            gate = asyncio.Semaphore(20)

            async def open_one(table: Table) -> None:
                async with gate:
                    await table.open()

            await asyncio.sleep(2.0)
            family_before = family_pss(bots[0].pid)
            started = time.monotonic()
            await asyncio.gather(*(open_one(t) for t in tables))
            print(f"{args.games} games opened in {time.monotonic() - started:.1f} s")
            for table in tables:
                table.measuring = True
            cpu_before = [family_cpu(b.pid) for b in bots]
            own_before, _, _ = proc_cpu_and_memory(os.getpid())
            uploads_before = len(fake.files)
            begin = time.monotonic()
            until = begin + args.seconds
            figures.window = args.seconds
            sampling = (
                asyncio.create_task(sample_memory(bots[0].pid, begin, args.sample_every))
                if args.sample_every
                else None
            )

            server_before = (
                (server_cpu(), await server_transactions(args.postgres)) if args.postgres else None
            )

            async def at_window_end() -> tuple[list[dict[int, float]], float]:
                # CPU over the window itself, not the tail in which the players finish turns
                await asyncio.sleep(max(0.0, until - time.monotonic()))
                if args.postgres and server_before is not None:
                    cpu = server_cpu() - server_before[0]
                    xacts = await server_transactions(args.postgres) - server_before[1]
                    clicks = max(figures.in_window, 1)
                    server_line.append(
                        f"PostgreSQL server (this machine): CPU {cpu / args.seconds * 100:.0f}% "
                        f"of one core, {cpu / clicks * 1000:.2f} ms a click; "
                        f"{xacts / clicks:.2f} transactions a click (pg_stat_database)"
                    )
                return [family_cpu(b.pid) for b in bots], proc_cpu_and_memory(os.getpid())[0]

            window_end = asyncio.create_task(at_window_end())
            await asyncio.gather(*(t.play(until) for t in tables))
            elapsed = time.monotonic() - begin
            cpu_after, own_after = await window_end
            if sampling is not None:
                sampling.cancel()
                await asyncio.gather(sampling, return_exceptions=True)
            uses = [
                usage(b.pid, before, after, args.seconds)
                for b, before, after in zip(bots, cpu_before, cpu_after, strict=True)
            ]
            figures.uploads = len(fake.files) - uploads_before
            family_after = family_pss(bots[0].pid)
        finally:
            for running in bots:
                await stop(running)
        logs = [work / f"bot-{shard}.log" for shard in range(args.processes)]
        log_text = "".join(log.read_text(errors="replace") for log in logs)
        logged_errors = len(re.findall(r"^\S+ \S+ ERROR", log_text, re.MULTILINE))
        print(
            f"games: {args.games}, think time mean {args.think} s, timer: "
            f"{'1 min' if args.timer else 'off'}, against the Optimal bot: {args.bots}, "
            f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, "
            f"bot processes: {args.processes}"
        )
        report(figures, elapsed, floors, uses[0])
        for shard, use in enumerate(uses[1:], 1):
            print(
                f"bot process {shard}: CPU {use.bot_cpu * 100:.0f}% of one core, its helpers "
                f"{use.workers_cpu * 100:.0f}%, RSS {use.bot_rss // 1024} MiB"
            )
        print(f"errors in the bot's log: {logged_errors}")
        for line in server_line:
            print(line)
        print(
            f"memory a live game costs (the bot and its helpers, PSS, before the games opened "
            f"-> at the end, over {args.games} games): {family_before // 1024} -> "
            f"{family_after // 1024} MiB, {(family_after - family_before) / args.games:.1f} KiB "
            "a game"
        )
        print(
            f"fake Discord and players (this process): CPU "
            f"{(own_after - own_before) / args.seconds * 100:.0f}% of one core"
        )
    finally:
        await fake.stop()
        if schema is not None and not args.keep:
            await drop_schema(args.postgres, schema)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
