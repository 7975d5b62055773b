{#- The paper's running example (Jörg & Dessloch, Fig. 3): D = π_{CID,CName,CAddr}(Cust)
    ⋈_{CAddr=AID} σ_{ACountry='DE'}(Addr). Shared by the model paper_d and the models that
    expose its intermediate rule terms for the figure tests. With var `paper_decl: narrowed`
    (make test: a declaration changed after the build) the selection on Addr also leaves out
    Dresden, which Bob's and Dave's address is in the new state. A reshapable declaration (the model
    paper_d_reshaped) drops ACountry with var `paper_reshape: dropped`, and also outputs CName as
    `customer_name` with `paper_reshape: renamed` (after CAddr, as `Customer_Name`, with `paper_reshape:
    reordered`);
    `paper_reshape: unjoined` keeps that but no longer joins Addr (its columns go, every customer is
    in D), and `paper_reshape: filtered` joins Addr again as a filter only (its predicate, no
    column), `widened` outputs ACity again (as `city` where given), `resourced` takes CAddr's values from
    CDiscount (the same type) and `restored` ACountry too, CAddr from CAddr again;
    `paper_history_retype: true` outputs AID there (another type). A replaceable one
    (paper_d_replaced) reads Addr from paper_addr_moved (its columns named address_id, city,
    country) with `paper_replace: equal`, from paper_addr_moved_west (no Dresden) with `subset`, and
    from paper_addr_moved again without outputting CAddr with `superset`, each declaring that
    containment, or the one var `paper_replace_claim` names (a wrong claim, which `pdelta validate
    --live` must refuse). -#}
{% macro paper_d_declaration(reshapable=false, city='acity', replaceable=false) %}
  {%- set narrowed = var('paper_decl', 'paper') == 'narrowed' -%}
  {%- set reshape = var('paper_reshape', none) if reshapable else none -%}
  {#- ACity taken from AID (a number) instead: a column's type changes, which an SCD2 history refuses -#}
  {%- set retyped = reshape is not none and var('paper_history_retype', false) -%}
  {%- set relations = {
      'c': {'state': 'paper_cust', 'changes': 'paper_cust_changes', 'key': ['cid'],
            'technique': 'log_based',
            'columns': ['cid', 'caddr', {'Customer_Name': 'cname'}] if reshape == 'reordered'
                       else ['cid', {'customer_name': 'cname'}
                             if reshape in ['renamed', 'unjoined', 'filtered', 'widened', 'resourced', 'restored']
                             else 'cname',
                             {'caddr': 'cdiscount'} if reshape == 'resourced' else 'caddr']},
      'a': {'state': 'paper_addr', 'changes': 'paper_addr_changes', 'key': ['aid'],
            'technique': 'change_tracking', 'join': {'to': 'c', 'on': {'caddr': 'aid'}},
            'columns': [] if reshape == 'filtered' else ([{city: 'aid'}] if retyped else ([{city: 'acity'}]
                       if reshape in ['widened', 'resourced'] and city != 'acity' else ['acity']))
                       if reshape in ['dropped', 'renamed', 'reordered', 'widened', 'resourced']
                       else ['acity', 'acountry'],
            'where': "acountry = 'DE' and acity <> 'Dresden'" if narrowed else "acountry = 'DE'"},
  } -%}
  {%- if reshape == 'unjoined' -%}{%- do relations.pop('a') -%}{%- endif -%}
  {%- set replace = var('paper_replace', none) if replaceable else none -%}
  {%- if replace -%}
    {%- set moved = 'paper_addr_moved_west' if replace == 'subset' else 'paper_addr_moved' -%}
    {%- do relations.update({'a': {'state': moved, 'changes': moved ~ '_changes', 'key': ['address_id'],
          'technique': 'change_tracking', 'join': {'to': 'c', 'on': {'caddr': 'address_id'}},
          'columns': [{'acity': 'city'}, {'acountry': 'country'}], 'where': "country = 'DE'",
          'containment': var('paper_replace_claim', replace)}}) -%}
    {%- if replace == 'superset' -%}{%- do relations['c'].update({'columns': ['cid', 'cname']}) -%}{%- endif -%}
  {%- endif -%}
  {{ return({'root': 'c', 'relations': relations}) }}
{% endmacro %}
