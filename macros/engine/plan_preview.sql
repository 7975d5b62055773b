{#- One term of the refresh plan of a declared view, as a SELECT, over each input feed's
    whole history (what a refresh from an empty watermark would consume). For inspecting
    and testing the rule terms (e.g. the paper's figures); `final` names the CTE, e.g.
    `c__prj_delta`, `j1__nabla`, `v__changes`. -#}
{% macro plan_preview(declaration, final='v__changes') %}
  {%- if var('pdelta_validate', false) -%}{{ return('select 1 as pdelta_validate_placeholder') }}{%- endif -%}
  {%- set view = pdelta.normalize_declaration(declaration, model.name) -%}
  {%- set inputs = {} -%}
  {%- for alias in view['order'] -%}
    {%- set r = view['relations'][alias] -%}
    {%- do inputs.update({alias: {'state': pdelta.resolve_relation(r['state']),
                                  'changes': pdelta.resolve_relation(r['changes']), 'lo': none}}) -%}
  {%- endfor -%}
  {%- if not execute -%}
    select 1 as parse_placeholder
  {%- else -%}
    {%- for alias in view['order'] -%}
      {%- set inp = inputs[alias] -%}
      {%- do inp.update({'columns': pdelta.state_columns(inp['state']),
                         'hi': pdelta.feed_high_watermark(inp['changes'])}) -%}
    {%- endfor -%}
    {{ pdelta.plan_statement(pdelta.refresh_plan(view, inputs), final) }}
  {%- endif -%}
{% endmacro %}
