"""The other slash commands and buttons: scorecard, rules, leave, end, lobby edges, play again."""

from __future__ import annotations

from bot.engine import Category, ScriptedDice

from .conftest import StartBot
from .fake_discord import (
    ATTACH_FILES,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    FakeDiscord,
    controls_of,
    find_component,
    gallery_urls,
    text_of,
)
from .helpers import open_lobby, play_turn, png_size, seated, start_game


async def test_scorecard_and_rules_are_private(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """/yahtzee scorecard and the Scorecard button answer with an image only the asker sees."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    channel = fake.channel("general")
    await start_bot()
    board = await start_game(fake, channel, ann, bob)
    answer = await fake.slash(cat, channel, "yahtzee scorecard", player=bob)
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    assert png_size(fake.attachment(answer.response)) == (488, 44 + 10 * 28)  # one column
    answer = await fake.click(cat, board, "Scorecard")  # a spectator sees the current player
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    answer = await fake.slash(cat, channel, "yahtzee rules")
    assert answer.response is not None and answer.response["flags"] & EPHEMERAL
    assert "Preset in play: Official" in answer.response["embeds"][0]["description"]
    answer = await fake.slash(ann, fake.channel("games"), "yahtzee scorecard")
    assert "no game in this channel" in answer.ephemeral_text


async def test_lobby_buttons(fake: FakeDiscord, start_bot: StartBot) -> None:
    """Only the host starts or cancels; joining twice and leaving are answered; the host's
    leaving hands the lobby on."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann, bob, preset="relaxed-joker")
    assert "already in this lobby" in (await fake.click(bob, lobby, "Join")).ephemeral_text
    assert "Only the host can start" in (await fake.click(bob, lobby, "Start")).ephemeral_text
    assert "Only the host can cancel" in (await fake.click(bob, lobby, "Cancel")).ephemeral_text
    await fake.click(ann, lobby, "Leave")
    players = seated(fake.messages[lobby["id"]])
    assert "**Bob** (host)" in players and "Ann" not in players
    await fake.click(cat, lobby, "Join")
    await fake.click(bob, lobby, "Cancel")
    closed = fake.messages[lobby["id"]]
    assert controls_of(closed) == [] and "This lobby is closed." in text_of(closed)
    assert closed["flags"] & IS_COMPONENTS_V2 and closed["content"] == "" and not closed["embeds"]
    await open_lobby(fake, channel, cat)  # the channel is free


async def test_the_lobby_is_one_v2_box_and_an_old_embed_lobby_becomes_one(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """The lobby is a Components V2 message: its words and its buttons in one container,
    nothing in content or embeds (members with embeds turned off read it). A lobby posted as
    an embed by the bot before this change turns into the same box at its next click."""
    ann, bob = fake.user("Ann"), fake.user("Bob")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(fake, channel, ann)
    assert lobby["flags"] & IS_COMPONENTS_V2 and lobby["content"] == "" and not lobby["embeds"]
    [box] = lobby["components"]
    assert box["type"] == 17  # a container holds the words and every button
    assert [c["label"] for c in controls_of(lobby)][:4] == ["Join", "Leave", "Start", "Cancel"]
    assert all(row["type"] in (1, 10) for row in box["components"])
    said = text_of(lobby)
    assert "Yahtzee: lobby" in said and "Press **Join**" in said and "Official rules" in said
    assert "**Ann** (host)" in seated(lobby)

    # as the bot posted lobbies before: an embed, its buttons in top-level rows
    old = fake.messages[lobby["id"]]
    old.update(
        flags=0,
        embeds=[{"title": "Yahtzee: lobby", "fields": [{"name": "Players (1/8)", "value": "x"}]}],
        components=[{"type": 1, "components": controls_of(lobby)[:4]}],
    )
    joined = await fake.click(bob, old, "Join")
    assert joined.response_type == 7, joined.ephemeral_text
    now = fake.messages[lobby["id"]]
    assert now["flags"] & IS_COMPONENTS_V2 and not now["embeds"] and now["content"] == ""
    assert "**Bob**" in seated(now) and find_component(now, "Start") is not None


async def test_leave_passes_the_turn_and_end_needs_rights(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """A player leaving on their turn passes it on (and the host's role with it: the host
    left); a leaver's click and second leave are answered as such; /yahtzee end needs the
    host or an admin."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    mod = fake.user("Mod", admin=True)
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, bob, cat)
    answer = await fake.slash(ann, channel, "yahtzee leave")
    assert "You left" in answer.ephemeral_text
    boards = fake.live_boards(channel)
    assert len(boards) == 1 and boards[0]["content"].startswith(f"<@{bob['id']}>")
    gone = await fake.click(ann, boards[0], "Roll")
    assert "You left this game" in gone.ephemeral_text  # not "It's Bob's turn"
    again = await fake.slash(ann, channel, "yahtzee leave")
    assert "You have left this game already" in again.ephemeral_text
    hint = await fake.slash(ann, channel, "yahtzee hint")
    assert "You left this game" in hint.ephemeral_text  # not "for the player whose turn"
    await play_turn(fake, dice, bob, channel, [[5, 5, 5, 2, 2]], "full_house")
    assert fake.last(channel)["content"].startswith(f"<@{cat['id']}>")  # Ann is skipped

    refused = await fake.slash(cat, channel, "yahtzee end")
    assert "Only the host or a member with Manage Server" in refused.ephemeral_text
    hosting = await fake.slash(bob, channel, "yahtzee end")  # Bob hosts now that Ann left
    assert hosting.response is not None and find_component(hosting.response, "End the game")
    asked = await fake.slash(mod, channel, "yahtzee end")
    assert asked.response is not None and find_component(asked.response, "End the game")
    await fake.click(mod, asked.response, "End the game")
    assert fake.live_boards(channel) == []
    assert "ended the game" in fake.last(channel)["embeds"][0]["description"]
    await open_lobby(fake, channel, bob)  # the channel is free


async def test_play_again_after_a_solo_game(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """After the final message, Play again opens a lobby with the same player."""
    ann = fake.user("Ann")
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann)
    for box in Category:
        await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], box.value)
    final = fake.last(channel)
    # By hand: Twos 2, Threes 3, Fours 4, Fives 5, Sixes 6 (upper 20); Small Straight 30,
    # Large Straight 40, Chance 20; everything else 0: total 110.
    assert text_of(final).startswith("## Game over: Ann scored 110!")  # solo: nobody beaten
    assert gallery_urls(final) == ["attachment://final.png"]
    text = text_of(final).split("```")[1]  # the card as text too
    assert [line.split() for line in text.splitlines() if line.startswith(("Total", "Upper"))] == [
        ["Upper", "20"], ["Total", "110"]
    ]  # fmt: skip
    # one column, no row of places (alone, nobody is placed), as wide as the solo boards
    assert png_size(fake.attachment(final)) == (640, 44 + 10 * 28)
    card = await fake.slash(ann, channel, "yahtzee scorecard")  # the game just played
    assert card.response is not None and card.response["flags"] & EPHEMERAL
    assert png_size(fake.attachment(card.response))[0] > 0
    await fake.click(ann, final, "Play again")
    lobby = fake.last(channel)
    assert find_component(lobby, "Start") is not None
    assert "**Ann** (host)" in seated(lobby)
    # Where the bot may not attach files, the leaderboard's page is text.
    fake.deny(channel, ATTACH_FILES)
    board = await fake.slash(ann, channel, "yahtzee leaderboard")
    assert board.response is not None and board.response["attachments"] == []
    assert "`1.` **Ann**: **110** in 1 game" in text_of(board.response)


async def test_a_full_lobby_turns_join_and_add_bot_off_until_a_seat_frees(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """With 8 seated, Join and the three Add bot buttons are greyed out and the lobby says it
    is full; when a seat frees (a person leaves, the host removes a bot) they work again."""
    ann, bob, cat = fake.user("Ann"), fake.user("Bob"), fake.user("Cat")
    channel = fake.channel("general")
    await start_bot()
    lobby = await open_lobby(
        fake, channel, ann, bob, computers=["Optimal", "Casual", "To win", "Optimal", "Casual"]
    )
    now = fake.messages[lobby["id"]]
    assert "(7/8)" in text_of(now) and "full" not in text_of(now)
    await fake.click(cat, lobby, "Join")  # the eighth seat
    full = fake.messages[lobby["id"]]
    adders = ["Join", "Add bot (Optimal)", "Add bot (Casual)", "Add bot (To win)"]
    for label in adders:
        assert find_component(full, label)["disabled"], label
    for label in ("Leave", "Start", "Cancel"):
        assert not find_component(full, label).get("disabled"), label
    said = text_of(full)
    assert "(8/8)" in said and "This lobby is full" in said and "Press **Join**" not in said

    await fake.click(bob, full, "Leave")
    freed = fake.messages[lobby["id"]]
    for label in adders:
        assert not find_component(freed, label).get("disabled"), label
    assert "This lobby is full" not in text_of(freed)
    await fake.click(ann, freed, "Add bot (Casual)")  # full again, then the host unseats one
    assert find_component(fake.messages[lobby["id"]], "Join")["disabled"]
    await fake.click(ann, lobby, "Remove")
    assert not find_component(fake.messages[lobby["id"]], "Join").get("disabled")
    joined = await fake.click(bob, lobby, "Join")
    assert joined.response_type == 7, joined.ephemeral_text


async def test_a_spectator_picks_any_players_card_from_the_scorecard_menu(
    fake: FakeDiscord, start_bot: StartBot, dice: ScriptedDice
) -> None:
    """Issue 41: the Scorecard's private answer offers every player's card in a menu (one
    column at a time reads on a phone); picking one shows that card in its place. By hand:
    Ann put 2-3-4-5-6 in Large Straight (40), Bob 5-5-5-2-2 in Full House (25), Cat 6-6-6-6-1
    in Chance (25)."""
    ann, bob, cat, dan = (fake.user(n) for n in ("Ann", "Bob", "Cat", "Dan"))
    channel = fake.channel("general")
    await start_bot()
    await start_game(fake, channel, ann, bob, cat)
    await play_turn(fake, dice, ann, channel, [[2, 3, 4, 5, 6]], "large_straight")
    await play_turn(fake, dice, bob, channel, [[5, 5, 5, 2, 2]], "full_house")
    await play_turn(fake, dice, cat, channel, [[6, 6, 6, 6, 1]], "chance")
    board = fake.live_boards(channel)[-1]
    answer = await fake.click(dan, board, "Scorecard")  # Dan watches: Ann is to move
    card = answer.response
    assert card is not None and card["flags"] & EPHEMERAL
    assert card["content"].startswith("**Ann**") and "Lg straight      40" in card["content"]
    [menu] = [c for c in controls_of(card) if c["type"] == 3]
    assert [o["label"] for o in menu["options"]] == ["Ann", "Bob", "Cat"]
    assert [o.get("default", False) for o in menu["options"]] == [True, False, False]
    bobs = next(o["value"] for o in menu["options"] if o["label"] == "Bob")
    shown = await fake.choose(dan, card, bobs)
    assert shown.response_type == 7, shown.ephemeral_text  # the same private answer, edited
    now = shown.response
    assert now is not None and now["content"].startswith("**Bob**")
    assert "Full house       25" in now["content"] and "Lg straight       -" in now["content"]
    assert png_size(fake.attachment(now)) == (488, 44 + 10 * 28)  # Bob's card alone
    cats = next(o["value"] for o in menu["options"] if o["label"] == "Cat")
    shown = await fake.choose(dan, now, cats)
    assert shown.response is not None and "Chance           25" in shown.response["content"]
    solo = fake.channel("games")
    await start_game(fake, solo, dan)
    alone = await fake.click(dan, fake.live_boards(solo)[-1], "Scorecard")
    assert alone.response is not None and controls_of(alone.response) == []  # nobody else
