"""The consistency level a dimension view gets (issue #20), in the terms of Zhuge et al. as the
distributed-views paper states them (../shared/papers/incremental-recomputations-distributed-views.txt):

- convergence: once the sources stop changing and a refresh has run, the view equals its
  recomputation; between, a refresh may leave it in a state the sources were never in;
- strong: every state a refresh leaves is the view of a state the sources were in, in the order they
  were in them (weak consistency without the order is no separate case here: a refresh's bounds
  only grow);
- complete: strong, and every source state is shown. No pdelta view is complete: a refresh consumes
  every pending batch at once, so the states in between are never shown.

A refresh reads each input's change feed up to a frozen bound and its state. The view it leaves is
the view of the states at their bounds when every state is read as of its bound: a state pdelta
writes (a mirror of that feed, the other view of its own feed, a Delta table) is, unless
`pdelta_pin_states` is false (macros/engine/refresh_inputs.sql). A table a user or a replication
tool keeps is, when it is a Delta table, read at its version before the feed's bound is taken, the
batch's keys from their feed rows (SWEEP's local compensation): as of the bound when its writer
commits each change to the feed no later than to the state and the state holds the rows earlier
refreshes consumed; pdelta cannot check that order, so the level says convergence and names the
condition (`strong_if`). Any other state is read as it is: it can be ahead of its feed's bound, or
change during the refresh, so the view only converges. With every state pinned, one input gives a prefix of one
source's history (strong, as strong as the view it reads when that is another view, provided each
source transaction reaches the feed in one append: a Delta append is atomic, so a bound never splits
one, but a capture that splits a transaction over appends can be cut inside it); several inputs
are each cut at their own bound: strong when no source transaction spans two of their feeds, since
any combination of independent sources' states is a state they were in; otherwise a transaction can
be shown half applied (a customer and its new address in two feeds), so only convergence is
guaranteed, unless every input is a mirror of one source's feeds cut by source time (each run cuts them
all at one source time: macros/engine/cut_sources.sql), which gives strong consistency."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .declaration import View

CONVERGENCE, STRONG = "convergence", "strong"
RANK = {CONVERGENCE: 0, STRONG: 1}


@dataclass
class InputRead:
    """how a refresh reads one input's state"""
    alias: str
    state: Any                 # the declaration's state spec
    kind: str                  # mirror | view | table
    pinned: bool
    why: str
    model: str | None = None   # the mirror's or view's model name

    def as_dict(self) -> dict:
        return {"alias": self.alias, "state": self.state, "kind": self.kind, "pinned": self.pinned, "why": self.why}


@dataclass
class Level:
    """the level a view gets, why, and what would raise it"""
    level: str
    why: str
    inputs: list[InputRead] = field(default_factory=list)
    strong_if: str | None = None   # the condition under which the view is strong though `level` says less

    def as_dict(self) -> dict:
        return {"level": self.level, "why": self.why, "strong_if": self.strong_if,
                "inputs": [i.as_dict() for i in self.inputs]}


def _setting(project, node, name: str, project_vars: dict | None):
    """a view's setting: its config, else the project var (--vars, then dbt_project.yml's vars), else
    none (macros/engine/rebuild_options.sql)"""
    value = node.config.get(name) if node is not None else None
    if value is None:
        value = (project_vars or {}).get(name)
    if value is None:
        value = _project_file_vars(project.dir).get(name)
    return value


def pin_states(project, node, project_vars: dict | None = None) -> bool:
    """the view's `pdelta_pin_states` (true by default)"""
    return _setting(project, node, "pdelta_pin_states", project_vars) in (None, True, "true")


def checks_states_ahead(project, node, project_vars: dict | None = None) -> bool:
    """whether the view's `pdelta_state_ahead` is stop or wait (ignore by default)"""
    return _setting(project, node, "pdelta_state_ahead", project_vars) in ("stop", "wait")


def _project_file_vars(project_dir: Path) -> dict:
    import yaml

    path = Path(project_dir) / "dbt_project.yml"
    try:
        found = yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError):
        return {}
    project_vars = found.get("vars") if isinstance(found, dict) else None
    return project_vars if isinstance(project_vars, dict) else {}


def input_read(project, alias: str, relation, pin: bool) -> InputRead:
    """whether a refresh reads `relation`'s state as of its feed's bound (freeze_inputs' rule)"""
    found = project.resolve(relation.state)
    materialized = found.materialized if found is not None and found.kind == "model" else None
    if materialized not in ("mirror", "dimension_view"):
        if pin:
            return InputRead(alias, relation.state, "table", False,
                             "a state pdelta does not write: a Delta table is read at its version before the feed's "
                             "bound is taken and the batch's keys from their feed rows, which is the state at the "
                             "bound only when its writer commits each change to the feed no later than to the state "
                             "(any other format is read as it is)")
        return InputRead(alias, relation.state, "table", False,
                         "a state pdelta does not write: read as it is when the refresh reads it (it can be ahead of "
                         "its feed's bound, or change during the refresh)")
    kind = "mirror" if materialized == "mirror" else "view"
    node = project.manifest.nodes[found.unique_id]
    name = node.name
    file_format = node.config.get("file_format") or "delta"
    if str(file_format).lower() != "delta":
        return InputRead(alias, relation.state, kind, False,
                         f"a {kind} kept as {file_format}: no Delta version to read it at, so read as it is", name)
    if kind == "view":
        feeds_of_it = isinstance(relation.changes, dict) and relation.changes.get("feed_of") == name
        if not feeds_of_it:
            return InputRead(alias, relation.state, kind, False,
                             f"view {name} as a state with another feed than its own: read as it is", name)
    else:
        declared = node.config.get("pdelta_mirror") or {}
        mirror_feed = project.resolve(declared.get("changes")) if isinstance(declared, dict) else None
        this_feed = project.resolve(relation.changes)
        if mirror_feed is None or this_feed is None or mirror_feed.relation != this_feed.relation:
            return InputRead(alias, relation.state, kind, False,
                             f"mirror {name} of another feed than this input's: read as it is", name)
    if not pin:
        return InputRead(alias, relation.state, kind, False, "pdelta_pin_states is false: read as it is", name)
    return InputRead(alias, relation.state, kind, True,
                     f"the {kind} {name} read as of the batch the bound names (its Delta version kept with the batch)",
                     name)


def cut_source(node, project=None) -> str | None:
    """the source a mirror or capture model is cut with by source time (its declaration's `source_time`, and
    `source`, default `default`: macros/engine/mirror.sql normalize_mirror, macros/capture/normalize_capture.sql),
    or None when it is not cut by source time. With `project`, a mirror of a capture cut by source time is cut with
    the capture's source: it stands at the cut of the capture's batches it consumed (macros/materializations/
    mirror.sql)"""
    if node is None or node.config.materialized not in ("mirror", "capture"):
        return None
    declared = node.config.get("pdelta_mirror" if node.config.materialized == "mirror" else "pdelta_capture") or {}
    if not isinstance(declared, dict):
        return None
    if declared.get("source_time"):
        return declared.get("source") or "default"
    if project is None or node.config.materialized != "mirror":
        return None
    feed = project.resolve(declared.get("changes"))
    if feed is None or feed.kind != "model" or feed.materialized != "capture":
        return None
    return cut_source(project.manifest.nodes[feed.unique_id])


def common_source_cut(project, reads: list[InputRead]) -> str | None:
    """the source whose cut by source time every input's mirror takes (one `source` for all), or None"""
    sources = {cut_source(project.model_node(r.model), project) if r.kind == "mirror" and r.model else None
               for r in reads}
    return sources.pop() if len(sources) == 1 and None not in sources else None


def view_level(project, view: View, views: dict[str, View], project_vars: dict | None = None,
               _seen: frozenset = frozenset()) -> Level:
    """the level `view` gets from its inputs and settings, with the levels of the views it reads"""
    pin = pin_states(project, project.model_node(view.model), project_vars)
    reads = [input_read(project, alias, view.relations[alias], pin) for alias in view.order]
    unpinned = [r for r in reads if not r.pinned]
    if unpinned:
        first = unpinned[0]
        compensated = pin and all(r.kind == "table" for r in unpinned)
        # with pdelta_state_ahead a state committed before its feed row is caught (the run stops or waits)
        order = ("change to the feed no later than to the state (or in either order: pdelta_state_ahead is "
                 "set, and a state ahead of its feed stops a refresh after the first or makes it wait)"
                 if checks_states_ahead(project, project.model_node(view.model), project_vars)
                 else "change to the feed no later than to the state")
        return Level(CONVERGENCE, f"input `{first.alias}`: {first.why}", reads,
                     strong_if=(f"{', '.join(f'`{r.alias}`' for r in unpinned)}: Delta tables whose writers "
                                "commit each "
                                f"{order}, and hold the rows earlier refreshes consumed"
                                + ("" if len(reads) == 1 else "; and no source transaction spans two feeds"))
                     if compensated else None)
    # as strong as the weakest view it reads: that view's states are its sources' here
    for r in reads:
        if r.kind == "view" and r.model in views and r.model not in _seen:
            upstream = view_level(project, views[r.model], views, project_vars, _seen | {view.model})
            if RANK[upstream.level] < RANK[STRONG]:
                return Level(upstream.level, f"it reads view {r.model}, which gets {upstream.level}: {upstream.why}",
                             reads, upstream.strong_if)
    if len(reads) == 1:
        return Level(STRONG, "one input, its state read as of its feed's bound: each refresh shows the view of a "
                             "state its source was in, in order, when each source transaction reaches the feed in one "
                             "append (a bound never splits an append); never complete: a refresh skips the states "
                             "between its batches", reads)
    cut = common_source_cut(project, reads)
    if cut is not None:
        return Level(STRONG, f"{len(reads)} inputs, every one a mirror of a feed of source `{cut}` cut by source time "
                             "at the run's one cut (macros/engine/cut_sources.sql): each refresh shows the view of the "
                             "state the source was in at that time, in order (a run that refreshes only some of the "
                             "mirrors leaves the view waiting for one that refreshes them together)", reads)
    return Level(CONVERGENCE,
                 f"{len(reads)} inputs, each state read as of its own feed's bound: a source transaction that spans "
                 "two of their feeds can be shown half applied (unless they are mirrors cut by source time together)",
                 reads, strong_if="no source transaction spans two of its feeds (independent sources): then each "
                                  "refresh shows the view of a state the sources were in, in order")


def source_cut_lines(source: str, cut: dict) -> list[str]:
    """`pdelta explain`'s lines for the last run's cut of `source` (macros/engine/cut_sources.sql explained_cuts):
    where the cut is, how far it trails the newest source time of the source's feeds and which feed holds it
    back, and per feed its newest source time, the sequence it was cut at (the position, for the raw relations
    of captures: explained_cuts' `unit`) and how the hook read it"""
    if cut.get("t") is None:
        head = f"source `{source}`: the last run took no cut (a feed has no row yet: {cut.get('held_by')})"
    else:
        lag = cut.get("lag")
        behind = "at the newest source time of its feeds" if lag == 0 else (
            f"{lag:g} behind the newest source time of its feeds (seconds for timestamps), held back by feed "
            f"{cut.get('held_by')}" if lag is not None else "")
        head = f"source `{source}`: the last run's cut is at source time {cut['t']}" + (f", {behind}" if behind else "")
    lines = [head]
    for feed, seen in sorted((cut.get("feeds") or {}).items()):
        unit = seen.get("unit") or "sequence"
        bound = "no row at or below the cut" if seen.get("bound") is None else f"through {unit} {seen['bound']}"
        lines.append(f"  feed {feed}: newest source time {seen.get('w')}, {bound}; the hook read "
                     + ("only its rows past the last cut's bound" if seen.get("read") == "past the bound"
                        else "every row"))
    return lines
