"""A multiplayer game: turn order, rolls and holds, scoring, undo, ranking and saving."""

from __future__ import annotations

import json

import pytest

from bot.engine import (
    BoxAlreadyFilled,
    Category,
    Dice,
    Game,
    GameOver,
    InvalidDice,
    InvalidGame,
    InvalidState,
    JokerForcesBox,
    MustRollFirst,
    NoRollsLeft,
    NothingToUndo,
    NotInGame,
    NotYourTurn,
    RandomDice,
    ScriptedDice,
)

C = Category


def game(*players: str, faces: list[int] | None = None, preset: str = "official") -> Game:
    """A game whose dice follow ``faces``."""
    return Game(list(players), preset, ScriptedDice(faces or []))


# -- seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 9])
def test_a_game_has_1_to_8_seats(count: int) -> None:
    """No seats or more than eight is refused."""
    with pytest.raises(InvalidGame, match="1 to 8 players"):
        Game([f"p{i}" for i in range(count)])


def test_a_player_takes_one_seat() -> None:
    """The same player twice is refused."""
    with pytest.raises(InvalidGame):
        Game(["ann", "ann"])


def test_seats_play_in_join_order() -> None:
    """Turns go round the table in the order players joined."""
    g = game("ann", "bob", "cat", faces=[1, 2, 3, 4, 6] * 3)
    order = []
    for _ in range(3):
        order.append(g.current_player_id)
        g.roll(g.current_player_id)
        g.score(g.current_player_id, C.CHANCE)
    assert order == ["ann", "bob", "cat"]
    assert g.current_player_id == "ann" and g.round == 2


# -- rolls and holds ------------------------------------------------------------------------


def test_first_roll_throws_all_five() -> None:
    """The first roll takes five faces from the source."""
    g = game("ann", faces=[6, 5, 4, 3, 2])
    assert g.roll("ann") == Dice(6, 5, 4, 3, 2)
    assert g.rolls_left == 2


def test_held_dice_stay_and_the_rest_are_rerolled() -> None:
    """Only dice not held take new faces, in order."""
    g = game("ann", faces=[1, 3, 3, 4, 6, 2, 5])
    g.roll("ann")
    g.set_held("ann", [True, False, True, True, False])
    assert g.roll("ann") == Dice(1, 2, 3, 4, 5)


def test_a_held_die_may_be_released_before_the_next_roll() -> None:
    """Toggling a held die again frees it, and it is rerolled."""
    g = game("ann", faces=[1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 2, 2])
    g.roll("ann")
    assert g.toggle_hold("ann", 0) is True
    assert g.toggle_hold("ann", 0) is False
    g.set_held("ann", [True, True, True, False, False])
    assert g.roll("ann") == Dice(1, 1, 1, 6, 6)
    g.set_held("ann", [False, False, True, True, True])  # change of mind before roll 3
    assert g.roll("ann") == Dice(6, 6, 1, 6, 6)


def test_no_fourth_roll() -> None:
    """After three rolls the player must score."""
    g = game("ann", faces=[1] * 15)
    for _ in range(3):
        g.roll("ann")
    with pytest.raises(NoRollsLeft, match="pick a box"):
        g.roll("ann")
    with pytest.raises(NoRollsLeft):
        g.toggle_hold("ann", 2)


def test_must_roll_before_holding_or_scoring() -> None:
    """Holding or scoring without dice on the table is refused."""
    g = game("ann")
    with pytest.raises(MustRollFirst):
        g.toggle_hold("ann", 0)
    with pytest.raises(MustRollFirst):
        g.score("ann", C.CHANCE)


def test_may_score_after_any_roll() -> None:
    """Scoring straight after the first roll is allowed and ends the turn."""
    g = game("ann", "bob", faces=[6, 6, 6, 2, 2])
    g.roll("ann")
    result = g.score("ann", C.FULL_HOUSE)
    assert (result.points, g.current_player_id, g.dice) == (25, "bob", None)


def test_out_of_turn_moves_are_refused_with_the_current_players_name() -> None:
    """Moving out of turn names whose turn it is; a stranger is told they are not playing."""
    g = Game([("1", "Ann"), ("2", "Bob")], dice_source=ScriptedDice([1, 2, 3, 4, 5]))
    with pytest.raises(NotYourTurn, match="It's Ann's turn"):
        g.roll("2")
    with pytest.raises(NotInGame, match="not playing"):
        g.roll("3")
    g.roll("1")
    with pytest.raises(NotYourTurn):
        g.score("2", C.CHANCE)
    with pytest.raises(NotYourTurn):
        g.toggle_hold("2", 0)


def test_refused_moves_change_nothing() -> None:
    """A move that raises leaves the game exactly as it was."""
    g = game("ann", "bob", faces=[4] * 5 + [3] * 5 + [4] * 5)
    g.roll("ann")
    g.score("ann", C.YAHTZEE)
    g.roll("bob")
    g.score("bob", C.THREES)
    g.roll("ann")
    before = g.to_dict()
    for bad in (lambda: g.score("ann", C.YAHTZEE), lambda: g.score("ann", C.CHANCE)):
        with pytest.raises((BoxAlreadyFilled, JokerForcesBox)):
            bad()
    assert g.to_dict() == before


def test_die_index_out_of_range_is_refused() -> None:
    """Dice are numbered 1 to 5 in the message."""
    g = game("ann", faces=[1, 2, 3, 4, 5])
    g.roll("ann")
    with pytest.raises(ValueError, match="no die number 6"):
        g.toggle_hold("ann", 5)


def test_default_dice_are_fair_system_random() -> None:
    """Without a source, the game rolls with random.SystemRandom and faces are 1 to 6."""
    g = Game(["ann"])
    assert isinstance(g.dice_source, RandomDice)
    assert all(1 <= face <= 6 for face in g.roll("ann"))


# -- undo -----------------------------------------------------------------------------------


def test_undo_restores_dice_holds_and_rolls_left() -> None:
    """Undo puts the turn back exactly as it was before scoring."""
    g = game("ann", "bob", faces=[2, 2, 5, 6, 1, 2, 3, 4])
    g.roll("ann")
    g.set_held("ann", [True, True, False, False, True])
    g.roll("ann")
    g.set_held("ann", [True, False, False, False, True])
    before = g.to_dict()
    g.score("ann", C.TWOS)
    g.undo("ann")
    assert g.to_dict() == before
    assert (g.current_player_id, g.rolls_left, g.held) == (
        "ann",
        1,
        (True, False, False, False, True),
    )
    assert g.current_seat.card[C.TWOS] is None


def test_undo_closes_when_the_next_seat_rolls() -> None:
    """Once the next player rolls, the scoring is final."""
    g = game("ann", "bob", faces=[1, 2, 3, 4, 5, 6, 6, 6, 6, 6])
    g.roll("ann")
    g.score("ann", C.CHANCE)
    g.roll("bob")
    with pytest.raises(NothingToUndo):
        g.undo("ann")


def test_solo_undo_closes_at_the_next_roll() -> None:
    """Solo, the window closes when the same player rolls again."""
    g = game("ann", faces=[1, 2, 3, 4, 5, 6, 6, 6, 6, 6])
    g.roll("ann")
    g.score("ann", C.CHANCE)
    g.undo("ann")
    g.score("ann", C.LARGE_STRAIGHT)
    g.roll("ann")
    with pytest.raises(NothingToUndo):
        g.undo("ann")


def test_only_the_scorer_may_undo() -> None:
    """The next player cannot take back someone else's scoring."""
    g = game("ann", "bob", faces=[1, 2, 3, 4, 5])
    g.roll("ann")
    g.score("ann", C.CHANCE)
    with pytest.raises(NothingToUndo):
        g.undo("bob")
    with pytest.raises(NotInGame):
        g.undo("zed")


def test_nothing_to_undo_at_the_start() -> None:
    """Undo before any scoring is refused."""
    with pytest.raises(NothingToUndo, match="nothing of yours to undo"):
        game("ann").undo("ann")


def test_undo_removes_a_yahtzee_bonus() -> None:
    """Undoing a scoring that earned +100 takes the 100 back too."""
    g = game("ann", faces=[5] * 10)
    g.roll("ann")
    g.score("ann", C.YAHTZEE)
    g.roll("ann")
    result = g.score("ann", C.FIVES)
    assert result.bonus == 100 and g.seats[0].card.total == 175
    g.undo("ann")
    assert g.seats[0].card.yahtzee_bonus == 0 and g.seats[0].card.total == 50


def test_undo_removes_an_upper_bonus() -> None:
    """Undoing the scoring that crossed 63 takes the 35 back."""
    g = game("ann", faces=[6, 6, 6, 6, 1] + [5, 5, 5, 5, 1] + [4, 4, 4, 4, 1] + [3, 3, 3, 1, 2])
    for box in (C.SIXES, C.FIVES, C.FOURS):
        g.roll("ann")
        g.score("ann", box)
    g.roll("ann")
    g.score("ann", C.THREES)  # 24 + 20 + 16 + 9 = 69
    assert g.seats[0].card.upper_bonus == 35
    g.undo("ann")
    assert g.seats[0].card.upper_bonus == 0 and g.seats[0].card.total == 60


def test_undo_of_a_bonus_turn_removes_the_bonus() -> None:
    """Under bonus-turn, a bonus taken and undone leaves no bonus and the turn not taken."""
    g = game("ann", faces=[2] * 10, preset="bonus-turn")
    g.roll("ann")
    g.score("ann", C.YAHTZEE)
    g.roll("ann")
    result = g.score("ann", C.YAHTZEE)
    assert result.bonus_turn and result.points == 100 and g.seats[0].card.yahtzee_bonuses == 1
    g.undo("ann")
    assert g.seats[0].card.yahtzee_bonuses == 0 and g.seats[0].turns == 1


# -- game over and ranking --------------------------------------------------------------------


def play_out(g: Game, box_order: list[Category] | None = None) -> None:
    """Everyone rolls once and takes the first open box (or follows ``box_order``)."""
    while not g.is_over:
        player = g.current_player_id
        g.roll(player)
        options = g.options()
        g.score(player, next(iter(options)))


def test_game_ends_after_13_rounds() -> None:
    """Every seat fills 13 boxes, then every move is refused with GameOver."""
    g = Game(["ann", "bob"], dice_source=RandomDice())
    play_out(g)
    assert all(seat.turns == 13 and seat.card.is_complete for seat in g.seats)
    with pytest.raises(GameOver):
        g.roll(g.current_player_id)


def test_last_scoring_of_the_game_cannot_be_undone() -> None:
    """Game over closes the undo window (results are final)."""
    g = game("ann", faces=[1, 2, 3, 4, 5] * 13)
    play_out(g)
    with pytest.raises(GameOver):
        g.undo("ann")


def test_bonus_turn_game_still_lasts_13_rounds() -> None:
    """A bonus taken leaves one box open at the end, counted as 0."""
    g = game("ann", faces=[3] * 65, preset="bonus-turn")
    g.roll("ann")
    g.score("ann", C.YAHTZEE)
    for _ in range(3):
        g.roll("ann")
        g.score("ann", C.YAHTZEE)  # three bonuses
    play_out(g)
    card = g.seats[0].card
    assert g.seats[0].turns == 13 and card.filled_count == 10 and card.yahtzee_bonuses == 3
    assert card.total == card.upper_total + card.upper_bonus + card.lower_total + 300


def test_equal_totals_share_a_place() -> None:
    """Ranking is 1, 2, 2, 4 for totals 30, 20, 20, 10."""
    g = game("a", "b", "c", "d")
    for seat, chance in zip(range(4), (30, 20, 20, 10), strict=True):
        g.seats[seat] = g.seats[seat].__class__(
            g.seats[seat].player_id,
            g.seats[seat].name,
            g.seats[seat].card.fill(C.CHANCE, _sum(chance)),
        )
    assert [(s.place, s.player_id, s.total) for s in g.standings()] == [
        (1, "a", 30), (2, "b", 20), (2, "c", 20), (4, "d", 10),
    ]  # fmt: skip


def _sum(total: int) -> list[int]:
    """Five dice adding up to ``total`` (5 to 30)."""
    dice = [1] * 5
    for i in range(total - 5):
        dice[i % 5] += 1
    return dice


def test_leaving_skips_the_seat_and_ranks_it_last_without_a_place() -> None:
    """A player who leaves is skipped; the others play on."""
    g = game("ann", "bob", "cat", faces=[1, 2, 3, 4, 5] * 40)
    g.roll("ann")
    g.leave("ann")
    assert g.current_player_id == "bob" and g.dice is None
    play_out(g)
    assert g.seats[0].turns == 0
    assert [s.place for s in g.standings()] == [1, 1, None]


def test_a_leaver_is_told_they_left_and_cannot_leave_twice() -> None:
    """A left player's move is refused as theirs no more (not "wait for your turn"), and a
    second leave is refused; the seat stays left."""
    g = game("ann", "bob", "cat")
    g.leave("ann")
    with pytest.raises(NotInGame, match="You left this game"):
        g.roll("ann")
    with pytest.raises(NotInGame, match="already"):
        g.leave("ann")
    with pytest.raises(NotYourTurn, match="It's bob's turn"):
        g.roll("cat")  # a seated player out of turn is still told whose turn it is
    assert [s.left for s in g.seats] == [True, False, False]


def test_game_ends_when_everyone_has_left() -> None:
    """The last player leaving ends the game."""
    g = game("ann")
    g.leave("ann")
    assert g.is_over


# -- saving -----------------------------------------------------------------------------------


def test_state_round_trips_through_json_mid_turn() -> None:
    """A game saved mid-turn with holds and an undo point reads back equal and plays on alike."""
    g = game("ann", "bob", faces=[2, 2, 3, 4, 6, 1, 6, 6, 6])
    g.roll("ann")
    g.score("ann", C.TWOS)
    data = json.loads(json.dumps(g.to_dict()))
    assert data["format"] == 1
    restored = Game.from_dict(data, ScriptedDice([1, 6, 6, 6, 6]))
    assert restored == g
    restored.undo("ann")
    assert restored.dice == Dice(2, 2, 3, 4, 6)


@pytest.mark.parametrize(
    "broken",
    [{}, {"format": 99}, {"format": 1, "seats": []}, {"format": 1, "preset": "x", "seats": [{}]}],
)
def test_unreadable_saves_raise_invalid_state(broken: dict[str, object]) -> None:
    """A dict that is not a saved game is refused with InvalidState, never a KeyError."""
    with pytest.raises(InvalidState):
        Game.from_dict(broken)


# -- the opening roll: a turn's first roll made for its player as the turn starts ---------------


def test_an_opening_roll_leaves_the_last_scoring_undoable() -> None:
    """Bob's first roll is made for him as his turn starts: Ann may still undo her scoring,
    and Bob's own next roll closes the window as any roll did."""
    g = game("ann", "bob", faces=[1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 1, 1])
    g.roll("ann")
    g.score("ann", C.CHANCE)
    assert g.roll("bob", opening=True) == Dice(6, 6, 6, 6, 6)
    assert g.undo_player_id == "ann"
    g.set_held("bob", [True] * 4 + [False])
    g.roll("bob")
    with pytest.raises(NothingToUndo):
        g.undo("ann")


def test_an_undo_keeps_the_opening_roll_for_the_next_player() -> None:
    """Ann undoes after Bob's opening 6-6-6-6-6: the table is hers again, and when she scores
    anew Bob's turn starts with the same five sixes (no new roll: an Undo cannot re-roll an
    opponent's dice), still undoable by Ann, twice over, and saved with the game."""
    g = game("ann", "bob", faces=[1, 2, 3, 4, 5, 6, 6, 6, 6, 6])  # nothing more to roll
    g.roll("ann")
    g.score("ann", C.CHANCE)
    g.roll("bob", opening=True)
    g.undo("ann")
    assert (g.current_player_id, g.dice, g.rolls_used) == ("ann", Dice(1, 2, 3, 4, 5), 1)
    g = Game.from_dict(json.loads(json.dumps(g.to_dict())))  # a restart in between
    g.score("ann", C.LARGE_STRAIGHT)
    assert (g.current_player_id, g.dice, g.rolls_used) == ("bob", Dice(6, 6, 6, 6, 6), 1)
    g.undo("ann")
    g.score("ann", C.SMALL_STRAIGHT)
    assert (g.current_player_id, g.dice) == ("bob", Dice(6, 6, 6, 6, 6))
    assert g.score("bob", C.YAHTZEE).points == 50


def test_kept_opening_dice_are_only_for_the_seat_they_were_rolled_for() -> None:
    """Ann undoes after Bob's opening roll, then Bob leaves: Cat's turn starts unrolled."""
    g = game("ann", "bob", "cat", faces=[1, 2, 3, 4, 5, 6, 6, 6, 6, 6])
    g.roll("ann")
    g.score("ann", C.CHANCE)
    g.roll("bob", opening=True)
    g.undo("ann")
    g.leave("bob")
    g.score("ann", C.LARGE_STRAIGHT)
    assert (g.current_player_id, g.dice, g.rolls_used) == ("cat", None, 0)


def test_an_opening_roll_is_only_a_first_roll_and_not_the_players_own_move() -> None:
    """It cannot be a second roll; and a player whose turns time out is not made present by
    the roll made for them (their run of timeouts goes on)."""
    g = game("ann", "bob", faces=[2, 2, 2, 2, 2] * 4)
    g.roll("ann")
    with pytest.raises(InvalidDice):
        g.roll("ann", opening=True)
    g.score("ann", C.TWOS)
    g.timeout()  # Bob's turn runs out
    g.roll("ann")
    g.score("ann", C.CHANCE)
    g.roll("bob", opening=True)
    assert g.current_seat.timeouts == 1
