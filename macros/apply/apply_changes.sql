{#- Applies one batch of six-set changes (one row per key, canonical shape, in `source`) to a
    keyed target with the strategy `choose_apply_strategy` picks, and returns what it did:
    {strategy, statements: [names run], rows_written: {affected, inserted, updated, deleted}
    as Delta reports them}.
    `apply_statements` renders the same statements without running them (pdelta explain). -#}
{% macro apply_statements(strategy, target, source, key, attrs, opts, name='', key_type='string', range_var=none,
                          keys_listed=false) %}
  {{ return(adapter.dispatch('apply_statements', 'pdelta')(strategy, target, source, key, attrs, opts, name, key_type,
                                                            range_var, keys_listed)) }}
{% endmacro %}

{#- range_var: the key-range variable staged_summary already set from `source`
    (batch_summary_statements); without one, the range is set here by its own two statements.
    keys_listed: that variable also holds every key of the batch (`key_list`), so the keys are
    deleted by a DELETE of the listed keys (apply_delete_listed_keys_sql), not one joined to the
    stage -#}
{% macro default__apply_statements(strategy, target, source, key, attrs, opts, name='', key_type='string',
                                   range_var=none, keys_listed=false) %}
  {%- set out = [] -%}
  {%- set var = none -%}
  {%- if strategy in ['merge', 'delete_by_key', 'delete_insert'] and opts['prune'] -%}
    {%- if range_var -%}
      {%- set var = range_var -%}
    {%- else -%}
      {%- set r = pdelta.key_range_statements(source, key, name or target.identifier, key_type) -%}
      {%- do out.extend(r['statements']) -%}
      {%- set var = r['var'] -%}
    {%- endif -%}
  {%- endif -%}
  {%- if strategy == 'append' -%}
    {%- do out.append({'name': 'main', 'sql': pdelta.apply_append_sql(target, source, key, attrs, opts)}) -%}
  {%- elif strategy == 'delete_by_key' -%}
    {%- do out.extend(pdelta._delete_keys_statements('main', target, source, key, var, keys_listed,
                                                     ['del', 'delk'])) -%}
  {%- elif strategy == 'merge' -%}
    {%- do out.append({'name': 'main', 'sql': pdelta.apply_merge_sql(target, source, key, attrs, var)}) -%}
  {%- elif strategy == 'delete_insert' -%}
    {%- do out.extend(pdelta._delete_keys_statements('delete_keys', target, source, key, var, keys_listed, none)) -%}
    {%- do out.append({'name': 'main', 'sql': pdelta.apply_insert_images_sql(target, source, key, attrs)}) -%}
  {%- elif strategy == 'bucket_overwrite' -%}
    {%- do out.append({'name': 'main', 'sql': pdelta.apply_bucket_overwrite_sql(target, source, key, attrs, opts)}) -%}
    {%- do out.append({'name': 'drop_empty_buckets', 'query': pdelta.empty_buckets_sql(target, source, key, opts)}) -%}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}

{#- the statements removing the batch's keys of the six sets `types` (none: every key), the last
    one named `name`: the DELETE of the listed keys when the range variable lists them all (then
    `types` is moot: the callers pass the sets that are the whole batch), else the session setting
    and apply_delete_by_key_sql's DELETE with an EXISTS over the stage (on Databricks no setting
    and the delete-only MERGE); `deletes` marks a DELETE, whose only count is its affected rows -#}
{% macro _delete_keys_statements(name, target, source, key, var, keys_listed, types) %}
  {%- if keys_listed and var -%}
    {{ return([{'name': name, 'sql': pdelta.apply_delete_listed_keys_sql(target, key, var), 'deletes': true}]) }}
  {%- endif -%}
  {%- set setting = pdelta.delete_subquery_setting() -%}
  {%- set delete = {'name': name, 'sql': pdelta.apply_delete_by_key_sql(target, source, key, var, types=types),
                    'deletes': setting is not none} -%}
  {{ return([delete] if setting is none else [{'name': 'allow_delete_subquery', 'sql': setting}, delete]) }}
{% endmacro %}

{% macro apply_changes(target, source, key, attrs, counts, opts, retry=false, name='', key_type='string',
                       range_var=none, keys_listed=false) %}
  {%- set strategy = pdelta.choose_apply_strategy(counts, opts, retry) -%}
  {%- set ran = [] -%}
  {%- set deletes_only = [] -%}
  {%- set written = {} -%}
  {%- for st in pdelta.apply_statements(strategy, target, source, key, attrs, opts, name, key_type, range_var,
                                        keys_listed) -%}
    {%- if 'query' in st -%}
      {#- dynamic overwrite leaves a bucket with no surviving row as it was: drop it -#}
      {%- for row in run_query(st['query']).rows -%}
        {%- call statement('drop_empty_bucket') -%}
          alter table {{ target }} drop if exists partition (`pdelta_bucket` = {{ row[0] | int }})
        {%- endcall -%}
        {%- do ran.append('drop_empty_bucket') -%}
      {%- endfor -%}
    {%- else -%}
      {%- call statement(st['name'], fetch_result=(st['name'] in ['main', 'delete_keys'])) -%}
        {{ st['sql'] }}
      {%- endcall -%}
      {%- do ran.append(st['name']) -%}
      {%- if st.get('deletes') -%}{%- do deletes_only.append(st['name']) -%}{%- endif -%}
    {%- endif -%}
  {%- endfor -%}
  {%- if strategy == 'none' -%}
    {%- call statement('main') -%} select 'pdelta: no effective change' {%- endcall -%}
  {%- else -%}
    {#- Delta answers a MERGE / INSERT with its row counts: no extra statement to read them
        (delete_insert: the delete's and the insert's counts added up) -#}
    {%- for name in ['delete_keys', 'main'] if name in ran -%}
      {%- set res = load_result(name) -%}
      {%- if res and res['table'] is not none and res['table'].rows | length == 1 -%}
        {%- for col, v in zip(res['table'].column_names, res['table'].rows[0]) if v is not none -%}
          {%- set k = col | replace('num_', '') | replace('_rows', '') -%}
          {%- do written.update({k: written.get(k, 0) + v | int}) -%}
          {#- a DELETE answers with affected rows only: all of them deleted, as a MERGE would say -#}
          {%- if name in deletes_only and k == 'affected' -%}
            {%- for other, n in {'updated': 0, 'deleted': v | int, 'inserted': 0}.items() -%}
              {%- do written.update({other: written.get(other, 0) + n}) -%}
            {%- endfor -%}
          {%- endif -%}
        {%- endfor -%}
      {%- endif -%}
    {%- endfor -%}
    {#- Delta answers an INSERT with no counts (Spark 4.2 / Delta 4.4): an append or the insert
        of delete_insert writes exactly the batch's rows of the sets that have a new image -#}
    {%- if strategy in ['append', 'delete_insert'] -%}
      {%- set ns = namespace(n=0) -%}
      {%- for t, e in pdelta.delta_model()['encoding'].items() if e['delta'] -%}
        {%- set ns.n = ns.n + (counts.get(t) or 0) | int -%}
      {%- endfor -%}
      {%- do written.update({'inserted': ns.n, 'affected': written.get('deleted', 0) + ns.n}) -%}
    {%- endif -%}
  {%- endif -%}
  {{ return({'strategy': strategy, 'statements': ran, 'rows_written': written}) }}
{% endmacro %}
