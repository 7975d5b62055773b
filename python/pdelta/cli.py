"""`pdelta` command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import algebra

MACRO_PATH = Path("macros") / "algebra" / "delta_model.sql"


def find_project_root(start: Path) -> Path:
    for p in [start, *start.parents]:
        if (p / "dbt_project.yml").exists():
            return p
    raise SystemExit("pdelta: no dbt_project.yml here or above")


def cmd_gen_macros(args: argparse.Namespace) -> int:
    root = find_project_root(Path.cwd())
    target = root / MACRO_PATH
    text = algebra.render_macro()
    if args.check:
        if not target.exists() or target.read_text() != text:
            print(f"pdelta: {MACRO_PATH} is out of date; run `pdelta gen-macros`", file=sys.stderr)
            return 1
        print(f"pdelta: {MACRO_PATH} is up to date")
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    print(f"pdelta: wrote {MACRO_PATH}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pdelta", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen-macros", help="write macros/algebra/delta_model.sql from the Python delta model")
    gen.add_argument("--check", action="store_true", help="only check that the file is up to date")
    gen.set_defaults(func=cmd_gen_macros)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
