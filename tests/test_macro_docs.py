"""Every public macro is documented in macros/macros.yml (dbt shows it in the docs site), every
documented name exists, and the YAML has no duplicate key (dbt keeps the last one and warns)."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFINED = re.compile(r"{%-?\s*(macro|test|materialization)\s+(\w+)")


def defined() -> dict[str, str]:
    out = {}
    for f in sorted((ROOT / "macros").rglob("*.sql")):
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
            raise AssertionError(f"macros/macros.yml line {k.start_mark.line + 1}: `{key}` given twice")
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_NoDuplicates.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def documented() -> list[str]:
    return [m["name"] for m in yaml.load((ROOT / "macros" / "macros.yml").read_text(), Loader=_NoDuplicates)["macros"]]


def test_every_public_macro_is_documented():
    # private helpers start with `_`; `spark__x` / `default__x` implement a documented dispatch
    public = {n for n, kind in defined().items() if kind != "materialization" and not n.startswith("_") and "__" not in n}
    assert sorted(public - set(documented())) == []


def test_documented_macros_exist_once():
    names = documented()
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    assert sorted(set(names) - set(defined())) == []


def test_duplicate_keys_are_caught():
    try:
        yaml.load("macros:\n  - name: a\n    description: x\n    description: y\n", Loader=_NoDuplicates)
    except AssertionError as e:
        assert "description" in str(e)
    else:
        raise AssertionError("a duplicate key went unnoticed")
