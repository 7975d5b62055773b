{#- Tables pdelta keeps beside a maintained relation `x`:
      x__pdelta_changes  its change feed (canonical partial deltas, _pdelta_seq = batch id)
      x__pdelta_batches  one row per input per refresh: the feed range consumed and counts
      x__pdelta_stage    the last refresh's six-set changes, before they are applied -#}
{% macro meta_relation(relation, kind) %}
  {{ return(relation.incorporate(path={'identifier': relation.identifier ~ '__pdelta_' ~ kind}, type='table')) }}
{% endmacro %}

{% macro relation_exists(relation) %}
  {{ return(adapter.get_relation(database=relation.database, schema=relation.schema,
                                 identifier=relation.identifier) is not none) }}
{% endmacro %}

{#- upper bound of a refresh: the feed's highest sequence now (none for an empty feed) -#}
{% macro feed_high_watermark(changes) %}
  {%- set r = run_query('select max(`_pdelta_seq`) from ' ~ changes) -%}
  {%- set v = r.columns[0].values()[0] -%}
  {{ return(none if v is none else v | int) }}
{% endmacro %}

{% macro sql_literal(value) %}
  {%- if value is none -%}null
  {%- elif value is number -%}{{ value }}
  {%- else -%}'{{ value | string | replace('\\', '\\\\') | replace("'", "\\'") }}'
  {%- endif -%}
{% endmacro %}

{#- rows per change type in a staged batch (a relation or a parenthesized query), as {type: count};
    with `key`, also checks the batch holds one row per key (the six sets are disjoint on the
    key; MERGE and the change feed rely on it) -#}
{% macro change_counts(stage, key=none) %}
  {{ return(pdelta.staged_summary(stage, key)['counts']) }}
{% endmacro %}

{#- change_counts and, with `key`, the type of the first key column (what the apply's key-range
    variable is declared with), in one query: {counts, key_type (none without key or rows),
    keys: distinct keys, range_var: none, keys_listed: false, statements: [], lagging: the marker rows of a
    guarded stage (lag_guard), left out of counts}; with `check`, a batch
    with more changes than keys stops the run. Given `name` and the key's type `key_type`, the
    summary and the key range come from one scan into the variable the apply reads
    (batch_summary_statements): range_var names it, keys_listed says it also lists every key of
    the batch, statements names the two statements (for the batch log). -#}
{% macro staged_summary(stage, key=none, check=true, name=none, key_type=none) %}
  {%- set out = {'counts': {}, 'key_type': none, 'keys': none, 'range_var': none, 'keys_listed': false,
                 'statements': []} -%}
  {%- if key and name and key_type -%}
    {%- set summary = pdelta.batch_summary_statements(stage, key, name, key_type) -%}
    {%- for st in summary['statements'] -%}
      {%- call statement(st['name']) -%}{{ st['sql'] }}{%- endcall -%}
    {%- endfor -%}
    {%- set row = run_query(summary['read']).rows[0] -%}
    {#- the read-back row: keys, rows, then one count per six-set type in delta_model() order -#}
    {%- for t in pdelta.delta_model()['six_sets'] -%}
      {%- if row[loop.index + 1] -%}{%- do out['counts'].update({t: row[loop.index + 1] | int}) -%}{%- endif -%}
    {%- endfor -%}
    {%- set lagging = row[(pdelta.delta_model()['six_sets'] | length) + 2] | int -%}
    {%- if (out['counts'].values() | sum) + lagging != row[1] | int -%}
      {{ exceptions.raise_compiler_error("pdelta: " ~ stage ~ " holds " ~ row[1]
            ~ " rows, of which " ~ (out['counts'].values() | sum)
            ~ " have a change type of the six sets; nothing was applied") }}
    {%- endif -%}
    {#- rows, not keys: key_list holds the keys of the batch's limit + 1 smallest rows (a key the
        batch changes twice counts twice), so only a batch of at most limit rows is listed whole -#}
    {%- do out.update({'key_type': key_type, 'keys': row[0] | int, 'range_var': summary['var'], 'lagging': lagging,
                       'keys_listed': summary['lists_keys'] and row[1] | int <= pdelta.key_list_limit(),
                       'statements': ['declare_batch_summary', 'set_batch_summary']}) -%}
  {%- else -%}
    {%- set types = [] -%}
    {%- set key_type_sql = 'max(typeof(' ~ adapter.quote(key[0]) ~ '))' if key else 'cast(null as string)' -%}
    {%- set sql -%}
      select `_pdelta_type`, count(*), {{ key_type_sql }} from {{ stage }} group by 1
      {%- if key %} union all
        select '__keys', count(distinct struct({% for k in key %}{{ adapter.quote(k) }}{% if not loop.last %},
          {% endif %}{% endfor %})), {{ key_type_sql }} from {{ stage }}{% endif %}
    {%- endset -%}
    {%- for row in run_query(sql).rows -%}
      {%- do out['counts'].update({row[0]: row[1] | int}) -%}
      {%- if row[2] is not none -%}{%- do types.append(row[2]) -%}{%- endif -%}
    {%- endfor -%}
    {%- do out.update({'key_type': types[0] if types else none, 'keys': out['counts'].pop('__keys') if key else none,
                       'lagging': out['counts'].pop(pdelta.lag_marker_type(), 0)}) -%}
  {%- endif -%}
  {%- if check and key and out['keys'] != out['counts'].values() | sum -%}
    {{ exceptions.raise_compiler_error("pdelta: " ~ stage ~ " holds " ~ (out['counts'].values() | sum)
          ~ " changes for " ~ out['keys']
          ~ " keys: a batch must hold one change per key; nothing was applied") }}
  {%- endif -%}
  {{ return(out) }}
{% endmacro %}
