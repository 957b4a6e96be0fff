"""The features' builders as the shared parts reach them: registered by each feature as it
loads; a part of a feature not loaded says which extension to load, never shows a default."""

from __future__ import annotations

import pytest

from cogs.shared.looks import FeatureNotLoaded, Looks


@pytest.mark.parametrize(
    ("part", "name", "extension"),
    [("turn", "board_embed", "cogs.turn.cog"), ("lobby", "lobby_edit", "cogs.lobby.cog"),
     ("results", "final_layout", "cogs.results.cog"), ("daily", "daily_result_layout",
     "cogs.daily.cog")],
)  # fmt: skip
def test_a_feature_not_loaded_names_its_extension(part: str, name: str, extension: str) -> None:
    with pytest.raises(FeatureNotLoaded, match=f"{name}: load the extension {extension}"):
        getattr(getattr(Looks(), part), name)


def test_a_registered_feature_is_reached_by_its_own_builders() -> None:
    from cogs.lobby import messages

    looks = Looks()
    looks.lobby = messages
    assert looks.lobby.lobby_edit is messages.lobby_edit
    with pytest.raises(FeatureNotLoaded):
        looks.turn.board_view  # noqa: B018  (another feature: still not loaded)
