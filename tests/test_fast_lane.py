"""make test-fast (PDELTA_NO_SPARK=1, -m "not spark"): a test that starts Spark without the
`spark` marker fails with a message that says how to fix it, before any JVM starts; a marked one
is left out."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_the_fast_lane_refuses_an_unmarked_spark_test_and_leaves_out_marked_ones():
    env = {**os.environ, "PDELTA_NO_SPARK": "1"}
    cmd = [sys.executable, "-m", "pytest", str(HERE / "fast_lane_probe.py"), "-m", "not spark", "-q", "-p",
           "no:cacheprovider", "-rf"]
    out = subprocess.run(cmd, cwd=HERE.parent, env=env, capture_output=True, text=True)
    assert out.returncode == 1, out.stdout[-2000:]
    assert "1 failed, 1 deselected" in out.stdout, out.stdout[-2000:]
    assert "mark it @pytest.mark.spark" in out.stdout, out.stdout[-2000:]
