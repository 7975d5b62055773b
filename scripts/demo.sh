#!/usr/bin/env bash
# make demo: the paper's running example on the embedded local Spark session, in the repository's
# own dbt project integration_tests/ (which installs pdelta from the repository root).
# 0. install the package (dbt deps), 1. load the example (seeds), 2. build the dimension view D
# in full from the OLD states, 3. switch the states to NEW and append the captured partial deltas
# to the change feeds, 4. refresh D incrementally and print it with the six-set change feed it
# published.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export PDELTA_LOCAL_DIR="$PDELTA_HOME/.pdelta/demo"
echo "[demo] Spark state in .pdelta/demo (embedded session, Delta Lake)"
cd integration_tests
python -m pdelta.runner \
  "deps --quiet" \
  "seed --target local --full-refresh --select path:seeds/paper" \
  "run --target local --full-refresh --vars '{paper_stage: old}' --select paper_cust paper_addr paper_cust_changes \
paper_addr_changes paper_d paper_d_diff" \
  "show --target local --limit 50 --inline \"select * from {{ ref('paper_d') }} order by cid\"" \
  "run --target local --vars '{paper_stage: new}' --select paper_cust paper_addr paper_cust_changes \
paper_addr_changes paper_d paper_d_diff" \
  "show --target local --limit 50 --inline \"select * from {{ ref('paper_d') }} order by cid\"" \
  "show --target local --limit 50 --inline \"select cid, _pdelta_type as change, cname, caddr, acity, acountry, \
_pdelta_before as before_image, _pdelta_seq as batch \
from {{ pdelta.meta_relation(ref('paper_d'), 'changes') }} order by cid\"" \
  "show --target local --limit 50 --inline \"select cid, _pdelta_type as change, cname, caddr, acity, acountry, \
_pdelta_before as before_image, _pdelta_seq as batch \
from {{ pdelta.meta_relation(ref('paper_d_diff'), 'changes') }} order by cid\""
cat <<'TXT'

[demo] Above: D built from the old states, then D after one incremental refresh, then the
[demo] change feed D published with the paper's rules (pdelta_plan: rules): ins 4, ups 1, upd 2,
[demo] delk 3 (paper Example 5). The discount-only update of customer 1 was ineffective; Addr's
[demo] partial update of 1 became an upsert. Last, the same refresh with the default diff plan
[demo] (paper_d_diff): the same view, its changes labelled completely: ins 1, upd 2, del 3, ins 4.
TXT
