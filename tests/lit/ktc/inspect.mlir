// `ktc compile` packages a hand-written DataflowIR kernel (Inputs/halve.mlir) for the
// toy device and `ktc inspect` shows the package: the manifest, the signature, the
// symbol table as expressions over the dataflow's parameters, the prepare plan (load
// once), the launch plan (a host loop that computes, sends and runs) and each
// engine's disassembly with the relocated immediates named by their symbols and, beside
// every instruction, the file:line:col of the DataflowIR op it came from.

// RUN: ktc compile %S/Inputs/halve.mlir --arch toy -o %t.ktpkg
// RUN: ktc inspect %t.ktpkg | filecheck %s

// CHECK:      package: format 4, compiled by ktc {{[0-9.]+}}
// CHECK-NEXT: arch: toy (sha256 {{[0-9a-f]+}}), arguments in DDR
// CHECK-NEXT: kernel: @halve, grid [2]
// CHECK-NEXT: arguments:
// CHECK-NEXT:   %x: scalar index
// CHECK-NEXT:   %y: scalar index
// CHECK-NEXT:   %rows: scalar index
// CHECK-NEXT: dataflow 0 "halve_rows": 13 units, 5 engine programs
// CHECK-NEXT:   parameters: x, i, y
// CHECK-NEXT:   symbol 1 @x_bytes = ((x + (i * 64)) * 2)
// CHECK-NEXT:   symbol 2 @y_bytes = ((y + (i * 64)) * 2)
// CHECK-NEXT: prepare plan:
// CHECK-NEXT:   InitTransfer dataflow 0
// CHECK-NEXT: launch plan:
// CHECK-NEXT:   Loop loop0 from 0 to %rows step 2
// CHECK-NEXT:     ComputeOnHost dataflow 0 (x = %x, i = loop0, y = %y)
// CHECK-NEXT:     DataTransfer dataflow 0
// CHECK-NEXT:     ComputeOnDevice dataflow 0
// CHECK-NEXT: disassembly of dataflow 0 "halve_rows":
// CHECK:      engine "MNILU" on MNILU[0.0], MNILU[1.0]
// CHECK-NEXT:   uniform 0 = [1, 2]
// CHECK:        li s{{[0-9]+}}, @x_bytes {{ +}}// {{.*}}Inputs/halve.mlir:41:5
// CHECK:        dma d0, d1 {{ +}}// {{.*}}Inputs/halve.mlir:65:7
// CHECK-NEXT:   ssend s{{[0-9]+}}, 1 {{ +}}// {{.*}}Inputs/halve.mlir:66:7
// CHECK-NEXT:   halt {{ +}}// {{.*}}Inputs/halve.mlir:58:5
// CHECK:      engine "L1LU" on L1LU[0.0], L1LU[1.0]
// CHECK:      engine "SFU" on SFU[0.0], SFU[1.0]
// CHECK:        vop.mul f16{{.*}}// {{.*}}Inputs/halve.mlir:84:7
// CHECK:      engine "L1SU" on L1SU[0.0], L1SU[1.0]
// CHECK:      engine "MNISU" on MNISU[0.0], MNISU[1.0]
// CHECK:        li s{{[0-9]+}}, @y_bytes
