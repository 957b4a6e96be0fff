"""python -m bot: the Discord bot's entry point (the bot itself lands with the next issue)."""

import sys


def main() -> int:
    """Explain what is missing until the Discord side exists."""
    print(
        "The Yahtzee rules engine is ready (bot/engine), but the Discord bot is not built yet; "
        "run the tests with: bash scripts/test.sh",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
