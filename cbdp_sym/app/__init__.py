"""Layer 8, app: the command line (cli), audits of many claims (audit), discovery of paper folders (registry),
worker processes (workers) and executors (local pool or Dask: executor), the new-paper scaffold (scaffold).
Imports the layers below.
"""
