"""The dbt project as pdelta sees it: parsed by dbt itself (`dbtRunner` parse, never by reading
Jinja), with each dimension view's declaration taken from the manifest and every relation it
names resolved to a node, its columns, their types and its declared keys."""
from __future__ import annotations

import csv
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .declaration import View

NOT_KNOWN = None  # a column list or type that cannot be known before the data exists


class ParseError(RuntimeError):
    pass


def target_folder(base: Path, *combination) -> Path:
    """`base`/<hash of `combination`>: dbt parses a project in full (~3-8 s here) whenever its vars,
    target or profile differ from the saved manifest's, so one target folder per combination of
    them keeps each one's saved manifest for dbt's partial parsing"""
    key = json.dumps(combination, sort_keys=True, default=str)
    return base / hashlib.sha1(key.encode()).hexdigest()[:12]


def parse_folder(project_vars: dict | None, target: str | None) -> Path:
    """The target folder (relative to the project, as dbt reads --target-path) of dbt's ordinary
    parse with these vars and target: parse_manifest's, `pdelta validate --select`'s `dbt ls` and,
    under PDELTA_TARGET_PER_VARS, the runner's dbt commands share it, so each parses the project
    once and the others find its saved manifest unchanged"""
    return target_folder(Path("target") / "pdelta", project_vars or {}, target)


def _dbt_parse(project_dir: Path, profiles_dir: Path | None, target: str | None, project_vars: dict,
               target_path: Path, log_level: str | None = None):
    from dbt.cli.main import dbtRunner

    args = ["parse", "--project-dir", str(project_dir), "--vars", json.dumps(project_vars),
            "--target-path", str(target_path), "--quiet"]
    if log_level:
        args += ["--log-level", log_level]
    if profiles_dir:
        args += ["--profiles-dir", str(profiles_dir)]
    if target:
        args += ["--target", target]
    return dbtRunner().invoke(args)


def parse_manifest(project_dir: Path, profiles_dir: Path | None = None, target: str | None = None,
                   project_vars: dict | None = None):
    """dbt's manifest of the project, parsed with `project_vars` (dbt's --vars). First dbt's
    ordinary parse, in the folder a dbt command with the same vars and target uses under the
    runner (parse_folder), so the run that follows `pdelta validate` or `explain` re-parses
    nothing. Where the Jinja engine refuses a declaration, that parse stops at the first one; the
    project is then parsed again with var `pdelta_validate`, under which the engine checks no
    declaration, so every broken view is still in the manifest and reported at once."""
    project_vars = dict(project_vars or {})
    # dbt's error goes to stdout even under --quiet: the validation parse below reports it if it stands
    res = _dbt_parse(project_dir, profiles_dir, target, project_vars,
                     Path(project_dir) / parse_folder(project_vars, target), log_level="none")
    if res.success:
        return res.result
    validating = {**project_vars, "pdelta_validate": True}
    # its own folder: repeating `pdelta validate` on a broken project re-parses only the files that changed
    res = _dbt_parse(project_dir, profiles_dir, target, validating,
                     Path(project_dir) / parse_folder(validating, target))
    if not res.success:
        raise ParseError(f"dbt could not parse the project: {res.exception}")
    return res.result


class SelectionError(RuntimeError):
    pass


def selected_models(project_dir: Path, profiles_dir: Path | None, target: str | None, project_vars: dict | None,
                    selection: list[str], target_path: Path | None = None) -> set[str]:
    """The unique ids of the models dbt selects with `selection` (its --select, --exclude,
    --selector, --state, --resource-type flags), resolved by `dbt ls` itself. Its parse is dbt's
    ordinary one, not parse_manifest's: under `pdelta_validate` a dimension view registers no
    dependencies, so `+view` or `state+` would miss them. Raises SelectionError when dbt cannot
    parse the project or refuses the selection."""
    from dbt.cli.main import dbtRunner

    args = ["ls", "--project-dir", str(project_dir), "--output", "json", "--output-keys", "unique_id", "resource_type",
            "--log-level", "none", *selection]  # ls prints its list even under --quiet; `none` keeps stdout ours
    if not any(a.startswith(("--resource-type", "--exclude-resource-type")) for a in selection):
        args += ["--resource-type", "model"]
    if project_vars:
        args += ["--vars", json.dumps(project_vars)]
    if profiles_dir:
        args += ["--profiles-dir", str(profiles_dir)]
    if target:
        args += ["--target", target]
    if target_path:
        args += ["--target-path", str(target_path)]
    res = dbtRunner().invoke(args)
    if not res.success:
        raise SelectionError(str(res.exception or "dbt ls failed"))
    rows = [json.loads(line) for line in res.result or []]
    return {r["unique_id"] for r in rows if r.get("resource_type") == "model"}


@dataclass
class Node:
    """A relation a declaration names: a model, seed, snapshot, source or a view's feed."""

    spec: Any
    kind: str                       # model | seed | snapshot | source | view_feed
    unique_id: str
    relation: str                   # quoted name to query, e.g. `schema`.`table`
    columns: dict[str, str | None] | None   # all columns, lower-case name -> type (None: unknown), or not known
    key_declared: set[frozenset[str]]       # column sets declared unique and not null
    materialized: str | None = None
    view_key: list[str] | None = None       # for a dimension view: its output key
    types: dict[str, str] | None = None     # types declared in YAML, even where the column list is not complete
    capture_format: str | None = None       # for a pdelta capture model: the raw format it reads

    def type_of(self, column: str) -> str | None:
        c = column.lower()
        return (self.columns or {}).get(c) or (self.types or {}).get(c)


def meta_relation_name(relation_name: str, kind: str) -> str:
    """`x__pdelta_<kind>` beside relation `x` (macros/engine/meta_relations.sql: meta_relation)."""
    if relation_name.endswith("`"):
        return relation_name[:-1] + f"__pdelta_{kind}`"
    return relation_name + f"__pdelta_{kind}"


_TYPE_WORD = re.compile(r"^\s*([a-z_]+)")


class Project:
    def __init__(self, manifest, project_dir: Path):
        self.manifest = manifest
        self.dir = Path(project_dir)
        self.by_name: dict[str, list] = {}
        for n in manifest.nodes.values():
            if n.resource_type.value in ("model", "seed", "snapshot"):
                self.by_name.setdefault(n.name, []).append(n)
        self.tests_on: dict[str, list] = {}
        for n in manifest.nodes.values():
            if n.resource_type.value == "test" and getattr(n, "test_metadata", None):
                # a source's tests have no attached_node: they depend on the source alone
                on = getattr(n, "attached_node", None) or (
                    n.depends_on.nodes[0]
                    if len(n.depends_on.nodes) == 1 and n.depends_on.nodes[0].startswith("source.")
                    else None)
                if on:
                    self.tests_on.setdefault(on, []).append(n)

    # -- dimension views --------------------------------------------------------------------
    def dimension_views(self) -> list:
        return sorted((n for n in self.manifest.nodes.values()
                       if n.resource_type.value == "model" and n.config.materialized == "dimension_view"),
                      key=lambda n: n.name)

    @staticmethod
    def declaration(node) -> Any:
        return node.config._extra.get("pdelta")

    def model_node(self, name: str):
        nodes = self.by_name.get(name) or []
        own = [n for n in nodes if n.package_name == self.manifest.metadata.project_name] or nodes
        return own[0] if own else None

    # -- relations ----------------------------------------------------------------------------
    def resolve(self, spec: Any, views: dict[str, View] | None = None) -> Node | None:
        """The node a declaration's relation spec names, or None if the project has none."""
        if isinstance(spec, str) or (isinstance(spec, dict) and "ref" in spec):
            node = self.model_node(spec if isinstance(spec, str) else spec["ref"])
            return None if node is None else self._node(spec, node, views)
        if isinstance(spec, dict) and "feed_of" in spec:
            node = self.model_node(spec["feed_of"])
            if node is None or node.config.materialized != "dimension_view":
                return None
            view = (views or {}).get(node.name)
            cols = None
            if view is not None:
                cols = {o.lower(): None for o, _, _ in view.output}
                cols.update({"_pdelta_before": None, "_pdelta_type": "string", "_pdelta_seq": "bigint"})
            return Node(spec, "view_feed", node.unique_id, meta_relation_name(node.relation_name, "changes"),
                        cols, set(), "dimension_view", view.key if view else None)
        pair = spec.get("source") if isinstance(spec, dict) else spec
        if isinstance(pair, (list, tuple)) and len(pair) == 2:
            for s in self.manifest.sources.values():
                if s.source_name == pair[0] and s.name == pair[1]:
                    return self._node(spec, s, views)
        return None

    def _node(self, spec, node, views) -> Node:
        kind = node.resource_type.value
        cols = self._columns(node)
        materialized = getattr(node.config, "materialized", None)
        view_key = None
        if materialized == "dimension_view" and views and node.name in views:
            view_key = views[node.name].key
        fmt = None
        if materialized == "capture":
            decl = node.config.get("pdelta_capture") or {}
            fmt = decl.get("format") if isinstance(decl, dict) else None
        return Node(spec, kind, node.unique_id, node.relation_name, cols, self._keys(node), materialized, view_key,
                    self.types(node), fmt)

    def _columns(self, node) -> dict[str, str | None] | None:
        """All columns (lower-case name -> type or None) when they can be known before the
        data exists, else None. A YAML column list is complete only under an enforced contract;
        otherwise it still lends its types."""
        declared = {c.lower(): (getattr(col, "data_type", None) or None) for c, col in (node.columns or {}).items()}
        kind = node.resource_type.value
        if kind == "seed":
            path = Path(node.root_path) / node.original_file_path
            types = {k.lower(): v for k, v in (node.config.column_types or {}).items()}
            try:
                with path.open(newline="") as f:
                    header = [h.strip().lower() for h in next(csv.reader(f))]
            except (OSError, StopIteration):
                return NOT_KNOWN
            return {h: types.get(h) or declared.get(h) for h in header}
        contract = getattr(node.config, "contract", None)
        if declared and contract is not None and getattr(contract, "enforced", False):
            return declared
        if kind == "model" and node.config.materialized != "dimension_view":
            cols = select_list_columns(node.raw_code)
            if cols is not None:
                return {c: t or declared.get(c) for c, t in cols.items()}
        return NOT_KNOWN

    def types(self, node) -> dict[str, str]:
        return {c.lower(): col.data_type for c, col in (node.columns or {}).items() if getattr(col, "data_type", None)}

    def _keys(self, node) -> set[frozenset[str]]:
        keys, not_null, unique, combos = self._declared(node)
        keys |= {frozenset([c]) for c in unique & not_null}
        keys |= {c for c in combos if c and c <= not_null}
        return keys

    def references(self, spec: Any, column: str, to_spec: Any, to_column: str) -> bool:
        """whether the relation `spec` declares every value of `column` present in `to_column` of
        `to_spec` (an inclusion dependency): a dbt `relationships` data test on the column
        (macros/engine/declared_references.sql reads the same)"""
        found, target = self.resolve(spec), self.resolve(to_spec)
        if found is None or target is None or "view_feed" in (found.kind, target.kind):
            return False
        for t in self.tests_on.get(found.unique_id, []):
            kwargs = t.test_metadata.kwargs or {}
            if (t.test_metadata.name == "relationships" and (t.column_name or "").lower() == column.lower()
                    and str(kwargs.get("field", "")).lower() == to_column.lower()
                    and target.unique_id in t.depends_on.nodes and target.unique_id != found.unique_id):
                return True
        return False

    def not_null(self, spec: Any) -> set[str]:
        """the columns (lower case) the relation `spec` names declares not null, by a `not_null`
        data test or constraint (macros/engine/declared_not_null.sql reads the same)"""
        found = self.resolve(spec)
        node = None if found is None or found.kind == "view_feed" else (self.manifest.nodes.get(found.unique_id)
                                           or self.manifest.sources.get(found.unique_id))
        return set() if node is None else self._declared(node)[1]

    def _declared(self, node) -> tuple[set[frozenset[str]], set[str], set[str], list[frozenset[str]]]:
        """(keys from primary-key constraints, not-null columns, unique columns, unique
        combinations) as the node's constraints and data tests declare them"""
        keys: set[frozenset[str]] = set()
        for c in getattr(node, "constraints", None) or []:
            if c.type.value == "primary_key" and c.columns:
                keys.add(frozenset(x.lower() for x in c.columns))
        not_null, unique = set(), set()
        for name, col in (node.columns or {}).items():
            for c in col.constraints or []:
                t = c.type.value
                if t == "primary_key":
                    keys.add(frozenset([name.lower()]))
                elif t == "not_null":
                    not_null.add(name.lower())
                elif t == "unique":
                    unique.add(name.lower())
        combos = []
        for t in self.tests_on.get(node.unique_id, []):
            test, col = t.test_metadata.name, (t.column_name or "").lower()
            if test == "not_null" and col:
                not_null.add(col)
            elif test == "unique" and col:
                unique.add(col)
            elif test == "unique_combination_of_columns":
                combos.append(frozenset(c.lower() for c in t.test_metadata.kwargs.get("combination_of_columns", [])))
        return keys, not_null, unique, combos


_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_CONFIG = re.compile(r"\{\{-?\s*config\s*\(")
JINJA_RELATION = "jinja_relation"


def blank_jinja(raw: str) -> str:
    """SQL of a model with its Jinja blanked: an expression (`{{ ref(...) }}`) stands for a
    relation; `config()` calls, statements and comments render to nothing."""
    def blank(m):
        t = m.group(0)
        return JINJA_RELATION if t.startswith("{{") and not _CONFIG.match(t) else " "

    return _JINJA.sub(blank, raw).strip()


def select_list_columns(raw_sql: str) -> dict[str, str | None] | None:
    """Output columns of a model's SELECT, read with sqlglot after Jinja is blanked out; None
    when they cannot be known statically (a `*`, an unnamed expression, Jinja in the list)."""
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(blank_jinja(raw_sql), read="spark")
    except Exception:
        return NOT_KNOWN
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None:
        return NOT_KNOWN
    out: dict[str, str | None] = {}
    for e in select.expressions:
        name = e.alias_or_name
        if (not name or isinstance(e, exp.Star) or JINJA_RELATION in name
                or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))):
            return NOT_KNOWN
        inner = e.this if isinstance(e, exp.Alias) else e
        out[name.lower()] = inner.to.sql("spark").lower() if isinstance(inner, exp.Cast) else None
    return out


def type_family(dtype: str | None) -> str | None:
    """Join-compatibility class of a Spark type name."""
    if not dtype:
        return None
    m = _TYPE_WORD.match(dtype.lower())
    word = m.group(1) if m else dtype.lower()
    families = {
        "integral": ("tinyint", "byte", "smallint", "short", "int", "integer", "bigint", "long"),
        "decimal": ("decimal", "dec", "numeric"),
        "floating": ("float", "double", "real"),
        "string": ("string", "varchar", "char", "text"),
        "date": ("date",),
        "timestamp": ("timestamp", "timestamp_ntz", "timestamp_ltz"),
        "boolean": ("boolean", "bool"),
        "binary": ("binary",),
    }
    for fam, words in families.items():
        if word in words:
            return fam
    return word
