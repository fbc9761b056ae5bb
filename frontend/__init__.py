"""Producers of KTIR from other front ends: ``ktc.frontend.pytorch`` takes PyTorch
programs (``torch.compile(model, backend="ktc")``) to KTIR kernels, compiles them with
the normal pipeline and runs them on a device. Only this room imports ``torch``."""
