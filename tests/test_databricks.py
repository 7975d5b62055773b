"""pdelta under dbt-databricks (#18): a user project on a Databricks profile parses, finds pdelta's
materializations through the adapter's parent (`spark`) and compiles a dimension_view whose
states, meta tables and scratch tables carry Unity Catalog's three-part names. No workspace is
reached: tests/databricks/check_databricks.py runs in the dbt-databricks virtualenv that
scripts/databricks_venv.sh keeps (dbt-databricks 1.11 pins another dbt-core and dbt-spark than
the main stack)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = ROOT / ".pdelta" / "venv-databricks" / "bin" / "python"


def test_package_parses_and_compiles_on_dbt_databricks(tmp_path):
    subprocess.run(["bash", str(ROOT / "scripts" / "databricks_venv.sh")], check=True, timeout=900)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DBT_", "PDELTA_", "PYTHON"))}
    env.update({"DBT_SEND_ANONYMOUS_USAGE_STATS": "false"})
    run = subprocess.run([str(VENV_PYTHON), str(ROOT / "tests" / "databricks" / "check_databricks.py"), str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=600)
    checks = [ln for ln in run.stdout.splitlines() if ln.startswith(("ok ", "FAIL "))]
    print("\n".join(checks))
    assert run.returncode == 0, f"the dbt-databricks check failed:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
    assert len([c for c in checks if c.startswith("ok ")]) == 9, checks
