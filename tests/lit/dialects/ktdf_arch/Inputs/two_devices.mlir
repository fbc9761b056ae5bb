// Two devices in one file: not something --arch can import.

ktdf_arch.device @first {
  %ddr = memory {kind = "DDR"}
}
ktdf_arch.device @second {
  %ddr = memory {kind = "DDR"}
}
