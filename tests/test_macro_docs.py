"""Every public macro is documented in its project's macros/macros.yml (dbt shows it in the docs
site): the package's at the repository root, the integration project's in integration_tests/.
Every documented name exists, and the YAML has no duplicate key (dbt keeps the last one and
warns)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
# the package, and the repository's own dbt project that installs it
PROJECTS = [ROOT, ROOT / "integration_tests"]
DEFINED = re.compile(r"{%-?\s*(macro|test|materialization)\s+(\w+)")


def defined(project: Path) -> dict[str, str]:
    out = {}
    for f in sorted((project / "macros").rglob("*.sql")):
        for kind, name in DEFINED.findall(f.read_text()):
            out[("test_" + name) if kind == "test" else name] = kind
    return out


class _NoDuplicates(yaml.SafeLoader):
    pass


def _mapping(loader, node, deep=False):
    seen = set()
    for k, _ in node.value:
        key = loader.construct_object(k, deep=deep)
        if key in seen:
            raise AssertionError(f"{k.start_mark.name} line {k.start_mark.line + 1}: `{key}` given twice")
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_NoDuplicates.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def documented(project: Path) -> list[str]:
    with (project / "macros" / "macros.yml").open() as f:
        return [m["name"] for m in yaml.load(f, Loader=_NoDuplicates)["macros"]]


@pytest.mark.parametrize("project", PROJECTS, ids=["package", "integration_tests"])
def test_every_public_macro_is_documented(project):
    # private helpers start with `_`; `spark__x` / `default__x` implement a documented dispatch
    public = {n for n, kind in defined(project).items()
              if kind != "materialization" and not n.startswith("_") and "__" not in n}
    assert sorted(public - set(documented(project))) == []


@pytest.mark.parametrize("project", PROJECTS, ids=["package", "integration_tests"])
def test_documented_macros_exist_once(project):
    names = documented(project)
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    assert sorted(set(names) - set(defined(project))) == []


def test_duplicate_keys_are_caught():
    try:
        yaml.load("macros:\n  - name: a\n    description: x\n    description: y\n", Loader=_NoDuplicates)
    except AssertionError as e:
        assert "description" in str(e)
    else:
        raise AssertionError("a duplicate key went unnoticed")


@pytest.mark.parametrize("project", PROJECTS, ids=["package", "integration_tests"])
def test_arguments_are_what_dbt_accepts(project):
    # dbt refuses the whole project over an argument with another property: in a YAML flow mapping an
    # unquoted description with a comma becomes one (`description: a, or none` -> key `or none`)
    with (project / "macros" / "macros.yml").open() as f:
        macros = yaml.load(f, Loader=_NoDuplicates)["macros"]
    extra = [(m["name"], sorted(set(a) - {"name", "type", "description"}))
             for m in macros for a in m.get("arguments") or [] if set(a) - {"name", "type", "description"}]
    assert extra == []
