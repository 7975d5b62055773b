"""A dimension-view declaration (the model's `pdelta` config) in normal form, with every structural
violation collected — the Python twin of `macros/engine/normalize_declaration.sql`, which stops
at the first. `tests/test_validate.py` runs each case through both."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DECL_ENTRIES = ("root", "relations", "key", "apply")
RELATION_ENTRIES = ("state", "changes", "key", "technique", "columns", "where", "join", "containment")
# how a relation's rows relate to those of the one it replaces under its alias (view adaptation: the
# paper's PC constraints, new ⊆ / ⊇ / ≡ old on what the view uses of them)
CONTAINMENTS = ("equal", "subset", "superset")
JOIN_ENTRIES = ("to", "on", "type")


@dataclass(frozen=True)
class Violation:
    """One reason a model is not a maintainable dimension view."""

    model: str
    rule: str           # short rule id, e.g. `join-whole-key`
    message: str
    alias: str | None = None
    column: str | None = None
    hint: str | None = None
    severity: str = "error"  # or "warning"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def render(self) -> str:
        where = f"dimension_view '{self.model}'" + (f", relation `{self.alias}`" if self.alias else "")
        text = f"{where}: {self.message} [{self.rule}]"
        return text + (f"\n    hint: {self.hint}" if self.hint else "")

    def as_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class Relation:
    alias: str
    state: Any
    changes: Any
    key: list[str]
    technique: str | None
    columns: list[tuple[str, str]]          # (output name, source column)
    where: str | None
    join_to: str | None = None
    join_on: list[tuple[str, str]] = field(default_factory=list)  # (parent column, key column)


@dataclass
class View:
    model: str
    root: str
    relations: dict[str, Relation]
    order: list[str]                         # root first, each after the alias it joins from
    output: list[tuple[str, str, str]]       # (output name, alias, source column)
    key: list[str]                           # output names of the root key
    plan: str = "diff"                       # the model's `pdelta_plan`: diff or rules (options.PLANS)
    complement: bool = False                 # the model's `pdelta_complement` (issue #21)
    complement_upkeep: str | None = None     # its `pdelta_complement_upkeep` config, None when unset

    def children(self, alias: str) -> list[str]:
        return [a for a in self.order if self.relations[a].join_to == alias]


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def normalize(decl: Any, model: str) -> tuple[View | None, list[Violation]]:
    """The normal form of a declaration, or None with the violations that prevent it."""
    errs: list[Violation] = []

    def err(rule, message, alias=None, column=None, hint=None):
        errs.append(Violation(model, rule, message, alias, column, hint))

    if not isinstance(decl, dict):
        err("declaration", "config `pdelta` must be a mapping with `root` and `relations`",
            hint="pass the declaration dict to config(materialized='dimension_view', pdelta=view)")
        return None, errs
    for k in decl:
        if k not in DECL_ENTRIES:
            err("declaration", f"unknown declaration entry `{k}` (allowed: {', '.join(DECL_ENTRIES)})")
    rels_in = decl.get("relations")
    if not isinstance(rels_in, dict) or not rels_in:
        err("declaration", "`relations` must map aliases to relation declarations")
        return None, errs
    root = decl.get("root")
    if root not in rels_in:
        err("declaration", f"root `{root}` is not one of the declared relations {list(rels_in)}")
        return None, errs

    rels: dict[str, Relation] = {}
    for alias, r in rels_in.items():
        if not (isinstance(alias, str) and alias and alias.replace("_", "a").isalnum()):
            err("declaration", "aliases are letters, digits and underscores", alias)
            continue
        if not isinstance(r, dict):
            err("declaration", "a relation declaration is a mapping", alias)
            continue
        for k in r:
            if k not in RELATION_ENTRIES:
                err("declaration", f"unknown entry `{k}` (allowed: {', '.join(RELATION_ENTRIES)})", alias,
                    hint="aggregates, DISTINCT and other operators are not part of a dimension view"
                    if k in ("group_by", "distinct", "aggregate", "having") else None)
        if r.get("containment") is not None and r.get("containment") not in CONTAINMENTS:
            err("declaration", f"`containment` is one of {', '.join(CONTAINMENTS)} (how this relation's rows, as the "
                f"view uses them, relate to those of the relation it replaces), got {r.get('containment')!r}", alias)
        if not r.get("changes"):
            err("change-feed", "`changes` is required: every input needs a change feed", alias,
                hint="declare the relation's change feed (a model, source or {feed_of: view}), or keep the state with "
                     "a `mirror` model")
        for k in ("state", "key"):
            if not r.get(k):
                err("declaration", f"`{k}` is required", alias)
        columns: list[tuple[str, str]] = []
        cols_in = r.get("columns") or []
        items = cols_in.items() if isinstance(cols_in, dict) else [
            it for c in cols_in for it in (c.items() if isinstance(c, dict) else [(c, c)])]
        for out, src in items:
            columns.append((str(out), str(src)))
        join_to, join_on = None, []
        j = r.get("join")
        if j:
            if not isinstance(j, dict) or not j.get("to") or not j.get("on") or not isinstance(j.get("on"), dict):
                err("declaration", "`join` needs `to` (the parent alias) and `on` ({parent_column: key_column})", alias)
            else:
                for k in j:
                    if k not in JOIN_ENTRIES:
                        err("declaration", f"unknown join entry `{k}` (allowed: to, on, type)", alias)
                jtype = str(j.get("type", "inner")).lower()
                if jtype != "inner":
                    err("outer-join", f"join {j['to']} -> {alias} is a {jtype} join; a dimension view joins with inner "
                                      "joins only",
                        alias, hint="rows without a partner drop out of an inner join; keep them with a default row in "
                                    "the parent's state instead")
                join_to = j["to"]
                join_on = [(str(p), str(k)) for p, k in j["on"].items()]
        elif alias != root:
            err("join-missing", "every relation but the root needs a `join` (foreign key -> this relation's "
                                "primary key)", alias)
        if alias == root and j:
            err("declaration", "the root relation cannot have a `join`", alias)
        where = r.get("where")
        rels[alias] = Relation(alias, r.get("state"), r.get("changes"), [str(k) for k in _as_list(r.get("key"))],
                               r.get("technique"), columns, where if where else None, join_to, join_on)

    # joins must equate the child's whole primary key, with key columns of the child only
    for alias, rel in rels.items():
        if rel.join_to is None:
            continue
        on_keys = [k for _, k in rel.join_on]
        for p, k in rel.join_on:
            if k not in rel.key:
                err("join-on-key", f"join {rel.join_to} -> {alias} equates `{rel.join_to}.{p}` with `{alias}.{k}`, "
                    f"which is not in the primary key {rel.key} of `{alias}`", alias, k,
                    hint="a dimension view joins a foreign key to the whole primary key of the joined relation")
        if all(k in rel.key for k in on_keys) and sorted(on_keys) != sorted(rel.key):
            err("join-whole-key", f"join {rel.join_to} -> {alias} on {on_keys} must equate the whole primary "
                                  f"key {rel.key} "
                f"of `{alias}` (a dimension view joins foreign key to primary key only)", alias,
                hint="add the missing key columns to `on`")

    order = [root] if root in rels else []
    for _ in range(len(rels)):
        for alias, rel in rels.items():
            if alias not in order and rel.join_to in order:
                order.append(alias)
    for alias, rel in rels.items():
        if alias in order or rel.join_to is None:
            continue
        if rel.join_to not in rels_in:
            err("join-target", f"joins to unknown alias `{rel.join_to}`", alias)
        else:
            err("join-cycle", f"its joins form a cycle that never reaches the root `{root}`", alias)

    output: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for alias, rel in rels.items():
        for out, src in rel.columns:
            if out.lower() in seen:
                err("output-unique", f"output column `{out}` is declared twice; rename one ({{new_name: column}})",
                    alias, out)
            seen.add(out.lower())
            output.append((out, alias, src))
    key_out = []
    if root in rels:
        for k in rels[root].key:
            found = [o for o, a, s in output if a == root and s == k]
            if not found:
                err("root-key", f"the root key column `{root}.{k}` must be an output column (a dimension view keeps "
                                "its root key)",
                    root, k, hint=f"add `{k}` to the columns of `{root}`")
            else:
                key_out.append(found[0])
    if errs:
        return None, errs
    return View(model, root, rels, order, output, key_out), []
