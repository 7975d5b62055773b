"""Copy the resolved jars that pyspark does not already ship.

Ivy resolves Delta with its whole dependency tree, including older Hadoop, Parquet and Jackson
jars than the ones inside pyspark. Putting those on the classpath next to Spark's own invites
version clashes, so only artifacts that pyspark lacks by name are kept.
"""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pyspark

VERSION_SUFFIX = re.compile(r"-\d[\w.]*(-\d+)?$")


def artifact_name(jar: Path, ivy_named: bool = False) -> str:
    stem = jar.stem.split("_", 1)[-1] if ivy_named else jar.stem  # ivy: org.foo_artifact-1.0
    return VERSION_SUFFIX.sub("", stem)


def main(src: str, dest: str) -> None:
    shipped = {artifact_name(j) for j in (Path(pyspark.__file__).parent / "jars").glob("*.jar")}
    out = Path(dest)
    out.mkdir(parents=True, exist_ok=True)
    for jar in sorted(Path(src).glob("*.jar")):
        if artifact_name(jar, ivy_named=True) not in shipped:
            shutil.copy2(jar, out / jar.name.split("_", 1)[-1])
            print(f"[setup]   + {jar.name}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
