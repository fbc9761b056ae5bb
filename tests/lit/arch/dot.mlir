// `ktc arch dot --expand` draws the routing graph in Graphviz DOT: device memory
// outside the clusters, one cluster per core holding one per sub-core, memories as
// cylinders with their size, the compute engine and the matrix unit in bold, every link
// labelled with its kind, bandwidth and latency, ring links included. -o writes a
// file. Without --expand (DEFAULT) only core 0 is drawn, marked with the number of
// cores, and the links to the other cores end at one dashed node standing for them.

// RUN: ktc arch dot toy --expand | filecheck %s
// RUN: ktc arch dot toy --expand -o %t.dot && filecheck %s < %t.dot
// RUN: ktc arch dot toy | filecheck %s --check-prefix=DEFAULT

// DEFAULT:      label="core 0 (×2, alike)";
// DEFAULT-NOT:  cluster_1
// DEFAULT:      others [label="core 1" shape=box style="dashed"];
// DEFAULT:      n0 -> n2 [label="16 B/c 10 cy"];
// DEFAULT:      n0 -> others [label="16 B/c 10 cy"];
// DEFAULT-NOT:  n0 -> others
// DEFAULT:      n4 -> others [label="ring 8 B/c 2 cy"];
// DEFAULT-NEXT: others -> n4 [label="ring 8 B/c 2 cy"];
// DEFAULT-NEXT: }

// CHECK:      digraph "toy" {
// CHECK-NEXT:   rankdir=LR;
// CHECK-NEXT:   newrank=true;
// CHECK-NEXT:   node [fontname="monospace"];
// CHECK-NEXT:   n0 [label="DDR\n1 MiB" shape=cylinder];
// CHECK-NEXT:   subgraph "cluster_0" {
// CHECK-NEXT:     label="core 0";
// CHECK-NEXT:     n1 [label="L1[0]\n64 KiB" shape=cylinder];
// CHECK-NEXT:     n2 [label="MNILU[0]" shape=box];
// CHECK-NEXT:     n3 [label="MNISU[0]" shape=box];
// CHECK-NEXT:     n4 [label="RING[0]" shape=box];
// CHECK-NEXT:     subgraph "cluster_0_0" {
// CHECK-NEXT:       label="sub-core 0";
// CHECK-NEXT:       n5 [label="SFU_REG[0.0]\n256 B" shape=cylinder];
// CHECK-NEXT:       n6 [label="SFU[0.0]" shape=box style="bold"];
// CHECK-NEXT:       n7 [label="L1LU[0.0]" shape=box];
// CHECK-NEXT:       n8 [label="L1SU[0.0]" shape=box];
// CHECK-NEXT:       n9 [label="PT_ACC[0.0]\n512 B" shape=cylinder];
// CHECK-NEXT:       n10 [label="PT[0.0]" shape=box style="bold"];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   subgraph "cluster_1" {
// CHECK:        n0 -> n2 [label="16 B/c 10 cy"];
// CHECK:        n7 -> n6 [label="fifo 16 B/c 1 cy"];
// CHECK:        n7 -> n10 [label="fifo 16 B/c 1 cy"];
// CHECK-NEXT:   n10 -> n8 [label="fifo 16 B/c 1 cy"];
// CHECK:        n4 -> n14 [label="ring 8 B/c 2 cy"];
// CHECK-NEXT:   n14 -> n4 [label="ring 8 B/c 2 cy"];
// CHECK-NEXT: }
