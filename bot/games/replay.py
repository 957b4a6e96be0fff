"""A game played again from its move log: the log alone, with the seats and preset the game
started with, gives back the state the store holds, or says where the two part.

Every change to a running game is logged with what it needs to be made again: the dice a
roll left on the table (a computer player's roll also its holds), the die a hold toggled,
the box a scoring filled with its points, whom a kick removed. The engine makes each move
again with those dice, so every rule is checked a second time, and the points the log
claims are compared with the points the engine gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine import (
    Category,
    Dice,
    Game,
    Preset,
    RuleError,
    ScoreResult,
    ScriptedDice,
    TimeoutPolicy,
)

from .seats import player_id

#: (version, user id, action, detail, dice) as ``Store.moves`` gives them, oldest first.
LogEntry = tuple[int, int | None, str, str | None, str | None]

#: Moves of a running game that change what is stored about it, but not its engine state.
#: (A lobby's moves, before ``start``, have no engine state to change.)
NO_STATE_CHANGE = frozenset(
    {"ping", "notify", "thread", "pictures-off", "end", "unreachable", "idle-timeout", "rematch"}
)


class ReplayMismatch(AssertionError):
    """The move log does not lead to the state on record; says at which move."""


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed game and how many of its logged moves changed the engine state."""

    game: Game | None  # None: the game never started
    moves: int


def held_mask(held: Sequence[bool]) -> str:
    """Holds as the log writes them: ``10100`` holds the first and third dice."""
    return "".join("1" if h else "0" for h in held)


def scoring_detail(result: ScoreResult) -> str:
    """A scoring as the log writes it: ``"fours 20 +100"`` (box, points, Yahtzee bonus)."""
    return f"{result.category.value} {result.points}" + (
        f" +{result.bonus}" if result.bonus else ""
    )


#: Told of every move the replay makes: the log entry, the game after it, and the dice that
#: stayed on the table through it (what a roll kept).
Watcher = Callable[[LogEntry, Game, tuple[int, ...]], None]


def replay(
    players: Sequence[tuple[int, str]],
    preset: Preset,
    timeout_policy: str,
    log: Iterable[LogEntry],
    watch: Watcher | None = None,
) -> Replay:
    """Play a game again from its move log; raises ``ReplayMismatch`` where the log cannot
    have happened (a move the rules refuse, dice a roll cannot give, points that differ)."""
    dice = ScriptedDice()
    game: Game | None = None
    made = 0
    last: int | None = None
    for version, user_id, action, detail, shown in log:
        where = f"move {version} ({action} {detail or ''} {shown or ''})".rstrip()
        if last is not None and version != last + 1:
            raise ReplayMismatch(f"{where}: a gap in the log after move {last}")
        last = version
        if action == "start":
            game = Game([(player_id(uid), name) for uid, name in players], preset, dice)
            continue
        if game is None or action in NO_STATE_CHANGE:
            continue  # a lobby's moves, or a move that touches no engine state
        try:
            kept = _kept(game, action, detail)
            _apply(game, dice, user_id, action, detail, shown, timeout_policy)
        except (RuleError, ValueError, LookupError) as exc:
            raise ReplayMismatch(f"{where}: {exc}") from exc
        made += 1
        if watch is not None:
            watch((version, user_id, action, detail, shown), game, kept)
    return Replay(game, made)


def _apply(
    game: Game,
    dice: ScriptedDice,
    user_id: int | None,
    action: str,
    detail: str | None,
    shown: str | None,
    timeout_policy: str,
) -> None:
    """Make one logged move on ``game``; the rolled faces come from the log's dice."""
    who = player_id(user_id) if user_id is not None else game.current_player_id
    if action in ("roll", "bot-roll"):
        if action == "bot-roll" and game.dice is not None and detail:
            game.set_held(who, [c == "1" for c in detail])
        _script_roll(game, dice, shown)
        rolled = game.roll(who, opening=action == "roll" and detail == "opening")
        _same_dice(rolled, shown)
    elif action == "timeout-roll":  # a roll the timer made for the player (play policy)
        mask = [c == "1" for c in detail] if game.dice is not None and detail else None
        _script_roll(game, dice, shown, mask)
        _same_dice(game.roll_for_them(mask), shown)
    elif action == "hold":
        index = int((detail or "").rsplit(" ", 1)[-1]) - 1
        held = game.toggle_hold(who, index)
        if (detail or "").startswith("hold") != held:
            raise ReplayMismatch(f"the log says {detail!r}, the game {'held' if held else 'freed'}")
    elif action in ("score", "bot-score", "timeout"):
        box, points, bonus = _scoring(detail)
        if action == "timeout" and TimeoutPolicy(timeout_policy) is TimeoutPolicy.PLAY:
            result = game.timeout(timeout_policy, box)  # the box its stand-in chose
        elif action == "timeout":
            if game.dice is None:
                _script_roll(game, dice, shown)
            result = game.timeout(timeout_policy)
            if result.category is not box:
                raise ReplayMismatch(f"the timer chose {result.category.value}, the log {box}")
        else:
            result = game.score(who, box)
        _same_dice(result.dice, shown)
        if (result.points, result.bonus) != (points, bonus):
            raise ReplayMismatch(
                f"the engine scores {result.points} +{result.bonus}, the log {points} +{bonus}"
            )
    elif action == "undo":
        game.undo(who)
    elif action == "leave":
        game.leave(who)
    elif action == "kick":
        game.leave(str(detail))
    elif action == "rejoin":
        game.rejoin(who)
    else:
        raise ReplayMismatch(f"an action the replay does not know: {action!r}")


def _kept(game: Game, action: str, detail: str | None) -> tuple[int, ...]:
    """The dice a roll about to be made keeps on the table, sorted."""
    if game.dice is None or action not in ("roll", "bot-roll", "timeout-roll"):
        return ()
    by_mask = action in ("bot-roll", "timeout-roll") and detail
    held = [c == "1" for c in detail] if by_mask and detail else game.held
    return tuple(sorted(face for face, h in zip(game.dice, held, strict=True) if h))


@dataclass
class Turn:
    """One turn told as it was played: each roll (the dice it kept, the dice it showed),
    then the box scored (``by``: "score", "bot-score", or "timeout" for the timer)."""

    name: str
    rolls: list[tuple[tuple[int, ...], str]] = field(default_factory=list)
    box: Category | None = None
    points: int = 0
    bonus: int = 0
    by: str = "score"


def story(
    players: Sequence[tuple[int, str]], preset: Preset, timeout_policy: str, log: Iterable[LogEntry]
) -> list[Turn]:
    """A finished or running game's turns, from its move log (an Undo takes its scoring back,
    and the turn goes on)."""
    turns: list[Turn] = []
    current: list[Turn] = []

    def watch(entry: LogEntry, game: Game, kept: tuple[int, ...]) -> None:
        _, _, action, detail, shown = entry
        if action in ("roll", "bot-roll", "timeout-roll"):
            if not current:
                current.append(Turn(game.current_seat.name))
            current[0].rolls.append((kept, shown or ""))
        elif action in ("score", "bot-score", "timeout"):
            box, points, bonus = _scoring(detail)
            turn = current.pop() if current else Turn(_scorer(game))
            if action == "timeout" and not turn.rolls:
                turn.rolls.append(((), shown or ""))
            turn.box, turn.points, turn.bonus, turn.by = box, points, bonus, action
            turns.append(turn)
        elif action == "undo" and turns:
            current[:] = [turns.pop()]

    replay(players, preset, timeout_policy, log, watch)
    return turns


def _scorer(game: Game) -> str:
    """The name of whoever scored last (the seat before the one to play)."""
    return game.seats[(game.current - 1) % len(game.seats)].name


def _script_roll(
    game: Game, dice: ScriptedDice, shown: str | None, holds: Sequence[bool] | None = None
) -> None:
    """Queue the faces the logged roll brought: those of the dice not held (``holds``, if
    the roll sets its own, else the game's)."""
    after = Dice.parse(shown or "")
    held = (holds if holds is not None else game.held) if game.dice is not None else (False,) * 5
    dice.extend(face for face, kept in zip(after, held, strict=True) if not kept)


def _same_dice(dice: Dice, shown: str | None) -> None:
    if shown is not None and dice != Dice.parse(shown):
        raise ReplayMismatch(f"the dice are {dice}, the log says {shown}")


def _scoring(detail: str | None) -> tuple[Category, int, int]:
    """``"full_house 25"`` or ``"fours 20 +100"`` as (box, points, bonus)."""
    parts = (detail or "").split()
    if len(parts) < 2:
        raise ReplayMismatch(f"a scoring without its box and points: {detail!r}")
    bonus = int(parts[2].lstrip("+")) if len(parts) > 2 else 0
    return Category(parts[0]), int(parts[1]), bonus
