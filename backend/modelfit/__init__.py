"""Reading an experiment's measurements for the queueing models (the models' one data path)."""
