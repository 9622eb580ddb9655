"""Azure lab provisioning for mcscope through the az CLI (no Azure SDK): see infra/README.md."""
