// `ktc run` compiles a KTIR kernel, prepares it once on the toy device's simulator,
// launches it on random inputs and checks the outputs against the reference
// interpreter bit for bit (the kernel does not reduce). `--report` prints cycles, the
// ideal and the efficiency against it (the arrays' 1536 bytes each through device memory
// once), the issued-traffic bound, per-engine and per-memory figures; `--report-json`, `--save-outputs`
// and `--trace` write them to files.

// RUN: ktc run %S/Inputs/add16.mlir --arch toy --check --report --report-json %t.json --save-outputs %t.npz --trace %t.trace.json | filecheck %s
// CHECK: @add: 2 tiles on @toy, [[CYCLES:[0-9]+]] cycles, simulated in
// CHECK-NEXT: %a: f16[16x16] min {{.*}} (after the run; input drawn at random)
// CHECK-NEXT: %b: f16[16x16] min {{.*}} (after the run; input drawn at random)
// CHECK-NEXT: %c: f16[16x16] min {{.*}} (after the run; input drawn at random)
// CHECK-NEXT: cycles: [[CYCLES]] ({{[0-9.]+}} us at 100 MHz, @toy)
// CHECK-NEXT: ideal: {{[0-9]+}} cycles; efficiency {{[0-9.]+}}%; traffic 1536 B issued (1024 B read) for 1536 B of arrays (overhead 1.00x)
// CHECK-NEXT: terms: DDR bandwidth {{[0-9]+}}
// CHECK-NEXT: issued-traffic bound: {{[0-9]+}} cycles, bound by DDR bandwidth; {{[0-9.]+}}% of the cycles
// CHECK: engines (cycles summed over instances):
// CHECK-NEXT: MNILU x2 busy {{[0-9]+}} starved {{[0-9]+}} back-pressured {{[0-9]+}}
// CHECK: SFU x2 busy
// CHECK: memory traffic:
// CHECK-NEXT: DDR 1536 B {{[0-9.]+}} B/cycle ({{[0-9.]+}} GB/s)
// CHECK: check against the reference interpreter: bit-exact (the kernel does not reduce)
// CHECK-NEXT: check passed: 3 arrays, 768 elements compared, worst error 0

// The JSON report has the figures under stable keys, the simulated time is never below
// the bound nor the bound below the ideal, and the SFU's cycles are summed over its two instances.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); print(*sorted(d)); print(d['cycles'] >= d['bound_cycles'] >= d['ideal_cycles'] > 0, d['binding_resource'], d['bytes']); print(d['engines']['SFU'])" %t.json | filecheck %s --check-prefix=JSON
// JSON: arch bandwidth_bytes_per_cycle binding_resource bound_cycles bound_efficiency bound_terms bytes clock_mhz cycles cycles_per_wall_s efficiency engines ideal_bytes ideal_cycles ideal_terms instances issued_bytes read_bytes traffic_overhead wall_s
// JSON-NEXT: True DDR bandwidth {'DDR': 1536, 'L1': 3072}
// JSON-NEXT: {'instances': 2, 'busy': {{[0-9]+}}, 'starved': {{[0-9]+}}, 'backpressured': 0}

// The saved outputs hold every pointer argument; c is a + b. The trace has busy
// intervals (complete events) and FIFO occupancy counters.
// RUN: %python -c "import numpy as np, sys; o = np.load(sys.argv[1]); print(o.files, o['c'].dtype, o['c'].shape, (o['c'] == o['a'] + o['b']).all())" %t.npz | filecheck %s --check-prefix=SAVED
// SAVED: ['a', 'b', 'c'] float16 (16, 16) True
// RUN: %python -c "import json, sys; e = json.load(open(sys.argv[1]))['traceEvents']; print(sorted({x['ph'] for x in e}))" %t.trace.json | filecheck %s --check-prefix=TRACE
// TRACE: ['C', 'M', 'X']

// Given arrays come from --inputs; what they lack is drawn.
// RUN: %python -c "import numpy as np, sys; np.savez(sys.argv[1], a=np.full((16, 16), 2, np.float16), b=np.ones((16, 16), np.float16))" %t.in.npz
// RUN: ktc run %S/Inputs/add16.mlir --arch toy --inputs %t.in.npz --check | filecheck %s --check-prefix=GIVEN
// GIVEN: %a: f16[16x16] min 2 max 2 mean 2 (after the run; input given)
// GIVEN-NEXT: %b: f16[16x16] min 1 max 1 mean 1 (after the run; input given)
// GIVEN-NEXT: %c: f16[16x16] min 3 max 3 mean 3 (after the run; input drawn at random)
// GIVEN: check passed

// A kernel whose loop runs zero times runs no program on the device: 0 cycles, and its
// outputs are its inputs.
// RUN: ktc run %S/Inputs/no_rows.mlir --arch toy --report --check | filecheck %s --check-prefix=NOTHING
// NOTHING: @add: 2 tiles on @toy, 0 cycles
// NOTHING: cycles: 0
// NOTHING: check passed: 3 arrays
