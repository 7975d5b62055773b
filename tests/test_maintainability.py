"""Self-maintainability verdicts (python/pdelta/maintainability.py) checked against the definition
(Gupta et al.; Laurent et al. Def. 4.1): a change set of a relation is self-maintainable when the
new view is a function of the old view and the change. On small random databases of random view
shapes, for every relation and change set:
- verdict "view": no two databases with the same view and the same change lead to different new
  views;
- any other verdict: two such databases exist (the verdict is not too cautious), and adding the
  complement parts the verdict names (rows a relation holds outside the view, the join key of the
  view's rows) to what is compared tells every pair apart (the parts suffice).
No Spark: the view is evaluated in Python, by its definition (select, project, inner joins)."""
from __future__ import annotations

import json
import random
import sys
from collections import defaultdict

import pytest

import pdelta.maintainability
from pdelta.declaration import View, normalize
from pdelta.maintainability import (Features, Rule, descendants, features, hints, holds_values, rule, transparent,
                                    verdict, verdicts)
from user_project import macro_project, run_operation

KEYS = (1, 2)
VALUES = (0, 1)


def random_declaration(rng: random.Random) -> dict:
    """a tree of 1-4 relations: key `k`, value `v`, a foreign key `f_<child>` per child; random
    predicates `v = 1` and random output columns (the root key always)"""
    n = rng.randint(1, 4)
    names = [f"r{i}" for i in range(n)]
    parent = {names[i]: names[rng.randrange(i)] for i in range(1, n)}
    rels = {}
    for name in names:
        children = [c for c, p in parent.items() if p == name]
        cols = ["k"] if name == "r0" else []
        for c in ["k", "v", *(f"f_{ch}" for ch in children)]:
            if c not in cols and rng.random() < 0.4:
                cols.append(c)
        rel = {"state": name, "changes": f"{name}_changes", "key": "k", "technique": "any",
               "columns": [{f"{name}_{c}": c} for c in cols]}
        if rng.random() < 0.35:
            rel["where"] = "v = 1"
        if name in parent:
            rel["join"] = {"to": parent[name], "on": {f"f_{name}": "k"}}
        rels[name] = rel
    return {"root": "r0", "relations": rels}


def columns(view: View, alias: str) -> list[str]:
    return ["k", "v", *(f"f_{c}" for c in view.children(alias))]


def evaluate(view: View, db: dict) -> frozenset:
    """the view's rows over `db` (alias -> {key: row dict}) by its definition"""
    return frozenset(tuple(joined[a][src] for _, a, src in view.output) for joined in view_rows_joined(view, db))


def view_rows_joined(view: View, db: dict) -> list[dict]:
    """the rows of each relation that make up each view row, as {alias: row}"""
    out = []
    for root_row in db[view.root].values():
        joined = {view.root: root_row}
        for alias in view.order:
            r = view.relations[alias]
            if alias != view.root:
                row = db[alias].get(joined[r.join_to][f"f_{alias}"])
                if row is None:
                    break
                joined[alias] = row
            if r.where and joined[alias]["v"] != 1:
                break
        else:
            out.append(joined)
    return out


def complement_parts(view: View, alias: str, change_set: str, db: dict, covered: set[str]):
    """what the verdict's complement parts hold in `db`: for each named relation that shows columns,
    its rows outside the view and the columns the view does not output of its rows inside, and
    when the view keeps no key of it, the join key per view row; a relation the view shows no
    column of, whole; the join key per view row (the parent's foreign key, by the root key)"""
    found = rule(change_set, features(view, alias, covered))
    joined = view_rows_joined(view, db)
    in_view: dict[str, set] = defaultdict(set)
    for chain in joined:
        for a, row in chain.items():
            in_view[a].add(row["k"])

    def join_key(a):
        return ("join_key", a, frozenset((chain[view.root]["k"], chain[view.relations[a].join_to][f"f_{a}"])
                                         for chain in joined))

    out = []
    for part in found.needs:
        if part == "join_key":
            out.append(join_key(alias))
            continue
        rels = descendants(view, alias) if part == "descendants" else [a for a in view.order if a != alias]
        for a in (a for a in rels if not transparent(view, a, covered)):
            if not holds_values(view, a):
                out.append((a, frozenset(tuple(sorted(row.items())) for row in db[a].values())))
                continue
            shown = {src for _, rel, src in view.output if rel == a}
            out.append((a, frozenset(tuple(sorted(row.items())) if row["k"] not in in_view[a]
                                     else tuple(sorted((c, x) for c, x in row.items() if c not in shown or c == "k"))
                                     for row in db[a].values())))
            if not features(view, a).key_visible:
                out.append(join_key(a))
    return tuple(out)


def random_db(view: View, rng: random.Random, covered: set[str]) -> dict:
    """random rows, built leaves first: a foreign key to a `covered` relation names one of its rows
    (the inclusion dependency holds); a row that cannot is left out"""
    db = {}
    for alias in reversed(view.order):
        db[alias] = {}
        for k in KEYS:
            if rng.random() >= 0.6:
                continue
            row = {"k": k, "v": rng.choice(VALUES)}
            for child in view.children(alias):
                names = sorted(db[child]) if child in covered else KEYS
                row[f"f_{child}"] = rng.choice(names) if names else None
            if None not in row.values():
                db[alias][k] = row
    return db


def inclusions_hold(view: View, db: dict, covered: set[str]) -> bool:
    return all(row[f"f_{alias}"] in db[alias] for alias in covered
               for row in db[view.relations[alias].join_to].values())


def random_change(foreign_keys: list[str], alias: str, change_set: str, db: dict, rng: random.Random):
    """(the change of `alias` (foreign key columns `foreign_keys`) as the feed carries it, the
    database after it), or None when `db` admits none"""
    rows = db[alias]
    present = sorted(rows)
    absent = [k for k in KEYS if k not in rows]
    pick = {"ins": absent, "ups": list(KEYS)}.get(change_set, present)
    if not pick:
        return None
    k = rng.choice(pick)
    new = {"k": k, "v": rng.choice(VALUES), **{c: rng.choice(KEYS) for c in foreign_keys}}
    after = {**db, alias: dict(rows)}
    image = tuple(sorted(new.items()))
    if change_set in ("del", "delk"):
        carried = tuple(sorted(rows[k].items())) if change_set == "del" else k
        del after[alias][k]
    else:
        after[alias][k] = new
        carried = (tuple(sorted(rows[k].items())), image) if change_set == "upd" else image
    return carried, after


def chain_through_hidden(where: bool) -> dict:
    """r0 -> r1 -> r2 where the view shows nothing of r1, not even its key"""
    rels = {"r0": {"state": "r0", "changes": "c0", "key": "k", "columns": ["k"]},
            "r1": {"state": "r1", "changes": "c1", "key": "k", "columns": [],
                   "join": {"to": "r0", "on": {"f_r1": "k"}}},
            "r2": {"state": "r2", "changes": "c2", "key": "k", "columns": [{"r2_v": "v"}],
                   "join": {"to": "r1", "on": {"f_r2": "k"}}}}
    if where:
        rels["r1"]["where"] = "v = 1"
    return {"root": "r0", "relations": rels}


SHAPES = [normalize(random_declaration(random.Random(seed)), f"shape{seed}")[0] for seed in range(36)]
# and shapes with joins an inclusion dependency covers (a relationships test on the parent's foreign key)
COVERED_SHAPES = [normalize(random_declaration(random.Random(seed)), f"covered{seed}")[0] for seed in range(36, 50)]
COVERED = {v.model: {a for a in v.order[1:] if random.Random(f"covered {v.model} {a}").random() < 0.6}
           for v in COVERED_SHAPES}
SHAPES += COVERED_SHAPES
SHAPES.append(normalize(chain_through_hidden(True), "covered_hidden_where")[0])  # r1: a predicate, a join
COVERED["covered_hidden_where"] = {"r1"}
SHAPES += [normalize(chain_through_hidden(where), f"hidden{'_where' if where else ''}")[0] for where in (False, True)]
SP_WHERE = {"state": "r0", "changes": "c0", "key": "k", "where": "v = 1", "columns": [{"r0_k": "k"}, {"r0_v": "v"}]}
SHAPES.append(normalize({"root": "r0", "relations": {"r0": SP_WHERE}}, "sp_where")[0])


@pytest.mark.parametrize("shape", SHAPES, ids=lambda v: v.model)
def test_each_verdict_meets_the_definition(shape):
    check_against_the_definition(shape)


def test_a_wrong_verdict_is_caught(monkeypatch):
    """the check fails when the rule claims a root insert through a join needs nothing"""
    wrong = rule

    def claims_too_much(change_set, f):
        return Rule((), ("sp_view",)) if f.root and change_set == "ins" else wrong(change_set, f)

    monkeypatch.setattr(pdelta.maintainability, "rule", claims_too_much)
    with pytest.raises(AssertionError, match="r0 ins: .*the view and the change do not decide the new view"):
        check_against_the_definition(SHAPES[-2])


def test_a_missing_complement_part_is_caught(monkeypatch):
    """the check fails when the parts leave out the join key that says which row of a relation the
    view keeps no key of each view row shows (`hidden`: r2's columns without r1's or r2's key)"""
    named = complement_parts

    def without_join_keys(*args):
        return tuple(part for part in named(*args) if part[0] != "join_key")

    monkeypatch.setattr(sys.modules[__name__], "complement_parts", without_join_keys)
    with pytest.raises(AssertionError, match="the named complement parts do not decide the new view"):
        check_against_the_definition(next(v for v in SHAPES if v.model == "hidden"))


def check_against_the_definition(shape: View):
    rng = random.Random(shape.model)
    covered = COVERED.get(shape.model, set())
    dbs = [random_db(shape, rng, covered) for _ in range(600)]
    views = [evaluate(shape, db) for db in dbs]
    for alias in shape.order:
        foreign_keys = columns(shape, alias)[2:]
        for change_set in ("ins", "del", "upd", "up", "ups", "delk"):
            found = verdict(shape, alias, change_set, covered)
            by_view: dict = defaultdict(set)
            by_view_and_parts: dict = defaultdict(set)
            for db, before in zip(dbs, views):
                parts = None
                for _ in range(6 if change_set == "ups" else 3):  # half of the upserts insert
                    change = random_change(foreign_keys, alias, change_set, db, rng)
                    if change is None:
                        break
                    carried, after = change
                    if covered and not inclusions_hold(shape, after, covered):
                        continue  # a change the declared inclusion dependencies rule out
                    new = evaluate(shape, after)
                    by_view[(before, carried)].add(new)
                    if found.reads != "view":
                        parts = parts or complement_parts(shape, alias, change_set, db, covered)
                        by_view_and_parts[(before, carried, parts)].add(new)
            ambiguous = [k for k, news in by_view.items() if len(news) > 1]
            what = f"{shape.model} {alias} {change_set}: {found}"
            if found.reads == "view":
                assert not ambiguous, f"{what}: the view and the change do not decide the new view"
            else:
                assert ambiguous, f"{what}: no two databases told apart only by the complement were found"
                assert all(len(news) == 1 for news in by_view_and_parts.values()), \
                    f"{what}: the named complement parts do not decide the new view"


def test_the_shapes_cover_every_rule_input():
    """the random shapes reach each feature combination the rule distinguishes"""
    seen = {(f.root, f.children, f.where, f.key_visible, f.shows_values, f.covered)
            for v in SHAPES for f in (features(v, a, COVERED.get(v.model, set())) for a in v.order)}
    both = (True, False)
    wanted = {(True, c, w, True, s, False) for c in both for w in both for s in both}
    wanted |= {(False, c, w, k, s, False) for c in both for w in both for k in both for s in both}
    assert wanted <= seen, sorted(wanted - seen)
    # a covered join: inserts and deletes need nothing, upserts and updates go by the other features
    covered = {(c, w) for root, c, w, k, _, cov in seen if cov}
    assert {(c, w) for c in both for w in both} <= covered, covered


def test_hints_name_what_would_make_more_changes_view_alone():
    """PAPER_LIKE keeps neither caddr nor aid, and declares no inclusion dependency: each would
    help, and with both given the hints say nothing more; the hints' what-ifs are the verdicts'"""
    view = normalize(PAPER_LIKE, "paper_like")[0]
    found = hints(view)
    assert found == [
        "`a`: with c.caddr or a.aid among the output columns its up, delk would apply from the view alone "
        "(the key retained)",
        "`a`: if every c.caddr names a row of a, a dbt relationships test saying so (c.caddr to a.aid) would make "
        "its ins, delk apply from the view alone"]
    kept = {**PAPER_LIKE, "relations": {**PAPER_LIKE["relations"], "c": {**PAPER_LIKE["relations"]["c"],
                                                                       "columns": ["cid", "cname", "caddr"]}}}
    kept_view = normalize(kept, "kept")[0]
    assert [v.reads for v in verdicts(kept_view) if v.alias == "a"] == ["complement", "view", "complement", "view"]
    assert hints(kept_view, covered={"a"}) == []
    assert [v.reads for v in verdicts(kept_view, covered={"a"}) if v.alias == "a"] == ["view", "view", "view", "view"]


def test_the_paper_s_view():
    """the paper's D (Cust joined to Addr, Addr's city projected): which of its changes the view
    alone absorbs"""
    view, errors = normalize({"root": "cust", "relations": {
        "cust": {"state": "c", "changes": "cc", "key": "cid", "technique": "log_based",
                 "columns": ["cid", "cname", "cdiscount"]},
        "addr": {"state": "a", "changes": "ac", "key": "aid", "technique": "change_tracking",
                 "columns": ["acity"], "join": {"to": "cust", "on": {"caddr": "aid"}}}}}, "paper_d")
    assert not errors
    by = {(v.alias, v.change_set): v for v in (verdict(view, a, t) for a in view.order
                                                for t in ("ins", "del", "upd", "up", "ups", "delk"))}
    assert by["cust", "del"].reads == "view"
    # D shows Addr's city but neither caddr nor aid: which address each row's city belongs to is
    # Cust's foreign key, a part of the complement beside Addr's rows no customer joins
    assert by["cust", "ins"].reads == "complement"
    assert by["cust", "ins"].needs == ("addr: its rows and columns the view does not hold",
                                       "the join key cust.caddr of the view's rows")
    # neither caddr nor aid is an output column: a deleted address cannot be found in D
    assert by["addr", "delk"].reads == "complement" and "join key cust.caddr" in by["addr", "delk"].needs[0]
    assert by["addr", "up"].reads == "complement"
    assert Features(True, False, True, True, False) == features(normalize({"root": "c", "relations": {
        "c": {"state": "c", "changes": "cc", "key": "id", "columns": ["id"], "where": "v > 0"}}}, "sp")[0], "c")


JINJA_REPORT = """
{% macro claims_report() %}
  {{ log('CLAIMS ' ~ pdelta.self_maintainability_claims_sql(), info=true) }}
  {%- set out = {} -%}
  {%- for node in graph.nodes.values() if node.config.materialized == 'dimension_view' -%}
    {%- set view = pdelta.normalize_declaration(node.config.get('pdelta'), node.name) -%}
    {%- do out.update({node.name: pdelta.maintainability_verdicts(view, {})}) -%}
  {%- endfor -%}
  {{ log('MODEL_VERDICTS ' ~ tojson(out), info=true) }}
{% endmacro %}
{% macro verdicts_report(decls, plans) %}
  {%- set out = {} -%}
  {%- for name, decl in decls.items() -%}
    {%- do out.update({name: pdelta.maintainability_verdicts(pdelta.normalize_declaration(decl, name), plans)}) -%}
  {%- endfor -%}
  {{ log('VERDICTS ' ~ tojson(out), info=true) }}
{% endmacro %}
"""


def test_jinja_gives_python_s_verdicts(tmp_path):
    """the Jinja side (macros/engine/maintainability_verdicts.sql, read by the dbt test of a
    declared claim) computes the same features and reads the same generated rule"""
    decls = {f"shape{seed}": random_declaration(random.Random(seed)) for seed in range(36)}
    decls["hidden"] = chain_through_hidden(True)
    for seed, technique in enumerate(("log_based", "change_tracking", "upsert_feed", "audit_columns")):
        decl = random_declaration(random.Random(100 + seed))
        for rel in decl["relations"].values():
            rel["technique"] = technique
        decls[f"technique_{technique}"] = decl
    fed = chain_through_hidden(False)
    fed["relations"]["r1"]["changes"] = {"feed_of": "upstream"}
    fed["relations"]["r2"]["changes"] = {"feed_of": "upstream_rules"}
    decls["fed"] = fed
    plans = {"upstream": "diff", "upstream_rules": "rules"}
    project = macro_project(tmp_path, "verdicts_it", JINJA_REPORT)
    write_claims(project)
    res, logged = run_operation(project, "verdicts_report", {"decls": decls, "plans": plans})
    assert res.success, (res.exception, logged[-5:])
    report = json.loads(next(m for m in logged if m.startswith("VERDICTS ")).split(" ", 1)[1])
    for name, decl in decls.items():
        view, errors = normalize(decl, name)
        assert not errors, errors
        assert report[name] == [v.as_dict() for v in verdicts(view, plans)], name
    # r2 reads a rules-plan view's feed: any of the six sets
    fed_r2 = [v["change_set"] for v in report["fed"] if v["relation"] == "r2"]
    assert fed_r2 == ["ins", "del", "upd", "up", "ups", "delk"]

    # the dbt test of the claims (tests/dbt/dimension_views_self_maintainable.sql) over the same project
    res, logged = run_operation(project, "claims_report", {})
    assert res.success, (res.exception, logged[-5:])
    sql = next(m for m in logged if m.startswith("CLAIMS ")).split(" ", 1)[1]
    import sqlglot

    rows = [[literal.this for literal in row.expressions]
            for row in sqlglot.parse_one(sql, read="spark").find(sqlglot.exp.Values).expressions]
    joined = normalize(PAPER_LIKE, "claim_false")[0]
    assert [row[:3] for row in rows] == [["claim_false", v.alias, v.change_set]
                                         for v in verdicts(joined, {}, {"a"}) if v.reads != "view"]
    first = next(v for v in verdicts(joined, {}, {"a"}) if v.reads != "view")
    assert rows[0][3:] == [first.reads, "; ".join(first.needs), first.why]
    assert rows[0][3:5] == ["complement", "a: its rows and columns the view does not hold; "
                                          "the join key c.caddr of the view's rows"]
    model_verdicts = json.loads(next(m for m in logged if m.startswith("MODEL_VERDICTS ")).split(" ", 1)[1])
    for name in ("claim_false", "no_claim"):
        assert model_verdicts[name] == [v.as_dict() for v in verdicts(joined, {}, {"a"})]
    assert {v["reads"] for v in model_verdicts["claim_false"] if v["relation"] == "a"} == {"view", "complement"}


PAPER_LIKE = {"root": "c", "relations": {
    "c": {"state": "cust", "changes": "cust_changes", "key": "cid", "technique": "log_based",
          "columns": ["cid", "cname"]},
    "a": {"state": "addr", "changes": "addr_changes", "key": "aid", "technique": "change_tracking",
          "columns": ["acity"], "join": {"to": "c", "on": {"caddr": "aid"}}}}}


def write_claims(project):
    """three dimension views: a false claim, a true one (an SP view), a joined view claiming nothing"""
    models = project / "models"
    models.mkdir(exist_ok=True)
    for relation in ("cust", "cust_changes", "addr", "addr_changes"):  # only parsed, never run
        models.joinpath(f"{relation}.sql").write_text("select 1 as x\n")
    # an inclusion dependency cust.caddr -> addr.aid: Jinja's declared_references finds it
    models.joinpath("_schema.yml").write_text(
        "version: 2\nmodels:\n  - name: cust\n    columns:\n      - name: caddr\n        data_tests:\n"
        "          - relationships: {arguments: {to: \"ref('addr')\", field: aid}}\n")
    sp_view = {"root": "c", "relations": {"c": PAPER_LIKE["relations"]["c"]}}
    for name, decl, claim in (("claim_false", PAPER_LIKE, True), ("claim_true", sp_view, True),
                              ("no_claim", PAPER_LIKE, False)):
        models.joinpath(f"{name}.sql").write_text(
            "{%- set v = " + json.dumps(decl) + " -%}\n{{ config(materialized='dimension_view', pdelta=v"
            + (", pdelta_self_maintainable=true" if claim else "") + ") }}\n{{ pdelta.dimension_view(v) }}\n")
