"""The rules an Azure lab's values obey, written once: VM size names, the retired sizes and
their successors, the cap on VMs and the bounds of a lab's expiry. The engine's spec
(backend/azure/lab_spec.py), the API's schemas and the topology templates read them here;
standard library only, so any layer may."""

# Current sizes follow `Standard_<family><vcpus>[...]`, e.g. Standard_A2_v2, Standard_D4s_v5.
SIZE_PATTERN = r"^Standard_[A-Z]{1,3}[0-9]+(?:-[0-9]+)?[a-z]*(?:_[A-Za-z0-9]+)*$"

# The reports used Basic A1 servers, A2 clients and A4 middlewares. The Basic/Standard A0-A7
# sizes were retired in 2024; the Av2 series is their direct successor with the same vCPU
# count (A1: 1 vCPU/1.75 GB -> A1_v2: 1/2 GB, A2: 2/3.5 -> A2_v2: 2/4, A4: 8/14 -> A8_v2: 8/16).
RETIRED_SIZES: dict[str, str] = {
    "Basic_A1": "Standard_A1_v2",
    "Basic_A2": "Standard_A2_v2",
    "Basic_A4": "Standard_A8_v2",
    "Standard_A1": "Standard_A1_v2",
    "Standard_A2": "Standard_A2_v2",
    "Standard_A4": "Standard_A8_v2",
}

# Cost guard: a typo such as 70 instead of 7 should not start 70 VMs.
MAX_VMS = 24
# Every testbed expires (its resource group carries the time); a week at most, and an hour at
# least: creating one may take that long (backend/azure/lab_creation.py), and a testbed that expires
# before it is ready is deleted before it is used.
DEFAULT_EXPIRY_HOURS = 4.0
MIN_EXPIRY_HOURS = 1.0
MAX_EXPIRY_HOURS = 168.0
