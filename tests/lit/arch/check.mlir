// `ktc arch check` accepts both shipped devices, a third chip and a device that
// imports another, by name or by path; an untimed device is valid and gets a note
// per missing timing figure; unknown names and missing files are errors.

// RUN: ktc arch check spyre | filecheck %s --check-prefix=SPYRE
// RUN: ktc arch check %root/arch/toy.mlir | filecheck %s --check-prefix=TOY
// RUN: ktc arch check %S/Inputs/line4.mlir | filecheck %s --check-prefix=LINE
// RUN: ktc arch check %S/Inputs/imports_toy.mlir | filecheck %s --check-prefix=IMPORT
// RUN: ktc arch check %S/Inputs/untimed.mlir | filecheck %s --check-prefix=UNTIMED
// RUN: not ktc arch check nosuchchip 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ktc arch check %S/Inputs/missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// SPYRE: arch/spyre.mlir: device @spyre is valid (32 cores on a ring, 2 sub-core(s) per core, timed)
// SPYRE-NOT: note:
// TOY: arch/toy.mlir: device @toy is valid (2 cores on a ring, 1 sub-core(s) per core, timed)
// LINE: Inputs/line4.mlir: device @line4 is valid (4 cores on a line, 1 sub-core(s) per core, timed)
// IMPORT: Inputs/imports_toy.mlir: device @my_toy is valid (2 cores on a ring, 1 sub-core(s) per core, timed)

// UNTIMED:      Inputs/untimed.mlir: device @untimed is valid (1 core(s), 1 sub-core(s) per core, untimed: 18 timing figures missing)
// UNTIMED-NEXT: Inputs/untimed.mlir:4:1: note: device @untimed has no ktdf_arch.clock_mhz
// UNTIMED-NEXT: Inputs/untimed.mlir:5:3: note: memory "DDR" has no ktdf_arch.port_bandwidth
// UNTIMED-NEXT: Inputs/untimed.mlir:9:5: note: exec_unit "PE" has no ktdf_arch.issue_cycles.plain
// UNTIMED:      Inputs/untimed.mlir:12:5: note: datapath has no ktdf_arch.feature.queue.size

// UNKNOWN: error: unknown device 'nosuchchip' (available: spyre, toy)
// MISSING: Inputs/missing.mlir: error: device file not found
