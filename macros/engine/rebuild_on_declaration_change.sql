{#- What a mirror or capture run does when what defines its rows changed since its full build
    (`changed`: table_declaration_differences): nothing to do when empty; under dbt's
    `on_schema_change: fail` it stops before anything is written; otherwise it logs why and the
    caller rebuilds in full. `what` names the table and what changed ("mirror m: its feed x
    changed since the mirror was built"), `rebuilds` how the rebuild reads ("rebuilt in full from
    the snapshot and the whole feed"), `full_refresh` what --full-refresh does. Returns whether
    to rebuild. -#}
{% macro rebuild_on_declaration_change(changed, what, rebuilds, full_refresh) %}
  {%- if not changed -%}{{ return(false) }}{%- endif -%}
  {%- if pdelta.rebuild_options(config)['on_schema_change'] == 'fail' -%}
    {{ exceptions.raise_compiler_error('pdelta: ' ~ what ~ ' (' ~ changed | join('; ') ~ ') and on_schema_change is'
          ~ ' fail, so nothing was written. Run it with --full-refresh to ' ~ full_refresh ~ ' (or set'
          ~ ' on_schema_change to another value: the run then does so by itself).') }}
  {%- endif -%}
  {{ log('pdelta: ' ~ what ~ ' (' ~ changed | join('; ') ~ '): ' ~ rebuilds, info=true) }}
  {{ return(true) }}
{% endmacro %}
