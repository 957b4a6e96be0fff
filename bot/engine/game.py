"""A multiplayer game: seats in order, 13 rounds, rolls and holds, scoring, undo, ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.i18n.words import Name

from .categories import Category
from .dice import DICE_COUNT, DailyDice, Dice, DiceSource, RandomDice
from .errors import (
    GameOver,
    InvalidDice,
    InvalidGame,
    InvalidState,
    MustRollFirst,
    NoRollsLeft,
    NotAway,
    NothingToUndo,
    NotInGame,
    NotYourTurn,
)
from .presets import Preset
from .scorecard import BoxOption, Scorecard
from .seats import (
    AWAY_AFTER_TIMEOUTS,
    FORMAT_VERSION,
    MAX_SEATS,
    MIN_SEATS,
    NO_HOLDS,
    ROLLS_PER_TURN,
    ROUNDS,
    ScoreResult,
    Seat,
    Standing,
    TimeoutPolicy,
    seat_from_dict,
    seat_to_dict,
)


@dataclass(frozen=True, slots=True)
class _UndoPoint:
    """Everything a scoring changed, so that undo puts it back exactly."""

    seat: int
    before: Seat
    dice: Dice
    held: tuple[bool, ...]
    rolls_used: int
    #: the next player's opening roll, made while this scoring could still be undone: an
    #: Undo keeps those dice for them (``Game._opening``), so it never re-rolls their turn
    opening: Dice | None = None


class Game:
    """A game in progress or finished; every move checks the rules before it changes anything.

    Moves raise a ``RuleError`` subclass whose message can be shown to the player as it is.
    Dice come from ``dice_source`` (fair, from ``random.SystemRandom``, unless one is given).
    """

    def __init__(
        self,
        players: Sequence[str | tuple[str, str]],
        preset: Preset | str = Preset.OFFICIAL,
        dice_source: DiceSource | None = None,
    ) -> None:
        self.preset = Preset.parse(preset)
        seats: list[Seat] = []
        for player in players:
            player_id, name = (player, player) if isinstance(player, str) else player
            seats.append(Seat(str(player_id), str(name), Scorecard(self.preset)))
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise InvalidGame(
                "A game needs {least} to {most} players, not {count}.",
                least=MIN_SEATS,
                most=MAX_SEATS,
                count=len(seats),
            )
        ids = [s.player_id for s in seats]
        if len(set(ids)) != len(ids):
            raise InvalidGame("A player cannot take two seats in one game.")
        self.seats: list[Seat] = seats
        self.current = 0
        self.dice: Dice | None = None
        self.held: tuple[bool, ...] = NO_HOLDS
        self.rolls_used = 0
        self._undo: _UndoPoint | None = None
        #: (seat, dice): an opening roll an Undo took off the table, the seat's again when
        #: the turn passes to it next
        self._opening: tuple[int, Dice] | None = None
        self.dice_source: DiceSource = dice_source if dice_source is not None else RandomDice()

    # -- reading the game --------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """No seat takes turns any more: each has played its 13, left, or is away."""
        return not any(seat.playing for seat in self.seats)

    @property
    def completed(self) -> bool:
        """Some seat played all 13 turns (a game that ended with everyone away did not)."""
        return any(seat.turns >= ROUNDS for seat in self.seats)

    @property
    def current_seat(self) -> Seat:
        """The seat whose turn it is (the last one to play, once the game is over)."""
        return self.seats[self.current]

    @property
    def current_player_id(self) -> str:
        """The id of the player whose turn it is."""
        return self.current_seat.player_id

    @property
    def rolls_left(self) -> int:
        """Rolls the current player still has this turn."""
        return ROLLS_PER_TURN - self.rolls_used

    @property
    def round(self) -> int:
        """The round being played, 1 to 13."""
        return min(self.current_seat.turns + 1, ROUNDS)

    @property
    def turn_number(self) -> int:
        """How many turns have been completed in the whole game (rises by one per scoring)."""
        return sum(seat.turns for seat in self.seats)

    @property
    def undo_player_id(self) -> str | None:
        """Who may undo their last scoring right now, if anyone."""
        return self.seats[self._undo.seat].player_id if self._undo else None

    def seat_of(self, player_id: str) -> int:
        """The seat index of a player, or ``NotInGame``."""
        for index, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return index
        raise NotInGame("You are not playing in this game.")

    def options(self) -> dict[Category, int]:
        """The boxes the current player may take with the dice on the table, with points."""
        if self.dice is None:
            return {}
        return self.current_seat.card.options(self.dice)

    def choices(self) -> list[BoxOption]:
        """``options`` with what each box means (bonus, Joker, forced, bonus turn)."""
        if self.dice is None:
            return []
        return self.current_seat.card.choices(self.dice)

    def standings(self) -> list[Standing]:
        """Seats ranked by grand total; equal totals share a place (1, 2, 2, 4)."""
        playing = [(i, s) for i, s in enumerate(self.seats) if not s.left]
        playing.sort(key=lambda item: -item[1].card.total)
        ranked: list[Standing] = []
        for position, (index, seat) in enumerate(playing):
            total = seat.card.total
            place = ranked[-1].place if ranked and ranked[-1].total == total else position + 1
            ranked.append(Standing(place, index, seat.player_id, seat.name, total))
        ranked.extend(
            Standing(None, i, s.player_id, s.name, s.card.total)
            for i, s in enumerate(self.seats)
            if s.left
        )
        return ranked

    # -- moves -------------------------------------------------------------------------------

    def _check_turn(self, player_id: str) -> None:
        if self.is_over:
            raise GameOver("The game is over: start a new one to play again.")
        if player_id != self.current_player_id:
            # a stranger hears that they are not playing, a leaver that they left
            if self.seats[self.seat_of(player_id)].left:
                raise NotInGame("You left this game: you can watch, but not play in it.")
            raise NotYourTurn(
                "It's {name}'s turn: wait for yours.", name=Name(self.current_seat.name)
            )

    def roll(self, player_id: str, opening: bool = False, by_timer: bool = False) -> Dice:
        """Roll every die not held (all five on the turn's first roll).

        ``opening``: the turn's first roll, made for the player as their turn starts (their
        choice, or their server's: it is never a decision). It is not the player's own move
        (a run of timeouts goes on) and it leaves the last scoring's Undo open: an Undo then
        keeps these dice for this player's turn. ``by_timer``: a roll of a turn played for
        the player whose time ran out (``roll_for_them``): not their move either."""
        self._check_turn(player_id)
        if self.rolls_used >= ROLLS_PER_TURN:
            raise NoRollsLeft("You have used all three rolls: pick a box to score.")
        if opening and self.rolls_used:
            raise InvalidDice("An opening roll is a turn's first roll.")
        if self.dice is None:
            held = NO_HOLDS
            old: list[int] = [1] * DICE_COUNT
        else:
            held = self.held
            old = list(self.dice)
        if not opening and not by_timer:
            self._present()
        source = self.dice_source
        if isinstance(source, DailyDice):  # the day's dice: a face for every position
            faces = source.faces(self.current_seat.turns, self.rolls_used)
            rolled = Dice([old[i] if held[i] else faces[i] for i in range(DICE_COUNT)])
        else:
            new = iter(source.roll(held.count(False)))
            rolled = Dice([old[i] if held[i] else next(new) for i in range(DICE_COUNT)])
        self.dice = rolled
        self.held = held
        self.rolls_used += 1
        if opening and self._undo is not None:
            self._undo = replace(self._undo, opening=rolled)
        else:
            self._undo = None  # the undo window closes with the next roll
        return rolled

    def _check_hold(self, player_id: str) -> None:
        self._check_turn(player_id)
        if self.dice is None:
            raise MustRollFirst("Roll the dice first: you can hold dice after a roll.")
        if self.rolls_used >= ROLLS_PER_TURN:
            raise NoRollsLeft("That was your last roll: pick a box to score.")

    def toggle_hold(self, player_id: str, index: int) -> bool:
        """Hold a die that is free, or release one that is held; returns the new hold state."""
        self._check_hold(player_id)
        if not 0 <= index < DICE_COUNT:
            raise InvalidDice(
                "There is no die number {number}: dice are numbered 1 to 5.", number=index + 1
            )
        held = list(self.held)
        held[index] = not held[index]
        self.held = tuple(held)
        self._present()
        return held[index]

    def set_held(self, player_id: str, held: Sequence[bool]) -> None:
        """Set which of the five dice are held before the next roll."""
        self._check_hold(player_id)
        if len(held) != DICE_COUNT:
            raise InvalidDice("Say for each of the five dice whether it is held.")
        self.held = tuple(bool(h) for h in held)
        self._present()

    def _present(self) -> None:
        """The current player moved themselves: their run of timeouts is over."""
        seat = self.current_seat
        if seat.timeouts:
            self.seats[self.current] = replace(seat, timeouts=0)

    def score(self, player_id: str, category: Category) -> ScoreResult:
        """Score the dice on the table in a box and pass the turn on."""
        self._check_turn(player_id)
        if self.dice is None:
            raise MustRollFirst("Roll the dice first: a box is scored after a roll.")
        seat = self.current_seat
        dice = self.dice
        points = seat.card.options(dice).get(category)
        bonus_turn = seat.card.bonus_turn_available(dice) and category is Category.YAHTZEE
        bonus = 0 if bonus_turn else seat.card.bonus_for(dice)
        card = seat.card.fill(category, dice)  # raises if the box is not allowed
        self._undo = _UndoPoint(self.current, seat, dice, self.held, self.rolls_used)
        self.seats[self.current] = replace(seat, card=card, turns=seat.turns + 1, timeouts=0)
        self._next_turn()
        if self.dice is not None:  # an opening roll an Undo kept is on the table again
            self._undo = replace(self._undo, opening=self.dice)
        if self.is_over:
            self._undo = None  # the last scoring of the game is final
        return ScoreResult(
            seat.player_id, category, points if points is not None else 0, bonus, dice, bonus_turn
        )

    def undo(self, player_id: str) -> None:
        """Take back this player's last scoring, if the next roll has not happened yet."""
        point = self._undo
        if self.is_over:
            raise GameOver("The game is over: its last scoring cannot be undone.")
        if point is None or self.seats[point.seat].player_id != player_id:
            self.seat_of(player_id)
            raise NothingToUndo(
                "There is nothing of yours to undo: undo works only on your last scoring, "
                "before the next roll."
            )
        if point.opening is not None:  # the next player's opening roll waits for them
            self._opening = (self.current, point.opening)
        self.seats[point.seat] = point.before
        self.current = point.seat
        self.dice = point.dice
        self.held = point.held
        self.rolls_used = point.rolls_used
        self._undo = None

    def roll_for_them(self, held: Sequence[bool] | None = None) -> Dice:
        """A roll of the current player's turn made for them, their time having run out
        (``TimeoutPolicy.PLAY``): the dice ``held`` stay (None: the turn's first roll). The
        rules of a roll hold; it is not the player's own move (their run of timeouts goes
        on)."""
        player = self.current_player_id
        if held is not None and self.dice is not None:
            self._check_hold(player)
            if len(held) != DICE_COUNT:
                raise InvalidDice("Say for each of the five dice whether it is held.")
            self.held = tuple(bool(h) for h in held)
        return self.roll(player, by_timer=True)

    def timeout(
        self, policy: TimeoutPolicy | str = TimeoutPolicy.SCRATCH, box: Category | None = None
    ) -> ScoreResult:
        """The current player's time ran out: play the turn for them.

        Under ``scratch`` and ``skip-seat``: rolls if they had not rolled, then takes the
        lowest-value legal box (``Scorecard.scratch_choice``); under ``skip-seat`` a second
        timeout in a row marks the seat away: it is skipped until the player rejoins. Under
        ``play``: scores ``box``, the box a stand-in chose for the dice on the table after
        the rolls it made (``roll_for_them``); the rules decide whether it is legal. Such a
        turn cannot be undone.
        """
        if self.is_over:
            raise GameOver("The game is over.")
        chosen = TimeoutPolicy(policy)
        if (box is not None) != (chosen is TimeoutPolicy.PLAY):
            raise ValueError("a box is given for a timeout under the play policy, and only then")
        index = self.current
        seat = self.current_seat
        if self.dice is None:
            if box is not None:
                raise MustRollFirst("Roll the dice first: a box is scored after a roll.")
            self.roll(seat.player_id)
        assert self.dice is not None
        if box is None:
            box = seat.card.scratch_choice(self.dice)
        timeouts = seat.timeouts + 1
        self.seats[index] = replace(self.seats[index], timeouts=timeouts)
        result = self.score(seat.player_id, box)
        away = chosen is TimeoutPolicy.SKIP_SEAT and timeouts >= AWAY_AFTER_TIMEOUTS
        self.seats[index] = replace(self.seats[index], timeouts=timeouts, away=away)
        self._undo = None
        if away and self.current == index and not self.is_over:
            self._next_turn()
        return result

    def rejoin(self, player_id: str) -> None:
        """An away player takes their seat back; they play again from their next turn."""
        index = self.seat_of(player_id)
        seat = self.seats[index]
        if self.is_over:
            raise GameOver("The game is over: start a new one to play again.")
        if seat.left:
            raise NotInGame("You left this game, so you cannot rejoin it.")
        if not seat.away:
            raise NotAway("You are not away: your seat is still yours.")
        self.seats[index] = replace(seat, away=False, timeouts=0)

    def leave(self, player_id: str) -> None:
        """A player leaves: their seat is skipped from now on and has no place in the ranking."""
        index = self.seat_of(player_id)
        if self.is_over:
            raise GameOver("The game is over already.")
        if self.seats[index].left:
            raise NotInGame("You have left this game already.")
        self.seats[index] = replace(self.seats[index], left=True)
        self._undo = None
        if index == self.current:
            self._next_turn()

    def _next_turn(self) -> None:
        """The turn passes to the next seat that plays (with the opening roll an Undo kept
        for it, if any)."""
        self.dice = None
        self.held = NO_HOLDS
        self.rolls_used = 0
        count = len(self.seats)
        for step in range(1, count + 1):
            candidate = (self.current + step) % count
            if self.seats[candidate].playing:
                self.current = candidate
                kept, self._opening = self._opening, None
                if kept is not None and kept[0] == candidate:
                    self.dice, self.rolls_used = kept[1], 1
                return
        # Nobody has a turn left: the game is over and ``current`` stays on the last player.

    # -- saving ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data, with a format version."""
        undo = self._undo
        return {
            "format": FORMAT_VERSION,
            "preset": self.preset.value,
            "seats": [seat_to_dict(seat) for seat in self.seats],
            "current": self.current,
            "dice": list(self.dice) if self.dice is not None else None,
            "held": list(self.held),
            "rolls_used": self.rolls_used,
            "undo": None
            if undo is None
            else {
                "seat": undo.seat,
                "before": seat_to_dict(undo.before),
                "dice": list(undo.dice),
                "held": list(undo.held),
                "rolls_used": undo.rolls_used,
                "opening": list(undo.opening) if undo.opening is not None else None,
            },
            "opening": None
            if self._opening is None
            else {"seat": self._opening[0], "dice": list(self._opening[1])},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], dice_source: DiceSource | None = None) -> Game:
        """Read a game written by ``to_dict`` (this format version or an older one)."""
        version = data.get("format") if isinstance(data, Mapping) else None
        if version != FORMAT_VERSION:
            raise InvalidState(f"cannot read saved game format {version!r}")
        try:
            seats = [seat_from_dict(s) for s in data["seats"]]
            game = cls([(s.player_id, s.name) for s in seats], data["preset"], dice_source)
            game.seats = seats
            game.current = int(data["current"])
            game.dice = Dice(data["dice"]) if data["dice"] is not None else None
            game.held = tuple(bool(h) for h in data["held"])
            game.rolls_used = int(data["rolls_used"])
            raw_undo = data["undo"]
            if raw_undo is not None:
                game._undo = _UndoPoint(
                    int(raw_undo["seat"]),
                    seat_from_dict(raw_undo["before"]),
                    Dice(raw_undo["dice"]),
                    tuple(bool(h) for h in raw_undo["held"]),
                    int(raw_undo["rolls_used"]),
                    Dice(raw_undo["opening"]) if raw_undo.get("opening") else None,
                )
            raw_opening = data.get("opening")  # absent from games saved before it existed
            if raw_opening is not None:
                game._opening = (int(raw_opening["seat"]), Dice(raw_opening["dice"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidState(f"not a saved game: {exc}") from exc
        if not 0 <= game.current < len(seats) or len(game.held) != DICE_COUNT:
            raise InvalidState("not a saved game: seat or holds out of range")
        if not 0 <= game.rolls_used <= ROLLS_PER_TURN or (game.dice is None) != (
            game.rolls_used == 0
        ):
            raise InvalidState("not a saved game: rolls and dice disagree")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        names = ", ".join(seat.name for seat in self.seats)
        state = "over" if self.is_over else f"round {self.round}, {self.current_seat.name} to play"
        return f"<Game {self.preset.value} [{names}] {state}>"
