-- After the paper's changes, how each cost-based rebuild was published (batch logs of
-- models/paper/paper_d_*rebuilt*): a plain rebuild is a second `full` batch and its
-- reader rebuilt too; the diffing rebuild is a `rebuild` batch with changes in its feed, and
-- its reader refreshed incrementally from them. Returns the expectations that do not hold.
{{ config(tags=['paper_after_changes']) }}
{%- set expect = [
    ('paper_d_rebuilt', 'full'), ('paper_d_over_rebuilt', 'full'),
    ('paper_d_rebuilt_diff', 'rebuild'), ('paper_d_over_rebuilt_diff', 'incremental')] -%}
{%- for model, mode in expect %}
select '{{ model }}' as model, '{{ mode }}' as expected_mode,
       max_by(`mode`, `batch_id`) as last_mode, max(`batch_id`) as last_batch
from {{ pdelta.meta_relation(ref(model), 'batches') }}
where `mode` <> 'full-started'  -- a full build's marker shares its batch id
having max_by(`mode`, `batch_id`) <> '{{ mode }}' or max(`batch_id`) <> 1
union all
{%- endfor %}
select 'paper_d_rebuilt_diff' as model, 'changes in its feed' as expected_mode, cast(count(*) as string),
       cast(null as bigint)
from {{ pdelta.meta_relation(ref('paper_d_rebuilt_diff'), 'changes') }}
having count(*) = 0
union all
select 'paper_d_rebuilt' as model, 'an empty feed' as expected_mode, cast(count(*) as string), cast(null as bigint)
from {{ pdelta.meta_relation(ref('paper_d_rebuilt'), 'changes') }}
having count(*) <> 0
