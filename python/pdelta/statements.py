"""The text of a statement dbt sent to Spark, for logs and checks that read statements."""
from __future__ import annotations

import re

_QUERY_COMMENT = re.compile(r"^/\*.*?\*/\s*", re.S)


def statement_text(sql: str) -> str:
    """`sql` on one line (whitespace folded), without the query comment dbt puts before it"""
    return _QUERY_COMMENT.sub("", " ".join(sql.split()))
