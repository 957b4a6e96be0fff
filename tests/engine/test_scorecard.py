"""The score sheet: legal boxes under each preset, the Joker, bonuses and totals (RULES.md)."""

from __future__ import annotations

import pytest

from bot.engine import (
    LOWER,
    UPPER,
    BoxAlreadyFilled,
    Category,
    JokerForcesBox,
    Preset,
    Scorecard,
)

C = Category


def card(preset: str = "official", bonuses: int = 0, **boxes: int) -> Scorecard:
    """A card with the named boxes filled, e.g. ``card(yahtzee=50, fours=12)``."""
    return Scorecard(preset, {Category(name): points for name, points in boxes.items()}, bonuses)


def all_filled_except(
    *open_boxes: Category, preset: str = "official", yahtzee: int = 50
) -> Scorecard:
    """A card with every box filled (with 0, Yahtzee with ``yahtzee``) but ``open_boxes``."""
    filled = {c: (yahtzee if c is C.YAHTZEE else 0) for c in Category if c not in open_boxes}
    return Scorecard(preset, filled)


# -- a fresh card ---------------------------------------------------------------------------


def test_fresh_card_offers_every_box_at_its_plain_value() -> None:
    """On an empty card every box is open and worth ``score``'s plain value."""
    options = Scorecard().options([3, 3, 3, 2, 2])
    assert options == {
        C.ONES: 0, C.TWOS: 4, C.THREES: 9, C.FOURS: 0, C.FIVES: 0, C.SIXES: 0,
        C.THREE_OF_A_KIND: 13, C.FOUR_OF_A_KIND: 0, C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 0, C.LARGE_STRAIGHT: 0, C.YAHTZEE: 0, C.CHANCE: 13,
    }  # fmt: skip


def test_scratch_fills_a_box_with_zero() -> None:
    """Any open box may take any dice, even for 0, and is then filled."""
    new = Scorecard().fill(C.LARGE_STRAIGHT, [2, 3, 3, 4, 6])
    assert new[C.LARGE_STRAIGHT] == 0
    assert new.is_filled(C.LARGE_STRAIGHT)
    assert C.LARGE_STRAIGHT not in new.options([1, 2, 3, 4, 5])


def test_fill_returns_a_new_card_and_leaves_the_old_one() -> None:
    """``fill`` is pure: the card it was called on does not change."""
    old = Scorecard()
    new = old.fill(C.CHANCE, [6, 6, 6, 6, 5])
    assert old[C.CHANCE] is None and new[C.CHANCE] == 29


def test_a_filled_box_is_never_filled_again() -> None:
    """Scoring a filled box is refused with BoxAlreadyFilled."""
    filled = Scorecard().fill(C.SIXES, [6, 6, 1, 2, 3])
    with pytest.raises(BoxAlreadyFilled, match="Sixes is already filled"):
        filled.fill(C.SIXES, [6, 6, 6, 6, 1])


# -- the upper bonus ------------------------------------------------------------------------


def test_upper_bonus_at_exactly_63_is_earned() -> None:
    """Three of each face is 63, which earns 35."""
    three_each = card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert three_each.upper_total == 63
    assert three_each.upper_bonus == 35
    assert three_each.total == 98


def test_upper_bonus_at_62_is_not_earned() -> None:
    """One short of 63 earns nothing."""
    short = card(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert short.upper_total == 62
    assert short.upper_bonus == 0
    assert short.total == 62


def test_upper_bonus_does_not_need_three_of_each() -> None:
    """Any upper sum of 63 or more earns it (seed 001: five sixes and no ones is fine)."""
    lopsided = card(ones=0, twos=0, threes=3, fours=12, fives=20, sixes=30)
    assert lopsided.upper_total == 65 and lopsided.upper_bonus == 35


def test_grand_total_adds_every_part() -> None:
    """Grand total = upper boxes + upper bonus + lower boxes + Yahtzee bonuses."""
    c = card(
        bonuses=2, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18, yahtzee=50, chance=20
    )
    # 63 upper + 35 bonus + 70 lower + 200 Yahtzee bonus, added by hand
    assert (c.upper_total, c.upper_bonus, c.lower_total, c.yahtzee_bonus) == (63, 35, 70, 200)
    assert c.total == 368


# -- a Yahtzee while the Yahtzee box is open -----------------------------------------------


def test_five_of_a_kind_in_full_house_with_yahtzee_open_scores_0() -> None:
    """3-3-3-3-3 is no full house while the Yahtzee box is open."""
    assert Scorecard().options([3, 3, 3, 3, 3])[C.FULL_HOUSE] == 0
    assert Scorecard().fill(C.FULL_HOUSE, [3, 3, 3, 3, 3])[C.FULL_HOUSE] == 0


def test_yahtzee_with_box_open_may_go_anywhere_at_plain_value() -> None:
    """While the Yahtzee box is open there is no Joker: every open box, plain values."""
    options = Scorecard().options([5, 5, 5, 5, 5])
    assert set(options) == set(Category)
    assert options[C.YAHTZEE] == 50
    assert options[C.SMALL_STRAIGHT] == 0 and options[C.LARGE_STRAIGHT] == 0
    assert options[C.FIVES] == 25


def test_first_yahtzee_earns_no_bonus() -> None:
    """Filling the Yahtzee box itself with 50 is not a bonus."""
    c = Scorecard().fill(C.YAHTZEE, [2, 2, 2, 2, 2])
    assert c[C.YAHTZEE] == 50 and c.yahtzee_bonus == 0 and c.total == 50


# -- official: the forced Joker -------------------------------------------------------------


def test_full_house_as_joker_scores_25() -> None:
    """3-3-3-3-3 with Threes filled and the Yahtzee box filled is a Joker worth 25 in Full House."""
    c = card(yahtzee=50, threes=9)
    assert c.options([3, 3, 3, 3, 3])[C.FULL_HOUSE] == 25
    after = c.fill(C.FULL_HOUSE, [3, 3, 3, 3, 3])
    assert after[C.FULL_HOUSE] == 25 and after.yahtzee_bonus == 100


@pytest.mark.parametrize("yahtzee_box, bonus", [(50, 100), (0, 0)])
def test_second_yahtzee_with_its_upper_box_open_must_go_there(yahtzee_box: int, bonus: int) -> None:
    """4-4-4-4-4 with Fours open: only Fours (20), +100 if the Yahtzee box holds 50."""
    c = card(yahtzee=yahtzee_box)
    assert c.options([4, 4, 4, 4, 4]) == {C.FOURS: 20}
    assert c.bonus_for([4, 4, 4, 4, 4]) == bonus
    after = c.fill(C.FOURS, [4, 4, 4, 4, 4])
    assert after[C.FOURS] == 20
    assert after.yahtzee_bonus == bonus
    assert after.total == yahtzee_box + 20 + bonus


@pytest.mark.parametrize("elsewhere", [C.CHANCE, C.FULL_HOUSE, C.THREE_OF_A_KIND, C.ONES])
def test_joker_refuses_any_box_but_the_open_upper_one(elsewhere: Category) -> None:
    """With Fours open, every other box is refused with JokerForcesBox naming Fours."""
    with pytest.raises(JokerForcesBox, match="must go in Fours"):
        card(yahtzee=50).fill(elsewhere, [4, 4, 4, 4, 4])


def test_joker_with_upper_filled_offers_every_open_lower_box_at_full_value() -> None:
    """Sixes filled: Full House 25, straights 30/40, kinds and Chance the sum; no upper box."""
    c = card(yahtzee=0, sixes=18)
    assert c.options([6, 6, 6, 6, 6]) == {
        C.THREE_OF_A_KIND: 30, C.FOUR_OF_A_KIND: 30, C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40, C.CHANCE: 30,
    }  # fmt: skip
    with pytest.raises(JokerForcesBox) as refused:
        c.fill(C.ONES, [6, 6, 6, 6, 6])
    assert str(refused.value).endswith(
        "it must go in one of Three of a Kind, Four of a Kind, Full House, Small Straight, "
        "Large Straight or Chance."
    )


@pytest.mark.parametrize(
    "box, points", [(C.SMALL_STRAIGHT, 30), (C.LARGE_STRAIGHT, 40), (C.FULL_HOUSE, 25)]
)
def test_joker_fills_fixed_boxes_at_full_value(box: Category, points: int) -> None:
    """A Joker in a straight or the full house scores its fixed value, plus 100 with 50 banked."""
    after = card(yahtzee=50, twos=4).fill(box, [2, 2, 2, 2, 2])
    assert after[box] == points
    assert after.total == 50 + 4 + points + 100


def test_sixes_yahtzee_with_only_chance_open_goes_to_chance() -> None:
    """6-6-6-6-6, Sixes filled, every lower box filled but Chance: Chance only."""
    c = all_filled_except(C.CHANCE, *[u for u in UPPER if u is not C.SIXES])
    assert c.options([6, 6, 6, 6, 6]) == {C.CHANCE: 30}


def test_joker_with_no_lower_box_open_scratches_an_upper_box_for_0() -> None:
    """Step 3: upper box of the face and every lower box filled: any open upper box, for 0."""
    c = all_filled_except(C.ONES, C.TWOS)
    assert c.options([5, 5, 5, 5, 5]) == {C.ONES: 0, C.TWOS: 0}
    after = c.fill(C.TWOS, [5, 5, 5, 5, 5])
    assert after[C.TWOS] == 0 and after.yahtzee_bonus == 100


def test_yahtzee_bonus_has_no_cap_under_official() -> None:
    """Every further Yahtzee with 50 banked earns another 100."""
    c = card(yahtzee=50)
    for face in range(1, 7):
        c = c.fill(Category.for_face(face), [face] * 5)
    assert c.yahtzee_bonuses == 6 and c.yahtzee_bonus == 600


def test_joker_applies_also_when_the_yahtzee_box_holds_0() -> None:
    """A scratched Yahtzee box still makes later Yahtzees Jokers, without bonus."""
    c = card(yahtzee=0, ones=3)
    assert c.options([1, 1, 1, 1, 1])[C.LARGE_STRAIGHT] == 40
    assert c.fill(C.LARGE_STRAIGHT, [1, 1, 1, 1, 1]).yahtzee_bonus == 0


# -- relaxed-joker --------------------------------------------------------------------------


def test_relaxed_joker_may_also_scratch_an_upper_box() -> None:
    """Step 2 under relaxed-joker: open lower boxes at Joker value, or any open upper box for 0."""
    c = card("relaxed-joker", yahtzee=50, fives=15, twos=6)
    options = c.options([5, 5, 5, 5, 5])
    assert {k: v for k, v in options.items() if k in UPPER} == {
        C.ONES: 0, C.THREES: 0, C.FOURS: 0, C.SIXES: 0,
    }  # fmt: skip
    assert options[C.FULL_HOUSE] == 25 and options[C.CHANCE] == 25
    after = c.fill(C.SIXES, [5, 5, 5, 5, 5])
    assert after[C.SIXES] == 0 and after.yahtzee_bonus == 100


def test_relaxed_joker_still_forces_the_open_upper_box() -> None:
    """Step 1 is the same under relaxed-joker."""
    assert card("relaxed-joker", yahtzee=50).options([3, 3, 3, 3, 3]) == {C.THREES: 15}


# -- bonus-turn -----------------------------------------------------------------------------


def test_bonus_turn_offers_the_yahtzee_box_as_a_bonus() -> None:
    """With 50 banked, a Yahtzee may be taken as YAHTZEE: 100 or scored normally anywhere open."""
    c = card("bonus-turn", yahtzee=50, fours=8)
    options = c.options([3, 3, 3, 3, 3])
    assert options[C.YAHTZEE] == 100
    assert options[C.FULL_HOUSE] == 0  # no Joker: five of a kind is no full house
    assert options[C.ONES] == 0 and options[C.THREES] == 15  # no forcing
    assert C.FOURS not in options


def test_bonus_turn_bonus_fills_no_box() -> None:
    """Taking the bonus adds 100 and leaves every box as it was."""
    c = card("bonus-turn", yahtzee=50)
    after = c.fill(C.YAHTZEE, [2, 2, 2, 2, 2])
    assert after.yahtzee_bonuses == 1 and after.total == 150
    assert after.boxes == c.boxes


def test_bonus_turn_scoring_normally_earns_no_bonus() -> None:
    """Scoring the Yahtzee in another box is a normal scoring: no 100."""
    after = card("bonus-turn", yahtzee=50).fill(C.CHANCE, [2, 2, 2, 2, 2])
    assert after[C.CHANCE] == 10 and after.yahtzee_bonus == 0


def test_bonus_turn_allows_at_most_three_bonuses() -> None:
    """A fourth bonus is refused and the Yahtzee box is no longer offered."""
    c = card("bonus-turn", bonuses=3, yahtzee=50)
    assert C.YAHTZEE not in c.options([6, 6, 6, 6, 6])
    with pytest.raises(BoxAlreadyFilled, match="all 3 Yahtzee bonuses"):
        c.fill(C.YAHTZEE, [6, 6, 6, 6, 6])


def test_bonus_turn_gives_nothing_when_the_yahtzee_box_holds_0() -> None:
    """A scratched Yahtzee box: no bonus option and no Joker."""
    c = card("bonus-turn", yahtzee=0)
    assert C.YAHTZEE not in c.options([6, 6, 6, 6, 6])
    assert c.options([6, 6, 6, 6, 6])[C.FULL_HOUSE] == 0
    with pytest.raises(BoxAlreadyFilled, match="holds 0"):
        c.fill(C.YAHTZEE, [6, 6, 6, 6, 6])


def test_bonus_turn_refuses_the_filled_yahtzee_box_without_a_yahtzee() -> None:
    """Choosing the filled Yahtzee box with other dice is simply a filled box."""
    with pytest.raises(BoxAlreadyFilled):
        card("bonus-turn", yahtzee=50).fill(C.YAHTZEE, [1, 2, 3, 4, 5])


# -- presets and saving ---------------------------------------------------------------------


def test_unknown_preset_is_refused_with_the_choices() -> None:
    """A preset name that does not exist names the ones that do."""
    with pytest.raises(ValueError, match="official, relaxed-joker, bonus-turn"):
        Scorecard("house-rules")


def test_every_card_knows_its_preset() -> None:
    """A card records the preset it is played under."""
    assert [Scorecard(p.value).preset for p in Preset] == list(Preset)


def test_each_preset_says_what_it_changes_as_data() -> None:
    """RULES.md's three rule sets, written out by hand: the official Joker, the relaxed Joker
    (may scratch an upper box), and bonus turns (no Joker, at most three bonuses)."""
    said = {
        p.value: (p.rules.joker, p.rules.joker_may_scratch_upper, p.bonus_turns) for p in Preset
    }
    assert said == {
        "official": (True, False, 0),
        "relaxed-joker": (True, True, 0),
        "bonus-turn": (False, False, 3),
    }


def test_a_card_read_under_another_preset_keeps_its_boxes() -> None:
    """``under`` changes the rules a card is read by, nothing it holds."""
    c = card("bonus-turn", bonuses=2, yahtzee=50, sixes=24)
    official = c.under(Preset.OFFICIAL)
    assert official.preset is Preset.OFFICIAL
    assert (official.boxes, official.yahtzee_bonuses) == (c.boxes, 2)
    assert c.preset is Preset.BONUS_TURN and c.under(Preset.BONUS_TURN) is c


def test_card_round_trips_through_a_dict() -> None:
    """``to_dict``/``from_dict`` keep every box, bonus and the preset."""
    c = card("relaxed-joker", bonuses=2, yahtzee=50, sixes=24, chance=0)
    assert Scorecard.from_dict(c.to_dict()) == c


def test_lower_and_upper_split_the_sheet() -> None:
    """UPPER and LOWER are the six and the seven boxes of the sheet."""
    assert len(UPPER) == 6 and len(LOWER) == 7 and set(UPPER) | set(LOWER) == set(Category)


def test_yahtzees_counts_the_box_and_every_bonus() -> None:
    """50 in the box and two bonuses are three Yahtzees; a scratched box counts none."""
    assert card(bonuses=2, yahtzee=50).yahtzees == 3
    assert card(yahtzee=0).yahtzees == 0
    assert Scorecard().yahtzees == 0


# -- what each allowed box means (the menu's wording comes from here) ---------------------


def test_choices_of_plain_dice_say_no_joker_no_bonus() -> None:
    """2-2-3-3-3 on an empty card: Full House 25, Threes 9, Twos 4, Chance 13, Three of a
    Kind 13; Four of a Kind 0 is a scratch. No Joker, no bonus, nothing forced."""
    choices = {o.category: o for o in Scorecard().choices([2, 2, 3, 3, 3])}
    assert len(choices) == 13
    assert (choices[C.FULL_HOUSE].points, choices[C.THREES].points) == (25, 9)
    assert choices[C.FOUR_OF_A_KIND].points == 0 and not choices[C.FOUR_OF_A_KIND].scores
    assert choices[C.CHANCE].scores
    assert not any(o.joker or o.forced or o.bonus or o.bonus_turn for o in choices.values())


def test_choices_of_a_joker_whose_upper_box_is_open_force_it_with_the_bonus() -> None:
    """Yahtzee box 50, Fives open, 5-5-5-5-5: only Fives (25), forced, +100 on top."""
    (only,) = card(yahtzee=50).choices([5] * 5)
    assert (only.category, only.points, only.bonus) == (C.FIVES, 25, 100)
    assert only.joker and only.forced and only.scores and not only.bonus_turn


def test_choices_of_a_joker_in_the_lower_section_are_free_and_full_value() -> None:
    """Yahtzee box 50, Fives filled: any open lower box at Joker value (Full House 25,
    Small 30, Large 40, the kinds and Chance 25), none forced, each with the +100; with the
    Yahtzee box scratched (0) the Joker still holds but earns no bonus."""
    choices = card(yahtzee=50, fives=20).choices([5] * 5)
    points = {o.category: o.points for o in choices}
    assert points == {
        C.THREE_OF_A_KIND: 25, C.FOUR_OF_A_KIND: 25, C.FULL_HOUSE: 25,
        C.SMALL_STRAIGHT: 30, C.LARGE_STRAIGHT: 40, C.CHANCE: 25,
    }  # fmt: skip
    assert all(o.joker and not o.forced and o.bonus == 100 for o in choices)
    scratched = card(yahtzee=0, fives=20).choices([5] * 5)
    assert all(o.joker and o.bonus == 0 for o in scratched)


def test_choices_under_bonus_turn_offer_the_bonus_as_the_yahtzee_box() -> None:
    """bonus-turn, Yahtzee box 50, 6-6-6-6-6: the filled Yahtzee box is offered as a bonus
    of 100 (a bonus turn); the open boxes score normally (Sixes 30), no Joker."""
    choices = {o.category: o for o in card("bonus-turn", yahtzee=50).choices([6] * 5)}
    taken = choices[C.YAHTZEE]
    assert (taken.points, taken.bonus, taken.bonus_turn) == (100, 0, True)
    assert choices[C.SIXES].points == 30 and not choices[C.SIXES].bonus_turn
    assert not any(o.joker or o.bonus for o in choices.values())
