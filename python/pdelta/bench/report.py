"""Results table (JSON + CSV), the ratios printed side by side, a markdown table and the plot."""
from __future__ import annotations

import csv
import json
from pathlib import Path

NAMES = {
    "a": "(a) rebuild",
    "b": "(b) affected-keys MERGE",
    "c_partial": "(c) pdelta, partial feeds (diff plan)",
    "c_rules": "(c) pdelta, partial feeds, rules plan",
    "c_complete": "(c) pdelta, complete feeds",
    "c_auto": "(c) pdelta, partial, cost-based",
    "c_whole": "(c) pdelta, partial, whole-feed scan",
    "c_unpinned": "(c) pdelta, partial, states read as they are",
    "c_classic": "(c) pdelta, partial, Delta's classic reader",
    "c_complement": "(c) pdelta, partial, keeping its complement",
    "c_complement_batch": "(c) pdelta, partial, its complement kept from each batch",
    "d": "(d) pdelta over CDF mirrors",
}
FIELDS = ["workload", "root_rows", "ratio", "batch", "phase", "contender", "seconds", "statements", "spark_jobs",
          "mode", "changes", "view_rows", "rows_written", "files_added", "bytes_added", "commits", "equal", "date"]


def merge(out: Path, new: list[dict]) -> list[dict]:
    """previous results of other (workload, size) pairs are kept; the rerun ones replaced"""
    path = out / "results.json"
    return merge_into(json.loads(path.read_text()) if path.exists() else [], new)


def merge_into(old: list[dict], new: list[dict]) -> list[dict]:
    redone = {(r["workload"], r["root_rows"]) for r in new}
    return [r for r in old if (r["workload"], r["root_rows"]) not in redone] + new


def write(out: Path, results: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    with open(out / "results.csv", "w", newline="") as f:
        wr = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        wr.writeheader()
        for r in results:
            wr.writerow(r)
    (out / "results.md").write_text(markdown(results))


def _cells(results):
    cells = {}
    for r in results:
        if r["phase"] != "refresh":
            continue
        cells.setdefault((r["workload"], r["root_rows"], r["ratio"]), {})[r["contender"]] = r
    return cells


def ratios(results: list[dict]) -> list[dict]:
    out = []
    for (w, n, ratio), cs in sorted(_cells(results).items()):
        row = {"workload": w, "root_rows": n, "ratio": ratio, "changes": next(iter(cs.values())).get("changes")}
        for c, r in cs.items():
            row[c] = r["seconds"]
            row[c + "_statements"] = r["statements"]
            row[c + "_jobs"] = r.get("spark_jobs")
            if "mode" in r:
                row[c + "_mode"] = r["mode"]
        if "a" in cs:
            for c in cs:
                if c != "a":
                    row[f"{c}/a"] = round(cs[c]["seconds"] / cs["a"]["seconds"], 2)
        if "b" in cs and "c_partial" in cs:
            row["b/c_partial"] = round(cs["b"]["seconds"] / cs["c_partial"]["seconds"], 2)
        if "c_whole" in cs and "c_partial" in cs:
            # the same refresh reading every feed row against reading long feeds through their history
            row["c_whole/c_partial"] = round(cs["c_whole"]["seconds"] / cs["c_partial"]["seconds"], 2)
        if "c_classic" in cs and "c_partial" in cs:
            # the same refresh with every statement through Delta's classic reader against the Kernel reader
            row["c_classic/c_partial"] = round(cs["c_classic"]["seconds"] / cs["c_partial"]["seconds"], 2)
        if "c_unpinned" in cs and "c_partial" in cs:
            # what reading the states as of the bound (pinned, compensated) costs against reading them as they are
            row["c_partial/c_unpinned"] = round(cs["c_partial"]["seconds"] / cs["c_unpinned"]["seconds"], 2)
        if "a" in cs and "c_partial" in cs:
            # what the cost-based choice should have been: the faster of the rebuild and the refresh
            row["faster"] = "rebuild" if cs["a"]["seconds"] < cs["c_partial"]["seconds"] else "incremental"
        out.append(row)
    return out


def markdown(results: list[dict]) -> str:
    rows = ratios(results)
    if not results:
        return ""
    m = results[0].get("machine", {})
    order = [c for c in NAMES if any(c in r for r in rows)]
    whole = any("c_whole/c_partial" in r for r in rows)
    unpinned = any("c_partial/c_unpinned" in r for r in rows)
    classic = any("c_classic/c_partial" in r for r in rows)
    lines = [f"Measured {results[0].get('date')} on {m.get('cores')} cores, {m.get('memory_gib')} GiB "
             f"(Spark local, driver memory {m.get('driver_memory')}, "
             f"{m.get('shuffle_partitions')} shuffle partitions); "
             "seconds per refresh (one dbt invocation each, parse excluded), in brackets the statements sent to Spark "
             "/ the Spark jobs they ran.", "",
             "| workload | root rows | change | changes | " + " | ".join(NAMES[c] for c in order)
             + " | (c) partial ÷ (a) | (b) ÷ (c) partial | " + ("whole-feed scan ÷ (c) partial | " if whole else "")
             + ("(c) partial ÷ states as they are | " if unpinned else "")
             + ("classic reader ÷ (c) partial | " if classic else "")
             + "cost-based choice | rows written (a / b / c partial) | deletion vectors |",
             "|---|---:|---:|---:|" + "---:|" * len(order) + "---:|---:|" + ("---:|" if whole else "")
             + ("---:|" if unpinned else "") + ("---:|" if classic else "")
             + "---|---:|---|"]
    cells_by = _cells(results)
    for r in rows:
        cells = [f"{r[c]:.1f} ({r[c + '_statements']}"
                 + (f" / {r[c + '_jobs']})" if r.get(c + "_jobs") is not None else ")")
                 if c in r else "" for c in order]
        cs = cells_by[(r["workload"], r["root_rows"], r["ratio"])]
        written = " / ".join(f"{cs[c]['rows_written']:,}" if c in cs else "–" for c in ("a", "b", "c_partial"))
        lines.append(f"| {r['workload']} | {r['root_rows']:,} | {r['ratio'] * 100:g}% | {r['changes']:,} | "
                     + " | ".join(cells)
                     + f" | {r.get('c_partial/a', '')} | {r.get('b/c_partial', '')} | "
                     + (f"{r.get('c_whole/c_partial', '')} | " if whole else "")
                     + (f"{r.get('c_partial/c_unpinned', '')} | " if unpinned else "")
                     + (f"{r.get('c_classic/c_partial', '')} | " if classic else "") + f"{_choice(r)} | {written} | "
                     + ("on" if next(iter(cs.values())).get("deletion_vectors") else "off") + " |")
    growth = fixed_delta(results)
    if growth:
        lines += ["", "At a fixed delta (the same number of changed rows, larger base): time at the larger base ÷ "
                  "time at the smaller.", "",
                  "| workload | changes | base sizes | " + " | ".join(NAMES[c] for c in order) + " |",
                  "|---|---:|---|" + "---:|" * len(order)]
        for g in growth:
            lines.append(f"| {g['workload']} | {g['changes']:,} | {g['small']:,} → {g['large']:,} | "
                         + " | ".join(str(g.get(c, "")) for c in order) + " |")
    lines += kept_beside(results)
    lines += statement_breakdown(results)
    return "\n".join(lines) + "\n"


def kept_beside(results: list[dict]) -> list[str]:
    """markdown lines: the bytes each contender that keeps tables beside its view to refresh it keeps there —
    (c) with its complement (issue #21), (d) its mirrors — against its view's, after the build and after the
    last batch (Delta's sizeInBytes: the files of each table's current version)"""
    by_cell: dict[tuple, dict] = {}
    for r in results:
        if r.get("phase") == "kept":
            by_cell.setdefault((r["workload"], r["root_rows"], r["batch"]), {})[r["contender"]] = r
    if not by_cell:
        return []
    lines = ["", "What a contender keeps beside its view to refresh it, in bytes (Delta's sizeInBytes of each table's "
             "current files), after the build (batch 0) and after the last batch:", "",
             "| workload | root rows | after batch | (c) complement mode: view | its complement | (view + complement) "
             "÷ view | (d): view | its mirrors | (view + mirrors) ÷ view |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (w, n, batch), cs in sorted(by_cell.items()):
        cells = []
        for c in ("c_complement", "d"):
            if c in cs:
                view, kept = cs[c]["view_bytes"], cs[c]["kept_bytes"]
                cells += [f"{view:,}", f"{kept:,}", f"{(view + kept) / view:.2f}"]
            else:
                cells += ["–", "–", "–"]
        lines.append(f"| {w} | {n:,} | {batch} | " + " | ".join(cells) + " |")
    return lines


def statement_breakdown(results: list[dict]) -> list[str]:
    """markdown lines: each statement of one pdelta refresh per (workload, size) — the partial-feed
    contender's, else the cost-based one's — of the batch nearest 0.1 % (the later of two equally
    near: a warm one), with its seconds (the fetch of its rows included) and Spark jobs, so the
    fixed cost shows where it sits"""
    present = {r.get("contender") for r in results}
    contender = next((c for c in ("c_partial", "c_auto", "c_complete", "d") if c in present), None)
    picked: dict[tuple, dict] = {}
    for r in results:
        if r.get("phase") == "refresh" and r.get("contender") == contender and r.get("statement_log"):
            key = (r["workload"], r["root_rows"])
            best = picked.get(key)
            if best is None or abs(r["ratio"] - 0.001) <= abs(best["ratio"] - 0.001):
                picked[key] = r
    lines = []
    for (w, n), r in sorted(picked.items()):
        log = r["statement_log"]
        lines += ["", f"{NAMES[contender]}, {w} at {n:,} root rows, {r['ratio'] * 100:g}% ({r['changes']:,} changes): "
                  f"{r['seconds']:.1f} s wall, {len(log)} statements {sum(s['seconds'] for s in log):.1f} s, "
                  f"{sum(s['jobs'] for s in log)} Spark jobs; the rest is dbt and pdelta's macros.", "",
                  "| # | s | jobs | statement |", "|---:|---:|---:|---|"]
        for i, st in enumerate(log, start=1):
            lines.append(f"| {i} | {st['seconds']:.2f} | {st['jobs']} | `{st['head'].replace('|', '¦')}` |")
    return lines


def _choice(row: dict) -> str:
    """the cost-based contender's choice, and which path was faster when both were measured"""
    if "c_auto_mode" not in row:
        return ""
    return row["c_auto_mode"] + (f" (faster: {row['faster']})" if "faster" in row else "")


def fixed_delta(results: list[dict]) -> list[dict]:
    """pairs of cells with the same changed-row target (size × ratio) at different sizes"""
    cells = _cells(results)
    out = []
    keys = sorted(cells)
    for (w, n1, r1) in keys:
        for (w2, n2, r2) in keys:
            if w2 == w and n2 > n1 and abs(n1 * r1 - n2 * r2) < 1e-6 * n1:
                a, b = cells[(w, n1, r1)], cells[(w2, n2, r2)]
                g = {"workload": w, "changes": round(n1 * r1), "small": n1, "large": n2}
                for c in b:
                    if c in a:
                        g[c] = round(b[c]["seconds"] / a[c]["seconds"], 2)
                out.append(g)
    return out


def print_ratios(results: list[dict]) -> None:
    print("seconds per refresh and their ratios (x/a = contender x ÷ rebuild), measured side by side in this run:")
    for r in ratios(results):
        parts = [f"{c}={r[c]:.1f}s/{r[c + '_statements']}st/{r.get(c + '_jobs')}j" for c in NAMES if c in r]
        rel = [f"{k}={v}" for k, v in r.items() if "/" in k]
        print(f"{r['workload']:6s} {r['root_rows']:>11,} {r['ratio']:>8.3%} {r['changes']:>10,} changes | "
              + " ".join(parts) + " | " + " ".join(rel) + (f" | auto: {_choice(r)}" if "c_auto_mode" in r else ""))


def plot(out: Path, results: list[dict]) -> Path | None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    cells = _cells(results)
    panels = sorted({(w, n) for w, n, _ in cells})
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.5), squeeze=False)
    for ax, (w, n) in zip(axes[0], panels):
        xs = sorted(r for ww, nn, r in cells if (ww, nn) == (w, n))
        for c, label in NAMES.items():
            pts = [(x, cells[(w, n, x)][c]["seconds"]) for x in xs if c in cells[(w, n, x)]]
            if pts:
                ax.plot([p[0] * 100 for p in pts], [p[1] for p in pts], marker="o", label=label,
                        linestyle="--" if c in ("c_complete", "c_auto") else "-")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("changed rows per relation (%)")
        ax.set_ylabel("refresh wall time (s)")
        ax.set_title(f"{w}: {n:,} root rows")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    m = results[0].get("machine", {})
    fig.suptitle(f"pdelta benchmark, {results[0].get('date')}, {m.get('cores')} cores / {m.get('memory_gib')} GiB, "
                 "Spark local")
    fig.tight_layout()
    path = out / "results.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


if __name__ == "__main__":
    # python -m pdelta.bench.report DIR: rewrite results.md and results.png from results.json
    import sys

    d = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/bench")
    res = json.loads((d / "results.json").read_text())
    write(d, res)
    plot(d, res)
    print_ratios(res)
