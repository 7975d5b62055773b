{#- The cheapest correct way to apply one batch, from the six sets it holds (paper §4: the
    less partial the delta, the cheaper its application):
      none              nothing to apply
      append            only `ins`: INSERT INTO, the target is not read
      delete_by_key     only `del`/`delk`: a DELETE of the batch's keys (apply_delete_by_key_sql)
      delete_insert     anything else: a DELETE of every key of the batch, then an
                        INSERT of the new images (apply_delete_insert.sql: far cheaper than one
                        MERGE with an insert clause, which reads whole files through an outer join)
      merge             the same batch as one MERGE with clauses typed by the six sets, when the
                        model asks for it (`pdelta_apply: {upsert: merge}`)
      bucket_overwrite  plain-file targets (no MERGE): the affected key buckets are rewritten
    A retry of a batch whose first attempt may have written part of it takes an idempotent
    strategy (delete_insert / merge / bucket_overwrite): an append would add the same rows twice.
    An append also needs each `ins` key to be absent from the target: the diff plan and a mirror
    compute `ins` against the target's own rows, but the rules plan derives it from feed rows, so
    a dimension view on that plan passes `opts['append_ins'] = false` and an insert-only batch
    deletes its keys first (a feed row breaking the contract cannot leave a key twice). -#}
{% macro choose_apply_strategy(counts, opts, retry=false) %}
  {{ return(adapter.dispatch('choose_apply_strategy', 'pdelta')(counts, opts, retry)) }}
{% endmacro %}

{% macro default__choose_apply_strategy(counts, opts, retry=false) %}
  {%- set present = [] -%}
  {%- for t, n in counts.items() if n and n > 0 -%}{%- do present.append(t) -%}{%- endfor -%}
  {%- if not present -%}{{ return('none') }}{%- endif -%}
  {%- set only_ins = present | reject('equalto', 'ins') | list | length == 0 -%}
  {%- set only_del = present | reject('in', ['del', 'delk']) | list | length == 0 -%}
  {%- if only_ins and not retry and opts.get('append_ins', true) -%}{{ return('append') }}{%- endif -%}
  {%- if not opts['merge'] -%}{{ return('bucket_overwrite') }}{%- endif -%}
  {%- if only_del -%}{{ return('delete_by_key') }}{%- endif -%}
  {{ return(opts.get('upsert') or 'delete_insert') }}
{% endmacro %}
