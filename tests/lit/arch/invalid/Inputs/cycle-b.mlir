// Imports the device that imports it.

ktdf_arch.device @b import("../import-cycle.mlir")
