"""The local lane of make test: the repository's own dbt project, integration_tests/ (pdelta
installed from `../`), built and tested as a user runs it with dbt on the embedded `local`
session, in two stages — the paper's example in its old state (full build), then its new state
(incremental refresh; all data tests: the paper's figures, full recomputation, the shared algebra
on Spark, seed loading) — with pdelta validate / explain; model contracts (a view's and a
mirror's) that stop a build with nothing written; grants applied and revoked (through a stand-in
for the catalog's grants, integration_tests/macros/ops/grants_double.sql); a Delta MERGE check; a
declaration narrowed after the build (adapted, and a view over its feed refreshed from the
adapting batch), and one whose columns are renamed and dropped too (adapted in place); feed faults
that must stop a run; a mirror whose feed gained a column (on_schema_change: fail stops it, the
default rebuilds it); a false self-maintainability claim that the package's data test reports.

It runs in the pytest process of the other modules, on their embedded session: a Spark JVM
compiles its planner anew, and one JVM for both used 65 JVM CPU s less than one each (measured
side by side on 2 cores)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pdelta_env import integration_deps, use_local_target

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = "pdelta"  # the profile's default schema (profiles.yml.example), where the lane builds

# the paper's D with its selection on Addr narrowed after the build (no Dresden: two of its three
# rows go, with no feed row saying so): on_schema_change: fail stops the run, otherwise the next
# refresh adapts the view (a change of predicates only: issue #19)
DECL_CHANGED = "{paper_stage: new, paper_decl: narrowed"
# paper_d_reshaped's ACountry dropped (adapted in place, by a batch of no rows) ...
DROPPED = "{paper_stage: new, paper_reshape: dropped"
# ... then CName output as customer_name and Dresden left out too (adapted in one batch: the column
# renamed in place, Dresden's rows deleted)
RESHAPED = DECL_CHANGED + ", paper_reshape: renamed"
# ... then CAddr output before customer_name, which becomes Customer_Name (adapted in place: the columns moved and
# the name's case changed, by a batch of no rows)
REORDERED = DECL_CHANGED + ", paper_reshape: reordered"
# ... then Addr no longer joined (its column dropped, the customers it left out come in, their
# address's pending move notwithstanding), then Addr joined again as a filter only (those customers
# leave again): each adapted by one batch
UNJOINED = DECL_CHANGED + ", paper_reshape: unjoined"
FILTERED = DECL_CHANGED + ", paper_reshape: filtered"
# ... then ACity output again: a column added from Addr, which the view joins already
WIDENED = DECL_CHANGED + ", paper_reshape: widened"
# ... then CAddr output with CDiscount's values (a column re-sourced within Cust, of the same type): the rows whose
# two columns differ recomputed, published as upd, and the view over its feed refreshes from them
RESOURCED = DECL_CHANGED + ", paper_reshape: resourced"
# ... then ACountry output again too, under a cost model (pdelta_rebuild_ratio) that counts the fill of an added
# column as the whole view reached: a plain rebuild instead of the fill and its batch
RESTORED = DECL_CHANGED + ", paper_reshape: restored, pdelta_rebuild_ratio: 0.9"
# paper_d_replaced's Addr replaced by paper_addr_moved (its columns named otherwise there), declared equal ...
REPLACED_EQUAL = "{paper_stage: new, paper_replace: equal"
# ... then by paper_addr_moved_west (no Dresden), declared a subset ...
REPLACED_SUBSET = "{paper_stage: new, paper_replace: subset"
# ... then, with paper_addr_moved_west and its feed gone, by paper_addr_moved again, declared a superset, with
# CAddr no longer output
REPLACED_SUPERSET = "{paper_stage: new, paper_replace: superset"
# Cust's feed gains a column after its mirror was built: on_schema_change: fail stops the mirror,
# otherwise it rebuilds with the column (NULL where only the snapshot, taken before it, has the row)
FEED_GAINED = "{paper_stage: new, paper_feed_column: true"
# the models the paper's new state refreshes in a second step, after explain has looked at them
D_MODELS = "paper_d+ paper_d_diff+ paper_d_rebuilt+ paper_d_rebuilt_diff+"


def lane_commands(target: str) -> list[str]:
    """pdelta.runner's commands (`! ` must fail, `:: text` must be said). Each form that removes a
    batch's keys, read from the table's Delta history: Addr's mirror batch (3 rows, at most
    pdelta_key_list_limit) by a DELETE of the listed keys (apply_delete_listed_keys_sql), D's (4
    rows, over the limit) by a DELETE with an EXISTS over the stage (apply_delete_by_key_sql), Cust's
    mirror (`upsert: merge`) by one typed MERGE."""
    t = f"--target {target}"
    grants = "{paper_stage: new, paper_grants: "

    def assert_grants(model: str, expected: str) -> str:
        return f"run-operation assert_grants {t} --args '{{model_name: {model}, expected: {expected}}}'"
    return [
        f"seed {t} --full-refresh",
        f"run-operation occupy_with_view {t} --args '{{model_name: paper_d_diff}}'",
        f"run-operation occupy_with_view {t} --args '{{model_name: paper_cust_mirror}}'",
        f"run {t} --full-refresh --vars '{{paper_stage: old}}'",
        f"run-operation assert_persisted_docs {t} --args '{{model_name: paper_d_diff}}'",
        f"run-operation assert_persisted_docs {t} --args '{{model_name: paper_cust_mirror}}'",
        f"test {t} --vars '{{paper_stage: old}}' --exclude tag:paper_after_changes",
        f"pdelta validate {t}",
        f"run {t} --vars '{{paper_stage: new, pdelta_key_list_limit: 3}}' --exclude {D_MODELS}",
        f"run-operation assert_delete_operation {t} --args '{{model_name: paper_cust_mirror, expected: MERGE}}'",
        f"run-operation assert_delete_operation {t} --args '{{model_name: paper_addr_mirror, expected: listed}}'",
        f"pdelta validate --live {t} --select paper_d",
        f"pdelta explain paper_d {t} --expect-emits ins,upd,ups,delk --expect-mode incremental",
        f"pdelta explain paper_d_diff {t} --expect-emits ins,upd,del --expect-mode incremental"
        " :: complement (pdelta_complement): paper_d_diff__pdelta_complement, kept from the rows each refresh's batch"
        " touches (pdelta_complement_upkeep: batch)",
        f"pdelta explain paper_d_rebuilt {t} --expect-mode rebuild",
        f"! pdelta explain paper_d_rebuilt {t} --expect-mode incremental",
        f"run {t} --vars '{{paper_stage: new, pdelta_key_list_limit: 3}}' --select {D_MODELS}"
        " :: paper_d_diff: its complement kept from the batch",
        f"run-operation assert_delete_operation {t} --args '{{model_name: paper_d_diff, expected: subquery}}'",
        f"run-operation assert_stage_format {t} --args '{{model_name: paper_d_diff, expected: parquet}}'",
        f"run-operation assert_stage_format {t} --args '{{model_name: paper_cust_mirror, expected: parquet}}'",
        f"! run-operation assert_stage_format {t} --args '{{model_name: paper_d_diff, expected: delta}}'"
        " :: is parquet, expected delta",
        f"test {t} --vars '{{paper_stage: new}}'",
        # paper_d_diff's complement (issue #21) left behind by a run stopped before rebuilding it: its data test
        # fails, the next run (nothing new to refresh) rebuilds it, and it passes again
        f"run-operation complement_left_behind {t} --args '{{model_name: paper_d_diff}}'",
        f"! test {t} --vars '{{paper_stage: new}}' --select complements_reconstruct_states"
        " :: Failure in test complements_reconstruct_states",
        f"run {t} --vars '{{paper_stage: new}}' --select paper_d_diff :: its complement rebuilt from the states",
        f"test {t} --vars '{{paper_stage: new}}' --select complements_reconstruct_states",
        # equal_rowsets matches columns by name (paper_d against its recomputation reordered, just above),
        # and fails, naming them, when the columns differ
        f"! test {t} --vars '{{paper_stage: new, paper_check_other_columns: true}}'"
        " --select paper_d,test_name:equal_rowsets :: paper_d and paper_cust do not have the same columns; only on"
        " one side: paper_d.acity, paper_d.acountry, paper_cust.cdiscount",
        f"! run {t} --full-refresh --vars '{{paper_stage: new, paper_contract_break: true}}' --select paper_d_contract"
        " :: This model has an enforced contract",
        f"! run {t} --full-refresh --vars '{{paper_stage: new, paper_contract_break: true}}' --select paper_addr_mirror"
        " :: This model has an enforced contract",
        f"test {t} --vars '{{paper_stage: new}}' --select paper_d_contract paper_addr_mirror",
        # (paper_d_diff's complement mode switched off for a run drops its complement; the next run, with the
        # mode on and nothing to refresh, builds it again)
        f"run {t} --vars '{grants}{{select: [analysts, auditors]}}, paper_complement: false}}' --select paper_d_diff"
        " paper_addr_mirror :: complement mode is off: its complement paper_d_diff__pdelta_complement dropped",
        assert_grants("paper_d_diff", "{select: [analysts, auditors]}"),
        assert_grants("paper_addr_mirror", "{select: [analysts, auditors]}"),
        f"run {t} --vars '{grants}{{select: [auditors], modify: [etl]}}}}' --select paper_d_diff paper_addr_mirror"
        " :: its complement rebuilt from the states",
        assert_grants("paper_d_diff", "{select: [auditors], modify: [etl]}"),
        assert_grants("paper_addr_mirror", "{select: [auditors], modify: [etl]}"),
        f"run {t} --full-refresh --vars '{grants}{{select: [auditors]}}}}' --select paper_d_diff",
        assert_grants("paper_d_diff", "{select: [auditors]}"),
        f"! pdelta explain paper_d_diff {t} --vars '{DECL_CHANGED}, paper_on_schema_change: fail}}'"
        " :: the next refresh will STOP",
        f"! run {t} --vars '{DECL_CHANGED}, paper_on_schema_change: fail}}' --select paper_d_diff"
        " :: and on_schema_change is fail, so nothing was written",
        # the view over D's feed catches up with D's rebuild (the grants' --full-refresh above) ...
        f"pdelta explain paper_d_over_diff {t} --vars '{{paper_stage: new}}' --expect-mode rebuild",
        f"run {t} --vars '{{paper_stage: new}}' --select paper_d_over_diff",
        # ... then D adapts to its narrowed predicate in one batch (Dresden's two rows deleted), and the
        # view over its feed refreshes from that batch instead of rebuilding
        f"pdelta explain paper_d_diff {t} --vars '{DECL_CHANGED}}}' --expect-mode adapt --expect-emits del",
        f"run {t} --vars '{DECL_CHANGED}}}' --select paper_d_diff paper_d_recomputed",
        # D under the cost model's tiny threshold: the rows the narrowing reaches count as pending
        # rows, so it rebuilds instead of adapting (nothing else is pending), then takes the new one
        f"pdelta explain paper_d_rebuilt {t} --vars '{DECL_CHANGED}}}' --expect-mode rebuild",
        f"run {t} --vars '{DECL_CHANGED}}}' --select paper_d_rebuilt",
        f"pdelta explain paper_d_rebuilt {t} --vars '{DECL_CHANGED}}}' --expect-mode incremental",
        f"pdelta explain paper_d_over_diff {t} --vars '{DECL_CHANGED}}}' --expect-mode incremental --expect-emits del",
        f"run {t} --vars '{DECL_CHANGED}}}' --select paper_d_over_diff",
        # (and paper_d_diff's complement, after its --full-refresh and its adaptation)
        f"test {t} --vars '{DECL_CHANGED}}}' --select paper_d_diff paper_d_over_diff paper_d_rebuilt"
        " complements_reconstruct_states --exclude tag:paper_after_changes",
        f"pdelta explain paper_d_diff {t} --vars '{DECL_CHANGED}}}' --expect-mode incremental",
        # validate --live says what the next run does about a changed declaration, by the engine's rules
        f"pdelta validate --live {t} --select paper_d_reshaped --vars '{DROPPED}}}'"
        " :: the next refresh ADAPTS the view :: column acountry: dropped from the view and its feed in place",
        f"pdelta explain paper_d_reshaped {t} --vars '{DROPPED}}}' --expect-mode adapt --expect-emits ''",
        f"run {t} --vars '{DROPPED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, cname, caddr, acity], key: [cid], counts: {}}'",
        f"test {t} --vars '{DROPPED}}}' --select paper_d_reshaped paper_d_reshaped_history",
        # the view over its feed: that batch published no row, so it runs no plan (its next batch reads
        # both of D's)
        f"run {t} --vars '{DROPPED}}}' --select paper_d_over_reshaped :: no new changes in any input",
        f"pdelta explain paper_d_reshaped {t} --vars '{RESHAPED}}}' --expect-mode adapt --expect-emits del",
        f"run {t} --vars '{RESHAPED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, customer_name, caddr, acity], key: [cid], counts: {del: 2}}'",
        # the view over its feed (on the columns the reshaping keeps) refreshes from the adapting batch
        f"pdelta explain paper_d_over_reshaped {t} --vars '{RESHAPED}}}' --expect-mode incremental --expect-emits del",
        f"run {t} --vars '{RESHAPED}}}' --select paper_d_over_reshaped paper_d_over_reshaped_recomputed",
        f"test {t} --vars '{RESHAPED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_over_reshaped",
        # its history renamed the column with the view: every version keeps its name; ACountry stays
        f"run-operation assert_history_kept {t} --args '{{model_name: paper_d_reshaped_history,"
        " expected: [cid, customer_name, caddr, acity, acountry], key: [cid], filled: [customer_name]}'",
        f"pdelta explain paper_d_reshaped {t} --vars '{RESHAPED}}}' --expect-mode incremental",
        # its columns reordered and a name's case changed: moved and renamed in the metadata of the view and its feed
        # (the before-image's fields too), no row read or written; the history keeps its order and takes the name;
        # the view over its feed has nothing to read
        f"pdelta explain paper_d_reshaped {t} --vars '{REORDERED}}}' --expect-mode adapt --expect-emits ''"
        " :: columns reordered: cid, caddr, Customer_Name, acity, in the view and its feed in place",
        f"pdelta explain paper_d_reshaped_history {t} --vars '{REORDERED}}}' --expect-mode adapt --expect-emits ''"
        " :: column customer_name: renamed Customer_Name in the view, its feed and its history in place",
        f"run {t} --vars '{REORDERED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_reshaped_recomputed"
        " :: column customer_name renamed Customer_Name; columns reordered: cid, caddr, Customer_Name, acity",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, caddr, Customer_Name, acity], key: [cid], counts: {}}'",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped_history,"
        " expected: [cid, caddr, Customer_Name, acity], key: [cid], counts: {}}'",
        f"test {t} --vars '{REORDERED}}}' --select paper_d_reshaped paper_d_reshaped_history",
        f"run {t} --vars '{REORDERED}}}' --select paper_d_over_reshaped :: no new changes in any input",
        f"run-operation assert_history_kept {t} --args '{{model_name: paper_d_reshaped_history,"
        " expected: [cid, Customer_Name, caddr, acity, acountry], key: [cid], filled: [Customer_Name]}'",
        # a full build replaces the table its adaptation gave column mapping (back in the renamed declaration's
        # order, as its recomputation: a plain view, compared column by column)
        f"run {t} --full-refresh --vars '{RESHAPED}}}' --select paper_d_reshaped paper_d_reshaped_history"
        " paper_d_reshaped_recomputed",
        f"test {t} --vars '{RESHAPED}}}' --select paper_d_reshaped paper_d_reshaped_history",
        # a leaf relation removed, then joined in again as a filter (issue #19): no rebuild. Bob's and
        # Dave's address moves out of Dresden first, unread by the view: the Addr it removes is the one it
        # consumed, not the one in the state now (which would let them through already)
        f"run-operation paper_addr_moves {t} --args '{{aid: 4, acity: Dortmund}}'",
        f"pdelta explain paper_d_reshaped {t} --vars '{UNJOINED}}}' --expect-mode adapt --expect-emits ins"
        " :: relation a removed",
        f"run {t} --vars '{UNJOINED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, customer_name, caddr], key: [cid], counts: {ins: 2}}'",
        f"test {t} --vars '{UNJOINED}}}' --select paper_d_reshaped paper_d_reshaped_history",
        f"run-operation paper_addr_moves {t} --args '{{aid: 4, acity: Dresden}}'",
        f"pdelta explain paper_d_reshaped {t} --vars '{FILTERED}}}' --expect-mode adapt --expect-emits del"
        " :: relation a joined in :: joined in by this batch: its feed is taken as read through the bound",
        f"run {t} --vars '{FILTERED}}}' --select paper_d_reshaped paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, customer_name, caddr], key: [cid], counts: {del: 2}}'",
        f"test {t} --vars '{FILTERED}}}' --select paper_d_reshaped",
        # ACity again: added to the view and its feed and filled from Addr's state, where Adam's address has
        # moved to Bonn, unread by the view (its batch reads the move; the fill took it already): no row
        # published. The address moves back after, for the steps below
        f"run-operation paper_addr_moves {t} --args '{{aid: 1, acity: Bonn}}'",
        f"pdelta explain paper_d_reshaped {t} --vars '{WIDENED}}}' --expect-mode adapt --expect-emits ''"
        " :: column acity: added to the view and its feed, filled from a.acity",
        # the view with history skipped the filter: Addr is joined in again with ACity output as `city`, a
        # column its history never held, in one adapting batch (Dresden's customers leave; `city` filled)
        f"pdelta explain paper_d_reshaped_history {t} --vars '{WIDENED}}}' --expect-mode adapt --expect-emits del"
        " :: relation a joined in :: column city: added to the view, its feed and its history"
        " :: the history's current versions take the same values",
        f"run {t} --vars '{WIDENED}}}' --select paper_d_reshaped paper_d_reshaped_history paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, customer_name, caddr, acity], key: [cid], counts: {}}'",
        f"test {t} --vars '{WIDENED}}}' --select paper_d_reshaped paper_d_reshaped_history",
        f"run-operation assert_history_kept {t} --args '{{model_name: paper_d_reshaped_history,"
        " expected: [cid, customer_name, caddr, city, acity, acountry], key: [cid], filled: [customer_name]}'",
        # City from AID (a number): the history holds City as text and cannot take it, so validate refuses the
        # change and the run stops before writing anything (the view stays as it was)
        f"! pdelta validate --live {t} --select paper_d_reshaped_history "
        f"--vars '{WIDENED}, paper_history_retype: true}}'"
        " :: [declaration-change] :: city: string in the history",
        f"! run {t} --vars '{WIDENED}, paper_history_retype: true}}' --select paper_d_reshaped_history"
        " :: cannot take the new declaration's column types",
        f"test {t} --vars '{WIDENED}}}' --select paper_d_reshaped_history",
        # CAddr from CDiscount (issue #19): Cust's rows whose two columns differ (all three) are recomputed, Adam's
        # (the one the view holds: caddr 1 -> 5) goes out as upd with its before-image; the view over the feed,
        # brought up to date first (its input was rebuilt above), refreshes incrementally from that upd
        f"run {t} --vars '{WIDENED}}}' --select paper_d_over_reshaped",
        f"pdelta explain paper_d_reshaped {t} --vars '{RESOURCED}}}' --expect-mode adapt --expect-emits upd"
        " :: column caddr now from c.cdiscount (was c.caddr; the rows where they differ go out as upd)",
        f"run {t} --vars '{RESOURCED}}}' --select paper_d_reshaped paper_d_reshaped_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_reshaped,"
        " expected: [cid, customer_name, caddr, acity], key: [cid], counts: {upd: 1}}'",
        f"pdelta explain paper_d_over_reshaped {t} --vars '{RESOURCED}}}' --expect-mode incremental"
        " --expect-emits upd",
        f"run {t} --vars '{RESOURCED}}}' --select paper_d_over_reshaped paper_d_over_reshaped_recomputed",
        f"test {t} --vars '{RESOURCED}}}' --select paper_d_reshaped paper_d_over_reshaped",
        f"run-operation paper_addr_moves {t} --args '{{aid: 1, acity: Aachen}}'",
        # ACountry added back, with Adam's move back pending: the model rebuilds, the view equals its recomputation
        f"pdelta explain paper_d_reshaped {t} --vars '{RESTORED}}}' --expect-mode rebuild"
        " :: columns added: their fill would rewrite every row of the view first",
        f"run {t} --vars '{RESTORED}}}' --select paper_d_reshaped paper_d_reshaped_recomputed"
        " :: columns added: their fill would rewrite every row of the view first",
        f"test {t} --vars '{RESTORED}}}' --select paper_d_reshaped",
        # Addr replaced (issue #19, the paper's relation replacement): Adam moves to Bonn in Addr, unread by
        # paper_d_replaced; Addr's replacement, declared equal, is not read beyond the view rows that join a key
        # Addr's feed changed since the view consumed it (Adam's: an upd)
        f"run-operation paper_addr_moves {t} --args '{{aid: 1, acity: Bonn}}'",
        f"pdelta explain paper_d_replaced {t} --vars '{REPLACED_EQUAL}}}' --expect-mode adapt --expect-emits upd"
        " :: relation a replaced (paper_addr -> paper_addr_moved) :: recomputed: nothing else"
        " (containment equal declared, the replaced relation's feed readable",
        f"run {t} --vars '{REPLACED_EQUAL}}}' --select paper_d_replaced paper_d_replaced_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_replaced,"
        " expected: [cid, cname, caddr, acity, acountry], key: [cid], counts: {upd: 1}}'",
        f"test {t} --vars '{REPLACED_EQUAL}}}' --select paper_d_replaced",
        # the containment a replacement declares, verified against the replaced relation (still there): the
        # subset holds; claimed a superset, its rows break it (Dresden's are only in the replaced relation)
        f"pdelta validate --live --select paper_d_replaced {t} --vars '{REPLACED_SUBSET}}}'"
        " :: containment subset of a verified against paper_addr_moved: 0 row(s) only paper_addr_moved_west gives",
        f"! pdelta validate --live --select paper_d_replaced {t}"
        f" --vars '{REPLACED_SUBSET}, paper_replace_claim: superset}}'"
        " :: `a` is declared `superset` of the relation it replaces, but :: row(s) of paper_addr_moved are not in"
        " paper_addr_moved_west",
        # a subset without Dresden: the view rows it does not match leave (Bob's and Dave's), read from the view
        f"pdelta explain paper_d_replaced {t} --vars '{REPLACED_SUBSET}}}' --expect-mode adapt --expect-emits del"
        " :: recomputed: the view rows its replacement does not match (read from the view)",
        f"run {t} --vars '{REPLACED_SUBSET}}}' --select paper_d_replaced paper_d_replaced_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_replaced,"
        " expected: [cid, cname, caddr, acity, acountry], key: [cid], counts: {del: 2}}'",
        f"test {t} --vars '{REPLACED_SUBSET}}}' --select paper_d_replaced",
        # the replaced relation gone, state and feed: both sides, from the view, Cust's state and the replacement
        # (CAddr dropped in the same batch: each view row's address comes from Cust); Dresden's rows come back
        f"run-operation paper_drop_view {t} --args '{{model_name: paper_addr_moved_west_changes}}'",
        f"run-operation paper_drop_view {t} --args '{{model_name: paper_addr_moved_west}}'",
        # ... whose declared containment cannot be verified then: a warning, not an error
        f"pdelta validate --live --select paper_d_replaced {t} --vars '{REPLACED_SUPERSET}}}'"
        " :: containment superset of a: not verified, the replaced relation paper_addr_moved_west is gone",
        f"pdelta explain paper_d_replaced {t} --vars '{REPLACED_SUPERSET}}}' --expect-mode adapt --expect-emits ins"
        " :: the view rows its replacement does not match (read from the view and the root's state)"
        " :: the rows of c that join the replacement and no view row (the replaced relation's feed is gone)",
        f"run {t} --vars '{REPLACED_SUPERSET}}}' --select paper_d_replaced paper_d_replaced_recomputed",
        f"run-operation assert_adapted_columns {t} --args '{{model_name: paper_d_replaced,"
        " expected: [cid, cname, acity, acountry], key: [cid], counts: {ins: 2}}'",
        f"test {t} --vars '{REPLACED_SUPERSET}}}' --select paper_d_replaced",
        f"run-operation paper_addr_moves {t} --args '{{aid: 1, acity: Aachen}}'",
        f"run-operation assert_persisted_docs {t} --args '{{model_name: paper_d_diff}}'",
        f"run-operation paper_feed_fault {t} --args '{{kind: null_seq}}'",
        f"! run {t} --vars '{{paper_stage: new}}' --select paper_d :: feed-seq-null: 1 row(s) with a NULL",
        f"run-operation paper_feed_fault {t} --args '{{kind: behind}}'",
        f"! run {t} --vars '{{paper_stage: new}}' --select paper_d"
        " :: feed-seq-behind: 1 row(s) with a `_pdelta_seq` at or below",
        f"! pdelta explain paper_d {t} :: the next refresh will STOP",
        f"run-operation assert_delta_merge {t} --args '{{model_name: smoke_delta}}'",
        f"! run {t} --vars '{FEED_GAINED}, paper_on_schema_change: fail}}'"
        " --select paper_cust_changes paper_cust_mirror :: on_schema_change is fail, so nothing was written",
        f"run {t} --vars '{FEED_GAINED}}}' --select paper_cust_mirror",
        f"run-operation assert_mirror_gained_column {t} --vars '{FEED_GAINED}}}'",
        f"run {t} --vars '{FEED_GAINED}, paper_on_schema_change: fail}}' --select paper_cust_mirror",
        f"run-operation drift_batch_log_state {t} --args '{{model_name: paper_d_diff}}'",
        f"! test {t} --vars '{FEED_GAINED}}}' --select batch_log_state_kept :: Got 1 result",
        # paper_d_diff claims self-maintainability: Cust's ins and upd, Addr's ins, up and ups need more
        f"! test {t} --vars '{{paper_stage: new, paper_claim_self_maintainable: true}}'"
        " --select dimension_views_self_maintainable :: Got 5 results",
    ]


def hadoop_side_files(folder: Path) -> tuple[int, list[str]]:
    """(files, side files): the profile's local-file settings (profiles.yml.example) leave no Hadoop
    checksum side file (.name.crc) and no _SUCCESS marker. Delta's own version checksums
    (_delta_log/N.crc) are not hidden and stay."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    side = [str(p) for p in files
            if (p.name.startswith(".") and p.name.endswith(".crc")) or p.name == "_SUCCESS"]
    return len(files), side


@pytest.mark.spark
def test_the_paper_example_built_refreshed_and_checked_with_dbt(monkeypatch):
    from pdelta.runner import run_all
    from pdelta.spark import session_from_profile

    # the profile's default target and schema
    restore = use_local_target(ROOT / ".pdelta" / "tests" / "local", SCHEMA)
    # a target folder per distinct --vars: the commands alternate vars, and dbt parses in full at
    # every change otherwise (pdelta/runner.py)
    monkeypatch.setenv("PDELTA_TARGET_PER_VARS", "1")
    # dbt and pdelta run in the integration project, as a user runs them in theirs, with the
    # repository's profiles.yml (scripts/env.sh sets DBT_PROFILES_DIR to it too)
    monkeypatch.chdir(integration_deps())
    monkeypatch.setenv("DBT_PROFILES_DIR", os.environ.get("DBT_PROFILES_DIR", str(ROOT)))
    # the session this process runs (an earlier module's, or one started here); the lane starts
    # from an empty schema, as on a clean clone
    try:
        spark = session_from_profile(ROOT)
        spark.sql(f"drop database if exists `{SCHEMA}` cascade")
        assert run_all(lane_commands("local")) == 0, "a command of the local lane failed (its output is above)"
        location = {r[0]: r[1] for r in spark.sql(f"describe database `{SCHEMA}`").collect()}["Location"]
    finally:
        restore()
    written = Path(location.removeprefix("file:"))
    files, side = hadoop_side_files(written)
    assert files, f"no files in {written}: nothing to check for Hadoop side files"
    assert not side, f"Hadoop side files (the local-file settings did not apply): {side[:3]}"
