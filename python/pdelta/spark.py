"""A SparkSession configured exactly like a dbt profile's `session` target.

The configs are read from the profile (rendered with dbt's `env_var` semantics), so tests and
tools that open their own session share the warehouse and metastore with `dbt --target local`
(one process at a time: Derby admits one).
"""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
import yaml


def _env_var(name: str, default: str | None = None) -> str:
    if name in os.environ:
        return os.environ[name]
    # Other targets (e.g. the commented Databricks one) may need variables this one does not.
    return "" if default is None else default


def rendered_profiles(profiles_dir: Path) -> dict:
    """profiles.yml with `env_var` rendered as dbt renders it."""
    text = (profiles_dir / "profiles.yml").read_text()
    return yaml.safe_load(jinja2.Environment().from_string(text).render(env_var=_env_var))


def profile_target(profiles_dir: Path, profile: str = "pdelta", target: str = "local") -> dict:
    profiles = rendered_profiles(profiles_dir)
    if profile not in profiles:
        raise ValueError(f"profile {profile!r} is not in {profiles_dir / 'profiles.yml'} "
                         f"(it has {', '.join(sorted(k for k in profiles if k != 'config')) or 'none'})")
    outputs = profiles[profile].get("outputs") or {}
    if target not in outputs:
        raise ValueError(f"profile {profile!r} has no target {target!r} "
                         f"(it has {', '.join(sorted(outputs)) or 'none'})")
    return outputs[target]


def quiet_pyspark_logging() -> None:
    """pyspark logs every failed query as a JSON error record, including the ones dbt expects
    to fail while it probes for relations; those records are noise to a dbt user."""
    import logging

    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)


def session_from_profile(profiles_dir: Path, target: str = "local", profile: str = "pdelta"):
    from pyspark.sql import SparkSession

    quiet_pyspark_logging()
    out = profile_target(profiles_dir, profile=profile, target=target)
    builder = SparkSession.builder.enableHiveSupport()
    for key, value in (out.get("server_side_parameters") or {}).items():
        builder = builder.config(key, str(value))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
