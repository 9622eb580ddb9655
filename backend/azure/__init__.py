"""The Azure engine: everything mcscope asks of Azure, one module per job.

Why here, in the backend package: the API (plans, the untracked groups) and the worker (lab
creation, stop, start, delete, the janitor) both run it, and both already import `backend` for
the models, the settings and the database; the command-line tool (`python -m infra.azure`)
is one more front end over it. In `infra/` (the deployment folder) it made the backend import
the deployment folder and the deployment folder import the backend back; now `backend` and
`worker` import nothing from `infra` (a contract in pyproject.toml, checked by
backend/tests/test_import_rules.py), and `infra/azure/` keeps only the CLI.

- What a lab is: `lab_spec` (the validated topology, VM size names), `resource_plan` (the ARM
  bodies in creation order, the tags), `cloud_init` (each VM's host key and first-boot set-up).
- What it costs and whether it fits: `retail_prices` (the Retail Prices API), `vcpu_quota`
  (the region's vCPU quota), `plan_preview` (what the New Azure testbed page shows).
- Making and unmaking it: `arm` (the SDK clients, from the settings), `provisioning` (create
  with rollback, resume, status, deallocate, start, delete), `lab_creation` (a lab recorded in
  the database created and registered as a testbed), `lab_power` (stop, start, delete a
  recorded lab).
- Keeping Azure and the database in step: `resource_groups` (mcscope's tagged groups, the
  untracked ones), `janitor` (the periodic sweep: expiry, dead workers' labs, leftovers, idle
  testbeds).

The Celery tasks (worker/tasks/azure.py) only unpack their arguments and call into these.
"""
