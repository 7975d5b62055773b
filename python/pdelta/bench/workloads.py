"""The benchmark's two workloads: relations, how their rows are generated (Spark expressions
over the key, seeded), which columns a change touches, and the dimension view over them.

* `tpch`: TPC-H's customer ⋈ nation ⋈ region. The base rows come from TPC-H's own generator
  (`tpchgen-cli`, a PyPI package, scale factor = root rows / 150,000) when it is installed,
  else from the expressions below, which follow the TPC-H specification's column domains
  (keys 1..n, c_nationkey uniform over the 25 nations, acctbal in [-999.99, 9999.99], the five
  market segments). Inserted and updated rows always come from the expressions.
* `chain`: a four-level chain customer ⋈ address ⋈ city ⋈ country (2 customers per address,
  100 addresses per city, at most 200 countries): a change of a city reaches ~200 view rows,
  of a country thousands.

Every expression is a Spark SQL expression in `{id}` (the key) and `{s}` (an integer seed), so
a billion rows are as cheap as a thousand: `range()` plus hashing, no Python per row.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Rel:
    name: str                       # relation name (tables are <workload>_<name>)
    key: str
    columns: list[tuple[str, str]]  # (name, Spark type), key first
    gen: dict[str, str]             # non-key column -> expression in {id}, {s}
    mutable: list[str]              # columns an update changes
    size: int = 0                   # base rows (set per run)
    first_key: int = 0              # keys are first_key .. first_key + size - 1
    parent: str | None = None       # relation this one is joined from
    fk: str | None = None           # the parent's column that references this key
    outputs: list[str] = field(default_factory=list)  # columns in the view

    @property
    def attrs(self) -> list[str]:
        return [c for c, _ in self.columns if c != self.key]

    def type_of(self, col: str) -> str:
        return dict(self.columns)[col]


@dataclass
class Workload:
    name: str
    rels: list[Rel]                 # root first, each after its parent

    @property
    def root(self) -> Rel:
        return self.rels[0]

    def rel(self, name: str) -> Rel:
        return next(r for r in self.rels if r.name == name)

    def table(self, rel: Rel | str, suffix: str = "") -> str:
        return f"{self.name}_{rel if isinstance(rel, str) else rel.name}{suffix}"

    def path(self, rel: Rel) -> list[Rel]:
        """root .. rel along the joins"""
        out = [rel]
        while out[0].parent:
            out.insert(0, self.rel(out[0].parent))
        return out

    def view_columns(self) -> list[str]:
        return [c for r in self.rels for c in r.outputs]


def _h(n: int) -> str:
    """a deterministic hash of the key and seed, salted by n"""
    return f"xxhash64({{id}}, {{s}}, {int(n)})"


def _pick(n: int, mod: str) -> str:
    return f"pmod({_h(n)}, {mod})"


def tpch(root_rows: int) -> Workload:
    n_nation, n_region = 25, 5
    customer = Rel(
        "customer", "c_custkey",
        [("c_custkey", "bigint"), ("c_name", "string"), ("c_address", "string"), ("c_nationkey", "bigint"),
         ("c_phone", "string"), ("c_acctbal", "decimal(15,2)"), ("c_mktsegment", "string"), ("c_comment", "string")],
        {
            "c_name": "concat('Customer#', lpad(cast({id} as string), 9, '0'))",
            "c_address": f"substr(sha2(cast({_h(1)} as string), 256), 1, 10 + cast({_pick(2, 30)} as int))",
            "c_nationkey": _pick(3, n_nation),
            "c_phone": (f"concat(cast(10 + {_pick(3, n_nation)} as string), '-', "
                        f"cast(100 + {_pick(4, 900)} as string), '-', "
                        f"cast(100 + {_pick(5, 900)} as string), '-', cast(1000 + {_pick(6, 9000)} as string))"),
            "c_acctbal": f"cast(({_pick(7, 1099999)} - 99999) / 100 as decimal(15,2))",
            "c_mktsegment": "element_at(array('AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'), "
                            f"cast({_pick(8, 5)} as int) + 1)",
            "c_comment": f"substr(sha2(cast({_h(9)} as string), 512), 1, 29 + cast({_pick(10, 88)} as int))",
        },
        ["c_address", "c_nationkey", "c_phone", "c_acctbal", "c_mktsegment"],
        size=root_rows, first_key=1,
        outputs=["c_custkey", "c_name", "c_address", "c_phone", "c_acctbal", "c_mktsegment"],
    )
    nation = Rel(
        "nation", "n_nationkey",
        [("n_nationkey", "bigint"), ("n_name", "string"), ("n_regionkey", "bigint"), ("n_comment", "string")],
        {"n_name": "concat('NATION', cast({id} as string))", "n_regionkey": _pick(11, n_region),
         "n_comment": f"substr(sha2(cast({_h(12)} as string), 512), 1, 31 + cast({_pick(13, 80)} as int))"},
        ["n_name", "n_regionkey", "n_comment"],
        size=n_nation, first_key=0, parent="customer", fk="c_nationkey", outputs=["n_name"],
    )
    region = Rel(
        "region", "r_regionkey",
        [("r_regionkey", "bigint"), ("r_name", "string"), ("r_comment", "string")],
        {"r_name": "concat('REGION', cast({id} as string))",
         "r_comment": f"substr(sha2(cast({_h(14)} as string), 512), 1, 31 + cast({_pick(15, 80)} as int))"},
        ["r_name", "r_comment"],
        size=n_region, first_key=0, parent="nation", fk="n_regionkey", outputs=["r_name"],
    )
    return Workload("tpch", [customer, nation, region])


def chain(root_rows: int) -> Workload:
    n_addr = max(1, root_rows // 2)
    n_city = max(1, n_addr // 100)
    n_country = min(200, max(5, root_rows // 5000))
    customer = Rel(
        "customer", "c_id",
        [("c_id", "bigint"), ("c_name", "string"), ("c_addr", "bigint"), ("c_score", "int"), ("c_segment", "string")],
        {"c_name": "concat('cust-', cast({id} as string))", "c_addr": _pick(1, n_addr),
         "c_score": f"cast({_pick(2, 1000)} as int)",
         "c_segment": f"element_at(array('A', 'B', 'C', 'D', 'E'), cast({_pick(3, 5)} as int) + 1)"},
        ["c_addr", "c_score", "c_segment"],
        size=root_rows, outputs=["c_id", "c_name", "c_score", "c_segment"],
    )
    address = Rel(
        "address", "a_id",
        [("a_id", "bigint"), ("a_street", "string"), ("a_zip", "int"), ("a_city", "bigint")],
        {"a_street": f"concat('street-', cast({_pick(4, 100000)} as string))",
         "a_zip": f"cast({_pick(5, 99999)} as int)",
         "a_city": _pick(6, n_city)},
        ["a_street", "a_zip", "a_city"],
        size=n_addr, parent="customer", fk="c_addr", outputs=["a_street", "a_zip"],
    )
    city = Rel(
        "city", "ci_id",
        [("ci_id", "bigint"), ("ci_name", "string"), ("ci_pop", "int"), ("ci_country", "bigint")],
        {"ci_name": "concat('city-', cast({id} as string))", "ci_pop": f"cast({_pick(7, 10000000)} as int)",
         "ci_country": _pick(8, n_country)},
        ["ci_pop", "ci_country"],
        size=n_city, parent="address", fk="a_city", outputs=["ci_name", "ci_pop"],
    )
    country = Rel(
        "country", "co_id",
        [("co_id", "bigint"), ("co_name", "string"), ("co_code", "string")],
        {"co_name": "concat('country-', cast({id} as string))",
         "co_code": f"upper(substr(sha2(cast({_h(9)} as string), 256), 1, 2))"},
        ["co_name", "co_code"],
        size=n_country, parent="city", fk="ci_country", outputs=["co_name", "co_code"],
    )
    return Workload("chain", [customer, address, city, country])


WORKLOADS = {"tpch": tpch, "chain": chain}


def declaration(w: Workload, feed_suffix: str, state_suffix: str = "", source: str = "bench") -> dict:
    """the dimension view over `w`; states <table><state_suffix>, feeds <table><feed_suffix>"""
    rels = {}
    for r in w.rels:
        d = {
            "state": ([source, w.table(r, state_suffix)] if not state_suffix.startswith("@")
                      else w.table(r, state_suffix[1:])),
            "changes": ([source, w.table(r, feed_suffix)] if not feed_suffix.startswith("@")
                        else w.table(r, feed_suffix[1:])),
            "key": [r.key],
            "technique": "any",
            "columns": list(r.outputs),
        }
        if r.parent:
            d["join"] = {"to": r.parent, "on": {r.fk: r.key}}
        rels[r.name] = d
    return {"root": w.root.name, "relations": rels}
