// A device whose memory has no kind: --arch reports the error in this file.

ktdf_arch.device @broken {
  %ddr = memory {size = 1024}
}
