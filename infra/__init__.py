"""The deployment folder: this machine's set-up (local/), host set-up for remote testbeds (hosts/),
the Docker image (docker/), the Azure command-line front end over backend/azure (azure/) and the
fake Azure Resource Manager of the tests (tests/). The product (backend, worker) imports
nothing from here (the product-without-infra import contract)."""
