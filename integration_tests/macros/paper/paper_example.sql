{#- The paper's running example (Jörg & Dessloch, Fig. 3): D = π_{CID,CName,CAddr}(Cust)
    ⋈_{CAddr=AID} σ_{ACountry='DE'}(Addr). Shared by the model paper_d and the models that
    expose its intermediate rule terms for the figure tests. With var `paper_decl: narrowed`
    (make test: a declaration changed after the build) the selection on Addr also leaves out
    Dresden, which Bob's and Dave's address is in the new state. A reshapable declaration (the
    model paper_d_reshaped) drops ACountry with var `paper_reshape: dropped`, and also outputs CName
    as `customer_name` with `paper_reshape: renamed`; `paper_reshape: unjoined` keeps that but no
    longer joins Addr (its columns go, every customer is in D), and `paper_reshape: filtered` joins
    Addr again as a filter only (its predicate, no column), `widened` outputs ACity again (as `city`
    where given); `paper_history_retype: true` outputs AID there (another type). -#}
{% macro paper_d_declaration(reshapable=false, city='acity') %}
  {%- set narrowed = var('paper_decl', 'paper') == 'narrowed' -%}
  {%- set reshape = var('paper_reshape', none) if reshapable else none -%}
  {#- ACity taken from AID (a number) instead: a column's type changes, which an SCD2 history refuses -#}
  {%- set retyped = reshape is not none and var('paper_history_retype', false) -%}
  {%- set relations = {
      'c': {'state': 'paper_cust', 'changes': 'paper_cust_changes', 'key': ['cid'],
            'technique': 'log_based',
            'columns': ['cid', {'customer_name': 'cname'} if reshape in ['renamed', 'unjoined', 'filtered', 'widened']
                        else 'cname',
                        'caddr']},
      'a': {'state': 'paper_addr', 'changes': 'paper_addr_changes', 'key': ['aid'],
            'technique': 'change_tracking', 'join': {'to': 'c', 'on': {'caddr': 'aid'}},
            'columns': [] if reshape == 'filtered' else ([{city: 'aid'}] if retyped else ([{city: 'acity'}]
                       if reshape == 'widened' and city != 'acity' else ['acity']))
                       if reshape in ['dropped', 'renamed', 'widened'] else ['acity', 'acountry'],
            'where': "acountry = 'DE' and acity <> 'Dresden'" if narrowed else "acountry = 'DE'"},
  } -%}
  {%- if reshape == 'unjoined' -%}{%- do relations.pop('a') -%}{%- endif -%}
  {{ return({'root': 'c', 'relations': relations}) }}
{% endmacro %}
