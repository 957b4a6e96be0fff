"""The bot's own notes and each player's choices, on both databases: the plans no other
store test reached on PostgreSQL (only end-to-end tests on SQLite did). Called as the plans
they are (``store.read`` / ``store.write``)."""

from __future__ import annotations

from dataclasses import replace

from bot.store import GuildSettings, Store, plans


async def test_the_bots_notes_are_kept_and_replaced(store: Store) -> None:
    """``commands`` (the fingerprint of the commands last published): absent at first, kept,
    replaced by a later value, and one key's value is not another's."""
    assert await store.read(plans.meta_value, "commands") is None
    await store.write(plans.set_meta_value, "commands", "first")
    await store.write(plans.set_meta_value, "other", "x")
    assert await store.read(plans.meta_value, "commands") == "first"
    await store.write(plans.set_meta_value, "commands", "second")
    assert await store.read(plans.meta_value, "commands") == "second"
    assert await store.read(plans.meta_value, "other") == "x"


async def test_a_players_notify_and_autoroll_choices_are_kept_apart(store: Store) -> None:
    """One row holds both choices: setting one leaves the other as it was; autoroll None
    means "as my server says" again."""
    ann, bob = 11, 12
    assert await store.read(plans.player_notify, ann) is False  # nobody asked
    assert await store.read(plans.player_auto_roll, ann) is None  # the server's choice
    await store.write(plans.set_player_auto_roll, ann, True)
    await store.write(plans.set_player_notify, ann, True)
    assert await store.read(plans.player_auto_roll, ann) is True  # not undone by notify
    assert await store.read(plans.player_notify, ann) is True
    await store.write(plans.set_player_auto_roll, ann, False)
    assert await store.read(plans.player_notify, ann) is True  # not undone by autoroll
    assert await store.read(plans.player_auto_roll, ann) is False
    await store.write(plans.set_player_notify, ann, False)
    await store.write(plans.set_player_auto_roll, ann, None)
    assert await store.read(plans.player_auto_roll, ann) is None
    assert await store.read(plans.player_notify, ann) is False
    assert await store.read(plans.player_auto_roll, bob) is None  # others untouched


async def test_a_players_autoroll_choice_wins_over_the_servers(store: Store) -> None:
    """Whether a turn starts rolled: the player's own choice if they made one, else their
    server's (off where the server never chose)."""
    ann, guild, other_guild = 11, 7, 8
    rolled = replace(GuildSettings(), auto_roll=True)
    assert await store.read(plans.auto_roll_for, guild, ann) is False
    await store.write(plans.save_guild_settings, guild, rolled, user_id=99)
    assert await store.read(plans.auto_roll_for, guild, ann) is True
    assert await store.read(plans.auto_roll_for, other_guild, ann) is False
    assert await store.read(plans.auto_roll_for, None, ann) is False  # no server
    await store.write(plans.set_player_auto_roll, ann, False)
    assert await store.read(plans.auto_roll_for, guild, ann) is False
    await store.write(plans.set_player_auto_roll, ann, True)
    assert await store.read(plans.auto_roll_for, other_guild, ann) is True
    await store.write(plans.set_player_auto_roll, ann, None)
    assert await store.read(plans.auto_roll_for, guild, ann) is True  # the server's again
