"""The environment a test module's dbt project runs pdelta under, on the embedded session."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

KEYS = ("PDELTA_LOCAL_DIR", "PDELTA_TARGET", "PDELTA_EXAMPLES", "PDELTA_SCHEMA")


def use_local_target(local_dir: Path, schema: str, examples: bool) -> Callable[[], None]:
    """Sets the local target, `schema` and whether the repository's examples build; the Spark
    folder is `local_dir` unless the caller's PDELTA_LOCAL_DIR names one (scripts/test.sh gives
    each stream its own). Returns what puts the environment back: a module shares its pytest
    process with others."""
    saved = {k: os.environ.get(k) for k in KEYS}
    os.environ.setdefault("PDELTA_LOCAL_DIR", str(local_dir))
    os.environ.update(PDELTA_TARGET="local", PDELTA_EXAMPLES="true" if examples else "false", PDELTA_SCHEMA=schema)

    def restore() -> None:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return restore
