# Sourced by the test scripts (make test, make test-cluster): Spark settings for tiny test data.
# Adaptive execution and whole-stage codegen only add planning time per statement on tiny data.
export PDELTA_SPARK_ADAPTIVE=${PDELTA_SPARK_ADAPTIVE:-false} PDELTA_SPARK_CODEGEN=${PDELTA_SPARK_CODEGEN:-false}
# Four JVMs share the cores and each compiles Spark's planner anew: G1's concurrent marking and
# C2 compiles of code that runs a few thousand times were a fifth of the JVMs' CPU. The parallel
# collector and 3x the C2 (tier 4) thresholds: 187 s instead of 234 s of JVM CPU for the local lane.
# C2 still spent 185 of the randomized test's 573 JVM CPU s compiling (-XX:+CITime; 52 s of it
# allocating registers in large inlined graphs): shallower inlining (levels 6, not 15; inline only
# callees under 1,000 bytes of code and hot ones under 100 bytecodes) halves C2's work for code
# that is a little slower (C1 alone, no C2: 856 against 615 CPU s, the first with other work on
# the machine).
export PDELTA_JVM_OPTIONS=${PDELTA_JVM_OPTIONS-"-XX:+UseParallelGC -XX:Tier4InvocationThreshold=15000 \
-XX:Tier4MinInvocationThreshold=1800 -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000 \
-XX:MaxInlineLevel=6 -XX:InlineSmallCode=1000 -XX:FreqInlineSize=100"}
# Heaps: make test runs six Spark drivers at once (two Thrift Servers, the embedded sessions of the local
# lane, randomized, capture and cluster streams, then the bench smoke's), two workers and their executors on
# 24 GiB. At 4g each (the profiles' default) the machine had 2.8 GiB left at the peak of a clean-clone run,
# and a seventh JVM beside it got a stream killed by the kernel's OOM killer; the tests' tables are tiny.
export PDELTA_DRIVER_MEMORY=${PDELTA_DRIVER_MEMORY:-3g} PDELTA_THRIFT_DRIVER_MEMORY=${PDELTA_THRIFT_DRIVER_MEMORY:-3g}
# dbt's JSON artifacts (manifest.json twice per command, run_results.json): no test reads them
# (pdelta parses the manifest in memory), and writing them cost ~0.3 s of Python per command
export DBT_WRITE_JSON=${DBT_WRITE_JSON:-false}
