"""`make bench`: pdelta's refresh against a full rebuild and against the expert affected-keys
MERGE, on generated TPC-H-shaped and four-level-chain data, across change ratios and base
sizes (issue #7). `python -m pdelta.bench --help`."""
