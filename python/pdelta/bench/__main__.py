"""python -m pdelta.bench [--matrix SIZE:RATIO,RATIO ...] [--workloads tpch,chain] [--out DIR]"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import report
from .project import CONTENDERS, EXTRA_CONTENDERS, rebuild_ratio_config
from .run import ROOT, log, run_matrix

DEFAULT_MATRIX = ["1000000:0.0001,0.001,0.01,0.1,0.5"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pdelta.bench", description=__doc__)
    p.add_argument("--matrix", action="append", help="ROOT_ROWS:RATIO,RATIO,... (repeatable; batches run in the order "
                                                     "given, on the same tables); default "
                   + " ".join(DEFAULT_MATRIX))
    p.add_argument("--workloads", default="tpch,chain")
    p.add_argument("--contenders", default=",".join(CONTENDERS),
                   help="comma-separated, the rebuild (a) first; also: " + ", ".join(EXTRA_CONTENDERS))
    p.add_argument("--out", default=str(ROOT / "docs" / "bench"), help="results.{json,csv,md,png} go here")
    p.add_argument("--work", default=os.environ.get("PDELTA_BENCH_DIR", str(ROOT / ".pdelta" / "bench")),
                   help="Spark warehouse, metastore and the generated dbt project")
    p.add_argument("--seed", type=int, default=20261126)
    p.add_argument("--rebuild-ratio", type=rebuild_ratio_config, default="learned",
                   help="pdelta_rebuild_ratio of the cost-based contender c_auto: 'learned' (default: the view's "
                        "own timed refreshes and rebuilds decide, fixed cost included), or a number")
    p.add_argument("--deletion-vectors", action=argparse.BooleanOptionalAction, default=True,
                   help="create every contender's Delta tables with delta.enableDeletionVectors (dbt-spark's "
                        "tblproperties config), so a MERGE marks replaced rows instead of rewriting the files "
                        "they sit in (default: on)")
    p.add_argument("--fresh", action="store_true", help="replace results.json instead of merging into it")
    a = p.parse_args(argv)
    matrix = []
    for spec in a.matrix or DEFAULT_MATRIX:
        size, _, ratios = spec.partition(":")
        matrix.append((int(float(size)), [float(x) for x in ratios.split(",") if x]))
    contenders = a.contenders.split(",")
    if contenders[0] != "a":
        p.error("the rebuild (a) comes first: it is the reference every contender is compared with")
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    previous = [] if a.fresh else report.merge(out, [])

    def save(results):
        merged = report.merge_into(previous, results)
        report.write(out, merged)
        return merged, report.plot(out, merged)

    results = run_matrix(matrix, a.workloads.split(","), contenders, work, a.seed, a.rebuild_ratio, on_batch=save,
                         deletion_vectors=a.deletion_vectors)
    merged, png = save(results)
    log(f"results: {out / 'results.json'}, {out / 'results.csv'}, {out / 'results.md'}" + (f", {png}" if png else ""))
    report.print_ratios(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
