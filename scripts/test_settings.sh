# Sourced by the test scripts (make test, make test-cluster): Spark settings for tiny test data.
# Adaptive execution and whole-stage codegen only add planning time per statement on tiny data.
export PDELTA_SPARK_ADAPTIVE=${PDELTA_SPARK_ADAPTIVE:-false} PDELTA_SPARK_CODEGEN=${PDELTA_SPARK_CODEGEN:-false}
# Four JVMs share the cores and each compiles Spark's planner anew: G1's concurrent marking and
# C2 compiles of code that runs a few thousand times were a fifth of the JVMs' CPU. The parallel
# collector and 3x the C2 (tier 4) thresholds: 187 s instead of 234 s of JVM CPU for the local lane.
export PDELTA_JVM_OPTIONS=${PDELTA_JVM_OPTIONS-"-XX:+UseParallelGC -XX:Tier4InvocationThreshold=15000 \
-XX:Tier4MinInvocationThreshold=1800 -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000"}
# dbt's JSON artifacts (manifest.json twice per command, run_results.json): no test reads them
# (pdelta parses the manifest in memory), and writing them cost ~0.3 s of Python per command
export DBT_WRITE_JSON=${DBT_WRITE_JSON:-false}
