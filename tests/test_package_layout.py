"""The package ships only what a project that installs it runs (#18, "Layout"): the repository
root is the dbt package pdelta — its macros and the four project-wide data tests every installing
project gets (docs/use-in-your-project.md, step 4) — and the paper's example, the demo and the
test lanes' models, seeds, data tests and operations are the dbt project integration_tests/, which
installs the package from `../` like any user project. `dbt parse` of that project (no warehouse
connection: no Spark) finds the paper's models built by the package's materializations."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from pdelta_env import INTEGRATION, ROOT, integration_deps

# the package's data tests, run in every project that installs it (tests/dbt/)
PACKAGE_DATA_TESTS = {"batch_log_state_kept", "dimension_view_keys_unique", "dimension_views_self_maintainable",
                      "complements_reconstruct_states"}
DEFINED = re.compile(r"{%-?\s*(?:macro|test|materialization)\s+(\w+)")
REF = re.compile(r"""\bref\(\s*['"](\w+)['"]""")


def _config(project: Path) -> dict:
    return yaml.safe_load((project / "dbt_project.yml").read_text())


def _files(project: Path, key: str, default: list[str]) -> list[Path]:
    """the files under the project's `key` folders (dbt's default folders when not set)"""
    return sorted(p for folder in _config(project).get(key, default) for p in (project / folder).rglob("*")
                  if p.is_file())


def _macro_names(project: Path) -> set[str]:
    return {name for f in (project / "macros").rglob("*.sql") for name in DEFINED.findall(f.read_text())}


def test_the_package_ships_no_models_seeds_snapshots_or_analyses():
    for key, default in (("model-paths", ["models"]), ("seed-paths", ["seeds"]),
                         ("snapshot-paths", ["snapshots"]), ("analysis-paths", ["analyses"])):
        assert _files(ROOT, key, default) == [], f"the package's {key} hold files: they would ship to every user"
    assert not (ROOT / "models").exists() and not (ROOT / "seeds").exists()


def test_the_packages_data_tests_are_the_project_wide_ones():
    shipped = {p.stem for p in _files(ROOT, "test-paths", ["tests"]) if p.suffix == ".sql"}
    assert shipped == PACKAGE_DATA_TESTS
    assert [p for p in _files(ROOT, "test-paths", ["tests"]) if p.suffix != ".sql"] == []


def test_no_package_macro_is_the_integration_projects():
    """nothing test-only among the package's macros: none of the integration project's macros
    (the paper's example, the lanes' operations, the grants stand-in), none of its models or seeds
    named in a ref(), no test-only description in macros/macros.yml"""
    package, integration = _macro_names(ROOT), _macro_names(INTEGRATION)
    assert package & (integration - {"spark__load_csv_rows"}) == set()
    assert sorted(n for n in package if n.startswith(("paper_", "assert_", "occupy_", "drift_"))
                  and n != "assert_contract") == []
    own = ({p.stem for p in (INTEGRATION / "models").rglob("*.sql")}
           | {p.stem for p in (INTEGRATION / "seeds").rglob("*.csv")})
    named = {(f.relative_to(ROOT).as_posix(), m) for f in (ROOT / "macros").rglob("*.sql")
             for m in REF.findall(f.read_text()) if m in own}
    assert named == set()
    docs = (ROOT / "macros" / "macros.yml").read_text().lower()
    for phrase in ("test lane", "make test only", "test-suite"):
        assert phrase not in docs, phrase


def test_the_integration_project_installs_the_package_from_the_repository():
    config = _config(INTEGRATION)
    assert config["name"] != "pdelta" and config["profile"] == _config(ROOT)["profile"]
    assert yaml.safe_load((INTEGRATION / "packages.yml").read_text()) == {"packages": [{"local": "../"}]}
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "dbt_packages/" in ignored and "target/" in ignored  # any folder's, integration_tests/ too
    assert "integration_tests/package-lock.yml" in ignored


def test_the_integration_project_parses_with_the_packages_materializations(tmp_path):
    """dbt parse of integration_tests/ (this process; the fast lane refuses a Spark start): the
    paper's models, seeds and data tests, the package's four data tests, and the dimension_view,
    mirror and capture materializations found in package pdelta"""
    from dbt.cli.main import dbtRunner

    project = integration_deps()
    res = dbtRunner().invoke(["parse", "--project-dir", str(project), "--profiles-dir", str(ROOT),
                              "--target-path", str(tmp_path / "target"), "--no-partial-parse", "--quiet"])
    assert res.success, res.exception
    manifest = res.result
    nodes = {(n.resource_type.value, n.name): n for n in manifest.nodes.values()}
    models = {name: n for (kind, name), n in nodes.items() if kind == "model"}
    assert {"paper_d", "paper_d_diff", "paper_cust_mirror", "paper_addr_mirror", "algebra_computed",
            "smoke_delta"} <= set(models)
    assert models["paper_d"].config.materialized == "dimension_view"
    assert models["paper_cust_mirror"].config.materialized == "mirror"
    assert {n.package_name for n in models.values()} == {"pdelta_integration_tests"}
    assert {n.config.get("file_format") for n in models.values()} == {"delta"}
    seeds = {name: n for (kind, name), n in nodes.items() if kind == "seed"}
    assert {"paper_cust_old", "algebra_expected", "seed_traps"} <= set(seeds)
    assert {n.config.get("file_format") for n in seeds.values()} == {"delta"}
    tests = {name: n.package_name for (kind, name), n in nodes.items() if kind == "test"}
    assert {tests[t] for t in PACKAGE_DATA_TESTS} == {"pdelta"}
    assert tests["paper_cost_rebuild_modes"] == tests["seed_traps_load_intact"] == "pdelta_integration_tests"
    for materialization in ("dimension_view", "mirror", "capture"):
        found = manifest.find_materialization_macro_by_name("pdelta_integration_tests", materialization, "spark")
        assert found is not None and found.package_name == "pdelta", materialization
    # the example's macros resolve in the integration project, the package's in pdelta
    d_macros = set(models["paper_d"].depends_on.macros)
    assert "macro.pdelta_integration_tests.paper_d_declaration" in d_macros
    assert "macro.pdelta.dimension_view" in d_macros
    # the package overrides one of dbt's own macros, the seed loader users turn on (not dbt's grant
    # statements: the lanes' stand-in for a catalog's grants is the integration project's)
    builtin = {m.name for m in manifest.macros.values() if m.package_name in ("dbt", "dbt_spark")}
    package = {m.name for m in manifest.macros.values() if m.package_name == "pdelta"}
    assert package & builtin == {"spark__load_csv_rows"}
    assert {"spark__get_grant_sql", "spark__get_revoke_sql", "spark__get_show_grant_sql"} <= {
        m.name for m in manifest.macros.values() if m.package_name == "pdelta_integration_tests"}
    # the package's seed loader serves this project's seeds through its one-line override
    assert manifest.macros["macro.pdelta_integration_tests.spark__load_csv_rows"].depends_on.macros == [
        "macro.pdelta.spark__load_csv_rows"]
