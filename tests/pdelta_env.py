"""The environment a test module's dbt project runs pdelta under, on the embedded session, and the
repository's own dbt project (integration_tests/, which installs pdelta from `../`)."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

KEYS = ("PDELTA_LOCAL_DIR", "PDELTA_TARGET", "PDELTA_SCHEMA")
ROOT = Path(__file__).resolve().parents[1]
# the paper's example, the lanes' models, seeds, data tests and operations: a dbt project of its own
INTEGRATION = ROOT / "integration_tests"


def use_local_target(local_dir: Path, schema: str) -> Callable[[], None]:
    """Sets the local target and `schema`; the Spark folder is `local_dir` unless the caller's
    PDELTA_LOCAL_DIR names one (scripts/test.sh gives each stream its own). Returns what puts the
    environment back: a module shares its pytest process with others."""
    saved = {k: os.environ.get(k) for k in KEYS}
    os.environ.setdefault("PDELTA_LOCAL_DIR", str(local_dir))
    os.environ.update(PDELTA_TARGET="local", PDELTA_SCHEMA=schema)

    def restore() -> None:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return restore


def integration_deps() -> Path:
    """integration_tests/ with this repository installed as its package pdelta (`dbt deps`: a link
    in its dbt_packages/, made when missing or pointing elsewhere, e.g. at another clone; make
    setup and the cluster lane make it with scripts/integration_deps.sh, the same check in the
    shell). Returns the project folder."""
    installed = INTEGRATION / "dbt_packages" / "pdelta"
    if not (installed.is_symlink() and installed.resolve() == ROOT):
        from dbt.cli.main import dbtRunner

        res = dbtRunner().invoke(["deps", "--project-dir", str(INTEGRATION), "--profiles-dir", str(ROOT), "--quiet"])
        assert res.success, f"dbt deps in {INTEGRATION}: {res.exception}"
    return INTEGRATION


# the session setting of Delta's Kernel reader (macros/engine/delta_reader.sql), and the statements that
# switch it on and back
READER_SETTING = "spark.databricks.delta.v2.enableMode"
SWITCH_ON, SWITCH_OFF = f"set {READER_SETTING} = STRICT", f"reset {READER_SETTING}"


def kernel_rows(spark, sql: str) -> list:
    """The rows of `sql`, a query that reads Delta tables (no view) and writes none, through Delta's
    Kernel reader, as a refresh's reading statements read them: a table a refresh just committed to
    has a version that the classic reader would first rebuild with Spark jobs."""
    spark.sql(SWITCH_ON)
    try:
        return spark.sql(sql).collect()
    finally:
        spark.sql(SWITCH_OFF)
