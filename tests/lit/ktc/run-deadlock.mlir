// A schedule that needs two FIFO beats deadlocks on a device whose FIFOs hold one:
// `ktc run` reports every blocked engine, the file:line:col of the op its instruction
// came from, what it waits on and the FIFO's occupancy and depth, and exits 1 (the same
// schedule runs on the toy device).

// RUN: ktc run %root/tests/e2e/inputs/queue_two_rows.mlir --arch toy --arg x=0 --arg y=64 | filecheck %s --check-prefix=TOY
// TOY: @queue_two_rows: 1 tile on @toy, {{[0-9]+}} cycles

// RUN: not ktc run %root/tests/e2e/inputs/queue_two_rows.mlir --arch %root/tests/e2e/inputs/toy_fifo_depth_1.mlir --arg x=0 --arg y=64 2>&1 | filecheck %s
// With --trace, the trace of the stopped run is kept, and the error says where.
// RUN: rm -f %t.trace.json && not ktc run %root/tests/e2e/inputs/queue_two_rows.mlir --arch %root/tests/e2e/inputs/toy_fifo_depth_1.mlir --arg x=0 --arg y=64 --trace %t.trace.json 2>&1 | filecheck %s --check-prefix=TRACE
// RUN: %python -c "import json, sys; print(len(json.load(open(sys.argv[1]))['traceEvents']) > 0)" %t.trace.json | filecheck %s --check-prefix=KEPT
// TRACE: (the trace of the stopped run is in {{.*}}trace.json)
// KEPT: True
// CHECK: error: device: deadlock at cycle {{[0-9]+}}: 4 engines wait forever
// CHECK-NEXT: L1LU[c.0] on core 0 pc 10 `send v1, s4, 6` (at {{.*}}queue_two_rows.mlir:44:7): waits for room in FIFO L1LU[c.0] -> SFU[c.0] (id 6): 1/1 beats of 16 B
// CHECK-NEXT: SFU[c.0] on core 0 pc 3 `srecv s0, 5` (at {{.*}}queue_two_rows.mlir:50:7): waits for signal id 5 from L1LU[c.0]
// CHECK-NEXT: L1SU[c.0] on core 0 pc 7 `recv v0, s5, 3, f16, 8` (at {{.*}}queue_two_rows.mlir:61:7): waits for data in FIFO SFU[c.0] -> L1SU[c.0] (id 3): 0/1 beats of 16 B
// CHECK-NEXT: MNISU on core 0 pc 7 `srecv s3, 4` (at {{.*}}queue_two_rows.mlir:71:7): waits for signal id 4 from L1SU[c.0]
