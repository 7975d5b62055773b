# pdelta: the two commands a newcomer runs are `make demo` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

setup: ## virtualenv with the pinned stack, pdelta helper package, Delta jars (idempotent)
	@bash scripts/bootstrap.sh

demo: setup ## build the paper's running example on the embedded Spark session and print it
	@bash scripts/demo.sh

test: setup ## everything: pytest, dbt build on the local session, a Thrift Server and a Spark cluster
	@bash scripts/test.sh

test-fast: setup ## the tests that start no Spark (algebra, declarations, validate, options, docs, CLI), ~1.5 min
	@source scripts/env.sh && PDELTA_NO_SPARK=1 python -m pytest tests -m "not spark" -q -p no:cacheprovider --durations=3

test-deep: setup ## the test suite with the deep randomized mode (2,000+ scenarios)
	@PDELTA_DEEP=1 bash scripts/test.sh

bench: setup ## benchmark: rebuild vs affected-keys MERGE vs pdelta, 1M and 10M rows (docs/bench/)
	@bash scripts/bench.sh

bench-smoke: setup ## the benchmark harnesses on a few thousand rows, checked equal to rebuilds (part of make test)
	@source scripts/env.sh && PDELTA_LOCAL_DIR="$$PDELTA_HOME/.pdelta/tests/bench-smoke" \
		python -m pytest tests/test_bench_smoke.py -q -p no:cacheprovider

bench-large: setup ## the benchmark at 100M root rows (long)
	@bash scripts/bench.sh large

bench-adapt: setup ## view adaptation vs rebuild: predicate, column and leaf changes, 1M/10M rows (docs/bench/adapt.md)
	@bash scripts/bench.sh adapt

thrift-start: setup ## start a local Spark Thrift Server with Delta (prints its port)
	@bash scripts/thrift_server.sh start

thrift-stop: ## stop the Thrift Server started by thrift-start
	@bash scripts/thrift_server.sh stop

test-cluster: setup ## make test's cluster lane alone, with every kill point (paper's D, a randomized shape)
	@bash scripts/test_cluster.sh

cluster-start: setup ## start a Spark standalone cluster on 127.0.0.1: a master, two workers (prints its URL)
	@bash scripts/spark_cluster.sh start

cluster-stop: ## stop the cluster started by cluster-start
	@bash scripts/spark_cluster.sh stop

clean: ## remove local Spark state (warehouses, metastores, dbt target); keeps venv and jars
	@bash scripts/thrift_server.sh stop || true
	@bash scripts/spark_cluster.sh stop || true
	rm -rf .pdelta/local .pdelta/thrift .pdelta/cluster .pdelta/tests target logs integration_tests/target \
		integration_tests/logs

.PHONY: help setup demo test test-fast test-deep test-cluster bench bench-smoke bench-large bench-adapt \
	thrift-start thrift-stop cluster-start cluster-stop clean
