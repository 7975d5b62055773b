"""`pdelta` command line.

    pdelta validate [--select SEL..] [--live]  check the dimension views (dbt selectors) before anything runs
    pdelta explain MODEL                        rule terms, predicted sets, the SQL of the next refresh
    pdelta run [dbt arguments]                  validate the views dbt will run, then `dbt <arguments>`;
                                                refuses on an error
    pdelta gen-macros [--check]                 write the Jinja delta model, the feed contract and the
                                                self-maintainability rule from the Python package
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from . import __version__, algebra, consistency, contract, maintainability

MACRO_PATH = Path("macros") / "algebra" / "delta_model.sql"
# the algebra's expected table, a seed of the repository's own dbt project (integration_tests/)
SEED_PATH = Path("integration_tests") / "seeds" / "algebra" / "algebra_expected.csv"
CONTRACT_PATH = Path("macros") / "engine" / "feed_contract.sql"
MAINTAINABILITY_PATH = Path("macros") / "engine" / "maintainability_rules.sql"
# what macros/engine/explain_refresh.sql logs as each step of the dry run starts
PROGRESS_PREFIX = "pdelta-progress:"


def find_project_root(start: Path) -> Path:
    for p in [start, *start.parents]:
        if (p / "dbt_project.yml").exists():
            return p
    raise SystemExit("pdelta: no dbt_project.yml here or above")


def package_root(start: Path) -> Path:
    """pdelta's repository: the nearest folder with a dbt_project.yml and the generated macros'
    folder (so gen-macros also works from inside integration_tests/), else the nearest project"""
    for p in [start, *start.parents]:
        if (p / "dbt_project.yml").exists() and (p / MACRO_PATH).parent.is_dir():
            return p
    return find_project_root(start)


def cmd_gen_macros(args: argparse.Namespace) -> int:
    root = package_root(Path.cwd())
    stale = 0
    for path, text in ((MACRO_PATH, algebra.render_macro()), (SEED_PATH, algebra.render_flag_seed()),
                       (CONTRACT_PATH, contract.render_macro()),
                       (MAINTAINABILITY_PATH, maintainability.render_macro())):
        target = root / path
        if args.check:
            if not target.exists() or target.read_text() != text:
                print(f"pdelta: {path} is out of date; run `pdelta gen-macros`", file=sys.stderr)
                stale += 1
            else:
                print(f"pdelta: {path} is up to date")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(f"pdelta: wrote {path}")
    return 1 if stale else 0


# -- project location ------------------------------------------------------------------------
def _dirs(args) -> tuple[Path, Path | None]:
    project = Path(args.project_dir).resolve() if args.project_dir else find_project_root(Path.cwd())
    if args.profiles_dir:
        profiles = Path(args.profiles_dir).resolve()
    elif os.environ.get("DBT_PROFILES_DIR"):
        profiles = Path(os.environ["DBT_PROFILES_DIR"]).resolve()
    elif (project / "profiles.yml").exists():
        profiles = project
    else:
        profiles = None  # dbt's default, ~/.dbt
    return project, profiles


def _profile_name(args) -> str:
    """The profile the project's dbt_project.yml names (as dbt reads it; not necessarily `pdelta`)."""
    import yaml

    return yaml.safe_load((_dirs(args)[0] / "dbt_project.yml").read_text())["profile"]


def _target(args, profiles: Path | None) -> str:
    """The dbt target: --target, else the profile's default (rendered like dbt renders it)."""
    if args.target:
        return args.target
    from .spark import rendered_profiles

    return rendered_profiles(profiles or Path.home() / ".dbt")[_profile_name(args)]["target"]


def _parse(args):
    from .project import ParseError, Project, parse_manifest

    project_dir, profiles = _dirs(args)
    try:
        manifest = parse_manifest(project_dir, profiles, args.target, _project_vars(args))
    except ParseError as e:
        raise SystemExit(f"pdelta: {e}")
    return Project(manifest, project_dir)


def _load(args, names: set[str] | None = None):
    """the project, the normal forms of its valid views and the violations of `names` (None: every view)"""
    from .validate import validate

    project = _parse(args)
    views, errors = validate(project, names)
    return project, views, errors


class Progress:
    """A line on stderr as each long step starts, with the seconds since the command started, so a
    user on a slow cluster sees what runs; stdout keeps the report alone (--format json)."""

    def __init__(self, command: str, started: float):
        self.command, self.started = command, started

    def __call__(self, step: str) -> None:
        print(f"{self.command} [{time.time() - self.started:6.1f}s] {step}", file=sys.stderr, flush=True)


# -- selection ---------------------------------------------------------------------------------
def _selected_views(project, ids: set[str]) -> list[str]:
    return [n.name for n in project.dimension_views() if n.unique_id in ids]


def _validate_selection(args) -> list[str]:
    """`pdelta validate`'s --select/--exclude/--selector/--state as dbt flags ([]: every view)"""
    flags = []
    for name in ("select", "exclude"):
        if getattr(args, name, None):
            flags += [f"--{name}", *getattr(args, name)]
    for name in ("selector", "state"):
        if getattr(args, name, None):
            flags += [f"--{name}", getattr(args, name)]
    return flags


def _resolve_for_validate(args, project, selection: list[str]) -> tuple[list[str], set[str]]:
    """(the dimension views dbt selects with `selection`, the unique ids of every model it selects).
    A project whose views only parse under pdelta's validation mode cannot be listed by dbt; plain
    view names are then read as names, so `--select my_view` still reports that view's errors."""
    from .project import SelectionError, parse_folder, selected_models

    project_dir, profiles = _dirs(args)
    project_vars = _project_vars(args)
    # parse_manifest's ordinary parse, saved there: unless a declaration broke it, dbt re-parses nothing
    folder = project_dir / parse_folder(project_vars, args.target)
    try:
        ids = selected_models(project_dir, profiles, args.target, project_vars, selection, folder)
    except SelectionError as e:
        every = {n.name for n in project.dimension_views()}
        names = args.select or []
        if names and set(names) <= every and not (args.exclude or args.selector or args.state):
            print(f"pdelta validate: dbt cannot list the project ({_first_line(e)}); --select is read as "
                  "dimension-view names", file=sys.stderr)
            return sorted(set(names)), set()
        raise SystemExit(f"pdelta validate: dbt cannot resolve `{' '.join(selection)}`: {e}")
    return _selected_views(project, ids), ids


def _first_line(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[0] if lines else type(e).__name__


def _nothing_selected(args, project, selection: list[str], ids: set[str]) -> int:
    """a selection that matches no dimension view is an error, not a silent pass"""
    others = sorted(project.manifest.nodes[i].name for i in ids if i in project.manifest.nodes)
    shown = ", ".join(others[:10]) + (f" and {len(others) - 10} more" if len(others) > 10 else "")
    message = (f"`{' '.join(selection)}` selects no dimension view of the project "
               + (f"(dbt selects the model(s) {shown}, none a dimension_view)" if others else "(dbt selects no model)"))
    if args.format == "json":
        print(json.dumps({"ok": False, "errors": [{"rule": "select", "severity": "error", "message": message}],
                          "warnings": [], "views": {}, "live": [],
                          "selection": {"args": selection, "views": 0,
                                        "of": len(project.dimension_views())}}, indent=2))
    print(f"pdelta validate: {message}", file=sys.stderr)
    return 1


def _print_violations(errors) -> int:
    """Prints each violation; returns the number of errors."""
    for e in errors:
        print(("error: " if e.is_error else "warning: ") + e.render())
    return sum(1 for e in errors if e.is_error)


def _valid_views(views, errors) -> dict:
    bad = {e.model for e in errors if e.is_error}
    return {k: v for k, v in views.items() if k not in bad}


# -- validate ------------------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    from .flags import analyze_all, cheaper_capture_hints
    from .validate import validate

    started = time.time()
    project = _parse(args)
    every = [n.name for n in project.dimension_views()]
    selection = _validate_selection(args)
    selected = every
    if selection:
        selected, ids = _resolve_for_validate(args, project, selection)
        if not selected:
            return _nothing_selected(args, project, selection, ids)
    views, errors = validate(project, set(selected))
    valid = _valid_views(views, errors)
    analyses = analyze_all(valid)
    plans = {name: v.plan for name, v in valid.items()}
    independent = {name: maintainability.self_maintainable(maintainability.verdicts(
        view, plans, maintainability.covered_joins(view, project.references))) for name, view in valid.items()}
    live_reports = []
    if args.live:
        progress = Progress("pdelta validate --live", started)
        live_reports = _live(args, project, {k: valid[k] for k in selected if k in valid}, progress)
        errors = errors + [v for r in live_reports for v in r.violations]
    if args.format == "json":
        n_err = sum(1 for e in errors if e.is_error)
        out = {
            "ok": n_err == 0,
            "errors": [e.as_dict() for e in errors if e.is_error],
            "warnings": [e.as_dict() for e in errors if not e.is_error],
            "views": {name: {"valid": name in valid,
                             **({"inputs": {a: _ordered(s) for a, s in analyses[name].inputs.items()},
                                 "emits": _ordered(analyses[name].output),
                                 "apply": analyses[name].statements(),
                                 "self_maintainable": independent[name]} if name in analyses else {})}
                      for name in selected},
            "live": [{"view": r.view, "stats": r.stats} for r in live_reports],
            "selection": {"args": selection, "views": len(selected), "of": len(every)} if selection else None,
        }
        print(json.dumps(out, indent=2, default=str))
    else:
        n_err = _print_violations(errors)
        for r in live_reports:
            st = r.stats
            print(f"live {r.view}: pending rows " + ", ".join(f"{a} {n}" for a, n in st.get("pending", {}).items())
                  + (f"; foreign-key orphans " + ", ".join(f"{a} {n}" for a, n in st["orphans"].items())
                     if st.get("orphans") else "")
                  + (f" ({st['note']})" if st.get("note") else ""))
            for line in (st.get("next_run") or {}).get("said", []):
                print(f"    {line}")
        for name in selected:
            if name in analyses:
                a = analyses[name]
                print(f"ok {name}: emits {_sets(a.output)} from inputs "
                      + ", ".join(f"{al} {_sets(s)}" for al, s in a.inputs.items())
                      + f"; apply: {'; '.join(a.statements())}"
                      + f"; self-maintainable: {'yes' if independent[name] else 'no (pdelta explain says why)'}")
                for h in cheaper_capture_hints(views[name], a):
                    print(f"    cheaper: {h}")
        of = f" (of {len(every)}, selected by `{' '.join(selection)}`)" if selection else ""
        print(f"pdelta validate: {len(selected)} dimension view(s){of}, {n_err} error(s), "
              f"{len(errors) - n_err} warning(s) in {time.time() - started:.1f}s")
    return 1 if n_err else 0


def _ordered(sets) -> list[str]:
    """the six sets in the delta model's order"""
    return sorted(sets, key=algebra.SIX_SETS.index)


def _sets(s) -> str:
    return "{" + ", ".join(_ordered(s)) + "}"


def _live(args, project, views, progress):
    from .live import InputRelations, check_view_live, connect
    from .project import meta_relation_name

    _, profiles = _dirs(args)
    target = _target(args, profiles)
    progress(f"connecting to target {target}")
    ex = connect(profiles or Path.home() / ".dbt", target, _profile_name(args))
    reports = []
    for i, (name, view) in enumerate(views.items(), 1):
        progress(f"view {i}/{len(views)}: {name}")
        inputs = {}
        for alias in view.order:
            r = view.relations[alias]
            inputs[alias] = InputRelations(project.resolve(r.state, views).relation,
                                           project.resolve(r.changes, views).relation,
                                           tuple(sorted(project.not_null(r.state))))
        batches = meta_relation_name(project.model_node(name).relation_name, "batches")
        report = check_view_live(view, inputs, batches, ex, args.sample,
                                 progress=lambda step, name=name: progress(f"{name}: {step}"))
        report.violations.extend(_declaration_verdict(args, name, report, progress, ex))
        reports.append(report)
    return reports


def _declaration_verdict(args, name: str, report, progress, ex) -> list:
    """What the next run does about the view's declaration, by the engine's own rules (explain_refresh's
    declaration part, one dbt operation): kept in the report's stats; a run that would stop writing
    nothing (on_schema_change: fail, a history that cannot take the new column types) is refused, and
    so is a declared containment of a replaced relation that its rows break (containment_verdicts)."""
    from .declaration import Violation

    if report.stats.get("batch_log") != "present":  # not built: its first run builds it in full
        report.stats["next_run"] = {"mode": "build", "said": ["not built yet: the first run builds it in full"]}
        return []
    project_vars = _project_vars(args)
    info = explain_next_refresh(*_dirs(args), args.target, name,
                                ["--vars", json.dumps(project_vars)] if project_vars else [],
                                progress=progress, declaration_only=True)
    if info is None:
        return [Violation(name, "declaration-change", "could not read what the next run does about the declaration "
                          "(dbt run-operation pdelta.explain_refresh failed: see above)")]
    if not info["built"]:
        report.stats["next_run"] = {"mode": "build", "said": ["not built yet: the first run builds it in full"]}
        return []
    mode, lines, stops = next_run_verdict(info)
    # a run that stopped while adapting to another declaration, under on_schema_change: fail
    refused = list(info.get("stops") or [])
    if stops:
        refused.append(lines[0].removeprefix("the next refresh will STOP, writing nothing: "))
    if refused:
        mode, lines = "stop", [f"the next refresh will STOP, writing nothing: {why}" for why in refused]
    report.stats["next_run"] = {"mode": mode, "said": lines}
    broken = containment_verdicts(name, info, ex, report.stats) if mode == "adapt" else []
    return [Violation(name, "declaration-change", why,
                      hint=f"the next run refuses this change: see `pdelta explain {name}`")
            for why in refused] + broken


def containment_verdicts(name: str, info: dict, ex, stats: dict) -> list:
    """A declared containment (equal, subset, superset) of each relation the next run replaces, checked
    against the rows of the replaced relation and its replacement as the view uses them (explain_refresh's
    `containment_check`, containment_check_sql's two counts): the adapting run trusts it and reads only the
    sides it leaves, so a containment the rows break would leave the view wrong: an error. A replaced
    relation no longer there cannot be checked (the paper's case): a warning. Each verdict joins the
    report's next-run lines and stats['containment']."""
    from .declaration import Violation

    out = []
    said = stats["next_run"]["said"]
    for alias, pred in (info.get("adaptation") or {}).items():
        for swap in pred.get("replaced") or []:
            declared, leaf, check = swap.get("containment"), swap["leaf"], swap.get("containment_check")
            if not declared:
                continue
            if check is None:
                stats.setdefault("containment", {})[leaf] = {"declared": declared, "verified": None}
                said.append(f"  containment {declared} of {leaf}: not verified, the replaced relation {swap['old']} "
                            "is gone")
                out.append(Violation(name, "containment", f"`{leaf}`'s declared containment `{declared}` cannot be "
                                     f"verified: the relation it replaces ({swap['old']}) is gone", alias=leaf,
                                     severity="warning"))
                continue
            added, lost = (int(v) for v in ex.rows(check)[0])
            wrong = []
            if added and declared in ("equal", "subset"):
                wrong.append(f"{added} row(s) of {swap['new']} (as the view uses them) are not in {swap['old']}")
            if lost and declared in ("equal", "superset"):
                wrong.append(f"{lost} row(s) of {swap['old']} are not in {swap['new']}")
            stats.setdefault("containment", {})[leaf] = {"declared": declared, "verified": not wrong,
                                                         "only_new": added, "only_replaced": lost}
            said.append(f"  containment {declared} of {leaf} " + ("verified" if not wrong else "BROKEN")
                        + f" against {swap['old']}: {added} row(s) only {swap['new']} gives, {lost} only "
                        f"{swap['old']} gives")
            if wrong:
                out.append(Violation(name, "containment", f"`{leaf}` is declared `{declared}` of the relation it "
                                     f"replaces, but " + " and ".join(wrong) + ": the adapting run would leave "
                                     "the view wrong", alias=leaf,
                                     hint="declare the containment that holds, or none (the run then recomputes "
                                          "both sides)"))
    return out


# -- explain -------------------------------------------------------------------------------------
def describe_cost_choice(choice: dict) -> str:
    """one line on what macros/engine/cost_model.sql decided for the pending changes"""
    if choice.get("reason") == "cost model off":
        return "incremental refresh (pdelta_rebuild_ratio unset: the cost model is off)"
    if choice.get("reason") == "nothing pending":
        return "nothing pending"
    # columns added: the fill rewrites every row before the batch (fill_added_columns), priced as the whole view
    filled = (" (columns added: their fill would rewrite every row of the view first)"
              if choice.get("rewrites_view") else "")
    if choice.get("ratio") == "learned":
        # pdelta_rebuild_ratio: learned — the predictions from the view's timed runs
        samples = choice.get("samples") or {}
        timed = (f"{len(samples.get('refresh', []))} timed refresh(es), "
                 f"{len(samples.get('rebuild', []))} timed rebuild(s)")
        if choice.get("reason"):
            return f"incremental refresh ({choice['reason']}; {timed})"
        predicted = choice["predicted"]
        # the views reading its feed: they rebuild after a plain rebuild, refresh after a refresh
        totals = choice.get("predicted_with_downstream")
        readers = ", ".join(f"{d['view']} rebuild {d['rebuild']:.1f} s, refresh {d['refresh']:.1f} s"
                            for d in choice.get("downstream") or [])
        with_readers = (f"; with the views reading its feed ({readers}): rebuild {totals['rebuild']:.1f} s, "
                        f"refresh {totals['refresh']:.1f} s" if totals else "")
        why = (f"predicted rebuild {predicted['rebuild']:.1f} s, refresh {predicted['refresh']:.1f} s{filled}"
               f"{with_readers}, from {timed} (pdelta_rebuild_ratio: learned)")
        if choice.get("mode") != "rebuild":
            return f"incremental refresh: {why}"
    else:
        if choice.get("mode") != "rebuild":
            return (f"incremental refresh: the changes reach ~{choice['fraction']:.1%} of the view{filled}, "
                    f"not more than pdelta_rebuild_ratio {choice['ratio']:g}")
        why = (f"the changes reach ~{choice['fraction']:.1%} of the view{filled}, more than pdelta_rebuild_ratio "
               f"{choice['ratio']:g}")
    then = ("a plain rebuild (the feeds read for their bounds only); a `full` batch, so views that read the "
            "change feed rebuild too"
            if choice.get("feed") == "reset" else
            "the difference between the SELECT and the view is staged, applied and published as complete changes")
    return (f"REBUILD: {why}; {then} (pdelta_rebuild_feed: {choice.get('feed')}); the dry run below is what an "
            "incremental refresh would emit")


def cmd_explain(args: argparse.Namespace) -> int:
    from .flags import analyze_all, cheaper_capture_hints

    started = time.time()
    project, views, errors = _load(args)
    mine = [e for e in errors if e.model == args.model]
    valid = _valid_views(views, errors)
    as_json = getattr(args, "format", "text") == "json"
    if args.model not in valid:
        if as_json:
            print(json.dumps({"model": args.model, "valid": False, "errors": [e.render() for e in mine]}))
            return 1
        _print_violations(mine)
        if not mine:
            print(f"pdelta explain: `{args.model}` is not a dimension_view of this project", file=sys.stderr)
        return 1
    lines: list[str] = []  # the text report; --format json prints `doc` instead
    say = lines.append
    view = views[args.model]
    a = analyze_all(valid)[args.model]
    doc: dict = {"model": args.model, "valid": True, "key": list(view.key), "order": list(view.order), "relations": {},
                 "emits": _ordered(a.output), "apply_needs": a.statements(),
                 "cheaper": list(cheaper_capture_hints(view, a))}
    say(f"dimension view {args.model}: key {view.key}, join order {' -> '.join(view.order)}")
    for alias in view.order:
        r = view.relations[alias]
        join = (f" joined on {', '.join(f'{r.join_to}.{p} = {alias}.{k}' for p, k in r.join_on)}" if r.join_to
                else " (root)")
        say(f"  {alias}: state {r.state!r}, changes {r.changes!r}, technique {r.technique or 'pdelta_view'}{join}"
            + (f", where {r.where}" if r.where else ""))
        say(f"      feed can hold {_sets(a.inputs[alias])}; after its selection/projection {_sets(a.relations[alias])}")
        doc["relations"][alias] = {"state": r.state, "changes": r.changes, "technique": r.technique or "pdelta_view",
                                   "join_to": r.join_to, "join_on": [list(p) for p in r.join_on], "where": r.where,
                                   "feed_can_hold": _ordered(a.inputs[alias]),
                                   "after_selection_projection": _ordered(a.relations[alias])}
    say(f"  the view can emit {_sets(a.output)}")
    say(f"  apply needs: {'; '.join(a.statements())}")
    for h in doc["cheaper"]:
        say(f"  cheaper: {h}")
    plans = {name: v.plan for name, v in valid.items()}
    covered = maintainability.covered_joins(view, project.references)
    found = maintainability.verdicts(view, plans, covered)
    doc["self_maintainable"] = maintainability.self_maintainable(found)
    doc["verdicts"] = [v.as_dict() for v in found]
    doc["independence_hints"] = maintainability.hints(view, plans, covered)
    say(f"  self-maintainable (every change it can get applies from the view and the change alone): "
        f"{'yes' if doc['self_maintainable'] else 'no'}")
    for v in found:
        needs = f" ({'; '.join(v.needs)})" if v.needs else ""
        say(f"    {v.alias} {v.change_set}: {v.reads}{needs}: {v.why}")
    for h in doc["independence_hints"]:
        say(f"  more from the view alone: {h}")
    # complement mode (issue #21, macros/engine/complement.sql names the tables)
    doc["complement"] = f"{args.model}__pdelta_complement" if view.complement else None
    if view.complement:
        # the materialization's order: the model's config, then the project's var, then the default
        upkeep = view.complement_upkeep or _project_vars(args).get("pdelta_complement_upkeep", "rebuild")
        doc["complement_upkeep"] = upkeep
        how = ("kept from the rows each refresh's batch touches" if upkeep == "batch" else
               "rebuilt from the states after each batch")
        say(f"  complement (pdelta_complement): {doc['complement']}, {how} (pdelta_complement_upkeep: {upkeep}); "
            "refreshes still read the states")
    level = consistency.view_level(project, view, valid, _project_vars(args))
    doc["consistency"] = level.as_dict()
    say(f"  consistency: {level.level} ({level.why})"
        + (f"; strong if {level.strong_if}" if level.strong_if else ""))
    for read in level.inputs:
        say(f"    {read.alias}: {read.why}")
    rc = 0 if args.static else _explain_next(args, a, say, doc, project.manifest, Progress("pdelta explain", started))
    if as_json:
        print(json.dumps(doc, default=str))
    else:
        print("\n".join(lines))
    return rc


def _explain_next(args: argparse.Namespace, a, say, doc: dict, manifest=None, progress=None) -> int:
    """the warehouse part of `pdelta explain`: the next refresh as the engine would run it"""
    project_vars = _project_vars(args)
    info = explain_next_refresh(*_dirs(args), args.target, args.model,
                                ["--vars", json.dumps(project_vars)] if project_vars else [], manifest=manifest,
                                progress=progress)
    if info is None:
        return 1
    doc["next_refresh"] = info
    say(f"\nnext refresh of {info['relation']}"
        + ("" if info["built"] else " (not built yet: the first run builds it in full)"))
    for alias, rng in info["inputs"].items():
        lo = "start" if rng["lo"] is None else rng["lo"]
        say(f"  {alias}: {rng['changes']} rows with _pdelta_seq in ({lo}, {rng['hi']}]"
            + (f": {info.get('input_counts', {}).get(alias) or 'none'}" if info["built"] else ""))
        if rng.get("joined"):
            say("    joined in by this batch: its feed is taken as read through the bound, its state as of it is"
                " read where rows join it")
        if rng.get("state_version") is not None and rng.get("user_state"):
            # a user's state, pinned before the feed's bound and compensated where it lags
            # (macros/engine/refresh_inputs.sql)
            say(f"    its state {rng['state']} read as of Delta version {rng['state_version']}, its newest before the"
                " feed's bound" + (": it lags its feed, so the batch's keys read their last feed image"
                                   if rng.get("state_lags") else ""))
        elif rng.get("state_version") is not None:
            # a state pdelta writes, read as of the batch the bound names (macros/engine/refresh_inputs.sql)
            say(f"    its state {rng['state']} read as of Delta version {rng['state_version']}, the version its"
                " log kept with the batch the bound names")
        if rng.get("cut"):
            # a mirror cut by source time (macros/engine/cut_sources.sql)
            say(f"    its mirror consumed its feed up to the cut of source `{rng['cut']['source']}` at source time "
                f"{rng['cut']['t']}")
        read = rng.get("read")
        if read and read.get("version") is not None:
            # feed_scans read a Delta feed through its history (macros/engine/feed_history.sql)
            say(f"    read at Delta version {read['version']}: " + (
                "appended to only since the last refresh, so only its pending rows in full" if read.get("appended_only")
                else "every row (a commit since the last refresh was no append, or none was recorded)"))
    for source, cut in (info.get("source_cuts") or {}).items():
        # the last run's cut of a source the view's mirrors are cut by (macros/engine/cut_sources.sql)
        for line in consistency.source_cut_lines(source, cut):
            say("  " + line)
    rc = 0
    for stop in info.get("stops") or []:
        # rows that break the feed contract (macros/engine/feed_checks.sql): nothing is written
        say(f"  the next refresh will STOP, writing nothing: {stop}")
        rc = 1
    for wait in info.get("waits") or []:
        # a user's state ahead of its feed under pdelta_state_ahead (macros/engine/states_ahead_of_feeds.sql), or
        # mirrors of one source cut at different source times (macros/engine/cut_sources.sql): wait
        say(f"  the next refresh will WAIT, writing nothing: {wait}")
    for bad in info.get("quarantine") or []:
        say(f"  the next refresh will QUARANTINE (pdelta_bad_rows: quarantine): {bad}")
    failed = []
    if info["built"]:
        counts = info.get("pending_counts", {})
        observed = set(counts)
        # a batch that adapts the view (a changed predicate, columns dropped or renamed) runs the diff plan:
        # what the feed can hold
        adapting = bool(info.get("adaptation") or info.get("column_adaptation"))
        predicted = a.feed if adapting else a.output
        say(f"  dry run: the refresh would emit {counts or 'nothing'}, applied by `{info.get('apply_strategy')}`"
            + ("" if observed <= predicted else f"  (NOT predicted: {sorted(observed - predicted)})"))
        if not observed <= predicted:
            rc = 1  # the static analysis missed a set: a bug to report
        choice = info.get("cost_choice") or {}
        mode = "rebuild" if choice.get("mode") == "rebuild" else "incremental"
        doc["cost_model"] = describe_cost_choice(choice)
        say("  cost model: " + doc["cost_model"])
        mode, lines, stops = next_run_verdict(info, mode)
        for line in lines:
            say("  " + line)
        rc = 1 if stops else rc
        if args.expect_mode is not None and args.expect_mode != mode:
            failed.append(f"pdelta explain: expected the next refresh to be {args.expect_mode}, it will be {mode}")
        if args.expect_emits is not None:
            want = {t for t in args.expect_emits.split(",") if t}
            if observed != want:
                failed.append(f"pdelta explain: expected the refresh to emit {_sets(want)}, the dry run "
                              f"emits {_sets(observed)}")
    elif args.expect_emits is not None or args.expect_mode is not None:
        failed.append("pdelta explain: --expect-emits and --expect-mode need a built view")
    for f in failed:
        say(f)
    doc["expectations_failed"] = failed
    rc = 1 if failed else rc
    say(f"\n{info['plan']} plan (pdelta_plan), its terms:")
    for t in info["terms"]:
        reads = f" <- {', '.join(t['reads'])}" if t["reads"] else ""
        say(f"  {t['name']:<34} {t['kept_as']:<14} {t['rule']}{reads}")
    if args.sql:
        say("\n-- the six-set changes of the refresh (one statement; the rules plan writes its scratch-table "
            "terms first)")
        say(info["changes_sql"])
        say(f"\n-- applied with the `{info.get('apply_strategy')}` strategy")
        say(info["apply_sql"])
    else:
        say("\n(--sql prints the SQL)")
    return rc


def replacement_line(parent: str, swap: dict) -> str:
    """what an adapting batch reads for a leaf relation it replaces (declaration_adaptation's `replaced`)"""
    sides = {"delete": "the view rows its replacement does not match (read from the view"
                       + (" and the root's state" if not swap.get("fk_out") else "") + ")",
             "insert": f"the rows of {parent} that join the replacement and no view row"}
    found = [sides[side] for side in swap.get("sides") or []]
    containment = swap.get("containment")
    why = (f"containment {containment} declared, the replaced relation's feed readable: "
           "the rows joining a key it changed since the view consumed it are recomputed too"
           if containment and len(found) < 2 else
           "no containment declared" if not containment else "the replaced relation's feed is gone")
    return (f"  {swap['leaf']} replaced: its state is never read; recomputed: "
            + ("; ".join(found) if found else "nothing else") + f" ({why})")


def next_run_verdict(info: dict, mode: str = "incremental") -> tuple[str, list[str], bool]:
    """What the next run does about the view's declaration and its inputs' full builds, from
    explain_refresh's record (`mode`: the cost model's choice, rebuild or incremental): (mode —
    adapt, rebuild, stop or the given one —, the lines that say so, whether the run stops writing
    nothing). `pdelta explain` prints the lines; `pdelta validate --live` refuses a stop."""
    lines: list[str] = []
    changed = info.get("declaration_changed") or []
    adapting = bool(info.get("adaptation") or info.get("column_adaptation"))
    if info.get("history_conflicts"):
        # history_type_conflicts (macros/engine/history_type_conflicts.sql): checked before anything is written
        return "stop", [f"the next refresh will STOP, writing nothing: {info['history_conflicts']}"], True
    if changed and info.get("on_schema_change") == "fail":
        return "stop", ["the next refresh will STOP, writing nothing: the declaration changed since the view was "
                        "built ("
                        + "; ".join(changed) + ") and on_schema_change is fail; run it with --full-refresh"], True
    if changed and adapting and mode == "rebuild":
        lines.append("the declaration changed since the view was built (" + "; ".join(changed) + "); the cost "
                     "model's rebuild takes the new one")
    elif changed and adapting:
        # declaration_adaptation: a changed predicate's disagreeing rows join the batch's keys; columns
        # dropped or renamed change the tables' metadata only (adapt_view_columns), added ones are filled
        # from their relation's state (fill_added_columns)
        mode = "adapt"
        lines.append("the next refresh ADAPTS the view in its batch (no rebuild; views downstream refresh from its "
                     "feed): the declaration changed since it was built (" + "; ".join(changed) + ")")
        columns = info.get("column_adaptation") or {}
        # an SCD2 history keeps a dropped column (its versions' values), renames and adds as the view does
        history = info.get("history")
        tables = "the view, its feed and its history" if history else "the view and its feed"
        for name in columns.get("dropped", []):
            lines.append(f"  column {name}: dropped from the view and its feed in place (Delta column mapping, no row "
                         "read)" + ("; the history keeps it with its versions' values" if history else ""))
        for old, new in columns.get("renamed", []) + columns.get("recased", []):
            lines.append(f"  column {old}: renamed {new} in {tables} in place (no row read)")
        if columns.get("order"):
            # adapt_view_columns moves the columns in the view's and the feed's metadata; the history keeps its order
            lines.append(f"  columns reordered: {', '.join(columns['order'])}, in the view and its feed in place "
                         "(no row read)" + ("; the history keeps its column order" if history else ""))
        for name, alias, source, _ in columns.get("added", []):
            lines.append(f"  column {name}: added to {tables}, filled from {alias}.{source} for every row the view "
                         "holds (one rewrite of the view joining the states on its path from the root by key"
                         + ("; the history's current versions take the same values" if history else "")
                         + "; nothing published)")
        for alias, pred in (info.get("adaptation") or {}).items():
            what = [f"predicate {pred['change']}"] if pred.get("change") != "kept" else []
            # a column re-sourced within the relation: the rows whose two columns differ are recomputed, published upd
            what += [f"column {name} now from {alias}.{new} (was {alias}.{old}; the rows where they differ go out as "
                     "upd)" for name, old, new in pred.get("resourced") or []]
            what += [f"relation {leaf} removed" for leaf in pred.get("removed") or []]
            what += [f"relation {leaf} joined in" for leaf in pred.get("joined") or []]
            what += [f"relation {swap['leaf']} replaced ({swap['old']} -> {swap['new']})"
                     for swap in pred.get("replaced") or []]
            lines.append(f"  {alias}: {', '.join(what)}" + (
                f"; the rows of its state (x) where {pred['disagree']} are recomputed with the batch's keys"
                if pred.get("disagree") else ""))
            for swap in pred.get("replaced") or []:
                lines.append("  " + replacement_line(alias, swap))
    elif changed:
        mode = "rebuild"
        lines.append("the next refresh REBUILDS the view in full (its feed starts over): the declaration changed "
                     "since the last full build (" + "; ".join(changed) + ")"
                     + (f"; not adapted: {info['not_adapted_because']}" if info.get("not_adapted_because") else ""))
    elif info.get("rebuilt_inputs"):
        mode = "rebuild"
        lines.append("the next refresh REBUILDS the view in full (its feed starts over): "
                     + "; ".join(info["rebuilt_inputs"]))
    return mode, lines, False


def explain_next_refresh(project_dir: Path, profiles: Path | None, target: str | None, model: str,
                         extra_args: list[str] | tuple[str, ...] = (), manifest=None, progress=None,
                         declaration_only: bool = False) -> dict | None:
    """The next refresh of `model` as the engine would run it (macros/engine/explain_refresh.sql),
    with a dry run's six-set counts when the view is built; `extra_args` go to dbt (e.g. --vars).
    `manifest`: the one `pdelta explain` already parsed with the same vars (project.parse_manifest),
    so dbt does not parse the project a second time (~9 s here); the operation renders every macro
    with the run's own vars, so the parse's `pdelta_validate` does not reach it. `progress(step)`
    is called as each of the operation's steps starts (its `pdelta-progress:` log lines).
    `declaration_only`: what the run does about the view's declaration alone (no feed is scanned)."""
    from dbt.cli.main import dbtRunner

    from .spark import quiet_pyspark_logging

    quiet_pyspark_logging()
    found: list[dict] = []
    failures: list[str] = []

    def listen(event):
        msg = getattr(event.info, "msg", "") or ""
        if isinstance(msg, str) and msg.startswith("pdelta-explain:"):
            found.append(json.loads(msg[len("pdelta-explain:"):]))
        elif progress and isinstance(msg, str) and msg.startswith(PROGRESS_PREFIX):
            progress(f"{model}: {msg[len(PROGRESS_PREFIX):]}")
        elif getattr(event.info, "level", "") == "error":
            failures.append(str(msg).strip())

    # dbt prints its errors on stdout even under --quiet; with none they reach stderr through
    # `failures`, and stdout keeps explain's report alone (--format json)
    operation_args = {"model_name": model, **({"declaration_only": True} if declaration_only else {})}
    cmd = ["run-operation", "pdelta.explain_refresh", "--args", json.dumps(operation_args),
           "--project-dir", str(project_dir), "--log-level", "none"]
    if profiles:
        cmd += ["--profiles-dir", str(profiles)]
    if target:
        cmd += ["--target", target]
    if progress:
        progress(f"{model}: dbt run-operation pdelta.explain_refresh (connects to the target)")
    res = dbtRunner(manifest=manifest, callbacks=[listen]).invoke(cmd + list(extra_args))
    if not res.success or not found:
        why = "\n".join(failures) or res.exception or "it logged no refresh (pdelta-explain:)"
        print(f"pdelta explain: dbt run-operation failed: {why}", file=sys.stderr)
        return None
    return found[0]


# -- run ---------------------------------------------------------------------------------------
# dbt commands with a selection that never run a model: no dimension view needs validating
_RUNS_NO_MODEL = {"seed", "snapshot", "test", "list", "ls"}
# dbt's flags that decide which nodes a command runs, by its parameter names
_SELECTION_PARAMS = (("select", "--select"), ("exclude", "--exclude"), ("selector", "--selector"),
                     ("resource_types", "--resource-type"), ("exclude_resource_types", "--exclude-resource-type"))


def _dbt_command(argv: list[str]) -> tuple[str | None, dict]:
    """The dbt command `argv` names and its parameters, read by dbt's own command line (nothing
    runs; -s, -m, --select=x and values after one flag as dbt reads them), or (None, {}) if it
    cannot be read; dbt then says why when it runs."""
    from dbt.cli.main import cli

    try:
        ctx = cli.make_context(cli.name, list(argv), resilient_parsing=True)
        protected = getattr(ctx, "_protected_args", None)  # click >= 8.2 deprecates `protected_args`
        rest = [*(ctx.protected_args if protected is None else protected), *ctx.args]
        if not rest:
            return None, {}
        name, command, rest = cli.resolve_command(ctx, rest)
        return name, command.make_context(name, rest, parent=ctx, resilient_parsing=True).params
    except Exception:  # noqa: BLE001 - an unreadable command line is dbt's to report
        return None, {}


def _views_the_command_runs(ns, argv: list[str], project) -> tuple[list[str], str]:
    """The dimension views `dbt <argv>` runs (resolved by `dbt ls` with its selection flags) and
    what decided it. A command that takes no selection (parse, run-operation, retry) and one that
    dbt cannot resolve keep validating every view."""
    from .project import SelectionError, selected_models

    every = [n.name for n in project.dimension_views()]
    command, params = _dbt_command(argv)
    if command in _RUNS_NO_MODEL:
        return [], f"dbt {command} runs no model"
    if command is None or "select" not in params:
        return every, f"dbt {command or argv[0]} takes no selection: every view"
    selection: list[str] = []
    for name, flag in _SELECTION_PARAMS:
        value = params.get(name)
        if value:
            selection += [flag, *(value if isinstance(value, (tuple, list)) else [str(value)])]
    project_dir, profiles = _dirs(ns)
    if not selection and not (project_dir / "selectors.yml").exists():
        return every, f"dbt {command} selects every model"
    if params.get("state"):
        selection += ["--state", str(params["state"])]
    try:
        # the command's own target path: its parse then reuses the saved manifest of this one
        ids = selected_models(project_dir, profiles, ns.target, _project_vars(ns), selection,
                              params.get("target_path"))
    except SelectionError as e:
        print(f"pdelta run: dbt cannot resolve the selection ({_first_line(e)}); every dimension view is "
              "validated", file=sys.stderr)
        return every, "the selection unresolved: every view"
    return _selected_views(project, ids), f"those dbt {command} selects"


def cmd_run(argv: list[str]) -> int:
    """Validate the dimension views the dbt command runs, then hand the arguments to dbt in this process."""
    from dbt.cli.main import dbtRunner

    from .spark import quiet_pyspark_logging
    from .validate import validate

    if not argv:
        print("usage: pdelta run <dbt command and arguments>, e.g. pdelta run build --target local", file=sys.stderr)
        return 2
    ns = argparse.Namespace(project_dir=_opt(argv, "--project-dir"), profiles_dir=_opt(argv, "--profiles-dir"),
                            target=_opt(argv, "--target") or _opt(argv, "-t"), vars=_opt(argv, "--vars"))
    started = time.time()
    project = _parse(ns)
    names, which = _views_the_command_runs(ns, argv, project)
    _, errors = validate(project, set(names))
    n_err = _print_violations(errors)
    counted = f"{len(names)} of {len(project.dimension_views())} dimension view(s) validated ({which})"
    if n_err:
        print(f"pdelta run: {n_err} validation error(s); {counted}; dbt was not run")
        return 1
    print(f"pdelta run: {counted}, all valid ({time.time() - started:.1f}s); dbt {' '.join(argv)}", flush=True)
    quiet_pyspark_logging()
    res = dbtRunner().invoke(argv)
    print(f"pdelta run: dbt {argv[0]} {'succeeded' if res.success else 'FAILED'} in {time.time() - started:.0f}s")
    return 0 if res.success else 1


def _opt(argv: list[str], name: str) -> str | None:
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--project-dir", help="dbt project (default: the one containing the current directory)")
    p.add_argument("--profiles-dir", help="directory of profiles.yml (default: $DBT_PROFILES_DIR, the project, ~/.dbt)")
    p.add_argument("--target", "-t", help="dbt target (default: the profile's)")
    p.add_argument("--vars", help="the project's variables as in dbt (a YAML mapping), for declarations that read them")


def _project_vars(args) -> dict:
    """--vars as dbt reads it (YAML), or {}"""
    text = getattr(args, "vars", None)
    if not text:
        return {}
    import yaml

    found = yaml.safe_load(text)
    if not isinstance(found, dict):
        raise SystemExit(f"pdelta: --vars must be a YAML mapping, got {text!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "run":
        return cmd_run(argv[1:])
    parser = argparse.ArgumentParser(prog="pdelta", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"pdelta {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen-macros", help="write macros/algebra/delta_model.sql and the algebra seed from the Python "
                                            "delta model")
    gen.add_argument("--check", action="store_true", help="only check that the file is up to date")
    gen.set_defaults(func=cmd_gen_macros)
    val = sub.add_parser("validate", help="check every dimension view (static; --live: also the data)")
    _common(val)
    val.add_argument("--select", "-s", nargs="+", metavar="SELECTOR",
                     help="only the dimension views these dbt selectors pick (a name, tag:x, +model, path:models/x…)")
    val.add_argument("--exclude", nargs="+", metavar="SELECTOR", help="leave out the models these dbt selectors pick")
    val.add_argument("--selector", help="a selector of the project's selectors.yml")
    val.add_argument("--state", help="dbt's state folder, for state: selectors")
    val.add_argument("--format", choices=["text", "json"], default="text")
    val.add_argument("--live", action="store_true", help="also check keys, orphans and pending change feeds in the "
                                                         "warehouse")
    val.add_argument("--sample", type=float, help="live state checks on a PCT percent sample (bounded cost)")
    val.set_defaults(func=cmd_validate)
    exp_ = sub.add_parser("explain", help="what the next refresh of a dimension view runs and can emit")
    _common(exp_)
    exp_.add_argument("model")
    exp_.add_argument("--sql", action="store_true", help="print the SQL of the refresh")
    exp_.add_argument("--static", action="store_true", help="only the declaration and the predicted sets "
                                                            "(no warehouse)")
    exp_.add_argument("--expect-mode", choices=["incremental", "adapt", "rebuild"],
                      help="exit 1 unless the next refresh is this (the cost model, pdelta_rebuild_ratio; "
                           "a changed declaration adapts the view when predicates changed or output columns were "
                           "dropped or renamed, else rebuilds it)")
    exp_.add_argument("--expect-emits", metavar="SETS", help="exit 1 unless the dry run emits exactly these sets "
                                                             "(comma-separated), e.g. for CI")
    exp_.add_argument("--format", choices=["text", "json"], default="text",
                      help="json: one object (the declaration's analysis, and under next_refresh the engine's records)")
    exp_.set_defaults(func=cmd_explain)
    sub.add_parser("run", help="validate the dimension views the dbt command runs, then run it "
                               "(pdelta run build --target local --select +dim_customer)")
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
