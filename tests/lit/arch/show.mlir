// `ktc arch show` prints a device's memories and sizes, engines and features,
// datapaths with bandwidth, latency, granularity and queue, the main routes (to the
// matrix unit too), the roofline constants, the compute roofline beside the
// bandwidth one (per operand type: the flops of the matrix unit that takes it, else
// the SIMD engine's fma, the device memory bandwidth and the ridge point) and the
// figures marked as example values. The toy device is shown whole; Spyre and the
// third chip (no matrix unit) by their telling lines.

// RUN: ktc arch show toy | filecheck %s --check-prefix=TOY
// RUN: ktc arch show spyre | filecheck %s --check-prefix=SPYRE
// RUN: ktc arch show %S/Inputs/line4.mlir | filecheck %s --check-prefix=LINE
// RUN: ktc arch show %S/Inputs/untimed.mlir | filecheck %s --check-prefix=UNTIMED

// TOY:      device @toy ({{.*}}arch/toy.mlir)
// TOY-NEXT:   cores: 2 cores on a ring, 1 sub-core(s) per core
// TOY-NEXT:   clock: 100 MHz
// TOY-NEXT:   compute: SFU; device memory: DDR; scratchpad: L1
// TOY-NEXT:   memory spaces: global -> DDR, ct_local -> L1
// TOY-NEXT:   interconnect: ring through RING, 8 B/cycle per direction, 2 cycles per hop
// TOY-EMPTY:
// TOY-NEXT: memories
// TOY-NEXT:   kind     size    count  parent  port B/cycle
// TOY-NEXT:   DDR      1 MiB   1      -       16
// TOY-NEXT:   L1       64 KiB  2      DDR     -
// TOY-NEXT:   SFU_REG  256 B   2      L1      -
// TOY-NEXT:   PT_ACC   512 B   2      L1      -
// TOY-EMPTY:
// TOY-NEXT: engines
// TOY-NEXT:   kind   count  features                      lanes                        issue cycles                               word sizes    beside
// TOY-NEXT:   MNILU  2      load                          -                            -                                          DDR=16 L1=16  L1
// TOY-NEXT:   MNISU  2      store                         -                            -                                          DDR=16 L1=16  L1
// TOY-NEXT:   RING   2      load, store                   -                            -                                          L1=16         L1
// TOY-NEXT:   SFU    2      compute, simd                 f16=8 !spyreop.df16=8 f32=4  plain=1 transcendental=4 reduction_step=1  -             SFU_REG
// TOY-NEXT:   L1LU   2      load, simd (splat, zero_pad)  -                            -                                          -             -
// TOY-NEXT:   L1SU   2      store                         -                            -                                          -             -
// TOY-NEXT:   PT     2      matrix                        2x8 f16->f32                 step=1 fill=2 drain=2                      -             PT_ACC
// TOY-EMPTY:
// TOY-NEXT: datapaths of core 0, sub-core 0 (and its interconnect links)
// TOY-NEXT:   from       to         kind  B/cycle  latency  granularity  queue (beats x bytes)
// TOY-NEXT:   DDR        MNILU[0]   -     16       10       16           -
// TOY-NEXT:   MNILU[0]   L1[0]      -     16       10       16           -
// TOY-NEXT:   L1[0]      MNISU[0]   -     16       10       16           -
// TOY-NEXT:   MNISU[0]   DDR        -     16       10       16           -
// TOY-NEXT:   L1[0]      RING[0]    -     16       1        -            -
// TOY-NEXT:   RING[0]    L1[0]      -     16       1        -            -
// TOY-NEXT:   L1[0]      L1LU[0.0]  -     16       1        -            2 x 16, ordered
// TOY-NEXT:   L1LU[0.0]  SFU[0.0]   fifo  16       1        16, 2        2 x 16, ordered
// TOY-NEXT:   SFU[0.0]   L1SU[0.0]  fifo  16       1        16, 2        2 x 16, ordered
// TOY-NEXT:   L1SU[0.0]  L1[0]      -     16       1        -            2 x 16, ordered
// TOY-NEXT:   L1LU[0.0]  PT[0.0]    fifo  16       1        16           16 x 16, ordered
// TOY-NEXT:   PT[0.0]    L1SU[0.0]  fifo  16       1        16           16 x 16, ordered
// TOY-NEXT:   RING[0]    RING[1]    ring  8        2        -            -
// TOY-EMPTY:
// TOY-NEXT: routes
// TOY-NEXT:   from      to        via                       hops  slowest B/cycle  latency
// TOY-NEXT:   DDR       SFU[0.0]  MNILU[0] L1[0] L1LU[0.0]  4     16               22
// TOY-NEXT:   SFU[0.0]  DDR       L1SU[0.0] L1[0] MNISU[0]  4     16               22
// TOY-NEXT:   DDR       L1[0]     MNILU[0]                  2     16               20
// TOY-NEXT:   DDR       PT[0.0]   MNILU[0] L1[0] L1LU[0.0]  4     16               22
// TOY-NEXT:   PT[0.0]   DDR       L1SU[0.0] L1[0] MNISU[0]  4     16               22
// TOY-NEXT:   L1[0]     L1[1]     RING[0] RING[1]           3     8                4
// TOY-EMPTY:
// TOY-NEXT: roofline
// TOY-NEXT:   constant                      value
// TOY-NEXT:   clock                         100 MHz
// TOY-NEXT:   cores x sub-cores             2 x 1
// TOY-NEXT:   device memory (shared)        16 B/cycle
// TOY-NEXT:   DMA read / write per core     16 / 16 B/cycle
// TOY-NEXT:   DMA granularity               16 B
// TOY-NEXT:   feed / drain per core         16 / 16 B/cycle
// TOY-NEXT:   interconnect                  8 B/cycle per direction, 2 cycles per hop
// TOY-NEXT:   f16 elements/cycle            plain 16, transcendental 4, reduction_step 16
// TOY-NEXT:   !spyreop.df16 elements/cycle  plain 16, transcendental 4, reduction_step 16
// TOY-NEXT:   f32 elements/cycle            plain 8, transcendental 2, reduction_step 8
// TOY-NEXT:   DDR x1 read / write           16 / 16 B/cycle each
// TOY-NEXT:   L1 x2 read / write            48 / 48 B/cycle each
// TOY-NEXT:   SFU_REG x2 read / write       0 / 0 B/cycle each
// TOY-NEXT:   PT_ACC x2 read / write        0 / 0 B/cycle each
// TOY-EMPTY:
// TOY-NEXT: compute beside bandwidth (whole device, per cycle)
// TOY-NEXT:   operands       multiplied on         flop/cycle  TFLOP/s  device memory B/cycle  ridge flop/B
// TOY-NEXT:   f16            PT x2 (2x8 f16->f32)  64          0.0064   16                     4
// TOY-NEXT:   !spyreop.df16  SFU x2 (fma)          32          0.0032   16                     2
// TOY-NEXT:   f32            SFU x2 (fma)          16          0.0016   16                     1
// TOY-NOT:  example values

// SPYRE:      cores: 32 cores on a ring, 2 sub-core(s) per core
// SPYRE:      L1       2 MiB    32     DDR     512
// SPYRE:      SFU    64     compute, simd {{.*}} f16=64 !spyreop.df16=64 f32=32  plain=1 transcendental=4 reduction_step=1
// SPYRE:      PT     64     matrix                        8x64 f16->f32                   step=1 fill=8 drain=8
// SPYRE:      L1LU[0.0]  SFU[0.0]   fifo  128      1        128, 2       16 x 128, ordered
// SPYRE:      RING[0]    RING[1]    ring  128      8
// SPYRE-NEXT: RING[0]    RING[31]   ring  128      8
// SPYRE:      L1[0]     L1[16]    RING[0] RING[1] ... RING[15] RING[16]  18    128              136
// SPYRE:      device memory (shared)        128 B/cycle
// SPYRE:      f16 elements/cycle            plain 4096, transcendental 1024, reduction_step 4096
// SPYRE:      compute beside bandwidth (whole device, per cycle)
// SPYRE-NEXT:   operands       multiplied on           flop/cycle  TFLOP/s  device memory B/cycle  ridge flop/B
// SPYRE-NEXT:   f16            PT x64 (8x64 f16->f32)  65536       65.536   128                    512
// SPYRE-NEXT:   !spyreop.df16  SFU x64 (fma)           8192        8.192    128                    64
// SPYRE:      example values (not public)
// SPYRE:      device @spyre: clock_mhz = 1000
// SPYRE-NEXT: memory "DDR": port_bandwidth = 128
// SPYRE-NEXT: group "core": interconnect.latency = 8
// SPYRE:      exec_unit "PT": matrix.fill = 8

// LINE:      interconnect: line through NOC, 32 B/cycle per direction, 3 cycles per hop
// LINE:      NOC[0]  NOC[1]  line  32       3
// LINE-NOT:  NOC[0]  NOC[3]
// LINE:      SPM[0]  SPM[3]  NOC[0] NOC[1] NOC[2] NOC[3]  5     32               11
// LINE:      f32 elements/cycle         plain 128, transcendental 16, reduction_step 64
// LINE:      compute beside bandwidth (whole device, per cycle)
// LINE-NEXT:   operands  multiplied on  flop/cycle  TFLOP/s  device memory B/cycle  ridge flop/B
// LINE-NEXT:   f32       VPU x4 (fma)   256         0.2048   256                    1

// UNTIMED:     DDR     DMA[0]  -     -        -        8            -
// UNTIMED:     L1[0]   PE[0]   -     -        -        -            2 x ?, ordered
// UNTIMED:     DDR    PE[0]  DMA[0] L1[0]  3     -                -
// UNTIMED:     untimed: 18 timing figures missing (ktc arch check lists them); no roofline
// UNTIMED-NOT: roofline
