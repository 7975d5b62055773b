"""`pdelta` command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import algebra

MACRO_PATH = Path("macros") / "algebra" / "delta_model.sql"
SEED_PATH = Path("seeds") / "examples" / "algebra" / "algebra_expected.csv"


def find_project_root(start: Path) -> Path:
    for p in [start, *start.parents]:
        if (p / "dbt_project.yml").exists():
            return p
    raise SystemExit("pdelta: no dbt_project.yml here or above")


def cmd_gen_macros(args: argparse.Namespace) -> int:
    root = find_project_root(Path.cwd())
    stale = 0
    for path, text in ((MACRO_PATH, algebra.render_macro()), (SEED_PATH, algebra.render_flag_seed())):
        target = root / path
        if args.check:
            if not target.exists() or target.read_text() != text:
                print(f"pdelta: {path} is out of date; run `pdelta gen-macros`", file=sys.stderr)
                stale += 1
            else:
                print(f"pdelta: {path} is up to date")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"pdelta: wrote {path}")
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pdelta", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen-macros", help="write macros/algebra/delta_model.sql and the algebra seed from the Python delta model")
    gen.add_argument("--check", action="store_true", help="only check that the file is up to date")
    gen.set_defaults(func=cmd_gen_macros)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
