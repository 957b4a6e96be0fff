"""A large database: python benchmarks/scale.py [--finished N] [--live M] [--rounds R]

Fills a SQLite file with N finished games (default 100,000: two players each, their result
rows, a short move log; ``--old`` of them ended 31 to 60 days ago with a whole game's move
log, for retention to prune) and M live games (default 1,000, each in a channel of its own,
across 100 servers), in one transaction through the store. Then runs the real bot (the same
YahtzeeBot and setup_hook as ``python -m bot``, in this process) against the fake Discord of
tests/e2e, first on an empty database and then on the full one, and prints for each:

- every command's and click's time from the interaction to its answer, p50 and p99 over R
  rounds (a round: a lobby opened, joined and started, a Roll, a hold, a box scored,
  /yahtzee scorecard in a channel whose 500 games are over, /yahtzee scorecard, board,
  rules, leaderboard, stats and end where the game is, and its End the game);
- the event loop's longest stall (a probe: a task that sleeps 5 ms and records how late it
  wakes) while nothing happens, during 30 /metrics scrapes, during retention
  (``KEEP_MOVES_DAYS=30``: what the bot's hourly task runs), and during 200 channel and 40
  thread deletions (``CHANNEL_DELETE`` and ``THREAD_DELETE`` from the gateway; 20 of the
  channels and threads with a live game).

The bot shares this process's event loop with the fake Discord and the players, so a stall
measured is the longest time nothing else could run on it, whoever held it. Beside each
stall, in brackets, the most CPU the loop's thread spent in one wait of the probe: the
loop's own work, without the time the shared machine did not run the process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import discord  # noqa: E402
import yarl  # noqa: E402

from bot.app import YahtzeeBot  # noqa: E402
from bot.engine import Game, RandomDice  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import Store, open_store, plans  # noqa: E402
from bot.store.sql import Plan, Query, WritePlan  # noqa: E402
from bot.strategy import solve  # noqa: E402
from bot.strategy.table_file import save, table_path  # noqa: E402
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, find_component, snowflake  # noqa: E402

TOKEN = "fake.bot.token"
HOST, GUEST = 111111111111111111, 222222222222222222  # the ids in the stored states
KEEP_DAYS = 30
PROBE = 0.005


def stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def played_game(rng: random.Random, turns: int | None) -> dict[str, Any]:
    """A two-player game's state (the engine's JSON), after ``turns`` scorings (None: to
    the end), each turn one roll and the first box offered."""
    game = Game([(str(HOST), "Host"), (str(GUEST), "Guest")], "official", RandomDice(rng))
    done = 0
    while not game.is_over and (turns is None or done < turns):
        player = game.current_player_id
        game.roll(player)
        game.score(player, next(iter(game.options())))
        done += 1
    return game.to_dict()


GAME_SQL = (
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, preset, players, state, "
    "version, board_message_id, board_turn, board_version, final_message_id, created_at, "
    "updated_at, finished_at, last_move_at, thread_id) "
    "VALUES (?, ?, ?, ?, ?, 'official', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
MOVE_SQL = (
    "INSERT INTO moves (game_id, version, user_id, action, detail, dice, at) "
    "VALUES (?, ?, ?, ?, NULL, ?, ?)"
)
RESULT_SQL = (
    "INSERT INTO results (game_id, guild_id, channel_id, user_id, total, upper_total, "
    "upper_bonus, yahtzees, yahtzee_bonuses, place, seats, preset, finished_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 2, 'official', ?)"
)


class Filled:
    """What the fill made that the measurements use."""

    def __init__(self) -> None:
        self.history: str = ""  # a channel of the fake's server whose games are all over
        self.doomed_channels: list[str] = []  # channels of the fake's server with a live game
        self.doomed_threads: list[int] = []  # threads with a live game
        self.old_games = 0


def fill_plan(
    args: argparse.Namespace, fake: FakeDiscord, rng: random.Random, filled: Filled
) -> WritePlan[[], None]:
    """The unit of work that fills the database (rows made beforehand, sent in batches)."""
    now = datetime.now(UTC)
    finished_state = json.dumps(played_game(rng, None))
    live_state = json.dumps(played_game(rng, 6))
    live_turn = Game.from_dict(json.loads(live_state)).turn_number
    guilds = [GUILD_ID] + [int(snowflake()) for _ in range(99)]
    history = fake.add_channel("history")["id"]
    filled.history = history
    users = [int(snowflake()) for _ in range(5000)]
    games: list[tuple[Any, ...]] = []
    moves: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    channels = [int(snowflake()) for _ in range(2000)]
    game_id = 0

    def who(host: int, guest: int) -> tuple[str, str]:
        players = json.dumps([[host, f"P{host % 10000}"], [guest, f"P{guest % 10000}"]])
        state = finished_state.replace(str(HOST), str(host)).replace(str(GUEST), str(guest))
        return players, state

    for i in range(args.finished):
        game_id += 1
        host, guest = rng.sample(users, 2)
        if i < 500:  # the history channel of the fake's server, 50 of them in threads of it
            guild, channel = GUILD_ID, int(history)
            thread = int(snowflake()) if i % 10 == 0 else None
        else:
            guild = guilds[i % len(guilds)]
            channel = channels[i % len(channels)]
            thread = int(snowflake()) if i % 10 == 0 else None
        old = i >= args.finished - args.old
        ended = now - (
            timedelta(days=rng.uniform(31, 60)) if old else timedelta(days=rng.uniform(0, 29))
        )
        at = stamp(ended)
        players, state = who(host, guest)
        steps = 100 if old else 4
        games.append((game_id, guild, channel, host, "finished", players, state, steps,
                      None, None, None, int(snowflake()), at, at, at, at, thread))  # fmt: skip
        moves.extend((game_id, v, host, "roll", "1-2-3-4-5", at) for v in range(1, steps + 1))
        for place, user in enumerate((host, guest), 1):
            total = rng.randint(120, 320)
            results.append((game_id, guild, channel, user, total, min(total // 3, 90),
                            35 if total > 240 else 0, int(total > 280), place, at))  # fmt: skip
    filled.old_games = args.old
    for i in range(args.live):
        game_id += 1
        host, guest = rng.sample(users, 2)
        players, _ = who(host, guest)
        state = live_state.replace(str(HOST), str(host)).replace(str(GUEST), str(guest))
        thread = None
        if i < 40:  # in the fake's server: the channels and threads the deletions remove
            guild = GUILD_ID
            channel = int(fake.add_channel(f"doomed-{i}")["id"])
            if i % 2:
                thread = int(snowflake())
                filled.doomed_threads.append(thread)
            else:
                filled.doomed_channels.append(str(channel))
        else:
            guild, channel = guilds[1 + i % (len(guilds) - 1)], int(snowflake())
        at = stamp(now)
        games.append((game_id, guild, channel, host, "active", players, state, 20,
                      int(snowflake()), live_turn, 20, None, at, at, None, at, thread))  # fmt: skip
        moves.extend((game_id, v, host, "roll", "1-2-3-4-5", at) for v in range(1, 21))

    def batches(rows: list[tuple[Any, ...]], size: int = 20000) -> Iterator[list[tuple[Any, ...]]]:
        for start in range(0, len(rows), size):
            yield rows[start : start + size]

    @WritePlan
    def plan() -> Plan[None]:
        for sql, rows in ((GAME_SQL, games), (MOVE_SQL, moves), (RESULT_SQL, results)):
            for chunk in batches(rows):
                yield Query(sql, chunk, many=True)

    return plan


class Probe:
    """The loop-lag probe: sleeps 5 ms again and again, and keeps how late each wake was
    and how much CPU the loop's thread spent meanwhile (on a shared machine a wake is also
    late when the process is not scheduled; the CPU is the loop's own work)."""

    def __init__(self) -> None:
        self.wakes: list[tuple[float, float, float]] = []  # (woke, late, CPU), seconds
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            before, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(PROBE)
            woke = time.monotonic()
            self.wakes.append((woke, woke - before - PROBE, time.thread_time() - cpu))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="loop-lag-probe")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def worst(self, begin: float, end: float) -> tuple[float, float]:
        """The longest stall between ``begin`` and ``end``, and the most CPU one held."""
        wakes = [(late, cpu) for woke, late, cpu in self.wakes if begin <= woke <= end]
        return max((w[0] for w in wakes), default=0.0), max((w[1] for w in wakes), default=0.0)

    async def longest(self, work: Callable[[], Awaitable[Any]]) -> tuple[tuple[float, float], Any]:
        """The longest stall while ``work`` runs and its most CPU, and what it returned."""
        begin = time.monotonic()
        result = await work()
        await asyncio.sleep(2 * PROBE)  # the wake after the last stall
        return self.worst(begin, time.monotonic()), result


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def start_bot(fake: FakeDiscord, database: Path, port: int) -> tuple[YahtzeeBot, Any]:
    settings = Settings(token=TOKEN, database_path=database, bot_move_delay=0, metrics_port=port)
    bot = YahtzeeBot(settings, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(TOKEN), name="bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({ready, task}, timeout=120, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    assert ready in done, "the bot did not become ready"
    bot.ready_at = time.monotonic()  # type: ignore[attr-defined]
    await fake.settle(quiet=0.5, limit=120)
    return bot, task


class Player:
    """One round after another in channels of the fake's server, timing every answer."""

    def __init__(self, fake: FakeDiscord, history: str, rounds: int) -> None:
        self.fake, self.history = fake, history
        # made before the bot connects: it knows the channels of its servers from the gateway
        self.channels = [fake.add_channel(f"round-{i}-{snowflake()}")["id"] for i in range(rounds)]
        self.host = fake.user("Host")
        self.guest = fake.user("Guest")
        self.times: dict[str, list[float]] = {}
        self.failures: dict[str, int] = {}

    def note(self, kind: str, record: Any) -> None:
        if record.answered is None or record.error:
            self.failures[kind] = self.failures.get(kind, 0) + 1
            return
        self.times.setdefault(kind, []).append(record.answered - record.created)

    async def command(self, kind: str, channel: str, command: str) -> Any:
        record = await self.fake.slash(self.host, channel, command, 20, quiet=False)
        self.note(kind, record)
        await asyncio.sleep(0.05)
        return record

    async def click(self, kind: str, user: dict[str, Any], message: dict[str, Any],
                    custom_id: str, values: list[str] | None = None) -> Any:  # fmt: skip
        record = await self.fake.press(user, message, custom_id, values)
        await asyncio.wait_for(record.responded.wait(), 20)
        self.note(kind, record)
        await asyncio.sleep(0.05)
        return record

    async def round(self, index: int) -> None:
        fake = self.fake
        channel = self.channels[index]
        start = await self.command("/yahtzee start", channel, "yahtzee start")
        lobby = fake.messages[start.original_message_id]
        join = find_component(lobby, "Join")
        assert join is not None, lobby
        await self.click("Join", self.guest, lobby, join["custom_id"])
        begin = find_component(fake.messages[lobby["id"]], "Start")
        assert begin is not None
        await self.click("Start", self.host, lobby, begin["custom_id"])
        await fake.wait_for(lambda: fake.live_boards(channel) != [], 20)
        board = fake.live_boards(channel)[-1]
        roll = find_component(board, "Roll")
        assert roll is not None
        await self.click("Roll", self.host, board, roll["custom_id"])
        board = fake.messages[board["id"]]
        die = board["components"][0]["components"][0]
        await self.click("hold", self.host, board, die["custom_id"])
        board = fake.messages[board["id"]]
        select = next(c for r in board["components"] for c in r["components"] if c["type"] == 3)
        await self.click(
            "box", self.host, board, select["custom_id"], [select["options"][0]["value"]]
        )
        await fake.wait_for(lambda: len(fake.live_boards(channel)) == 1
                            and fake.live_boards(channel)[-1]["id"] != board["id"], 20)  # fmt: skip
        await self.command("/yahtzee scorecard (games over)", self.history, "yahtzee scorecard")
        await self.command("/yahtzee scorecard", channel, "yahtzee scorecard")
        await self.command("/yahtzee board", channel, "yahtzee board")
        await self.command("/yahtzee rules", channel, "yahtzee rules")
        await self.command("/yahtzee leaderboard", channel, "yahtzee leaderboard")
        await self.command("/yahtzee stats", channel, "yahtzee stats")
        asked = await self.command("/yahtzee end", channel, "yahtzee end")
        confirm = find_component(asked.response, "End the game")
        assert confirm is not None, asked.response
        await self.click("End the game", self.host, asked.response, confirm["custom_id"])


async def scrape(port: int, times: int) -> int:
    size = 0
    async with aiohttp.ClientSession() as session:
        for _ in range(times):
            async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                size = len(await response.read())
            await asyncio.sleep(0.05)
    return size


async def deletions(fake: FakeDiscord, bot: YahtzeeBot, doomed: list[str],
                    threads: list[int], others: list[str]) -> int:  # fmt: skip
    """Channels (some with a live game) and threads deleted, one gateway event each;
    returns how many games they ended."""
    counts = await bot.store.read(
        plans.games_by_status
    )  # (not the live games: reading them stalls)
    before = sum(counts.get(s, 0) for s in ("lobby", "active"))
    for channel in doomed + others:
        await fake.dispatch("CHANNEL_DELETE", fake._channel_payload(channel))
        await asyncio.sleep(0.01)
    for thread in threads + [int(snowflake()) for _ in range(20)]:
        payload = {
            "id": str(thread),
            "guild_id": str(GUILD_ID),
            "parent_id": fake.channel("general"),
            "type": 11,
        }
        await fake.dispatch("THREAD_DELETE", payload)
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    after = await bot.store.read(plans.games_by_status)
    return before - sum(after.get(s, 0) for s in ("lobby", "active"))


async def measure(
    name: str, database: Path, fake: FakeDiscord, filled: Filled, args: Any
) -> dict[str, Any]:
    port = free_port()
    player = Player(fake, filled.history or fake.channel("general"), args.rounds + 1)
    bystanders = [fake.add_channel(f"bystander-{i}")["id"] for i in range(200)]
    probe = Probe()
    probe.start()
    started = time.monotonic()
    bot, task = await start_bot(fake, database, port)
    ready_in = time.monotonic() - started
    ready_at = bot.ready_at  # type: ignore[attr-defined]
    setup_stall = probe.worst(0.0, ready_at)
    ready_stall = probe.worst(ready_at, time.monotonic())
    out: dict[str, Any] = {
        "ready": ready_in,
        "setup stall": setup_stall,
        "ready stall": ready_stall,
    }
    try:
        out["idle"], _ = await probe.longest(lambda: asyncio.sleep(3))
        await player.round(args.rounds)  # warm: the first drawing, the first answers
        player.times.clear()
        for index in range(args.rounds):
            await player.round(index)
        out["times"], out["failures"] = player.times, player.failures
        out["metrics"], out["metrics size"] = await probe.longest(lambda: scrape(port, 30))
        keep = bot.games.history.prune_moves
        begin = time.monotonic()
        out["retention"], out["pruned"] = await probe.longest(lambda: keep(KEEP_DAYS))
        out["retention time"] = time.monotonic() - begin
        begin = time.monotonic()
        out["deletions"], out["ended"] = await probe.longest(
            lambda: deletions(fake, bot, filled.doomed_channels, filled.doomed_threads, bystanders)
        )
        repairs = bot.get_cog("Gateway").repairs  # type: ignore[union-attr]
        out["repairs"], _ = await probe.longest(repairs.repair_all)
        out["counts"] = await bot.store.read(plans.games_by_status)
    finally:
        probe.stop()
        await bot.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    return out


def report(empty: dict[str, Any], full: dict[str, Any], args: Any) -> None:
    print(f"\n{'answer (ms)':<34}{'empty p50':>10}{'p99':>8}{'full p50':>10}{'p99':>8}")
    for kind in full["times"]:
        a, b = empty["times"].get(kind, [float("nan")]), full["times"][kind]
        figures = [statistics.median(a), percentile(a, 0.99), statistics.median(b),
                   percentile(b, 0.99)]  # fmt: skip
        ms = [f * 1000 for f in figures]
        print(f"{kind:<34}{ms[0]:>10.1f}{ms[1]:>8.1f}{ms[2]:>10.1f}{ms[3]:>8.1f}")
    if empty["failures"] or full["failures"]:
        print(f"failed answers: empty {empty['failures']}, full {full['failures']}")
    print(f"\n{'longest event-loop stall (ms)':<38}{'empty':>8}{'(CPU)':>8}{'full':>8}{'(CPU)':>8}")
    for key, label in (("idle", "nothing happening (3 s)"), ("metrics", "30 /metrics scrapes"),
                       ("retention", "retention (KEEP_MOVES_DAYS=30)"),
                       ("deletions", "240 channel/thread deletions"),
                       ("repairs", "a reconnect's repair of every board"),
                       ("setup stall", "start-up (setup_hook) until ready"),
                       ("ready stall", "ready: boards checked (repair_all)")):  # fmt: skip
        (a, a_cpu), (b, b_cpu) = empty[key], full[key]
        ms = [f * 1000 for f in (a, a_cpu, b, b_cpu)]
        print(f"{label:<38}{ms[0]:>8.1f}{ms[1]:>8.1f}{ms[2]:>8.1f}{ms[3]:>8.1f}")
    print(f"\nfull database: ready in {full['ready']:.1f} s; retention pruned {full['pruned']} "
          f"games' move logs in {full['retention time']:.1f} s; the deletions ended "
          f"{full['ended']} live games; /metrics {full['metrics size']:,} B; "
          f"games by status at the end: {full['counts']}")  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=1_000)
    parser.add_argument("--old", type=int, default=2_000, help="finished games to prune")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the data folder")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="yahtzee-scale-"))
    rng = random.Random(args.seed)
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    gateway = yarl.URL(f"ws://127.0.0.1:{fake.port}/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
    try:
        table = table_path(work / "data", "official")
        table.parent.mkdir(parents=True)
        built = table_path(ROOT / "data", "official")
        if built.exists():
            shutil.copy(built, table)
        else:
            save(solve("official"), table)
        empty_db, full_db = work / "data" / "empty.sqlite3", work / "data" / "yahtzee.sqlite3"
        await (await open_store(empty_db)).close()
        store: Store = await open_store(full_db)
        filled = Filled()
        began = time.monotonic()
        plan = fill_plan(args, fake, rng, filled)
        made = time.monotonic() - began
        await store.write(plan)
        await store.close()
        del plan  # its rows (a million tuples) would make every full collection of the
        gc.collect()  # garbage collector a stall of the loop measured below
        print(f"filled {full_db.stat().st_size / 2**20:.0f} MiB: {args.finished:,} finished "
              f"games ({args.old:,} of them older than {KEEP_DAYS} days) and {args.live:,} "
              f"live, rows made in {made:.1f} s, written in "
              f"{time.monotonic() - began - made:.1f} s")  # fmt: skip
        os.environ.pop("KEEP_MOVES_DAYS", None)
        empty = await measure("empty", empty_db, fake, Filled(), args)
        full = await measure("full", full_db, fake, filled, args)
        report(empty, full, args)
    finally:
        await fake.stop()
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
