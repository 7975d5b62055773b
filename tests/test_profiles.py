"""The Spark settings pdelta ships (profiles.yml.example, the Thrift Server script) keep every
driver JVM in UTC. Delta 4.4 verifies the file list of every commit by rebuilding the table's
state when the session, the JVM default or `user.timezone` is outside UTC (Snapshot.scala,
allFilesInCrcVerificationForceEnabled): one Spark job more per commit on any laptop not set to
UTC, which this workplace's machine (Etc/UTC) would never show. They also write local files
without a forked process per file (tests/test_local_lane.py checks its warehouse for the
side files those settings avoid). No Spark here."""
from __future__ import annotations

import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def session_outputs() -> dict[str, dict]:
    profiles = yaml.safe_load((ROOT / "profiles.yml.example").read_text())
    outputs = profiles["pdelta"]["outputs"]
    found = {name: out for name, out in outputs.items() if out.get("method") == "session"}
    assert {"local", "cluster"} <= set(found), f"session targets in profiles.yml.example: {sorted(found)}"
    return found


def test_session_targets_keep_the_driver_jvm_in_utc():
    for name, out in session_outputs().items():
        params = out["server_side_parameters"]
        assert params.get("spark.sql.session.timeZone") == "UTC", name
        driver_options = shlex.split(params.get("spark.driver.extraJavaOptions", ""))
        assert "-Duser.timezone=UTC" in driver_options, (name, driver_options)


def test_thrift_server_keeps_its_jvm_in_utc():
    script = (ROOT / "scripts" / "thrift_server.sh").read_text()
    java_options = [line for line in script.splitlines() if "--driver-java-options" in line]
    assert java_options and all("-Duser.timezone=UTC" in line for line in java_options), java_options
    assert "spark.sql.session.timeZone=UTC" in script


# Hadoop forks a process per file it creates or renames on a local disk without its native
# library (profiles.yml.example says why); every place pdelta starts Spark sets these alike.
LOCAL_FILE_SETTINGS = {
    "spark.hadoop.fs.file.impl": "org.apache.hadoop.fs.RawLocalFileSystem",
    "spark.hadoop.fs.AbstractFileSystem.file.impl": "org.apache.hadoop.fs.local.RawLocalFs",
    "spark.hadoop.mapreduce.fileoutputcommitter.marksuccessfuljobs": "false",
    "spark.delta.logStore.file.impl": "io.delta.storage.LocalLogStore",
}


def test_session_targets_write_local_files_without_forks():
    for name, out in session_outputs().items():
        params = out["server_side_parameters"]
        assert {k: params.get(k) for k in LOCAL_FILE_SETTINGS} == LOCAL_FILE_SETTINGS, name


def test_thrift_server_and_user_guide_write_local_files_without_forks():
    script = (ROOT / "scripts" / "thrift_server.sh").read_text()
    for key, value in LOCAL_FILE_SETTINGS.items():
        assert f"--conf {key}={value} " in script, key
    guide = (ROOT / "docs" / "use-in-your-project.md").read_text()
    profile = yaml.safe_load(guide.split("```yaml file=profiles.yml\n", 1)[1].split("```", 1)[0])
    params = profile["my_dims"]["outputs"]["local"]["server_side_parameters"]
    assert {k: params.get(k) for k in LOCAL_FILE_SETTINGS} == LOCAL_FILE_SETTINGS
