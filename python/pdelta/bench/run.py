"""Runs the benchmark matrix: for each workload and base size, generate the base states with
Spark, build every contender once, then apply one change batch per ratio (ascending) and
refresh each contender on the identical inputs, timing each dbt invocation. After each batch
every contender's table must equal the rebuild's (EXCEPT ALL both ways) before any time of
that batch is recorded.

    python -m pdelta.bench --matrix 1000000:0.0001,0.001,0.01,0.1,0.5 --out docs/bench
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from ..statements import statement_text
from .project import (
    COMPLEMENT_CONTENDERS, CONTENDERS, SCHEMA, b_sql, contender_models, contender_tables, kept_tables, q, t,
    write_project,
)
from .workloads import WORKLOADS, Rel, Workload

ROOT = Path(os.environ.get("PDELTA_HOME") or Path(__file__).resolve().parents[3])
UPDATE_SHARE, DELETE_SHARE, INSERT_SHARE = 0.6, 0.2, 0.2
STATEMENTS: list[dict] = []  # the statements of the refresh being timed: seconds, Spark jobs, head


def log(msg: str) -> None:
    print(f"[bench {dt.datetime.now(dt.timezone.utc):%H:%M:%S}] {msg}", flush=True)


def statement_head(sql: str) -> str:
    """a statement without dbt's query comment, whitespace folded, cut to 100 characters"""
    return statement_text(sql)[:100]


def count_statements() -> None:
    """record every statement the process sends to Spark (dbt-spark session mode calls
    SparkSession.sql once per statement, metadata queries included, and fetches a query's rows
    with `collect` or `take`, which is when a query runs: that time and those jobs are the
    statement's too)"""
    from pyspark.sql import SparkSession
    from pyspark.sql.classic.dataframe import DataFrame

    orig = SparkSession.sql
    if getattr(orig, "_pdelta_counting", False):
        return

    def sql(self, query, *a, **k):
        jobs, start = spark_jobs(self), time.perf_counter()
        try:
            return orig(self, query, *a, **k)
        finally:
            STATEMENTS.append({"head": statement_head(query), "seconds": time.perf_counter() - start,
                               "jobs": spark_jobs(self) - jobs})

    def fetching(method):
        def fetch(self, *a, **k):
            jobs, start = spark_jobs(self.sparkSession), time.perf_counter()
            try:
                return method(self, *a, **k)
            finally:
                if STATEMENTS:
                    STATEMENTS[-1]["seconds"] += time.perf_counter() - start
                    STATEMENTS[-1]["jobs"] += spark_jobs(self.sparkSession) - jobs
        return fetch

    sql._pdelta_counting = True
    SparkSession.sql = sql
    DataFrame.collect, DataFrame.take = fetching(DataFrame.collect), fetching(DataFrame.take)


def spark_jobs(spark) -> int:
    """how many Spark jobs the application has started so far (job ids are sequential)"""
    next_id = spark.sparkContext._jsc.sc().dagScheduler().nextJobId()
    # an Int in Spark 4 (one py4j call, ~0.5 ms); an AtomicInteger in older builds. The status
    # tracker's job list is no substitute: iterating it costs ~50 ms per call through py4j, and the
    # bench now asks twice per statement
    return int(next_id if isinstance(next_id, int) else next_id.get())


class Dbt:
    def __init__(self, project: Path):
        from dbt.cli.main import dbtRunner

        self.project, self.runner = project, dbtRunner()

    def __call__(self, *args: str):
        res = self.runner.invoke([*args, "--project-dir", str(self.project), "--profiles-dir", str(ROOT), "--quiet"])
        if not res.success:
            why = res.exception or "; ".join(f"{r.node.name}: {r.message}" for r in getattr(res.result, "results", [])
                                            if str(r.status) in ("error", "fail", "RunStatus.Error"))
            raise RuntimeError(f"dbt {' '.join(args)} failed: {why}")
        return res

    def parse(self) -> None:
        """parse once; later invocations reuse the manifest (no per-run parse in the timings)"""
        from dbt.cli.main import dbtRunner

        res = self("parse")
        self.runner = dbtRunner(manifest=res.result)


# ---------------------------------------------------------------- data generation (Spark)

def cols_sql(rel: Rel, id_expr: str, seed: int, keep: list[str] | None = None) -> str:
    """key and attributes: generated from the expressions, or kept (`keep` columns) as they are"""
    out = [f"{id_expr} as {q(rel.key)}"]
    for c in rel.attrs:
        if keep is not None and c in keep:
            out.append(q(c))
        else:
            expr = rel.gen[c].format(id=id_expr, s=int(seed))
            out.append(f"cast({expr} as {rel.type_of(c)}) as {q(c)}")
    return ", ".join(out)


def struct_type(rel: Rel) -> str:
    return "struct<" + ", ".join(f"{q(c)}: {rel.type_of(c)}" for c in rel.attrs) + ">"


def generate_base(spark, w: Workload, seed: int, work: Path) -> str:
    """base states; returns which generator made the TPC-H rows"""
    how = "spark"
    tpchgen = shutil.which("tpchgen-cli") or (shutil.which("tpchgen-cli", path=str(Path(sys.executable).parent)))
    if w.name == "tpch" and tpchgen:
        sf = w.root.size / 150_000
        out = work / f"tpch_sf{sf:.6f}"
        if not (out / "customer.parquet").exists():
            shutil.rmtree(out, ignore_errors=True)
            subprocess.run([tpchgen, "parquet", "-s", f"{sf:.6f}", "--tables", "customer,nation,region",
                            "--output-dir", str(out)], check=True, capture_output=True)
        for r in w.rels:
            df = spark.read.parquet(str(out / f"{r.name}.parquet"))
            view = f"bench_src_{r.name}"
            df.createOrReplaceTempView(view)
            sel = ", ".join(f"cast({q(c)} as {typ}) as {q(c)}" for c, typ in r.columns)
            spark.sql(f"create or replace table {t(w.table(r))} using delta as select {sel} from {q(view)}")
            r.size = spark.table(t(w.table(r))).count()
        how = "tpchgen-cli (TPC-H's generator), scale factor %.4f" % sf
    else:
        for r in w.rels:
            parts = max(2, r.size // 250_000)
            spark.sql(f"create or replace table {t(w.table(r))} using delta as "
                      f"select {cols_sql(r, 'id', seed)} from range({int(r.first_key)}, {int(r.first_key + r.size)}, "
                      f"1, {int(parts)})")
    for r in w.rels:
        attrs = ", ".join(q(c) for c in r.attrs)
        for kind in ("partial", "complete"):
            spark.sql(f"create or replace table {t(w.table(r, '__' + kind))} using delta as "
                      f"select {q(r.key)}, {attrs}, cast(null as {struct_type(r)}) as `_pdelta_before`, "
                      f"cast(null as string) as `_pdelta_type`, cast(null as bigint) as `_pdelta_seq` "
                      f"from {t(w.table(r))} where false")
    return how


def apply_batch(spark, w: Workload, batch: int, ratio: float, seed: int, next_key: dict) -> dict:
    """one change batch on every relation: ~60 % updates, 20 % deletes, 20 % inserts of
    ratio × rows; applied to the states, appended to both feeds (_pdelta_seq = batch)"""
    rng = random.Random(seed * 7919 + batch)
    counts = {}
    bseed = seed * 1000 + batch
    for r in w.rels:
        size = r.size
        ev = t(w.table(r, "__ev"))
        u_upd, u_del = ratio * UPDATE_SHARE, ratio * (UPDATE_SHARE + DELETE_SHARE)
        want = ratio * INSERT_SHARE * size
        n_ins = int(want) + (1 if rng.random() < want - int(want) else 0)
        attrs = ", ".join(q(c) for c in r.attrs)
        before = "struct(" + ", ".join(f"{q(c)} as {q(c)}" for c in r.attrs) + ")"
        u = f"pmod(xxhash64({q(r.key)}, {int(bseed)}), 1000000000) / 1e9"
        spark.sql(f"""create or replace table {ev} using delta as
            with s as (select *, {u} as _u from {t(w.table(r))})
            select {cols_sql(r, q(r.key), bseed,
                             keep=[c for c in r.attrs if c not in r.mutable])}, {before} as _before, 'upd' as _op
              from s where _u < {float(u_upd)!r}
            union all
            select {q(r.key)}, {attrs}, cast(null as {struct_type(r)}) as _before, 'del' as _op
              from s where _u >= {float(u_upd)!r} and _u < {float(u_del)!r}
            union all
            select {cols_sql(r, 'id', bseed)}, cast(null as {struct_type(r)}) as _before, 'ins' as _op
              from range({int(next_key[r.name])}, {int(next_key[r.name] + n_ins)})""")
        next_key[r.name] += n_ins
        k = q(r.key)
        spark.sql(f"""merge into {t(w.table(r))} as t using {ev} as s on t.{k} = s.{k}
            when matched and s._op = 'del' then delete
            when matched then update set {", ".join(f"t.{q(c)} = s.{q(c)}" for c in r.attrs)}
            when not matched and s._op = 'ins' then insert ({k}, {attrs}) values (s.{k}, {", ".join(f"s.{q(c)}"
                                                                                for c in r.attrs)})""")
        spark.sql(f"insert into {t(w.table(r, '__complete'))} select {k}, {attrs}, "
                  f"case when _op = 'upd' then _before end, _op, cast({int(batch)} as bigint) from {ev}")
        # partial: change tracking on the root (ins, up, delk), upsert feeds elsewhere (ups, delk)
        typ = ("case _op when 'ins' then 'ins' when 'upd' then 'up' else 'delk' end" if r.parent is None
               else "case when _op = 'del' then 'delk' else 'ups' end")
        known = ", ".join(f"case when _op = 'del' then null else {q(c)} end" for c in r.attrs)
        spark.sql(f"insert into {t(w.table(r, '__partial'))} select {k}, {known}, "
                  f"cast(null as {struct_type(r)}), {typ}, cast({int(batch)} as bigint) from {ev}")
        c = {row[0]: row[1] for row in spark.sql(f"select _op, count(*) from {ev} group by _op").collect()}
        counts[r.name] = {"ins": c.get("ins", 0), "upd": c.get("upd", 0), "del": c.get("del", 0)}
        r.size = spark.table(t(w.table(r))).count()
    return counts


# ---------------------------------------------------------------- measuring

def delta_metrics(spark, tables: list[str], since_ms: int) -> dict:
    """rows, files and bytes written by the commits since `since_ms`, from Delta's history; a
    table of another format (pdelta's parquet stage) counts its rows, files and bytes when it
    was created since then (no commit)"""
    out = {"commits": 0, "rows_written": 0, "files_added": 0, "bytes_added": 0}
    for name in tables:
        if not spark.catalog.tableExists(f"{SCHEMA}.{name}"):
            continue
        jvm = spark._jvm
        meta = spark._jsparkSession.sessionState().catalog().getTableMetadata(
            jvm.org.apache.spark.sql.catalyst.TableIdentifier(name, jvm.scala.Some(SCHEMA)))
        if meta.provider().get().lower() != "delta":
            if meta.createTime() >= since_ms - 1000:
                table = spark.table(t(name))
                paths = [jvm.org.apache.hadoop.fs.Path(f) for f in table.inputFiles()]
                conf = spark._jsc.hadoopConfiguration()
                out["rows_written"] += table.count()
                out["files_added"] += len(paths)
                out["bytes_added"] += sum(p.getFileSystem(conf).getFileStatus(p).getLen() for p in paths)
            continue
        for row in spark.sql(f"describe history {t(name)}").collect():
            if row["timestamp"].replace(tzinfo=dt.timezone.utc).timestamp() * 1000 < since_ms - 1000:
                continue
            m = row["operationMetrics"] or {}
            out["commits"] += 1
            out["rows_written"] += int(m.get("numOutputRows", m.get("numCopiedRows", 0)) or 0)
            out["files_added"] += int(m.get("numFiles", m.get("numTargetFilesAdded", m.get("numAddedFiles", 0))) or 0)
            out["bytes_added"] += int(m.get("numOutputBytes", m.get("numTargetBytesAdded",
                                                                    m.get("numAddedBytes", 0))) or 0)
    return out


def check_equal(spark, w: Workload, contenders: list[str]) -> dict:
    """every contender's table equal to the rebuild's, in one pass: grouped by the view's key
    over all the tables, each key must have exactly one row in each table and the same row in
    all of them (min = max of the row); raises with each differing contender's counts"""
    cols = w.view_columns()
    key = [w.root.key]  # the view's key: the root's, an output column
    tables = [t(f"{w.name}_{c}") for c in contenders]
    ref = t(f"{w.name}_a")
    n = spark.table(ref).count()
    if len(tables) > 1:
        row_sql = "struct(" + ", ".join(q(c) for c in cols) + ")"
        union = " union all ".join(f"select {i} as `_src`, {', '.join(q(c) for c in key)}, {row_sql} as `_row` "
                                   f"from {tb}"
                                   for i, tb in enumerate(tables))
        once = " and ".join(f"count_if(`_src` = {i}) = 1" for i in range(len(tables)))
        bad = spark.sql(f"select count(*) from (select 1 from ({union}) group by {', '.join(q(c) for c in key)} "
                        f"having not ({once} and min(`_row`) <=> max(`_row`)))").collect()[0][0]
        if bad:
            diffs = []
            colsql = ", ".join(q(c) for c in cols)
            for c, other in zip(contenders, tables):
                if other == ref:
                    continue
                row = spark.sql(f"select (select count(*) from (select {colsql} from {other} "
                                f"except all select {colsql} from {ref})), "
                                f"(select count(*) from (select {colsql} from {ref} "
                                f"except all select {colsql} from {other}))").collect()[0]
                if row[0] or row[1]:
                    diffs.append(f"contender {c} differs from the rebuild: {row[0]} rows extra, {row[1]} missing")
            raise AssertionError(f"{w.name}: {bad} keys differ across contenders; "
                                 + ("; ".join(diffs) or "duplicate keys"))
    return {"view_rows": n}


def timed(spark, dbt: Dbt, w: Workload, contender: str, full: bool = False) -> dict:
    # every contender starts with Delta's snapshot cache empty, as a refresh in its own process after
    # another writer's commit does: otherwise the first contender to read a changed table pays its
    # snapshot load (0.5-2 s, up to ~10 jobs per table) and the ones after it read it for free
    spark._jvm.org.apache.spark.sql.delta.DeltaLog.clearCache()
    since = int(time.time() * 1000)
    STATEMENTS.clear()
    jobs_before = spark_jobs(spark)
    start = time.perf_counter()
    models = contender_models(w, contender)
    if full and contender == "d":
        models = models[-1:]  # the mirrors and their cdf views were built just before
    dbt("run", "-s", *models, *(["--full-refresh"] if full else []))
    seconds = time.perf_counter() - start
    statements = [{**s, "seconds": round(s["seconds"], 3)} for s in STATEMENTS]
    out = {"contender": contender, "seconds": round(seconds, 3), "statements": len(statements),
           "spark_jobs": spark_jobs(spark) - jobs_before, "statement_log": statements}
    out.update(delta_metrics(spark, contender_tables(w, contender), since))
    if contender.startswith("c_") or contender == "d":
        mode, out["view_changes"] = last_batch(spark, f"{w.name}_{contender}")
        # a refresh the cost model turned into a plain rebuild is a `full` batch (its readers rebuild)
        out["mode"] = "rebuild" if mode == "full" and not full else mode
    return out


def check_complements(dbt: Dbt, contenders: list[str]) -> None:
    """the complement of each contender in complement mode gives back every relation as its state holds it: the
    package's data test complements_reconstruct_states (each relation's rows counted in its state and in the
    reconstruction) fails the run otherwise"""
    if set(COMPLEMENT_CONTENDERS) & set(contenders):
        dbt("test", "--select", "complements_reconstruct_states")


def kept_sizes(spark, w: Workload, contenders: list[str], batch: int) -> list[dict]:
    """per contender that keeps tables beside its view to refresh it (c_complement: its complement, d: its
    mirrors), each table's bytes, files and rows (Delta's `describe detail`: the files of its current version),
    the view's bytes and those kept beside it"""
    out = []
    for c in contenders:
        kept = kept_tables(w, c)
        if not kept:
            continue
        view = f"{w.name}_{c}"
        tables = {}
        for name in [view, *kept]:
            detail = spark.sql(f"describe detail {t(name)}").collect()[0]
            rows = spark.sql(f"select count(*) from {t(name)}").collect()[0][0]
            tables[name] = {"bytes": detail["sizeInBytes"], "files": detail["numFiles"], "rows": rows}
        out.append({"phase": "kept", "contender": c, "batch": batch, "tables": tables,
                    "view_bytes": tables[view]["bytes"],
                    "kept_bytes": sum(v["bytes"] for name, v in tables.items() if name != view)})
        counts = ", ".join(f"{name}: {v['rows']:,} rows" for name, v in tables.items())
        log(f"{w.name} after batch {batch}: {c} keeps {out[-1]['kept_bytes']:,} bytes beside its view's "
            f"{out[-1]['view_bytes']:,} ({counts})")
    return out


def last_batch(spark, view: str) -> tuple[str, dict]:
    """the mode and the six-set counts of a pdelta view's last batch, from its batch log"""
    # a full build logs `full-started` and then `full` under one batch id: the latter is the outcome
    row = spark.sql(f"select `mode`, `counts` from {t(view + '__pdelta_batches')} where `mode` <> 'full-started' "
                    "order by `batch_id` desc limit 1").collect()[0]
    return row["mode"], json.loads(row["counts"]) if row["counts"] else {}


def machine() -> dict:
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = round(int(line.split()[1]) / 1024 / 1024)
    except OSError:
        pass
    return {"cores": os.cpu_count(), "memory_gib": mem, "python": platform.python_version(),
            "driver_memory": os.environ.get("PDELTA_DRIVER_MEMORY", "4g"),
            "shuffle_partitions": os.environ.get("PDELTA_SHUFFLE_PARTITIONS", "2")}


def run_matrix(matrix: list[tuple[int, list[float]]], workloads: list[str], contenders: list[str], work: Path,
               seed: int, rebuild_ratio: float | str, on_batch=None, deletion_vectors: bool = True) -> list[dict]:
    """runs the matrix; `on_batch(results)` after every checked batch (results so far), so a run
    cut short still leaves its measured batches"""
    from pdelta.spark import session_from_profile

    os.environ.update({"PDELTA_LOCAL_DIR": str(work / "spark"), "PDELTA_SCHEMA": SCHEMA,
                       "PDELTA_TARGET": "local"})
    spark = session_from_profile(ROOT)
    count_statements()
    spark.sql(f"drop database if exists {q(SCHEMA)} cascade")
    spark.sql(f"create database {q(SCHEMA)}")
    results = []
    today = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    for size, ratios in matrix:
        ws = [WORKLOADS[n](size) for n in workloads]
        project = work / "project"
        shutil.rmtree(project / "models", ignore_errors=True)
        write_project(project, ROOT, ws, rebuild_ratio, deletion_vectors)
        dbt = Dbt(project)
        if not (project / "dbt_packages").exists():
            dbt("deps")
        dbt.parse()
        for w in ws:
            log(f"{w.name} at {size:,} root rows: generating")
            t0 = time.perf_counter()
            how = generate_base(spark, w, seed, work)
            sizes = {r.name: r.size for r in w.rels}
            log(f"{w.name}: base {sizes} by {how} in {time.perf_counter() - t0:.0f}s")
            spark.sql(b_sql(w)["wm_create"])
            spark.sql(f"delete from {t(w.name + '_b__wm')}")
            next_key = {r.name: r.first_key + r.size for r in w.rels}
            base = {"workload": w.name, "root_rows": size, "base_rows": sizes, "generator": how, "date": today,
                    "machine": machine(), "rebuild_ratio": rebuild_ratio, "deletion_vectors": deletion_vectors}
            # the initial builds (full), in dependency order: the cdf views need the mirrors
            for c in contenders:
                if c == "d":
                    dbt("run", "-s", *[f"{w.table(r)}_mirror" for r in w.rels], "--full-refresh")
                    dbt("run", "-s", *[f"{w.table(r)}_cdf" for r in w.rels])
                res = timed(spark, dbt, w, c, full=True)
                results.append({**base, "ratio": 0.0, "batch": 0, "phase": "build", **res})
                log(f"{w.name} build {c}: {res['seconds']:.1f}s")
            check_equal(spark, w, contenders)
            check_complements(dbt, contenders)
            results += [{**base, "ratio": 0.0, **kept} for kept in kept_sizes(spark, w, contenders, 0)]
            for batch, ratio in enumerate(ratios, start=1):
                t0 = time.perf_counter()
                changes = apply_batch(spark, w, batch, ratio, seed, next_key)
                n_changes = sum(sum(v.values()) for v in changes.values())
                log(f"{w.name} batch {batch} ({ratio:.4%}): {n_changes:,} changes {changes} "
                    f"generated and applied in {time.perf_counter() - t0:.0f}s")
                rows = []
                for c in contenders:
                    res = timed(spark, dbt, w, c)
                    rows.append(res)
                    log(f"{w.name} {ratio:.4%} {c}: {res['seconds']:.1f}s, {res['statements']} statements, "
                        f"{res['spark_jobs']} Spark jobs"
                        + (f", {res['mode']}" if "mode" in res else ""))
                    for st in sorted(res["statement_log"], key=lambda st: -st["seconds"])[:6]:
                        log(f"    {st['seconds']:6.2f}s {st['jobs']:3d} jobs  {st['head'][:90]}")
                eq = check_equal(spark, w, contenders)
                check_complements(dbt, contenders)
                log(f"{w.name} {ratio:.4%}: all {len(contenders)} contenders equal ({eq['view_rows']:,} view rows)")
                for res in rows:
                    results.append({**base, "ratio": ratio, "batch": batch, "phase": "refresh", "changes": n_changes,
                                    "changes_by_relation": changes, "equal": True, **eq, **res})
                if batch == len(ratios):
                    results += [{**base, "ratio": ratio, **kept} for kept in kept_sizes(spark, w, contenders, batch)]
                if on_batch:
                    on_batch(results)
    return results
