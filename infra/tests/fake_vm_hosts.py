"""The fake Azure's VMs as real hosts: each VM is a network namespace on its subnet's bridge,
with the NIC's private address and an sshd that serves the host key from the VM's cloud-init
custom data and lets in the login key from its osProfile (what cloud-init and walinuxagent do
on a real VM). Built from the worker tests' namespace pieces (worker/tests/drivers/netns.py).

Network: each VM's link is capped at its size's published bandwidth (backend/domain/vm_sizes.py,
the basis FAKE_BASIS; Azure caps a VM's egress by its size), so every Azure test runs on a
cloud-shaped network; a size without a figure (the B-series: Azure publishes none) is unshaped.
The Azure worker records the same cap on the hosts it registers (backend/azure/lab_creation.py).

Logins: the VM's adminUsername is admitted without creating a system user: `ip netns exec`
binds /etc/netns/<namespace>/passwd over /etc/passwd for the namespace's sshd, and that copy
names the admin user with uid 0 (the tests run as root), home /root."""

from __future__ import annotations

import base64
import ipaddress
import pwd
import shutil
import uuid
from pathlib import Path

import yaml

from backend.domain.vm_sizes import Basis, bandwidth
from backend.rehearsal.shaping import LinkCap, egress_cap_mbit_s
from worker.tests.drivers.netns import Bridge, NetnsHost

FAKE_BASIS: Basis = "published"


def size_cap(size: str) -> LinkCap | None:
    """The link a VM of `size` gets in the fake: its published bandwidth, None without one."""
    fig = bandwidth(size, FAKE_BASIS)
    return None if fig is None else LinkCap(fig.value, FAKE_BASIS)


def host_key_from_custom_data(encoded: str) -> str:
    """The ed25519 private key a VM's custom data installs (cloud-init's ssh_keys), read as
    cloud-init reads it: base64, then YAML after the #cloud-config line."""
    doc = yaml.safe_load(base64.b64decode(encoded).decode())
    key: str = doc["ssh_keys"]["ed25519_private"]
    return key


def _passwd_with(admin_user: str) -> str:
    # The system's accounts through the name service (sshd needs its privilege-separation
    # user), not a file path: written back in passwd(5) form.
    kept = [
        f"{e.pw_name}:x:{e.pw_uid}:{e.pw_gid}:{e.pw_gecos}:{e.pw_dir}:{e.pw_shell}"
        for e in pwd.getpwall()
        if e.pw_name != admin_user
    ]
    # After root's line, so uid 0 still reads back as root (sshd.sh, ps); sshd finds the
    # admin user by name.
    return "\n".join([*kept, f"{admin_user}:x:0:0:fake Azure admin:/root:/bin/bash"]) + "\n"


class VmHosts:
    """Namespaces and bridges the fake made; every address lies inside `allowed` (a network
    the test chose), so the fake never configures any other."""

    def __init__(self, state_root: Path, allowed: ipaddress.IPv4Network) -> None:
        self.state_root = state_root
        self.allowed = allowed
        self.tag = uuid.uuid4().hex[:4]
        self._bridges: dict[str, Bridge] = {}  # subnet prefix -> bridge
        self._hosts: dict[str, NetnsHost] = {}  # VM id -> host
        self._count = 0

    def check_subnet(self, prefix: str) -> str | None:
        """None if the fake may put hosts on `prefix`, else why not."""
        net = ipaddress.ip_network(prefix)
        if not isinstance(net, ipaddress.IPv4Network) or not net.subnet_of(self.allowed):
            return f"the fake Azure puts hosts only inside {self.allowed}, not {prefix}"
        return None

    def _bridge(self, prefix: str) -> Bridge:
        if prefix not in self._bridges:
            net = ipaddress.ip_network(prefix)
            # Azure's subnet gateway is the first address: here, the bridge's.
            bridge = Bridge(f"azbr{self.tag}{len(self._bridges)}", f"{net[1]}/{net.prefixlen}")
            bridge.up()
            self._bridges[prefix] = bridge
        return self._bridges[prefix]

    def create(
        self,
        vm_id: str,
        address: str,
        prefix: str,
        custom_data: str,
        admin_user: str,
        login_keys: list[str],
        size: str | None = None,
    ) -> NetnsHost:
        """Boot the VM: namespace, address, link shaped as its size, host key, login keys,
        sshd."""
        self._count += 1
        name = f"az{self.tag}{self._count}"
        state = self.state_root / name
        state.mkdir(parents=True)
        state.chmod(0o700)
        key_file = state / "ssh_host_ed25519_key"
        key_file.write_text(host_key_from_custom_data(custom_data))
        key_file.chmod(0o600)
        authorized = state / "login_keys"
        authorized.write_text("".join(k.strip() + "\n" for k in login_keys))
        host = NetnsHost(
            name,
            address,
            state,
            prefixlen=ipaddress.ip_network(prefix).prefixlen,
            authorized_keys=authorized,
            allow_users=admin_user,
            etc_files={"passwd": _passwd_with(admin_user)},
            cap=None if size is None else size_cap(size),
        )
        self._hosts[vm_id] = host
        host.up(self._bridge(prefix))
        return host

    def host(self, vm_id: str) -> NetnsHost:
        return self._hosts[vm_id]

    def deallocate(self, vm_id: str) -> None:
        self._hosts[vm_id].stop_sshd()

    def start(self, vm_id: str) -> None:
        self._hosts[vm_id].start_sshd()

    def delete(self, vm_id: str) -> None:
        host = self._hosts.pop(vm_id, None)
        if host is not None:
            host.down()
            shutil.rmtree(host.state_dir, ignore_errors=True)

    def delete_bridge(self, prefix: str) -> None:
        bridge = self._bridges.pop(prefix, None)
        if bridge is not None:
            bridge.down()

    def link_caps(self) -> dict[str, float | None]:
        """Each VM's address -> the egress cap its link has in the kernel (None: unshaped)."""
        return {h.address: egress_cap_mbit_s(h.name, h.device) for h in self._hosts.values()}

    def namespaces(self) -> list[str]:
        return [h.name for h in self._hosts.values()]

    def close(self) -> None:
        for vm_id in list(self._hosts):
            self.delete(vm_id)
        for prefix in list(self._bridges):
            self.delete_bridge(prefix)
