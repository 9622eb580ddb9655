"""Rehearsal testbeds: an Azure plan's role VMs built as network-namespace hosts on this
machine, each link capped at its VM size's bandwidth, registered as a testbed of kind
`rehearsal` and torn down like an Azure testbed (Delete, expiry, the janitor).

Why in backend/: the API answers a rehearsal request at once with what this machine lacks
(capabilities), which plan it cannot take (topology) and what a rehearsal is and is not like
the cloud (fidelity), and the backend imports neither the worker nor infra's deployment code;
the worker (worker/rehearsal) calls build and teardown here, as it calls the Azure engine.
The namespace hosts (netns) are also what the worker's tests and the fake Azure's VMs are."""
