"""pdelta on dbt-databricks, without a workspace: run by tests/test_databricks.py with the
virtualenv of scripts/databricks_venv.sh (dbt-databricks cannot share the main one).

A user project installs pdelta from this repository (packages.yml, local path) and uses a
Databricks profile whose host accepts no connection, so nothing here reaches a workspace. It
checks what dbt can check without one:
  * `dbt parse` of a dimension_view, a mirror and an analysis;
  * dbt finds pdelta's `dimension_view`, `mirror` and `capture` materializations for the
    `databricks` adapter (declared for `spark`, found through the adapter's parent);
  * `dbt compile` of the dimension_view reads its states by Unity Catalog's three-part names
    (the target's catalog);
  * everything a refresh writes beside the view (its change feed, batch log, stage, history,
    quarantine and the rules plan's scratch tables) and the diff plan's statement are named in
    the view's catalog and schema, as rendered by pdelta's own macros (an analysis).
Prints one line per check; exits non-zero with the reason at the first that fails.
usage: python check_databricks.py WORK_DIR
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOG, SCHEMA = "main", "analytics"

DECLARATION = """{% macro customer_dim_declaration() %}
  {{ return({
    'root': 'c',
    'relations': {
      'c': {'state': ['crm', 'cust'], 'changes': ['crm', 'cust_changes'], 'key': ['cid'],
            'technique': 'log_based', 'columns': ['cid', 'cname', 'caddr']},
      'a': {'state': ['crm', 'addr'], 'changes': ['crm', 'addr_changes'], 'key': ['aid'],
            'technique': 'change_tracking', 'join': {'to': 'c', 'on': {'caddr': 'aid'}},
            'columns': ['acity', 'acountry'], 'where': "acountry = 'DE'"}}}) }}
{% endmacro %}
"""

# where a refresh of customer_dim writes and what its diff plan reads, by pdelta's own macros
RELATIONS_ANALYSIS = """{%- set view = pdelta.normalize_declaration(customer_dim_declaration(), 'customer_dim') -%}
{%- set home = ref('customer_dim') -%}
{%- set columns = {'c': [['cid', 'bigint'], ['cname', 'string'], ['caddr', 'bigint']],
                   'a': [['aid', 'bigint'], ['acity', 'string'], ['acountry', 'string']]} -%}
{%- set inputs = {} -%}
{%- for alias in view['order'] -%}
  {%- set r = view['relations'][alias] -%}
  {%- do inputs.update({alias: {'state': pdelta.resolve_relation(r['state']),
                                'changes': pdelta.resolve_relation(r['changes']),
                                'columns': columns[alias], 'lo': 1, 'hi': 2}}) -%}
{%- endfor -%}
{%- set rules = pdelta.refresh_plan(view, inputs, home.identifier ~ '__pdelta_t_', home) -%}
{%- for kind in ['changes', 'batches', 'stage', 'history', 'quarantine'] %}
meta {{ pdelta.meta_relation(home, kind) }}
{%- endfor %}
{%- for term in rules if term['kept'] == 'table' %}
scratch {{ term['table'] }}
{%- endfor %}
{%- for term in rules if term['stored'] %}
scratch_read {{ term['stored']['table'] }}
{%- endfor %}
batch_summary {{ pdelta.batch_summary_statements(pdelta.meta_relation(home, 'stage'), ['cid'], 'customer_dim',
                                                  'bigint')['statements'][1]['sql'] }}
stage_format {{ pdelta.stage_format() }}
diff_plan {{ pdelta.plan_statement(pdelta.diff_plan(view, inputs, home, pdelta.pending_inputs(view, inputs)),
                                   'v__changes')
             | replace('\\n', ' ') }}
"""


def fail(message: str) -> None:
    print(f"FAIL {message}")
    sys.exit(1)


def write_project(d: Path) -> None:
    (d / "models").mkdir(parents=True)
    (d / "macros").mkdir()
    (d / "analyses").mkdir()
    (d / "dbt_project.yml").write_text("name: dbx_user\nversion: '1.0'\nconfig-version: 2\nprofile: dbx_user\n")
    (d / "packages.yml").write_text(f"packages:\n  - local: {json.dumps(str(ROOT))}\n")
    # a Databricks profile as a user writes it; the host takes no connection (nothing listens on
    # 127.0.0.1:443 here) and no run below opens one
    (d / "profiles.yml").write_text(f"""dbx_user:
  target: dev
  outputs:
    dev:
      type: databricks
      catalog: {CATALOG}
      schema: {SCHEMA}
      host: "{{{{ env_var('PDELTA_DATABRICKS_CHECK_HOST', '127.0.0.1') }}}}"
      http_path: /sql/1.0/warehouses/0000000000000000
      token: "{{{{ env_var('PDELTA_DATABRICKS_CHECK_TOKEN', 'no-token') }}}}"
      connect_retries: 0
      connect_timeout: 5
""")
    (d / "models" / "sources.yml").write_text(
        "version: 2\nsources:\n  - name: crm\n"
        "    tables: [{name: cust}, {name: cust_changes}, {name: addr}, {name: addr_changes}]\n")
    (d / "macros" / "customer_dim_declaration.sql").write_text(DECLARATION)
    (d / "models" / "customer_dim.sql").write_text(
        "{%- set view = customer_dim_declaration() -%}\n"
        "{{ config(materialized='dimension_view', pdelta=view) }}\n"
        "{{ pdelta.dimension_view(view) }}\n")
    (d / "models" / "addr_mirror.sql").write_text(
        "{%- set m = {'changes': ['crm', 'addr_changes'], 'key': ['aid']} -%}\n"
        "{{ config(materialized='mirror', pdelta_mirror=m) }}\n"
        "{{ pdelta.mirror(m) }}\n")
    (d / "analyses" / "customer_dim_relations.sql").write_text(RELATIONS_ANALYSIS)


def main(work: Path) -> None:
    import dbt.version
    from dbt.adapters.databricks.__version__ import version as databricks_version
    from dbt.cli.main import dbtRunner

    print(f"dbt-core {dbt.version.__version__}, dbt-databricks {databricks_version}")
    project = work / "dbx_user"
    write_project(project)
    common = ["--project-dir", str(project), "--profiles-dir", str(project)]

    def dbt(*args: str):
        result = dbtRunner().invoke([*args, *common])
        if not result.success:
            fail(f"dbt {' '.join(args)}: {result.exception}")
        return result

    dbt("deps", "--quiet")
    manifest = dbt("parse", "--quiet").result
    models = {n.name for n in manifest.nodes.values() if n.resource_type == "model"}
    if models != {"customer_dim", "addr_mirror"}:
        fail(f"dbt parse found the models {sorted(models)}")
    print("ok   dbt parse: a dimension_view, a mirror and an analysis, pdelta installed as a package")

    for name in ("dimension_view", "mirror", "capture"):
        macro = manifest.find_materialization_macro_by_name("dbx_user", name, "databricks")
        if macro is None or macro.package_name != "pdelta":
            fail(f"no `{name}` materialization of pdelta for the databricks adapter (found {macro})")
        print(f"ok   materialization {name} for databricks: {macro.unique_id}")

    # no statement runs: the view's SQL and the analysis are rendered from the declaration
    dbt("compile", "--quiet", "--no-populate-cache", "--select", "customer_dim", "customer_dim_relations")
    compiled = project / "target" / "compiled" / "dbx_user"
    view_sql = (compiled / "models" / "customer_dim.sql").read_text()
    for table in ("cust", "addr"):
        name = f"`{CATALOG}`.`crm`.`{table}`"
        if name not in view_sql:
            fail(f"the compiled dimension_view does not read {name}:\n{view_sql}")
    print(f"ok   dbt compile: customer_dim reads `{CATALOG}`.`crm`.`cust` and `{CATALOG}`.`crm`.`addr`")

    lines = [ln.split(" ", 1) for ln in (compiled / "analyses" / "customer_dim_relations.sql").read_text().splitlines()
             if " " in ln]
    home = f"`{CATALOG}`.`{SCHEMA}`.`customer_dim"
    written = [(kind, name) for kind, name in lines if kind in ("meta", "scratch", "scratch_read")]
    kinds = {kind for kind, _ in written}
    if kinds != {"meta", "scratch", "scratch_read"} or len(written) < 8:
        fail(f"the analysis rendered too little: {written}")
    for kind, name in written:
        if not name.startswith(home + "__pdelta_"):
            fail(f"{kind} relation {name} is not beside the view in {CATALOG}.{SCHEMA}")
    print(f"ok   {len(written)} meta and scratch relations of a refresh named {home}__pdelta_*`")
    diff_sql = dict(lines)["diff_plan"]
    for name in (f"`{CATALOG}`.`crm`.`cust`", f"`{CATALOG}`.`crm`.`addr`", f"`{CATALOG}`.`crm`.`cust_changes`",
                 f"{home}`"):
        if name not in diff_sql:
            fail(f"the diff plan's statement does not read {name}: {diff_sql[:600]}")
    print("ok   the diff plan reads the states and feeds by three-part names and the view as "
          f"{home}`")
    # Databricks runtimes before Spark 4.2 have no min_by with a count: the summary lists the keys
    # with its portable bounded scan of the stage (bounded_key_list_sql)
    summary_sql = dict(lines)["batch_summary"]
    if "min_by" in summary_sql or f"from {home}__pdelta_stage` limit 1001" not in summary_sql:
        fail(f"the batch summary does not list the keys by a LIMIT scan of the stage: {summary_sql}")
    print("ok   the batch summary lists the keys with a LIMIT 1001 scan of the stage, no min_by")
    # Unity Catalog's managed tables are Delta: the stage stays Delta there (stage_format)
    if dict(lines)["stage_format"] != "delta":
        fail(f"the stage is written as {dict(lines)['stage_format']} on Databricks, not delta")
    print("ok   the stage is a Delta table on Databricks")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
