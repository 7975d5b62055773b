-- No dimension view of this project holds a key twice (the refresh's apply makes it impossible
-- by construction; docs/dimension-views.md, "The feed contract"). Returns the keys that do.
{{ pdelta.duplicate_view_keys_sql() }}
