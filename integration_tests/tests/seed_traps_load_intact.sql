-- Seeds keep text intact and empty cells NULL on every target (session mode used to load
-- 'None' and fail on the apostrophe). Returns the rows that did not load as written.
select id, label, note from {{ ref('seed_traps') }}
where not (
     (id = 1 and label = 'O\'Brien' and note = 'back\\slash')
  or (id = 2 and label is null and note is null)
  or (id = 3 and label = 'comma, inside' and note = 'x')
)
union all
select cast(null as int), 'row count is not 3', cast(count(*) as string) from {{ ref('seed_traps') }}
having count(*) <> 3
