"""Set-up of this machine: the install, services, sshd, start/stop and test-lane scripts, and
`shaping`, the name the tests and scripts use for the link caps of backend/rehearsal/shaping.py."""
