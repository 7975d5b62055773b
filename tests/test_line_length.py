"""No line of the repository's code is longer than 120 characters: Python, SQL, shell and YAML
under python/, tests/, scripts/, macros/ and integration_tests/, plus the Makefile,
profiles.yml.example and .ci/ (profiles.yml is each machine's copy of the example, not the
repository's). Generated files count too (`pdelta gen-macros` writes lines of at most 120). docs/
(markdown) is not checked."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 120
FOLDERS = ("python", "tests", "scripts", "macros", "integration_tests")
SUFFIXES = {".py", ".sql", ".sh", ".yml", ".yaml"}
# dbt's and pdelta's working folders, installed packages
SKIPPED = {"dbt_packages", "target", "logs", ".pdelta", ".venv", "__pycache__"}
SHOWN = 20


def checked_files() -> list[Path]:
    files = [ROOT / "Makefile", ROOT / "profiles.yml.example", *(ROOT / ".ci").glob("*")]
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in SUFFIXES and not SKIPPED & set(path.relative_to(ROOT).parts):
                files.append(path)
    return sorted(p for p in files if p.is_file())


def long_lines(path: Path) -> list[tuple[int, int]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return [(n, len(line)) for n, line in enumerate(text.splitlines(), 1) if len(line) > LIMIT]


def test_no_line_longer_than_120_characters():
    files = checked_files()
    assert ROOT / "Makefile" in files and any(p.suffix == ".sql" for p in files), "no code files found"
    offenders = [f"{p.relative_to(ROOT)}:{n}:{length}" for p in files for n, length in long_lines(p)]
    if offenders:
        pytest.fail(f"{len(offenders)} line(s) longer than {LIMIT} characters (file:line:length), "
                    f"the first {min(len(offenders), SHOWN)}:\n" + "\n".join(offenders[:SHOWN]), pytrace=False)
