"""The service steps of docs/operating.md and deploy/yahtzee-bot.service: the token's file
private, the bot able to write its data folder and nothing else."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def unit() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(ROOT / "deploy" / "yahtzee-bot.service", encoding="utf-8")
    return parser["Service"]


def systemd_steps() -> str:
    manual = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    start = manual.index("**systemd.**")
    block = re.search(r"```sh\n(.*?)```", manual[start:], re.S)
    assert block is not None
    return block.group(1)


def test_the_unit_writes_only_its_data_folder() -> None:
    """The system read-only (strict), the data folder the one writable place, and the
    database in it; files it makes private to it."""
    service = unit()
    assert service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"].split() == ["/var/lib/yahtzee-bot"]
    assert service["StateDirectory"] == "yahtzee-bot"
    assert "DATA_DIR=/var/lib/yahtzee-bot" in (
        (ROOT / "deploy" / "yahtzee-bot.service").read_text(encoding="utf-8")
    )
    assert service["UMask"] == "0077" and service["ProtectHome"] == "true"
    assert service["NoNewPrivileges"] == "true" and service["PrivateTmp"] == "true"


def test_the_service_steps_keep_the_token_private_and_the_code_the_bots_readonly() -> None:
    """.env is made 0600 for the bot's user; the code is not handed to that user."""
    steps = systemd_steps()
    assert re.search(r"install -m 600 -o yahtzee -g yahtzee \S+ \.env", steps), steps
    assert "cp .env.example .env" not in steps
    assert not re.search(r"chown\b.*?/opt/yahtzee-bot", steps), steps
    assert "sudo -u yahtzee bash scripts/bootstrap.sh" not in steps


def test_the_unit_takes_a_postgresql_url_from_env_and_keeps_its_files_in_the_data_folder() -> None:
    """The unit names the data folder, not a SQLite file: a DATABASE_URL added to .env is not
    'both', and the strategy tables still go where the bot may write."""
    from bot.settings import Settings

    text = (ROOT / "deploy" / "yahtzee-bot.service").read_text(encoding="utf-8")
    env = dict(re.findall(r"^Environment=(\w+)=(.*)$", text, re.M))
    sqlite = Settings.from_mapping({**env, "DISCORD_TOKEN": "x.y.z"})
    assert sqlite.database == Path("/var/lib/yahtzee-bot/yahtzee.sqlite3")
    url = "postgresql://bot@db:5432/yahtzee"
    shared = Settings.from_mapping({**env, "DISCORD_TOKEN": "x.y.z", "DATABASE_URL": url})
    assert shared.database == url
    assert shared.data_dir == Path("/var/lib/yahtzee-bot")


def test_the_unit_is_hardened_and_points_to_its_docs() -> None:
    """No capabilities, the address families the bot uses (Discord, PostgreSQL, the metrics;
    its helper processes' pipes), the system calls of a service, a memory ceiling; its
    comment names a section that exists."""
    service = unit()
    assert service["CapabilityBoundingSet"] == ""
    assert service["RestrictAddressFamilies"].split() == ["AF_UNIX", "AF_INET", "AF_INET6"]
    assert service["SystemCallFilter"] == "@system-service"
    assert re.fullmatch(r"\d+[KMG]", service["MemoryMax"])
    text = (ROOT / "deploy" / "yahtzee-bot.service").read_text(encoding="utf-8")
    named = re.search(r'see (\S+),\s*#?\s*"([^"]+)"', text)
    assert named is not None, text[:300]
    doc, section = named.groups()
    assert f"\n## {section}\n" in (ROOT / doc).read_text(encoding="utf-8")


def test_every_install_is_the_hashed_lock_with_a_fixed_pip() -> None:
    """A platform that installs requirements.txt (the Procfile's) gets requirements/lock.txt,
    hashes and all (pip checks the hashes of an included file); bootstrap pins pip itself."""
    from pip._internal.network.session import PipSession
    from pip._internal.req.req_file import parse_requirements

    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines == ["-r requirements/lock.txt"]
    parsed = list(parse_requirements(str(ROOT / "requirements.txt"), session=PipSession()))
    assert len(parsed) > 10
    assert all((r.options or {}).get("hashes") for r in parsed)
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    assert "--upgrade pip" not in bootstrap
    assert re.search(r'install "pip==\$PIP_VERSION"', bootstrap)
    assert re.search(r"^PIP_VERSION=\d+\.\d+(\.\d+)?$", bootstrap, re.M)
