"""Static validation of every `dimension_view` in a project (paper Def. 2, §5.2; DESIGN.md §2):
select-project-join with inner joins only, each join equating a foreign key with the whole
*declared* primary key of the joined relation, the root key kept, deterministic predicates over
the relation's own columns, a change feed with a declared technique for every input, compatible
join column types, no cycles. One `Violation` per problem, each naming model, alias, column and
rule, with a hint."""
from __future__ import annotations

import re

import sqlglot
from sqlglot import exp

from .declaration import View, Violation, normalize
from .project import Node, Project, blank_jinja, type_family
from .flags import technique_sets
from . import contract, maintainability
from .consistency import cut_source
from .options import DEFAULT_PLAN, apply_option_errors, rebuild_option_errors
from .techniques import FORMAT_SETS, KNOWN, TECHNIQUES, VIEW_FEED

FEED_COLUMNS = ("_pdelta_type", "_pdelta_seq")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NONDETERMINISTIC = {
    "rand", "randn", "random", "uuid", "shuffle", "now", "current_timestamp", "current_date", "current_time",
    "localtimestamp", "current_user", "user", "session_user", "monotonically_increasing_id",
    "spark_partition_id", "input_file_name", "input_file_block_start", "input_file_block_length",
    "unix_timestamp", "current_timezone", "randstr", "uniform", "try_reflect", "reflect", "java_method",
}
_CLASS_NAMES = {"Rand": "rand", "Randn": "randn", "Uuid": "uuid", "CurrentTimestamp": "current_timestamp",
                "CurrentDate": "current_date", "CurrentTime": "current_time", "CurrentUser": "current_user",
                "UnixTimestamp": "unix_timestamp", "CurrentTimestampLTZ": "current_timestamp"}


def function_name(f: exp.Func) -> str:
    if isinstance(f, exp.Anonymous):
        return str(f.this).lower()
    return _CLASS_NAMES.get(type(f).__name__, f.sql_name().lower())


def validate(project: Project, select: set[str] | None = None) -> tuple[dict[str, View], list[Violation]]:
    """Normal forms of the valid views and the violations of all (or the selected) views."""
    views: dict[str, View] = {}
    errors: list[Violation] = []
    nodes = [n for n in project.dimension_views() if select is None or n.name in select]
    # every view's normal form first: a view's feed can be another view's input
    for node in project.dimension_views():
        view, errs = normalize(project.declaration(node), node.name)
        if view is not None:
            view.plan = node.config.get("pdelta_plan", DEFAULT_PLAN)
            view.complement = node.config.get("pdelta_complement") is True
            view.complement_upkeep = node.config.get("pdelta_complement_upkeep")
            views[node.name] = view
        if node in nodes:
            errors += errs
    errors += check_source_time_hook(project, select)
    for node in nodes:
        errors += check_body(node)
        if node.name in views:
            errors += check_view(project, views[node.name], views)
            errors += check_options(node, views[node.name])
            errors += check_self_maintainable(project, node, views[node.name], views)
    return views, errors


def check_source_time_hook(project: Project, select: set[str] | None = None) -> list[Violation]:
    """Mirrors and captures that declare `source_time` are cut once per run by the project's on-run-start hook
    `pdelta.cut_sources()` (macros/engine/cut_sources.sql); without it each of their runs stops."""
    nodes = project.manifest.nodes.values()
    cut = [n for n in nodes if n.resource_type.value == "model" and cut_source(n) is not None
           and (select is None or n.name in select)]
    hooked = any(n.resource_type.value == "operation" and "on-run-start" in (n.tags or [])
                 and "cut_sources" in (n.raw_code or "") for n in nodes)
    if not cut or hooked:
        return []
    return [Violation(n.name, "source-time-hook", "declares source_time, but the project has no on-run-start hook "
                      "that cuts its source's feeds, so every run of it would stop",
                      hint='add `on-run-start: ["{{ pdelta.cut_sources() }}"]` to dbt_project.yml '
                           "(docs/dimension-views.md, a consistent cut across one source's feeds)") for n in cut]


def check_options(node, view: View) -> list[Violation]:
    """the model's apply and cost-model config, refused with the materialization's messages"""
    cfg = {k: node.config.get(k) for k in ("pdelta_apply", "pdelta_history", "tblproperties", "pdelta_rebuild_ratio")}
    cfg["pdelta_rebuild_feed"] = node.config.get("pdelta_rebuild_feed", "reset")
    cfg["pdelta_plan"] = node.config.get("pdelta_plan", DEFAULT_PLAN)
    cfg["on_schema_change"] = node.config.get("on_schema_change") or "ignore"
    cfg["pdelta_complement"] = node.config.get("pdelta_complement", False)
    cfg["pdelta_complement_upkeep"] = node.config.get("pdelta_complement_upkeep", "rebuild")
    cfg["file_format"] = node.config.get("file_format") or "delta"
    for name, (values, _) in contract.OPTIONS.items():
        cfg[name] = node.config.get(name, values[0])
    attrs = [o[0] for o in view.output if o[0] not in view.key]
    return [Violation(node.name, "config", m, hint="docs/apply.md and docs/dimension-views.md list the settings")
            for m in apply_option_errors(cfg, attrs) + rebuild_option_errors(cfg) + contract.option_errors(cfg)]


def check_self_maintainable(project: Project, node, view: View, views: dict[str, View]) -> list[Violation]:
    """a view declared `pdelta_self_maintainable: true` must be: each change set its inputs' feeds
    can hold applies from the view and the change alone (the dbt test
    tests/dbt/dimension_views_self_maintainable.sql checks the same claim in `dbt test`)"""
    claim = node.config.get("pdelta_self_maintainable")
    if claim is None or claim is False:
        return []
    if claim is not True:
        return [Violation(node.name, "config", f"pdelta_self_maintainable: expected true or false, got {claim}")]
    found = maintainability.verdicts(view, {name: v.plan for name, v in views.items()},
                                     maintainability.covered_joins(view, project.references))
    return [Violation(node.name, "self-maintainable", "declared pdelta_self_maintainable but " + line,
                      hint="`pdelta explain` lists each relation's verdicts; drop the claim or change what the "
                           "view outputs (keys of joined relations) or how its inputs are captured")
            for line in maintainability.claim_violations(found)]


def check_body(node) -> list[Violation]:
    """The body must be the SELECT the engine renders from the declaration: the full build and
    every refresh then compute the same view. A hand-written body is read with sqlglot to name
    what makes it no dimension view."""
    raw = node.raw_code
    if "pdelta.dimension_view(" in raw:
        extra = text_besides_call(raw)
        if not extra:
            return []
        return [Violation(node.name, "body", f"its body has more than {{{{ pdelta.dimension_view(...) }}}}: `{extra}`; "
                          "refreshes compute the declaration alone, so the materialization refuses the model",
                          hint="only config(), Jinja statements and comments may surround the call; put predicates "
                               "in the declaration's `where`")]
    problems = sql_constructs(raw)
    out = [Violation(node.name, rule, msg, hint="a dimension view is declared, not written: "
                     "its body is {{ pdelta.dimension_view(view) }}") for rule, msg in problems]
    return out or [Violation(node.name, "body", "its body is not {{ pdelta.dimension_view(<declaration>) }}; "
                             "refreshes would compute the declaration, not this SQL",
                             hint="put the SELECT's relations, joins, columns and predicates in the declaration")]


def jinja_spans(raw: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each `{{ }}`, `{% %}` and `{# #}` in a model; an expression or
    statement ends at the first closing delimiter outside quotes and brackets, so a declaration
    written inline (`{"c": {"key": ["id"]}}`) does not end it early."""
    spans, i, n = [], 0, len(raw)
    closing = {"{{": "}}", "{%": "%}", "{#": "#}"}
    while True:
        i = raw.find("{", i)
        if i < 0 or i + 1 >= n:
            return spans
        opener = raw[i:i + 2]
        if opener not in closing:
            i += 1
            continue
        close, j, depth, quote = closing[opener], i + 2, 0, None
        while j < n:
            ch = raw[j]
            if opener == "{#":
                if raw.startswith(close, j):
                    break
            elif quote:
                if ch == "\\":
                    j += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}" and not (depth == 0 and raw.startswith(close, j)):
                depth -= 1
            elif depth <= 0 and raw.startswith(close, j):
                break
            j += 1
        end = min(n, j + 2)
        spans.append((i, end, opener))
        i = end


_DIMENSION_VIEW_CALL = re.compile(r"^\{\{-?\s*pdelta\.dimension_view\s*\(.*\)\s*-?\}\}$", re.S)
_CONFIG_CALL = re.compile(r"^\{\{-?\s*config\s*\(", re.S)
# the materialization's own comment stripping: whole-line `--` comments, then /* */ blocks
_LINE_COMMENT = re.compile(r"^\s*--[^\n]*$", re.M)
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def text_besides_call(raw: str) -> str:
    """What a dimension_view model renders besides its one `{{ pdelta.dimension_view(...) }}`:
    text outside Jinja other than whitespace and SQL comments, any other `{{ }}` expression but
    config(), or a second call (shortened; empty when the body is just the call). Mirrors the
    materialization, which strips whole-line `--` comments and /* */ blocks from the rendered
    body and compares it with the declaration's SQL; statically an expression other than the
    call cannot be known to render to nothing, so it counts as extra."""
    out, pos, calls = [], 0, 0
    for start, end, kind in jinja_spans(raw):
        out.append(raw[pos:start])
        pos = end
        text = raw[start:end]
        quiet = kind != "{{" or _CONFIG_CALL.match(text) or (calls == 0 and _DIMENSION_VIEW_CALL.match(text))
        if quiet and kind == "{{" and not _CONFIG_CALL.match(text):
            calls += 1
        # a span that renders nothing leaves its place on the line, so `-- x` after it is no whole-line comment
        out.append("\x00" if quiet else text)
    out.append(raw[pos:])
    rest = _BLOCK_COMMENT.sub("", _LINE_COMMENT.sub("", "".join(out))).replace("\x00", " ")
    found = " ".join(rest.split())
    return found if len(found) <= 80 else found[:77] + "..."


def sql_constructs(raw: str) -> list[tuple[str, str]]:
    """What in a SELECT (Jinja blanked) falls outside select-project-inner-join."""
    text = blank_jinja(raw)
    if not text:
        return []
    try:
        tree = sqlglot.parse_one(text, read="spark")
    except Exception as e:  # noqa: BLE001 - any parse failure is reported as such
        return [("sql", f"its SQL does not parse: {str(e).splitlines()[0]}")]
    found: list[tuple[str, str]] = []
    for node in tree.find_all(exp.Union, exp.Intersect, exp.Except):
        found.append(("set-operation", f"{type(node).__name__.upper()} combines two queries; a dimension view is one "
                                       "select-project-join"))
    for sel in tree.find_all(exp.Select):
        if sel.args.get("distinct"):
            found.append(("distinct", "SELECT DISTINCT removes duplicates, which partial deltas cannot maintain"))
        if sel.args.get("group") or any(True for _ in sel.find_all(exp.AggFunc)):
            found.append(("aggregate", "it aggregates (GROUP BY or an aggregate function); a dimension view has one "
                                       "row per root key"))
        for j in sel.args.get("joins") or []:
            side, kind = (j.side or "").lower(), (j.kind or "").lower()
            if side in ("left", "right", "full") or kind in ("outer", "cross", "anti", "semi"):
                found.append(("outer-join", f"{(side + ' ' + kind).strip().upper()} JOIN: a dimension view joins with "
                                            "inner joins only"))
    if any(True for _ in tree.find_all(exp.Window)):
        found.append(("window", "a window function depends on other rows"))
    if tree.args.get("limit"):
        found.append(("limit", "LIMIT keeps an arbitrary subset"))
    for f in tree.find_all(exp.Func):
        if function_name(f) in NONDETERMINISTIC:
            found.append(("deterministic", f"`{f.sql('spark')}` is not deterministic"))
    seen, out = set(), []
    for f in found:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


def check_view(project: Project, view: View, views: dict[str, View]) -> list[Violation]:
    errs: list[Violation] = []
    m = view.model

    def err(rule, message, alias=None, column=None, hint=None, severity="error"):
        errs.append(Violation(m, rule, message, alias, column, hint, severity))

    nodes: dict[str, Node | None] = {}
    for alias in view.order:
        r = view.relations[alias]
        state = project.resolve(r.state, views)
        nodes[alias] = state
        if state is None:
            err("state", f"state {r.state!r} is not a model, seed or source of this project", alias,
                hint="name a model or seed, [source, table], {ref: name} or {source: [source, table]}")
        feed = project.resolve(r.changes, views)
        is_view_feed = isinstance(r.changes, dict) and "feed_of" in r.changes
        if feed is None:
            err("change-feed", f"change feed {r.changes!r} is not a model, seed, source or {{feed_of: view}} "
                               "of this project",
                alias, hint="every input needs a change feed in the canonical shape (docs/dimension-views.md)")
        elif feed.columns is not None:
            missing = [c for c in [*r.key, *FEED_COLUMNS] if c.lower() not in feed.columns]
            if missing:
                err("change-feed", f"change feed {r.changes!r} lacks the column(s) {missing} of the canonical shape",
                    alias, hint="key columns, attribute columns, _pdelta_before, _pdelta_type, _pdelta_seq")
        tech = r.technique
        fmt = feed.capture_format if feed is not None else None
        # the feed of a pdelta capture holds what its format emits, whatever is declared
        beyond = ([t for t in FORMAT_SETS[fmt] if t not in technique_sets(tech)]
                  if fmt in FORMAT_SETS and tech in TECHNIQUES else [])
        if tech is None and not is_view_feed:
            err("technique", "no `technique` declared for its change feed", alias,
                hint=(f"`{fmt}`: the format of the capture that writes it" if fmt in FORMAT_SETS else
                      f"one of {', '.join(KNOWN)}") + ": it tells which of the six sets the feed can hold")
        elif beyond:
            err("technique", f"change feed {r.changes!r} is a capture of format `{fmt}`, which emits {beyond}; "
                f"technique `{tech}` cannot, so the flag analysis would assume they never come", alias,
                hint=f"declare technique: {fmt}")
        elif tech is not None and tech not in KNOWN:
            err("technique", f"unknown technique `{tech}`", alias, hint=f"one of {', '.join(KNOWN)}")
        elif is_view_feed and tech not in (None, VIEW_FEED):
            err("technique", f"a view's feed has technique `{VIEW_FEED}`, not `{tech}`", alias)
        elif tech == VIEW_FEED and not is_view_feed:
            err("technique", f"technique `{VIEW_FEED}` is for {{feed_of: view}} feeds", alias)

        if state is not None:
            declared_key = {k.lower() for k in r.key}
            if state.view_key is not None:
                ok = {k.lower() for k in state.view_key} <= declared_key
            else:
                ok = any(k <= declared_key for k in state.key_declared)
            if not ok:
                err("key-declared", f"primary key {r.key} is not declared on {state.kind} "
                                    f"`{state.unique_id.split('.')[-1]}`",
                    alias, hint="add data tests `unique` and `not_null` to the key column (composite keys: a "
                    "primary_key constraint or dbt_utils.unique_combination_of_columns plus not_null), so the join "
                    "is on a real key")
        for out, src in r.columns:
            if not IDENT.match(src):
                rule = "aggregate" if _has_aggregate(src) else "projection"
                err(rule, f"output `{out}` is the expression `{src}`; a dimension view projects "
                          "columns of its relations", alias, out,
                    hint="compute the expression in the state model and project that column")
            elif state is not None and state.columns is not None and src.lower() not in state.columns:
                err("column", f"`{src}` is not a column of `{_name(state)}` (columns: {', '.join(state.columns)})",
                    alias, src)
        if state is not None and state.columns is not None:
            for k in r.key:
                if k.lower() not in state.columns:
                    err("column", f"key column `{k}` is not a column of `{_name(state)}`", alias, k)
        if r.where:
            errs.extend(check_predicate(m, alias, r.where, state))

    for alias in view.order[1:]:
        r = view.relations[alias]
        parent, child = nodes.get(r.join_to), nodes.get(alias)
        for pc, kc in r.join_on:
            if parent is not None and parent.columns is not None and pc.lower() not in parent.columns:
                err("column", f"join column `{r.join_to}.{pc}` is not a column of `{_name(parent)}`", alias, pc)
                continue
            if parent is None or child is None:
                continue
            tp, tc = parent.type_of(pc), child.type_of(kc)
            if tp and tc and type_family(tp) != type_family(tc):
                err("join-types", f"join {r.join_to}.{pc} ({tp}) = {alias}.{kc} ({tc}) compares different types",
                    alias, pc,
                    hint="cast one side in its state model so both are the same type")
    return errs


def _name(node: Node) -> str:
    return node.unique_id.split(".")[-1]


def _has_aggregate(sql: str) -> bool:
    try:
        e = sqlglot.parse_one(f"select {sql} from t", read="spark")
    except Exception:  # noqa: BLE001
        return False
    return any(True for _ in e.find_all(exp.AggFunc))


def check_predicate(model: str, alias: str, where: str, state: Node | None) -> list[Violation]:
    out: list[Violation] = []

    def err(rule, message, column=None, hint=None):
        out.append(Violation(model, rule, message, alias, column, hint))

    try:
        tree = sqlglot.parse_one(f"select * from t where {where}", read="spark")
    except Exception as e:  # noqa: BLE001
        err("predicate-syntax", f"predicate `{where}` does not parse: {str(e).splitlines()[0]}")
        return out
    cond = tree.args["where"].this
    if any(True for _ in cond.find_all(exp.Subquery, exp.Exists)) or any(True for _ in cond.find_all(exp.Select)):
        err("predicate-subquery", f"predicate `{where}` has a subquery; it may read only its own relation's row",
            hint="join the other relation in the declaration and put the predicate on it")
    if any(True for _ in cond.find_all(exp.AggFunc)):
        err("aggregate", f"predicate `{where}` aggregates; a dimension view filters row by row")
    if any(True for _ in cond.find_all(exp.Window)):
        err("window", f"predicate `{where}` uses a window function; a dimension view filters row by row")
    for f in cond.find_all(exp.Func):
        name = function_name(f)
        if name in NONDETERMINISTIC:
            err("deterministic", f"predicate `{where}` calls `{f.sql('spark')}`, which is not deterministic: "
                "a refresh could not tell which rows passed before", hint="filter on a column the state stores")
    for col in cond.find_all(exp.Column):
        q = col.table
        if q and q != alias:
            err("predicate-columns", f"predicate `{where}` references `{q}.{col.name}`; a relation's predicate "
                                     "reads only "
                "its own columns", col.name, hint=f"move the condition to relation `{q}`")
        elif state is not None and state.columns is not None and col.name.lower() not in state.columns:
            err("predicate-columns", f"predicate `{where}` references `{col.name}`, not a column of `{_name(state)}`",
                col.name)
    return out
