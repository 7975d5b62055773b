-- Every dimension view of this project kept in complement mode (`pdelta_complement: true`, issue #21) gives
-- back, with its complement, each relation as its refreshes read it (its key and carried columns where its
-- predicate holds) as the relation's state holds it now. Returns the rows that differ.
{{ pdelta.complement_mismatches_sql() }}
