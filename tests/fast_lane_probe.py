"""Run only by tests/test_fast_lane.py (the name keeps pytest from collecting it in a suite run):
one test that starts Spark without the `spark` marker, one that carries it."""
import pytest


def test_unmarked_test_that_starts_spark():
    from pyspark.sql import SparkSession

    SparkSession.builder.master("local[1]").getOrCreate()


@pytest.mark.spark
def test_marked_test_that_starts_spark():
    raise AssertionError("make test-fast must deselect a test marked spark")
