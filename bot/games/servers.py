"""A server's settings, and ending games: by the host or an admin, or because Discord no longer
lets the bot reach them."""

from __future__ import annotations

import logging

from bot.engine import (
    Preset,
    TimeoutPolicy,
)
from bot.i18n import LANGUAGE_NAMES
from bot.store import (
    NO_MESSAGE,
    GameChange,
    GameRow,
    GameStatus,
    GuildSettings,
    MoveRecord,
    TokenRecord,
    plans,
)

from .clock import TURN_LIMITS
from .keeper import Keeper
from .lookups import Lookups
from .posts import Posts
from .results import GameView, Refusal, view_of, view_or_none

log = logging.getLogger(__name__)


class Servers:
    """A server's settings (and a player's own: /yahtzee notify), and ending games: by the
    host or an admin, or because Discord no longer lets the bot reach them."""

    def __init__(self, keeper: Keeper, lookups: Lookups, posts: Posts) -> None:
        self.keeper = keeper
        self.store = keeper.store
        self.lookups = lookups
        self.posts = posts

    async def token_places(self) -> set[int]:
        """The channels the bot reaches only through interactions' tokens (issue 43)."""
        return await self.store.read(plans.token_places)

    async def note_token_place(self, channel_id: int, kind: str, by_token: bool = True) -> None:
        """Whether the bot reaches ``channel_id`` only through interactions' tokens (a group
        DM, a server that never added it) or, since the server added it, by its own routes:
        kept, so that a restarted bot posts nothing where it cannot."""
        if by_token:
            await self.store.write(plans.note_token_place, channel_id, kind)
        else:
            await self.store.write(plans.forget_token_place, channel_id)
        self.keeper.placed(channel_id, "token" if by_token else "channel")

    async def save_token(self, record: TokenRecord) -> None:
        """Keep an interaction's token for its 15 minutes (a place only tokens reach): a
        restarted bot still reaches the messages it made or showed."""
        await self.store.write(plans.save_token, record)

    async def fresh_tokens(self, now: float) -> list[TokenRecord]:
        """The tokens kept that are still good at ``now`` (seconds), oldest first."""
        return await self.store.read(plans.fresh_tokens, now)

    async def server_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings."""
        return await self.store.read(plans.guild_settings, guild_id)

    async def change_settings(
        self, guild_id: int, user_id: int, is_admin: bool, **changes: object
    ) -> GuildSettings:
        """Validate and store changed server settings (Manage Server only)."""
        if not is_admin:
            raise Refusal("Only members with the Manage Server permission can change settings.")
        current = await self.store.read(plans.guild_settings, guild_id)
        values = {
            "preset": current.preset,
            "turn_seconds": current.turn_seconds,
            "timeout_policy": current.timeout_policy,
            "use_threads": current.use_threads,
            "auto_roll": current.auto_roll,
            "language": current.language,
        }
        for key, value in changes.items():
            if key not in values:
                raise Refusal("There is no setting called {key}.", key=repr(key))
            values[key] = value
        try:
            chosen = values["preset"]
            preset = Preset.parse(chosen if isinstance(chosen, Preset) else str(chosen))
            seconds = int(str(values["turn_seconds"]))
            policy = TimeoutPolicy(str(values["timeout_policy"])).value
        except ValueError:
            raise Refusal("That value is not one of the choices; pick one from the menu.") from None
        if seconds not in TURN_LIMITS:
            raise Refusal("The turn time limit must be one of the choices in the menu.")
        language = values["language"]
        if language is not None and language not in LANGUAGE_NAMES:
            raise Refusal("That value is not one of the choices; pick one from the menu.")
        settings = GuildSettings(
            preset, seconds, policy, bool(values["use_threads"]), bool(values["auto_roll"]),
            None if language is None else str(language),
        )  # fmt: skip
        await self.store.write(plans.save_guild_settings, guild_id, settings, user_id)
        return settings

    async def notify_wanted(self, user_id: int) -> bool:
        """Whether a player asked to be told privately of their waiting turns."""
        return await self.store.read(plans.player_notify, user_id)

    async def set_notify(self, user_id: int, on: bool, language: str | None = None) -> None:
        """A player's /yahtzee notify choice (off again when their DMs turn out closed), and
        the language of their notices (their client's; None: as it was)."""
        await self.store.write(plans.set_player_notify, user_id, on, language)

    async def notice_language(self, user_id: int) -> str | None:
        """The language a player's private turn notices are written in (None: the game's)."""
        return await self.store.read(plans.player_language, user_id)

    async def set_notice_language(self, user_id: int, language: str) -> None:
        """A player's notices are written in ``language`` from now on (their client's)."""
        await self.store.write(plans.set_player_language, user_id, language)

    async def auto_roll_choice(self, user_id: int) -> bool | None:
        """A player's own choice for each turn's opening roll (None: their server's)."""
        return await self.store.read(plans.player_auto_roll, user_id)

    async def set_auto_roll(self, user_id: int, on: bool | None) -> None:
        """A player's /yahtzee autoroll choice (None: follow the server's setting)."""
        await self.store.write(plans.set_player_auto_roll, user_id, on)

    async def check_can_end(self, channel_id: int, user_id: int, is_admin: bool) -> GameView:
        """The game a user may end here, or a refusal."""
        row = await self.lookups.live_game(channel_id)
        if user_id != row.host_id and not is_admin:
            raise Refusal("Only the host or a member with Manage Server can end this game.")
        return row

    async def end(self, game_id: int, user_id: int, is_admin: bool) -> GameView:
        """End a lobby or game early; it is kept as abandoned and records no results."""

        async def work() -> GameRow:
            row = await self.keeper.row(game_id)
            if not row.is_live:
                raise Refusal("This game has already ended.")
            if user_id != row.host_id and not is_admin:
                raise Refusal("Only the host or a member with Manage Server can end this game.")
            status = (
                GameStatus.ABANDONED if row.status == GameStatus.ACTIVE else GameStatus.CANCELLED
            )
            return await self.keeper.save(
                row, MoveRecord(user_id, "end"), change=GameChange(status=status)
            )

        return view_of(await self.keeper.locked(game_id, work))

    async def unreachable(self, game_id: int, reason: str) -> GameView | None:
        """The bot can no longer show this game (it lost access to the channel, the channel
        or its board is gone for good): the game ends as abandoned and records nothing, so
        that no timer plays it on unseen. None if it had ended already (a finished game
        keeps its results; its final message is no longer waited for)."""

        async def work() -> GameRow | None:
            row = await self.store.read(plans.get_game, game_id)
            if row is None:
                return None
            if not row.is_live:
                if row.status == GameStatus.FINISHED and row.final_message_id is None:
                    # its final message can never be posted: stop trying at every reconnect
                    await self.posts.final_posted(game_id, NO_MESSAGE)
                return None
            status = (
                GameStatus.ABANDONED if row.status == GameStatus.ACTIVE else GameStatus.CANCELLED
            )
            move = MoveRecord(None, "unreachable", reason)
            return await self.keeper.save(
                row, move, change=GameChange(status=status, deadline_at=None, ping_at=None)
            )

        return view_or_none(await self.keeper.locked(game_id, work))
