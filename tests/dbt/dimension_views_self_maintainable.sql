-- Every dimension view of this project declared `pdelta_self_maintainable: true` is: each change
-- set its inputs' feeds can hold applies from the view and the change alone. Returns the change
-- sets that need more, with what and why (python/pdelta/maintainability.py).
{{ pdelta.self_maintainability_claims_sql() }}
