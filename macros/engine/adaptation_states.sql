{#- The relations a changed declaration removes or joins in, for declaration_adaptation (`states`):
    alias -> {state, changes, consumed}. The model no longer refs a removed relation, so its state
    and change feed are looked up in dbt's graph from the specs the batch log kept (a model, seed or
    snapshot name, {ref: name}, [source, table] or {source: [source, table]}); `consumed` is its
    watermark (`consumed`: the batch log's, built_watermarks). One joined in is resolved like any
    input (its state only). A relation whose state dbt does not know or that does not exist is left
    out, and a removed one's feed is none where it cannot be read: the view then rebuilds, saying so.
    A relation replaced (its state or feed changed under its alias, declaration_adaptation) gets the
    replaced relation's feed and watermark (`changes` none where that feed is gone) and `state` none:
    its state is never read. A relation kept whose output column takes another of its columns now
    (re-sourced: output_column_changes) gets its state and `types`, {lower-cased column: Spark type}
    (one describe), which tell whether the view's column keeps its type. -#}
{% macro adaptation_states(built_with, view, consumed) %}
  {%- set out = {} -%}
  {%- if built_with is none -%}{{ return(out) }}{%- endif -%}
  {%- set built = built_with['extent']['relations'] -%}
  {%- for alias, r in built.items() if alias not in view['relations'] -%}
    {%- set state = pdelta._recorded_relation(r['state']) -%}
    {%- set changes = pdelta._recorded_relation(r['changes']) -%}
    {%- if state is not none and pdelta.relation_exists(state) -%}
      {%- set readable = changes is not none and pdelta.relation_exists(changes) -%}
      {%- do out.update({alias: {'state': state, 'consumed': consumed.get(alias),
                                 'changes': changes if readable else none}}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- for alias in pdelta.replaced_relations(built_with['extent'], view) -%}
    {%- set changes = pdelta._recorded_relation(built[alias]['changes']) -%}
    {%- set readable = changes is not none and pdelta.relation_exists(changes) -%}
    {%- do out.update({alias: {'state': none, 'consumed': consumed.get(alias),
                               'changes': changes if readable else none}}) -%}
  {%- endfor -%}
  {%- for alias, r in view['relations'].items() if alias not in built -%}
    {%- set state = pdelta.resolve_relation(r['state']) -%}
    {%- if pdelta.relation_exists(state) -%}
      {%- do out.update({alias: {'state': state, 'changes': none, 'consumed': none}}) -%}
    {%- endif -%}
  {%- endfor -%}
  {%- set resourced = pdelta.output_column_changes(built_with['extent']['output'], view['output'])['resourced'] -%}
  {%- for o in view['output'] if o[0] in resourced and o[1] in built and o[1] not in out -%}
    {%- set state = pdelta.resolve_relation(view['relations'][o[1]]['state']) -%}
    {%- if pdelta.relation_exists(state) -%}
      {%- set types = {} -%}
      {%- for column in adapter.get_columns_in_relation(state) -%}
        {%- do types.update({column.name | lower: column.dtype | lower}) -%}
      {%- endfor -%}
      {%- do out.update({o[1]: {'state': state, 'changes': none, 'consumed': consumed.get(o[1]), 'types': types}}) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return(out) }}
{% endmacro %}

{#- the relation of a state or feed spec as declaration_record keeps it (its text), or none: a spec
    given as a mapping or list was kept in Python's notation, which is JSON but for its quotes; a
    view's feed ({feed_of: view}) is no node of dbt's graph -#}
{% macro _recorded_relation(spec_text) %}
  {%- set text = spec_text | trim -%}
  {%- set spec = fromjson(text.replace("'", '"')) if text[:1] in ['{', '['] else text -%}
  {{ return(pdelta.graph_relation(spec) if spec else none) }}
{% endmacro %}

{#- A relation whose change feed the declaration replaced (replaced_relations, feeds_only) has no
    watermark in its new feed: its entries in `consumed` and `positions` (built_watermarks'), which
    are the replaced feed's, are taken out, in place, so the run reads the new feed like one joined
    in (from its bound on). Returns the watermarks as the batch log has them, which
    adaptation_states reads for the replaced feed. blog: batch_log_state or none; view: normalized. -#}
{% macro without_replaced_feeds(blog, view, consumed, positions) %}
  {%- set built_consumed = {} -%}
  {%- do built_consumed.update(consumed) -%}
  {%- if blog is not none and blog['declaration'] -%}
    {%- for alias in pdelta.replaced_relations(blog['declaration']['extent'], view, feeds_only=true) -%}
      {%- do consumed.pop(alias, none) -%}
      {%- do positions.pop(alias, none) -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(built_consumed) }}
{% endmacro %}
