"""docs/use-in-your-project.md followed in an empty folder, as a new user would (#18): every file
block (```<lang> file=<path>) written as the page shows it, in page order (a later block of the
same path replaces it), and every command block (```sh step=<n>) run there with this
repository's dbt and pdelta. One process runs all of it (this module as a script, dbt's commands
through pdelta.runner) so that the embedded Spark starts once, as it would for a user who runs
the steps from one Python session; the page's profile is used as written (the embedded session
fetching Delta from Maven Central, no environment variable), with make test's tiny-data Spark
settings given to the JVM from outside it (PYSPARK_SUBMIT_ARGS). After each step the view and its
change feed are read with `dbt show` and compared with what the page says they hold."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.spark  # the steps run Spark (make test-fast leaves this out)

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "use-in-your-project.md"
BLOCK = re.compile(r"^```(\w+) (file|step)=(\S+)\n(.*?)^```$", re.S | re.M)

VIEW_ROWS = "select cid, cname, acity, acountry from {{ ref('customer_dim') }} order by cid"
FEED_ROWS = ("select cid, cname, acity, _pdelta_type, _pdelta_before.cname as before_cname, _pdelta_seq "
             "from {{ ref('customer_dim') }}__pdelta_changes order by _pdelta_seq, cid")
# Ben's key-only delete has empty cells in the raw feed's seed: they must load as NULL
NULLS = ("show --inline \"select count(*) as n from {{ ref('cust_changes_raw') }} "
         "where cname is null and caddr is null\" "
         "--output json")
# make test's tiny-data settings (scripts/test_settings.sh), outside the page's profile
SUBMIT_ARGS = ("--conf spark.sql.adaptive.enabled=false --conf spark.sql.codegen.wholeStage=false "
               "--conf spark.sql.codegen.factoryMode=NO_CODEGEN pyspark-shell")


def blocks() -> list[tuple[str, str, str]]:
    """(kind, file path or step number, text) of the page's blocks, in page order"""
    return [(kind, where, text) for _, kind, where, text in BLOCK.findall(GUIDE.read_text())]


STEP = "==== guide step "


def drive(project: Path) -> int:
    """The page in `project`, in page order: files written, steps run (prints a marker per step)."""
    from pdelta.runner import run_all

    shows = [f"show --inline \"{sql}\" --output json --limit 100" for sql in (VIEW_ROWS, FEED_ROWS)]
    for kind, where, text in blocks():
        if kind == "file":
            path = project / where
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.replace("PDELTA_REPOSITORY", json.dumps(str(ROOT))))
            continue
        commands = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not all(c.startswith(("dbt ", "pdelta ")) for c in commands):
            print(f"a step of the guide runs something else than dbt and pdelta: {commands}")
            return 1
        print(f"{STEP}{where}", flush=True)
        extra = [NULLS] if where == "2" else []
        if run_all([c[4:] if c.startswith("dbt ") else c for c in commands] + shows + extra) != 0:
            return 1
    return 0


def shown(stdout: str) -> list[list[dict]]:
    """the rows of each `dbt show --output json` in a step's output, in order"""
    found = []
    decoder = json.JSONDecoder()
    for at in [m.start() for m in re.finditer(r'\{\s*"show"', stdout)]:
        doc, _ = decoder.raw_decode(stdout[at:])
        found.append(doc["show"])
    return found


def test_the_guide_from_an_empty_folder(tmp_path):
    project = tmp_path / "my_dims"
    project.mkdir()
    # the user's shell: this repository's dbt and pdelta on PATH, nothing of make's set-up
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DBT_", "PDELTA_"))}
    env.update({"DBT_SEND_ANONYMOUS_USAGE_STATS": "false", "PYSPARK_SUBMIT_ARGS": SUBMIT_ARGS})
    if os.environ.get("PDELTA_JVM_OPTIONS"):
        env["JAVA_TOOL_OPTIONS"] = os.environ["PDELTA_JVM_OPTIONS"]
    out = subprocess.run([sys.executable, __file__, str(project)], cwd=project, env=env, capture_output=True,
                         text=True, timeout=1200)
    assert out.returncode == 0, f"the guide's steps failed:\n{out.stdout[-6000:]}\n{out.stderr[-3000:]}"
    steps = dict(part.split("\n", 1) for part in out.stdout.split(STEP)[1:])
    assert sorted(steps) == ["1", "2"], "the guide's steps"

    view, feed = shown(steps["1"])
    assert [(r["cid"], r["cname"], r["acity"]) for r in view] == [(1, "Anna", "Berlin"), (2, "Ben", "Paris")]
    assert "customer_dim built in full" in steps["1"]
    assert "pdelta validate: ok" in steps["1"]

    view, feed, nulls = shown(steps["2"])
    assert [(r["cid"], r["cname"], r["acity"], r["acountry"]) for r in view] == [(1, "Anna", "Berlin", "DE"),
                                                                                 (4, "Dora", "Berlin", "DE")]
    assert "customer_dim batch 1 (diff plan): ins 1, del 1" in steps["2"], steps["2"][-4000:]
    # Ben's delete carried only his key: the view's feed publishes it with his old row
    batch = [(r["cid"], r["_pdelta_type"], r["cname"], r["acity"]) for r in feed if r["_pdelta_seq"] == 1]
    assert batch == [(2, "del", "Ben", "Paris"), (4, "ins", "Dora", "Berlin")], feed
    # the empty cells of Ben's key-only delete stayed NULL through the seed (no 'None' text)
    assert nulls == [{"n": 1}]


if __name__ == "__main__":
    sys.exit(drive(Path(sys.argv[1])))
