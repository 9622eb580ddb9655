"""What a rehearsal testbed is and is not like the cloud it rehearses: the sentences the API
serves with every rehearsal and the Testbeds page shows on its card (one home for them)."""

LIKE_THE_CLOUD: tuple[str, ...] = (
    "one host per role VM of the plan (servers, middlewares, clients), each with its own "
    "address on one private network and reached over SSH like a VM",
    "each host's outgoing traffic is capped (tc tbf) at its VM size's network bandwidth, so a "
    "link that would saturate on Azure saturates here at the same rate",
    "the same design runs on it unchanged: same tools, same command lines, same measurements",
)
UNLIKE_THE_CLOUD: tuple[str, ...] = (
    "the CPUs are this machine's, shared by every host: a VM size's vCPUs and memory are not "
    "reproduced, so a CPU-bound result (sets, the middleware's workers) is this machine's, "
    "not the VM size's",
    "no delay between hosts beyond this machine's own (well under a millisecond; Azure's round "
    "trips are about 1 ms)",
    "no noisy neighbours, no CPU steal, no day-to-day variation, no cost, no quota",
    "the jump host, the public addresses, the image and the region of the plan are not rehearsed",
)
