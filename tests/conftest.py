import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# what a test that starts Spark without its marker is told under PDELTA_NO_SPARK=1 (make test-fast)
UNMARKED_SPARK = "this test starts Spark: mark it @pytest.mark.spark (PDELTA_NO_SPARK=1, make test-fast)"


def pytest_configure(config):
    config.addinivalue_line("markers", "spark: the test starts Spark (an embedded session or a Thrift Server); "
                                       "make test-fast runs the others (-m 'not spark')")
    if os.environ.get("PDELTA_NO_SPARK") == "1":
        _refuse_spark()


def _refuse_spark():
    """make test-fast: a test that is not marked `spark` and still starts a Spark JVM fails with
    this message instead of silently making the fast lane slow."""
    from pyspark.sql import SparkSession

    def refuse(*_args, **_kwargs):
        raise RuntimeError(UNMARKED_SPARK)

    SparkSession.Builder.getOrCreate = refuse


def _hive_ok(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3):
            pass
        from pyhive import hive

        conn = hive.connect(host="127.0.0.1", port=port, username="pdelta")
        cur = conn.cursor()
        cur.execute("select 1")
        ok = cur.fetchall() == [(1,)]
        conn.close()
        return ok
    except Exception:  # noqa: BLE001
        return False


@pytest.fixture(scope="session")
def thrift_port():
    assert os.environ.get("PDELTA_NO_SPARK") != "1", UNMARKED_SPARK
    env_port = os.environ.get("PDELTA_THRIFT_PORT")
    started = False
    if env_port and _hive_ok(int(env_port)):
        port = int(env_port)
    else:
        env = {**os.environ, "PDELTA_THRIFT_DRIVER_MEMORY": os.environ.get("PDELTA_THRIFT_DRIVER_MEMORY", "1g")}
        out = subprocess.run(["bash", "scripts/thrift_server.sh", "start"], cwd=ROOT, env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
        started = "ready on port" in out.stdout  # "already running": someone else's server
        port = int(subprocess.run(["bash", "scripts/thrift_server.sh", "port"], cwd=ROOT, env=env,
                                  capture_output=True, text=True, check=True).stdout.strip())
    old = os.environ.get("PDELTA_THRIFT_PORT")
    os.environ["PDELTA_THRIFT_PORT"] = str(port)
    try:
        yield port
    finally:
        if old is None:
            os.environ.pop("PDELTA_THRIFT_PORT", None)
        else:
            os.environ["PDELTA_THRIFT_PORT"] = old
        if started:
            subprocess.run(["bash", "scripts/thrift_server.sh", "stop"], cwd=ROOT, capture_output=True)


